package diffparse

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	root := pythonStdlib(t)
	tmp := t.TempDir()
	var names []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
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

// TestRegionReuseMatchesFreshParse checks that a base statement parsed from
// its head statement's edited tree gives exactly the declarations of a
// fresh parse, under edits at the statements' edges (where a piece's lines
// are hardest to line up), and that the reuse does happen.
func TestRegionReuseMatchesFreshParse(t *testing.T) {
	t.Parallel()
	root := pythonStdlib(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(11))
	edits := []func(lines []string, i int) []string{
		func(l []string, i int) []string { return slices.Insert(l, i, "x_premise = 1\n") },         // a statement before a statement
		func(l []string, i int) []string { return slices.Insert(l, i, "# premise\n") },             // a comment before it
		func(l []string, i int) []string { return slices.Insert(l, i, "    # premise\n") },         // an indented one
		func(l []string, i int) []string { return slices.Insert(l, i+1, "    pass  # premise\n") }, // a line after its header
		func(l []string, i int) []string { return slices.Delete(l, i, i+1) },                       // its first line gone
		func(l []string, i int) []string { // its line before gone
			if i > 0 {
				return slices.Delete(l, i-1, i)
			}
			return l
		},
		func(l []string, i int) []string { l[i] = strings.TrimRight(l[i], "\n") + "  # premise\n"; return l },
	}
	reused, compared := 0, 0
	for _, name := range []string{"argparse.py", "ast.py", "inspect.py", "typing.py", "dataclasses.py", "subprocess.py", "pathlib.py", "enum.py", "unittest/case.py", "email/message.py", "http/client.py", "logging/__init__.py"} {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 6; round++ {
			lines := strings.SplitAfter(string(src), "\n")
			var tops []int // lines opening a top-level or class-level statement
			for i, l := range lines {
				if strings.HasPrefix(l, "def ") || strings.HasPrefix(l, "class ") || strings.HasPrefix(l, "@") || strings.HasPrefix(l, "    def ") {
					tops = append(tops, i)
				}
			}
			for e := 0; e < 4; e++ {
				at := tops[rng.Intn(len(tops))]
				lines = edits[rng.Intn(len(edits))](lines, at)
			}
			head := []byte(strings.Join(lines, ""))
			f := gitDiffFiles(t, dir, src, head)
			base := func() []byte { return src }
			want, wantBase, _, werr := regionDeclsWith(head, base, f.Hunks, false)
			got, gotBase, n, gerr := regionDeclsWith(head, base, f.Hunks, true)
			if (werr == nil) != (gerr == nil) {
				t.Errorf("%s round %d: errors differ: fresh %v, reusing %v", name, round, werr, gerr)
				continue
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s round %d: head declarations differ (-fresh +reusing):\n%s", name, round, diff)
			}
			if diff := cmp.Diff(wantBase, gotBase); diff != "" {
				t.Errorf("%s round %d: base declarations differ (-fresh +reusing):\n%s", name, round, diff)
			}
			reused += n
			compared++
		}
	}
	t.Logf("%d edited modules compared, %d base statements parsed from head trees", compared, reused)
	if reused < compared {
		t.Errorf("only %d base statements reused a head tree over %d edited modules", reused, compared)
	}
}

// TestPyKeepsShape checks that the base is spared its parse only when it
// declares what the head does: the symbols from regions, where keepsShape
// may spare the base, equal a whole-file parse of both sides, including
// for changes inside a body that hide or reveal a declaration (a def
// indented into a body, a string that swallows one), and a change inside a
// body is spared.
func TestPyKeepsShape(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, base, head string
		spared           bool
	}{
		{"inside a body", "def f():\n    a = 1\n    b = 2\n\n\ndef g():\n    pass\n", "def f():\n    a = 1\n    b = [2,\n         3]  # more\n\n\ndef g():\n    pass\n", true},
		{"a def moved into a body", "def f():\n    a = 1\ndef g():\n    pass\n", "def f():\n    a = 1\n    def g():\n        pass\n", false},
		{"a string that held a def", "def f():\n    s = '''\ndef g():\n    '''\n", "def f():\n    s = 1\ndef g():\n    pass\n", false},
		{"a continuation", "def f():\n    a = 1\n\n\ndef g():\n    pass\n", "def f():\n    a = 1 + \\\n        2\n\n\ndef g():\n    pass\n", false},
		{"a method's body", "class C:\n    def m(self):\n        return 1\n\n    def n(self):\n        pass\n", "class C:\n    def m(self):\n        x = 2\n        return x\n\n    def n(self):\n        pass\n", true},
		{"a function appended", "def f():\n    return 1\n", "def f():\n    return 1\n\n\n@cache\ndef h(x):\n    '''doc\n\n    more'''\n    return x\n\n\nclass K:\n    pass\n", true},
		{"a method added", "class C:\n    def m(self):\n        return 1\n\n    def n(self):\n        pass\n", "class C:\n    def m(self):\n        return 1\n\n    def added(self):\n        return 2\n\n    def n(self):\n        pass\n", true},
		{"an import added", "import os\n\n\ndef f():\n    return 1\n", "import os\nimport sys\n\n\ndef f():\n    return 1\n", true},
		{"a decorator added", "def f():\n    return 1\n\n\ndef g():\n    pass\n", "def f():\n    return 1\n\n\n@cache\ndef g():\n    pass\n", false},
		{"a def that takes the lines after it", "def f():\n    a = 1\n    b = 2\n", "def f():\n    a = 1\ndef g():\n    b = 2\n", false},
		{"a def added inside a string", "def f():\n    s = 1\n\n\ndef g():\n    pass\n", "def f():\n    s = 1\n\n\nt = '''\ndef h():\n    pass\n'''\n\n\ndef g():\n    pass\n", true},
		{"a class repeated", "class A:\n    pass\n\n\nclass B(A): pass\nclass C(A): pass\n", "class A:\n    pass\n\n\nclass B(A): pass\nclass B(A): pass\nclass C(A): pass\n", false},
		{"a string closed by added lines", "s = '''\ndef y():\n    a = 1\n\nx = 1\n'''\n", "s = '''\n'''\ndef y():\n    a = 1\n    b = 2\n\nx = 1\nt = '''\n'''\n", false},
		{"a method's line dedented", "class C:\n    def m(self):\n        return 1\n    def n(self):\n        pass\n", "class C:\n    def m(self):\n        return 1\n        def n(self):\n            pass\n", false},
	}
	q := qualifyWith("m")
	for _, c := range cases {
		f := gitDiffFiles(t, t.TempDir(), []byte(c.base), []byte(c.head))
		hd, bd, herr, berr := pythonFrontEnd{}.declsPair([]byte(c.head), []byte(c.base), f.Hunks)
		if herr != nil || berr != nil {
			t.Fatalf("%s: %v %v", c.name, herr, berr)
		}
		want := changedSymbols(f.Hunks, hd, bd, q, q)
		rh, rb, err := pythonFrontEnd{}.regionDecls([]byte(c.head), []byte(c.base), f.Hunks)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if diff := cmp.Diff(want, changedSymbols(f.Hunks, rh, rb, q, q)); diff != "" {
			t.Errorf("%s: symbols differ from a whole-file parse (-whole +regions):\n%s", c.name, diff)
		}
		hp := newPyRegions([]byte(c.head))
		if _, got := hp.keepsShape(f.Hunks, rh); got != c.spared {
			t.Errorf("%s: keepsShape = %v, want %v", c.name, got, c.spared)
		}
	}
}
