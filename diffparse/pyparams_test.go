package diffparse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPythonParams(t *testing.T) {
	src := []byte(`class Outer:
    class Inner:
        @staticmethod
        def run(cls, a: int, /, b=2, *args: str, c: "list[int]" = (1, 2), **kw):
            pass

def run(x, *, y: dict[str, int]):  # a comment (with, commas)
    pass
`)
	tests := []struct {
		name   string
		want   []Param
		reason string
	}{
		{"Outer.Inner.run", []Param{{Name: "a", Type: "int"}, {Name: "b", Default: "2"},
			{Name: "c", Type: `"list[int]"`, Default: "(1, 2)", KeywordOnly: true}, {Name: "args", Type: "str", Varargs: true}, {Name: "kw", Kwargs: true}},
			"a leading cls and the / marker are left out; c follows *args, and **kw comes last, each marked"},
		{"pkg.mod.Outer.Inner.run", []Param{{Name: "a", Type: "int"}, {Name: "b", Default: "2"},
			{Name: "c", Type: `"list[int]"`, Default: "(1, 2)", KeywordOnly: true}, {Name: "args", Type: "str", Varargs: true}, {Name: "kw", Kwargs: true}},
			"a qualified name finds its longest suffix"},
		{"pkg.mod.run", []Param{{Name: "x"}, {Name: "y", Type: "dict[str, int]", KeywordOnly: true}},
			"the top-level run, not the method of the same name"},
	}
	for _, tc := range tests {
		got, err := PythonParams(src, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s: %s (-want +got):\n%s", tc.name, tc.reason, d)
		}
	}
	if _, err := PythonParams(src, "pkg.missing"); err == nil {
		t.Error("PythonParams found a function that is not there")
	}
}
