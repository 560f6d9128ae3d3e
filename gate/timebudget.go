package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Bounded time per target (issue 24, item 5; issue 28, item 2b). A target
// whose inputs make it slow must not hold a run: its calls get a time of
// their own on the workers (TargetClock), and once that is spent its rows
// not yet run are cut off (StatusCutOff), said so, and the other targets'
// rows go on. A timeout is a finding, not a pace: once a call of a target
// timed out on a side at the full limit, failing its row, the target's
// later calls on that side get a much shorter one (Runner.Short), and a
// timeout under it is marked (Reply.Shortened) for what reads the report
// to weigh: the evidence counts one as a change only once rerun at the
// full limit.

// StatusCutOff is a row that did not run: its target's time
// (Config.TargetClock) ran out first. It is no pass: a gate cannot hold on
// rows it did not run.
const StatusCutOff = "cut_off"

// errCutOff is a call not made, or stopped, because its target's time ran
// out.
var errCutOff = errors.New("the target's time ran out")

// errShorten stops a batch after a timeout, so that the target's calls
// left go again under the shortened limit.
var errShorten = errors.New("a call timed out: the target's calls left go under the shortened limit")

// ShortTimeout is the limit a target's calls on a side get once one of
// them timed out there: a tenth of the call timeout, and no less than
// minShortTimeout.
func ShortTimeout(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return min(timeout, max(timeout/10, minShortTimeout))
}

// minShortTimeout is the shortest a shortened limit gets: what a busy
// machine can make a quick call take.
const minShortTimeout = 250 * time.Millisecond

// TargetClock is a time per target: how long the calls of one target may
// take on the workers, both sides added up, the fresh workers its own
// timeouts and crashes need included (a side's worker is started before
// its clock runs: warm). A clock shared by several runs spends a target's
// time once across them. A nil *TargetClock is no limit.
type TargetClock struct {
	budget time.Duration
	mu     sync.Mutex
	spends map[string]*spend
}

// spend is one target's time: what the spans that ended took, and the
// spans running now.
type spend struct {
	spent   time.Duration
	running map[*span]bool
	timer   *time.Timer
	out     bool
}

// span is one side's stretch of work on a target: its start, and how to
// stop it when the target's time runs out.
type span struct {
	start  time.Time
	cancel context.CancelCauseFunc
}

// NewTargetClock returns a clock giving every target budget; nil (no
// limit) when budget is not positive.
func NewTargetClock(budget time.Duration) *TargetClock {
	if budget <= 0 {
		return nil
	}
	return &TargetClock{budget: budget, spends: map[string]*spend{}}
}

// Budget is the time every target gets; zero for a nil clock.
func (c *TargetClock) Budget() time.Duration {
	if c == nil {
		return 0
	}
	return c.budget
}

// Out reports whether target's time ran out.
func (c *TargetClock) Out(target string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.spends[target]
	return s != nil && s.out
}

// Spent is the time target's calls took so far, the spans running now
// included.
func (c *TargetClock) Spent(target string) time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.spends[target]
	if s == nil {
		return 0
	}
	return s.used(time.Now())
}

func (s *spend) used(now time.Time) time.Duration {
	d := s.spent
	for sp := range s.running {
		d += now.Sub(sp.start)
	}
	return d
}

// start times a side's work on target from now: the context returned is
// done, with errCutOff as its cause, when target's time runs out (at
// once, when it already has), and end stops the timing. Spans of both
// sides run at once and spend the one time together.
func (c *TargetClock) start(ctx context.Context, target string) (context.Context, func()) {
	if c == nil {
		return ctx, func() {}
	}
	sctx, cancel := context.WithCancelCause(ctx)
	sp := &span{start: time.Now(), cancel: cancel}
	c.mu.Lock()
	s := c.spends[target]
	if s == nil {
		s = &spend{running: map[*span]bool{}}
		c.spends[target] = s
	}
	s.running[sp] = true
	c.arm(s)
	c.mu.Unlock()
	return sctx, func() {
		c.mu.Lock()
		if s.running[sp] {
			delete(s.running, sp)
			s.spent += time.Since(sp.start)
			c.arm(s)
		}
		c.mu.Unlock()
		cancel(nil)
	}
}

// arm sets s's timer to the moment its time runs out at the pace of the
// spans running now, or ends those spans when it has; c.mu is held.
func (c *TargetClock) arm(s *spend) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	now := time.Now()
	left := c.budget - s.used(now)
	if left <= 0 || s.out {
		s.out = true
		for sp := range s.running {
			sp.cancel(errCutOff)
		}
		return
	}
	if n := len(s.running); n > 0 {
		s.timer = time.AfterFunc(left/time.Duration(n)+time.Millisecond, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.arm(s)
		})
	}
}

// cutOff reports whether err ended a call because its target's time ran
// out (sctx is the span's context), not because the run was stopped.
func cutOff(ctx, sctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && errors.Is(context.Cause(sctx), errCutOff)
}

// pace holds, by side and target, the targets a call of which timed out
// at the full limit: their later calls there get the runner's Short.
type pace struct {
	mu    sync.Mutex
	short map[paceKey]bool
}

type paceKey struct {
	ad     Adapter
	target string
}

func (pc *pace) shortened(ad Adapter, target string) bool {
	if pc == nil {
		return false
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.short[paceKey{ad, target}]
}

func (pc *pace) shorten(ad Adapter, target string) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.short[paceKey{ad, target}] = true
}

// shortens says a reply on ad to a call of row p under the full limit
// makes the row's target's later calls on that side shortened: it timed
// out, and so failed its row, a row that gates. Only then can a timeout
// under the shortened limit fail no gate that would otherwise hold: the
// gate already fails. A base's timeout fails only a row compared with the
// base (same_as_base); a frozen row does not gate. hashed is closed once
// p's hash is set.
func (rn *Runner) shortens(ad Adapter, p *plannedRow, r Reply, hashed <-chan struct{}) bool {
	if rn.Short <= 0 || r.Outcome != OutcomeTimeout || r.Shortened || p == nil {
		return false
	}
	if ad == rn.Base && !p.row.SameAsBase {
		return false
	}
	if len(rn.Freezes) > 0 {
		<-hashed
		if _, frozen := rn.Freezes[p.hash]; frozen {
			return false
		}
	}
	return true
}

// shortNote is what a timeout under the shortened limit adds to its
// detail.
const shortNote = "; the limit was shortened: an earlier call of this target timed out on this side at the full limit"

// timed runs c, a call of target (the head's name for it), now, under
// target's clock; a call of row p (nil for a relation's or a property's
// call, which keep the full limit) gets the shortened limit where its
// target already timed out on ad's side.
func (rn *Runner) timed(ctx context.Context, ad Adapter, target string, p *plannedRow, c Call) (Reply, error) {
	if rn.Clock.Out(target) {
		return Reply{}, errCutOff
	}
	if p != nil && rn.pace.shortened(ad, target) {
		c.Timeout = rn.Short
	}
	sctx, end := rn.Clock.start(ctx, target)
	began := time.Now()
	r, err := ad.Call(sctx, c)
	end()
	if cutOff(ctx, sctx, err) {
		if took := time.Since(began); took >= hungAfter {
			return Reply{}, &cutRunning{hang: &Hang{Ran: took, Calls: 1}}
		}
		return Reply{}, errCutOff
	}
	if err == nil && c.Timeout > 0 && r.Outcome == OutcomeTimeout {
		r.Shortened, r.Detail = true, r.Detail+shortNote
	}
	if err == nil && p != nil && rn.shortens(ad, p, r, closedChan) {
		rn.pace.shorten(ad, target)
	}
	return r, err
}

// hungAfter is how long a call must have been running when its target's
// time ran out to be told apart from one never run.
const hungAfter = time.Second

// Hang is a call, or a batch of calls sent together, still running on a
// side when its target's time ran out, after Ran: one of them may never
// return. The rows cut off with it share one Hang; each carries, in its
// RowResult.BaseTook, how long the base took to answer the same call.
type Hang struct {
	Ran   time.Duration `json:"ran_ns"`
	Calls int           `json:"calls"`
}

// cutRunning is errCutOff for a call (or a batch of them, sharing one
// hang) still running when its target's time ran out: a head that hangs
// on the input its change would show spends its function's time there,
// and the row must not pass for one never run (RowResult.Hang).
type cutRunning struct{ hang *Hang }

func (e *cutRunning) Error() string {
	return fmt.Sprintf("the target's time ran out while a call had run %s", e.hang.Ran.Round(10*time.Millisecond))
}

func (e *cutRunning) Is(target error) bool { return target == errCutOff }

// closedChan is a closed channel: the rows' hashes are set before any
// row's own calls run.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// cutOff is the result of a row that did not run: its target's time ran
// out.
func (rn *Runner) cutOff(res RowResult) RowResult {
	res.Attempts, res.BaseSeen, res.Changed, res.SpecChange, res.BaseWhy = nil, nil, false, false, ""
	res.Status, res.Seen, res.Broken = StatusCutOff, []string{StatusCutOff}, false
	res.Why = fmt.Sprintf("not run: the time of %s (%s on the workers, both sides) ran out", res.Target, rn.Clock.Budget())
	return res
}

// fetch runs calls on ad, pipelined, handing each reply to put; rowOf[i]
// is calls[i]'s row. Without a clock or a shortened limit they go at
// once; otherwise target by target (each run of consecutive calls of one
// target), under the target's clock (fetchTarget).
func (rn *Runner) fetch(ctx context.Context, bc batchCaller, ad Adapter, calls []Call, rowOf []*plannedRow, hashed <-chan struct{}, put func(i int, r Reply, err error)) {
	if rn.Clock == nil && rn.Short <= 0 {
		bc.CallBatch(ctx, calls, put)
		return
	}
	for lo := 0; lo < len(calls); {
		target := rowOf[lo].target
		hi := lo + 1
		for hi < len(calls) && rowOf[hi].target == target {
			hi++
		}
		rn.fetchTarget(ctx, bc, ad, target, calls[lo:hi], rowOf[lo:hi], hashed, func(i int, r Reply, err error) { put(lo+i, r, err) })
		lo = hi
	}
}

// warmer is an adapter that can start its worker ahead of the calls.
type warmer interface{ warm() }

// Chunks. A worker that holds its replies back (the Python worker's
// batches, worker_batch.go) loses them when it is killed: were a target's
// calls sent all at once, a clock running out would take every answer of
// the target with it. So under a clock they go in chunks the worker
// answers in about chunkTime, growing from one call: a clock running out
// loses at most about a chunk's answers.
const (
	chunkTime = 200 * time.Millisecond
	maxChunk  = 1024
)

// fetchTarget runs calls, all of target, on ad under target's clock. After
// a call times out at the full limit the batch stops, and the calls after
// it go again under the shortened limit; the calls before it whose
// replies the worker's death lost go again under the full one. Once the
// target's time is out, the calls left are cut off (errCutOff).
func (rn *Runner) fetchTarget(ctx context.Context, bc batchCaller, ad Adapter, target string, calls []Call, rowOf []*plannedRow, hashed <-chan struct{}, put func(i int, r Reply, err error)) {
	if rn.Clock.Out(target) {
		for i := range calls {
			put(i, Reply{}, errCutOff)
		}
		return
	}
	if w, ok := bc.(warmer); ok && rn.Clock != nil {
		w.warm()
	}
	sctx, end := rn.Clock.start(ctx, target)
	defer end()
	shortFrom := len(calls) // calls from this one on get the shortened limit
	if rn.pace.shortened(ad, target) {
		shortFrom = 0
	}
	chunk := len(calls)
	if rn.Clock != nil {
		chunk = 1
	}
	todo := make([]int, len(calls))
	for i := range todo {
		todo[i] = i
	}
	for len(todo) > 0 {
		if err := sctx.Err(); err != nil {
			if cutOff(ctx, sctx, err) {
				err = errCutOff
			}
			for _, i := range todo {
				put(i, Reply{}, err)
			}
			return
		}
		part := todo[:min(chunk, len(todo))]
		batch := callsAt(calls, part)
		if part[len(part)-1] >= shortFrom {
			// Some get the shortened limit: a copy of their own.
			batch = slices.Clone(batch)
			for k, i := range part {
				if i >= shortFrom {
					batch[k].Timeout = rn.Short
				}
			}
		}
		bctx, stop := context.WithCancelCause(sctx)
		var again []int
		began := time.Now()
		last := began
		var hang *Hang
		bc.CallBatch(bctx, batch, func(k int, r Reply, err error) {
			i := part[k]
			switch {
			case err != nil && ctx.Err() == nil && errors.Is(context.Cause(bctx), errShorten):
				again = append(again, i) // stopped for the shortened limit
				return
			case cutOff(ctx, sctx, err) && time.Since(last) >= hungAfter:
				// A call of these was still running, that long, when the
				// time ran out.
				if hang == nil {
					hang = &Hang{Ran: time.Since(last)}
				}
				hang.Calls++
				err = &cutRunning{hang: hang}
			case cutOff(ctx, sctx, err):
				err = errCutOff
			case err == nil && batch[k].Timeout > 0 && r.Outcome == OutcomeTimeout:
				r.Shortened, r.Detail = true, r.Detail+shortNote
			}
			put(i, r, err)
			if err == nil {
				last = time.Now()
			}
			if err == nil && i < shortFrom && rn.shortens(ad, rowOf[i], r, hashed) {
				rn.pace.shorten(ad, target)
				shortFrom = i + 1
				stop(errShorten)
			}
		})
		stopped := bctx.Err() != nil
		stop(nil)
		slices.Sort(again)
		todo = append(again, todo[len(part):]...)
		if rn.Clock != nil && !stopped {
			chunk = nextChunk(chunk, len(part), time.Since(began))
		}
	}
}

// nextChunk is the size of the chunk after one of n calls that took took:
// as many calls as take about chunkTime at that pace, at most twice as
// many as before.
func nextChunk(chunk, n int, took time.Duration) int {
	per := took / time.Duration(n)
	want := maxChunk
	if per > 0 {
		want = int(min(int64(chunkTime/per), maxChunk))
	}
	return max(1, min(want, 2*chunk, maxChunk))
}
