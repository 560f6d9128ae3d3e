package evidence

import (
	"context"
	"fmt"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// maxRecheckedTimeouts bounds the rows recheckTimeouts reruns.
const maxRecheckedTimeouts = 8

// recheckTimeouts reruns once, with twice the call time, the changed rows
// one side of which timed out while the other answered: a machine busy
// with other work makes a call slow on one side only, and that is no
// change of the patch's. The rerun's answers join the row's (Attempts,
// BaseSeen), so a row that answers on both sides this time varies and is
// unstable, and one that times out again on the same side stays a change
// (a loop the patch added is still found). It returns a note when the
// rerun could not run.
func recheckTimeouts(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) string {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	at := map[string]int{}
	sub := *t
	sub.Rows = nil
	for i, rr := range grep.Rows {
		if !rr.Changed || len(rr.Attempts) == 0 || unstableRow(rr) || len(sub.Rows) >= maxRecheckedTimeouts {
			continue
		}
		a := rr.Attempts[len(rr.Attempts)-1]
		if a.Base == nil || (a.Reply.Outcome == gate.OutcomeTimeout) == (a.Base.Outcome == gate.OutcomeTimeout) {
			continue
		}
		at[rr.ID] = i
		sub.Rows = append(sub.Rows, rows[rr.ID])
	}
	if len(sub.Rows) == 0 {
		return ""
	}
	if gcfg.Timeout == 0 {
		gcfg.Timeout = callTimeout
	}
	gcfg.Timeout *= 2
	gcfg.Reruns, gcfg.Budget, gcfg.Progress = 1, len(sub.Rows), nil
	srep, err := gate.Differential(ctx, gcfg, &sub)
	if err != nil {
		return fmt.Sprintf("%s rows: %d rows that timed out on one side could not be rerun (%s): they stay changes", t.Language, len(sub.Rows), oneLine(err.Error()))
	}
	for _, rr := range srep.Rows {
		if i, ok := at[rr.ID]; ok {
			grep.Rows[i].Attempts = append(grep.Rows[i].Attempts, rr.Attempts...)
			grep.Rows[i].BaseSeen = append(grep.Rows[i].BaseSeen, rr.BaseSeen...)
		}
	}
	return ""
}
