package javascript

import (
	"sort"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// A method's receiver is often state its constructor alone never builds:
// a stack pushed twice and popped once, a cache whose key is already set.
// Such receivers are the built ones with a short sequence of the class's
// own methods called on them first ({"$new": ..., "$args": [...],
// "$then": [{"$call": "push", "$args": [1]}]}), as the Go and Python
// ones are (issue 24: inputs that reach the changed line).

// maxSequenceReceivers bounds the receivers built by a sequence of calls.
const maxSequenceReceivers = 12

// sequenceReceivers are receivers built from the first two of recvs by
// the class's methods that put something in and take something out, each
// declared on both sides of the change (sigs and baseSigs), in the
// sequences lang.Sequences says.
func (l *jsLang) sequenceReceivers(class string, sigs, baseSigs map[string]*lang.Signature, recvs []any, lits []string) []any {
	type stepper struct {
		name  string
		calls [][]any
	}
	var names []string
	for name := range sigs {
		if c, m, ok := lang.CutLast(name, "."); ok && c == class && baseSigs[name] != nil && !strings.HasPrefix(m, "#") {
			names = append(names, m)
		}
	}
	sort.Strings(names)
	var adders, takers []stepper
	for _, m := range names {
		sig := sigs[class+"."+m]
		add, take := lang.Puts(m), lang.Takes(m)
		if !add && !take || add && len(sig.Params) == 0 {
			continue
		}
		pools := make([][]any, len(sig.Params))
		for i, p := range sig.Params {
			pool := lang.Pool(l.Infer(p), lits)
			pools[i] = pool[:min(len(pool), 3)]
			if len(pools[i]) == 0 {
				pools[i] = []any{1, 2, 3}
			}
		}
		st := stepper{name: m}
		for k := 0; k < 3; k++ {
			args := make([]any, len(pools))
			for i, p := range pools {
				args[i] = p[min(k, len(p)-1)]
			}
			st.calls = append(st.calls, args)
		}
		switch {
		case add && len(adders) < 3:
			adders = append(adders, st)
		case take && len(takers) < 3:
			takers = append(takers, st)
		}
	}
	step := func(st lang.Step) any {
		s := adders
		if st.Take {
			s = takers
		}
		m := s[st.Method]
		return map[string]any{"$call": m.name, "$args": m.calls[st.K]}
	}
	var each [][]any
	for _, r := range recvs[:min(len(recvs), 2)] {
		b, ok := r.(map[string]any)
		if !ok || b["$new"] == nil {
			continue
		}
		var built []any
		for _, seq := range lang.Sequences(len(adders), len(takers)) {
			then := make([]any, len(seq))
			for i, st := range seq {
				then[i] = step(st)
			}
			built = append(built, map[string]any{"$new": b["$new"], "$args": b["$args"], "$then": then})
		}
		each = append(each, built)
	}
	out := lang.DedupeValues(lang.Interleave(each))
	return out[:min(len(out), maxSequenceReceivers)]
}
