package evidence

import (
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Inputs outside a parameter's type (issue 24, item 6). A difference seen
// only where an argument is of a kind no caller can pass (a list where the
// body calls the parameter, a string where it is annotated a list) is no
// change a reviewer must decide: both versions are free to do anything
// there. Such rows are listed apart, in Report.OutsideType, with the reason;
// a difference on well-typed inputs is always a change. A language that
// can tell (typer) says which argument is outside its parameter's type;
// one that cannot (Go, whose harness refuses an ill-typed value before the
// call) says nothing, and every difference is a change. The same holds
// of an input a private function's base crashed on (baseCrashed): no
// caller passes it and lives.

// targetsBySymbol indexes targets by their symbol's name.
func targetsBySymbol(targets []lang.Target) map[string]*lang.Target {
	out := map[string]*lang.Target{}
	for i := range targets {
		out[targets[i].Sym.Name] = &targets[i]
	}
	return out
}

// outside files c apart, in OutsideType, when its language says its input
// is outside a parameter's type, or when the base crashed on it in a
// private function (baseCrashed); it reports whether it did.
func (rep *Report) outside(langs lang.Languages, targets map[string]*lang.Target, c *Change) bool {
	tg := targets[c.Symbol]
	l := langs[c.lang()]
	if l == nil || tg == nil || c.Call == nil || projectsOwn(c) {
		return false
	}
	why := baseCrashed(l, *tg, c)
	if ty, ok := l.(lang.Typer); ok && why == "" {
		why = ty.OutsideType(*tg, c.Call.Args, c.Call.Kwargs)
	}
	if why == "" {
		why = bothRefused(l, c)
	}
	if why == "" {
		why = otherVersion(l, *tg, c)
	}
	if why == "" {
		why = retyped(l, *tg, c)
	}
	if why == "" {
		why = rep.reshaped(c)
	}
	if why == "" {
		return false
	}
	c.OutsideType = why
	rep.OutsideType = append(rep.OutsideType, *c)
	return true
}

// projectsOwn says a change's input is one the repository itself passes
// the function and the base takes: the base's tests called it so
// (traced), or a test or doctest writes the call, and the base returned.
// Whatever its type reads as, a caller passes it and uses the answer, and
// a difference there is a change a reviewer decides. One the base refused
// is a refusal the test may have wanted (m.apply([1], [2]) inside a try:
// except TypeError), and is judged by its type as any other.
func projectsOwn(c *Change) bool {
	if c.BaseOutcome == nil || c.BaseOutcome.Outcome != validate.OutcomeReturned {
		return false
	}
	switch c.Heuristic {
	case lang.SourceTraced, "test_call", "doctest", "parametrize":
		return true
	}
	return false
}

// lang is the language of the change's call.
func (c *Change) lang() string {
	if c.Call == nil {
		return ""
	}
	return c.Call.Language
}

// baseCrashed says why a change of a private function is on an input no
// caller passes: the base crashed there with an error that is a bug of
// its own (AttributeError on None, an index out of range, a runtime
// panic), never returned or took its process down, where the head
// returned. A caller that passed it would have
// crashed, so none relies on what the base did; the head's new answer is
// no change a reviewer must decide. A public function's callers are
// anyone, and a crash the head adds is always a change. "" otherwise.
func baseCrashed(l lang.Language, tg lang.Target, c *Change) string {
	if c.HeadOutcome == nil || c.BaseOutcome == nil ||
		(c.HeadOutcome.Outcome != validate.OutcomeReturned && c.HeadOutcome.Outcome != validate.OutcomeUnencodable) {
		return ""
	}
	var what string
	switch {
	case c.BaseOutcome.Outcome == validate.OutcomeTimeout:
		// It never returned: a caller that passed it would hang.
		what = "never returned"
	case c.BaseOutcome.Outcome == validate.OutcomeCrashed:
		// Its process died (Go's deadlock detector, a fatal error).
		what = "crashed its process"
	case c.baseExc == nil:
		return ""
	case !l.Bug(c.baseExc) && !l.Bug(&gate.Exc{Class: c.baseExc.Class}):
		// A crash by its message (a Go runtime error) or by its class
		// alone (an AttributeError, here also on a value of a built-in
		// type); anything else is a refusal callers may rely on.
		return ""
	default:
		what = "crashed on it (" + c.baseExc.Class + ")"
	}
	if private(l, tg) {
		return "the base " + what + " in " + lang.BareName(tg.Sym.Local) + ", which only its own package or module calls: no caller passes it and relies on what the base did"
	}
	return ""
}

// private says only tg's own package or module calls it: its name, or
// its class's, is not public.
func private(l lang.Language, tg lang.Target) bool {
	for _, part := range strings.Split(tg.Sym.Local, ".") {
		if !l.Public(lang.BareName(part)) {
			return true
		}
	}
	return false
}

// bothRefused says why a change is on an input both versions refuse for
// its type: each raised, in the runtime's own words, that an argument of
// the row (or an item of one) is of a type it does not take (None where
// the base's re.sub wants a string and the head's name.lower() a str: a
// TypeError against an AttributeError; [1, 2, 3] where a graph is wanted,
// whose items the base found not iterable and whose _adj the head found
// missing). Neither version takes the input; only the words of the
// refusal differ, and no caller passes it and relies on them. "" when
// either answered, or refused otherwise (an error the code raises itself
// is a refusal a caller may rely on, and a change).
func bothRefused(l lang.Language, c *Change) string {
	r, ok := l.(lang.Refuser)
	if !ok || c.baseExc == nil || c.headExc == nil || c.Call == nil ||
		c.BaseOutcome == nil || c.HeadOutcome == nil ||
		c.BaseOutcome.Outcome != validate.OutcomeRaised || c.HeadOutcome.Outcome != validate.OutcomeRaised {
		return ""
	}
	b := r.RefusedType(c.baseExc, c.Call.Args, c.Call.Kwargs)
	h := r.RefusedType(c.headExc, c.Call.Args, c.Call.Kwargs)
	switch {
	case b == "" || h == "":
		return ""
	case b != h:
		return "both versions refuse the row's arguments for their types (the base a " + b + ", the head a " + h + "; " + c.baseExc.Class + " against " + c.headExc.Class + "): only the words of the refusal differ"
	}
	return "both versions refuse its " + b + " argument for its type (" + c.baseExc.Class + " against " + c.headExc.Class + "): only the words of the refusal differ"
}

// otherVersion says why a change is code written for another version of
// its language, run under this one: a side raised an error that says the
// running interpreter lacks a name of that version (Python 2's long)
// which the base's module names and the patch gave no function that lacked
// it, as a module written for both
// does in the branches only the other version runs. Neither version is
// reached there by a caller on this interpreter. A name the base's module
// never had is the patch's, and its error a change.
func otherVersion(l lang.Language, tg lang.Target, c *Change) string {
	v, ok := l.(lang.Versioned)
	if !ok {
		return ""
	}
	for _, side := range []struct {
		name string
		exc  *gate.Exc
	}{{"base", c.baseExc}, {"head", c.headExc}} {
		if name := v.OtherVersion(tg, side.exc); name != "" {
			return "the " + side.name + " raised " + side.exc.Class + " for " + name + ", a name of another version of the language that the base's module reads, in no function the patch gave it: code written for that version ran under this one"
		}
	}
	return ""
}

// retyped says why a change of a private function is on an argument of
// the kind the patch stopped passing it: the patch renamed a parameter
// (ext to ext_data) of a function only its own package or module calls,
// and a side refuses an argument of the row for its type in the
// runtime's own words (the head's object of type 'Ext' has no len(), the
// base's 'list' object has no attribute 'data'). The function takes
// another kind of value there now, and the callers the patch
// changed to pass it are where a difference shows (they are targets of
// their own, entry.go). "" when no parameter was renamed, the function is
// public, or neither side refused the row's argument for its type.
func retyped(l lang.Language, tg lang.Target, c *Change) string {
	r, ok := l.(lang.Refuser)
	if !ok || c.Call == nil || tg.BaseSig == nil || tg.Sig == nil || !private(l, tg) {
		return ""
	}
	var renamed []string
	if len(tg.BaseSig.Params) == len(tg.Sig.Params) {
		for i, p := range tg.BaseSig.Params {
			if q := tg.Sig.Params[i]; p.Name != q.Name {
				renamed = append(renamed, "`"+p.Name+"` to `"+q.Name+"`")
			}
		}
	}
	if len(renamed) == 0 {
		return ""
	}
	for _, side := range []struct {
		name    string
		exc     *gate.Exc
		outcome *validate.Outcome
	}{{"head", c.headExc, c.HeadOutcome}, {"base", c.baseExc, c.BaseOutcome}} {
		if side.exc == nil || side.outcome == nil || side.outcome.Outcome != validate.OutcomeRaised {
			continue
		}
		if typ := r.RefusedType(side.exc, c.Call.Args, c.Call.Kwargs); typ != "" {
			return "the patch renamed " + strings.Join(renamed, ", ") + " in " + lang.BareName(tg.Sym.Local) + ", which only its own package or module calls, and the " + side.name + " refuses its " + typ + " argument for its type (" + side.exc.Class + "): the parameter takes another kind of value, and its callers show what the patch changed"
		}
	}
	return ""
}
