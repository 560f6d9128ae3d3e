package evidence

import (
	"context"
	"fmt"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// maxRecheckedTimeouts bounds the rows recheckTimeouts reruns, and
// maxRecheckedPerFunction those of one function: one rerun that times out
// again is what shows a function loops, and a function whose every input
// hangs must not spend the rerun's time on its neighbours.
const (
	maxRecheckedTimeouts    = 8
	maxRecheckedPerFunction = 1
)

// recheckTimeouts reruns once, with twice the call time and every call
// the whole of it, the rows a timeout made changes of, at most
// maxRecheckedPerFunction a function; the run's clock (ctx) bounds it, no
// function's time does: a rerun at twice the call time could never end
// within one.
//
//   - a changed row one side of which timed out at the full limit while the
//     other answered: a machine busy with other work makes a call slow on
//     one side only, and that is no change of the patch's. The rerun's
//     answers join the row's (Attempts, BaseSeen), so a row that answers on
//     both sides this time varies and is unstable, and one that times out
//     again on the same side stays a change (a loop the patch added is still
//     found).
//   - a row changed or unstable where a side timed out only under a limit
//     shortened after an earlier timeout of its function (gate.Reply.
//     Shortened), never under the full one: that timeout says little, so
//     the rerun's result replaces the row's. Such a row the rerun does not
//     reach is no evidence at all: its attempts are dropped, and a note
//     says how many.
//
// It returns notes for what it could not recheck.
func recheckTimeouts(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) []string {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	at := map[string]int{}
	replace := map[string]bool{} // rows whose result the rerun's replaces
	var unsettled []int          // shortened rows the rerun must reach
	perFunction := map[string]int{}
	sub := *t
	sub.Rows = nil
	room := func(r validate.Row) bool {
		return len(sub.Rows) < maxRecheckedTimeouts && perFunction[t.TargetOf(r)] < maxRecheckedPerFunction
	}
	add := func(i int, r validate.Row) {
		at[r.ID] = i
		perFunction[t.TargetOf(r)]++
		sub.Rows = append(sub.Rows, r)
	}
	for i, rr := range grep.Rows {
		if len(rr.Attempts) == 0 {
			continue
		}
		r := rows[rr.ID]
		if shortenedOnly(rr) {
			if !rr.Changed && !lang.UnstableRow(rr) {
				continue
			}
			unsettled = append(unsettled, i)
			if room(r) {
				replace[rr.ID] = true
				add(i, r)
			}
			continue
		}
		if !rr.Changed || lang.UnstableRow(rr) || !room(r) {
			continue
		}
		a := rr.Attempts[len(rr.Attempts)-1]
		if a.Base == nil || (a.Reply.Outcome == gate.OutcomeTimeout) == (a.Base.Outcome == gate.OutcomeTimeout) {
			continue
		}
		add(i, r)
	}
	if len(sub.Rows) == 0 {
		return nil
	}
	if gcfg.Timeout == 0 {
		gcfg.Timeout = callTimeout
	}
	gcfg.Timeout *= 2
	gcfg.Reruns, gcfg.Budget, gcfg.Progress = 1, len(sub.Rows), nil
	gcfg.TargetClock, gcfg.FullTimeouts = nil, true
	srep, err := gate.Differential(ctx, gcfg, &sub)
	var notes []string
	if err != nil {
		if stay := len(sub.Rows) - len(replace); stay > 0 {
			notes = append(notes, fmt.Sprintf("%s rows: %d rows that timed out on one side could not be rerun (%s): they stay changes", t.Language, stay, lang.OneLine(err.Error())))
		}
	} else {
		for _, rr := range srep.Rows {
			i, ok := at[rr.ID]
			switch {
			case !ok || len(rr.Attempts) == 0:
			case replace[rr.ID]:
				grep.Rows[i] = rr
			default:
				grep.Rows[i].Attempts = append(grep.Rows[i].Attempts, rr.Attempts...)
				grep.Rows[i].BaseSeen = append(grep.Rows[i].BaseSeen, rr.BaseSeen...)
			}
		}
	}
	dropped := 0
	for _, i := range unsettled {
		if rr := &grep.Rows[i]; shortenedOnly(*rr) {
			rr.Attempts, rr.BaseSeen, rr.Changed, rr.SpecChange = nil, nil, false, false
			dropped++
		}
	}
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%s rows: %d rows timed out under a limit shortened after an earlier timeout of their function, and could not be rerun at the full limit: not counted as changes",
			t.Language, dropped))
	}
	return notes
}

// shortenedOnly says a side of the row timed out under a shortened limit
// and never under the full one: its timeouts may be no more than the
// limit. A side that timed out at the full limit too (the row that
// shortened its function, rerun) is a timeout like any other.
func shortenedOnly(rr gate.RowResult) bool {
	var short, full [2]bool // head, base
	for _, a := range rr.Attempts {
		for side, r := range []*gate.Reply{&a.Reply, a.Base} {
			if r != nil && r.Outcome == gate.OutcomeTimeout {
				if r.Shortened {
					short[side] = true
				} else {
					full[side] = true
				}
			}
		}
	}
	return short[0] && !full[0] || short[1] && !full[1]
}
