package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
)

// TestNameTemplatesFindDispatch: a function that dispatches by name
// (getattr(self, 'xpath_%s_function' % name), 'visit_' + kind) calls the
// functions its template names, so a changed one is reached from it
// (cssselect's xpath_nth_child_function, reached only so, was "not
// exercised" on every intended change to it), and JavaScript's
// this["$" + type] calls $Date (ohash's serializer).
func TestNameTemplatesFindDispatch(t *testing.T) {
	body := `        method = getattr(self, 'xpath_%s_function' % function.name.replace('-', '_'), None)
        other = getattr(self, "visit_" + type(node).__name__)
        third = "render_{}".format(kind)
        plain = "not a template"
      const handler = this["$" + objType];
`
	templates := nameTemplates(body)
	matches := func(name string) bool {
		for _, tmpl := range templates {
			if tmpl.MatchString(name) {
				return true
			}
		}
		return false
	}
	for _, name := range []string{"xpath_nth_child_function", "visit_Call", "render_table", "$Date"} {
		if !matches(name) {
			t.Errorf("%s is dispatched to, and no template of the body matches it", name)
		}
	}
	for _, name := range []string{"xpath_nth_child", "nth_child_function", "visit", "plain", "not_a_template", "Date", "$"} {
		if matches(name) {
			t.Errorf("%s is not dispatched to, and a template matches it", name)
		}
	}
}

// TestSiblingsFollowNoLink: the files of a changed file's directory are
// read for entry points, but a link there, which the head commits as it
// likes (to /dev/zero, to a file of the user's outside the tree), is not
// followed: only regular files are read.
func TestSiblingsFollowNoLink(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside.py")
	if err := os.WriteFile(outside, []byte("def leaked():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var trees []string
	for _, side := range []string{"head", "base"} {
		dir := filepath.Join(root, side, "pkg")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "plain.py"), []byte("def plain():\n    return 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "linked.py")); err != nil {
			t.Fatal(err)
		}
		trees = append(trees, filepath.Join(root, side))
	}
	l := lang.StaticLanguages()["python"]
	if l == nil {
		t.Fatal("no python language registered")
	}
	var read []string
	for _, f := range siblings(l, "python", "pkg", trees[0], trees[1], map[string]bool{}) {
		read = append(read, f.Path)
	}
	if !slices.Equal(read, []string{"pkg/plain.py"}) {
		t.Errorf("siblings read %v, want the regular file alone", read)
	}
}
