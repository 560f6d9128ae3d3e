package diffparse

import (
	"strings"
	"testing"
)

// FuzzParse feeds the diff parser arbitrary bytes: it must never panic, and
// what it returns must be self-consistent (issue 2, "Done means").
// testdata/fuzz/FuzzParse keeps the inputs go-diff was seen to mishandle.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"diff --git a/x.py b/x.py\nindex 1..2 100644\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\r\n\\ No newline at end of file\n+b\n",
		"diff --git a/a b/b\nsimilarity index 90%\nrename from a\nrename to b\n",
		"diff --git \"a/\\303\\274\" \"b/\\303\\274\"\nnew file mode 100644\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Parse(data, "fuzz.diff")
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is %T, want *Error: %v", err, err)
			}
			return
		}
		for _, fl := range files {
			if fl.Path == "" || fl.OldPath == "" {
				t.Fatalf("file without a path: %+v", fl)
			}
			for _, h := range fl.Hunks {
				old, nw := 0, 0
				for _, l := range h.Lines {
					switch l.Kind {
					case ' ':
						old++
						nw++
					case '-':
						old++
					case '+':
						nw++
					default:
						t.Fatalf("line kind %q", l.Kind)
					}
					if strings.ContainsRune(l.Text, '\n') {
						t.Fatalf("line text holds a newline: %q", l.Text)
					}
				}
				if old != h.OldLines || nw != h.NewLines || h.OldStart < 0 || h.NewStart < 0 {
					t.Fatalf("hunk %+v has %d old and %d new lines", h, old, nw)
				}
			}
		}
	})
}

// FuzzSymbols maps the hunks of an arbitrary diff onto the declarations of
// an arbitrary Python or Go file: never a panic, never a symbol whose span
// does not contain its changed lines.
func FuzzSymbols(f *testing.F) {
	f.Add("--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n def f():\n-    return 1\n+    return 2\n \n", "def f():\n    return 2\n\nclass C:\n    def m(self):\n        pass\n", false)
	f.Add("--- a/m.go\n+++ b/m.go\n@@ -3,0 +4,2 @@\n+func F() {\n+}\n", "package m\n\ntype T struct{}\nfunc F() {\n}\nfunc (t *T) M() {}\n", true)
	f.Add("--- a/m.py\n+++ b/m.py\n@@ -5,2 +4,0 @@\n-x\n-y\n", "@d\ndef f():\n    a = 1\n    b = 2\n    return a\n", false)
	// A large decorated class with a nested class and trailing comments.
	var big strings.Builder
	big.WriteString("import os\n\n\n@dataclass\nclass Big(Base):\n    \"\"\"Doc.\"\"\"\n\n")
	for i := 0; i < 20; i++ {
		big.WriteString("    @property\n    def m" + strings.Repeat("x", i) + "(self):\n        return (1,\n2)\n\n")
	}
	big.WriteString("    class Inner:\n        def deep(self):\n            pass\n# trailing\n\n\ndef after():\n    pass\n")
	f.Add("--- a/m.py\n+++ b/m.py\n@@ -10,2 +10,2 @@\n-        return (1,\n+        return (2,\n 2)\n@@ -108,0 +108,1 @@\n+            x = 1\n", big.String(), false)
	f.Fuzz(func(t *testing.T, diffText, src string, isGo bool) {
		files, err := Parse([]byte(diffText), "fuzz.diff")
		if err != nil || len(files) == 0 {
			return
		}
		var fe frontEnd = pythonFrontEnd{}
		if isGo {
			fe = goFrontEnd{}
		}
		decls, err := fe.decls([]byte(src))
		if err != nil {
			return
		}
		for _, d := range decls {
			if d.Start < 1 || d.End < d.Start {
				t.Fatalf("bad span %+v", d)
			}
		}
		syms := changedSymbols(files[0].Hunks, decls, decls, qualifyWith("m"), qualifyWith("m"))
		for _, s := range syms {
			if len(s.ChangedLines) == 0 {
				t.Fatalf("symbol %s with no changed lines", s.Name)
			}
			for _, l := range s.ChangedLines {
				if l < s.Start || l > s.End {
					t.Fatalf("%s: changed line %d outside %d-%d", s.Name, l, s.Start, s.End)
				}
			}
		}
	})
}

// FuzzGoTestLiterals feeds the reader of a Go test's literals arbitrary
// source: it must never panic, and every literal it returns lies inside
// its function and is the text it says (the gate cuts the variants from
// those bytes).
func FuzzGoTestLiterals(f *testing.F) {
	for _, s := range []string{
		"package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tf([]string{\"a\", \"b\"}, -1, 2.5, `raw`)\n\tif g() != \"x\" {\n\t\tt.Errorf(\"no %d\", 3)\n\t}\n}\n",
		"package p\n\nfunc TestB(t *testing.T) {\n\tt.Run(\"sub\", func(tt *testing.T) { h(\"in\"); tt.Fatal(\"msg\") })\n\tcases := []struct{ in, want string }{{in: \"a\", want: \"b\"}}\n\t_ = [3]int{1, 2, 3}\n}\n",
		"package p\n\nfunc TestC(t *T) {}\nfunc TestD(_ *testing.T) { x(\"\\xff\") }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fns, err := GoTestLiterals(data)
		if err != nil {
			return
		}
		for _, fn := range fns {
			if fn.Start < 0 || fn.End > len(data) || fn.NameAt < fn.Start || fn.NameAt+len(fn.Name) > fn.End || string(data[fn.NameAt:fn.NameAt+len(fn.Name)]) != fn.Name {
				t.Fatalf("%s spans %d..%d (name at %d) of %d bytes", fn.Name, fn.Start, fn.End, fn.NameAt, len(data))
			}
			for _, l := range fn.Literals {
				if l.From < fn.Start || l.To > fn.End || l.From > l.To || string(data[l.From:l.To]) != l.Text {
					t.Fatalf("%s: literal %+v is not the text at %d..%d", fn.Name, l, l.From, l.To)
				}
			}
		}
	})
}
