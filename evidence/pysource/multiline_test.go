package pysource

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMultilineStringKeepsItsValue: a triple-quoted string over several
// lines that a test passes is harvested as one line with the same value:
// its newlines kept as escapes, a raw string's backslashes kept, a '#'
// inside it not taken for a comment. Before, its lines were folded into
// one with spaces and a line's '#' cut the rest (a JavaScript sample's
// `// comment` then swallowed the code after it).
func TestMultilineStringKeepsItsValue(t *testing.T) {
	sources := []string{
		"r'''\n  a = /\\\\/; # not a comment\n  b = 2 // end\n'''",
		"'''first\n\tsecond \\n escaped\nthird'''",
		"b\"\"\"\nbytes\\x00 too\n\"\"\"",
		"'''joined \\\nline'''",
	}
	for _, src := range sources {
		test := "def test_it():\n    s = " + src + "\n    minify(s)\n"
		tf, err := Parse("test_m.py", []byte(test))
		if err != nil {
			t.Fatal(err)
		}
		mf, _ := Parse("m.py", []byte("def minify(s):\n    return s\n"))
		ins := Harvest(mf, "minify", []*File{tf}, 10)
		if len(ins) != 1 || len(ins[0].Args) != 1 {
			t.Fatalf("%q: harvested %+v; want one call of one argument", src, ins)
		}
		got := ins[0].Args[0]
		if strings.Contains(got, "\n") {
			t.Errorf("%q: harvested %q, over several lines", src, got)
		}
		out, err := exec.Command("python3", "-c", "import sys; a, b = eval(sys.argv[1]), eval(sys.argv[2]); print(a == b, repr(a), repr(b))", src, got).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "True") {
			t.Errorf("%q: harvested %q, whose value differs: %s %v", src, got, out, err)
		}
	}
}

// TestHarvestThroughATestHelper: a test class's helper that forwards its
// parameter to the function (def assertMinified(self, js_input,
// expected): jsmin.jsmin(js_input)) makes each test's call of the helper
// an input of the function; a helper function too; a helper passing
// something of its own is not read.
func TestHarvestThroughATestHelper(t *testing.T) {
	test := `import unittest
import jsmin


def check(source, want):
    assert jsmin.jsmin(source) == want


def check_quoted(source):
    assert jsmin.jsmin(source.strip()) == source


class JsTests(unittest.TestCase):
    def assertMinified(self, js_input, expected):
        minified = jsmin.jsmin(js_input)
        assert minified == expected

    def test_regex(self):
        self.assertMinified('var x = /\\\\/; var y = 2;', 'var x=/\\\\/;var y=2;')

    def test_plus(self):
        js = 'a - -b'
        self.assertMinified(js, 'a- -b')


def test_function_helper():
    check('return / 2 /', 'return/ 2 /')
    check_quoted('not read')
`
	tf, err := Parse("jsmin/test.py", []byte(test))
	if err != nil {
		t.Fatal(err)
	}
	mf, _ := Parse("jsmin/__init__.py", []byte("def jsmin(js, **kwargs):\n    return js\n"))
	var got []string
	for _, in := range Harvest(mf, "jsmin", []*File{tf}, 20) {
		got = append(got, strings.Join(in.Args, ", "))
	}
	want := []string{`'var x = /\\\\/; var y = 2;'`, `'a - -b'`, `'return / 2 /'`}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("harvested %q; want %q", got, want)
	}
}
