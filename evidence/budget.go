package evidence

import (
	"context"
	"fmt"
	"time"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// DefaultRowSeconds bounds the running of a run's evidence rows, every
// table and both sides, when the settings name no row_seconds: a function
// whose inputs make it slow is cut off, says so, and the run goes on.
const DefaultRowSeconds = 40

// followUpTime is what a table cut by the clock still gets for its
// hash-seed reruns and its shrinking.
const followUpTime = 10 * time.Second

// rowClock is the run's time for its rows: one deadline shared by every
// table.
type rowClock struct {
	parent context.Context
	ctx    context.Context
	stop   context.CancelFunc
	budget time.Duration
}

func newRowClock(ctx context.Context, seconds int) *rowClock {
	if seconds <= 0 {
		seconds = DefaultRowSeconds
	}
	c := &rowClock{parent: ctx, budget: time.Duration(seconds) * time.Second}
	c.ctx, c.stop = context.WithTimeout(ctx, c.budget)
	return c
}

// out says the clock ran out while ctx, the run's own, still runs.
func (c *rowClock) out(ctx context.Context) bool {
	return c.ctx.Err() != nil && ctx.Err() == nil
}

// parentDone says the run itself was stopped (a signal), not the clock.
func (c *rowClock) parentDone() bool { return c.parent.Err() != nil }

// outOfTime records that the clock cut table t: a note saying how much ran,
// and each of its symbols whose rows did not run at all is said to be not
// exercised. It reports whether some rows ran, to be judged as usual.
func (rep *Report) outOfTime(c *rowClock, t *validate.Table, grep *gate.Report, origins map[string]origin) bool {
	ran := 0
	if grep != nil {
		ran = len(grep.Rows)
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("%s rows: the evidence's time of %s ran out after %d of %d rows; the rest did not run (.premise.yaml evidence: row_seconds)",
		t.Language, c.budget, ran, len(t.Rows)))
	done := map[string]bool{}
	if grep != nil {
		for _, rr := range grep.Rows {
			if len(rr.Attempts) > 0 {
				done[origins[rr.ID].symbol] = true
			}
		}
	}
	planned := map[string]bool{}
	for _, r := range t.Rows {
		planned[origins[r.ID].symbol] = true
	}
	for i, s := range rep.Symbols {
		if planned[s.Symbol] && !done[s.Symbol] {
			rep.Symbols[i].Rows, rep.Symbols[i].Sources, rep.Symbols[i].Unchecked = 0, nil, true
			rep.Symbols[i].Why = fmt.Sprintf("not exercised: the evidence's time of %s ran out before its rows ran", c.budget)
		}
	}
	return ran > 0
}
