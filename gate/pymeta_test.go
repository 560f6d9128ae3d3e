package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPythonProjectMetadataIsInstalled: a package that reads its own
// installed metadata at import (its version, its plug-ins by entry point,
// as Markdown's extensions are named) raised PackageNotFoundError in
// premise's copy of a source tree, on both sides, and told nothing. The
// copy is given the .dist-info the pyproject.toml declares; a directory
// that is not premise's own copy is never written to.
func TestPythonProjectMetadataIsInstalled(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pyproject.toml"), `[project]
name = "fruit-lib"
version = "1.2"

[project.entry-points."fruitlib.plugins"]
kiwi = "fruitlib.kiwi:Kiwi"
`)
	writeFile(t, filepath.Join(dir, "fruitlib", "__init__.py"), `from importlib.metadata import version, entry_points

__version__ = version("fruit-lib")


def plugins():
    return [__version__] + sorted(e.name + "=" + e.value for e in entry_points(group="fruitlib.plugins"))
`)
	call := func(cfg Config) (Reply, error) {
		t.Helper()
		a, err := cfg.pythonAdapter(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		return a.Call(context.Background(), Call{ID: "x", Target: "fruitlib.plugins"})
	}
	if _, err := call(Config{}); err == nil || !strings.Contains(err.Error(), "PackageNotFoundError") {
		t.Fatalf("outside premise's copy: %v; the test does not test what it says", err)
	}
	if infos, _ := filepath.Glob(filepath.Join(dir, "*.dist-info")); len(infos) > 0 {
		t.Fatalf("a directory that is not premise's copy was written to: %v", infos)
	}
	got, err := call(Config{Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != OutcomeReturned || fmt.Sprint(got.Value) != "[1.2 kiwi=fruitlib.kiwi:Kiwi]" {
		t.Errorf("in premise's copy: %+v, want the version and the plug-in", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "fruit_lib-1.2.dist-info", "METADATA")); err != nil {
		t.Errorf("no .dist-info named as pip names it: %v", err)
	}
	// A link the tree put where the .dist-info goes (dangling here) is
	// neither written through nor a reason to stop the run.
	linked := t.TempDir()
	writeFile(t, filepath.Join(linked, "pyproject.toml"), "[project]\nname = \"fruit-lib\"\nversion = \"1.2\"\n")
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.Symlink(outside, filepath.Join(linked, "fruit_lib-1.2.dist-info")); err != nil {
		t.Fatal(err)
	}
	if err := installPythonMeta(linked, linked); err != nil {
		t.Errorf("a link at the .dist-info's name stopped the run: %v", err)
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Errorf("premise wrote through the tree's link to %s", outside)
	}
	// A pyproject.toml the reader refuses leaves the tree as it was: the
	// run goes on uninstalled rather than failing.
	broken := t.TempDir()
	writeFile(t, filepath.Join(broken, "pyproject.toml"), "[project\nname = ")
	if err := installPythonMeta(broken, broken); err != nil {
		t.Errorf("a pyproject.toml that does not parse stopped the run: %v", err)
	}
}

// FuzzInstallPythonMeta: whatever a pyproject.toml holds, premise writes
// at most one .dist-info, inside the copy, and every entry point it
// writes is one line.
func FuzzInstallPythonMeta(f *testing.F) {
	f.Add("[project]\nname = \"a\"\nversion = \"1\"\n[project.entry-points.g]\nk = \"m:o\"\n")
	f.Add("[tool.poetry]\nname = \"b\"\n[tool.poetry.plugins.\"x\"]\n\"y\" = \"z\"\n")
	f.Add("[project]\nname = \"../../x\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		from, dir := t.TempDir(), t.TempDir()
		if err := os.WriteFile(filepath.Join(from, "pyproject.toml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := installPythonMeta(dir, from); err != nil {
			return
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) > 1 {
			t.Fatalf("%d entries written", len(entries))
		}
		for _, e := range entries {
			if !e.IsDir() || !strings.HasSuffix(e.Name(), ".dist-info") || strings.ContainsAny(e.Name(), "/\\") {
				t.Fatalf("wrote %q", e.Name())
			}
			eps, _ := os.ReadFile(filepath.Join(dir, e.Name(), "entry_points.txt"))
			for _, line := range strings.Split(string(eps), "\n") {
				if line != "" && !strings.HasPrefix(line, "[") && !strings.Contains(line, " = ") {
					t.Fatalf("entry_points.txt line %q", line)
				}
			}
		}
	})
}
