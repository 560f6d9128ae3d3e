package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A Go test's variants replace one literal of its body each, inputs only
// (not t.Errorf's message, t.Run's name, a value compared with ==, a
// table's want field), and compile and run as tests of their own: the
// variant that empties the option's value fails with what the code did
// with it.
func TestGoVariantsReplaceTheTestsInputs(t *testing.T) {
	t.Parallel()
	code := "package opts\n\nimport \"strings\"\n\n// Value is what follows name= in args.\nfunc Value(args []string, name string) string {\n\tfor _, a := range args {\n\t\tif v, ok := strings.CutPrefix(a, name+\"=\"); ok {\n\t\t\treturn v\n\t\t}\n\t}\n\treturn \"none\"\n}\n"
	test := "package opts\n\nimport \"testing\"\n\nfunc TestValue(t *testing.T) {\n\tcases := []struct {\n\t\targs []string\n\t\twant string\n\t}{\n\t\t{args: []string{\"--a=x\", \"--b=y\"}, want: \"y\"},\n\t}\n" +
		"\tfor _, c := range cases {\n\t\tt.Run(\"b\", func(t *testing.T) {\n\t\t\tif got := Value(c.args, \"--b\"); got != c.want {\n\t\t\t\tt.Errorf(\"Value(%q) = %q, want %q\", c.args, got, c.want)\n\t\t\t}\n\t\t})\n\t}\n}\n\nfunc TestOther(t *testing.T) {\n\tif Value(nil, \"x\") != \"none\" {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
	varied, vs, err := GoVariants([]byte(test), []string{"TestValue"}, 24, nil)
	if err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, v := range vs {
		if v.Test != "TestValue" || !strings.HasPrefix(v.ID, "TestValue[variant ") {
			t.Errorf("variant %+v: want one of TestValue, named TestValue[variant N]", v)
		}
		whats = append(whats, v.What)
	}
	all := strings.Join(whats, "\n")
	for _, want := range []string{`"--b" as ""`, `"--a=x" as ""`, `"--b=y" as "-"`, `[]string{"--a=x", "--b=y"} as []string{"--a=x"}`} {
		if !strings.Contains(all, want) {
			t.Errorf("no variant %s among:\n%s", want, all)
		}
	}
	for _, never := range []string{`"y" as`, `"b" as`, `"Value(%q)`, `"none" as`} {
		if strings.Contains(all, never) {
			t.Errorf("a variant replaced %s, an expected value, a subtest's name or a message:\n%s", never, all)
		}
	}
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/opts\n\ngo 1.21\n", "opts.go": code, "opts_test.go": string(varied)})
	run := GoTests(context.Background(), dir, t.TempDir(), []string{"-count=1", "-v"}, 120*time.Second)
	if run.Stopped != "" {
		b, _ := os.ReadFile(filepath.Join(dir, "opts_test.go"))
		t.Fatalf("the varied file did not run: %s\n%s", run.Stopped, b)
	}
	emptied := ""
	for _, v := range vs {
		if v.What == `"--b=y" as ""` {
			emptied = v.Func
		}
	}
	if got := run.Failed[emptied+"/b"]; !strings.Contains(got, `got "none"`) && !strings.Contains(got, `= "none"`) {
		t.Errorf("the variant without --b=y (%s) ended %q, want its failure saying Value returned none; failed %v", emptied, got, run.Failed)
	}
	if !run.Passed["TestValue"] || !run.Passed["TestOther"] {
		t.Errorf("the tests as written should pass beside their variants: passed %v", run.Passed)
	}
}

// A text the test writes also comes back with its quotes the other kind
// and its spaces doubled, as rows' texts do, and a markup text without
// its first attribute: a parser that reads one kind of quote, splits on
// one space or takes an attribute for granted parts there.
func TestGoVariantsWriteTextsTheOtherWay(t *testing.T) {
	t.Parallel()
	test := "package p\n\nimport \"testing\"\n\nfunc TestAttrs(t *testing.T) {\n\tParse(`a=\"1\" b=\"2\"`)\n\tParse(`<svg><path d=\"M0 0\"/></svg>`)\n}\n"
	_, vs, err := GoVariants([]byte(test), []string{"TestAttrs"}, GoVariantsPerTest, nil)
	if err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, v := range vs {
		whats = append(whats, v.What)
	}
	all := strings.Join(whats, "\n")
	for _, want := range []string{"`a=\"1\" b=\"2\"` as \"a='1' b='2'\"", "`a=\"1\" b=\"2\"` as \"a=\\\"1\\\"  b=\\\"2\\\"\"", "as \"<svg><path/></svg>\""} {
		if !strings.Contains(all, want) {
			t.Errorf("no variant %s among:\n%s", want, all)
		}
	}
}
