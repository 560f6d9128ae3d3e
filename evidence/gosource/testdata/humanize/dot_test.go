package humanize_test

import (
	"testing"

	. "github.com/acme/go-humanize"
)

func TestBytes(t *testing.T) {
	Bytes(18446744073709551615)
}
