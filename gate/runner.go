package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"reflect"

	"github.com/premise-dev/premise/validate"
)

// Defaults of seed 004, Step 5: "starting points, not measured optima".
const (
	DefaultReruns = 5
	DefaultBudget = 2
)

// Row and attempt statuses. A row's status is one of these, or StatusFlake
// when its attempts disagree.
const (
	StatusPass    = "pass"
	StatusFail    = "fail"    // the contract, a relation or the invalid-row rule did not hold
	StatusError   = "error"   // a valid input raised; the contract could not judge; no JSON form
	StatusTimeout = "timeout" // the call passed its timeout
	StatusCrashed = "crashed" // the worker died during the call
	StatusFlake   = "flake"   // attempts disagreed (seed 004, Step 6)
	StatusTodo    = "todo"    // the row is unfinished (a template's todo): nothing ran, nothing is checked
)

// Runner runs a partition table: every row Reruns times, all of them (seed
// 004; pass-if-any-pass masks bugs by construction).
type Runner struct {
	// Adapter runs calls against the head (the code under review).
	Adapter Adapter
	// Tests runs a test row's base's test on the head (testrow.go); nil
	// without a base, where a test row is an error.
	Tests TestRunner
	// Base, if set, runs the same calls against the base revision
	// (differential mode, issue 5 item 5).
	Base Adapter
	// BaseTargets names, for a target the base knows by another name (a
	// module the patch renamed), what the base calls it.
	BaseTargets map[string]string
	// Reruns is how many times each row runs (DefaultReruns when zero).
	Reruns int
	// Budget is how many frozen plus flaking rows are tolerated before the
	// run is blocked by policy (seed 004's FLAKE_BUDGET; rows, not files).
	// Zero tolerates none; the command's default is DefaultBudget.
	Budget int
	// Seed drives the permutation relation's shuffles; it is logged in the
	// report so that a run can be repeated.
	Seed int64
	// Freezes are the frozen rows by hash.
	Freezes Freezes
	// Progress, if set, is called after each row.
	Progress func(RowResult)
	// Clock, when set, bounds the time each target's calls take on the
	// workers, both sides together: a target's rows past its time are cut
	// off (StatusCutOff) and the other targets' rows go on.
	Clock *TargetClock
	// Short, when positive, is the timeout a row's calls get on a side
	// where an earlier row of its target timed out at the full limit
	// (ShortTimeout): a timeout is a finding, not a pace. Zero gives
	// every call the full limit.
	Short time.Duration

	// pf holds the replies fetched ahead, pipelined, while a table runs.
	pf *prefetch
	// pace holds the targets whose calls are shortened, by side.
	pace *pace
}

type prefetched struct {
	rep Reply
	err error
}

// batchCaller is an Adapter that can pipeline calls (every built-in one).
type batchCaller interface {
	CallBatch(ctx context.Context, calls []Call, deliver func(i int, r Reply, err error))
}

// prefetch holds the replies to every row's primary attempts, for head and
// base, fetched ahead: all of them are pipelined to the worker at once, so
// that it never waits for premise's judging, and the judging takes each
// reply as soon as it is in. A reply is found by its call's number
// (plannedRow.first plus the attempt's).
type prefetch struct {
	mu    sync.Mutex
	cond  sync.Cond
	sides map[Adapter]*fetched
}

// fetched is one side's replies fetched ahead. The head's go straight
// into the attempts the report will hold (Runner.Run's block, which its
// rows' attempts are appended to), not through a copy of their own.
type fetched struct {
	open     bool      // still fetching
	ready    []bool    // by call number: its reply is in
	attempts []Attempt // the head's: a reply is its attempt's Reply
	replies  []Reply   // the base's
	errs     map[int]error
}

func (f *fetched) put(i int, r Reply, err error) {
	if f.attempts != nil {
		f.attempts[i].Reply = r
	} else {
		f.replies[i] = r
	}
	if err != nil {
		f.errs[i] = err
	}
	f.ready[i] = true
}

func (f *fetched) get(i int) prefetched {
	if f.attempts != nil {
		return prefetched{f.attempts[i].Reply, f.errs[i]}
	}
	return prefetched{f.replies[i], f.errs[i]}
}

// targetOn is what adapter ad calls target: the base's own name for it
// where the patch renamed its module.
func (rn *Runner) targetOn(ad Adapter, target string) string {
	if ad == rn.Base && ad != nil {
		if t, ok := rn.BaseTargets[target]; ok {
			return t
		}
	}
	return target
}

// startPrefetch fetches the primary attempts of rows on both sides, the
// calls numbered as plan numbered them (plannedRow.first), n of them; the
// head's replies go into attempts. hashed is closed once every row's hash
// is set.
func (rn *Runner) startPrefetch(ctx context.Context, rows []plannedRow, reruns, n int, attempts []Attempt, hashed <-chan struct{}) *prefetch {
	pf := &prefetch{sides: map[Adapter]*fetched{}}
	pf.cond.L = &pf.mu
	for _, ad := range []Adapter{rn.Adapter, rn.Base} {
		bc, ok := ad.(batchCaller)
		if !ok || ad == nil {
			continue
		}
		side := &fetched{open: true, ready: make([]bool, n), errs: map[int]error{}}
		if ad == rn.Adapter {
			side.attempts = attempts
		} else {
			side.replies = make([]Reply, n)
		}
		pf.sides[ad] = side
		go func() {
			// The calls are built here, beside compile and the hashing,
			// so that the first requests leave at once.
			calls := make([]Call, n)
			rowOf := make([]*plannedRow, n)
			for i := range rows {
				// By pointer: compile and the hashing fill in other
				// fields of these rows meanwhile.
				p := &rows[i]
				if p.first < 0 {
					continue // a property row makes its own calls; a test row calls nothing
				}
				args, kwargs := p.row.CallArgs()
				target := rn.targetOn(ad, p.target)
				// The reruns differ only in their ids: their arguments
				// are encoded once (nil on error: each call then fails to
				// encode on its own, and says so).
				body, _ := encodeBody(target, args, kwargs)
				for k := 0; k < reruns; k++ {
					calls[p.first+k] = Call{ID: attemptID(p.row.ID, k), Unwatched: k < reruns-1, Target: target, Args: args, Kwargs: kwargs, body: body}
					rowOf[p.first+k] = p
				}
			}
			rn.fetch(ctx, bc, ad, calls, rowOf, hashed, func(i int, r Reply, err error) {
				pf.mu.Lock()
				side.put(i, r, err)
				pf.mu.Unlock()
				pf.cond.Broadcast()
			})
			pf.mu.Lock()
			side.open = false
			pf.mu.Unlock()
			pf.cond.Broadcast()
		}()
	}
	return pf
}

// prefetches reports whether a row's primary attempts are fetched ahead:
// a property row makes its own calls; a test row and an unfinished one
// call nothing.
func prefetches(r *validate.Row) bool {
	return r.Todo == "" && r.Kind != validate.KindProperty && r.Test == ""
}

// take returns the reply to primary attempt call number i on ad, waiting
// for it to arrive; ok is false when ad's calls are not fetched ahead, or
// the fetching stopped before this one (ctx).
func (pf *prefetch) take(ad Adapter, i int) (prefetched, bool) {
	if pf == nil || i < 0 {
		return prefetched{}, false
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	side := pf.sides[ad]
	if side == nil {
		return prefetched{}, false
	}
	for {
		if side.ready[i] {
			side.ready[i] = false // taken once
			return side.get(i), true
		}
		if !side.open {
			return prefetched{}, false
		}
		pf.cond.Wait()
	}
}

func attemptID(id string, n int) string { return id + "#" + strconv.Itoa(n+1) }

// Report is what a run found. Findings are results: a failing row is in a
// Report, not an error.
type Report struct {
	Target  string        `json:"target"`
	Reruns  int           `json:"reruns"`
	Budget  int           `json:"budget"`
	Seed    int64         `json:"seed"`
	Base    bool          `json:"base"` // rows also ran against the base revision
	Rows    []RowResult   `json:"rows"`
	Stale   []Stale       `json:"stale_freezes,omitempty"`
	Spent   int           `json:"budget_spent"`      // frozen plus unfrozen flaking rows
	Changed []string      `json:"changed,omitempty"` // differential: row ids whose outcome changed, silent spec changes first
	Exit    int           `json:"exit"`
	Elapsed time.Duration `json:"elapsed_ns"`
	// Source is the partition table's path, for reports that locate rows;
	// the caller sets it.
	Source string `json:"source,omitempty"`
	// Interrupted says a signal cut the run short: Rows are those that
	// finished.
	Interrupted bool `json:"interrupted,omitempty"`
	// Tampered are the files the gate judged by (the table, the freezes)
	// that changed while the code under review ran: the run fails, whatever
	// the rows did.
	Tampered []string `json:"tampered,omitempty"`
	// Commit is the commit the rows ran on (RunFile's private tree of
	// HEAD), and Uncommitted the tracked files whose edits in the work tree
	// it therefore did not judge (issue 25); both empty outside git.
	Commit      string   `json:"commit,omitempty"`
	Uncommitted []string `json:"uncommitted,omitempty"`
	// BaseCommit is the base the rows ran against when RunFile found it
	// itself, as premise run does (the merge-base of the default branch and
	// HEAD); empty when the caller named the base.
	BaseCommit string `json:"base_commit,omitempty"`
}

// Stale is a freeze that no longer applies: its hash matches no row (the row
// was edited or removed).
type Stale struct {
	Hash   string `json:"hash"`
	RowID  string `json:"row_id"`
	Reason string `json:"reason"`
	// Why says why the freeze no longer applies; "" when its row is gone.
	Why string `json:"why,omitempty"`
}

// RowResult is one row's runs.
type RowResult struct {
	meaning string   // the row's validate.Row.Meaning under its target
	ID      string   `json:"id"`
	Hash    string   `json:"hash"`
	Kind    string   `json:"kind"`
	Cls     string   `json:"cls"`
	Target  string   `json:"target"`
	Line    int      `json:"line,omitempty"` // the row's line in the table, 0 if built in memory
	Status  string   `json:"status"`
	Seen    []string `json:"seen"`
	Why     string   `json:"why,omitempty"` // what happened, one line
	// Hang is, for a row cut off (StatusCutOff), the head's call (or batch
	// of calls) still running when its target's time ran out; BaseTook,
	// when BaseAnswered, how long the base took to answer the row's call.
	Hang         *Hang         `json:"hang,omitempty"`
	BaseTook     time.Duration `json:"base_took_ns,omitempty"`
	BaseAnswered bool          `json:"base_answered,omitempty"`
	Frozen       bool          `json:"frozen"`
	Freeze       *Freeze       `json:"freeze,omitempty"`
	Broken       bool          `json:"broken,omitempty"` // failed every attempt: cannot be frozen
	Attempts     []Attempt     `json:"attempts"`
	// Differential mode.
	BaseSeen   []string `json:"base_seen,omitempty"`
	BaseWhy    string   `json:"base_why,omitempty"`
	Changed    bool     `json:"changed,omitempty"`
	SpecChange bool     `json:"spec_change,omitempty"` // an invalid input used to raise and now returns
}

// Gates reports whether the row decides the verdict: frozen rows run and
// are reported, but do not gate (seed 002).
func (r RowResult) Gates() bool { return !r.Frozen }

// Attempt is one run of a row.
type Attempt struct {
	Status   string        `json:"status"`
	Why      string        `json:"why,omitempty"`
	Reply    Reply         `json:"reply"`
	Base     *Reply        `json:"base_reply,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

type plannedRow struct {
	row      *validate.Row
	target   string
	meaning  string             // row.Meaning(target), what a freeze of it must record; only for a row whose hash is frozen (Run)
	contract *validate.Contract // nil: no contract
	hash     string
	// first is the number of the row's first primary attempt among the
	// calls fetched ahead (prefetch), -1 for a row without them.
	first int
}

// plan compiles every contract and checks every row before anything runs: a
// typo is an input error naming the row, not a hundred failures.
func (rn *Runner) plan(t *validate.Table, reruns int) ([]plannedRow, int, error) {
	out := make([]plannedRow, 0, len(t.Rows))
	calls := 0
	seen := make(map[string]bool, len(t.Rows))
	for i := range t.Rows {
		r := &t.Rows[i]
		if seen[r.ID] {
			return nil, 0, fmt.Errorf("row %s: the id appears twice", r.ID)
		}
		seen[r.ID] = true
		p := plannedRow{row: r, target: t.TargetOf(*r), first: -1}
		if p.target == "" {
			return nil, 0, fmt.Errorf("row %s: no target (set target: in the table or the row)", r.ID)
		}
		if r.SameAsBase && rn.Base == nil {
			return nil, 0, fmt.Errorf("row %s: same_as_base needs a base revision (--base REV)", r.ID)
		}
		for _, m := range r.Metamorphic {
			if m != validate.RelPermutation && m != validate.RelIdempotent {
				return nil, 0, fmt.Errorf("row %s: unknown metamorphic relation %q (want %s or %s)", r.ID, m, validate.RelPermutation, validate.RelIdempotent)
			}
		}
		if prefetches(r) {
			p.first = calls
			calls += reruns
		}
		out = append(out, p)
	}
	return out, calls, nil
}

// parallel calls f(0) ... f(n-1) on every CPU and waits for them.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				f(i)
			}
		}(w)
	}
	wg.Wait()
}

// compile gives every row its compiled contract, identical expressions
// once: those the table compiled when it was read (validate.ParseTable)
// are taken as they are, the rest compiled on every CPU (CEL compiles in a
// third of a millisecond, which a thousand-row table would otherwise spend
// before the first call). `result == LITERAL` with a JSON literal needs no
// CEL at all (validate.CompileContract).
func compile(t *validate.Table, rows []plannedRow) error {
	index := map[string]int{}
	var exprs []string
	for i := range rows {
		if e := rows[i].row.Contract; e != "" {
			if c, ok := t.Compiled(e); ok {
				rows[i].contract = c
				continue
			}
			if _, ok := index[e]; !ok {
				index[e] = len(exprs)
				exprs = append(exprs, e)
			}
		}
	}
	compiled := make([]*validate.Contract, len(exprs))
	errs := make([]error, len(exprs))
	parallel(len(exprs), func(i int) { compiled[i], errs[i] = t.Contract(exprs[i]) })
	for i := range rows {
		if e := rows[i].row.Contract; e != "" && rows[i].contract == nil {
			k := index[e]
			if errs[k] != nil {
				return fmt.Errorf("row %s: %w", rows[i].row.ID, errs[k])
			}
			rows[i].contract = compiled[k]
		}
	}
	return nil
}

// interrupted ends a run cut short by a signal: the rows that finished are
// judged and returned with the error, so the user sees a partial report,
// and the verdict can never be the gate holding.
func (rn *Runner) interrupted(rep *Report, err error) (*Report, error) {
	rn.finish(rep)
	rep.Interrupted = true
	rep.Exit = ExitInterrupted
	return rep, err
}

// Run runs every row of t. The error is for a run that could not happen at
// all: a table that does not check, or one infrastructure cause behind most
// rows (the interpreter is missing, the module does not import), returned as
// an *InfraError.
func (rn *Runner) Run(ctx context.Context, t *validate.Table) (*Report, error) {
	start := time.Now()
	reruns := rn.Reruns
	if reruns <= 0 {
		reruns = DefaultReruns
	}
	planned, calls, err := rn.plan(t, reruns)
	if err != nil {
		return nil, err
	}
	// Every fetched row's attempts, in one block the replies are fetched
	// into (prefetch) and the rows' results hold (runRow).
	attempts := make([]Attempt, calls)
	seed := rn.Seed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	rep := &Report{Target: strings.Join(t.Targets(), ", "), Reruns: reruns, Budget: rn.Budget, Seed: seed, Base: rn.Base != nil,
		Rows: make([]RowResult, 0, len(planned))}
	infra := map[string]int{}
	// Contracts compile and rows are hashed (canonical JSON and SHA-256,
	// ten milliseconds a thousand rows) while the worker answers the first
	// rows.
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	rn.pace = &pace{short: map[paceKey]bool{}}
	hashed := make(chan struct{})
	rn.pf = rn.startPrefetch(pctx, planned, reruns, calls, attempts, hashed)
	defer func() { rn.pf = nil }()
	go func() {
		defer close(hashed)
		parallel(len(planned), func(i int) { planned[i].hash = planned[i].row.Hash() })
	}()
	err = compile(t, planned)
	<-hashed
	if err != nil {
		return nil, err
	}
	// What a row means is asked only of a row a freeze names (finish):
	// canonicalising every row a second time cost a tenth of a gate.
	for i := range planned {
		if _, ok := rn.Freezes[planned[i].hash]; ok {
			planned[i].meaning = planned[i].row.Meaning(planned[i].target)
		}
	}
	for i, p := range planned {
		if err := ctx.Err(); err != nil {
			return rn.interrupted(rep, err)
		}
		var block []Attempt
		if p.first >= 0 {
			block = attempts[p.first : p.first : p.first+reruns]
		}
		res, infraReason, err := rn.runRow(ctx, p, reruns, seed+int64(i), block)
		if err != nil {
			if ctx.Err() != nil {
				return rn.interrupted(rep, ctx.Err())
			}
			return nil, err
		}
		if infraReason != "" {
			infra[infraReason]++
			// Gotestsum's care: a mass failure on the first rows is one
			// cause, not a hundred rows.
			if i < 3 && infra[infraReason] == i+1 && (i == 2 || i == len(planned)-1) {
				return nil, &InfraError{Reason: infraReason}
			}
		}
		rep.Rows = append(rep.Rows, res)
		if rn.Progress != nil {
			rn.Progress(res)
		}
	}
	if err := ctx.Err(); err != nil {
		return rn.interrupted(rep, err)
	}
	for reason, n := range infra {
		if n*2 > len(planned) {
			return nil, &InfraError{Reason: reason}
		}
	}
	intended(planned, rep.Rows)
	rn.finish(rep)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// finish applies freezes, the flake budget and the decision matrix.
func (rn *Runner) finish(rep *Report) {
	byHash := map[string]bool{}
	for i := range rep.Rows {
		r := &rep.Rows[i]
		z, ok := rn.Freezes[r.Hash]
		if ok && z.Meaning != r.meaning {
			// Same id and inputs, another meaning: another table's row, or
			// this row edited since. The freeze is stale, never applied.
			why := "the row changed since it was frozen (its target, inputs, kind, contract or relation); the freeze no longer applies"
			if z.Meaning == "" {
				why = "the freeze does not record what the row meant (frozen before premise did); freeze it again with premise gate freeze"
			}
			rep.Stale = append(rep.Stale, Stale{Hash: r.Hash, RowID: z.RowID, Reason: z.Reason, Why: why})
			ok = false
		}
		byHash[r.Hash] = true
		if ok {
			if r.Broken {
				// Seed 004: a row that fails every attempt is broken, not
				// flaky; freezing it would hide a real failure.
				r.Why = "frozen, but failed every attempt: broken, not flaky; the freeze does not apply; " + r.Why
			} else {
				zz := z
				r.Frozen, r.Freeze = true, &zz
			}
		}
	}
	for h, z := range rn.Freezes {
		if !byHash[h] {
			rep.Stale = append(rep.Stale, Stale{Hash: h, RowID: z.RowID, Reason: z.Reason})
		}
	}
	sort.Slice(rep.Stale, func(i, j int) bool { return rep.Stale[i].Hash < rep.Stale[j].Hash })
	failed, todo := false, false
	for _, r := range rep.Rows {
		switch {
		case r.Frozen:
			rep.Spent++
		case r.Status == StatusFlake:
			rep.Spent++
			failed = true
		case r.Status == StatusTodo:
			todo = true
		case r.Status != StatusPass:
			failed = true
		}
		if r.Changed {
			rep.Changed = append(rep.Changed, r.ID)
		}
	}
	// Silent spec changes first (seeds 000 and 004).
	sort.SliceStable(rep.Changed, func(i, j int) bool {
		return rep.row(rep.Changed[i]).SpecChange && !rep.row(rep.Changed[j]).SpecChange
	})
	switch {
	case rep.Spent > rn.Budget:
		rep.Exit = 2
	case failed:
		rep.Exit = 1
	case todo:
		// Every row that ran holds, but a row nobody finished checked
		// nothing: not a pass (DESIGN.md, "Exit codes": 4).
		rep.Exit = ExitNothing
	}
}

func (rep *Report) row(id string) RowResult {
	for _, r := range rep.Rows {
		if r.ID == id {
			return r
		}
	}
	return RowResult{}
}

// runRow runs row p; its attempts go into block when it has one (Run's,
// which the prefetched replies are already in), else a slice of their own.
func (rn *Runner) runRow(ctx context.Context, p plannedRow, reruns int, seed int64, block []Attempt) (RowResult, string, error) {
	r := p.row
	res := RowResult{ID: r.ID, Hash: p.hash, Kind: r.Kind, Cls: r.Cls, Target: p.target, Line: r.SrcLine, meaning: p.meaning}
	if r.Kind == validate.KindProperty && r.Property != nil && r.Todo == "" {
		if rn.Clock.Out(p.target) {
			return rn.cutOff(res), "", nil
		}
		pres, reason, err := rn.runProperty(ctx, p)
		if errors.Is(err, errCutOff) {
			return rn.cutOff(res), "", nil
		}
		return pres, reason, err
	}
	if r.Test != "" {
		return rn.testRow(ctx, p, reruns), "", nil
	}
	if r.Todo != "" {
		// A template could not fill the row: there is nothing to run, and
		// nothing is silently skipped either.
		res.Status, res.Broken, res.Seen = StatusTodo, true, []string{StatusTodo}
		res.Why = "the row is unfinished (todo: " + oneLine(r.Todo, 200) + ")"
		return res, "", nil
	}
	// The permutation relation's shuffles: seeded per row from the logged
	// seed, built only for rows that shuffle.
	var rng *rand.Rand
	if slices.Contains(r.Metamorphic, validate.RelPermutation) {
		rng = rand.New(rand.NewSource(seed))
	}
	infraReason := ""
	var memo verdictMemo
	res.Attempts = block
	if res.Attempts == nil {
		res.Attempts = make([]Attempt, 0, reruns)
	}
	res.Seen = make([]string, 0, reruns)
	for i := 0; i < reruns; i++ {
		a, reason, err := rn.attempt(ctx, p, i, i < reruns-1, rng, &memo)
		if errors.Is(err, errCutOff) {
			res = rn.cutOff(res)
			var hr *headRunning
			if errors.As(err, &hr) {
				res.Hang, res.BaseTook, res.BaseAnswered = hr.hang, hr.base, hr.answered
			}
			return res, "", nil
		}
		if err != nil {
			return res, "", err
		}
		if reason != "" {
			infraReason = reason
			res.Attempts = append(res.Attempts, a)
			res.Seen = append(res.Seen, a.Status)
			break // the next attempts would fail the same way
		}
		res.Attempts = append(res.Attempts, a)
		res.Seen = append(res.Seen, a.Status)
		if a.Base != nil {
			res.BaseSeen = append(res.BaseSeen, replyKey(*a.Base))
		}
	}
	res.Status, res.Why = summarize(res.Attempts)
	res.Broken = res.Status != StatusPass && res.Status != StatusFlake
	if rn.Base != nil {
		rn.compareBase(&res)
	}
	return res, infraReason, nil
}

// summarize gives a row its status: the attempts' common status, or a
// flake when some passed and some did not. A row that passed no attempt is
// broken, not flaky (issue 5), even when its failures differ in kind
// ([fail, timeout, fail]): it takes its worst status and cannot be frozen.
func summarize(as []Attempt) (string, string) {
	first := as[0].Status
	same, passed := true, false
	for _, a := range as {
		if a.Status != first {
			same = false
		}
		if a.Status == StatusPass {
			passed = true
		}
	}
	if same {
		return first, as[0].Why
	}
	if !passed {
		for _, st := range []string{StatusFail, StatusError, StatusCrashed, StatusTimeout} {
			for _, a := range as {
				if a.Status == st {
					return st, "no attempt passed; one said: " + a.Why
				}
			}
		}
	}
	for _, a := range as {
		if a.Status != StatusPass {
			return StatusFlake, "attempts disagree; one said: " + a.Why
		}
	}
	return StatusFlake, "attempts disagree"
}

// primary runs a row's primary attempt on ad: fetched ahead (prefetch)
// where ad pipelines, else now; unwatched for every attempt but the last
// (Call.Unwatched).
func (rn *Runner) primary(ctx context.Context, ad Adapter, p *plannedRow, n int, id string, unwatched bool, args []any, kwargs map[string]any) (Reply, error) {
	if p.first < 0 {
		n = -1
	}
	if f, ok := rn.pf.take(ad, p.first+n); ok {
		return f.rep, f.err
	}
	return rn.timed(ctx, ad, p.target, p, Call{ID: id, Unwatched: unwatched, Target: rn.targetOn(ad, p.target), Args: args, Kwargs: kwargs})
}

// call runs a call of target (the head's name for it) on ad now:
// relations' and properties' calls, under the full limit.
func (rn *Runner) call(ctx context.Context, ad Adapter, id, target string, args []any, kwargs map[string]any) (Reply, error) {
	return rn.timed(ctx, ad, target, nil, Call{ID: id, Target: rn.targetOn(ad, target), Args: args, Kwargs: kwargs})
}

// attempt runs a row once (plus its metamorphic calls) and judges it;
// unwatched when it is not the row's last (Call.Unwatched).
func (rn *Runner) attempt(ctx context.Context, p plannedRow, n int, unwatched bool, rng *rand.Rand, memo *verdictMemo) (Attempt, string, error) {
	r := p.row
	args, kwargs := r.CallArgs()
	start := time.Now()
	id := attemptID(r.ID, n)
	rep, err := rn.primary(ctx, rn.Adapter, &p, n, id, unwatched, args, kwargs)
	a := Attempt{Reply: rep}
	if err != nil {
		if ctx.Err() != nil {
			return a, "", ctx.Err()
		}
		var cr *cutRunning
		if errors.As(err, &cr) {
			return a, "", rn.headHung(ctx, cr.hang, p, n, id, unwatched, args, kwargs)
		}
		var ie *InfraError
		if errors.As(err, &ie) {
			a.Status, a.Why = StatusError, ie.Error()
			a.Duration = time.Since(start)
			return a, ie.Error(), nil
		}
		return a, "", err
	}
	a.Status, a.Why = memo.judge(rn, p, rep, args, kwargs)
	if a.Status == StatusPass && rep.Outcome == OutcomeReturned && len(r.Metamorphic) > 0 {
		st, why, err := rn.relations(ctx, p, n, rep, args, kwargs, rng)
		if err != nil {
			return a, "", err
		}
		a.Status, a.Why = st, why
	}
	if rn.Base != nil {
		b, err := rn.primary(ctx, rn.Base, &p, n, id, unwatched, args, kwargs)
		if err != nil {
			if ctx.Err() != nil {
				return a, "", ctx.Err()
			}
			if errors.Is(err, errCutOff) {
				return a, "", errCutOff // the base's own slowness is no head's hang
			}
			var ie *InfraError
			if errors.As(err, &ie) {
				// premise could not call the target on the base (a target
				// the base's code cannot compile: a function the patch
				// made generic): nothing to compare, and no change.
				a.Status, a.Why = StatusError, "the harness could not call the target on the base: "+ie.Error()
				a.Duration = time.Since(start)
				return a, "base: " + ie.Error(), nil
			}
			b = Reply{ID: id, Outcome: OutcomeCrashed, Detail: "base: " + err.Error()}
		}
		a.Base = &b
		if r.SameAsBase && a.Status == StatusPass && HarnessRefused(b) {
			a.Status, a.Why = StatusError, "the harness could not call the target on the base: "+excString(b.Exc)
		} else if r.SameAsBase && a.Status == StatusPass {
			if hk, bk := replyKey(rep), replyKey(b); !sameKeyed(rep, b, hk, bk) {
				a.Status, a.Why = StatusFail, fmt.Sprintf(sameAsBaseWhy+"head %s, base %s", hk, bk)
			}
		}
	}
	// Pipelined replies were fetched ahead: their own wait is the call's
	// time, not the judging's.
	a.Duration = max(time.Since(start), rep.Elapsed)
	return a, "", nil
}

// headRunning is errCutOff for a row whose head call was still running
// when its target's time ran out, with how long the base took to answer
// the same call (answered), if it did.
type headRunning struct {
	hang     *Hang
	base     time.Duration
	answered bool
}

func (e *headRunning) Error() string { return (&cutRunning{hang: e.hang}).Error() }

func (e *headRunning) Is(target error) bool { return target == errCutOff }

// headHung is the error of a row whose head was still running a call when
// its target's time ran out: the base's reply to the same call, fetched
// ahead, says whether the base answers it at once (a head that hangs where
// its base returns) or is as slow.
func (rn *Runner) headHung(ctx context.Context, h *Hang, p plannedRow, n int, id string, unwatched bool, args []any, kwargs map[string]any) error {
	e := &headRunning{hang: h}
	if rn.Base == nil {
		return e
	}
	if b, err := rn.primary(ctx, rn.Base, &p, n, id, unwatched, args, kwargs); err == nil {
		e.base, e.answered = b.Elapsed, true
	}
	return e
}

// judgeExpect judges a change item's witness row (issue 25): it passes
// only when the call did what the reviewer's decision pinned: the head's
// outcome at review for an intended change, the base's for a regression.
func judgeExpect(r validate.Row, rep Reply) (string, string) {
	class := ""
	if rep.Exc != nil {
		class = RaisedClass(rep.Exc)
	}
	got := "returned " + oneLine(validate.DisplayJSON(rep.Value), 120)
	if rep.Outcome != OutcomeReturned && rep.Outcome != OutcomeRaised {
		got = rep.Outcome
	}
	if rep.Outcome == OutcomeRaised {
		if HarnessRefused(rep) {
			return StatusError, "the harness could not call the target: " + excString(rep.Exc)
		}
		got = "raised " + excString(rep.Exc)
	}
	if r.Expect.Matches(rep.Outcome, rep.Value, class) {
		return StatusPass, got
	}
	why := "the change was accepted as intended"
	if r.Decision == validate.StatusRejected {
		why = "the change was rejected as a regression"
	}
	return StatusFail, fmt.Sprintf("%s, want %s (%s, %s)", got, r.Expect, strings.Join(r.AssumptionIDs, ", "), why)
}

// HarnessRefused reports whether a reply is the harness's own refusal to
// call the target (premise.DecodeError, premise.ArityError,
// premise.ConstructorError, marked by the worker as Reply.Refused), not
// something the code under review raised, whatever its class is called.
func HarnessRefused(r Reply) bool {
	return r.Outcome == OutcomeRaised && r.Refused
}

// judge applies seed 004's decision matrix to one reply.
func (rn *Runner) judge(p plannedRow, rep Reply, args []any, kwargs map[string]any) (string, string) {
	r := p.row
	if r.Expect != nil && (rep.Outcome == OutcomeReturned || rep.Outcome == OutcomeRaised || rep.Outcome == r.Expect.Outcome) {
		return judgeExpect(*r, rep)
	}
	switch rep.Outcome {
	case OutcomeTimeout:
		return StatusTimeout, rep.Detail
	case OutcomeCrashed:
		return StatusCrashed, rep.Detail
	case OutcomeUnencodable:
		return StatusError, rep.Detail
	case OutcomeRaised:
		exc := rep.Exc
		if exc == nil {
			exc = &Exc{Class: "?"}
		}
		if HarnessRefused(rep) {
			// Issue 25: the row never reached its target (an argument
			// that does not decode, the wrong arity, a receiver its
			// constructor could not build). That is no outcome of the code
			// under review: an invalid row is not held by it, and two
			// sides refusing alike are not "the same as base".
			return StatusError, "the harness could not call the target: " + excString(exc)
		}
		if r.Kind == validate.KindInvalid {
			if r.Raises != "" && exc.Class != r.Raises {
				return StatusFail, fmt.Sprintf("raised %s, want %s", excString(exc), r.Raises)
			}
			return StatusPass, "raised " + excString(exc)
		}
		if r.SameAsBase && r.Contract == "" {
			return StatusPass, "raised " + excString(exc) // judged against base
		}
		return StatusError, "raised " + excString(exc)
	case OutcomeReturned:
		if r.Kind == validate.KindInvalid {
			// Seed 004: a value returned for an invalid input is a failure,
			// never a pass.
			return StatusFail, "returned " + rep.shortValue() + " for an invalid input; want a raise"
		}
		if p.contract == nil {
			return StatusPass, "returned " + rep.shortValue()
		}
		ok, err := p.contract.Eval(rep.Value, r.Inp, args, kwargs)
		if err != nil {
			return StatusError, fmt.Sprintf("returned %s; %v", rep.shortValue(), err)
		}
		if !ok {
			return StatusFail, fmt.Sprintf("returned %s; contract %s does not hold", rep.shortValue(), r.Contract)
		}
		return StatusPass, "returned " + rep.shortValue()
	}
	return StatusCrashed, fmt.Sprintf("unknown outcome %q", rep.Outcome)
}

// relations checks the row's metamorphic relations (seed 004, Step 3):
// permutation (reversed and shuffled input, same result) and idempotence.
func (rn *Runner) relations(ctx context.Context, p plannedRow, n int, rep Reply, args []any, kwargs map[string]any, rng *rand.Rand) (string, string, error) {
	r := p.row
	want := validate.Normalize(rep.Value)
	check := func(name string, cargs []any) (string, string, error) {
		got, err := rn.call(ctx, rn.Adapter, fmt.Sprintf("%s#%d~%s", r.ID, n+1, name), p.target, cargs, kwargs)
		if err != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			if errors.Is(err, errCutOff) {
				return "", "", err
			}
			return StatusError, name + ": " + err.Error(), nil
		}
		switch got.Outcome {
		case OutcomeTimeout:
			return StatusTimeout, name + ": " + got.Detail, nil
		case OutcomeCrashed:
			return StatusCrashed, name + ": " + got.Detail, nil
		case OutcomeReturned:
			if reflect.DeepEqual(want, validate.Normalize(got.Value)) {
				return StatusPass, "", nil
			}
			return StatusFail, fmt.Sprintf("%s: gave %s, not %s", name, got.shortValue(), rep.shortValue()), nil
		}
		return StatusFail, fmt.Sprintf("%s: %s %s", name, got.Outcome, excString(got.Exc)), nil
	}
	for _, m := range r.Metamorphic {
		switch m {
		case validate.RelPermutation:
			if len(args) == 0 {
				continue
			}
			list, ok := args[0].([]any)
			if !ok || len(list) < 2 {
				continue
			}
			rev := make([]any, len(list))
			for i, v := range list {
				rev[len(list)-1-i] = v
			}
			shuf := append([]any(nil), list...)
			rng.Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
			for _, v := range []struct {
				name string
				l    []any
			}{{"permutation(reversed)", rev}, {"permutation(shuffled)", shuf}} {
				cargs := append([]any{v.l}, args[1:]...)
				if st, why, err := check(v.name, cargs); err != nil || st != StatusPass {
					return st, why, err
				}
			}
		case validate.RelIdempotent:
			if st, why, err := check("idempotent", append([]any{rep.Value}, args[min(1, len(args)):]...)); err != nil || st != StatusPass {
				return st, why, err
			}
		}
	}
	return StatusPass, "returned " + rep.shortValue() + "; relations hold", nil
}

// compareBase marks rows whose outcome changed between base and head.
func (rn *Runner) compareBase(res *RowResult) {
	if len(res.Attempts) == 0 || res.Attempts[0].Base == nil {
		return
	}
	head := res.Attempts[0].Reply
	base := *res.Attempts[0].Base
	hk, bk := replyKey(head), replyKey(base)
	res.BaseWhy = bk
	if Refused(head) || Refused(base) {
		// The harness did not call the target on a side (arguments it
		// could not decode or the target does not take): nothing was
		// compared there, and a difference is the harness's, never a
		// change a reviewer could decide (or a witness row replay).
		return
	}
	if !sameKeyed(head, base, hk, bk) {
		res.Changed = true
		res.SpecChange = res.Kind == validate.KindInvalid && base.Outcome == OutcomeRaised && head.Outcome == OutcomeReturned
	}
}

// Refused says the harness refused to make the call (premise's own
// DecodeError or ArityError); a constructor that failed
// (premise.ConstructorError) is the code's own outcome.
func Refused(r Reply) bool {
	return HarnessRefused(r) && (r.Exc == nil || r.Exc.Class != "premise.ConstructorError")
}

// Key is what "same outcome" means between base and head, as a row's
// BaseSeen records it: the same value, or a raise of the same class.
func (r Reply) Key() string { return replyKey(r) }

// replyKey is what "same outcome" means between base and head: the same
// value (its numbers exact: exactNumbers), or a raise of the same class.
func replyKey(r Reply) string {
	switch r.Outcome {
	case OutcomeReturned:
		b, _ := json.Marshal(validate.ExactNumbers(r.Value))
		return "returned " + string(b)
	case OutcomeRaised:
		if r.Exc != nil {
			return "raised " + RaisedClass(r.Exc)
		}
		return "raised"
	}
	return r.Outcome
}

// RaisedClass is what a raise is compared by, as a witness row pins it:
// its class, and the standard sentinel a Go error is (`*errors.errorString
// that is io.EOF`: errors.New("EOF") reads alike and is not) or the module
// of a Python class the code names like a built-in one (`ValueError of
// (the code's own)`).
func RaisedClass(e *Exc) string {
	switch {
	case e.Is != "":
		return e.Class + " that is " + e.Is
	case e.Module != "":
		return e.Class + " of " + e.Module
	}
	return e.Class
}

func excString(e *Exc) string {
	if e == nil {
		return ""
	}
	s := RaisedClass(e)
	if e.Code != nil {
		s += fmt.Sprintf(" (code %v)", e.Code)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return oneLine(s, 200)
}

// short renders a value for a one-line report.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return oneLine(string(b), 120)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
