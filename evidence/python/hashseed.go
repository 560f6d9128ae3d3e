package python

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Python seeds its string hash per process, and every worker runs with
// PYTHONHASHSEED=0 (gate's pythonEnv) so that base and head iterate a set
// of strings alike. A row whose output depends on the seed then answers
// the same on every rerun, and where base and head differ under seed 0
// only by hash order (each returns a set's elements in its own arbitrary
// order) the row would be a change. Issue 13, part 5: a row that differs
// is rerun under other seeds on both sides, and one whose output varies
// on one side is unstable, shown apart and never counted as a change.
//
// Go rows need none of this: the Go runtime randomises a map's iteration
// order on every range, so a Go row's ordinary reruns already see it.
const (
	// hashSeeds is how many hash seeds a changed row runs under per side,
	// the pinned 0 included.
	hashSeeds = 10
	// maxReseeded bounds the changed rows of one table rerun under other
	// seeds: each seed is a worker pair and a pass over them. The rest stay
	// changes, and a note says so.
	maxReseeded = 200
)

// reseed reruns the rows of a Python table's differential run (grep) that
// changed and are not already unstable under hash seeds 1 to hashSeeds-1,
// one worker pair a seed and one attempt a row, and appends each seed's
// answers to the row's result in grep (Attempts, BaseSeen): unstableRow
// then sees a row whose output varies with the seed on either side, and
// collect and shrink treat it as any unstable row. A row found unstable
// runs under no later seed. It returns how many rows it reran, and notes
// for what it could not recheck: rows past maxReseeded, and the rows left
// when a seed's pass could not run (they stay changes; what earlier seeds
// found stands). The error is ctx's alone.
func reseed(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) (int, []string, error) {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	at := map[string]int{} // row id -> its index in grep.Rows
	var ids []string
	for i, rr := range grep.Rows {
		if rr.Changed && len(rr.Attempts) > 0 && !lang.UnstableRow(rr) && seedCanMatter(rows[rr.ID], rr) {
			at[rr.ID] = i
			ids = append(ids, rr.ID)
		}
	}
	var notes []string
	if len(ids) > maxReseeded {
		notes = append(notes, fmt.Sprintf("python rows: %d changed; the first %d were rerun under %d other hash seeds, the other %d are changes not checked for hash order",
			len(ids), maxReseeded, hashSeeds-1, len(ids)-maxReseeded))
		ids = ids[:maxReseeded]
	}
	rechecked := len(ids)
	gcfg.Reruns, gcfg.Progress = 1, nil
	for seed := uint32(1); seed < hashSeeds && len(ids) > 0; seed++ {
		sub := *t
		sub.Rows = make([]validate.Row, 0, len(ids))
		for _, id := range ids {
			sub.Rows = append(sub.Rows, rows[id])
		}
		gcfg.HashSeed, gcfg.Budget = seed, len(sub.Rows)
		srep, err := gate.Differential(ctx, gcfg, &sub)
		if ctx.Err() != nil {
			return rechecked, notes, ctx.Err()
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("python rows: the rerun under hash seed %d could not run (%s): %d changed rows stay changes, not checked for hash order",
				seed, lang.OneLine(err.Error()), len(ids)))
			break
		}
		cut := map[string]bool{}
		for _, rr := range srep.Rows {
			i, ok := at[rr.ID]
			if !ok {
				continue
			}
			if rr.Status == gate.StatusCutOff {
				cut[rr.ID] = true // its function's time for follow-ups is spent
				continue
			}
			grep.Rows[i].Attempts = append(grep.Rows[i].Attempts, rr.Attempts...)
			grep.Rows[i].BaseSeen = append(grep.Rows[i].BaseSeen, rr.BaseSeen...)
		}
		if len(cut) > 0 {
			notes = append(notes, fmt.Sprintf("python rows: %d changed rows were not rerun under hash seed %d or later, their function's time having run out (.premise.yaml evidence: function_seconds): they stay changes, not checked for hash order",
				len(cut), seed))
		}
		ids = slices.DeleteFunc(ids, func(id string) bool { return cut[id] || lang.UnstableRow(grep.Rows[at[id]]) })
	}
	return rechecked, notes, nil
}

// seedCanMatter says a row's outcome could depend on the string hash
// seed: its input or either side's last answer holds text (a string, an
// expression, an object's repr), or it raised. The observation's own
// keys are not its input: "$observe" is a count, and the "$probes" (NaN
// and infinity among them, written as expressions) are calls only of a
// function a side returned, whose answers its value then holds. The seed
// hashes str and bytes alone; a row of numbers, lists and dicts of them answers alike
// under every seed, and is not rerun. Nor is a row a side of which timed
// out: a timeout shows no order to vary with the seed, and was rerun at
// twice the call time already (recheckTimeouts); nine more would be nine
// more timeouts (a timeout is a finding, not a pace: issue 28).
func seedCanMatter(r validate.Row, rr gate.RowResult) bool {
	a := rr.Attempts[len(rr.Attempts)-1]
	if lang.TimedOut(a) {
		return false
	}
	args, kwargs := r.CallArgs()
	probes := kwargs[lang.ProbesKey]
	kwargs = maps.Clone(kwargs)
	delete(kwargs, lang.ObserveKey)
	delete(kwargs, lang.ProbesKey)
	if holdsText(args) || holdsText(kwargs) {
		return true
	}
	for _, rep := range []*gate.Reply{&a.Reply, a.Base} {
		if rep == nil || rep.Outcome != gate.OutcomeReturned || holdsText(rep.Value) {
			return true
		}
		if holdsKey(rep.Value, lang.CallsKey) && holdsText(probes) {
			// The probes are inputs only where a side returned a
			// function and answered them.
			return true
		}
	}
	return false
}

// holdsKey says v holds an object with the key at any depth.
func holdsKey(v any, key string) bool {
	switch x := v.(type) {
	case []any:
		return slices.ContainsFunc(x, func(e any) bool { return holdsKey(e, key) })
	case map[string]any:
		if _, ok := x[key]; ok {
			return true
		}
		for _, e := range x {
			if holdsKey(e, key) {
				return true
			}
		}
	}
	return false
}

// holdsText says v holds a string value at any depth (keys of the row
// protocol's own objects aside).
func holdsText(v any) bool {
	switch x := v.(type) {
	case string:
		return true
	case []any:
		for _, e := range x {
			if holdsText(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if !strings.HasPrefix(k, "$") || holdsText(e) {
				return true
			}
		}
	}
	return false
}
