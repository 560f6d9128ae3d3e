package python

import (
	"math/rand"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A method's receiver is often state its constructor alone never builds:
// a stack pushed twice and popped once, a cache whose key is already set.
// Such receivers are the built ones with a short sequence of the class's
// own state-changing methods called on them first, as one expression:
// (lambda o: [o.push(1), o.push(2), o.pop(), o][-1])(Stack()) (issue 24:
// inputs that reach the changed line).

// maxSequenceReceivers bounds the receivers built by a sequence of calls.
const maxSequenceReceivers = 12

// stepper is a method a receiver's building calls, with the argument
// lists it is called with, as source.
type stepper struct {
	name  string
	calls []string
}

// sequenceReceivers are receivers built from the first two of recvs by
// the class's methods that put something in and take something out (each
// on both sides of the change), in the sequences lang.Sequences says.
func sequenceReceivers(s diffparse.Symbol, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile, recvs []any, lits []string) []any {
	cls, method, ok := lang.CutLast(s.Local, ".")
	if !ok || pyf == nil || pyf.base == nil || pyf.head == nil {
		return nil
	}
	var names []string
	for name := range sigs {
		if c, m, ok := lang.CutLast(name, "."); ok && c == cls && !strings.HasPrefix(m, "__") {
			names = append(names, m)
		}
	}
	sort.Strings(names)
	rng := rand.New(rand.NewSource(int64(len(s.Name))))
	var adders, takers []stepper
	for _, m := range names {
		if !pyf.base.HasDef(cls+"."+m) || lang.ClassBound(pyf.head.Decorators(cls+"."+m)) {
			continue
		}
		add, take := lang.Puts(m), lang.Takes(m)
		sig := sigs[cls+"."+m]
		if !add && !take || add && len(sig.Params) == 0 || m == method && !add {
			// Neither puts nor takes, puts nothing, or is the method
			// judged and does not put (a setter judged is a step: a key
			// set before it is set again).
			continue
		}
		st := stepper{name: m}
		seen := map[string]bool{}
		for _, pr := range pyValueRows(sig, pf.info(pyf, cls+"."+m), lits, rng, 12) {
			if !lang.MadeUp(pr.Source) {
				continue
			}
			args, kwargs := pr.Row.CallArgs()
			src, imports := pyCallSource(args, kwargs)
			if len(imports) > 0 || seen[src] || len(st.calls) >= 3 {
				continue // an argument needing imports stays out of a receiver's building
			}
			seen[src] = true
			st.calls = append(st.calls, src)
		}
		if len(st.calls) == 0 && bare(sig) {
			st.calls = []string{"()"}
		}
		if len(st.calls) == 0 {
			continue
		}
		switch {
		case add && len(adders) < 3:
			adders = append(adders, st)
		case take && len(takers) < 3:
			takers = append(takers, st)
		}
	}
	call := func(st lang.Step) string {
		s := adders
		if st.Take {
			s = takers
		}
		m := s[st.Method]
		return "o." + m.name + m.calls[min(st.K, len(m.calls)-1)]
	}
	var each [][]any
	for _, r := range recvs[:min(len(recvs), 2)] {
		e, ok := r.(map[string]any)
		src, _ := e[lang.ExprKey].(string)
		if !ok || src == "" {
			continue
		}
		var built []any
		for _, seq := range lang.Sequences(len(adders), len(takers)) {
			steps := make([]string, len(seq))
			for i, st := range seq {
				steps[i] = call(st)
			}
			b := map[string]any{lang.ExprKey: "(lambda o: [" + strings.Join(steps, ", ") + ", o][-1])(" + src + ")"}
			if im, ok := e[lang.ImportsKey]; ok {
				b[lang.ImportsKey] = im
			}
			built = append(built, b)
		}
		each = append(each, built)
	}
	out := lang.DedupeValues(lang.Interleave(each))
	return out[:min(len(out), maxSequenceReceivers)]
}
