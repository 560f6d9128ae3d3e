package python

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

func init() {
	lang.Register(func(d lang.Checkouts, perFunction int, probe bool) lang.Language {
		return &pythonLang{pf: &pyFiles{headDir: d.Head, baseDir: d.Base, perFunction: perFunction, probe: probe}}
	})
}

// pythonLang is Python's side of the seam: tree-sitter's reading of the
// changed files (pysource), rows that lead with what the repository's own
// doctests and tests call, receivers built from constructor calls, values
// written in Python's syntax, and the capabilities only Python has here
// (hash seeds, modules that do not import, the traced test run).
type pythonLang struct {
	pf *pyFiles
	// first is the run's first run of the base's tests on the base
	// (firstRun), which the traced inputs and the base's tests share.
	first *baseRun
}

func (*pythonLang) Name() string { return validate.LangPython }

func (*pythonLang) Signatures(src []byte) map[string]*lang.Signature {
	all, err := diffparse.PythonFuncParams(src)
	if err != nil {
		return nil
	}
	out := map[string]*lang.Signature{}
	for name, ps := range all {
		out[name] = pythonSignature(ps)
	}
	return out
}

func (*pythonLang) Infer(p lang.Param) lang.Type { return inferPython(p) }

// Statements are the file's statements as the worker's line tracer sees
// them run (coverage.go).
func (*pythonLang) Statements(src []byte) []lang.StmtLines {
	if src == nil {
		return nil
	}
	f, err := pysource.Parse("x.py", src)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []lang.StmtLines
	for _, s := range f.Statements() {
		out = append(out, lang.StmtLines{First: s.First, Last: s.Last, Def: s.Def})
	}
	return out
}

func (*pythonLang) ParamText(p lang.Param) string {
	if p.Type == "" {
		return p.Name
	}
	return p.Name + ": " + p.Type
}

func (*pythonLang) Owns(path string) bool { return strings.HasSuffix(path, ".py") }

// Locals are the dotted suffixes of symbol, longest first.
func (*pythonLang) Locals(symbol string) []string {
	parts := strings.Split(symbol, ".")
	out := make([]string, len(parts))
	for i := range parts {
		out[i] = strings.Join(parts[i:], ".")
	}
	return out
}

func (*pythonLang) Fits(sig *lang.Signature, args []any, kwargs map[string]any) string {
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

func (*pythonLang) Typed() bool { return false }

func (*pythonLang) DefaultValue(p lang.Param) (any, bool) { return pyDefaultValue(p.Default) }

func (*pythonLang) Public(name string) bool { return !strings.HasPrefix(name, "_") }

func (*pythonLang) DataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string) {
	return dataReaders(f)
}

func (l *pythonLang) File(f diffparse.File) any { return l.pf.parse(f) }

func (l *pythonLang) Complete(tg *lang.Target, f diffparse.File, file any, sigs map[string]*lang.Signature) string {
	pf, s, sig := l.pf, tg.Sym, tg.Sig
	if lang.InTestPath(f, isPyTestCode) {
		return lang.InTestFile
	}
	pyf, _ := file.(*pyFile)
	if pyf == nil {
		return ""
	}
	if pyf.head != nil && pyf.head.Declares(s.Local) && (pyf.base == nil || !pyf.base.HasDef(s.Local) || pyf.base.Declares(s.Local)) {
		return lang.Declaration
	}
	info := pf.info(pyf, s.Local)
	if len(sig.Params) == 0 && sig.Varargs == nil && s.Kind != "method" && !lang.BareCallable(lang.BareName(s.Local)) {
		return "it takes no parameters, and a call of " + lang.BareName(s.Local) + " runs a program, not a function"
	}
	tg.Data = info
	info.classValues = classParamValues(s, sig, sigs, pf, pyf)
	info.duckValues = duckValues(s, sig, sigs, pf, pyf, info)
	info.namedDefaults = namedDefaults(strings.TrimSuffix(s.Name, "."+s.Local), sig)
	info.text = tg.HeadText + "\n" + tg.BaseText
	if f.OldPath != "" && f.OldPath != f.Path {
		if oldMod, newMod := diffparse.PythonModule(f.OldPath), diffparse.PythonModule(f.Path); oldMod != newMod && strings.HasPrefix(s.Name, newMod+".") {
			tg.BaseName = oldMod + strings.TrimPrefix(s.Name, newMod)
		}
	}
	if s.Kind != "method" {
		return ""
	}
	switch {
	case isInit(s):
		// A changed constructor runs by calling its class: what it builds
		// (its repr, its fields) is the outcome compared.
		tg.Call = s.Name[:strings.LastIndex(s.Name, ".")]
		if tg.BaseName != "" {
			tg.BaseName = tg.BaseName[:strings.LastIndex(tg.BaseName, ".")]
		}
	case lang.ClassBound(pyf.head.Decorators(s.Local)):
		// A static or class method is called through its class, as a
		// function: Cls.m(x) and obj.m(x) in the tests are the same call
		// of it, and no receiver goes in front.
		for i := range info.harvested {
			info.harvested[i].Receiver, info.harvested[i].ReceiverCall = "", nil
		}
	default:
		lits := pyLiterals(*tg)
		n := receiverCount(*tg, max(pf.perFunction, lang.MaxReceivers))
		info.instances = testInstances(s, pf, pyf)
		tg.Receivers = receiversOf(s, info, lits, n)
		if len(tg.Receivers) < n {
			// The module's own objects of the class next.
			tg.Receivers = lang.DedupeValues(append(tg.Receivers, moduleReceivers(s, pyf, lits, min(n-len(tg.Receivers), maxModuleReceivers))...))
		}
		if len(tg.Receivers) < n {
			// The constructor's own parameters fill the rest.
			tg.Receivers = lang.DedupeValues(append(tg.Receivers, initReceivers(s, sigs, pf, pyf, lits, n-len(tg.Receivers))...))
		}
		if len(tg.Receivers) == 0 && !pf.probe {
			return "a method: no constructor call of its class in its doctests or tests to build a receiver from"
		}
		if seqs := sequenceReceivers(s, sigs, pf, pyf, tg.Receivers, lits); len(seqs) > 0 {
			// Objects built by a sequence of the class's own calls take
			// turns with the rest right after the first, so some of them
			// are among those every argument row is called on.
			tg.Receivers = append(tg.Receivers[:1:1], lang.Interleave([][]any{seqs, tg.Receivers[1:]})...)
		}
	}
	return ""
}

func (*pythonLang) Rows(ctx context.Context, tg lang.Target, templates []validate.Row, rng *rand.Rand, perFunction int) ([]validate.Row, map[string]string) {
	sourceOf := map[string]string{}
	note := func(pr lang.SourcedRow) {
		args, kwargs := pr.Row.CallArgs()
		if k := lang.CallKey(args, kwargs); sourceOf[k] == "" {
			sourceOf[k] = pr.Source
		}
	}
	switch {
	case tg.Receivers != nil:
		// A method: the templates know nothing of receivers; every row is
		// a call on an object the repository's own examples build.
		var rows []validate.Row
		for _, pr := range methodRows(tg, rng, perFunction) {
			note(pr)
			rows = append(rows, pr.Row)
		}
		return rows, sourceOf
	case pyOf(tg) == nil:
		return append(templates, lang.ValueRows(tg.Sig, lang.Literals(tg.BaseText, tg.HeadText))...), sourceOf
	case len(tg.Sig.Params) == 0 && tg.Sig.Varargs == nil && tg.Sig.Kwargs == nil && (tg.Sym.Kind != "method" || strings.HasSuffix(tg.Sym.Name, ".__init__")):
		// Nothing to vary: the one call there is shows what it returns
		// from its module's state (a constructor of no parameters: the
		// object it builds).
		r := lang.SignatureRow(tg.Sig, "no_arguments", nil)
		sourceOf[lang.CallKey(r.CallArgs())] = lang.SourceNoArguments
		return []validate.Row{r}, sourceOf
	}
	// What the code under review says comes first: harvested inputs lead
	// the rows, then the templates', then the generated and mutated ones.
	pyOf(tg).data = tg.DataLits
	py := pyValueRows(tg.Sig, pyOf(tg), pyLiterals(tg), rng, perFunction)
	var head, tail []validate.Row
	for _, pr := range py {
		note(pr)
		if lang.MadeUp(pr.Source) {
			tail = append(tail, pr.Row)
		} else {
			head = append(head, pr.Row)
		}
	}
	return append(append(head, templates...), tail...), sourceOf
}

// ParamTypes are the parameters' types as the rows' values are built
// (pyParamPools): the annotation, else what the docstring, a stub or the
// body's use of the parameter says (pysource.InferTypes).
func (l *pythonLang) ParamTypes(tg lang.Target) []lang.Type {
	info := pyOf(tg)
	if info == nil {
		return nil
	}
	out := make([]lang.Type, len(tg.Sig.Params))
	for i, p := range tg.Sig.Params {
		out[i] = l.Infer(p)
		if g, ok := info.guesses[p.Name]; ok && g.Known() && !out[i].Known() {
			out[i] = guessType(g)
		}
	}
	return out
}

func (*pythonLang) Receiver(tg lang.Target) (any, bool) {
	if len(tg.Receivers) > 0 {
		return tg.Receivers[0], true
	}
	return nil, true
}

func (*pythonLang) ModelRow(args []any, kwargs map[string]any) validate.Row {
	return methodRow("model", args, kwargs)
}

func (*pythonLang) CallText(args []any, kwargs map[string]any) string {
	return pyCallText(args, kwargs)
}

func (*pythonLang) Outcomes(base, head *gate.Reply, o lang.Origin) (string, string) {
	return pyDescribe(base, head, o.Probes)
}

func (l *pythonLang) Close() { l.pf.close() }

func (*pythonLang) Reseed(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) (int, []string, error) {
	return reseed(ctx, gcfg, t, grep)
}

func (*pythonLang) DropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, lang.ModuleFailure, bool) {
	return dropModule(ctx, cfg, t, modules, err)
}

func (l *pythonLang) Traced(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) (map[string][]lang.ModelCall, string) {
	return l.tracedCalls(ctx, cfg, targets)
}

func (*pythonLang) TracedRows(tg lang.Target, calls []lang.ModelCall) []validate.Row {
	return tracedRows(tg, calls)
}

func (*pythonLang) Probes(tg lang.Target) []any { return probesOf(pyOf(tg)) }

func (*pythonLang) Observe(r validate.Row, probes []any) validate.Row { return observed(r, probes) }

// importFailRe finds the module a Python worker could not import;
// resolveFailRe the target whose module imported without holding it.
var (
	importFailRe  = regexp.MustCompile(`\bimport ([A-Za-z_][\w.]*): `)
	resolveFailRe = regexp.MustCompile(`\bresolve ([A-Za-z_][\w.]*): `)
)

// dropModule takes out of t the rows of the Python module err says does not
// import, when other modules' rows remain: the rest, and why the module's
// rows were left out. ok is false when err names no such module.
func dropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, lang.ModuleFailure, bool) {
	if m := resolveFailRe.FindStringSubmatch(err.Error()); m != nil {
		return lang.DropFailing(ctx, cfg, t, modules, m[1], true, err)
	}
	if m := importFailRe.FindStringSubmatch(err.Error()); m != nil {
		return lang.DropFailing(ctx, cfg, t, modules, m[1], false, err)
	}
	return nil, lang.ModuleFailure{}, false
}

// Sources are the ways only this language makes inputs.
func (*pythonLang) Sources() []lang.Source {
	return []lang.Source{
		{Name: lang.SourceTraced, Doc: "a call the base's own test run made of the function, recorded by a profiler"},
		{Name: "doctest", Doc: "a call in the function's doctests, as written"},
		{Name: "parametrize", Doc: "a row of a pytest.mark.parametrize table reaching the function"},
		{Name: lang.SourceSameText, Doc: "the same text in two text parameters, and with its case flipped", Kinds: []string{lang.KindStr}},
		{Name: lang.SourceVarargs, Doc: "*args given none, one, two or three extra values of its kind"},
		{Name: lang.SourceKwargs, Doc: "**kwargs given the keys the body reads, each a value of the kind its name says", Kinds: []string{lang.KindDict}},
	}
}

// pyBugs are the exceptions a new function raises by its own fault: what
// it indexes, looks up, divides or binds, not what it refuses.
var pyBugs = map[string]bool{"IndexError": true, "KeyError": true, "ZeroDivisionError": true, "UnboundLocalError": true, "RecursionError": true, "AttributeError": true}

// wrongTypeRe is an AttributeError about a built-in value: an input of
// another type than the function takes, not a bug in it. An iterator
// over a builtin container (list_iterator, as premise passes iter([...]))
// is one too.
var wrongTypeRe = regexp.MustCompile(`^'(str|int|float|bool|list|dict|tuple|set|frozenset|bytes|NoneType|function|generator|[a-z]+_iterator)' object has no attribute`)

func (*pythonLang) Tokens(src []byte) []string { return tokens(src) }

// Words are the file's words for a blind search: the same as Tokens.
func (*pythonLang) Words(src []byte) []string { return tokens(src) }

func (*pythonLang) Bug(exc *gate.Exc) bool {
	return pyBugs[exc.Class] && !(exc.Class == "AttributeError" && wrongTypeRe.MatchString(exc.Message))
}

// StillBound: the head's module still binds the name (an import, an
// assignment, a re-export); for a method, its class is still defined and
// the method one every class has from object (__repr__, __eq__): a class
// that drops its own answers with object's.
func (*pythonLang) StillBound(_ diffparse.File, file any, local string) bool {
	pyf, _ := file.(*pyFile)
	if pyf == nil || pyf.head == nil {
		return false
	}
	if class, method, ok := strings.Cut(local, "."); ok {
		if strings.Contains(method, ".") || !pyf.head.Binds(class) {
			return false
		}
		return objectMethods[method] || inherited(pyf.head, class, method, 0)
	}
	return pyf.head.Binds(local)
}

// inherited says a class of f gets method from a base class f defines, or
// one of theirs: an override the patch deleted (or renamed, as
// httpagentparser's getVersion became get_version) leaves its callers
// calling the base class's method, which rows compare with the base's
// override.
func inherited(f *pysource.File, class, method string, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, b := range f.ClassBases(class) {
		if f.HasDef(b+"."+method) || inherited(f, b, method, depth+1) {
			return true
		}
	}
	return false
}

// objectMethods are the special methods every Python class has from
// object.
var objectMethods = map[string]bool{"__repr__": true, "__str__": true, "__format__": true, "__eq__": true, "__ne__": true,
	"__lt__": true, "__le__": true, "__gt__": true, "__ge__": true, "__hash__": true, "__dir__": true,
	"__sizeof__": true, "__reduce__": true, "__reduce_ex__": true, "__getstate__": true}

// isPyTestCode says a changed file is test code, whose functions are not
// judged: a file named for its tests or pytest's conftest.py, or one under
// a tests directory. A package's own test or testing module (django.test)
// is code its users call, and is judged.
func isPyTestCode(rel string) bool {
	base := rel[strings.LastIndex(rel, "/")+1:]
	if strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "tests.py" || base == "test.py" || base == "conftest.py" {
		return true
	}
	return slices.Contains(strings.Split(rel, "/"), "tests")
}

// StepExpr is expr, a harvested argument's source, with one literal a
// step away (pysource.StepLiterals): a doctest's packet cut short reaches
// the parser's error path no well-formed example does.
func (*pythonLang) StepExpr(expr string) []string {
	return pysource.StepLiterals(expr)
}
