package gate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/validate"
)

func loadTable(t *testing.T, path string) *validate.Table {
	t.Helper()
	tab, err := validate.LoadTable(path)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func pyAdapter(t *testing.T, dir string) Adapter {
	t.Helper()
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// failing lists the ids of rows that did not pass, with their status.
func failing(rep *Report) []string {
	var out []string
	for _, r := range rep.Rows {
		if r.Status != StatusPass || r.Frozen {
			s := r.ID + ":" + r.Status
			if r.Frozen {
				s += ":frozen"
			}
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// TestIntervalsEndToEnd is issue 5's "done means": the reviewed version
// passes seed 004's rows; the agent's patch fails P004 and P005, exit 1.
func TestIntervalsEndToEnd(t *testing.T) {
	t.Parallel()
	tab := loadTable(t, "testdata/partitions.yaml")
	tests := []struct {
		name     string
		dir      string
		wantFail []string
		wantExit int
	}{
		{"base", "testdata/intervals/base", nil, 0},
		{"agent patch", "testdata/intervals/head", []string{"P004:fail", "P005:fail"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rn := &Runner{Adapter: pyAdapter(t, tc.dir), Budget: DefaultBudget, Seed: 1}
			rep, err := rn.Run(context.Background(), tab)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantFail, failing(rep)); diff != "" {
				t.Errorf("failing rows (-want +got):\n%s", diff)
			}
			if rep.Exit != tc.wantExit {
				t.Errorf("exit = %d, want %d", rep.Exit, tc.wantExit)
			}
			for _, r := range rep.Rows {
				if len(r.Attempts) != DefaultReruns {
					t.Errorf("%s ran %d times, want every one of %d reruns", r.ID, len(r.Attempts), DefaultReruns)
				}
			}
		})
	}
}

const oddSubject = `
import random
_n = [0]
def rand(x):
    return random.random() < 0.5
def alternate(x):
    _n[0] += 1
    return _n[0] % 2 == 0
def swallow(x):
    return "ok"
def always_false(x):
    return False
def sort_first(xs):
    return sorted(xs)[:1]
`

func oddTable(rows ...validate.Row) *validate.Table {
	for i := range rows {
		rows[i].HasInp = true
		if rows[i].Kind == "" {
			rows[i].Kind = validate.KindBoundary
		}
		rows[i].Cls, rows[i].Relation, rows[i].AssumptionIDs = "c", "some relation", []string{"A001"}
	}
	return &validate.Table{Version: 1, Target: "odd.rand", Rows: rows}
}

func oddDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "odd.py"), []byte(oddSubject), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunnerDecisionMatrix(t *testing.T) {
	t.Parallel()
	dir := oddDir(t)
	flaky := func(id string) validate.Row {
		return validate.Row{ID: id, Target: "odd.alternate", Inp: id, Contract: "result == true"}
	}
	tests := []struct {
		name     string
		table    *validate.Table
		freeze   []string // row ids to freeze
		budget   int
		want     []string
		wantExit int
		reason   string
	}{
		{"random subject is a flake", oddTable(validate.Row{ID: "P001", Inp: 1, Contract: "result == true"}), nil, 2,
			[]string{"P001:flake"}, 1, "outcomes differ across reruns (seed 004); 5 coin flips all alike is 1 in 16, so reruns=12 below"},
		{"invalid row that returns fails", oddTable(validate.Row{ID: "P001", Target: "odd.swallow", Kind: validate.KindInvalid, Inp: nil}), nil, 2,
			[]string{"P001:fail"}, 1, "a value returned for an invalid input is a failure, never a pass"},
		{"frozen flake within budget holds", oddTable(flaky("P001")), []string{"P001"}, 2,
			[]string{"P001:flake:frozen"}, 0, "frozen rows run, are reported, and do not gate"},
		{"frozen beyond budget blocks", oddTable(flaky("P001"), flaky("P002"), flaky("P003")), []string{"P001", "P002", "P003"}, 2,
			[]string{"P001:flake:frozen", "P002:flake:frozen", "P003:flake:frozen"}, 2, "seed 004: frozen rows exceed budget -> block merge"},
		{"frozen plus unfrozen flakes count together", oddTable(flaky("P001"), flaky("P002")), []string{"P001"}, 1,
			[]string{"P001:flake:frozen", "P002:flake"}, 2, ""},
		{"a broken row cannot be frozen", oddTable(validate.Row{ID: "P001", Target: "odd.always_false", Inp: 1, Contract: "result == true"}), []string{"P001"}, 2,
			[]string{"P001:fail"}, 1, "fails every attempt: broken, not flaky"},
		{"an unfinished row is not checked, never skipped", oddTable(validate.Row{ID: "P001", Todo: "no input for the empty class"},
			validate.Row{ID: "P002", Target: "odd.sort_first", Inp: []any{1, 2}, Metamorphic: []string{"idempotent"}}), nil, 2,
			[]string{"P001:todo"}, ExitNothing, "a template could not fill it: the other rows hold, so nothing failed and not everything was checked (exit 4, as check and run say)"},
		{"a failing row outranks an unfinished one", oddTable(validate.Row{ID: "P001", Todo: "no input for the empty class"},
			validate.Row{ID: "P002", Target: "odd.always_false", Inp: 1, Contract: "result == true"}), nil, 2,
			[]string{"P001:todo", "P002:fail"}, 1, "the gate failed whatever the unfinished row would have done"},
		{"permutation relation", oddTable(validate.Row{ID: "P001", Target: "odd.sort_first", Inp: []any{3, 1, 2}, Metamorphic: []string{"permutation"}},
			validate.Row{ID: "P002", Target: "odd.sort_first", Inp: []any{1, 2}, Metamorphic: []string{"permutation", "idempotent"}}), nil, 2,
			nil, 0, "sorted(xs)[:1] is permutation-invariant and idempotent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fz := Freezes{}
			for _, id := range tc.freeze {
				for _, r := range tc.table.Rows {
					if r.ID == id {
						z := NewFreeze(id, "flaky", "", time.Now(), "")
						z.Meaning = r.Meaning(tc.table.TargetOf(r))
						fz[r.Hash()] = z
					}
				}
			}
			rn := &Runner{Adapter: pyAdapter(t, dir), Budget: tc.budget, Seed: 7, Freezes: fz, Reruns: 12}
			rep, err := rn.Run(context.Background(), tc.table)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, failing(rep)); diff != "" {
				t.Errorf("%s: rows (-want +got):\n%s", tc.reason, diff)
			}
			if rep.Exit != tc.wantExit {
				t.Errorf("%s: exit = %d, want %d", tc.reason, rep.Exit, tc.wantExit)
			}
			if v := rep.Verdict(); tc.wantExit == ExitNothing && !strings.HasPrefix(v, "not every row was checked: 1 unfinished") {
				t.Errorf("verdict %q does not say a row was left unfinished", v)
			}
		})
	}
}

func TestRunnerFlakeSeen(t *testing.T) {
	t.Parallel()
	tab := oddTable(validate.Row{ID: "P001", Target: "odd.alternate", Inp: 1, Contract: "result == true"})
	rn := &Runner{Adapter: pyAdapter(t, oddDir(t)), Budget: 2, Reruns: 4}
	rep, err := rn.Run(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fail", "pass", "fail", "pass"}
	if diff := cmp.Diff(want, rep.Rows[0].Seen); diff != "" {
		t.Errorf("seen (-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "FLAKE   P001 "+rep.Rows[0].Hash+"  seen [fail, pass, fail, pass]") {
		t.Errorf("summary does not name the flake with its hash and what was seen:\n%s", b.String())
	}
}

func TestRunnerInputErrors(t *testing.T) {
	t.Parallel()
	dir := oddDir(t)
	t.Run("same_as_base without base", func(t *testing.T) {
		tab := oddTable(validate.Row{ID: "P007", Inp: 1, SameAsBase: true})
		_, err := (&Runner{Adapter: pyAdapter(t, dir)}).Run(context.Background(), tab)
		if err == nil || !strings.Contains(err.Error(), "P007") {
			t.Errorf("err = %v, want one naming row P007", err)
		}
	})
	t.Run("module does not import", func(t *testing.T) {
		var rows []validate.Row
		for _, id := range []string{"P001", "P002", "P003", "P004"} {
			rows = append(rows, validate.Row{ID: id, Target: "nosuchmodule.f", Inp: 1})
		}
		_, err := (&Runner{Adapter: pyAdapter(t, dir)}).Run(context.Background(), oddTable(rows...))
		var ie *InfraError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "nosuchmodule") {
			t.Errorf("err = %v, want one InfraError naming the module", err)
		}
	})
}

// TestRunnerFaults: misbehaving subjects each give their row outcome within
// the timeout plus a second, through the pipelined path, and the rows after
// them still run in a fresh worker (issue 5, "done means").
func TestRunnerFaults(t *testing.T) {
	dir := writeSubject(t)
	const timeout = 2 * time.Second
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	row := func(id, target string) validate.Row {
		return validate.Row{ID: id, Cls: "c", Kind: validate.KindRepresentative, Target: target, Args: []any{}, Relation: "some relation", AssumptionIDs: []string{"A001"}}
	}
	tab := &validate.Table{Version: 1, Target: "subj.pair", Rows: []validate.Row{
		row("P001", "subj.sleep_forever"), row("P002", "subj.exit_now"), row("P003", "subj.flood"),
		row("P004", "subj.fork_child"), {ID: "P005", Cls: "c", Kind: validate.KindRepresentative, Args: []any{1, 2},
			Contract: "result == [1, 2]", Relation: "some relation", AssumptionIDs: []string{"A001"}},
	}}
	rep, err := (&Runner{Adapter: a, Reruns: 2, Budget: 2, Seed: 1}).Run(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"P001:timeout", "P002:crashed"}
	if diff := cmp.Diff(want, failing(rep)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, r := range rep.Rows {
		for i, at := range r.Attempts {
			if at.Duration > timeout+time.Second {
				t.Errorf("%s attempt %d took %s, want under %s", r.ID, i+1, at.Duration, timeout+time.Second)
			}
		}
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		seen   []string
		want   string
		reason string
	}{
		{[]string{"pass", "pass"}, StatusPass, ""},
		{[]string{"fail", "fail"}, StatusFail, ""},
		{[]string{"pass", "fail", "pass"}, StatusFlake, "seed 004: differing outcomes are a flake"},
		{[]string{"timeout", "pass"}, StatusFlake, ""},
		{[]string{"fail", "timeout", "fail"}, StatusFail, "no attempt passed: broken, not flaky"},
		{[]string{"crashed", "timeout"}, StatusCrashed, "no attempt passed: broken, not flaky"},
	}
	for _, tc := range tests {
		var as []Attempt
		for _, s := range tc.seen {
			as = append(as, Attempt{Status: s})
		}
		if got, _ := summarize(as); got != tc.want {
			t.Errorf("%v: %s, want %s (%s)", tc.seen, got, tc.want, tc.reason)
		}
	}
}

// TestFreezeAppliesOnlyToTheRowItMeant: a freeze keyed on {id, inp} alone
// froze another table's row that fails nine times in ten. A freeze records
// what its row meant; a row with the same id and inputs under another
// target, or edited since, is not frozen, and the freeze is reported stale.
func TestFreezeAppliesOnlyToTheRowItMeant(t *testing.T) {
	t.Parallel()
	dir := oddDir(t)
	tab := oddTable(validate.Row{ID: "P001", Target: "odd.alternate", Inp: "P001", Contract: "result == true"})
	r := tab.Rows[0]
	other := NewFreeze("P001", "flaky elsewhere", "", time.Now(), "")
	other.Meaning = r.Meaning("other.module.fn")
	legacy := NewFreeze("P001", "seed-format freeze", "", time.Now(), "")
	for _, tc := range []struct {
		name string
		z    Freeze
		why  string
	}{
		{"another table's freeze", other, "the row changed since it was frozen"},
		{"a freeze that records no meaning", legacy, "does not record what the row meant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rn := &Runner{Adapter: pyAdapter(t, dir), Budget: 2, Seed: 7, Reruns: 12, Freezes: Freezes{r.Hash(): tc.z}}
			rep, err := rn.Run(context.Background(), tab)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Rows[0].Frozen || rep.Exit != 1 {
				t.Errorf("row frozen = %v, exit %d; want not frozen and the flake to fail the gate (exit 1)", rep.Rows[0].Frozen, rep.Exit)
			}
			if len(rep.Stale) != 1 || !strings.Contains(rep.Stale[0].Why, tc.why) {
				t.Errorf("stale = %+v; want the freeze reported stale: %q", rep.Stale, tc.why)
			}
		})
	}
	// The freeze premise gate freeze records applies.
	z := NewFreeze("P001", "flaky", "", time.Now(), "")
	z.Meaning = r.Meaning(tab.TargetOf(r))
	rn := &Runner{Adapter: pyAdapter(t, dir), Budget: 2, Seed: 7, Reruns: 12, Freezes: Freezes{r.Hash(): z}}
	rep, err := rn.Run(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rows[0].Frozen || rep.Exit != 0 {
		t.Errorf("row frozen = %v, exit %d; want frozen within budget (exit 0)", rep.Rows[0].Frozen, rep.Exit)
	}
}

// TestInterruptedRunReportsWhatFinished: a signal mid-run stops the running
// call and ends the gate with the rows that finished and exit 130, never a
// verdict that holds.
func TestInterruptedRunReportsWhatFinished(t *testing.T) {
	dir := t.TempDir()
	src := "import time\n\ndef quick(x):\n    return True\n\ndef slow(x):\n    time.sleep(30)\n    return True\n"
	if err := os.WriteFile(filepath.Join(dir, "slowmod.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := oddTable(
		validate.Row{ID: "P001", Target: "slowmod.quick", Inp: 1, Contract: "result == true"},
		validate.Row{ID: "P002", Target: "slowmod.slow", Inp: 1, Contract: "result == true"},
	)
	ctx, cancel := context.WithCancel(context.Background())
	rn := &Runner{Adapter: pyAdapter(t, dir), Budget: 2, Reruns: 1}
	time.AfterFunc(time.Second, cancel)
	start := time.Now()
	rep, err := rn.Run(ctx, tab)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The worker sends replies in batches, so the quick row's may still be
	// in it when the signal comes: at most it is reported.
	if rep == nil || !rep.Interrupted || rep.Exit != ExitInterrupted || len(rep.Rows) > 1 {
		t.Fatalf("report = %+v; want the rows that finished (at most P001), interrupted, exit 130", rep)
	}
	if rep.Verdict() == "the gate holds" {
		t.Errorf("an interrupted run's verdict = %q", rep.Verdict())
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the interrupted run took %s; a signal must not wait out a 30 s call", d)
	}
}
