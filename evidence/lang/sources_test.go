package lang

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// TestInTestPathIsReadOnBothSides: a file is test code, unjudged, only
// when its base path says so too: a patch that moves a module under
// tests/ does not take its functions out of judgement.
func TestInTestPathIsReadOnBothSides(t *testing.T) {
	isTest := func(p string) bool { return strings.HasPrefix(p, "tests/") }
	for _, c := range []struct {
		name string
		f    diffparse.File
		want bool
	}{
		{"a test file changed", diffparse.File{Path: "tests/t.py", OldPath: "tests/t.py", Status: "modified"}, true},
		{"a test file added", diffparse.File{Path: "tests/t.py", Status: "added"}, true},
		{"code moved under tests/", diffparse.File{Path: "tests/m.py", OldPath: "pkg/m.py", Status: "renamed"}, false},
		{"code", diffparse.File{Path: "pkg/m.py", OldPath: "pkg/m.py", Status: "modified"}, false},
	} {
		if got := InTestPath(c.f, isTest); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
