package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/validate"
)

const napSubject = `import time


def nap(s):
    time.sleep(s)
    return s


def quick(x):
    return x
`

func napDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "slow.py"), []byte(napSubject), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func napRow(id, target string, args ...any) validate.Row {
	return validate.Row{ID: id, Cls: "c", Kind: validate.KindRepresentative, Target: target, Args: args, Relation: "r", AssumptionIDs: []string{"A001"}}
}

// TestShortenedLimitAfterATimeout is issue 28, item 2b: a timeout is a
// finding, not a pace. The first row of a target that hangs takes the
// full limit; the target's later rows on that side take the shortened one
// and say so (Reply.Shortened), so five hanging rows cost far less than
// five timeouts; another target's rows keep the full limit.
func TestShortenedLimitAfterATimeout(t *testing.T) {
	const timeout, short = 3 * time.Second, 300 * time.Millisecond
	a, err := NewPythonAdapter(PythonConfig{Dir: napDir(t), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tab := &validate.Table{Version: 1, Rows: []validate.Row{
		napRow("P001", "slow.nap", 60), napRow("P002", "slow.nap", 60), napRow("P003", "slow.nap", 60),
		napRow("P004", "slow.nap", 60), napRow("P005", "slow.nap", 60), napRow("P006", "slow.nap", 0),
		napRow("P007", "slow.quick", 1),
	}}
	start := time.Now()
	rep, err := (&Runner{Adapter: a, Reruns: 1, Budget: 0, Seed: 1, Short: short}).Run(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	var got []string
	for _, r := range rep.Rows {
		a := r.Attempts[0]
		got = append(got, fmt.Sprintf("%s %s shortened=%v", r.ID, a.Reply.Outcome, a.Reply.Shortened))
	}
	want := []string{
		"P001 timeout shortened=false",
		"P002 timeout shortened=true", "P003 timeout shortened=true", "P004 timeout shortened=true", "P005 timeout shortened=true",
		"P006 returned shortened=false", // answers within the shortened limit
		"P007 returned shortened=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Five full timeouts would be fifteen seconds; one and four short
	// ones, each with a fresh worker, are well under nine.
	if took > 9*time.Second {
		t.Errorf("the run took %s; five hanging rows at the full limit take %s", took, 5*timeout)
	}
	for _, r := range rep.Rows[1:5] {
		if d := r.Attempts[0].Duration; d > timeout/2 {
			t.Errorf("%s took %s under the shortened limit of %s", r.ID, d, short)
		}
	}
}

// TestShortenedLimitIsPerSide: the head hangs where the base answers; only
// the head's later calls are shortened, and the rows are changes either
// way. With FullTimeouts no call is shortened.
func TestShortenedLimitIsPerSide(t *testing.T) {
	t.Parallel()
	head, base := napDir(t), t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "slow.py"), []byte("def nap(s):\n    return s\n\n\ndef quick(x):\n    return x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := &validate.Table{Version: 1, Rows: []validate.Row{
		napRow("P001", "slow.nap", 60), napRow("P002", "slow.nap", 60), napRow("P003", "slow.nap", 60),
	}}
	for i := range tab.Rows {
		tab.Rows[i].SameAsBase = true
	}
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprintf("full=%v", full), func(t *testing.T) {
			rep, err := Run(context.Background(), Config{Repo: head, BaseDir: base, Private: true, Timeout: time.Second, Reruns: 1, Budget: 3, FullTimeouts: full}, tab)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rep.Rows {
				a := r.Attempts[0]
				if !r.Changed || a.Reply.Outcome != OutcomeTimeout || a.Base.Outcome != OutcomeReturned {
					t.Errorf("%s: changed=%v head %s base %s; want a change, the head timing out", r.ID, r.Changed, a.Reply.Outcome, a.Base.Outcome)
				}
				if want := i > 0 && !full; a.Reply.Shortened != want || a.Base.Shortened {
					t.Errorf("%s: head shortened=%v base shortened=%v; want head %v, base false", r.ID, a.Reply.Shortened, a.Base.Shortened, want)
				}
			}
		})
	}
}

// TestTargetClockCutsOffItsTarget is issue 24, item 5 in the gate: a
// target whose every call takes a while runs until its time is spent,
// both sides together; its rows after that are cut off, saying so, and
// the next target's rows all run. The gate cannot hold on rows it did not
// run.
func TestTargetClockCutsOffItsTarget(t *testing.T) {
	dir := napDir(t)
	var rows []validate.Row
	for i := range 30 {
		rows = append(rows, napRow(fmt.Sprintf("S%03d", i+1), "slow.nap", 0.2))
	}
	for i := range 10 {
		rows = append(rows, napRow(fmt.Sprintf("Q%03d", i+1), "slow.quick", i))
	}
	const budget = 2 * time.Second
	start := time.Now()
	rep, err := Run(context.Background(), Config{Repo: dir, BaseDir: dir, Private: true, Timeout: 5 * time.Second, Reruns: 1, Budget: len(rows),
		TargetClock: NewTargetClock(budget)}, &validate.Table{Version: 1, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	ran, cut := 0, 0
	for _, r := range rep.Rows {
		switch {
		case r.Target == "slow.quick" && r.Status != StatusPass:
			t.Errorf("%s: %s (%s); the other target's rows must all run", r.ID, r.Status, r.Why)
		case r.Status == StatusCutOff:
			cut++
			if len(r.Attempts) != 0 || r.Why == "" {
				t.Errorf("%s is cut off with %d attempts, why %q", r.ID, len(r.Attempts), r.Why)
			}
		case r.Target == "slow.nap":
			ran++
		}
	}
	// Two sides at 0.2 s a call spend 2 s in about 5 rows each; chunks
	// lose a few answers when the time runs out.
	if ran == 0 || cut == 0 || ran+cut != 30 {
		t.Errorf("slow.nap: %d rows ran, %d cut off; want some of each, 30 in all", ran, cut)
	}
	if took > budget+5*time.Second {
		t.Errorf("the run took %s with a target's time of %s", took, budget)
	}
	if rep.Exit != 1 {
		t.Errorf("exit %d, want 1: rows cut off are not passes", rep.Exit)
	}
}

// TestTargetClockSpendsBothSides: two spans running at once spend a
// target's time twice as fast, a span started after it ran out is done at
// once, and a nil clock is no limit.
func TestTargetClockSpendsBothSides(t *testing.T) {
	c := NewTargetClock(2 * time.Second)
	ctx := context.Background()
	start := time.Now()
	a, endA := c.start(ctx, "t")
	b, endB := c.start(ctx, "t")
	<-a.Done()
	<-b.Done()
	if took := time.Since(start); took < 900*time.Millisecond || took > 1800*time.Millisecond {
		t.Errorf("two spans ran out after %s; want about 1s", took)
	}
	endA()
	endB()
	if !c.Out("t") || !errors.Is(context.Cause(a), errCutOff) {
		t.Errorf("out = %v, cause %v; want the time out", c.Out("t"), context.Cause(a))
	}
	late, end := c.start(ctx, "t")
	defer end()
	if late.Err() == nil {
		t.Error("a span started after the time ran out is not done")
	}
	other, endOther := c.start(ctx, "u")
	defer endOther()
	if other.Err() != nil || c.Out("u") {
		t.Error("another target's time is spent too")
	}
	var none *TargetClock
	nctx, nend := none.start(ctx, "t")
	defer nend()
	if nctx.Err() != nil || none.Out("t") || NewTargetClock(0) != nil {
		t.Error("a nil clock limits")
	}
}

// TestOnlyAFailingTimeoutShortens: a timeout shortens its side's later
// calls only where it failed a row that gates, so that a timeout under the
// shortened limit can fail no gate that would otherwise hold: a frozen
// row does not gate, and a base's timeout fails only a row compared with
// the base.
func TestOnlyAFailingTimeoutShortens(t *testing.T) {
	head, base := &procAdapter{}, &procAdapter{}
	rn := &Runner{Adapter: head, Base: base, Short: time.Second, Freezes: Freezes{"frozen": Freeze{}}}
	row := func(hash string, sameAsBase bool) *plannedRow {
		return &plannedRow{hash: hash, target: "t", row: &validate.Row{ID: "P001", SameAsBase: sameAsBase}}
	}
	timeout := Reply{Outcome: OutcomeTimeout}
	for _, tc := range []struct {
		name string
		ad   Adapter
		p    *plannedRow
		r    Reply
		want bool
	}{
		{"the head's timeout fails its row", head, row("h", false), timeout, true},
		{"a frozen row does not gate", head, row("frozen", false), timeout, false},
		{"the base's timeout fails a same_as_base row", base, row("h", true), timeout, true},
		{"the base's timeout fails no other row", base, row("h", false), timeout, false},
		{"a shortened timeout says little", head, row("h", false), Reply{Outcome: OutcomeTimeout, Shortened: true}, false},
		{"an answer", head, row("h", false), Reply{Outcome: OutcomeReturned}, false},
	} {
		if got := rn.shortens(tc.ad, tc.p, tc.r, closedChan); got != tc.want {
			t.Errorf("%s: shortens = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNextChunk(t *testing.T) {
	for _, tc := range []struct {
		chunk, n int
		took     time.Duration
		want     int
		reason   string
	}{
		{1, 1, time.Millisecond, 2, "a quick call: twice as many"},
		{512, 512, time.Millisecond, 1024, "the most"},
		{1024, 1024, time.Millisecond, 1024, "no more than the most"},
		{8, 8, 8 * time.Second, 1, "a second a call: one at a time"},
		{16, 16, 800 * time.Millisecond, 4, "50ms a call: 200ms is four"},
	} {
		if got := nextChunk(tc.chunk, tc.n, tc.took); got != tc.want {
			t.Errorf("nextChunk(%d, %d, %s) = %d, want %d (%s)", tc.chunk, tc.n, tc.took, got, tc.want, tc.reason)
		}
	}
}

// BenchmarkHangingTarget runs eight rows of a target every call of which
// hangs, one rerun each: the first times out at the call timeout (1 s),
// the others at the shortened limit (250 ms; /full: every one at the call
// timeout, as before issue 28's item 2b), each killing its worker. The
// worker started ahead (procAdapter.spare) saves each of those the fresh
// start it waited for.
//
//	go test ./gate -run '^$' -bench HangingTarget -benchtime 3x -count 5
//
// Medians of five interleaved runs on two busy cores, with the spare
// worker and without it: shortened 3.51 s and 5.12 s an op, full 8.85 s
// and 10.09 s (every round faster with it).
func BenchmarkHangingTarget(b *testing.B) {
	for _, full := range []bool{false, true} {
		name := "shortened"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) { benchHanging(b, full) })
	}
}

func benchHanging(b *testing.B, full bool) {
	dir := napDir(b)
	python, err := ResolvePython("")
	if err != nil {
		b.Fatal(err)
	}
	var rows []validate.Row
	for i := range 8 {
		rows = append(rows, napRow(fmt.Sprintf("P%03d", i+1), "slow.nap", 60))
	}
	tab := &validate.Table{Version: 1, Rows: rows}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := Run(context.Background(), Config{Repo: dir, Python: python, Timeout: time.Second, Reruns: 1, Budget: len(rows), FullTimeouts: full}, tab)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(failing(rep)); n != len(rows) {
			b.Fatalf("%d rows failed, want every one to time out", n)
		}
	}
}
