package golang

import (
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// FuzzManifestChanges: whatever two sides of a go.mod or go.work hold,
// reading what they change ends without a panic, and a file compared
// with itself changes nothing.
func FuzzManifestChanges(f *testing.F) {
	f.Add("go.mod", "module m\n\ngo 1.21\n", "module m\n\ngo 1.22rc1\n\nreplace (\n\ta => ./b\n\tc v1.0.0 => d v1.1.0\n)\n\ngodebug panicnil=1\n")
	f.Add("go.work", "go 1.22\n\nuse .\n", "go 1.22\n\nuse (\n\t.\n\t./fork\n)\n")
	f.Fuzz(func(t *testing.T, name, base, head string) {
		if name != "go.mod" {
			name = "go.work"
		}
		var l goLang
		l.ManifestChanges(diffparse.File{Path: name}, []byte(base), []byte(head))
		if got := l.ManifestChanges(diffparse.File{Path: name}, []byte(base), []byte(base)); len(got) > 0 {
			t.Errorf("%s compared with itself changes %q", name, got)
		}
	})
}
