package evidence

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Coverage as the guide, the search (issue 24, item 2). The guide's rounds
// (guide.go) step a row's arguments a little and pay a round trip a row;
// a changed line behind a construct of the function's input language (an
// inline table in a TOML text, a bracket in a pattern) is many steps from
// any row. So, for a changed line still unreached on a side, premise asks
// that side's worker to search: it calls a target that reaches the
// changed function again and again from the rows' arguments, changed a
// little at a time with the words of the file's own source, keeps every
// call that ran code no call had, and returns the calls that ran the
// line (lang.Explorer). What it returns is data: the found arguments
// become ordinary rows, run on both sides like any other, named by their
// source, coverage_guided. A search on the head's worker is the head
// running in its box; what it says it found is only ever inputs.

const (
	// exploreTargets bounds the targets searched for one changed
	// function, exploreFound the calls a search returns, exploreSeeds
	// the rows it starts from.
	exploreTargets = 2
	exploreFound   = 12
	exploreSeeds   = 32
	// exploreExecs bounds a search's calls: on an idle machine its time
	// ends it first.
	exploreExecs = 50000
)

// search is one $explore call: a target on one side, toward the changed
// lines no row ran there, of every changed function it reaches.
type search struct {
	target   string // as the side calls it
	template validate.Row
	seeds    [][]any
	goal     map[string][][]int  // the statements to run, each as its lines
	near     map[string][][2]int // the changed functions' spans, by file
	tokens   []string
	seed     int64
}

// explore searches, on each side, for calls that reach the changed lines
// the table's rows left unreached, and runs what it finds as rows.
func (rep *Report) explore(ctx context.Context, gcfg gate.Config, l lang.Language, targets []lang.Target, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin) {
	ex, ok := l.(lang.Explorer)
	if !ok || rep.search <= 0 {
		return
	}
	var head, base []search
	add := func(to *[]search, s search) {
		// One search a target and side, toward every goal there: a
		// caller that reaches two changed functions searches once, with
		// the time of one.
		for i := range *to {
			if (*to)[i].target == s.target {
				for f, ls := range s.goal {
					(*to)[i].goal[f] = append((*to)[i].goal[f], ls...)
				}
				for f, spans := range s.near {
					(*to)[i].near[f] = append((*to)[i].near[f], spans...)
				}
				return
			}
		}
		*to = append(*to, s)
	}
	for _, p := range rep.plans {
		if p.lang != t.Language {
			continue
		}
		c := rep.ran.coverage(p)
		if c == nil {
			continue
		}
		for _, tg := range rep.searchTargets(l, p, targets, t, origins) {
			if goal := goalLines(c.Head, p.head); goal != nil {
				add(&head, rep.newSearch(ex.Tokens(p.head.src), p, p.head, goal, tg, t, ""))
			}
			if goal := goalLines(c.Base, p.base); goal != nil {
				add(&base, rep.newSearch(ex.Tokens(p.base.src), p, p.base, goal, tg, t, gcfg.BaseTargets[tg]))
			}
		}
	}
	if len(head)+len(base) == 0 {
		return
	}
	found := make([][][][]any, 2)
	var wg sync.WaitGroup
	for i, side := range []struct {
		dir      string
		searches []search
	}{{gcfg.Repo, head}, {gcfg.BaseDir, base}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i] = runSearches(ctx, gcfg, side.dir, t, side.searches, rep.search*3/2)
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, r := range t.Rows {
		seen[rowKey(t, r, "")] = true
	}
	var rows []validate.Row
	for i, side := range [][]search{head, base} {
		for j, s := range side {
			for _, args := range found[i][j] {
				if !builtAsSent(s.seeds, args) {
					continue
				}
				m := s.template
				m.HasInp, m.Inp = false, nil
				m.Args = args
				// Past the function's row budget too: a search returns
				// few calls, each one that ran a line no row did.
				k := rowKey(t, m, "")
				if seen[k] {
					continue
				}
				seen[k] = true
				m.ID = fmt.Sprintf("X%03d", len(rows)+1)
				o := origins[s.template.ID]
				o.Source = lang.SourceGuided
				origins[m.ID] = o
				rows = append(rows, m)
			}
		}
	}
	rep.runAdded(ctx, gcfg, t, grep, rows, origins)
}

// searchTargets are the targets a search for p's lines calls: those that
// call p's function (public ones first) and the function itself, each
// with rows whose arguments a search can change.
func (rep *Report) searchTargets(l lang.Language, p coverPlan, targets []lang.Target, t *validate.Table, origins map[string]lang.Origin) []string {
	module := func(name, local string) string { return strings.TrimSuffix(name, "."+local) }
	var pmod string
	for _, tg := range targets {
		if tg.Sym.Name == p.symbol {
			pmod = module(tg.Sym.Name, tg.Sym.Local)
		}
	}
	score := map[string]int{}
	for _, tg := range targets {
		if tg.HeadOnly || pmod == "" || module(tg.Sym.Name, tg.Sym.Local) != pmod {
			continue
		}
		s := 0
		switch {
		case tg.Sym.Name == p.symbol:
			s = 1
		case containsString(tg.Reads, p.symbol):
			s = 2
		}
		if tg.Sym.Name != p.symbol && l.Public(lang.BareName(tg.Sym.Local)) && !strings.Contains(tg.Sym.Local, ".") {
			s += 3 // a module's public function: the way in callers use
		}
		if s > 0 {
			score[tg.Sym.Name] = s
		}
	}
	byTarget := map[string]string{} // the name rows call -> symbol
	for _, r := range t.Rows {
		o := origins[r.ID]
		if _, ok := score[o.Symbol]; ok && plainArgs(r) {
			byTarget[t.TargetOf(r)] = o.Symbol
		}
	}
	var out []string
	for name := range byTarget {
		out = append(out, name)
	}
	sort.Slice(out, func(i, j int) bool {
		si, sj := score[byTarget[out[i]]], score[byTarget[out[j]]]
		if si != sj {
			return si > sj
		}
		return out[i] < out[j]
	})
	if len(out) > exploreTargets {
		out = out[:exploreTargets]
	}
	return out
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// plainArgs says whether a row has an argument a search can change: one
// premise does not build itself (an object with "$" keys), or one whose
// data a search may change (changeableBuilt), and no keyword argument but
// premise's own.
func plainArgs(r validate.Row) bool {
	args, kwargs := r.CallArgs()
	for k := range kwargs {
		if !strings.HasPrefix(k, "$") {
			return false
		}
	}
	for _, a := range args {
		if m, ok := a.(map[string]any); ok && hasDollarKey(m) {
			if changeableBuilt(m) {
				return true
			}
			continue
		}
		return true
	}
	return false
}

// changeableBuilt says whether a search may change the data of an object
// premise built (sameBuilt): a typed value other than a zone, or a
// constructor call with arguments.
func changeableBuilt(m map[string]any) bool {
	if name, ok := m["$go"].(string); ok {
		return name != "*time.Location"
	}
	if _, ok := m["$new"].(string); ok {
		args, _ := m["$args"].([]any)
		return len(args) > 0
	}
	return false
}

func hasDollarKey(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

// builtAsSent says whether arguments a search returned, drawn from the
// argument lists it was sent (seeds), hold no object premise builds
// itself (an object with "$" keys: an expression, a typed value) but one
// a seed held at the same place, exactly or with its data changed
// (sameBuilt): a search on the head's worker must not hand the base's
// worker something to evaluate (issue 26). Plain data may stand
// anywhere, in more places than a seed had (a variadic call's).
func builtAsSent(seeds [][]any, args []any) bool {
	for i, a := range args {
		if !holdsBuilt(a, 0) {
			continue
		}
		ok := false
		for _, s := range seeds {
			if i >= len(s) {
				continue
			}
			if m, isMap := s[i].(map[string]any); isMap && hasDollarKey(m) && sameBuilt(m, a) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return len(args) > 0 || len(seeds) > 0
}

// sameBuilt says whether got, returned where a row sent the object
// premise built, is that object, or the same typed value with other data
// ({"$go": "[]byte", "value": text}: a Go value JSON alone cannot say,
// decoded by the worker from its text or number and never evaluated), or
// a call of the same constructor ({"$new": F, "$args": [...]}) whose
// arguments are data, or built as sent by the same rules.
func sameBuilt(sent map[string]any, got any) bool {
	x, err1 := validate.CanonicalJSON(got)
	y, err2 := validate.CanonicalJSON(sent)
	if err1 == nil && err2 == nil && string(x) == string(y) {
		return true
	}
	g, ok := got.(map[string]any)
	if !ok || len(g) != len(sent) {
		return false
	}
	if name, ok := sent["$go"].(string); ok && name != "*time.Location" {
		if len(g) != 2 || g["$go"] != name {
			return false
		}
		switch g["value"].(type) {
		case string, float64, bool:
			return true
		}
		return false
	}
	if name, ok := sent["$new"].(string); ok && g["$new"] == name {
		sa, _ := sent["$args"].([]any)
		ga, ok := g["$args"].([]any)
		if !ok || len(ga) != len(sa) || len(g) != 2 {
			return false
		}
		for i, a := range ga {
			if m, ok := sa[i].(map[string]any); ok && hasDollarKey(m) {
				if !sameBuilt(m, a) {
					return false
				}
			} else if holdsBuilt(a, 0) {
				return false
			}
		}
		return true
	}
	return false
}

// holdsBuilt says whether v holds an object with a "$" key (or is
// nested past where a row's values go).
func holdsBuilt(v any, depth int) bool {
	if depth > 8 {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		if hasDollarKey(x) {
			return true
		}
		for _, e := range x {
			if holdsBuilt(e, depth+1) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsBuilt(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// goalLines are a side's unreached changed statements, each as its
// lines, by the side's file; nil when every changed line ran.
func goalLines(c *SideCoverage, s sideLines) map[string][][]int {
	if c == nil || len(c.Unreached) == 0 || s.abs == "" {
		return nil
	}
	var stmts [][]int
	for _, u := range c.Unreached {
		st, ok := innermostStmt(s.stmts, u.Line)
		if !ok {
			stmts = append(stmts, []int{u.Line})
			continue
		}
		var lines []int
		for l := st.First; l <= st.Last; l++ {
			lines = append(lines, l)
		}
		stmts = append(stmts, lines)
	}
	return map[string][][]int{s.abs: stmts}
}

// newSearch is the search of target toward goal on the side s is of,
// with the words tokens; as is the side's name for the target ("" when it
// is the head's).
func (rep *Report) newSearch(tokens []string, p coverPlan, s sideLines, goal map[string][][]int, target string, t *validate.Table, as string) search {
	out := search{target: target, goal: goal, tokens: tokens,
		near: map[string][][2]int{s.abs: {{s.from, s.to}}}}
	if as != "" {
		out.target = as
	}
	seen := map[string]bool{}
	for _, r := range t.Rows {
		if t.TargetOf(r) != target || !plainArgs(r) {
			continue
		}
		if out.template.ID == "" {
			out.template = r
		}
		args, _ := r.CallArgs()
		k := rowKey(t, validate.Row{Args: args}, "")
		if !seen[k] && len(out.seeds) < exploreSeeds {
			seen[k] = true
			out.seeds = append(out.seeds, args)
		}
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s", rep.Seed, p.symbol, target)
	out.seed = int64(h.Sum64() >> 1)
	return out
}

// runSearches runs a side's searches one after another on one worker,
// within total, shared evenly (the two sides search at once), no search
// given less than a twelfth of it; each search's found arguments, in
// order.
func runSearches(ctx context.Context, gcfg gate.Config, dir string, t *validate.Table, searches []search, total time.Duration) [][][]any {
	out := make([][][]any, len(searches))
	if len(searches) == 0 || dir == "" {
		return out
	}
	cfg := gcfg
	cfg.Watch, cfg.BaseWatch = nil, nil
	cfg.Timeout = total + 5*time.Second
	ad, err := gate.NewAdapter(ctx, cfg, dir, t)
	if err != nil {
		return out
	}
	defer ad.Close()
	end := time.Now().Add(total)
	for i, s := range searches {
		left := time.Until(end)
		if left < total/12 || ctx.Err() != nil {
			break
		}
		spend := max(left/time.Duration(len(searches)-i), total/12)
		spec := map[string]any{
			"seeds": s.seeds, "tokens": s.tokens, "goal": s.goal, "near": s.near, "root": dir,
			"seconds": spend.Seconds(), "seed": s.seed, "max": exploreFound, "execs": exploreExecs,
		}
		r, err := ad.Call(ctx, gate.Call{ID: "explore", Unwatched: true, Target: s.target, Kwargs: map[string]any{"$explore": spec}})
		if err != nil || r.Outcome != gate.OutcomeReturned {
			continue
		}
		out[i] = foundArgs(r.Value)
	}
	return out
}

// foundArgs reads a search's reply: the argument lists under "found".
// What the worker sent is data; anything else in it is dropped.
func foundArgs(v any) [][]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	list, _ := m["found"].([]any)
	var out [][]any
	for _, a := range list {
		if args, ok := a.([]any); ok && len(out) < exploreFound {
			out = append(out, args)
		}
	}
	return out
}
