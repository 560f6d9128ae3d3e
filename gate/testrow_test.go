package gate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// testRow is a row that runs one of the base's tests and expects outcome.
func testRow(id, test, outcome string) validate.Row {
	return validate.Row{ID: id, Cls: "witness", Kind: validate.KindBoundary, Relation: "the base's test decides",
		AssumptionIDs: []string{"C001"}, Test: test, Expect: &validate.Outcome{Outcome: outcome}}
}

// checkTestRows runs t on head with the base's tests from base and
// wants each row's status.
func checkTestRows(t *testing.T, head, base string, tb *validate.Table, want map[string]string) *Report {
	t.Helper()
	rep, err := Run(context.Background(), Config{Repo: head, BaseDir: base, Private: true, Reruns: 2}, tb)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Status != want[r.ID] {
			t.Errorf("%s: %s (%s), want %s", r.ID, r.Status, r.Why, want[r.ID])
		}
	}
	if len(rep.Rows) != len(want) {
		t.Errorf("%d rows reported, want %d", len(rep.Rows), len(want))
	}
	return rep
}

// A test row runs the base's test on the code and compares its outcome
// with the row's expect; a test that cannot run is an error, never a
// pass (issue 24, the reviewed verdict's rows).
func TestTestRowRunsTheBasesTest(t *testing.T) {
	t.Parallel()
	test := "import m\n\n\ndef test_shout():\n    assert m.shout('ab') == 'AB'\n"
	base := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test})
	// The head's own copy of the test would pass: the base's is what runs.
	head := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s\n", "tests/test_m.py": "import m\n\n\ndef test_shout():\n    assert m.shout('ab') == 'ab'\n"})
	tb := &validate.Table{Version: 1, Language: validate.LangPython, Target: "m.shout", Rows: []validate.Row{
		testRow("P001", "tests/test_m.py: test_shout", validate.OutcomePassed),
		testRow("P002", "tests/test_m.py: test_shout", validate.OutcomeFailed),
		testRow("P003", "tests/test_m.py: test_whisper", validate.OutcomePassed),
	}}
	checkTestRows(t, head, base, tb, map[string]string{"P001": StatusFail, "P002": StatusPass, "P003": StatusError})
}

// A Go test row judges its subtest alone, and a test or subtest that does
// not run (none of that name) is an error: go test says ok when -run
// matches nothing.
func TestGoTestRowJudgesItsSubtest(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shout\n\ngo 1.21\n"
	test := "package shout\n\nimport \"testing\"\n\nfunc TestShout(t *testing.T) {\n\tt.Run(\"a\", func(t *testing.T) {\n\t\tif Shout(\"a\") != \"A\" {\n\t\t\tt.Fatal(\"a\")\n\t\t}\n\t})\n\tt.Run(\"b c\", func(t *testing.T) {\n\t\tif got := Shout(\"b\"); got != \"B\" {\n\t\t\tt.Fatalf(\"Shout(b) = %q\", got)\n\t\t}\n\t})\n}\n"
	base := writeTree(t, map[string]string{"go.mod": mod, "shout.go": "package shout\n\nimport \"strings\"\n\nfunc Shout(s string) string { return strings.ToUpper(s) }\n", "shout_test.go": test})
	head := writeTree(t, map[string]string{"go.mod": mod, "shout.go": "package shout\n\nimport \"strings\"\n\nfunc Shout(s string) string {\n\tif s == \"b\" {\n\t\treturn s\n\t}\n\treturn strings.ToUpper(s)\n}\n"})
	tb := &validate.Table{Version: 1, Language: validate.LangGo, Target: "example.com/shout.Shout", Rows: []validate.Row{
		testRow("P001", "shout_test.go: TestShout/a", validate.OutcomePassed),
		testRow("P002", "shout_test.go: TestShout/b_c", validate.OutcomePassed),
		testRow("P003", "shout_test.go: TestShout/b_c", validate.OutcomeFailed),
		testRow("P004", "shout_test.go: TestShout/d", validate.OutcomePassed),
		testRow("P005", "shout_test.go: TestWhisper", validate.OutcomePassed),
	}}
	rep := checkTestRows(t, head, base, tb, map[string]string{"P001": StatusPass, "P002": StatusFail, "P003": StatusPass, "P004": StatusError, "P005": StatusError})
	// The reviewer reads how the test failed, not go test's FAIL line.
	for _, r := range rep.Rows {
		if r.ID == "P002" && !strings.Contains(r.Why, `Shout(b) = "b"`) {
			t.Errorf("P002 says %q, want the test's own message", r.Why)
		}
	}
}

// A TypeScript test row runs the base's test (named by its describe
// blocks, and its file by the source or by its output's name) in the Node
// box with the base's helper beside it; a test of no such name is an
// error (issue 25: a decided change a JavaScript test showed is kept,
// where the gate said "premise runs the base's tests of Python and Go").
func TestTypeScriptTestRow(t *testing.T) {
	needNode(t)
	t.Parallel()
	test := "import { shout } from '../src/shout';\nimport { word } from './helper';\n\ndescribe('shout', () => {\n  it('upper-cases', () => {\n    expect(shout(word)).toBe('AB');\n  });\n});\n"
	base := writeTree(t, map[string]string{"package.json": `{"type": "module"}`, "src/shout.ts": "export function shout(s: string): string {\n  return s.toUpperCase();\n}\n",
		"test/shout.test.ts": test, "test/helper.ts": "export const word = 'ab';\n"})
	head := writeTree(t, map[string]string{"package.json": `{"type": "module"}`, "src/shout.ts": "export function shout(s: string): string {\n  return s;\n}\n"})
	tb := &validate.Table{Version: 1, Language: validate.LangTypeScript, Target: "src/shout.shout", Rows: []validate.Row{
		testRow("P001", "test/shout.test.ts: shout > upper-cases", validate.OutcomePassed),
		testRow("P002", "test/shout.test.js: shout > upper-cases", validate.OutcomeFailed),
		testRow("P003", "test/shout.test.ts: shout > whispers", validate.OutcomePassed),
	}}
	checkTestRows(t, head, base, tb, map[string]string{"P001": StatusFail, "P002": StatusPass, "P003": StatusError})
}

// A test row of a variant of a test (one of its literals replaced)
// compares how the variant ended: it fails on both sides, and only the
// failure tells the base's code from the head's (a failed assertion
// whole, another exception by its class, as rows compare them).
func TestVariantTestRowComparesHowItEnded(t *testing.T) {
	t.Parallel()
	test := "import m\n\n\ndef test_last():\n    assert m.last('abc') == 'c'\n"
	base := writeTree(t, map[string]string{"m.py": "def last(s):\n    return s[-1] if s else None\n", "tests/test_m.py": test})
	head := writeTree(t, map[string]string{"m.py": "def last(s):\n    return s[-1]\n", "tests/test_m.py": test})
	// the first variant empties 'abc': the base fails the assertion, the
	// head raises IndexError
	run := PythonTests(context.Background(), PyTests{Dir: base, BaseDir: base, Tests: []string{"tests/test_m.py"}, Amplify: []string{"tests/test_m.py::test_last"}, Seconds: 30})
	v := run.Tests["tests/test_m.py::test_last[variant 0]"]
	if v.Variant != "'abc' as ''" || !strings.HasPrefix(v.Outcome, "failed: AssertionError") {
		t.Fatalf("the first variant of test_last: %+v; want 'abc' as '' failing its assertion (run %+v)", v, run)
	}
	// A variant named alone runs after its test, as it ran when found.
	alone := PythonTests(context.Background(), PyTests{Dir: base, BaseDir: base, Tests: []string{"tests/test_m.py"}, Only: []string{"tests/test_m.py::test_last[variant 0]"}, Seconds: 30})
	if want := []string{"tests/test_m.py::test_last", "tests/test_m.py::test_last[variant 0]"}; !slices.Equal(alone.Order, want) {
		t.Errorf("the variant named alone ran as %q, want %q", alone.Order, want)
	}
	row := func(id, how string) validate.Row {
		r := testRow(id, "tests/test_m.py: test_last[variant 0]", validate.OutcomeFailed)
		r.Expect.Value = how
		return r
	}
	tb := &validate.Table{Version: 1, Language: validate.LangPython, Target: "m.last", Rows: []validate.Row{
		row("P001", VariantEnd(v.Outcome)),                   // the base's end: the head must do as the base did
		row("P002", "IndexError: string index out of range"), // the head's end, intended
		row("P004", "IndexError: no such index"),             // reworded: an exception is its class
		testRow("P003", "tests/test_m.py: test_last[variant 0]", validate.OutcomePassed),
	}}
	checkTestRows(t, head, base, tb, map[string]string{"P001": StatusFail, "P002": StatusPass, "P003": StatusFail, "P004": StatusPass})
	checkTestRows(t, base, base, tb, map[string]string{"P001": StatusPass, "P002": StatusFail, "P003": StatusFail, "P004": StatusFail})
}

// A test row of a Go test's variant makes the variant again from the
// base's test file and compares how it ended: the base's message where
// the base's end is expected, a panic where the head's is.
func TestGoVariantTestRowComparesHowItEnded(t *testing.T) {
	t.Parallel()
	test := "package m\n\nimport \"testing\"\n\nfunc TestLast(t *testing.T) {\n\tif got := Last([]string{\"a\", \"b\"}); got != \"b\" {\n\t\tt.Errorf(\"Last = %q\", got)\n\t}\n}\n"
	mod := "module example.com/m\n\ngo 1.21\n"
	base := writeTree(t, map[string]string{"go.mod": mod, "m.go": "package m\n\nfunc Last(ws []string) string {\n\tif len(ws) == 0 {\n\t\treturn \"\"\n\t}\n\treturn ws[len(ws)-1]\n}\n", "m_test.go": test})
	head := writeTree(t, map[string]string{"go.mod": mod, "m.go": "package m\n\nfunc Last(ws []string) string {\n\treturn ws[len(ws)-1]\n}\n", "m_test.go": "package m\n"})
	_, vs, err := GoVariants([]byte(test), []string{"TestLast"}, GoVariantsPerTest, nil)
	if err != nil || len(vs) == 0 || vs[0].What != `[]string{"a", "b"} as []string{}` {
		t.Fatalf("the first variant of TestLast: %+v %v; want the list written empty", vs, err)
	}
	row := func(id, how string) validate.Row {
		r := testRow(id, "m_test.go: TestLast[variant 0]", validate.OutcomeFailed)
		r.Expect.Value = how
		return r
	}
	tb := &validate.Table{Version: 1, Language: validate.LangGo, Target: "example.com/m.Last", Rows: []validate.Row{
		row("G001", `m_test.go:7: Last = ""`),                                    // the base's end: the head must do as the base did
		row("G002", "panic: runtime error: index out of range [-1] [recovered]"), // the head's end, intended
		testRow("G003", "m_test.go: TestLast[variant 0]", validate.OutcomePassed),
	}}
	checkTestRows(t, head, base, tb, map[string]string{"G001": StatusFail, "G002": StatusPass, "G003": StatusFail})
	checkTestRows(t, base, base, tb, map[string]string{"G001": StatusPass, "G002": StatusFail, "G003": StatusFail})
}
