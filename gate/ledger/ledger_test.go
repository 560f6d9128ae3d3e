package ledger

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/internal/settings"
	"github.com/premise-dev/premise/internal/suitetest"
)

// results builds a report: ids ending in "!" fail.
func results(ids ...string) *junit.Report {
	r := &junit.Report{File: "r.xml"}
	for _, id := range ids {
		o := junit.Passed
		if strings.HasSuffix(id, "!") {
			id, o = strings.TrimSuffix(id, "!"), junit.Failed
		}
		r.Cases = append(r.Cases, junit.Case{ID: id, Name: id, Attempts: []junit.Attempt{{Outcome: o}}})
	}
	return r
}

func record(t *testing.T, path string, cfg Config, rep *junit.Report, seed int64, diff string) *RecordReport {
	t.Helper()
	out, err := Record(context.Background(), RecordOptions{Path: path, Config: cfg, Report: rep, Seed: seed, Diff: diff})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func state(t *testing.T, path, id string) State {
	t.Helper()
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Tests[id]; r != nil {
		return r.State
	}
	return ""
}

// TestTransitions walks tests through seed 002's states over repeated
// runs, with "f" failing on the listed runs (1-based), each step naming
// the state after it.
func TestTransitions(t *testing.T) {
	cfg := ConfigFrom(settings.Ledger{})
	tests := []struct {
		name string
		// fails[i] reports whether run i+1 fails; seeds and diffs vary as
		// the case says.
		fails  string // "." pass, "F" fail, one per run
		seed   func(i int) int64
		diff   func(i int) string
		want   string // the state after each run: a active, w watch, f frozen, b broken
		reason string
	}{
		{name: "identical seed and diff, different results", fails: "F.F..",
			want: "aaaaf", reason: "nothing moves below the minimum sample; then non-determinism freezes"},
		{name: "low rate across seeds is watched, then left after a clean streak", fails: ".........F.....",
			seed: func(i int) int64 { return int64(i) }, want: "aaaaaaaaawwwwwa",
			reason: "1 of 10 is in (0, 0.10]; five clean runs leave watch; the old failure in the window does not bring it back"},
		{name: "high rate across seeds freezes", fails: "..F...",
			seed: func(i int) int64 { return int64(i) }, want: "aaaaff", reason: "1 in 3 is above 0.10, but nothing moves until the sample is 5"},
		{name: "failing every run is broken, not frozen", fails: "FFFFFF", want: "aaaabb",
			reason: "a test that fails every run is broken, and broken gates"},
		{name: "a patch that breaks a test does not get it frozen", fails: ".....FFF",
			diff: func(i int) string {
				if i >= 5 {
					return "sha256:patch"
				}
				return "sha256:base"
			}, want: "aaaaaaaa", reason: "a diff where it failed every run is a regression: it stays active and gates"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "flake_ledger.json")
			got := ""
			for i, c := range tt.fails {
				seed, diff := int64(20260907), "sha256:abc"
				if tt.seed != nil {
					seed = tt.seed(i)
				}
				if tt.diff != nil {
					diff = tt.diff(i)
				}
				id := "tests/p.py::test_x"
				if c == 'F' {
					id += "!"
				}
				// Nine steady tests beside it keep the run from looking
				// like an infrastructure failure.
				record(t, path, cfg, results(id, "a", "b", "c", "d", "e", "f", "g", "h", "i"), seed, diff)
				got += string(state(t, path, "tests/p.py::test_x")[0])
			}
			if got != tt.want {
				t.Errorf("states %s, want %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestUnfreeze: only a human's unfreeze and clean identical-seed reruns
// make a frozen test active; a failure spends the unfreeze.
func TestUnfreeze(t *testing.T) {
	cfg := ConfigFrom(settings.Ledger{UnfreezeRuns: 3})
	path := filepath.Join(t.TempDir(), "flake_ledger.json")
	steady := []string{"a", "b", "c", "d", "e"}
	run := func(fail bool, seed int64) {
		id := "t"
		if fail {
			id = "t!"
		}
		record(t, path, cfg, results(append([]string{id}, steady...)...), seed, "d1")
	}
	for _, f := range []bool{true, false, true, false, false} {
		run(f, 7)
	}
	if s := state(t, path, "t"); s != Frozen {
		t.Fatalf("state %s, want frozen", s)
	}
	for i := 0; i < 4; i++ {
		run(false, 7)
	}
	if s := state(t, path, "t"); s != Frozen {
		t.Errorf("clean runs without an unfreeze: %s, want frozen: the agent cannot clean its way out", s)
	}
	ctx := context.Background()
	if _, err := Unfreeze(ctx, UnfreezeOptions{Path: path, ID: "t", Now: time.Now()}); err == nil {
		t.Error("unfreeze without --by succeeded")
	}
	if _, err := Unfreeze(ctx, UnfreezeOptions{Path: path, ID: "a", By: "rita", Now: time.Now()}); err == nil || !strings.Contains(err.Error(), "not frozen") {
		t.Errorf("unfreeze of an active test: %v", err)
	}
	if _, err := Unfreeze(ctx, UnfreezeOptions{Path: path, ID: "t", By: "rita", Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	run(false, 9) // the first rerun fixes the probation's seed
	run(true, 8)  // another seed: not counted, not spending it
	run(false, 9)
	if s := state(t, path, "t"); s != Frozen {
		t.Errorf("after 2 of 3 clean reruns: %s, want still frozen", s)
	}
	run(false, 9)
	if s := state(t, path, "t"); s != Active {
		t.Errorf("after 3 clean reruns on seed 9: %s, want active", s)
	}

	// Frozen again, unfrozen, and a failure on the seed spends it.
	for _, f := range []bool{true, false, true, false, false} {
		run(f, 7)
	}
	if _, err := Unfreeze(ctx, UnfreezeOptions{Path: path, ID: "t", By: "rita", Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	run(false, 7)
	run(true, 7)
	for i := 0; i < 5; i++ {
		run(false, 7)
	}
	if s := state(t, path, "t"); s != Frozen {
		t.Errorf("a failure after the unfreeze: %s, want frozen until a human unfreezes again", s)
	}
}

func TestInfrastructureFailure(t *testing.T) {
	cfg := ConfigFrom(settings.Ledger{})
	path := filepath.Join(t.TempDir(), "flake_ledger.json")
	record(t, path, cfg, results("a", "b", "c", "d", "e"), 1, "d")
	rep := record(t, path, cfg, results("a!", "b!", "c!", "d!", "e"), 1, "d")
	if !rep.Infrastructure {
		t.Fatalf("4 of 5 failing: not an infrastructure failure")
	}
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Tests["a"].Runs != 1 || l.Tests["a"].Fails != 0 || len(l.Infra) != 1 || l.Infra[0].Failing != 4 {
		t.Errorf("a = %+v, infra = %+v: the run must be recorded as infrastructure and feed no row", l.Tests["a"], l.Infra)
	}
	rep = record(t, path, cfg, results("a!", "b!", "c!", "d", "e"), 1, "d")
	if rep.Infrastructure {
		t.Errorf("3 of 5 failing is below 80%%: it feeds the ledger")
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ text, want string }{
		{`{"t": {"state": "flaky", "runs": 1, "fails": 0, "history": []}}`, `state "flaky"`},
		{`{"t": {"state": "watch", "runs": 1, "fails": 3}}`, "fails 3 of runs 1"},
		{`{"t": {"state": "watch", "runs": 1, "fails": 0, "colour": 1}}`, `unknown field "colour"`},
		{`{"$x": {}}`, "is not a test's node id"},
		{`[]`, "not a flake ledger"},
	}
	for _, tt := range tests {
		if _, err := Parse("flake_ledger.json", []byte(tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "flake_ledger.json: ") {
			t.Errorf("Parse(%s) error = %v, want %q", tt.text, err, tt.want)
		}
	}
	seed := `{"tests/properties/test_reserve_props.py::test_reserve_never_exceeds_on_hand": {"seed": 20260907, "runs": 30, "fails": 2, "last_diff": "sha256:x", "state": "watch"}}`
	if l, err := Parse("seed", []byte(seed)); err != nil || l.Tests["tests/properties/test_reserve_props.py::test_reserve_never_exceeds_on_hand"].Fails != 2 {
		t.Errorf("seed 002's ledger row: %v", err)
	}
}

// TestRealGoTestRuns records real go test -json runs of a module with a
// flaky test (it fails every third run) on one seed and diff: the flaky
// test is frozen once the sample is big enough, the always-failing test
// is broken, a build failure feeds nothing, and after a human's unfreeze
// and a fix the test is active again. The ledger gate fails only for the
// tests that are not frozen.
func TestRealGoTestRuns(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	suitetest.WriteGoModule(t, dir)
	counter := filepath.Join(dir, "counter")
	path := filepath.Join(dir, "flake_ledger.json")
	cfg := ConfigFrom(settings.Ledger{UnfreezeRuns: 2})
	const flaky = "example.com/suite/calc::TestFlaky"
	var last *junit.Report
	run := func(env ...string) *RecordReport {
		out := suitetest.GoTestJSON(t, dir, counter, 1, env...)
		jr, err := junit.Parse("go.json", strings.NewReader(string(out)), junit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		last = jr
		return record(t, path, cfg, jr, 20260907, "sha256:d1")
	}
	var states []State
	for i := 0; i < 5; i++ {
		run()
		states = append(states, state(t, path, flaky))
	}
	if got := states; got[3] != Active || got[4] != Frozen {
		t.Errorf("TestFlaky over 5 runs: %v, want active until the fifth, then frozen", got)
	}
	if s := state(t, path, "example.com/suite/calc::TestWrong"); s != Broken {
		t.Errorf("TestWrong: %s, want broken", s)
	}
	// The frozen test still runs and every run is recorded.
	l, _ := Load(path)
	if r := l.Tests[flaky]; r.Runs != 5 || r.Fails != 2 {
		t.Errorf("TestFlaky's row: runs %d fails %d, want 5 and 2", r.Runs, r.Fails)
	}
	g, err := Gate(path, []*junit.Report{last})
	if err != nil {
		t.Fatal(err)
	}
	if g.Exit != 1 || g.FrozenRan != 1 || len(g.Blocking) != 3 {
		t.Errorf("gate: exit %d frozen_ran %d blocking %v, want 1, 1 and the three broken tests", g.Exit, g.FrozenRan, g.Blocking)
	}

	// A run that does not build: an infrastructure failure, nothing fed.
	bad := filepath.Join(dir, "calc", "zz_broken.go")
	os.WriteFile(bad, []byte("package calc\nfunc {\n"), 0o644)
	if rep := run(); !rep.Infrastructure {
		t.Errorf("a build failure was not an infrastructure failure: %+v", rep)
	}
	os.Remove(bad)
	if l2, _ := Load(path); l2.Tests[flaky].Runs != 5 {
		t.Errorf("the infrastructure failure fed TestFlaky: runs %d", l2.Tests[flaky].Runs)
	}

	// A human unfreezes; with the flake fixed, two clean reruns on the
	// seed make it active.
	if _, err := Unfreeze(context.Background(), UnfreezeOptions{Path: path, ID: flaky, By: "rita", Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	run("SUITE_COUNTER=")
	if s := state(t, path, flaky); s != Frozen {
		t.Errorf("after one clean rerun: %s, want frozen", s)
	}
	run("SUITE_COUNTER=")
	if s := state(t, path, flaky); s != Active {
		t.Errorf("after two clean reruns: %s, want active", s)
	}
}

// TestRealPytestRuns: pytest's JUnit over five runs of one seed and diff:
// test_flaky (failing every third run) is frozen under pytest's own node
// id, test_param[1] (failing every run) is broken, and the gate blocks on
// the broken one only.
func TestRealPytestRuns(t *testing.T) {
	t.Parallel()
	py := suitetest.Pytest(t)
	dir := t.TempDir()
	suitetest.WritePytestSuite(t, dir)
	path := filepath.Join(dir, "flake_ledger.json")
	cfg := ConfigFrom(settings.Ledger{})
	var jr *junit.Report
	for i := 0; i < 5; i++ {
		xml := filepath.Join(dir, "junit.xml")
		suitetest.RunPytest(t, py, dir, xml, filepath.Join(dir, "counter"))
		var err error
		if jr, err = junit.ParseFile(xml, junit.Options{Root: dir}); err != nil {
			t.Fatal(err)
		}
		record(t, path, cfg, jr, 20260907, "sha256:d1")
	}
	for id, want := range map[string]State{
		"tests/test_calc.py::test_flaky":          Frozen,
		"tests/test_calc.py::test_param[1]":       Broken,
		"tests/test_calc.py::test_uses_broken":    Broken,
		"tests/test_calc.py::TestAdd::test_small": Active,
		"tests/test_calc.py::test_param[x::y]":    Active,
	} {
		if got := state(t, path, id); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
	if s := state(t, path, "tests/test_calc.py::test_skipped"); s != "" {
		t.Errorf("a skipped test is in the ledger as %s: a skip is no run", s)
	}
	g, err := Gate(path, []*junit.Report{jr})
	if err != nil {
		t.Fatal(err)
	}
	var blocking []string
	for _, b := range g.Blocking {
		blocking = append(blocking, b.ID)
	}
	if strings.Join(blocking, " ") != "tests/test_calc.py::test_param[1] tests/test_calc.py::test_uses_broken" || g.FrozenRan != 1 {
		t.Errorf("gate: blocking %v, frozen ran %d; want the broken tests, and the frozen one counted apart", blocking, g.FrozenRan)
	}
}
