package evidence

import (
	"context"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Coverage as the guide (issue 24, item 2). When the rows leave a changed
// line unreached, the rows that came closest (those that ran most lines of
// the changed function on that side) are mutated, one argument at a time,
// and the mutants run on both sides; those that reach a changed line no row
// had become the next round's parents. No random draw: the same rows give
// the same mutants, so a run replays. The rows it adds are ordinary evidence
// rows: a change they show is reported like any other, named by their
// source, coverage_guided.

const (
	// guideRounds bounds the rounds of mutation, guideParents the rows
	// mutated a round, guideRound the rows a round adds: the guide's own
	// bound, apart from the function's share of rows, which the rows it
	// mutates have often filled.
	guideRounds  = 3
	guideParents = 4
	guideRound   = 48
)

// guide runs the rounds for one table whose rows ran (grep), appending the
// rows it adds to t and their results to grep.
func (rep *Report) guide(ctx context.Context, gcfg gate.Config, l lang.Language, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin) {
	seen := map[string]bool{}
	byID := map[string]validate.Row{}
	for _, r := range t.Rows {
		byID[r.ID] = r
		seen[rowKey(t, r, "")] = true
	}
	results := grep.Rows
	added := 0
	words := map[string][]string{} // by symbol: the same every round
	for _, p := range rep.plans {
		if p.lang == t.Language {
			words[p.symbol] = guideWords(l, p)
		}
	}
	for round := 0; round < guideRounds && ctx.Err() == nil; round++ {
		// Each parent's mutants, its generic steps first, then taken a
		// parent at a time, so that one parent's many steps do not
		// crowd the others out of the round.
		type brood struct {
			parent validate.Row
			kids   []validate.Row
		}
		var broods []brood
		for _, p := range rep.plans {
			if p.lang != t.Language {
				continue
			}
			for _, parent := range rep.closest(p, results, byID) {
				if gcfg.TargetClock.Out(t.TargetOf(parent)) {
					continue // its function's time is spent
				}
				// The object a method is called on a step away too,
				// taken turn about with the arguments' steps: a
				// changed line behind both the object's state and an
				// argument's edge (the real exponent of a purely
				// imaginary number) is two steps from any row.
				kids := interleave(lang.Mutants(parent), lang.BuiltMutants(parent, 0))
				kids = append(kids, lang.WordMutants(parent, words[p.symbol])...)
				if st, ok := l.(lang.ExprStepper); ok {
					kids = append(kids, lang.ExprMutants(parent, st.StepExpr)...)
				}
				broods = append(broods, brood{parent, kids})
			}
		}
		var rows []validate.Row
		for i := 0; len(rows) < guideRound; i++ {
			more := false
			for _, b := range broods {
				if i >= len(b.kids) || len(rows) >= guideRound {
					continue
				}
				more = true
				m := b.kids[i]
				k := rowKey(t, m, "")
				if seen[k] {
					continue
				}
				seen[k] = true
				m.ID = fmt.Sprintf("G%03d", added+len(rows)+1)
				rows = append(rows, m)
				o := origins[b.parent.ID]
				o.Source = lang.SourceGuided
				origins[m.ID] = o
			}
			if !more {
				break
			}
		}
		if len(rows) == 0 {
			return
		}
		g := rep.runAdded(ctx, gcfg, t, grep, rows, origins)
		if g == nil {
			return
		}
		added += len(rows)
		for _, r := range rows {
			byID[r.ID] = r
		}
		// Next round's parents come from the rows just run: a step that
		// reached nothing new may be one of two (a list one longer, then
		// one longer again).
		results = g.Rows
	}
}

// interleave is a's and b's rows taken turn about, the rest of the
// longer after.
func interleave(a, b []validate.Row) []validate.Row {
	out := make([]validate.Row, 0, len(a)+len(b))
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			out = append(out, a[i])
		}
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

// guideWords are the words the guide puts into a string: the short
// literals of both versions of the changed function, shortest first
// (what a branch compares with or looks for is short: "#", "l", "0x").
func guideWords(l lang.Language, p coverPlan) []string {
	dl, ok := l.(lang.Differ)
	if !ok {
		return nil
	}
	var out []string
	for _, w := range unionSorted(dl.Words(p.head.src), dl.Words(p.base.src)) {
		if w != "" && utf8.RuneCountInString(w) <= maxGuideWord {
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) < len(out[j]) })
	return out[:min(len(out), maxGuideWords)]
}

// maxGuideWords bounds the words the guide tries, maxGuideWord their
// length in characters.
const (
	maxGuideWords = 16
	maxGuideWord  = 8
)

// runAdded runs rows premise added to a table that ran (the guide's,
// the search's) on both sides, appends them and their results to t and
// grep, and counts them on their symbols; the new results, nil when none
// ran.
func (rep *Report) runAdded(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report, rows []validate.Row, origins map[string]lang.Origin) *gate.Report {
	if len(rows) == 0 {
		return nil
	}
	gt := &validate.Table{Version: t.Version, Language: t.Language, Target: t.Target, Rows: rows}
	cfg := gcfg
	cfg.Budget, cfg.Progress = len(rows), nil
	g, err := gate.Differential(ctx, cfg, gt)
	if err != nil || g == nil {
		return nil
	}
	rep.ran.add(g)
	t.Rows = append(t.Rows, rows...)
	grep.Rows = append(grep.Rows, g.Rows...)
	for _, rr := range g.Rows {
		if len(rr.Attempts) > 0 { // not cut off by its function's time
			rep.countRow(origins[rr.ID].Symbol, origins[rr.ID].Source)
		}
	}
	return g
}

// closest are the rows to mutate for a plan with a changed line no row
// ran: the rows that ran most lines of its function on the side the line
// is on; none when every changed line ran.
func (rep *Report) closest(p coverPlan, results []gate.RowResult, byID map[string]validate.Row) []validate.Row {
	c := rep.ran.coverage(p)
	if c == nil || (c.Head == nil || len(c.Head.Unreached) == 0) && (c.Base == nil || len(c.Base.Unreached) == 0) {
		return nil
	}
	type scored struct {
		row   validate.Row
		score int
	}
	var cands []scored
	for _, rr := range results {
		row, ok := byID[rr.ID]
		if !ok || len(rr.Attempts) == 0 {
			continue
		}
		a := rr.Attempts[len(rr.Attempts)-1]
		score := inSpan(a.Reply.Lines[p.head.abs], p.head) + inSpan(linesOf(a.Base, p.base.abs), p.base)
		if score > 0 {
			cands = append(cands, scored{row, score})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var out []validate.Row
	for _, c := range cands {
		if len(out) == guideParents {
			break
		}
		out = append(out, c.row)
	}
	return out
}

func linesOf(r *gate.Reply, file string) []int {
	if r == nil {
		return nil
	}
	return r.Lines[file]
}

func inSpan(lines []int, s sideLines) int {
	n := 0
	for _, l := range lines {
		if s.from <= l && l <= s.to {
			n++
		}
	}
	return n
}

// countRow counts a row the guide added on its symbol's SymbolRows.
func (rep *Report) countRow(symbol, source string) {
	for i := range rep.Symbols {
		if s := &rep.Symbols[i]; s.Symbol == symbol {
			s.Rows++
			if s.Sources == nil {
				s.Sources = map[string]int{}
			}
			s.Sources[source]++
			return
		}
	}
}
