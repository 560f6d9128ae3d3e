package evidence

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// A function the head adds has no base to compare with, but it can still
// fail: its rows run on the head alone, and a raise of a kind that is a
// bug in the function (language.bug: an index out of range, a missing key,
// a division by zero, a nil map written) rather than a refusal of its
// input is a finding a reviewer decides (Report.NewFunctions, Change.New):
// not a behaviour change, since there was none before. Rows with None or nil among their
// arguments are left out of the findings: a new function may refuse them;
// so are private helpers (their callers decide what reaches them), whose
// rows still run.

// maxNewFindings bounds the findings of one new function: the smallest
// input of each kind of raise.
const maxNewFindings = 3

// runNew runs the rows of the functions the head adds on the head alone
// and files the bugs they raise. A table that cannot load is Skipped.
func (rep *Report) runNew(ctx context.Context, clock *rowClock, cfg Config, l lang.Language, t *validate.Table, origins map[string]lang.Origin) error {
	planned := t
	t.Target = t.Rows[0].Target
	gcfg := cfg.Gate
	gcfg.Repo, gcfg.Base, gcfg.BaseDir, gcfg.Lang = cfg.HeadDir, "", "", t.Language
	gcfg.Private = true
	gcfg.Watch, _ = watches(rep.plans, t.Language)
	gcfg.Reruns, gcfg.Budget, gcfg.Freezes = 1, len(t.Rows), nil
	gcfg.Progress = rowProgress(cfg.Progress, len(t.Rows))
	if gcfg.Timeout == 0 || gcfg.Timeout > callTimeout {
		gcfg.Timeout = callTimeout
	}
	gcfg.TargetClock = clock.functions
	grep, err := gate.Run(clock.ctx, gcfg, t)
	if clock.out(ctx) {
		if !rep.outOfTime(clock, planned, grep, origins) {
			return nil
		}
		err = nil
	}
	var infra *gate.InfraError
	switch {
	case errors.As(err, &infra):
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s rows of new functions: %s", t.Language, lang.OneLine(err.Error())))
		return nil
	case err != nil:
		return fmt.Errorf("evidence rows of new functions (%s): %w", t.Language, err)
	}
	rep.Rows += ranRows(grep)
	rep.ran.add(grep)
	rep.cutOff(clock, t, grep, origins)
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	// The smallest input of each symbol's each kind of raise.
	type key struct{ symbol, class string }
	best := map[key]Change{}
	size := map[key]int{}
	for _, rr := range grep.Rows {
		if len(rr.Attempts) == 0 {
			continue
		}
		reply := rr.Attempts[len(rr.Attempts)-1].Reply
		if reply.Outcome != gate.OutcomeRaised || reply.Exc == nil || !l.Bug(reply.Exc) {
			continue
		}
		row := rows[rr.ID]
		args, kwargs := row.CallArgs()
		if holdsNil(args, kwargs) {
			continue
		}
		o := origins[rr.ID]
		if !l.Public(lang.BareName(o.Symbol)) {
			// A private helper's callers decide what reaches it.
			continue
		}
		k := key{o.Symbol, reply.Exc.Class}
		if n := rowSize(row); size[k] == 0 || n < size[k] {
			_, head := l.Outcomes(nil, &reply, o)
			if reply.Exc.Message != "" {
				head += ": " + lang.OneLine(reply.Exc.Message)
			}
			size[k] = n + 1
			best[k] = Change{Row: rr.ID, Symbol: o.Symbol, Class: "new_function_raised", Input: l.CallText(args, kwargs),
				Base: "did not exist (new on the head)", Head: head, Source: o.Source, Heuristic: heuristic(o.Source), New: true}
		}
	}
	keys := make([]key, 0, len(best))
	for k := range best {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].symbol != keys[j].symbol {
			return keys[i].symbol < keys[j].symbol
		}
		return size[keys[i]] < size[keys[j]]
	})
	per := map[string]int{}
	for _, k := range keys {
		if per[k.symbol] < maxNewFindings {
			per[k.symbol]++
			rep.NewFunctions = append(rep.NewFunctions, best[k])
		}
	}
	return nil
}

// holdsNil says a call passes None or nil, at the top or inside a list.
func holdsNil(args []any, kwargs map[string]any) bool {
	var walk func(v any, depth int) bool
	walk = func(v any, depth int) bool {
		switch v := v.(type) {
		case nil:
			return true
		case []any:
			if depth < 2 {
				for _, x := range v {
					if walk(x, depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	for _, a := range args {
		if walk(a, 0) {
			return true
		}
	}
	for _, a := range kwargs {
		if walk(a, 0) {
			return true
		}
	}
	return false
}
