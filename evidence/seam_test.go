package evidence

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// languagePackages are the languages' own packages, beside the engine:
// each imports the seam (evidence/lang) and its own reader, never the
// engine or another language.
var languagePackages = []string{"python", "golang", "javascript"}

// TestEngineNamesNoLanguage holds the seam: no file of the engine (this
// package, tests aside) branches on a language's name (a "python" or "go"
// literal, validate.LangPython or LangGo) or imports a language's package
// or reader, so a language is added by implementing lang.Language in a
// package of its own, not by editing the engine. The languages are held
// apart the same way: none imports the engine or another language.
func TestEngineNamesNoLanguage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	engine := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		engine++
		f, fset := parseFile(t, name)
		for _, p := range importsOf(f) {
			if strings.HasSuffix(p, "/evidence/pysource") || strings.HasSuffix(p, "/evidence/gosource") || strings.HasSuffix(p, "/evidence/jssource") || p == "go/ast" || p == "go/parser" {
				t.Errorf("%s: the engine imports %s, a language's reader", name, p)
			}
			for _, l := range append(languagePackages, "languages") {
				if strings.HasSuffix(p, "/evidence/"+l) {
					t.Errorf("%s: the engine imports %s, a language", name, p)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				if v, err := strconv.Unquote(n.Value); err == nil && (v == "python" || v == "go") {
					t.Errorf("%s: the engine names a language: %s", fset.Position(n.Pos()), n.Value)
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "LangPython" || n.Sel.Name == "LangGo" {
					t.Errorf("%s: the engine names a language: %s", fset.Position(n.Pos()), n.Sel.Name)
				}
			}
			return true
		})
	}
	if engine < 10 {
		t.Fatalf("only %d engine files found: is the test running in evidence/?", engine)
	}
	for _, l := range languagePackages {
		files, err := filepath.Glob(filepath.Join(l, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("the language %s has no files (%v)", l, err)
		}
		for _, name := range files {
			f, _ := parseFile(t, name)
			for _, p := range importsOf(f) {
				if strings.HasSuffix(p, "/premise/evidence") || strings.HasSuffix(p, "/evidence/languages") {
					t.Errorf("%s imports %s: a language reaches the engine only through the seam", name, p)
				}
				for _, other := range languagePackages {
					if other != l && strings.HasSuffix(p, "/evidence/"+other) {
						t.Errorf("%s imports %s, another language", name, p)
					}
				}
			}
		}
	}
}

func parseFile(t *testing.T, name string) (*ast.File, *token.FileSet) {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f, fset
}

func importsOf(f *ast.File) []string {
	var out []string
	for _, im := range f.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// TestLanguagesAnswerForTheirFiles: each language of a run owns its own
// files and reads a signature from its own syntax, through the seam alone.
func TestLanguagesAnswerForTheirFiles(t *testing.T) {
	cases := []struct {
		lang, path, src, local string
		params                 []string
	}{
		{"python", "pkg/ranges.py", "def merge(ranges, gap=0):\n    return ranges\n", "merge", []string{"ranges", "gap"}},
		{"go", "pkg/ranges.go", "package pkg\n\nfunc Merge(rs [][2]int, gap int) [][2]int { return rs }\n", "Merge", []string{"rs", "gap"}},
	}
	for _, c := range cases {
		l := languageOfFile(c.path)
		if l == nil || l.Name() != c.lang {
			t.Fatalf("%s: owned by %v, want %s", c.path, l, c.lang)
		}
		sig := l.Signatures([]byte(c.src))[c.local]
		if sig == nil {
			t.Fatalf("%s: no signature for %s", c.lang, c.local)
		}
		var got []string
		for _, p := range sig.Params {
			got = append(got, p.Name)
		}
		if strings.Join(got, ",") != strings.Join(c.params, ",") {
			t.Errorf("%s: params %v, want %v", c.lang, got, c.params)
		}
	}
	if l := languageOfFile("README.md"); l != nil {
		t.Errorf("README.md owned by %s", l.Name())
	}
}
