package python

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/validate"
)

const maxVariedReceivers = 60

// receiverCount is how many receivers a method's rows are spread over:
// the budget shared between the receivers and the rows each takes.
func receiverCount(tg lang.Target, budget int) int {
	if len(tg.Sig.Params) > 0 || tg.Sig.Varargs != nil {
		// Each receiver takes the typical call first; the rest of the
		// budget goes to the first receivers' argument rows.
		return max(lang.MaxReceivers, min(maxVariedReceivers, budget/5))
	}
	// No parameters: the receiver is the whole input.
	return max(lang.MaxReceivers, min(maxVariedReceivers, budget))
}

// receiversOf are the objects a changed Python method can be called on:
// the constructor calls its doctests and tests make (Bits(4, 2),
// Version.parse("1.0")), as expressions the worker evaluates with the
// method's module in scope (issue 13, part 6), then those calls with one
// literal argument mutated as any harvested value is, up to n in all. The
// worker calls the method as Class.method(obj, ...), so the object is the
// row's first argument.
func receiversOf(s diffparse.Symbol, info *pyInfo, lits []string, n int) []any {
	if info == nil {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	seen := map[string]bool{}
	var out []any
	add := func(src string, imports []string) {
		if !seen[src] && len(out) < n {
			seen[src] = true
			out = append(out, receiverExpr(module, src, imports))
		}
	}
	for _, in := range info.harvested {
		if in.Receiver != "" {
			add(in.Receiver, in.Imports)
		}
	}
	// The objects of the class the tests build and fill, whatever they
	// call on them next.
	for _, in := range info.instances {
		add(in.Receiver, in.Imports)
	}
	for _, in := range info.harvested {
		c := in.ReceiverCall
		if c == nil {
			continue
		}
		for i, a := range c.Args {
			v, ok := pyLiteral(a)
			if !ok {
				continue
			}
			for _, m := range lang.Mutate(v, lits) {
				args := append([]string(nil), c.Args...)
				args[i] = pyRepr(m, 0)
				add((&pysource.Call{Callee: c.Callee, Args: args, Kwargs: c.Kwargs}).String(), in.Imports)
			}
		}
	}
	return out
}

// maxInstances bounds the objects of a method's class that the tests
// build taken as its receivers.
const maxInstances = 6

// testInstances are the objects of a method's class that the merge-base's
// tests build and fill (pysource.Instances): a head's test decides no
// input the base's worker runs (issue 26).
func testInstances(s diffparse.Symbol, pf *pyFiles, pyf *pyFile) []pysource.Input {
	cls, _, ok := lang.CutLast(s.Local, ".")
	if !ok || pyf == nil || pyf.head == nil {
		return nil
	}
	src := pyf.head
	if pyf.base != nil {
		src = pyf.base
	}
	key := src.Module() + "\x00" + cls
	if got, ok := pf.instances[key]; ok {
		return got
	}
	var fromBase []*pysource.File
	for _, t := range pf.testFiles() {
		if !pf.headText[t] {
			fromBase = append(fromBase, t)
		}
	}
	got := pysource.Instances(src, cls, fromBase, maxInstances)
	if pf.instances == nil {
		pf.instances = map[string][]pysource.Input{}
	}
	pf.instances[key] = got
	return got
}

// receiverExpr is a receiver's expression with the method's module's names
// in scope: a test writes Bits(4, 2) after importing Bits its own way.
func receiverExpr(module, src string, imports []string) any {
	scope := fmt.Sprintf("globals().update(vars(__import__(%q, fromlist=['_'])))", module)
	return pyArg(src, append([]string{scope}, imports...))
}

// methodRows are a method's rows: each harvested call on its own receiver,
// then the function rows (one parameter at a time, mutations, pairs) on
// each receiver in turn.
func methodRows(tg lang.Target, rng *rand.Rand, budget int) []lang.SourcedRow {
	module := strings.TrimSuffix(tg.Sym.Name, "."+tg.Sym.Local)
	var rows []lang.SourcedRow
	for _, in := range pyOf(tg).harvested {
		if in.Receiver == "" {
			continue
		}
		args := []any{receiverExpr(module, in.Receiver, in.Imports)}
		for _, a := range in.Args {
			args = append(args, pyArg(a, in.Imports))
		}
		var kwargs map[string]any
		for k, a := range in.Kwargs {
			if kwargs == nil {
				kwargs = map[string]any{}
			}
			kwargs[k] = pyArg(a, in.Imports)
		}
		rows = append(rows, lang.SourcedRow{Row: methodRow("harvested_"+in.Kind, args, kwargs), Source: in.Kind + " " + in.Pos})
	}
	rows = append(rows, pairRows(tg)...)
	if info := pyOf(tg); info != nil {
		info.data = tg.DataLits
	}
	generated := pyValueRows(tg.Sig, pyOf(tg), pyLiterals(tg), rng, budget)
	// Every receiver first with the call most callers make (none when
	// every parameter has a default, else the typical arguments): the
	// object's state is as often what the patch narrowed as the
	// arguments are.
	var typical *lang.SourcedRow
	for i := range generated {
		if lang.MadeUp(generated[i].Source) && generated[i].Source != lang.SourceMutation {
			typical = &generated[i]
			break
		}
	}
	for _, recv := range tg.Receivers {
		switch {
		case bare(tg.Sig):
			rows = append(rows, lang.SourcedRow{Row: methodRow("receiver_only", []any{recv}, nil), Source: lang.SourceReceiver})
		case typical != nil:
			args, kwargs := typical.Row.CallArgs()
			rows = append(rows, lang.SourcedRow{Row: methodRow("receiver_varied", append([]any{recv}, args...), kwargs), Source: lang.SourceReceiver})
		}
	}
	for _, recv := range tg.Receivers {
		if bare(tg.Sig) {
			// Every parameter has a default (or there is none): the call
			// with none is the one most callers make.
			rows = append(rows, lang.SourcedRow{Row: methodRow("receiver_only", []any{recv}, nil), Source: lang.SourceReceiver})
		}
		for _, pr := range generated {
			if !lang.MadeUp(pr.Source) {
				continue
			}
			args, kwargs := pr.Row.CallArgs()
			rows = append(rows, lang.SourcedRow{Row: methodRow(pr.Row.Cls, append([]any{recv}, args...), kwargs), Source: pr.Source})
		}
	}
	rows = dedupePy(rows)
	if len(rows) > budget {
		rows = rows[:budget]
	}
	return rows
}

// maxPairs bounds the receiver pairs an operator method is called on.
const maxPairs = 64

// pairRows call a method that takes another object of its class (an
// operator: __eq__, __lt__, __add__; a parameter named other or annotated
// with the class) on pairs of receivers, each with itself too: two
// versions compared, added, merged (issue 13, part 6).
func pairRows(tg lang.Target) []lang.SourcedRow {
	if len(tg.Sig.Params) == 0 || len(tg.Receivers) < 2 {
		return nil
	}
	cls, method, _ := lang.CutLast(tg.Sym.Local, ".")
	if _, c, ok := lang.CutLast(cls, "."); ok {
		cls = c
	}
	p := tg.Sig.Params[0]
	t := strings.Trim(strings.TrimSpace(p.Type), `"'`)
	if !operators[method] && p.Name != "other" && t != cls && t != "Self" && !strings.HasSuffix(t, "."+cls) {
		return nil
	}
	var rows []lang.SourcedRow
	for _, a := range tg.Receivers {
		for _, b := range tg.Receivers {
			if len(rows) < maxPairs {
				rows = append(rows, lang.SourcedRow{Row: methodRow("receiver_pair", []any{a, b}, nil), Source: lang.SourceReceiver})
			}
		}
	}
	return rows
}

// operators are the dunder methods whose first parameter is the other
// operand.
var operators = map[string]bool{"__eq__": true, "__ne__": true, "__lt__": true, "__le__": true, "__gt__": true, "__ge__": true,
	"__add__": true, "__sub__": true, "__mul__": true, "__and__": true, "__or__": true, "__xor__": true,
	"__radd__": true, "__rsub__": true, "__cmp__": true}

func methodRow(cls string, args []any, kwargs map[string]any) validate.Row {
	return validate.Row{Cls: cls, Kind: validate.KindBoundary, Relation: "the head must behave as the base does",
		AssumptionIDs: []string{"S000"}, Args: args, Kwargs: kwargs}
}

// isInit says s is a class's constructor.
// isInit says s builds its class's objects: its __init__, or the
// __new__ of a class whose objects are values of an immutable built-in
// type (class Quantity(float)), which calling the class runs first.
func isInit(s diffparse.Symbol) bool {
	return strings.HasSuffix(s.Local, ".__init__") || strings.HasSuffix(s.Local, ".__new__")
}

// valueBases are the built-in classes whose subclasses are built from
// one of their values (class Markup(str)), by the Python type premise
// builds values of.
var valueBases = map[string]string{"str": "str", "int": "int", "float": "float", "bytes": "str",
	"list": "list", "tuple": "list", "dict": "dict", "set": "list", "frozenset": "list"}

// initReceivers build objects for a method no doctest or test constructs
// its class for: the class called with values for its __init__'s
// parameters, as the function rows would vary them, with the method's own
// literals among the values (issue 13, part 6). A subclass of a built-in
// value (str, int, tuple) with no __init__ is built from values of that
// type, and a class with only __new__ from __new__'s parameters; its
// class methods (Range.empty(), Version.parse(...)) build objects too. n
// are taken, in turn from each constructor, spread over its calls so that
// each parameter varies. A receiver
// whose construction raises makes its rows raise alike on both sides
// unless the patch changed the class; nothing is counted from it.
func initReceivers(s diffparse.Symbol, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile, lits []string, n int) []any {
	cls, method, ok := lang.CutLast(s.Local, ".")
	if !ok || pyf == nil {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	var ctors []ctor
	switch {
	case sigs[cls+".__init__"] != nil:
		ctors = append(ctors, ctor{cls, sigs[cls+".__init__"], pf.info(pyf, cls+".__init__")})
	case dataclassInit(pyf, cls) != nil:
		// A dataclass's __init__ is generated from its fields.
		ctors = append(ctors, ctor{cls, dataclassInit(pyf, cls), &pyInfo{guesses: map[string]pysource.Guess{}}})
	case valueBase(pyf, cls) != "":
		ctors = append(ctors, ctor{cls, &lang.Signature{Language: "python", Params: []lang.Param{{Name: "value", Type: valueBase(pyf, cls)}}},
			&pyInfo{guesses: map[string]pysource.Guess{}}})
	case sigs[cls+".__new__"] != nil:
		ctors = append(ctors, ctor{cls, sigs[cls+".__new__"], pf.info(pyf, cls+".__new__")})
	}
	// A class's alternative constructors (Range.empty(), Version.parse)
	// build objects too, where __new__ refuses to.
	for _, m := range pyf.head.ClassMethods(cls) {
		if sig := sigs[cls+"."+m]; sig != nil && m != method {
			ctors = append(ctors, ctor{cls + "." + m, sig, pf.info(pyf, cls+"."+m)})
		}
	}
	ctors = append(ctors, subclassCtors(cls, sigs, pf, pyf)...)
	rng := rand.New(rand.NewSource(int64(len(s.Name))))
	type built struct {
		src     string
		imports []string
	}
	var lists [][]built
	seen := map[string]bool{}
	for _, c := range ctors {
		var calls []built
		for _, pr := range pyValueRows(c.sig, c.info, lits, rng, 8*n) {
			args, kwargs := pr.Row.CallArgs()
			src, im := pyCallSource(args, kwargs)
			if !seen[c.callee+src] {
				seen[c.callee+src] = true
				calls = append(calls, built{c.callee + src, im})
			}
		}
		if len(calls) == 0 && bare(c.sig) {
			calls = append(calls, built{c.callee + "()", nil})
		}
		picks := spread(len(calls), n)
		if len(c.sig.Params) <= 1 {
			// One parameter: the calls come in the order its pool ranks them.
			picks = spread(min(len(calls), n), n)
		}
		var l []built
		for _, i := range picks {
			l = append(l, calls[i])
		}
		lists = append(lists, l)
	}
	var out []any
	for k := 0; len(out) < n; k++ {
		took := false
		for _, l := range lists {
			if k < len(l) && len(out) < n {
				out, took = append(out, receiverExpr(module, l[k].src, l[k].imports)), true
			}
		}
		if !took {
			break
		}
	}
	if len(out) == 0 {
		// No constructor premise can call with values: the call with none
		// is still an object when its parameters all have defaults, or
		// when the class has no constructor of its own.
		return []any{receiverExpr(module, cls+"()", nil)}
	}
	return out
}

// ctor is one way to build a class's objects: the callee (the class, a
// class method, a subclass) and the signature its arguments follow.
type ctor struct {
	callee string
	sig    *lang.Signature
	info   *pyInfo
}

// subclassCtors are the constructors of the classes of the file derived
// from cls: a method of cls is a method of theirs, and a class meant only
// to be derived from (bitmath's Bitmath, whose setup raises
// NotImplementedError) builds no object itself, so its methods run only
// on its subclasses' objects. Such a class gives maxSubclassCtors of them;
// another, whose own objects come first, one. Each is built by its own
// __init__, or the nearest one it inherits from a class of the file.
func subclassCtors(cls string, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile) []ctor {
	n := 1
	if pyf.head.Abstract(cls) {
		n = maxSubclassCtors
	}
	var out []ctor
	for _, d := range pyf.head.Subclasses(cls) {
		if len(out) == n {
			break
		}
		if pyf.head.Abstract(d) {
			continue
		}
		for c, hops := d, 0; c != "" && hops < 8; hops++ {
			if sig := sigs[c+".__init__"]; sig != nil {
				out = append(out, ctor{d, sig, pf.info(pyf, c+".__init__")})
				break
			}
			bases := pyf.head.ClassBases(c)
			if len(bases) == 0 {
				break
			}
			c = bases[0]
		}
	}
	return out
}

// maxSubclassCtors bounds the subclasses a class meant to be derived from
// builds its methods' receivers with.
const maxSubclassCtors = 3

// valueBase is the Python type a class's objects are built from when it
// subclasses a built-in value, "" when it does not.
func valueBase(pyf *pyFile, cls string) string {
	for _, b := range pyf.head.ClassBases(cls) {
		if t, ok := valueBases[strings.TrimPrefix(b, "builtins.")]; ok {
			return t
		}
	}
	return ""
}

// maxClassValues bounds the objects built for one parameter.
const maxClassValues = 12

// classParamValues are, for each parameter of sig annotated with a class
// the module defines (order: Order, Optional["Order"]), objects of that
// class built from its __init__, its dataclass fields or its alternative
// constructors, as a method's receivers are; nil when no parameter names
// one.
func classParamValues(s diffparse.Symbol, sig *lang.Signature, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile) map[string][]any {
	if pyf == nil || pyf.head == nil {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	var out map[string][]any
	for _, p := range sig.Params {
		cls := strings.Trim(strings.TrimSpace(p.Type), `"'`)
		if i := strings.Index(cls, "["); i >= 0 && strings.HasPrefix(cls, "Optional[") {
			cls = strings.Trim(cls[i+1:len(cls)-1], `"' `)
		}
		cls = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(cls, "| None")), " ")
		if cls == "" || !isIdent(cls) {
			continue
		}
		if !pyf.head.HasClass(cls) {
			continue
		}
		vals := classObjects(module, cls, sigs, pf, pyf, maxClassValues)
		if len(vals) == 0 {
			continue
		}
		if out == nil {
			out = map[string][]any{}
		}
		out[p.Name] = vals
	}
	return out
}

// isIdent says s is a Python name, dotted for a nested class.
func isIdent(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// dataclassInit is the signature of a dataclass's generated __init__, its
// fields in order; nil for a class that is not one, or has no fields.
func dataclassInit(pyf *pyFile, cls string) *lang.Signature {
	fields, ok := pyf.head.DataclassFields(cls)
	if !ok || len(fields) == 0 {
		return nil
	}
	sig := &lang.Signature{Language: "python"}
	for _, f := range fields {
		sig.Params = append(sig.Params, lang.Param{Name: f.Name, Type: f.Type, Default: f.Default})
	}
	return sig
}

// spread picks n of len indexes: the first n/2, then the rest evenly
// apart: generated calls come a parameter at a time, so the first few vary
// only the first parameter.
func spread(length, n int) []int {
	if length <= n {
		out := make([]int, length)
		for i := range out {
			out[i] = i
		}
		return out
	}
	// The first calls hold the typical values and the first parameter's
	// edges (an empty list, a zero): half the picks are those; the rest
	// are spread over the others, so every parameter's pool is reached
	// however long the pools grow.
	head := n / 2
	out := make([]int, n)
	for i := range out {
		if i < head {
			out[i] = i
		} else {
			out[i] = head + (i-head)*(length-head)/(n-head)
		}
	}
	return out
}

// pyCallSource writes a call's arguments as Python source, whole, with the
// imports the harvested expressions among them need.
func pyCallSource(args []any, kwargs map[string]any) (string, []string) {
	var imports []string
	note := func(v any) {
		if m, ok := v.(map[string]any); ok {
			if im, ok := m[lang.ImportsKey].([]any); ok {
				for _, s := range im {
					if s, ok := s.(string); ok {
						imports = append(imports, s)
					}
				}
			}
		}
	}
	var parts []string
	for _, a := range args {
		note(a)
		parts = append(parts, pyRepr(a, 0))
	}
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "$") {
			continue
		}
		note(kwargs[k])
		parts = append(parts, k+"="+pyRepr(kwargs[k], 0))
	}
	return "(" + strings.Join(parts, ", ") + ")", imports
}

// bare says a function can be called with no arguments.
func bare(sig *lang.Signature) bool {
	for _, p := range sig.Params {
		if p.Default == "" && !strings.HasPrefix(p.Name, "*") {
			return false
		}
	}
	return true
}

// maxModuleBuilt bounds the module's own constructions of a class read
// for receivers; maxModuleReceivers those taken.
const (
	maxModuleBuilt     = 512
	maxModuleReceivers = 4
)

// moduleReceivers are objects of a method's class that its own module
// (at the merge-base) builds with literal arguments (PyMySQL's table of Charset(5, 'latin1',
// 'latin1_swedish_ci', ”) rows), those holding one of the method's words
// (lits) first, at most n: the values the code itself runs on, which no
// pool of the constructor's parameters makes.
func moduleReceivers(s diffparse.Symbol, pyf *pyFile, lits []string, n int) []any {
	cls, _, ok := lang.CutLast(s.Local, ".")
	if !ok || pyf == nil || pyf.head == nil || strings.Contains(cls, ".") || n <= 0 {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	// The merge-base's constructions where it has the file: the head's
	// text decides no input the base's worker runs (issue 26).
	src := pyf.head
	if pyf.base != nil {
		src = pyf.base
	}
	var first, rest []any
	for _, in := range pysource.Harvest(src, cls+".__init__", []*pysource.File{src}, maxModuleBuilt) {
		if in.Receiver != "" || in.Kind == pysource.KindDoctest {
			continue
		}
		recv := receiverExpr(module, (&pysource.Call{Callee: cls, Args: in.Args, Kwargs: in.Kwargs}).String(), in.Imports)
		if slices.ContainsFunc(lits, func(l string) bool {
			return slices.ContainsFunc(in.Args, func(a string) bool { v, ok := pyLiteral(a); return ok && v == l })
		}) {
			first = append(first, recv)
		} else {
			rest = append(rest, recv)
		}
	}
	out := append(first, rest...)
	return out[:min(len(out), n)]
}
