package evidence

// Inputs outside a parameter's type (issue 24, item 6). A difference seen
// only where an argument is of a kind no caller can pass (a list where the
// body calls the parameter, a string where it is annotated a list) is no
// change a reviewer must decide: both versions are free to do anything
// there. Such rows are listed apart, in Report.OutsideType, with the reason;
// a difference on well-typed inputs is always a change. A language that
// can tell (typer) says which argument is outside its parameter's type;
// one that cannot (Go, whose harness refuses an ill-typed value before the
// call) says nothing, and every difference is a change.

// typer is a language that can tell an argument outside its parameter's
// type as the code reads it.
type typer interface {
	// outsideType names the first argument of a row outside its
	// parameter's type, and why ("`key` is called, and got [1, 2]"); ""
	// when every argument is of its type or nothing is known.
	outsideType(tg target, args []any, kwargs map[string]any) string
}

// targetsBySymbol indexes targets by their symbol's name.
func targetsBySymbol(targets []target) map[string]*target {
	out := map[string]*target{}
	for i := range targets {
		out[targets[i].sym.Name] = &targets[i]
	}
	return out
}

// outside files c apart, in OutsideType, when its language says its input
// is outside a parameter's type; it reports whether it did.
func (rep *Report) outside(langs languages, targets map[string]*target, c *Change) bool {
	tg := targets[c.Symbol]
	ty, ok := langs[c.lang()].(typer)
	if !ok || tg == nil || c.Call == nil {
		return false
	}
	why := ty.outsideType(*tg, c.Call.Args, c.Call.Kwargs)
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
