package golang

import (
	"context"
	"fmt"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Go randomises a map's iteration order on every range, so a row whose
// output follows it (a map's keys listed, a container's children) varies
// between runs of one side. Two runs a side show a two-key map in the same
// order with even odds, and base and head "differ" in a quarter of such
// rows that looked stable. A row that differs is therefore run
// rerunChanged more times on each side; one whose output then varies on
// either side is unstable, shown apart and never counted as a change, as
// Python's rows under other hash seeds are.

// rerunChanged is how many more times a changed row runs on each side: a
// two-key map keeps one order that often with odds of one in 256.
const rerunChanged = 8

// maxRerunChanged bounds the changed rows of one table rerun.
const maxRerunChanged = 200

// Reseed reruns the changed rows of grep (not already unstable, no side
// timed out) rerunChanged times on each side in one pass and appends what
// they answered to their results. It returns how many rows it reran and a
// note for what it could not recheck; the error is ctx's alone.
func (*goLang) Reseed(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) (int, []string, error) {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	at := map[string]int{}
	sub := *t
	sub.Rows = nil
	for i, rr := range grep.Rows {
		if rr.Changed && len(rr.Attempts) > 0 && !lang.UnstableRow(rr) && !lang.TimedOut(rr.Attempts[len(rr.Attempts)-1]) && len(sub.Rows) < maxRerunChanged {
			at[rr.ID] = i
			sub.Rows = append(sub.Rows, rows[rr.ID])
		}
	}
	if len(sub.Rows) == 0 {
		return 0, nil, nil
	}
	gcfg.Reruns, gcfg.Budget, gcfg.Progress = rerunChanged, len(sub.Rows), nil
	srep, err := gate.Differential(ctx, gcfg, &sub)
	if ctx.Err() != nil {
		return len(sub.Rows), nil, ctx.Err()
	}
	if err != nil {
		return len(sub.Rows), []string{fmt.Sprintf("go rows: the rerun of the changed rows could not run (%s): they stay changes, not checked for map order", lang.OneLine(err.Error()))}, nil
	}
	for _, rr := range srep.Rows {
		i, ok := at[rr.ID]
		if !ok || rr.Status == gate.StatusCutOff {
			continue
		}
		grep.Rows[i].Attempts = append(grep.Rows[i].Attempts, rr.Attempts...)
		grep.Rows[i].BaseSeen = append(grep.Rows[i].BaseSeen, rr.BaseSeen...)
	}
	return len(sub.Rows), nil, nil
}
