package junit

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/internal/suitetest"
)

// summary is a case as the tests compare it: its id and each attempt's
// outcome, then the case's own.
func summary(r *Report) map[string]string {
	out := map[string]string{}
	for _, c := range r.Cases {
		var as []string
		for _, a := range c.Attempts {
			as = append(as, string(a.Outcome))
		}
		out[c.ID] = strings.Join(as, ",") + " => " + string(c.Outcome())
	}
	return out
}

func TestParseFiles(t *testing.T) {
	tests := []struct {
		file   string
		want   map[string]string
		reason string
	}{
		{file: "nested.xml", want: map[string]string{
			"com.example.ParserTest::parsesEmpty":  "passed => passed",
			"com.example.ParserTest::rejectsComma": "failed => failed",
			"com.example.ParserTest::opensFile":    "error => error",
			"com.example.ParserTest::unicode":      "skipped => skipped",
			"outer::topLevel":                      "passed => passed",
		}, reason: "suites nest; a testcase without classname takes its own suite's name, not an outer one's"},
		{file: "surefire-rerun.xml", want: map[string]string{
			"com.example.ClockTest::ticks":  "failed,error,passed => flaky",
			"com.example.ClockTest::drifts": "failed,failed,failed => failed",
			"com.example.ClockTest::steady": "passed => passed",
		}, reason: "Surefire's flakyFailure precede the pass that hid them; rerunFailure follow the failure"},
		{file: "gotestsum.xml", want: map[string]string{
			"example.com/suite/badmain::TestMain":       "failed => failed",
			"example.com/suite/calc::TestAdd":           "passed => passed",
			"example.com/suite/calc::TestTable/zero":    "passed => passed",
			"example.com/suite/calc::TestTable/neg_one": "failed => failed",
			"example.com/suite/calc::TestTable":         "failed => failed",
			"example.com/suite/calc::TestSkipped":       "skipped => skipped",
			"example.com/suite/calc::TestFlaky":         "failed,passed => flaky",
		}, reason: "gotestsum --rerun-fails repeats a testcase per attempt: one case, two attempts, a flake and never a pass"},
		{file: "pytest-xunit1.xml", want: map[string]string{
			"tests/unit/test_csv.py::TestParse::test_empty_field": "failed => failed",
			"tests/unit/test_csv.py::test_round_trip[a,,b]":       "passed => passed",
			"tests/unit/test_broken.py":                           "error => error",
		}, reason: "xunit1 writes the file; a collection error is named by its path"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rep, err := ParseFile(filepath.Join("testdata", tt.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summary(rep)); diff != "" {
				t.Errorf("cases (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	rep, err := ParseFile("testdata/nested.xml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range rep.Cases {
		got[c.Name] = c.Message()
	}
	want := map[string]string{"parsesEmpty": "", "rejectsComma": "expected 3 fields, got 2",
		"opensFile": "at ParserTest.java:55", "unicode": "", "topLevel": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s\nreason: the message attribute first, else the text's last line", diff)
	}
}

func TestPytestClassname(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "tests/TestData"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "tests/TestData/test_io.py"), nil, 0o644)
	tests := []struct {
		classname, name, root, want, reason string
	}{
		{"tests.test_x", "test_y[1]", "", "tests/test_x.py::test_y[1]", ""},
		{"tests.test_x.TestK", "test_m", "", "tests/test_x.py::TestK::test_m", "a Test... segment starts the classes"},
		{"tests.test_x.TestK.TestInner", "test_m", "", "tests/test_x.py::TestK::TestInner::test_m", "nested classes"},
		{"test_top", "test_a[x.y]", "", "test_top.py::test_a[x.y]", "dots in the parameter are the name's, not the module's"},
		{"tests.TestData.test_io", "test_r", root, "tests/TestData/test_io.py::test_r",
			"with the root, the module is the longest path that exists, even under a directory named Test..."},
	}
	for _, tt := range tests {
		if got := pytestID(tt.classname, tt.name, "", tt.root); got != tt.want {
			t.Errorf("pytestID(%q, %q) = %q, want %q (%s)", tt.classname, tt.name, got, tt.want, tt.reason)
		}
	}
}

func TestParseErrors(t *testing.T) {
	big := "<testsuite>" + strings.Repeat("<testcase name=\"t\"/>", 100) + "</testsuite>"
	tests := []struct {
		name, input string
		max         int64
		want        string
		reason      string
	}{
		{name: "empty", input: "  \n", want: "r.xml: empty"},
		{name: "truncated XML", input: "<testsuites><testsuite name=\"s\">\n<testcase name=\"a\"><failure message=\"x\">boom",
			want: "r.xml:2: truncated", reason: "a runner killed mid-write: say so, and where"},
		{name: "truncated after a case", input: "<testsuites><testsuite name=\"s\"><testcase name=\"a\"/>", want: "r.xml:1: truncated"},
		{name: "not well-formed", input: "<testsuite><testcase name=\"a\"></testsuite>", want: "r.xml:1: not well-formed XML"},
		{name: "wrong root", input: "<html><body/></html>", want: "r.xml:1: root element is <html>"},
		{name: "case without a name", input: "<testsuite><testcase/></testsuite>", want: "neither name nor classname"},
		{name: "too large", input: big, max: 512, want: "r.xml: larger than 0 MiB",
			reason: "a huge file is refused before it takes the memory"},
		{name: "neither format", input: "PASS\nok  example.com/x 0.1s\n", want: "neither JUnit XML"},
		{name: "truncated go test -json", input: "{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"pa",
			want: "r.xml:2: truncated", reason: "the last event cut short"},
		{name: "bad event mid-stream", input: "{\"Action\":\"run\"\n{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"TestA\"}\n",
			want: "r.xml:1: not a go test -json event"},
		{name: "other encoding", input: "<?xml version=\"1.0\" encoding=\"EBCDIC\"?><testsuite/>", want: "EBCDIC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("r.xml", strings.NewReader(tt.input), Options{MaxBytes: tt.max})
			if err == nil {
				t.Fatalf("Parse succeeded, want an error containing %q (%s)", tt.want, tt.reason)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "r.xml") {
				t.Errorf("error = %q, want one line naming the file and containing %q (%s)", msg, tt.want, tt.reason)
			}
		})
	}
}

func TestLatin1(t *testing.T) {
	in := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite name=\"s\"><testcase name=\"caf\xe9\"/></testsuite>"
	rep, err := Parse("r.xml", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Cases[0].ID; got != "s::café" {
		t.Errorf("id = %q, want s::café", got)
	}
}

// TestRealGoTestJSON reads what go test -json writes over a module with
// subtests, a skip, a failure and a flaky test run three times.
func TestRealGoTestJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	suitetest.WriteGoModule(t, dir)
	out := suitetest.GoTestJSON(t, dir, filepath.Join(dir, "counter"), 3)
	rep, err := Parse("go.json", bytes.NewReader(out), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"example.com/suite/calc::TestAdd":           "passed,passed,passed => passed",
		"example.com/suite/calc::TestWrong":         "failed,failed,failed => failed",
		"example.com/suite/calc::TestTable":         "failed,failed,failed => failed",
		"example.com/suite/calc::TestTable/zero":    "passed,passed,passed => passed",
		"example.com/suite/calc::TestTable/neg_one": "failed,failed,failed => failed",
		"example.com/suite/calc::TestSkipped":       "skipped,skipped,skipped => skipped",
		"example.com/suite/calc::TestFlaky":         "failed,passed,passed => flaky",
	}
	if diff := cmp.Diff(want, summary(rep)); diff != "" {
		t.Errorf("cases (-want +got):\n%s\nreason: -count=3 is three attempts of each test; TestFlaky fails the first of every three", diff)
	}
	if rep.Format != "go-test-json" {
		t.Errorf("format = %q", rep.Format)
	}
	for _, c := range rep.Cases {
		if c.ID == "example.com/suite/calc::TestWrong" && !strings.Contains(c.Message(), "Add(2, 2) = 4, want 5") {
			t.Errorf("TestWrong's message = %q, want the t.Fatalf text", c.Message())
		}
	}
	// A stream cut just after a test started: the test did not pass, it
	// did not finish.
	lines := bytes.SplitAfter(out, []byte("\n"))
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"Action":"run"`)) && bytes.Contains(l, []byte(`"Test":"TestFlaky"`)) {
			lines = lines[:i+1]
			break
		}
	}
	rep, err = Parse("cut.json", bytes.NewReader(bytes.Join(lines, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cases {
		if c.Name == "TestFlaky" {
			if last := c.Attempts[len(c.Attempts)-1]; last.Outcome != Errored || !strings.Contains(last.Message, "did not finish") {
				t.Errorf("cut TestFlaky's last attempt = %+v, want an error: did not finish", last)
			}
		}
	}
}

// TestRealPytest reads what pytest --junitxml writes, and holds the ids
// premise derives to the node ids pytest itself prints.
func TestRealPytest(t *testing.T) {
	py := suitetest.Pytest(t)
	dir := t.TempDir()
	suitetest.WritePytestSuite(t, dir)
	junit := filepath.Join(dir, "junit.xml")
	suitetest.RunPytest(t, py, dir, junit, filepath.Join(dir, "counter"))
	rep, err := ParseFile(junit, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"tests/test_calc.py::TestAdd::test_small": "passed => passed",
		"tests/test_calc.py::test_param[1]":       "failed => failed",
		"tests/test_calc.py::test_param[a b]":     "passed => passed",
		"tests/test_calc.py::test_param[x::y]":    "passed => passed",
		"tests/test_calc.py::test_uses_broken":    "error => error",
		"tests/test_calc.py::test_skipped":        "skipped => skipped",
		"tests/test_calc.py::test_flaky":          "failed => failed",
	}
	if diff := cmp.Diff(want, summary(rep)); diff != "" {
		t.Errorf("cases (-want +got):\n%s\nreason: a fixture's exception is an error, an assert a failure", diff)
	}
	var ids []string
	for _, c := range rep.Cases {
		ids = append(ids, c.ID)
	}
	pytestIDs := suitetest.PytestIDs(t, py, dir)
	sort.Strings(ids)
	sort.Strings(pytestIDs)
	if diff := cmp.Diff(pytestIDs, ids); diff != "" {
		t.Errorf("ids (-pytest --collect-only +premise):\n%s\nreason: the ledger is keyed by pytest's own node ids", diff)
	}
}

// TestGoJSONMatchesGotestsum: the same tests read from go test -json and
// from gotestsum's JUnit get the same ids, so a ledger does not care which
// the CI saved.
func TestGoJSONMatchesGotestsum(t *testing.T) {
	stream := `{"Action":"run","Package":"example.com/suite/calc","Test":"TestTable"}
{"Action":"run","Package":"example.com/suite/calc","Test":"TestTable/neg_one"}
{"Action":"output","Package":"example.com/suite/calc","Test":"TestTable/neg_one","Output":"    calc_test.go:24: negative\n"}
{"Action":"fail","Package":"example.com/suite/calc","Test":"TestTable/neg_one"}
{"Action":"fail","Package":"example.com/suite/calc","Test":"TestTable"}
{"Action":"fail","Package":"example.com/suite/calc"}
{"Action":"output","Package":"example.com/suite/badmain","Output":"panic: init\n"}
{"Action":"fail","Package":"example.com/suite/badmain"}
`
	js, err := Parse("go.json", strings.NewReader(stream), Options{})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := ParseFile("testdata/gotestsum.xml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, c := range gs.Cases {
		have[c.ID] = true
	}
	for _, c := range js.Cases {
		if !have[c.ID] {
			t.Errorf("go test -json case %s is not among gotestsum's ids", c.ID)
		}
	}
	if len(js.Cases) != 3 {
		t.Errorf("cases = %v, want the two tests and the package's own failure as TestMain", summary(js))
	}
}
