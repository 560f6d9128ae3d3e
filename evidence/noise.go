package evidence

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"sort"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Head-only noise (issue 26: verdict rules the head can steer). A row
// whose reruns answer differently on a side is unstable, and an unstable
// row is no evidence of a change. A patch could use that: output that
// varies on the head alone (a random suffix on the inputs that reveal it)
// would turn every real change into "unstable" and the gate would hold.
// So a row whose head varies while its base answered the same is rerun
// more times on both sides; if the base still answers the same every
// time, the head's variation is the patch's doing, and the row is a
// change: the base was deterministic there and the head is not. The
// reruns are judged together with the first pass and the hash seeds' (a
// head that tells a rerun from the first pass, by a file it left in its
// copy or by the seed, would otherwise vary only where premise does not
// look again), and reruns that cannot run leave such a row a change. A
// head's timeout is a pace, judged by recheckTimeouts: a head that timed
// out and otherwise answered as the base did is no change.

// noiseReruns is how many times such a row is rerun on each side first.
// orderReruns is how many for a row whose head's answers differ from the
// base's in their lists' order alone. orderNeed is how many more either
// may take: a small Go map's
// iteration order is arbitrary but skewed (two keys come out one way seven
// times in eight), so a base that ranges over one answers alike thirty-two
// times in fourteen rows out of a thousand, and a fixed count of reruns
// either calls a shared map's order a change now and then or runs every
// row hundreds of times. A base that sorts answers alike always.
const (
	noiseReruns  = 6
	orderReruns  = 30
	maxOrderRuns = 400
)

// maxNoiseRows bounds the rows rerun for it.
const maxNoiseRows = 16

// headNoise returns the rows whose head varies between reruns where the
// base never does, after noiseReruns more runs of each.
func headNoise(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) map[string]bool {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	var plain, order []validate.Row
	for _, rr := range grep.Rows {
		switch {
		case len(plain)+len(order) >= maxNoiseRows || !headOnlyVaries(rr):
		case orderOnly(rr):
			order = append(order, rows[rr.ID])
		default:
			plain = append(plain, rows[rr.ID])
		}
	}
	all := map[string]gate.RowResult{}
	for _, rr := range grep.Rows {
		all[rr.ID] = rr
	}
	out := map[string]bool{}
	// rerun runs rows reruns more times on each side and judges each
	// with every answer it gave so far; rows it cannot run stay changes
	// (a head that breaks on a second look must not turn its change into
	// noise). It returns the rows still the patch's doing.
	rerun := func(set []validate.Row, reruns int) []validate.Row {
		if len(set) == 0 {
			return nil
		}
		sub := *t
		sub.Rows = set
		gcfg.Reruns, gcfg.Budget, gcfg.Progress = reruns, len(sub.Rows), nil
		srep, err := gate.Differential(ctx, gcfg, &sub)
		if err != nil {
			for _, r := range sub.Rows {
				out[r.ID] = true
			}
			return nil
		}
		var doing []validate.Row
		for _, rr := range srep.Rows {
			seen := all[rr.ID]
			seen.Attempts = append(slices.Clip(seen.Attempts), rr.Attempts...)
			seen.BaseSeen = append(slices.Clip(seen.BaseSeen), rr.BaseSeen...)
			all[rr.ID] = seen
			if headsDoing(seen) {
				out[rr.ID] = true
				doing = append(doing, rows[rr.ID])
			}
		}
		return doing
	}
	// A row the base answered alike that many more times runs again
	// until its base has answered alike as often as orderNeed asks: a
	// skewed order (a Go map's, in a list or in the text a value prints)
	// shows its other side rarely, and the head's own answers say how
	// rarely.
	more, need := []validate.Row(nil), 0
	for _, r := range slices.Concat(rerun(plain, noiseReruns), rerun(order, orderReruns)) {
		if n := orderNeed(all[r.ID]) - len(all[r.ID].BaseSeen); n > 0 {
			more, need = append(more, r), max(need, n)
		}
	}
	for _, r := range more {
		delete(out, r.ID)
	}
	rerun(more, need)
	return out
}

// orderNeed is how many alike answers of a row's base make its head's
// other orders the patch's doing: enough that a base drawing its order
// from the same skewed map as the head, which answered otherwise in the
// share of its answers it did, answers alike that often by chance less
// than once in a billion. It is at most maxOrderRuns.
func orderNeed(rr gate.RowResult) int {
	if len(rr.BaseSeen) == 0 {
		return 0
	}
	other, n := 0, 0
	for _, a := range rr.Attempts {
		if a.Reply.Outcome == gate.OutcomeTimeout {
			continue
		}
		n++
		if a.Reply.Key() != rr.BaseSeen[0] {
			other++
		}
	}
	if other == 0 || other == n {
		return 0
	}
	q := float64(other) / float64(n)
	return min(maxOrderRuns, int(math.Ceil(math.Log(1e-9)/math.Log1p(-q))))
}

// orderOnly says every answer of a row's head, returned as the base's
// was, holds the same values as the base's first in another order of its
// lists' elements, at any depth.
func orderOnly(rr gate.RowResult) bool {
	if len(rr.Attempts) == 0 || rr.Attempts[0].Base == nil || rr.Attempts[0].Base.Outcome != gate.OutcomeReturned {
		return false
	}
	want := unordered(rr.Attempts[0].Base.Value)
	for _, a := range rr.Attempts {
		if a.Reply.Outcome != gate.OutcomeReturned || unordered(a.Reply.Value) != want {
			return false
		}
	}
	return true
}

// unordered is v as canonical text with every list's elements sorted.
func unordered(v any) string {
	var canon func(v any, depth int) any
	canon = func(v any, depth int) any {
		if depth > 16 {
			return v
		}
		switch x := v.(type) {
		case []any:
			keys := make([]string, len(x))
			for i, e := range x {
				b, _ := json.Marshal(canon(e, depth+1))
				keys[i] = string(b)
			}
			sort.Strings(keys)
			return keys
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = canon(e, depth+1)
			}
			return out
		}
		return v
	}
	b, _ := json.Marshal(canon(v, 0))
	return string(b)
}

// baseOrderApart returns the rows orderApart holds for, after orderReruns
// more runs of each side judged with every answer so far. A few answers
// are no proof: what a value shows can hinge on an order (a receiver's
// Keys() read before and after a call differ, or not, as a map's order
// falls), and two identical sides can each happen to answer one way
// three times; thirty more times each they do not. A row that cannot be
// run again stays unstable.
func baseOrderApart(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) map[string]bool {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	all := map[string]gate.RowResult{}
	var set []validate.Row
	for _, rr := range grep.Rows {
		all[rr.ID] = rr
		if len(set) < maxNoiseRows && lang.Varies(rr.BaseSeen) && orderApart(rr) {
			set = append(set, rows[rr.ID])
		}
	}
	if len(set) == 0 {
		return nil
	}
	sub := *t
	sub.Rows = set
	gcfg.Reruns, gcfg.Budget, gcfg.Progress = orderReruns, len(set), nil
	srep, err := gate.Differential(ctx, gcfg, &sub)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, rr := range srep.Rows {
		seen := all[rr.ID]
		seen.Attempts = append(slices.Clip(seen.Attempts), rr.Attempts...)
		seen.BaseSeen = append(slices.Clip(seen.BaseSeen), rr.BaseSeen...)
		if len(seen.Attempts) > len(all[rr.ID].Attempts) && orderApart(seen) {
			out[rr.ID] = true
		}
	}
	return out
}

// orderApart says a row whose base varied between reruns varied in the
// order of what it shows alone, and its head answered something else:
// every base answer holds the same characters (a hash map's repr, its
// items in the order the worker's hash seed gives them), every head
// answer holds one set of characters too, and the two sets differ. No
// order of the base's answer is the head's, so the row is a change, not
// noise; a head that answers the same items in its own order is none.
func orderApart(rr gate.RowResult) bool {
	if len(rr.BaseSeen) == 0 || len(rr.Attempts) == 0 {
		return false
	}
	base := sortedRunes(rr.BaseSeen[0])
	for _, s := range rr.BaseSeen[1:] {
		if sortedRunes(s) != base {
			return false
		}
	}
	head := sortedRunes(rr.Attempts[0].Reply.Key())
	for _, a := range rr.Attempts {
		if a.Reply.Outcome == gate.OutcomeTimeout || sortedRunes(a.Reply.Key()) != head {
			return false
		}
	}
	return head != base
}

// sortedRunes is s with its characters sorted: the same for any order of
// the same items.
func sortedRunes(s string) string {
	r := []rune(s)
	slices.Sort(r)
	return string(r)
}

// headsDoing says a row's base answered the same every time and its head,
// its timeouts aside, answered otherwise at least once.
func headsDoing(rr gate.RowResult) bool {
	if len(rr.BaseSeen) == 0 || lang.Varies(rr.BaseSeen) {
		return false
	}
	for _, a := range rr.Attempts {
		if a.Reply.Outcome != gate.OutcomeTimeout && a.Reply.Key() != rr.BaseSeen[0] {
			return true
		}
	}
	return false
}

// headOnlyVaries says a row's head answered differently between reruns
// while its base answered the same every time.
func headOnlyVaries(rr gate.RowResult) bool {
	if len(rr.Attempts) < 2 || len(rr.BaseSeen) < 2 || lang.Varies(rr.BaseSeen) {
		return false
	}
	var head []string
	for _, a := range rr.Attempts {
		head = append(head, lang.Describe(&a.Reply))
	}
	return lang.Varies(head)
}
