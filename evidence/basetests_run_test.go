package evidence_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/validate"
)

// The base's own tests run on both sides (issue 24): the revealing input
// is one the test computes as it runs, so no row premise could build
// from the code's or the tests' text holds it, and the head rewrites the
// test file besides. The base's test, laid over the head's, fails there.

// trigger is the input the heads below misbehave on, and the first 12
// hex digits of its SHA-256, which is all their source says of it.
var trigger = strings.Repeat("kumquat", 3)

func triggerHash() string { return fmt.Sprintf("%x", sha256.Sum256([]byte(trigger)))[:12] }

// pyShoutBase is m.py's shout; pyShoutHead the same but for the trigger,
// which it returns as it is.
const pyShoutBase = "def shout(s: str) -> str:\n    return s.upper()\n"

func pyShoutHead() string {
	return "import hashlib\n\n\ndef shout(s: str) -> str:\n    if hashlib.sha256(s.encode()).hexdigest()[:12] == \"" + triggerHash() + "\":\n        return s\n    return s.upper()\n"
}

func baseTestChange(rep *evidence.Report, symbol, test string) *evidence.Change {
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == symbol && c.Call != nil && strings.Contains(c.Call.Test, test) {
			return &c
		}
	}
	return nil
}

func TestGoBaseTestFailingOnTheHeadIsAChange(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shout\n\ngo 1.21\n"
	baseSrc := "package shout\n\nimport \"strings\"\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s)\n}\n"
	headSrc := "package shout\n\nimport (\n\t\"crypto/sha256\"\n\t\"fmt\"\n\t\"strings\"\n)\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\tif fmt.Sprintf(\"%x\", sha256.Sum256([]byte(s)))[:12] == \"" + triggerHash() + "\" {\n\t\treturn s\n\t}\n\treturn strings.ToUpper(s)\n}\n"
	test := "package shout\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestFruit(t *testing.T) {\n\ts := \"\"\n\tfor i := 0; i < 3; i++ {\n\t\ts += \"kumquat\"\n\t}\n\tif got := Shout(s); got != strings.ToUpper(s) {\n\t\tt.Fatalf(\"Shout(%q) = %q\", s, got)\n\t}\n}\n\nfunc TestEmpty(t *testing.T) {\n\tif Shout(\"\") != \"\" {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "shout.go": baseSrc, "shout_test.go": test},
		map[string]string{"shout.go": headSrc, "shout_test.go": "package shout\n"}, nil)
	c := baseTestChange(rep, "example.com/shout.Shout", "TestFruit")
	if c == nil {
		t.Fatalf("no change from the base's test TestFruit on Shout: %+v", append(rep.Changes, rep.Unexplained...))
	}
	if c.Heuristic != "base_test" || c.BaseOutcome.Outcome != validate.OutcomePassed || c.HeadOutcome.Outcome != validate.OutcomeFailed ||
		!strings.Contains(c.Head, `= "kumquatkumquatkumquat"`) || !strings.Contains(c.Call.Test, "shout_test.go") {
		t.Errorf("the change does not say which test failed how: %+v, call %+v", *c, *c.Call)
	}
	if baseTestChange(rep, "example.com/shout.Shout", "TestEmpty") != nil {
		t.Errorf("TestEmpty passes on both sides, and is listed as a change")
	}
}

func TestPythonBaseTestFailingOnTheHeadIsAChange(t *testing.T) {
	t.Parallel()
	head := pyShoutHead()
	test := "import unittest\n\nimport m\n\n\nclass ShoutTest(unittest.TestCase):\n    def setUp(self):\n        self.fruit = \"kumquat\" * 3\n\n    def test_fruit(self):\n        self.assertEqual(m.shout(self.fruit), self.fruit.upper())\n\n    def test_empty(self):\n        self.assertEqual(m.shout(\"\"), \"\")\n"
	rep := runCommits(t,
		map[string]string{"m.py": pyShoutBase, "tests/test_m.py": test},
		map[string]string{"m.py": head, "tests/test_m.py": "def test_nothing():\n    pass\n"}, nil)
	c := baseTestChange(rep, "m.shout", "test_fruit")
	if c == nil {
		t.Fatalf("no change from the base's test test_fruit on m.shout: %+v", append(rep.Changes, rep.Unexplained...))
	}
	if c.BaseOutcome.Outcome != validate.OutcomePassed || c.HeadOutcome.Outcome != validate.OutcomeFailed ||
		!strings.Contains(c.Head, "AssertionError") || !strings.Contains(c.Call.Test, "tests/test_m.py") {
		t.Errorf("the change does not say which test failed how: %+v, call %+v", *c, *c.Call)
	}
	if baseTestChange(rep, "m.shout", "test_empty") != nil {
		t.Errorf("test_empty passes on both sides, and is listed as a change")
	}
}

// A pytest module loads and its parametrized rows run with premise's own
// pytest (base_tests.py's stand-in), on a machine with pytest installed
// or not: most Python projects' tests import it. What the head adds around the tests changes nothing.
func TestPytestBaseTestRunsWithPremisesPytest(t *testing.T) {
	t.Parallel()
	head := pyShoutHead()
	conftest := "import pytest\n\n\n@pytest.fixture\ndef fruit():\n    yield \"kumquat\"\n"
	test := "import pytest\n\nimport m\n\n\n@pytest.mark.parametrize(\"n\", [1, 3])\ndef test_fruit(fruit, n):\n    assert m.shout(fruit * n) == (fruit * n).upper()\n\n\ndef test_refuses():\n    with pytest.raises(AttributeError):\n        m.shout(None)\n"
	// The head's own conftest and a pytest.py at its top would make the
	// test pass or not load: the base's conftest and premise's pytest
	// are what run.
	rep := runCommits(t,
		map[string]string{"m.py": pyShoutBase, "tests/test_m.py": test, "tests/conftest.py": conftest},
		map[string]string{"m.py": head, "tests/conftest.py": strings.ReplaceAll(conftest, "kumquat", "apple"), "pytest.py": "raise ImportError('no')\n"}, nil)
	if baseTestChange(rep, "m.shout", "test_fruit[1]") == nil {
		t.Fatalf("no change from the base's test test_fruit[1] (n = 3) on m.shout: %+v", append(rep.Changes, rep.Unexplained...))
	}
	for _, name := range []string{"test_fruit[0]", "test_refuses"} {
		if baseTestChange(rep, "m.shout", name) != nil {
			t.Errorf("%s passes on both sides, and is listed as a change", name)
		}
	}
}

// checkedByTests asserts that the changed lines of symbol, which only the
// base's tests can reach (the branch needs an input the test computes as
// it runs), are reached on both sides, by the tests, and that the symbol
// is therefore checked: the tests ran the change on both sides and agreed.
func checkedByTests(t *testing.T, rep *evidence.Report, symbol string) {
	t.Helper()
	s := symbolOf(rep, symbol)
	c := s.Coverage
	if c == nil || c.Head == nil || c.Base == nil {
		t.Fatalf("%s: no changed-line coverage on both sides: %+v", symbol, s)
	}
	for side, sc := range map[string]*evidence.SideCoverage{"head": c.Head, "base": c.Base} {
		if sc.Changed == 0 || sc.Reached != sc.Changed || sc.ByTests != sc.Changed || len(sc.Unreached) > 0 {
			t.Errorf("%s, %s: want every changed line reached by the base's tests alone, got %+v", symbol, side, *sc)
		}
	}
	if s.Unchecked {
		t.Errorf("%s: its changed lines ran in the base's tests on both sides, and it is still not checked: %s", symbol, s.Why)
	}
	if len(rep.Changes)+len(rep.Unexplained) > 0 {
		t.Errorf("the head behaves as the base, and changes are listed: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

func TestPythonLinesOnlyTheBaseTestsRunAreReached(t *testing.T) {
	t.Parallel()
	// The changed branch runs on an object only the test's own class
	// makes: no row can hold one.
	src := func(ret string) string {
		return "def shout(s):\n    if hasattr(s, \"mark\"):\n        " + ret + "\n    return s.upper()\n"
	}
	test := "import m\n\n\nclass Marked:\n    def __init__(self):\n        self.mark = \"kumquat\"\n\n\ndef test_marked():\n    assert m.shout(Marked()) == \"KUMQUAT!\"\n"
	rep := runCommits(t,
		map[string]string{"m.py": src(`return s.mark.upper() + "!"`), "tests/test_m.py": test},
		map[string]string{"m.py": src(`return (s.mark + "!").upper()`)}, nil)
	checkedByTests(t, rep, "m.shout")
}

func TestGoLinesOnlyTheBaseTestsRunAreReached(t *testing.T) {
	t.Parallel()
	// The changed branch runs on a value of a type only the test file
	// declares: no row can hold one.
	mod := "module example.com/shout\n\ngo 1.21\n"
	src := func(ret string) string {
		return "package shout\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\ntype marked interface{ mark() string }\n\n// Shout upper-cases v.\nfunc Shout(v any) string {\n\tif m, ok := v.(marked); ok {\n\t\t" + ret + "\n\t}\n\treturn strings.ToUpper(fmt.Sprint(v))\n}\n"
	}
	test := "package shout\n\nimport \"testing\"\n\ntype fruit struct{}\n\nfunc (fruit) mark() string { return \"kumquat\" }\n\nfunc TestMarked(t *testing.T) {\n\tif got := Shout(fruit{}); got != \"KUMQUAT!\" {\n\t\tt.Fatalf(\"Shout(fruit{}) = %q\", got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "shout.go": src(`return strings.ToUpper(m.mark()) + "!"`), "shout_test.go": test},
		map[string]string{"shout.go": src(`return strings.ToUpper(m.mark() + "!")`)}, nil)
	checkedByTests(t, rep, "example.com/shout.Shout")
}

// A base's test the head fails once and passes when run again is not a
// change (here the head fails only while traced, as the first run is: a
// stand-in for a test that fails now and then); one the head fails only
// after another test left its state is (a stale cache), though it passes
// alone.
func TestPythonBaseTestFailingOnceIsNoChange(t *testing.T) {
	t.Parallel()
	base := "_seen = {}\n\n\ndef shout(s):\n    return s.upper()\n\n\ndef remember(k, v):\n    _seen[k] = v\n    return _seen[k]\n"
	head := "import sys\n\n_seen = {}\n\n\ndef shout(s):\n    if sys.gettrace() is not None:\n        return s\n    return s.upper()\n\n\ndef remember(k, v):\n    _seen.setdefault(k, v)\n    return _seen[k]\n"
	test := "import m\n\n\ndef test_a_fruit():\n    assert m.shout('fig') == 'FIG'\n\n\ndef test_b_first():\n    assert m.remember('k', 1) == 1\n\n\ndef test_c_second():\n    assert m.remember('k', 2) == 2\n"
	rep := runCommits(t, map[string]string{"m.py": base, "tests/test_m.py": test}, map[string]string{"m.py": head}, nil)
	if c := baseTestChange(rep, "m.shout", "test_a_fruit"); c != nil {
		t.Errorf("test_a_fruit failed on the head once and passed again, and is a change: %+v", *c)
	}
	if baseTestChange(rep, "m.remember", "test_c_second") == nil {
		t.Errorf("test_c_second fails on the head after test_b_first, and no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A failing base's test is filed under the changed function whose changed
// lines it ran, not the one it happened to call last: the test below
// calls b last, but only a's changed line ran.
func TestPythonBaseTestFiledWhereItRanTheChange(t *testing.T) {
	t.Parallel()
	base := "import hashlib\n\n\ndef a(s):\n    return s.upper()\n\n\ndef b(x):\n    if x < 0:\n        return 0\n    return x * 2\n"
	head := "import hashlib\n\n\ndef a(s):\n    return s if hashlib.sha256(s.encode()).hexdigest()[:12] == \"" + triggerHash() + "\" else s.upper()\n\n\ndef b(x):\n    if x < 0:\n        return -0\n    return x * 2\n"
	test := "import m\n\n\ndef test_both():\n    s = 'kumquat' * 3\n    got = (m.a(s), m.b(2))\n    assert got == (s.upper(), 4)\n"
	rep := runCommits(t, map[string]string{"m.py": base, "tests/test_m.py": test}, map[string]string{"m.py": head}, nil)
	if baseTestChange(rep, "m.a", "test_both") == nil {
		t.Errorf("test_both ran a's changed line and fails on the head, and is not filed under m.a: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A failing base's test is filed under the function whose fix the patch
// took out, though the head left that function none of its changed lines
// to run and a helper it calls has one: the base ran the lines the patch
// removed, and the test is named for it (tqdm's write lost its `if fp is
// None: return`, and test_write_stdout_none then failed in the helper).
func TestPythonBaseTestFiledUnderTheFixTakenOut(t *testing.T) {
	t.Parallel()
	base := "def _emit(fp, s):\n    fp.write(s + '\\n')\n\n\ndef write(s, fp=None):\n    if fp is None:\n        return\n    _emit(fp, s)\n"
	head := "def _emit(fp, s):\n    s = str(s)\n    fp.write(s + '\\n')\n\n\ndef write(s, fp=None):\n    _emit(fp, s)\n"
	test := "import m\n\n\ndef test_write_none():\n    assert m.write('x', None) is None\n"
	rep := runCommits(t, map[string]string{"m.py": base, "tests/test_m.py": test}, map[string]string{"m.py": head}, nil)
	if baseTestChange(rep, "m.write", "test_write_none") == nil {
		t.Errorf("test_write_none fails on the head where write's removed guard no longer returns, and is not filed under m.write: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A base's Go test that panics on the base as well (a server it cannot
// reach, a file it lacks) ends the test binary, and with it every test
// after it: the run is made again without the tests the base fails, so
// the test after it that the head fails is seen.
func TestGoBaseTestAfterAPanickingOneIsRun(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shout\n\ngo 1.21\n"
	base := "package shout\n\nimport \"strings\"\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s)\n}\n"
	head := strings.Replace(base, "return strings.ToUpper(s)", "if strings.HasPrefix(s, \"kumquat\") {\n\t\treturn s\n\t}\n\treturn strings.ToUpper(s)", 1)
	test := "package shout\n\nimport \"testing\"\n\nfunc TestAPanics(t *testing.T) {\n\tvar m map[string]int\n\tm[Shout(\"a\")] = 1\n}\n\nfunc TestFruit(t *testing.T) {\n\tif got := Shout(\"kumquat\"); got != \"KUMQUAT\" {\n\t\tt.Fatalf(\"Shout = %q\", got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "shout.go": base, "shout_test.go": test},
		map[string]string{"shout.go": head}, nil)
	if baseTestChange(rep, "example.com/shout.Shout", "TestFruit") == nil {
		t.Errorf("TestFruit fails on the head after TestAPanics, which panics on both sides, and no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
	}
	if baseTestChange(rep, "example.com/shout.Shout", "TestAPanics") != nil {
		t.Errorf("TestAPanics panics on both sides, and is a change")
	}
}

// TestGoBaseTestsVetDoesNotStopThem: an older suite that today's go vet
// refuses (a string(int) conversion, which go test vets by default) did
// not build, and none of its tests ran: its failing test on the head is a
// change all the same (found on go-diff's 2018 tests under Go 1.26).
func TestGoBaseTestsVetDoesNotStopThem(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shout\n\ngo 1.21\n"
	baseSrc := "package shout\n\nimport \"strings\"\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s)\n}\n"
	headSrc := "package shout\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\treturn s\n}\n"
	test := "package shout\n\nimport \"testing\"\n\nfunc TestLetter(t *testing.T) {\n\tn := 97\n\tif got := Shout(string(n)); got != \"A\" {\n\t\tt.Fatalf(\"Shout = %q\", got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "shout.go": baseSrc, "shout_test.go": test},
		map[string]string{"shout.go": headSrc}, nil)
	if c := baseTestChange(rep, "example.com/shout.Shout", "TestLetter"); c == nil {
		t.Fatalf("no change from the base's test TestLetter: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestGoBaseTestFailingOnlyThroughDataIsFiled: a patch that changes only
// a package variable its functions read has no changed function for a
// failing base's test to be filed under by its coverage; the failure was
// dropped and the run could hold. It is filed under a function that reads
// the variable.
func TestGoBaseTestFailingOnlyThroughDataIsFiled(t *testing.T) {
	t.Parallel()
	mod := "module example.com/capped\n\ngo 1.21\n"
	base := "package capped\n\n// Limit is the largest count.\nvar Limit = 10\n\n// Cap bounds n by Limit.\nfunc Cap(n int) int {\n\tif n > Limit {\n\t\treturn Limit\n\t}\n\treturn n\n}\n"
	head := strings.Replace(base, "var Limit = 10", "var Limit = 5", 1)
	test := "package capped\n\nimport \"testing\"\n\nfunc TestSeven(t *testing.T) {\n\tif Cap(7) != 7 {\n\t\tt.Fatal(Cap(7))\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "capped.go": base, "capped_test.go": test},
		map[string]string{"capped.go": head}, nil)
	found := false
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		found = found || c.Heuristic == "base_test" && strings.Contains(c.Input, "TestSeven")
	}
	if !found {
		t.Errorf("the base's TestSeven fails on the head and no change says so: %+v; notes %v", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}

// TestGoDependentsTestsAreRun: the changed function lives in a package
// with no tests of its own and takes a channel, which no row builds, so
// no row calls it; the module's root package calls it, and the root's
// test, which the head fails, is what shows the change (goldmark's
// parser blocks, tested through its CommonMark examples in the root).
func TestGoDependentsTestsAreRun(t *testing.T) {
	t.Parallel()
	mod := "module example.com/md\n\ngo 1.21\n"
	block := func(trim string) string {
		return "package block\n\nimport \"strings\"\n\n// Heading renders an ATX heading line; done is closed when it is.\nfunc Heading(done chan struct{}, line string) string {\n\tdefer close(done)\n\ttext := strings.TrimLeft(line, \"#\")\n\ttext = " + trim + "\n\treturn \"<h1>\" + text + \"</h1>\"\n}\n"
	}
	root := "package md\n\nimport \"example.com/md/block\"\n\n// Convert renders one line.\nfunc Convert(line string) string {\n\treturn block.Heading(make(chan struct{}), line)\n}\n"
	test := "package md\n\nimport \"testing\"\n\nfunc TestSingleLetter(t *testing.T) {\n\tif got := Convert(\"# a\"); got != \"<h1>a</h1>\" {\n\t\tt.Fatalf(\"Convert = %q\", got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "block/block.go": block("strings.TrimSpace(text)"), "md.go": root, "md_test.go": test},
		map[string]string{"block/block.go": block("strings.TrimSpace(text[1 : len(text)-1])")}, nil)
	c := baseTestChange(rep, "example.com/md/block.Heading", "TestSingleLetter")
	if c == nil {
		t.Fatalf("the root's test of Convert fails on the head, and no change is filed under Heading: %+v; symbols %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Symbols, rep.Notes)
	}
	if !strings.Contains(c.Call.Test, "md_test.go") {
		t.Errorf("the change does not name the root's test file: %+v", *c.Call)
	}
}

// TestPytestClassMarksApply: test classes carry marks (pyjwt's
// crypto_required is a skipif on classes): the module loads under
// premise's pytest (a mark once failed on the class's read-only
// __dict__, and no test of the module ran), a class's parametrize reaches
// each of its methods, and a class's skip skips them, as under pytest.
func TestPytestClassMarksApply(t *testing.T) {
	t.Parallel()
	test := `import sys

import pytest

import m


@pytest.mark.skipif(sys.version_info < (3,), reason="needs Python 3")
@pytest.mark.parametrize("n", [1, 3])
class TestShout:
    def test_fruit(self, n):
        fruit = "kumquat" * n
        assert m.shout(fruit) == fruit.upper()


# The class a skip mark must reach: run, its test would fail on the head.
@pytest.mark.skip(reason="kept out of the run by its class's mark")
class TestSkipped:
    def test_thrice(self):
        fruit = "kumquat" * 3
        assert m.shout(fruit) == fruit.upper()
`
	rep := runCommits(t,
		map[string]string{"m.py": pyShoutBase, "tests/test_m.py": test},
		map[string]string{"m.py": pyShoutHead()}, nil)
	if baseTestChange(rep, "m.shout", "TestShout::test_fruit[1]") == nil {
		t.Fatalf("no change from the base's test TestShout::test_fruit[1] (n = 3) on m.shout: %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
	if baseTestChange(rep, "m.shout", "TestSkipped::test_thrice") != nil {
		t.Errorf("TestSkipped's class is marked skip, and its test ran as a change")
	}
}

// TestPytestClassHooksAsPytestCallsThem: a test class's setup_method
// takes no method (pytest allows either), and setup_class builds what its
// tests share: every test of the class runs (marko's GFM alert tests all
// failed on both sides with a TypeError, and told nothing).
func TestPytestClassHooksAsPytestCallsThem(t *testing.T) {
	t.Parallel()
	head := pyShoutHead()
	test := "import m\n\n\nclass TestShout:\n    @classmethod\n    def setup_class(cls):\n        cls.unit = \"kumquat\"\n\n    def setup_method(self):\n        self.fruit = self.unit * 3\n\n    def teardown_method(self):\n        self.fruit = None\n\n    def test_fruit(self):\n        assert m.shout(self.fruit) == self.fruit.upper()\n"
	rep := runCommits(t,
		map[string]string{"m.py": pyShoutBase, "tests/test_m.py": test},
		map[string]string{"m.py": head}, nil)
	if baseTestChange(rep, "m.shout", "test_fruit") == nil {
		t.Fatalf("no change from the base's test TestShout::test_fruit on m.shout: %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}

// TestGoPackageTestsThatNameNoChangedFunctionRun: the changed method is
// reached only through an interface (a goldmark extension's parser,
// registered in a variable and called by the module's renderer), so the
// package's test names no changed function, and none of its functions
// call one by name; the package's tests all run, and the one the head
// fails is the change.
func TestGoPackageTestsThatNameNoChangedFunctionRun(t *testing.T) {
	t.Parallel()
	mod := "module example.com/m\n\ngo 1.21\n"
	root := "package m\n\n// Parser rewrites a line; done is closed when it has.\ntype Parser interface {\n\tParse(done chan struct{}, line string) string\n}\n\n// Render runs every parser over line.\nfunc Render(ps []Parser, line string) string {\n\tfor _, p := range ps {\n\t\tline = p.Parse(make(chan struct{}), line)\n\t}\n\treturn line\n}\n"
	ext := func(cut string) string {
		return "package ext\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m\"\n)\n\ntype strike struct{}\n\nfunc (strike) Parse(done chan struct{}, line string) string {\n\tdefer close(done)\n\tif strings.HasPrefix(line, \"~~\") && strings.HasSuffix(line, \"~~\") && len(line) > 4 {\n\t\treturn \"<del>\" + line[2:len(line)-" + cut + "] + \"</del>\"\n\t}\n\treturn line\n}\n\n// Default are the extension's parsers.\nvar Default = []m.Parser{strike{}}\n"
	}
	test := "package ext_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m\"\n\t\"example.com/m/ext\"\n)\n\nfunc TestStrike(t *testing.T) {\n\tif got := m.Render(ext.Default, \"~~ab~~\"); got != \"<del>ab</del>\" {\n\t\tt.Fatalf(\"Render = %q\", got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "m.go": root, "ext/ext.go": ext("2"), "ext/ext_test.go": test},
		map[string]string{"ext/ext.go": ext("3")}, nil)
	if baseTestChange(rep, "example.com/m/ext.strike.Parse", "TestStrike") == nil {
		t.Fatalf("the extension's test fails on the head, and no change is filed under strike.Parse: %+v; symbols %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Symbols, rep.Notes)
	}
}

// TestPytestGenerateTestsHookParametrizes: a test module parametrizes its
// test through pytest_generate_tests (marko's spec examples, read from
// files and handed to metafunc.parametrize); each row is a test, and the
// one the head fails is the change.
func TestPytestGenerateTestsHookParametrizes(t *testing.T) {
	t.Parallel()
	head := pyShoutHead()
	test := "import pytest\n\nimport m\n\n\ndef pytest_generate_tests(metafunc: pytest.Metafunc) -> None:\n    if \"fruit\" in metafunc.fixturenames:\n        metafunc.parametrize(\"fruit\", [pytest.param(\"kumquat\" * n, id=str(n)) for n in (1, 3)])\n\n\ndef test_fruit(fruit):\n    assert m.shout(fruit) == fruit.upper()\n"
	rep := runCommits(t,
		map[string]string{"m.py": pyShoutBase, "tests/test_m.py": test},
		map[string]string{"m.py": head}, nil)
	if baseTestChange(rep, "m.shout", "test_fruit[3]") == nil {
		t.Fatalf("no change from the generated test test_fruit[3], named by its id, on m.shout: %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
	if baseTestChange(rep, "m.shout", "test_fruit[1]") != nil {
		t.Errorf("test_fruit[1] passes on both sides, and is listed as a change")
	}
}

// A test package whose __init__ gathers its modules with star imports,
// one of which needs a server as it loads, does not import; its other
// modules still load and run, the package standing as its bare directory.
func TestPythonBaseTestInAPackageWhoseInitFails(t *testing.T) {
	t.Parallel()
	test := "import unittest\n\nimport m\n\n\nclass ShoutTest(unittest.TestCase):\n    def test_fruit(self):\n        fruit = \"kumquat\" * 3\n        self.assertEqual(m.shout(fruit), fruit.upper())\n"
	files := func(shout string) map[string]string {
		return map[string]string{"m.py": shout, "tests/__init__.py": "from tests.test_server import *\nfrom tests.test_m import *\n",
			"tests/test_server.py": "raise ConnectionRefusedError(111, 'Connection refused')\n", "tests/test_m.py": test}
	}
	rep := runCommits(t, files(pyShoutBase), files(pyShoutHead()), nil)
	if baseTestChange(rep, "m.shout", "test_fruit") == nil {
		t.Fatalf("no change from the base's test test_fruit on m.shout, its package's __init__ failing to import: %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}

// A package of the code that fails to import is the code's own failure,
// whatever letters its name holds (latest holds test): its test modules
// are not loaded over a bare stand-in for it, and tell nothing.
func TestPythonCodePackageWhoseInitFailsIsNotStoodIn(t *testing.T) {
	t.Parallel()
	test := "from latest.m import shout\n\n\ndef test_fruit():\n    fruit = \"kumquat\" * 3\n    assert shout(fruit) == fruit.upper()\n"
	files := func(shout string) map[string]string {
		return map[string]string{"latest/__init__.py": "raise RuntimeError('the package is broken')\n", "latest/m.py": shout, "latest/test_m.py": test}
	}
	rep := runCommits(t, files(pyShoutBase), files(pyShoutHead()), nil)
	if c := baseTestChange(rep, "latest.m.shout", "test_fruit"); c != nil {
		t.Errorf("the base's test ran over a bare stand-in for the code's package latest, whose __init__ raises: %+v", *c)
	}
}

// The head's code runs while the base's tests load, in a copy of the
// base's test files it may write: a head that rewrites a test module not
// yet loaded (its path is in the runner's own arguments) so that it
// passes has not changed the test. Each test module is read before any
// of the side's code runs.
func TestPythonHeadRewritingALaterTestModuleIsNotHeard(t *testing.T) {
	t.Parallel()
	rewrite := "import json\nimport os\nimport sys\n\n\ndef _quiet():\n    try:\n        base = json.loads(sys.argv[1])['base']\n" +
		"        with open(os.path.join(base, 'test_b.py'), 'w') as f:\n            f.write('def test_fruit():\\n    pass\\n')\n    except Exception:\n        pass\n\n\n_quiet()\n"
	testA := "import m\n\n\ndef test_plain():\n    assert m.shout('a') == 'A'\n"
	testB := "from m import shout\n\n\ndef test_fruit():\n    fruit = \"kumquat\" * 3\n    assert shout(fruit) == fruit.upper()\n"
	rep := runCommits(t, map[string]string{"m.py": pyShoutBase, "test_a.py": testA, "test_b.py": testB},
		map[string]string{"m.py": rewrite + pyShoutHead()}, nil)
	if c := baseTestChange(rep, "m.shout", "test_fruit"); c == nil {
		t.Fatalf("the head rewrote test_b.py before it loaded and its test_fruit passed: changes %+v, notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}

// A base's Go test that hands a changed function a value only the test
// can build (its own Source over a list of words) passes on both sides
// with the words it wrote; the variant that writes the list empty ends
// in the test's message on the base (an empty last word) and in a panic
// on the head. The two ends are a change, the literal named, and the
// change's call is the variant a test row runs again.
func TestGoBaseTestWithALiteralReplaced(t *testing.T) {
	t.Parallel()
	mod := "module example.com/words\n\ngo 1.21\n"
	src := func(body string) string {
		return "package words\n\n// Source hands out words until it has none.\ntype Source interface {\n\tNext() (string, bool)\n}\n\n" +
			"// Last is the last word of s.\nfunc Last(s Source) string {\n\tvar ws []string\n\tfor {\n\t\tw, ok := s.Next()\n\t\tif !ok {\n\t\t\tbreak\n\t\t}\n\t\tws = append(ws, w)\n\t}\n" + body + "}\n"
	}
	test := "package words\n\nimport \"testing\"\n\ntype list struct {\n\twords []string\n\ti      int\n}\n\nfunc (l *list) Next() (string, bool) {\n\tif l.i >= len(l.words) {\n\t\treturn \"\", false\n\t}\n\tl.i++\n\treturn l.words[l.i-1], true\n}\n\n" +
		"func TestLast(t *testing.T) {\n\tif got := Last(&list{words: []string{\"a\", \"b\"}}); got != \"b\" {\n\t\tt.Errorf(\"Last = %q\", got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "words.go": src("\tif len(ws) == 0 {\n\t\treturn \"\"\n\t}\n\treturn ws[len(ws)-1]\n"), "words_test.go": test},
		map[string]string{"words.go": src("\treturn ws[len(ws)-1]\n")}, nil)
	var shown *evidence.Change
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Heuristic == "test_variant" && strings.Contains(c.Input, `[]string{"a", "b"} as []string{}`) {
			shown = &c
		}
	}
	if shown == nil {
		t.Fatalf("Last panics on no words on the head, and no variant of TestLast showed it: %+v; notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
	if shown.Symbol != "example.com/words.Last" || !strings.Contains(shown.Base, `Last = ""`) || !strings.Contains(shown.Head, "panic") {
		t.Errorf("the change does not say how each side ended: %+v", *shown)
	}
	if shown.Call == nil || !strings.HasPrefix(shown.Call.Test, "words_test.go: TestLast[variant ") {
		t.Errorf("the change's call is %+v, want the variant of TestLast a test row runs", shown.Call)
	}
}

// The base's tests check through a helper module of their own directory
// (tests/check.py). A head that rewrites the helper so that every check
// passes has not changed the tests: the helper is the base's too, read
// before the side's code runs.
func TestPythonHeadRewritingATestHelperIsNotHeard(t *testing.T) {
	t.Parallel()
	check := "def same(got, want):\n    assert got == want, (got, want)\n"
	test := "import m\nfrom check import same\n\n\ndef test_fruit():\n    fruit = \"kumquat\" * 3\n    same(m.shout(fruit), fruit.upper())\n"
	rep := runCommits(t,
		map[string]string{"m.py": pyShoutBase, "tests/check.py": check, "tests/test_m.py": test},
		map[string]string{"m.py": pyShoutHead(), "tests/check.py": "def same(got, want):\n    pass\n"}, nil)
	if c := baseTestChange(rep, "m.shout", "test_fruit"); c == nil {
		t.Fatalf("the head's tests/check.py made the base's test_fruit pass: changes %+v, notes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}
