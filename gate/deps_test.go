package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCopyHasTheInstalledDependencies: a private copy of a JavaScript
// project gets the work tree's installed node_modules when its manifests
// are the work tree's, so a module importing a package loads in the box;
// a commit whose package.json differs from what was installed gets none.
func TestCopyHasTheInstalledDependencies(t *testing.T) {
	needNode(t)
	dir := writeTree(t, map[string]string{
		".gitignore":                    "node_modules/\n",
		"package.json":                  `{"name": "app", "type": "module", "dependencies": {"pad": "1.0.0"}}`,
		"lib/m.js":                      "import pad from 'pad';\nexport function label(s) { return pad(s, 5); }\n",
		"node_modules/pad/package.json": `{"name": "pad", "version": "1.0.0", "main": "index.js"}`,
		"node_modules/pad/index.js":     "module.exports = (s, n) => s.padStart(n, '.');\n",
	})
	git := func(args ...string) {
		t.Helper()
		gitIn(t, dir, args...)
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "old deps")
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "app", "type": "module", "dependencies": {"pad": "2.0.0"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "new deps")

	ctx := context.Background()
	head, cleanup, err := Checkout(ctx, dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	a, err := NewNodeAdapter(NodeConfig{Dir: head, Timeout: 5 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Call(ctx, Call{ID: "D1", Target: "lib/m.label", Args: []any{"ab"}})
	if err != nil || got.Outcome != OutcomeReturned || got.Value != "...ab" {
		t.Errorf("label('ab') in the copy of HEAD: %+v, %v; want ...ab through the installed pad", got, err)
	}

	old, cleanupOld, err := Checkout(ctx, dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanupOld()
	if _, err := os.Lstat(filepath.Join(old, "node_modules")); err == nil {
		t.Errorf("the copy of HEAD~1, whose package.json is not what was installed, has node_modules")
	}
}

// TestCommittedNodeModulesAreNotLent: node_modules files a commit tracks
// are the patch's own code, not an install: a copy of the base, whose
// manifests are the work tree's, gets none of them.
func TestCommittedNodeModulesAreNotLent(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".gitignore":                    "node_modules/\n",
		"package.json":                  `{"name": "app", "type": "module", "dependencies": {"pad": "1.0.0"}}`,
		"lib/m.js":                      "import pad from 'pad';\nexport function label(s) { return pad(s, 5); }\n",
		"node_modules/pad/package.json": `{"name": "pad", "version": "1.0.0", "main": "index.js"}`,
		"node_modules/pad/index.js":     "module.exports = (s, n) => s.padStart(n, '.');\n",
	})
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "base")
	// The patch commits a pad of its own, which the base would load.
	if err := os.WriteFile(filepath.Join(dir, "node_modules/pad/index.js"), []byte("module.exports = (s) => s;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "-f", "node_modules")
	gitIn(t, dir, "commit", "-qm", "vendor pad")
	base, cleanup, err := Checkout(context.Background(), dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if _, err := os.Lstat(filepath.Join(base, "node_modules")); err == nil {
		t.Errorf("the base's copy was lent a node_modules the patch committed")
	}
}
