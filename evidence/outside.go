package evidence

import "github.com/premise-dev/premise/evidence/lang"

// Inputs outside a parameter's type (issue 24, item 6). A difference seen
// only where an argument is of a kind no caller can pass (a list where the
// body calls the parameter, a string where it is annotated a list) is no
// change a reviewer must decide: both versions are free to do anything
// there. Such rows are listed apart, in Report.OutsideType, with the reason;
// a difference on well-typed inputs is always a change. A language that
// can tell (typer) says which argument is outside its parameter's type;
// one that cannot (Go, whose harness refuses an ill-typed value before the
// call) says nothing, and every difference is a change.

// targetsBySymbol indexes targets by their symbol's name.
func targetsBySymbol(targets []lang.Target) map[string]*lang.Target {
	out := map[string]*lang.Target{}
	for i := range targets {
		out[targets[i].Sym.Name] = &targets[i]
	}
	return out
}

// outside files c apart, in OutsideType, when its language says its input
// is outside a parameter's type; it reports whether it did.
func (rep *Report) outside(langs lang.Languages, targets map[string]*lang.Target, c *Change) bool {
	tg := targets[c.Symbol]
	ty, ok := langs[c.lang()].(lang.Typer)
	if !ok || tg == nil || c.Call == nil {
		return false
	}
	why := ty.OutsideType(*tg, c.Call.Args, c.Call.Kwargs)
	if why == "" {
		return false
	}
	c.OutsideType = why
	rep.OutsideType = append(rep.OutsideType, *c)
	return true
}

// lang is the language of the change's call.
func (c *Change) lang() string {
	if c.Call == nil {
		return ""
	}
	return c.Call.Language
}
