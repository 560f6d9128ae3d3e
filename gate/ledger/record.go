package ledger

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/internal/filelock"
)

// Transition is a test changing state.
type Transition struct {
	ID   string `json:"id"`
	From State  `json:"from"`
	To   State  `json:"to"`
	Why  string `json:"why"`
}

// RecordReport is one premise ledger record.
type RecordReport struct {
	Ledger string `json:"ledger"`
	File   string `json:"file"`
	Seed   int64  `json:"seed"`
	Diff   string `json:"diff"`
	// Tests are the tests in the results that ran (not skipped); Failing
	// those that failed, errored or flaked.
	Tests   int `json:"tests"`
	Failing int `json:"failing"`
	// Infrastructure is set when the run fed no row: most tests failed
	// at once.
	Infrastructure bool          `json:"infrastructure"`
	Transitions    []Transition  `json:"transitions"`
	States         map[State]int `json:"states"`
}

// RecordOptions are one premise ledger record.
type RecordOptions struct {
	Path   string
	Config Config
	Report *junit.Report
	Seed   int64
	Diff   string
}

// Record adds one run of the suite to the ledger under its lock and moves
// the tests' states. A run where at least Config.InfraRate of the tests
// failed is recorded as an infrastructure failure and feeds no row. The
// error means the ledger could not be read or written.
func Record(ctx context.Context, o RecordOptions) (*RecordReport, error) {
	lock, err := filelock.Acquire(ctx, o.Path, 0)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	l, err := Load(o.Path)
	if err != nil {
		return nil, err
	}
	rep := &RecordReport{Ledger: o.Path, File: o.Report.File, Seed: o.Seed, Diff: o.Diff, Transitions: []Transition{}}
	var ran []junit.Case
	for _, c := range o.Report.Cases {
		if c.Outcome() == junit.Skipped {
			continue
		}
		ran = append(ran, c)
		if c.Failing() {
			rep.Failing++
		}
	}
	rep.Tests = len(ran)
	if rep.Tests > 0 && float64(rep.Failing) >= o.Config.InfraRate*float64(rep.Tests) {
		rep.Infrastructure = true
		l.Infra = append(l.Infra, Infra{Seed: o.Seed, Diff: o.Diff, Tests: rep.Tests, Failing: rep.Failing, File: o.Report.File})
		if len(l.Infra) > maxInfra {
			l.Infra = l.Infra[len(l.Infra)-maxInfra:]
		}
	} else {
		for _, c := range ran {
			r := l.Tests[c.ID]
			if r == nil {
				r = &Row{State: Active}
				l.Tests[c.ID] = r
			}
			from := r.State
			o.Config.feed(r, c, o.Seed, o.Diff)
			if r.State != from {
				rep.Transitions = append(rep.Transitions, Transition{ID: c.ID, From: from, To: r.State, Why: r.Why})
			}
		}
	}
	if err := l.save(o.Path); err != nil {
		return nil, err
	}
	rep.States = l.states()
	return rep, nil
}

func (l *Ledger) states() map[State]int {
	n := map[State]int{Active: 0, Watch: 0, Frozen: 0, Broken: 0}
	for _, r := range l.Tests {
		n[r.State]++
	}
	return n
}

// feed adds a case's attempts to its row and moves its state.
func (c Config) feed(r *Row, tc junit.Case, seed int64, diff string) {
	var runs []Run
	for _, a := range tc.Attempts {
		switch a.Outcome {
		case junit.Passed:
			runs = append(runs, Run{Seed: seed, Diff: diff})
		case junit.Failed, junit.Errored:
			runs = append(runs, Run{Seed: seed, Diff: diff, Fail: true})
		}
	}
	r.Seed, r.LastDiff = seed, diff
	freshFail := false
	for _, run := range runs {
		r.Runs++
		if run.Fail {
			r.Fails++
			freshFail = true
		}
	}
	if r.State == Broken && !allFail(runs) {
		// It passes again: it was fixed, and its failures before were
		// no flake. Start its record afresh.
		r.History, r.State, r.Why = runs, Active, "passed again after failing every run: fixed"
		return
	}
	r.History = append(r.History, runs...)
	if len(r.History) > c.Window {
		r.History = r.History[len(r.History)-c.Window:]
	}
	if r.State == Frozen {
		c.probation(r, runs)
		return
	}
	c.judge(r, freshFail)
}

// probation counts a frozen test's identical-seed reruns after a human's
// unfreeze; a failure spends the unfreeze.
func (c Config) probation(r *Row, runs []Run) {
	u := r.Unfreeze
	if u == nil {
		return
	}
	for _, run := range runs {
		if u.Seed == nil {
			s := run.Seed
			u.Seed = &s
		}
		if run.Seed != *u.Seed {
			continue
		}
		if run.Fail {
			r.Why = fmt.Sprintf("failed again on seed %d after %s's unfreeze: frozen until a human unfreezes it again", run.Seed, u.By)
			r.Unfreeze = nil
			return
		}
		u.Runs++
	}
	if u.Runs >= c.UnfreezeRuns {
		r.State = Active
		r.Why = fmt.Sprintf("%d clean reruns on seed %d after %s's unfreeze", u.Runs, *u.Seed, u.By)
		r.History = nil
		r.Unfreeze = nil
	}
}

// judge moves an active or watched test (seed 002's transitions, with a
// minimum sample and a clean streak to leave watch, so a test does not
// flap).
func (c Config) judge(r *Row, freshFail bool) {
	h := r.History
	if len(h) < c.MinRuns {
		return
	}
	if allFail(h) {
		r.State, r.Why = Broken, fmt.Sprintf("failed all of its latest %d runs: broken, not flaky; it gates until fixed", len(h))
		return
	}
	if g := mixed(h); g != "" {
		r.State, r.Why = Frozen, g+" gave both passes and failures: non-deterministic"
		return
	}
	runs, fails := flakeRuns(h)
	rate := 0.0
	if runs > 0 {
		rate = float64(fails) / float64(runs)
	}
	switch {
	case rate > c.WatchRate:
		r.State, r.Why = Frozen, fmt.Sprintf("fail rate %.2f over %d runs, above %.2f", rate, runs, c.WatchRate)
	case r.State == Watch && clean(h, c.MinRuns):
		r.State, r.Why = Active, fmt.Sprintf("%d clean runs in a row", c.MinRuns)
	case r.State == Active && freshFail && rate > 0:
		r.State, r.Why = Watch, fmt.Sprintf("fail rate %.2f over %d runs: keep running, do not skip", rate, runs)
	}
}

func allFail(h []Run) bool {
	for _, r := range h {
		if !r.Fail {
			return false
		}
	}
	return len(h) > 0
}

func clean(h []Run, n int) bool {
	if len(h) < n {
		return false
	}
	for _, r := range h[len(h)-n:] {
		if r.Fail {
			return false
		}
	}
	return true
}

// mixed names the first identical seed and diff whose runs disagree, or
// "".
func mixed(h []Run) string {
	type key struct {
		seed int64
		diff string
	}
	pass, fail := map[key]bool{}, map[key]bool{}
	var order []key
	for _, r := range h {
		k := key{r.Seed, r.Diff}
		if !pass[k] && !fail[k] {
			order = append(order, k)
		}
		if r.Fail {
			fail[k] = true
		} else {
			pass[k] = true
		}
	}
	for _, k := range order {
		if pass[k] && fail[k] {
			return fmt.Sprintf("seed %d and diff %s", k.seed, short(k.diff))
		}
	}
	return ""
}

// flakeRuns counts runs and failures on diffs where the test passed at
// least once: on a diff where it failed every run, the patch broke it,
// and that is a regression to gate on, never a flake to freeze.
func flakeRuns(h []Run) (runs, fails int) {
	passed := map[string]bool{}
	for _, r := range h {
		if !r.Fail {
			passed[r.Diff] = true
		}
	}
	for _, r := range h {
		if passed[r.Diff] {
			runs++
			if r.Fail {
				fails++
			}
		}
	}
	return runs, fails
}

func short(diff string) string {
	d := strings.TrimPrefix(diff, "sha256:")
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

// UnfreezeOptions are one premise ledger unfreeze.
type UnfreezeOptions struct {
	Path string
	ID   string
	By   string
	Now  time.Time
}

// Unfreeze records a human's unfreeze of a frozen test. The test stays
// frozen (it does not gate) until Config.UnfreezeRuns clean reruns on one
// seed make it active.
func Unfreeze(ctx context.Context, o UnfreezeOptions) (*Row, error) {
	if strings.TrimSpace(o.By) == "" {
		return nil, fmt.Errorf("unfreeze %s: --by NAME is required: a human unfreezes, and the ledger says who", o.ID)
	}
	lock, err := filelock.Acquire(ctx, o.Path, 0)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	l, err := Load(o.Path)
	if err != nil {
		return nil, err
	}
	r := l.Tests[o.ID]
	switch {
	case r == nil:
		return nil, fmt.Errorf("unfreeze %s: %s has no such test%s", o.ID, o.Path, suggest(l, o.ID))
	case r.State != Frozen:
		return nil, fmt.Errorf("unfreeze %s: it is %s, not frozen", o.ID, r.State)
	}
	r.Unfreeze = &Probation{By: strings.TrimSpace(o.By), At: o.Now.UTC().Format("2006-01-02")}
	r.Why = "unfrozen by " + r.Unfreeze.By + "; frozen until its clean reruns"
	if err := l.save(o.Path); err != nil {
		return nil, err
	}
	return r, nil
}

// suggest names frozen tests whose id ends like id, for a mistyped one.
func suggest(l *Ledger, id string) string {
	var near []string
	for _, k := range l.IDs() {
		if strings.HasSuffix(k, id) || strings.HasSuffix(id, k) {
			near = append(near, k)
		}
	}
	sort.Strings(near)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}
