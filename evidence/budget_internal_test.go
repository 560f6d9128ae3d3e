package evidence

import (
	"context"
	"testing"
	"time"
)

// TestRowClockKeepsAFloor: when what ran before the rows (a traced run of
// the base's tests on a loaded machine) took the whole stage's time, the
// rows still get a quarter of theirs, and their follow-ups time past
// that, rather than none ("the evidence's time of 0s ran out before its
// rows ran" for every function of fflate's zip fix under load). With
// time left, the rows end where the stage says.
func TestRowClockKeepsAFloor(t *testing.T) {
	now := time.Now()
	c := newRowClock(context.Background(), 40, 10, now.Add(-time.Second))
	defer c.stop()
	dl, ok := c.ctx.Deadline()
	if !ok || dl.Sub(now) < 9*time.Second {
		t.Errorf("rows' deadline %v after the start, want at least a quarter of 40s", dl.Sub(now))
	}
	if c.budget < 9*time.Second {
		t.Errorf("budget %v, want about 10s", c.budget)
	}
	if !c.end.After(dl) {
		t.Errorf("the stage ends at %v, before the rows' deadline %v: no time for their follow-ups", c.end, dl)
	}

	end := now.Add(30 * time.Second)
	c2 := newRowClock(context.Background(), 40, 10, end)
	defer c2.stop()
	if dl, _ := c2.ctx.Deadline(); dl.After(end.Add(-tailTime).Add(time.Second)) {
		t.Errorf("with 15s left for the rows, their deadline is %v after the start", dl.Sub(now))
	}
}
