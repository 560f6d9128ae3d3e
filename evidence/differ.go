package evidence

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// The differential search (issue 24: reaching a changed line is not
// showing what it changed). A function whose rows ran its changed lines
// and showed no change may still differ on inputs a little way from
// them: a key in an otherwise valid table twice, an address that starts
// with a letter of the prefix lstrip cut. The coverage search (explore.go)
// keeps a call for what it ran on one side, which says nothing of where
// the two sides part. So for such a function both sides' workers make
// the same calls: a blind search, drawn from the seed, the rows'
// arguments and the words of both versions' source alone, never from
// what a call did, so both make them in the same order; each returns a
// digest of every call's outcome, and premise compares the two lists. The
// calls whose digests differ are asked of the base's worker (which makes
// no call to answer) and run as ordinary rows on both sides, where the
// reruns, the hash seeds and the comparison decide as for any row; a
// digest that differed for nothing costs a row, never a finding.

// DefaultSearchSeconds is a table's blind searches' time on a side (the
// two sides search at once) when the settings name none
// (.premise.yaml evidence: search_seconds); the coverage search has 1.5
// times it (explore.go).
const DefaultSearchSeconds = 4

// searchTime is Config.SearchSeconds as a duration: the default when
// zero, none when negative.
func searchTime(seconds int) time.Duration {
	switch {
	case seconds == 0:
		return DefaultSearchSeconds * time.Second
	case seconds < 0:
		return 0
	}
	return time.Duration(seconds) * time.Second
}

const (
	// differExecs bounds a search's calls, differFound the calls of a
	// search made rows.
	differExecs = 50000
	differFound = 4
)

// differ runs blind searches for the changed functions of t whose rows
// showed no change, and runs the calls the two sides answered differently
// as rows.
func (rep *Report) differ(ctx context.Context, gcfg gate.Config, l lang.Language, targets []lang.Target, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin) {
	dl, ok := l.(lang.Differ)
	differTotal := rep.search
	if !ok || gcfg.BaseDir == "" || differTotal <= 0 {
		return
	}
	shown := map[string]bool{}
	for _, rr := range grep.Rows {
		if rr.Changed {
			o := origins[rr.ID]
			shown[o.Symbol] = true
			for _, c := range o.Cause { // a caller's row showed it
				shown[c] = true
			}
		}
	}
	var searches []search
	for _, p := range rep.plans {
		if p.lang != t.Language || shown[p.symbol] || p.head.abs == "" || p.base.abs == "" {
			continue
		}
		// Both versions' words, in one order: the two workers must
		// draw the same calls.
		tokens := unionSorted(dl.Words(p.head.src), dl.Words(p.base.src))
		// The function itself first (its own inputs show its change
		// most directly), then the callers a search of its lines takes.
		tgs := rep.searchTargets(l, p, targets, t, origins)
		if own := ownTarget(p.symbol, t, origins); own != "" {
			tgs = append([]string{own}, tgs...)
		}
		for _, tg := range tgs {
			if containsSearch(searches, tg) {
				continue
			}
			s := rep.newSearch(tokens, p, p.head, nil, tg, t, "")
			if len(s.seeds) == 0 {
				continue
			}
			s.near = nil
			searches = append(searches, s)
		}
	}
	if len(searches) == 0 {
		return
	}
	cfg := gcfg
	cfg.Watch, cfg.BaseWatch = nil, nil
	cfg.Timeout = differTotal + 5*time.Second
	var head, base gate.Adapter
	var herr, berr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); head, herr = gate.NewAdapter(ctx, cfg, gcfg.Repo, t) }()
	go func() { defer wg.Done(); base, berr = gate.NewAdapter(ctx, cfg, gcfg.BaseDir, t) }()
	wg.Wait()
	if head != nil {
		defer head.Close()
	}
	if base != nil {
		defer base.Close()
	}
	if herr != nil || berr != nil {
		return
	}
	seen := map[string]bool{}
	for _, r := range t.Rows {
		seen[rowKey(t, r, "")] = true
	}
	var rows []validate.Row
	end := time.Now().Add(differTotal)
	for i, s := range searches {
		left := time.Until(end)
		if left < differTotal/16 || ctx.Err() != nil {
			break
		}
		spend := left / time.Duration(len(searches)-i)
		baseTarget := s.target
		if as := gcfg.BaseTargets[s.target]; as != "" {
			baseTarget = as
		}
		spec := func(extra map[string]any) map[string]any {
			m := map[string]any{"seeds": s.seeds, "tokens": s.tokens, "seed": s.seed,
				"execs": differExecs, "seconds": spend.Seconds(), "differ": true}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		var hd, bd []string
		wg.Add(2)
		go func() { defer wg.Done(); hd = digests(ctx, head, s.target, spec(nil)) }()
		go func() { defer wg.Done(); bd = digests(ctx, base, baseTarget, spec(nil)) }()
		wg.Wait()
		at := differingCalls(hd, bd, differFound)
		if len(at) == 0 {
			continue
		}
		// The base's worker names the calls: it makes none to answer.
		r, err := base.Call(ctx, gate.Call{ID: "differ", Unwatched: true, Target: baseTarget,
			Kwargs: map[string]any{"$explore": spec(map[string]any{"emit": at})}})
		if err != nil || r.Outcome != gate.OutcomeReturned {
			continue
		}
		for _, args := range foundArgs(r.Value) {
			if !builtAsSent(s.seeds, args) {
				continue
			}
			m := s.template
			m.HasInp, m.Inp = false, nil
			m.Args = args
			k := rowKey(t, m, "")
			if seen[k] {
				continue
			}
			seen[k] = true
			m.ID = fmt.Sprintf("D%03d", len(rows)+1)
			o := origins[s.template.ID]
			o.Source = lang.SourceDifferential
			origins[m.ID] = o
			rows = append(rows, m)
		}
	}
	rep.runAdded(ctx, gcfg, t, grep, rows, origins)
}

// digests asks one side's worker for a blind search's digests; nil when
// it did not answer with them.
func digests(ctx context.Context, ad gate.Adapter, target string, spec map[string]any) []string {
	r, err := ad.Call(ctx, gate.Call{ID: "differ", Unwatched: true, Target: target, Kwargs: map[string]any{"$explore": spec}})
	if err != nil || r.Outcome != gate.OutcomeReturned {
		return nil
	}
	m, _ := r.Value.(map[string]any)
	list, _ := m["digests"].([]any)
	out := make([]string, 0, len(list))
	for _, d := range list {
		s, ok := d.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// differingCalls are the first n indices, over the calls both sides made,
// whose digests differ; a call either side ran past its time ("") is no
// difference.
func differingCalls(head, base []string, n int) []int {
	var out []int
	for i := 0; i < min(len(head), len(base)) && len(out) < n; i++ {
		if head[i] != "" && base[i] != "" && head[i] != base[i] {
			out = append(out, i)
		}
	}
	return out
}

// ownTarget is the name t's rows call symbol by, among rows a search can
// change; "" when none.
func ownTarget(symbol string, t *validate.Table, origins map[string]lang.Origin) string {
	for _, r := range t.Rows {
		if origins[r.ID].Symbol == symbol && plainArgs(r) {
			return t.TargetOf(r)
		}
	}
	return ""
}

func containsSearch(ss []search, target string) bool {
	for _, s := range ss {
		if s.target == target {
			return true
		}
	}
	return false
}

// unionSorted is the words of a and b, each once, in order.
func unionSorted(a, b []string) []string {
	out := append(append([]string(nil), a...), b...)
	sort.Strings(out)
	return slices.Compact(out)
}
