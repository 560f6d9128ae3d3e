package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/premise-dev/premise/validate"
)

// intended lets a same_as_base row (a rejected assumption's: where the
// assumption is violated, the head does what the base did) differ from the
// base the way an accepted change item of its target does (issue 25), where
// that way is a change of outcome (a raise of another class, a raise where
// it returned, a return where it raised): the reviewer accepted that the
// head answers such inputs so, and the evidence makes every input that
// differs so one item, so this row's input would have been one of its
// witnesses, already decided. Another value ("returns another value") is
// no such decision: an accepted value is decided for its own inputs, and a
// rejected assumption's row that returns another value still fails
// (decide_timezone.txtar: a result off by the zone's offset).
// The ways are read off the accepted items' own witness rows as they ran
// here, on both sides, and only off those that passed: the head cannot
// widen them without failing a witness row. rows are planned's results, in
// order.
func intended(planned []plannedRow, rows []RowResult) {
	ways := map[string]map[string][]string{} // by target and way: the accepted change items
	for i := range rows {
		r, res := planned[i].row, rows[i]
		if r.Decision != validate.StatusAccepted || r.Expect == nil || res.Status != StatusPass {
			continue
		}
		for _, a := range res.Attempts {
			if a.Base == nil {
				continue
			}
			if a.Base.Outcome == OutcomeReturned && a.Reply.Outcome == OutcomeReturned {
				continue
			}
			w := way(*a.Base, a.Reply)
			if ways[res.Target] == nil {
				ways[res.Target] = map[string][]string{}
			}
			for _, id := range r.AssumptionIDs {
				if validate.IsChange(id) && !slices.Contains(ways[res.Target][w], id) {
					ways[res.Target][w] = append(ways[res.Target][w], id)
				}
			}
		}
	}
	if len(ways) == 0 {
		return
	}
	for i := range rows {
		res := &rows[i]
		if !planned[i].row.SameAsBase || res.Status == StatusPass || ways[res.Target] == nil {
			continue
		}
		excused := false
		for k := range res.Attempts {
			a := &res.Attempts[k]
			if a.Status != StatusFail || a.Base == nil || !strings.HasPrefix(a.Why, sameAsBaseWhy) {
				continue
			}
			w := way(*a.Base, a.Reply)
			if ids := ways[res.Target][w]; len(ids) > 0 {
				a.Status = StatusPass
				a.Why = fmt.Sprintf("differs from the base as the accepted %s does (%s): %s", strings.Join(ids, ", "), w, a.Why)
				excused = true
			}
		}
		if !excused {
			continue
		}
		res.Seen = res.Seen[:0]
		for _, a := range res.Attempts {
			res.Seen = append(res.Seen, a.Status)
		}
		res.Status, res.Why = summarize(res.Attempts)
		res.Broken = res.Status != StatusPass && res.Status != StatusFlake
	}
}

// sameAsBaseWhy begins the why of a same_as_base row's failed attempt.
const sameAsBaseWhy = "same_as_base: "

// way is how a head's reply differs from the base's, as the register's
// change items name it (validate.WayOf), an exception told by its class
// and, as the gate compares raises, its module or the sentinel it is.
func way(base, head Reply) string {
	return validate.WayOf(wayOutcome(base), wayOutcome(head))
}

func wayOutcome(r Reply) *validate.Outcome {
	o := &validate.Outcome{Outcome: r.Outcome}
	if r.Outcome == OutcomeRaised && r.Exc != nil {
		_, o.Class, _ = strings.Cut(replyKey(r), "raised ")
	}
	return o
}
