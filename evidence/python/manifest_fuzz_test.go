package python

import (
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// FuzzManifestChanges: whatever two sides of a pyproject.toml hold,
// reading what they change ends without a panic, and a file compared
// with itself changes nothing.
func FuzzManifestChanges(f *testing.F) {
	f.Add("[project]\nname = \"a\"\n[project.entry-points.\"g\"]\nx = \"a.b:C\"\n", "[tool.poetry]\nname = \"a\"\n[tool.poetry.plugins.\"g\"]\nx = \"a.c:C\"\n")
	f.Fuzz(func(t *testing.T, base, head string) {
		var l pythonLang
		file := diffparse.File{Path: "pyproject.toml"}
		l.ManifestChanges(file, []byte(base), []byte(head))
		if got := l.ManifestChanges(file, []byte(base), []byte(base)); len(got) > 0 {
			t.Errorf("pyproject.toml compared with itself changes %q", got)
		}
	})
}
