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

// languageFiles are the files of this package that belong to one
// language: everything else is the engine, which reaches a language only
// through the language interface (language.go).
var languageFiles = map[string]string{
	"lang_python.go": "python", "python.go": "python", "pyrows.go": "python",
	"pyliteral.go": "python", "pyrepr.go": "python", "methods.go": "python",
	"traced.go": "python", "hashseed.go": "python", "outside_python.go": "python",
	"pymoddata.go": "python", "pysignature.go": "python", "pytypes.go": "python",
}

// TestEngineNamesNoLanguage holds the seam: no engine file branches on a
// language's name (a "python" or "go" literal, validate.LangPython or
// LangGo), so a language is added by implementing language, not by editing
// the engine.
func TestEngineNamesNoLanguage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	engine := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || languageFiles[name] != "" {
			continue
		}
		engine++
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			// A language's reader is reached through its language, never
			// from the engine.
			if p, _ := strconv.Unquote(im.Path.Value); strings.HasSuffix(p, "/evidence/pysource") || strings.HasSuffix(p, "/evidence/gosource") || p == "go/ast" {
				t.Errorf("%s: the engine imports %s, a language's reader", name, p)
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
	for name := range languageFiles {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("languageFiles names %s, which is gone: keep the list true", name)
		}
	}
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
