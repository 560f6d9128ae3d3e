package evidence

import "testing"

// TestProjectFilesAreNotData: a project's manifests and tool settings,
// its license and release notes, are what tools read of their user's
// project, not data the code reads of its own; a table beside the code is.
func TestProjectFilesAreNotData(t *testing.T) {
	for p, want := range map[string]bool{
		"pyproject.toml": true, "package.json": true, "requirements-dev.txt": true, "CHANGELOG.txt": true,
		"web/tsconfig.build.json": true, "LICENSE.txt": true,
		"units.json": false, "pkg/data/words.txt": false, "tables/rates.csv": false,
	} {
		if got := projectFile(p); got != want {
			t.Errorf("projectFile(%q) = %v, want %v", p, got, want)
		}
	}
}
