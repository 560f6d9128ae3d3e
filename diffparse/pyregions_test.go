package diffparse

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPythonRegionsMatchWholeFile edits the large modules of the installed
// standard library the way patches do (a comment inserted, a blank line
// deleted, a function added, a line changed) and checks that parsing only
// the regions around the changes gives exactly the changed symbols of a
// whole-file parse.
func TestPythonRegionsMatchWholeFile(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Fatalf("python3 is required: %v", err)
	}
	root := strings.TrimSpace(string(out))
	tmp := t.TempDir()
	var names []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || lineCount(src) < regionMinLines || len(src)%2 == 1 {
			return err // half of the large modules keep the test short
		}
		rel, _ := filepath.Rel(root, p)
		name := strings.ReplaceAll(rel, "/", "__")
		names = append(names, name)
		for dir, data := range map[string][]byte{"a": src, "b": patchLike(src, len(names))} {
			if err := os.MkdirAll(filepath.Join(tmp, dir), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(tmp, dir, name), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "diff", "--no-index", "--no-color", "--no-ext-diff", "a", "b")
	cmd.Dir = tmp
	diff, _ := cmd.Output() // exit status 1: the trees differ
	files, err := Parse(diff, "stdlib.diff")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("only %d large modules edited", len(files))
	}
	compared, symbols, byRegion := 0, 0, 0
	q := qualifyWith("m")
	for _, f := range files {
		head, _ := os.ReadFile(filepath.Join(tmp, "b", filepath.Base(f.Path)))
		base, _ := os.ReadFile(filepath.Join(tmp, "a", filepath.Base(f.Path)))
		hd, bd, herr, berr := pythonFrontEnd{}.declsPair(head, base, f.Hunks)
		if herr != nil || berr != nil {
			continue // the edit broke the module (a line inside a string); nothing to compare
		}
		want := changedSymbols(f.Hunks, hd, bd, q, q)
		rh, rb, err := pythonFrontEnd{}.regionDecls(head, base, f.Hunks)
		if err != nil {
			continue // Load parses such a file whole
		}
		byRegion++
		got := changedSymbols(f.Hunks, rh, rb, q, q)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: region parse differs from the whole-file parse (-whole +regions):\n%s", f.Path, diff)
		}
		compared++
		symbols += len(want)
	}
	t.Logf("%d large modules edited, %d parsed by regions, %d changed symbols compared", len(files), byRegion, symbols)
	if byRegion < len(files)*9/10 {
		t.Errorf("only %d of %d modules parsed by regions; the statement scanner falls back too often", byRegion, len(files))
	}
}

// patchLike edits a module at a few places chosen from seed.
func patchLike(src []byte, seed int) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	n := len(lines)
	pick := func(k int) int { return (seed*7919 + k*104729) % n }
	// Change a line (append a comment), delete a blank line, add a
	// function before a top-level def, insert a comment line.
	if i := pick(1); strings.HasSuffix(lines[i], "\n") && !strings.HasSuffix(strings.TrimRight(lines[i], "\n"), "\\") {
		lines[i] = strings.TrimRight(lines[i], "\n") + "  # changed\n"
	}
	for i := pick(2); i < n; i++ {
		if strings.TrimSpace(lines[i]) == "" {
			lines = append(lines[:i], lines[i+1:]...)
			break
		}
	}
	for i := pick(3); i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "def ") {
			lines = append(lines[:i], append([]string{fmt.Sprintf("def premise_added_%d():\n    return %d\n\n\n", seed, seed)}, lines[i:]...)...)
			break
		}
	}
	if i := pick(4); i < len(lines) {
		lines = append(lines[:i], append([]string{"# inserted\n"}, lines[i:]...)...)
	}
	// Rename a method and drop another's def line (its body joins the
	// method before it): names that other classes also define, whose
	// base and head definitions decide added, modified and deleted.
	renamed := false
	for i := pick(5); i < len(lines); i++ {
		if !renamed && strings.HasPrefix(lines[i], "    def ") {
			lines[i] = strings.Replace(lines[i], "(", "_renamed(", 1)
			renamed = true
			continue
		}
		prev := i - 1
		for prev > 0 && strings.TrimSpace(lines[prev]) == "" {
			prev--
		}
		if renamed && strings.HasPrefix(lines[i], "    def ") && strings.HasSuffix(lines[i], "):\n") && strings.HasPrefix(lines[prev], "        ") &&
			i+1 < len(lines) && strings.HasPrefix(lines[i+1], "        ") {
			lines = append(lines[:i], lines[i+1:]...)
			break
		}
	}
	// Add a line to one top-level function and rename the next: an edit
	// with no deleted line, whose function only the base's definitions
	// tell modified from added.
	edited := false
	for i := pick(6); i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "def ") || !strings.HasSuffix(lines[i], "):\n") {
			continue
		}
		if !edited {
			lines = append(lines[:i+1], append([]string{"    pass  # premise\n"}, lines[i+1:]...)...)
			edited = true
			continue
		}
		lines[i] = strings.Replace(lines[i], "(", "_renamed(", 1)
		break
	}
	return []byte(strings.Join(lines, ""))
}
