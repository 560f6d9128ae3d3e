package humanize_test

import (
	"testing"

	"github.com/acme/go-humanize"
)

func TestComma(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{-1000, "-1,000"}, {1 << 40, "1,099,511,627,776"}} {
		if got := humanize.Comma(c.n); got != c.want {
			t.Error(got)
		}
	}
}
