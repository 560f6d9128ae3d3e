package semver_test

import (
	"fmt"
	"testing"

	sv "example.com/semver"
)

func TestExternal(t *testing.T) {
	sv.Compare("ext", sv.Pre)
	sv.Kind(sv.KindFile)
}

func ExampleCompare() {
	fmt.Println(sv.Compare("ex1", "ex2"))
	// Output: -1
}
