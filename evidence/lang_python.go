package evidence

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

func init() {
	register(func(d checkouts, perFunction int, probe bool) language {
		return &pythonLang{pf: &pyFiles{headDir: d.head, baseDir: d.base, perFunction: perFunction, probe: probe}}
	})
}

// pythonLang is Python's side of the seam: tree-sitter's reading of the
// changed files (pysource), rows that lead with what the repository's own
// doctests and tests call, receivers built from constructor calls, values
// written in Python's syntax, and the capabilities only Python has here
// (hash seeds, modules that do not import, the traced test run).
type pythonLang struct{ pf *pyFiles }

func (*pythonLang) name() string { return validate.LangPython }

func (*pythonLang) signatures(src []byte) map[string]*Signature {
	all, err := diffparse.PythonFuncParams(src)
	if err != nil {
		return nil
	}
	out := map[string]*Signature{}
	for name, ps := range all {
		out[name] = pythonSignature(ps)
	}
	return out
}

func (*pythonLang) infer(p Param) Type { return inferPython(p) }

// statements are the file's statements as the worker's line tracer sees
// them run (coverage.go).
func (*pythonLang) statements(src []byte) []stmtLines {
	if src == nil {
		return nil
	}
	f, err := pysource.Parse("x.py", src)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []stmtLines
	for _, s := range f.Statements() {
		out = append(out, stmtLines{first: s.First, last: s.Last, def: s.Def})
	}
	return out
}

func (*pythonLang) paramText(p Param) string {
	if p.Type == "" {
		return p.Name
	}
	return p.Name + ": " + p.Type
}

func (*pythonLang) owns(path string) bool { return strings.HasSuffix(path, ".py") }

// locals are the dotted suffixes of symbol, longest first.
func (*pythonLang) locals(symbol string) []string {
	parts := strings.Split(symbol, ".")
	out := make([]string, len(parts))
	for i := range parts {
		out[i] = strings.Join(parts[i:], ".")
	}
	return out
}

func (*pythonLang) fits(sig *Signature, args []any, kwargs map[string]any) string {
	positional := 0
	for _, p := range sig.Params {
		if !p.KeywordOnly {
			positional++
		}
	}
	if sig.Varargs == nil && len(args) > positional {
		return fmt.Sprintf("it passes %d positional arguments; the function takes %d", len(args), positional)
	}
	n := 0
	for _, p := range sig.Params {
		given := !p.KeywordOnly && n < len(args)
		if !p.KeywordOnly {
			n++
		}
		if _, ok := kwargs[p.Name]; !ok && !given && p.Default == "" {
			return fmt.Sprintf("it leaves out %s, which has no default", p.Name)
		}
	}
	return ""
}

func (*pythonLang) typed() bool { return false }

func (*pythonLang) defaultValue(p Param) (any, bool) { return pyDefaultValue(p.Default) }

func (*pythonLang) public(name string) bool { return !strings.HasPrefix(name, "_") }

func (*pythonLang) dataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string) {
	return dataReaders(f)
}

func (l *pythonLang) file(f diffparse.File) any { return l.pf.parse(f) }

func (l *pythonLang) complete(tg *target, f diffparse.File, file any, sigs map[string]*Signature) string {
	pf, s, sig := l.pf, tg.sym, tg.sig
	pyf, _ := file.(*pyFile)
	if pyf == nil {
		return ""
	}
	info := pf.info(pyf, s.Local)
	if len(sig.Params) == 0 && sig.Varargs == nil && s.Kind != "method" && !bareCallable(bareName(s.Local)) {
		return "it takes no parameters, and a call of " + bareName(s.Local) + " runs a program, not a function"
	}
	tg.data = info
	info.classValues = classParamValues(s, sig, sigs, pf, pyf)
	info.text = tg.headText + "\n" + tg.baseText
	if f.OldPath != "" && f.OldPath != f.Path {
		if oldMod, newMod := diffparse.PythonModule(f.OldPath), diffparse.PythonModule(f.Path); oldMod != newMod && strings.HasPrefix(s.Name, newMod+".") {
			tg.baseName = oldMod + strings.TrimPrefix(s.Name, newMod)
		}
	}
	if s.Kind != "method" {
		return ""
	}
	switch {
	case isInit(s):
		// A changed constructor runs by calling its class: what it builds
		// (its repr, its fields) is the outcome compared.
		tg.call = strings.TrimSuffix(s.Name, ".__init__")
		if tg.baseName != "" {
			tg.baseName = strings.TrimSuffix(tg.baseName, ".__init__")
		}
	case classBound(pyf.head.Decorators(s.Local)):
		// A static or class method is called through its class, as a
		// function: Cls.m(x) and obj.m(x) in the tests are the same call
		// of it, and no receiver goes in front.
		for i := range info.harvested {
			info.harvested[i].Receiver, info.harvested[i].ReceiverCall = "", nil
		}
	default:
		lits := pyLiterals(*tg)
		n := receiverCount(*tg, max(pf.perFunction, maxReceivers))
		tg.receivers = receiversOf(s, info, lits, n)
		if len(tg.receivers) < n {
			// The constructor's own parameters fill the rest.
			tg.receivers = dedupeValues(append(tg.receivers, initReceivers(s, sigs, pf, pyf, lits, n-len(tg.receivers))...))
		}
		if len(tg.receivers) == 0 && !pf.probe {
			return "a method: no constructor call of its class in its doctests or tests to build a receiver from"
		}
	}
	return ""
}

func (*pythonLang) rows(ctx context.Context, tg target, templates []validate.Row, rng *rand.Rand, perFunction int) ([]validate.Row, map[string]string) {
	sourceOf := map[string]string{}
	note := func(pr pyRow) {
		args, kwargs := pr.row.CallArgs()
		if k := callText(args, kwargs); sourceOf[k] == "" {
			sourceOf[k] = pr.source
		}
	}
	switch {
	case tg.receivers != nil:
		// A method: the templates know nothing of receivers; every row is
		// a call on an object the repository's own examples build.
		var rows []validate.Row
		for _, pr := range methodRows(tg, rng, perFunction) {
			note(pr)
			rows = append(rows, pr.row)
		}
		return rows, sourceOf
	case pyOf(tg) == nil:
		return append(templates, valueRows(tg.sig, literals(tg.baseText, tg.headText))...), sourceOf
	case len(tg.sig.Params) == 0 && tg.sig.Varargs == nil && tg.sig.Kwargs == nil && tg.sym.Kind != "method":
		// Nothing to vary: the one call there is shows what it returns
		// from its module's state.
		r := signatureRow(tg.sig, "no_arguments", nil)
		sourceOf[callText(r.CallArgs())] = sourceNoArguments
		return []validate.Row{r}, sourceOf
	}
	// What the code under review says comes first: harvested inputs lead
	// the rows, then the templates', then the generated and mutated ones.
	py := pyValueRows(tg.sig, pyOf(tg), pyLiterals(tg), rng, perFunction)
	var head, tail []validate.Row
	for _, pr := range py {
		note(pr)
		if madeUp(pr.source) {
			tail = append(tail, pr.row)
		} else {
			head = append(head, pr.row)
		}
	}
	return append(append(head, templates...), tail...), sourceOf
}

// paramTypes are the parameters' types as the rows' values are built
// (pyParamPools): the annotation, else what the docstring, a stub or the
// body's use of the parameter says (pysource.InferTypes).
func (l *pythonLang) paramTypes(tg target) []Type {
	info := pyOf(tg)
	if info == nil {
		return nil
	}
	out := make([]Type, len(tg.sig.Params))
	for i, p := range tg.sig.Params {
		out[i] = l.infer(p)
		if g, ok := info.guesses[p.Name]; ok && g.Known() && !out[i].Known() {
			out[i] = guessType(g)
		}
	}
	return out
}

func (*pythonLang) receiver(tg target) (any, bool) {
	if len(tg.receivers) > 0 {
		return tg.receivers[0], true
	}
	return nil, true
}

func (*pythonLang) modelRow(args []any, kwargs map[string]any) validate.Row {
	return methodRow("model", args, kwargs)
}

func (*pythonLang) callText(args []any, kwargs map[string]any) string {
	return pyCallText(args, kwargs)
}

func (*pythonLang) outcomes(base, head *gate.Reply, o origin) (string, string) {
	return pyDescribe(base, head, o.probes)
}

func (l *pythonLang) close() { l.pf.close() }

// The capabilities only Python has here.

func (*pythonLang) reseed(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) (int, []string, error) {
	return reseed(ctx, gcfg, t, grep)
}

func (*pythonLang) dropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, moduleFailure, bool) {
	return dropModule(ctx, cfg, t, modules, err)
}

func (*pythonLang) traced(ctx context.Context, cfg TraceRun, targets []target) (map[string][]ModelCall, string) {
	return tracedCalls(ctx, cfg, targets)
}

func (*pythonLang) tracedRows(tg target, calls []ModelCall) []validate.Row {
	return tracedRows(tg, calls)
}

func (*pythonLang) probes(tg target) []any { return probesOf(pyOf(tg)) }

func (*pythonLang) observe(r validate.Row, probes []any) validate.Row { return observed(r, probes) }

// importFailRe finds the module a Python worker could not import;
// resolveFailRe the target whose module imported without holding it.
var (
	importFailRe  = regexp.MustCompile(`\bimport ([A-Za-z_][\w.]*): `)
	resolveFailRe = regexp.MustCompile(`\bresolve ([A-Za-z_][\w.]*): `)
)

// dropModule takes out of t the rows of the Python module err says does not
// import, when other modules' rows remain: the rest, and why the module's
// rows were left out. ok is false when err names no such module.
func dropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, moduleFailure, bool) {
	if m := resolveFailRe.FindStringSubmatch(err.Error()); m != nil {
		return dropFailing(ctx, cfg, t, modules, m[1], true, err)
	}
	if m := importFailRe.FindStringSubmatch(err.Error()); m != nil {
		return dropFailing(ctx, cfg, t, modules, m[1], false, err)
	}
	return nil, moduleFailure{}, false
}

// dropFailing is dropModule for a worker whose error named name: a
// module that does not import, or the target it was importing for, whose
// module's rows are left out; or, byTarget, a target its module does not
// hold, whose own rows alone are left out.
func dropFailing(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, name string, byTarget bool, err error) (*validate.Table, moduleFailure, bool) {
	mod := name
	if owner, ok := modules[mod]; ok && !byTarget {
		mod = owner
	}
	rest, cut := *t, *t
	rest.Rows, cut.Rows = nil, nil
	for _, r := range t.Rows {
		if byTarget && t.TargetOf(r) == mod || !byTarget && modules[t.TargetOf(r)] == mod {
			cut.Rows = append(cut.Rows, r)
		} else {
			rest.Rows = append(rest.Rows, r)
		}
	}
	if len(cut.Rows) == 0 || len(rest.Rows) == 0 {
		return nil, moduleFailure{}, false
	}
	rest.Target = rest.Rows[0].Target
	why := moduleFailure{module: mod, target: byTarget, text: t.Language + " rows: " + oneLine(err.Error())}
	why.headOnly = baseLoads(ctx, cfg, &cut)
	return &rest, why, true
}

// sources are the ways only this language makes inputs.
func (*pythonLang) sources() []Source {
	return []Source{
		{Name: sourceTraced, Doc: "a call the base's own test run made of the function, recorded by a profiler"},
		{Name: "doctest", Doc: "a call in the function's doctests, as written"},
		{Name: "parametrize", Doc: "a row of a pytest.mark.parametrize table reaching the function"},
		{Name: sourceSameText, Doc: "the same text in two text parameters, and with its case flipped", Kinds: []string{kindStr}},
		{Name: sourceVarargs, Doc: "*args given none, one, two or three extra values of its kind"},
		{Name: sourceKwargs, Doc: "**kwargs given the keys the body reads, each a value of the kind its name says", Kinds: []string{kindDict}},
	}
}

// pyBugs are the exceptions a new function raises by its own fault: what
// it indexes, looks up, divides or binds, not what it refuses.
var pyBugs = map[string]bool{"IndexError": true, "KeyError": true, "ZeroDivisionError": true, "UnboundLocalError": true, "RecursionError": true, "AttributeError": true}

// wrongTypeRe is an AttributeError about a built-in value: an input of
// another type than the function takes, not a bug in it.
var wrongTypeRe = regexp.MustCompile(`^'(str|int|float|bool|list|dict|tuple|set|frozenset|bytes|NoneType|function|generator)' object has no attribute`)

func (*pythonLang) bug(exc *gate.Exc) bool {
	return pyBugs[exc.Class] && !(exc.Class == "AttributeError" && wrongTypeRe.MatchString(exc.Message))
}

func (*pythonLang) stillBound(_ diffparse.File, file any, local string) bool {
	pyf, _ := file.(*pyFile)
	return pyf != nil && pyf.head != nil && pyf.head.Binds(local)
}
