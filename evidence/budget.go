package evidence

import (
	"context"
	"fmt"
	"time"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// DefaultRowSeconds bounds the running of a run's evidence rows, every
// table and both sides, when the settings name no row_seconds: a function
// whose inputs make it slow is cut off, says so, and the run goes on.
const DefaultRowSeconds = 40

// DefaultFunctionSeconds bounds the time one function's calls take on the
// workers, base and head together, when the settings name no
// function_seconds (issue 24, item 5): a function whose inputs make it
// slow is cut off at it, says so, and the other functions' rows go on.
const DefaultFunctionSeconds = 10

// followUpTime is what a table cut by the clock still gets for its
// hash-seed reruns and its shrinking.
const followUpTime = 10 * time.Second

// tailTime is what the whole evidence stage may take past its rows'
// time: the follow-ups and the base's tests share it when the rows took
// all of theirs, so that one run of premise ends within about a minute
// however the code under review behaves (issue 24, item 5; issue 28).
const tailTime = 15 * time.Second

// runEnd is when the evidence stage of a run started at start ends:
// its rows' time and tailTime.
func runEnd(start time.Time, rowSeconds int) time.Time {
	if rowSeconds <= 0 {
		rowSeconds = DefaultRowSeconds
	}
	return start.Add(time.Duration(rowSeconds)*time.Second + tailTime)
}

// rowClock is the run's time for its rows: one deadline shared by every
// table, and a time per function within it.
type rowClock struct {
	parent context.Context
	ctx    context.Context
	stop   context.CancelFunc
	budget time.Duration
	// end is the evidence stage's (runEnd): the rows end tailTime before
	// it, their follow-ups by it, whatever came before them (a traced
	// run of the base's tests).
	end time.Time
	// functions is each function's time for its rows, every pass that
	// looks for inputs (the rows, the guide) together; followUps a second
	// one of the same length for the reruns that check what they found
	// (timeouts, hash seeds, noise, shrinking), so that a function that
	// spent its time still has its findings checked.
	functions, followUps *gate.TargetClock
}

func newRowClock(ctx context.Context, seconds, functionSeconds int, end time.Time) *rowClock {
	if seconds <= 0 {
		seconds = DefaultRowSeconds
	}
	if functionSeconds <= 0 {
		functionSeconds = DefaultFunctionSeconds
	}
	c := &rowClock{parent: ctx, budget: time.Duration(seconds) * time.Second, end: end}
	now := time.Now()
	rows := now.Add(c.budget)
	if last := end.Add(-tailTime); !end.IsZero() && last.Before(rows) {
		// What ran before the rows (a traced run of the base's tests)
		// took some of the stage's time: the rows get what is left, and
		// their notes say that much; but never less than a quarter of
		// their own time, the stage ending that much later: on a loaded
		// machine a slow traced run left every function unexercised.
		rows = last
		if floor := now.Add(c.budget / 4); rows.Before(floor) {
			rows, c.end = floor, floor.Add(tailTime)
		}
		c.budget = max(0, rows.Sub(now).Round(time.Second))
	}
	c.ctx, c.stop = context.WithDeadline(ctx, rows)
	per := time.Duration(functionSeconds) * time.Second
	c.functions, c.followUps = gate.NewTargetClock(per), gate.NewTargetClock(per)
	return c
}

// followUpCtx is ctx ending followUpTime after the rows' clock: the time
// of what follows the rows (hash seeds, shrinking).
func (c *rowClock) followUpCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	end, ok := c.ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	if now := time.Now(); end.Before(now) {
		end = now // a table cut by the clock: its follow-ups' time starts now
	}
	end = end.Add(followUpTime)
	if !c.end.IsZero() && c.end.Before(end) {
		end = c.end
	}
	return context.WithDeadline(ctx, end)
}

// followUp is gcfg for the reruns that check what the rows found: their
// own time per function, and every call the whole call time (a timeout
// there is what decides whether a timeout was the patch's).
func (c *rowClock) followUp(gcfg gate.Config) gate.Config {
	gcfg.TargetClock, gcfg.FullTimeouts = c.followUps, true
	return gcfg
}

// cutOff says of each symbol some of whose rows its function's time cut
// off (gate.StatusCutOff) how many ran; its Rows and Sources count those.
// One none of whose rows ran is not exercised. A change the rows that ran
// found is reported as any other. A symbol whose head took more than
// twice its base's time is not checked whatever they found (issue 26: a
// head that makes itself slow spends its time on the first rows, and the
// rows that would reveal its change never run).
func (rep *Report) cutOff(c *rowClock, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin) {
	planned, ran := map[string]int{}, map[string]int{}
	sources := map[string]map[string]int{}
	cut := map[string]bool{}
	hangs := map[string]map[*gate.Hang][]gate.RowResult{} // by symbol: the rows cut off with a head's call still running
	bySymbol := map[string][]gate.RowResult{}
	for _, r := range t.Rows {
		planned[origins[r.ID].Symbol]++
	}
	for _, rr := range grep.Rows {
		o := origins[rr.ID]
		switch {
		case rr.Status == gate.StatusCutOff:
			cut[o.Symbol], rep.clocked = true, true
			if rr.Hang != nil {
				if hangs[o.Symbol] == nil {
					hangs[o.Symbol] = map[*gate.Hang][]gate.RowResult{}
				}
				hangs[o.Symbol][rr.Hang] = append(hangs[o.Symbol][rr.Hang], rr)
			}
		case len(rr.Attempts) > 0:
			ran[o.Symbol]++
			bySymbol[o.Symbol] = append(bySymbol[o.Symbol], rr)
			if sources[o.Symbol] == nil {
				sources[o.Symbol] = map[string]int{}
			}
			sources[o.Symbol][heuristic(o.Source)]++
		}
	}
	for i := range rep.Symbols {
		s := &rep.Symbols[i]
		if !cut[s.Symbol] {
			continue
		}
		s.Rows, s.Sources = ran[s.Symbol], sources[s.Symbol]
		if s.Rows == 0 {
			s.Why, s.Unchecked = fmt.Sprintf("not exercised: cut off after 0 of %d rows: its time of %s ran out (.premise.yaml evidence: function_seconds)", planned[s.Symbol], c.functions.Budget()), true
			continue
		}
		s.Why = fmt.Sprintf("cut off after %d of %d rows: its time of %s ran out (.premise.yaml evidence: function_seconds)", s.Rows, planned[s.Symbol], c.functions.Budget())
		switch h, base := hung(hangs[s.Symbol]); {
		case h != nil:
			// A head that hangs on the input its change would show spends
			// its function's time on that call, and the row never ran.
			s.Why, s.Unchecked = s.Why+fmt.Sprintf("; its head was still running %s after %s when its time ran out, where its base answered the same in %s, so the rows not run are not checked", calls(h.Calls), h.Ran.Round(100*time.Millisecond), base.Round(time.Millisecond)), true
		case slower(bySymbol[s.Symbol]):
			s.Why, s.Unchecked = s.Why+headSlowerWhy, true
		}
	}
}

// hung finds, among a symbol's rows cut off while its head was still
// running a call (or a batch of them), a hang the base did not share: the
// base answered the call of every row cut off with the batch (the other
// calls of a batch are those rows' reruns), the slowest in less than a
// quarter of the time the head had run. A batch the base was as slow on
// (a large input slow on both sides) is no hang of the head's.
func hung(hangs map[*gate.Hang][]gate.RowResult) (found *gate.Hang, took time.Duration) {
	for h, rows := range hangs {
		var base time.Duration
		answered := true
		for _, rr := range rows {
			answered = answered && rr.BaseAnswered
			base = max(base, rr.BaseTook)
		}
		if answered && 4*base < h.Ran && (found == nil || h.Ran > found.Ran) {
			found, took = h, base
		}
	}
	return found, took
}

func calls(n int) string {
	if n == 1 {
		return "a call"
	}
	return fmt.Sprintf("%d calls", n)
}

// headSlowerWhy says why a symbol cut off where its head was slower is
// not checked.
const headSlowerWhy = "; its head took more than twice its base's time, so the patch's slowness cut off the rows not run, and they are not checked"

// slower says the head's calls among rows took more than twice the base's
// (and a second more): a cut of those rows is the patch's doing.
func slower(rows []gate.RowResult) bool {
	var head, base time.Duration
	for _, rr := range rows {
		for _, a := range rr.Attempts {
			head += a.Reply.Elapsed
			if a.Base != nil {
				base += a.Base.Elapsed
			}
		}
	}
	return head > 2*base+time.Second
}

// out says the clock ran out while ctx, the run's own, still runs.
func (c *rowClock) out(ctx context.Context) bool {
	return c.ctx.Err() != nil && ctx.Err() == nil
}

// parentDone says the run itself was stopped (a signal), not the clock.
func (c *rowClock) parentDone() bool { return c.parent.Err() != nil }

// outOfTime records that the clock cut table t: a note saying how much ran,
// and each of its symbols whose rows did not run at all is said to be not
// exercised; where the head's calls took more than twice the base's, each
// symbol whose rows did not all run is not checked. It reports whether
// some rows ran, to be judged as usual.
func (rep *Report) outOfTime(c *rowClock, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin) bool {
	ran := 0
	if grep != nil {
		ran = len(grep.Rows)
	}
	rep.clocked = true
	rep.Notes = append(rep.Notes, fmt.Sprintf("%s rows: the evidence's time of %s ran out after %d of %d rows; the rest did not run (.premise.yaml evidence: row_seconds)",
		t.Language, c.budget, ran, len(t.Rows)))
	done := map[string]int{}
	var rows []gate.RowResult
	if grep != nil {
		rows = grep.Rows
		for _, rr := range grep.Rows {
			if len(rr.Attempts) > 0 {
				done[origins[rr.ID].Symbol]++
			}
		}
	}
	planned := map[string]int{}
	for _, r := range t.Rows {
		planned[origins[r.ID].Symbol]++
	}
	slow := slower(rows)
	for i, s := range rep.Symbols {
		switch n := done[s.Symbol]; {
		case planned[s.Symbol] == 0 || n == planned[s.Symbol]:
		case n == 0:
			rep.Symbols[i].Rows, rep.Symbols[i].Sources, rep.Symbols[i].Unchecked = 0, nil, true
			rep.Symbols[i].Why = fmt.Sprintf("not exercised: the evidence's time of %s ran out before its rows ran", c.budget)
		case slow:
			rep.Symbols[i].Unchecked = true
			rep.Symbols[i].Why = fmt.Sprintf("cut off after %d of %d rows: the evidence's time of %s ran out (.premise.yaml evidence: row_seconds)%s", n, planned[s.Symbol], c.budget, headSlowerWhy)
		}
	}
	return ran > 0
}

// timedOut says some call of a run's rows ran past its time, on either
// side: what a calmer machine may see otherwise.
func timedOut(grep *gate.Report) bool {
	for _, rr := range grep.Rows {
		for _, a := range rr.Attempts {
			if a.Reply.Outcome == gate.OutcomeTimeout || a.Base != nil && a.Base.Outcome == gate.OutcomeTimeout {
				return true
			}
		}
	}
	return false
}

// ranRows is how many of a run's rows ran: those cut off did not.
func ranRows(grep *gate.Report) int {
	n := 0
	for _, rr := range grep.Rows {
		if len(rr.Attempts) > 0 {
			n++
		}
	}
	return n
}

// DefaultTraceSeconds is the traced run's time budget when the settings
// name none.
const DefaultTraceSeconds = 20
