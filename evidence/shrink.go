package evidence

import (
	"context"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// A finding is read from its smallest input (issue 13, part 9): each
// symbol's smallest differing rows are shrunk (shorter lists and strings,
// smaller numbers) while base and head still differ, and the result is
// reported first, as a witness.
const (
	maxWitnesses      = 3  // per symbol
	maxShrinkRounds   = 6  // each round is one differential run
	maxShrinkVariants = 40 // per witness per round
)

// witness is one differing row being shrunk.
type witness struct {
	from    string // the id of the row it was shrunk from
	row     validate.Row
	attempt gate.Attempt
	size    int
}

// shrink shrinks the changed rows of one language's table and returns the
// witnesses smaller than the rows they came from. A run that cannot be
// made only leaves the rows as they are: shrinking is a courtesy to the
// reader, never a verdict.
func shrink(ctx context.Context, langs lang.Languages, gcfg gate.Config, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin) []Change {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	bySymbol := map[string][]*witness{}
	for _, rr := range grep.Rows {
		if !rr.Changed || len(rr.Attempts) == 0 || lang.UnstableRow(rr) || lang.TimedOut(rr.Attempts[len(rr.Attempts)-1]) {
			continue
		}
		r := rows[rr.ID]
		sym := origins[rr.ID].Symbol
		bySymbol[sym] = append(bySymbol[sym], &witness{from: rr.ID, row: r, attempt: rr.Attempts[len(rr.Attempts)-1], size: rowSize(r)})
	}
	var all []*witness
	syms := make([]string, 0, len(bySymbol))
	for s := range bySymbol {
		syms = append(syms, s)
	}
	sort.Strings(syms)
	for _, s := range syms {
		ws := bySymbol[s]
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].size < ws[j].size })
		all = append(all, ws[:min(maxWitnesses, len(ws))]...)
	}
	if len(all) == 0 {
		return nil
	}
	start := map[*witness]int{}
	for _, w := range all {
		start[w] = w.size
	}
	gcfg.Progress = nil
	for round := 0; round < maxShrinkRounds; round++ {
		cand := &validate.Table{Version: t.Version, Language: t.Language, Target: t.Target}
		owner := map[string]*witness{}
		for i, w := range all {
			for j, r := range variants(w.row) {
				r.ID = fmt.Sprintf("W%d_%d_%d", round, i, j)
				owner[r.ID] = w
				cand.Rows = append(cand.Rows, r)
			}
		}
		if len(cand.Rows) == 0 {
			break
		}
		gcfg.Budget = len(cand.Rows)
		rep, err := gate.Differential(ctx, gcfg, cand)
		if err != nil {
			break
		}
		byID := map[string]validate.Row{}
		for _, r := range cand.Rows {
			byID[r.ID] = r
		}
		improved := false
		for _, rr := range rep.Rows {
			w := owner[rr.ID]
			if w == nil || !rr.Changed || len(rr.Attempts) == 0 || lang.UnstableRow(rr) {
				continue
			}
			r := byID[rr.ID]
			if s := rowSize(r); s < w.size {
				w.row, w.size, w.attempt = r, s, rr.Attempts[len(rr.Attempts)-1]
				improved = true
			}
		}
		if !improved {
			break
		}
	}
	var out []Change
	for _, w := range all {
		if w.size >= start[w] {
			continue
		}
		o := origins[w.from]
		args, kwargs := w.row.CallArgs()
		c := Change{Row: w.from, Assumptions: o.Assumptions, Symbol: o.Symbol, Class: "witness",
			Source: "shrunk from " + w.from, Heuristic: heuristic(o.Source), Witness: true, Cause: o.Cause}
		c.Call, c.BaseOutcome, c.HeadOutcome = replay(o.Lang, t.TargetOf(w.row), args, kwargs, w.attempt.Base, &w.attempt.Reply)
		if w.attempt.Base != nil {
			c.baseExc = w.attempt.Base.Exc
		}
		c.headExc = w.attempt.Reply.Exc
		c.Input, c.Base, c.Head = langs.Present(o, args, kwargs, w.attempt.Base, &w.attempt.Reply)
		if len(c.Assumptions) > 0 {
			c.Assumption = c.Assumptions[0]
		}
		out = append(out, c)
	}
	return out
}

// rowSize is how large a row's input reads: its length, then the size of
// its numbers (9 is larger than 4, though no longer).
func rowSize(r validate.Row) int {
	args, kwargs := r.CallArgs()
	var mag float64
	for _, a := range args {
		mag += magnitude(a)
	}
	for k, v := range kwargs {
		if !strings.HasPrefix(k, "$") {
			mag += magnitude(v)
		}
	}
	return len(lang.CallText(args, kwargs))*1_000_000 + int(math.Min(mag, 999_999))
}

// magnitude sums the absolute values of the numbers in v.
func magnitude(v any) float64 {
	switch x := v.(type) {
	case int:
		return math.Abs(float64(x))
	case float64:
		return math.Abs(x)
	case []any:
		m := 0.0
		for _, e := range x {
			m += magnitude(e)
		}
		return m
	case map[string]any:
		m := 0.0
		for _, e := range x {
			m += magnitude(e)
		}
		return m
	}
	return 0
}

// variants are the row with one argument shrunk one step, each way.
func variants(r validate.Row) []validate.Row {
	args, kwargs := r.CallArgs()
	var out []validate.Row
	for i, a := range args {
		for _, v := range smaller(a, 0) {
			nr := r
			nr.Inp, nr.HasInp = nil, false
			nr.Args = append([]any{}, args...)
			nr.Args[i] = v
			nr.Kwargs = kwargs
			out = append(out, nr)
		}
	}
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		if !strings.HasPrefix(k, "$") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range smaller(kwargs[k], 0) {
			nr := r
			nr.Inp, nr.HasInp = nil, false
			nr.Args = args
			nr.Kwargs = make(map[string]any, len(kwargs))
			for kk, vv := range kwargs {
				nr.Kwargs[kk] = vv
			}
			nr.Kwargs[k] = v
			out = append(out, nr)
		}
	}
	if len(out) > maxShrinkVariants {
		out = out[:maxShrinkVariants]
	}
	return out
}

// smaller returns values one step smaller than v: a shorter list or
// string (empty, a half, one element less), an element shrunk, a number
// nearer zero.
func smaller(v any, depth int) []any {
	if depth > 2 {
		return nil
	}
	var out []any
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return nil
		}
		out = append(out, []any{})
		if len(x) > 2 {
			out = append(out, x[:len(x)/2], x[len(x)/2:])
		}
		for i := 0; i < len(x) && i < 8; i++ {
			out = append(out, append(append([]any{}, x[:i]...), x[i+1:]...))
		}
		for i := 0; i < len(x) && i < 3; i++ {
			for _, e := range smaller(x[i], depth+1) {
				c := append([]any{}, x...)
				c[i] = e
				out = append(out, c)
			}
		}
	case string:
		r := []rune(x)
		if len(r) == 0 {
			return nil
		}
		out = append(out, "")
		if len(r) > 2 {
			out = append(out, string(r[:len(r)/2]), string(r[len(r)/2:]))
		}
		if len(r) > 1 {
			out = append(out, string(r[:len(r)-1]), string(r[1:]))
		}
	case int:
		if x == 0 {
			return nil
		}
		out = append(out, 0, x/2)
		if x > 0 {
			out = append(out, x-1)
		} else {
			out = append(out, x+1, -x)
		}
	case float64:
		if x == 0 {
			return nil
		}
		out = append(out, 0, math.Trunc(x), x/2)
	case map[string]any:
		if _, isExpr := x[lang.ExprKey]; isExpr {
			return nil
		}
		if built, ok := x["$args"].([]any); ok && x["$new"] != nil {
			// An object built for the call is built smaller, never taken
			// apart: without its "$new" it is another value, one no
			// caller passes.
			for i := 0; i < len(built) && i < 3; i++ {
				for _, e := range smaller(built[i], depth+1) {
					c := maps.Clone(x)
					args := append([]any{}, built...)
					args[i] = e
					c["$args"] = args
					out = append(out, c)
				}
			}
			break
		}
		for k := range x {
			if strings.HasPrefix(k, "$") {
				return nil // a value of the protocol's own ($date, $map): whole
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys[:min(8, len(keys))] {
			c := make(map[string]any, len(x))
			for kk, vv := range x {
				if kk != k {
					c[kk] = vv
				}
			}
			out = append(out, c)
		}
	}
	// Only strictly smaller values: a step must make progress.
	size, mag := len(lang.Compact(v, math.MaxInt32)), magnitude(v)
	kept := out[:0]
	for _, o := range out {
		if l := len(lang.Compact(o, math.MaxInt32)); l < size || (l == size && magnitude(o) < mag) {
			kept = append(kept, o)
		}
	}
	return kept
}
