package diffparse

import (
	"strings"
	"testing"
)

// A test's literals are its inputs: not t's messages or a subtest's name,
// not the value compared with ==, not a table's want field, not an array
// type's length; a negative number with its sign, a subtest's body read.
func TestGoTestLiteralsAreTheInputs(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tcases := []struct{ in []string; want string }{{in: []string{\"-a\", \"x\"}, want: \"y\"}}\n" +
		"\tfor _, c := range cases {\n\t\tt.Run(\"name\", func(t *testing.T) {\n\t\t\tif got := F(c.in, -1, [2]int{}); got != \"z\" {\n\t\t\t\tt.Errorf(\"got %q\", got)\n\t\t\t}\n\t\t})\n\t}\n}\n\nfunc helper(t *testing.T) { F(\"no\") }\n"
	fns, err := GoTestLiterals([]byte(src))
	if err != nil || len(fns) != 1 || fns[0].Name != "TestA" {
		t.Fatalf("GoTestLiterals: %+v %v; want TestA alone (helper is no test)", fns, err)
	}
	var got []string
	for _, l := range fns[0].Literals {
		got = append(got, l.Kind+" "+l.Text)
	}
	want := `slice []string{"-a", "x"}|string "-a"|string "x"|number -1`
	if strings.Join(got, "|") != want {
		t.Errorf("literals %q, want %q", strings.Join(got, "|"), want)
	}
}
