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
