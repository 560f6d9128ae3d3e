package evidence_test

import (
	"strings"
	"testing"
	"time"

	"github.com/premise-dev/premise/evidence"
)

// TestSlowFunctionIsCutOffAndSaysSo: a changed function that sleeps on
// its large inputs cannot hold the run: the rows stop at row_seconds, the
// run says how many ran, and a change found before the clock ran out is
// still reported.
func TestSlowFunctionIsCutOffAndSaysSo(t *testing.T) {
	t.Parallel()
	base := "import time\n\n\ndef slow(n):\n    if n > 5000:\n        time.sleep(3)\n    return n * 2\n"
	head := "import time\n\n\ndef slow(n):\n    if n > 5000:\n        time.sleep(3)\n    return n * 3\n"
	start := time.Now()
	// A function's own time (function_seconds) longer than the rows': the
	// rows' clock is what cuts here.
	rep := runPatchWith(t, base, head, func(c *evidence.Config) { c.RowSeconds, c.FunctionSeconds, c.TraceSeconds = 8, 60, -1 })
	took := time.Since(start)
	if took > 40*time.Second {
		t.Errorf("the run took %s with row_seconds 8", took)
	}
	var note string
	for _, n := range rep.Notes {
		if strings.Contains(n, "ran out after") {
			note = n
		}
	}
	if note == "" {
		t.Fatalf("no note says the time ran out; notes %q, symbols %+v", rep.Notes, rep.Symbols)
	}
	if len(rep.Changes)+len(rep.Unexplained) == 0 {
		t.Errorf("the rows that ran before the clock stopped show no change (%s)", note)
	}
}

// runModule runs the evidence stage on a change of calc.py, with real
// Python workers, and returns the report and how long the run took.
func runModule(t *testing.T, base, head string, set func(*evidence.Config)) (*evidence.Report, time.Duration) {
	t.Helper()
	pythonPath(t) // fails the test at once when there is no python3
	start := time.Now()
	rep := runCommits(t, map[string]string{"calc.py": base}, map[string]string{"calc.py": head}, func(c *evidence.Config) {
		c.TraceSeconds = -1
		if set != nil {
			set(c)
		}
	})
	return rep, time.Since(start)
}

func symbolOf(rep *evidence.Report, name string) evidence.SymbolRows {
	for _, s := range rep.Symbols {
		if s.Symbol == name {
			return s
		}
	}
	return evidence.SymbolRows{}
}

// hasChange says whether rep shows a change of symbol, one that also
// satisfies match when it is given.
func hasChange(rep *evidence.Report, symbol string, match func(evidence.Change) bool) bool {
	for _, c := range changesOf(rep, symbol) {
		if match == nil || match(c) {
			return true
		}
	}
	return false
}

func changesOf(rep *evidence.Report, symbol string) []evidence.Change {
	var out []evidence.Change
	for _, c := range append(append([]evidence.Change{}, rep.Changes...), rep.Unexplained...) {
		if c.Symbol == symbol {
			out = append(out, c)
		}
	}
	return out
}

// feeBase and feeHead are a function that changed in an ordinary way, put
// after a slow one in the same file: its change must be found whatever the
// slow one does.
const (
	feeBase = "\n\ndef fee(amount, rate):\n    if amount < 0:\n        raise ValueError(\"negative\")\n    return round(amount * rate, 2)\n"
	feeHead = "\n\ndef fee(amount, rate):\n    if amount < 0:\n        raise ValueError(\"negative\")\n    return round(amount * rate, 3)\n"
)

// TestHangingFunctionIsCutOffAndTheRestRuns is issue 24, item 5: a
// function every input of which hangs, on both sides, used to hold the
// rows' clock until the functions after it got no rows at all. Its time
// (function_seconds) cuts it off, it says so, and the function after it
// is checked and its change found, the run ending well before the rows'
// clock (set long here, so a loaded machine's slower run still tells the
// two apart), let alone rows x call timeout.
func TestHangingFunctionIsCutOffAndTheRestRuns(t *testing.T) {
	t.Parallel()
	base := "def spin(n):\n    while True:\n        n += 1\n" + feeBase
	head := "def spin(n):\n    while True:\n        n += 2\n" + feeHead
	rep, took := runModule(t, base, head, func(c *evidence.Config) { c.RowSeconds = 150 })
	if took > 75*time.Second {
		t.Errorf("the run took %s, as long as the rows' clock; a function's time is %ds", took, evidence.DefaultFunctionSeconds)
	}
	spin := symbolOf(rep, "calc.spin")
	if !strings.Contains(spin.Why, "cut off after") || !strings.Contains(spin.Why, "function_seconds") {
		t.Errorf("calc.spin: %+v; want it to say its time cut it off", spin)
	}
	if fee := symbolOf(rep, "calc.fee"); fee.Rows == 0 || fee.Unchecked {
		t.Errorf("calc.fee: %+v; want its rows run", fee)
	}
	if len(changesOf(rep, "calc.fee")) == 0 {
		t.Errorf("no change found on calc.fee; symbols %+v, notes %q", rep.Symbols, rep.Notes)
	}
	if cs := changesOf(rep, "calc.spin"); len(cs) > 0 {
		t.Errorf("calc.spin hangs on both sides, yet %d changes: %+v", len(cs), cs[0])
	}
}

// TestSlowFunctionKeepsTheChangesItsRowsFound: a function whose every call
// takes a second runs out of its time after a few rows; the change those
// rows show is still reported (a change found is a change), and the
// symbol says how many of its rows ran.
func TestSlowFunctionKeepsTheChangesItsRowsFound(t *testing.T) {
	t.Parallel()
	base := "import time\n\n\ndef slow(n):\n    time.sleep(0.5)\n    return n * 2\n" + feeBase
	head := "import time\n\n\ndef slow(n):\n    time.sleep(0.5)\n    return n * 3\n" + feeHead
	rep, _ := runModule(t, base, head, func(c *evidence.Config) { c.FunctionSeconds = 5 })
	slow := symbolOf(rep, "calc.slow")
	if !strings.Contains(slow.Why, "cut off after") || slow.Rows == 0 || slow.Unchecked {
		t.Errorf("calc.slow: %+v; want some rows run, then cut off", slow)
	}
	if len(changesOf(rep, "calc.slow")) == 0 {
		t.Errorf("the rows of calc.slow that ran show no change; symbols %+v, notes %q", rep.Symbols, rep.Notes)
	}
	if len(changesOf(rep, "calc.fee")) == 0 {
		t.Errorf("no change found on calc.fee; symbols %+v", rep.Symbols)
	}
}

// TestHeadLoopIsStillAChange: a loop the head adds on some inputs is a
// change, found at the full limit and kept through the rerun of timeouts,
// though its function is cut off and its later rows time out under the
// shortened limit.
func TestHeadLoopIsStillAChange(t *testing.T) {
	t.Parallel()
	base := "def step(n):\n    return n + 1\n" + feeBase
	head := "def step(n):\n    while n > 3:\n        pass\n    return n + 1\n" + feeHead
	rep, _ := runModule(t, base, head, func(c *evidence.Config) { c.Gate.Timeout = 2 * time.Second })
	cs := changesOf(rep, "calc.step")
	if len(cs) == 0 {
		t.Fatalf("the head's loop is no change; symbols %+v, notes %q", rep.Symbols, rep.Notes)
	}
	for _, c := range cs {
		if !strings.Contains(c.Head, "timed out") {
			t.Errorf("change %s %s: head %q; want it timed out", c.Row, c.Input, c.Head)
		}
	}
	if len(changesOf(rep, "calc.fee")) == 0 {
		t.Errorf("no change found on calc.fee; symbols %+v", rep.Symbols)
	}
}

// TestShortenedTimeoutIsNoChange: once the head hangs on 0, its later
// rows get the shortened limit (a quarter second of a call timeout of
// two); those it answers in 0.6 s (large inputs) time out under it, where
// the base answers at once. That is no change of the patch's until a rerun
// at the full limit says so: none of them is reported, and a note says
// they were not counted.
func TestShortenedTimeoutIsNoChange(t *testing.T) {
	t.Parallel()
	base := "def pick(n):\n    return n % 5\n" + feeBase
	head := "import time\n\n\ndef pick(n):\n    if n == 0:\n        while True:\n            pass\n    if abs(n) > 100:\n        time.sleep(0.6)\n    return n % 5\n" + feeHead
	rep, _ := runModule(t, base, head, func(c *evidence.Config) { c.FunctionSeconds, c.Gate.Timeout = 12, 2*time.Second })
	for _, c := range changesOf(rep, "calc.pick") {
		if c.Input != "(0)" {
			t.Errorf("change %s on %s: base %q, head %q; only 0 hangs on the head", c.Row, c.Input, c.Base, c.Head)
		}
	}
	if len(changesOf(rep, "calc.pick")) == 0 {
		t.Errorf("the head's hang on 0 is no change; notes %q", rep.Notes)
	}
	noted := false
	for _, n := range rep.Notes {
		noted = noted || strings.Contains(n, "shortened")
	}
	t.Logf("notes %q", rep.Notes)
	if !noted {
		t.Errorf("no note says rows timed out under the shortened limit (the test no longer shortens?); notes %q", rep.Notes)
	}
}

// TestEvidenceEndsWithinItsTime: the whole evidence stage, the base's
// tests after the rows included, ends within the rows' time and a short
// tail (a run of premise within about a minute), even when a base's test
// hangs on the head and go test's own time is far longer; and that test
// is a change.
func TestEvidenceEndsWithinItsTime(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shout\n\ngo 1.21\n"
	base := "package shout\n\nimport \"strings\"\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s)\n}\n"
	head := "package shout\n\nimport (\n\t\"crypto/sha256\"\n\t\"fmt\"\n\t\"strings\"\n)\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\tfor fmt.Sprintf(\"%x\", sha256.Sum256([]byte(s)))[:12] == \"" + triggerHash() + "\" {\n\t}\n\treturn strings.ToUpper(s)\n}\n"
	test := "package shout\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestFruit(t *testing.T) {\n\ts := \"\"\n\tfor i := 0; i < 3; i++ {\n\t\ts += \"kumquat\"\n\t}\n\tif got := Shout(s); got != strings.ToUpper(s) {\n\t\tt.Fatalf(\"Shout(%q) = %q\", s, got)\n\t}\n}\n"
	start := time.Now()
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "shout.go": base, "shout_test.go": test},
		map[string]string{"shout.go": head}, func(c *evidence.Config) { c.RowSeconds, c.TraceSeconds = 20, 90 })
	// 20 s of rows and the 15 s tail; go test's own time (90 s a side)
	// would have held the run past a minute and a half. (With 10 s of
	// rows, a loaded CI machine spent the whole time building the two
	// test binaries, and go test told nothing.)
	if took := time.Since(start); took > 55*time.Second {
		t.Errorf("the evidence took %s with row_seconds 20; notes %q", took.Round(time.Second), rep.Notes)
	}
	// The test the head never ends, where the base passes it, is a
	// change: go test's own timeout came first and named it.
	c := baseTestChange(rep, "example.com/shout.Shout", "TestFruit")
	if c == nil || c.Head != "failed: timed out" {
		t.Errorf("the base's test the head loops in is not a change: %+v; notes %q", c, rep.Notes)
	}
}
