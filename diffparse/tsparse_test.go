package diffparse

import (
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestParseStringMatchesParse checks that parsing through
// ts_parser_parse_string gives go-tree-sitter's own trees, fresh and
// reparsed from an edited tree, over standard-library modules.
func TestParseStringMatchesParse(t *testing.T) {
	t.Parallel()
	if !parseDirect {
		t.Fatal("go-tree-sitter's Parser or Tree holds more than its C pointer: parseString falls back to Parser.Parse on every parse")
	}
	root := pythonStdlib(t)
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(pythonLanguage()); err != nil {
		t.Fatal(err)
	}
	sexp := func(tr *sitter.Tree) string {
		if tr == nil {
			return "<nil>"
		}
		defer tr.Close()
		return tr.RootNode().ToSexp()
	}
	for _, name := range []string{"argparse.py", "ast.py", "json/__init__.py", "this.py", "__future__.py"} {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range [][]byte{src, src[:len(src)/3], nil, []byte("def f(:\n")} {
			if got, want := sexp(parseString(p, text, nil)), sexp(p.Parse(text, nil)); got != want {
				t.Errorf("%s (%d bytes): parseString's tree differs from Parse's", name, len(text))
			}
		}
		// Reparse after an edit: one line changed in the middle.
		i := len(src) / 2
		for i < len(src) && src[i] != '\n' {
			i++
		}
		edited := append(append(append([]byte{}, src[:i+1]...), "x_premise = 1\n"...), src[i+1:]...)
		old := p.Parse(src, nil)
		old2 := old.Clone()
		edit := &sitter.InputEdit{StartByte: uint(i + 1), OldEndByte: uint(i + 1), NewEndByte: uint(i + 1 + len("x_premise = 1\n"))}
		old.Edit(edit)
		old2.Edit(edit)
		got, want := sexp(parseString(p, edited, old)), sexp(p.Parse(edited, old2))
		old.Close()
		old2.Close()
		if got != want {
			t.Errorf("%s: parseString's reparse differs from Parse's", name)
		}
	}
}
