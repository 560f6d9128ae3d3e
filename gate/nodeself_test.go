package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSelfExportsStayInTheTree: the module premise writes for a missing
// built file never goes through a symbolic link (a dist/ pointing out of
// the tree), and one is written where nothing is in the way.
func TestSelfExportsStayInTheTree(t *testing.T) {
	outside := t.TempDir()
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "p", "type": "module", "exports": {".": "./dist/index.mjs", "./x": "./build/x.mjs"}}`,
		"src/index.ts": "export const a = 1;\n",
		"src/x.ts":     "export const x = 1;\n",
	})
	if err := os.Symlink(outside, filepath.Join(dir, "dist")); err != nil {
		// premise runs where its box does, on Linux, where a link in a
		// temporary directory is always allowed: a failure is the test's.
		t.Fatal(err)
	}
	linkSelfExports(dir)
	if _, err := os.Stat(filepath.Join(outside, "index.mjs")); !os.IsNotExist(err) {
		t.Errorf("a file was written through the dist/ link, outside the tree (%v)", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "build", "x.mjs"))
	if err != nil || string(b) != "export * from \"../src/x.js\";\n" {
		t.Errorf("build/x.mjs = %q, %v; want a re-export of the source's output", b, err)
	}
}

// TestSelfExportsFindAFormatNamedBuild: a package whose export is a built
// file named for its format (lib/p.esm.js, dist/q.umd.min.js), the name
// its own tests import it by, loads from the source the build is made
// from (src/p.ts, q.js at the top), the format words taken off the name;
// a word no build adds is not taken off.
func TestSelfExportsFindAFormatNamedBuild(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "p", "type": "module", "exports": {".": {"types": "./lib/p.d.ts", "default": "./lib/p.esm.js"}, "./q": "./dist/q.umd.min.js", "./r": "./dist/r.extra.js"}}`,
		"src/p.ts":     "export const a = 1;\n",
		"q.js":         "export const q = 1;\n",
		"src/r.js":     "export const r = 1;\n",
	})
	linkSelfExports(dir)
	for path, want := range map[string]string{
		"lib/p.esm.js":      "export * from \"../src/p.js\";\n",
		"dist/q.umd.min.js": "export * from \"../q.js\";\n",
	} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path))); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", path, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "dist", "r.extra.js")); !os.IsNotExist(err) {
		t.Errorf("dist/r.extra.js was written (%v); extra is no format a build names", err)
	}
}
