package golang

import (
	"cmp"
	"go/ast"
	"go/types"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// A method's receiver is often state a constructor alone never builds: a
// queue that was enqueued twice and dequeued once, a map whose key is
// already set, a cache past its capacity. Such receivers are built by a
// constructor and then a short sequence of the type's own state-changing
// methods ({"$new": ..., "$args": [...], "$then": [{"$call": method,
// "$args": [...]}, ...]}), which the harness calls in order before the
// row's call (issue 24: inputs that reach the changed line).

// goMethod is a method of one of the package's types, as a step of a
// receiver's building calls it.
type goMethod struct {
	name    string
	params  []lang.Param
	pointer bool     // declared on *T
	tparams []string // the receiver's type parameter names (Queue[T]: [T])
}

// maxSequenceReceivers bounds the receivers built by a sequence of calls.
const maxSequenceReceivers = 16

// method records d as a method of its receiver's type, generic or not.
func (p *goPkg) method(d *ast.FuncDecl) {
	if d.Recv == nil || len(d.Recv.List) != 1 {
		return
	}
	recv := d.Recv.List[0].Type
	m := goMethod{name: d.Name.Name}
	if star, ok := recv.(*ast.StarExpr); ok {
		recv, m.pointer = star.X, true
	}
	var idx []ast.Expr
	switch x := recv.(type) {
	case *ast.IndexExpr:
		recv, idx = x.X, []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		recv, idx = x.X, x.Indices
	}
	id, ok := recv.(*ast.Ident)
	if !ok {
		return
	}
	for _, e := range idx {
		n, ok := e.(*ast.Ident)
		if !ok {
			return
		}
		m.tparams = append(m.tparams, n.Name)
	}
	for _, f := range d.Type.Params.List {
		if _, variadic := f.Type.(*ast.Ellipsis); variadic {
			return
		}
		typ := types.ExprString(f.Type)
		if len(f.Names) == 0 {
			m.params = append(m.params, lang.Param{Name: "arg", Type: typ})
		}
		for _, n := range f.Names {
			m.params = append(m.params, lang.Param{Name: n.Name, Type: typ})
		}
	}
	p.typeMethods[id.Name] = append(p.typeMethods[id.Name], m)
}

// keepMethodsOf drops the methods base does not declare alike: a step
// the base lacks would fail every base call.
func (p *goPkg) keepMethodsOf(base *goPkg) {
	for typ, ms := range p.typeMethods {
		p.typeMethods[typ] = slices.DeleteFunc(ms, func(m goMethod) bool {
			return !slices.ContainsFunc(base.typeMethods[typ], func(b goMethod) bool {
				return b.name == m.name && b.pointer == m.pointer && len(b.params) == len(m.params)
			})
		})
	}
}

// mutators are the methods of the receiver's type that put something in
// (the named ones with a parameter; else any other that takes one) and
// that take something out, as the steps of building a receiver: those on
// *T, or any of a map type (a Set's Add on a value receiver still
// writes).
func (g *goTarget) mutators() (adds, takes []goMethod) {
	isMap := g.pkg.resolve(g.recv, "", 0).Kind == lang.KindDict
	var others []goMethod
	for _, m := range g.pkg.typeMethods[g.recv] {
		switch {
		case !m.pointer && !isMap:
		case lang.Takes(m.name):
			takes = append(takes, m)
		case len(m.params) == 0:
		case lang.Puts(m.name):
			adds = append(adds, m)
		default:
			others = append(others, m)
		}
	}
	if len(adds) == 0 {
		adds = others
	}
	return adds, takes
}

// stepTarget is the harness's name of a method of the receiver's type,
// instantiated as the target's receiver is: its method expression on *T,
// which holds T's methods too.
func (g *goTarget) stepTarget(m goMethod) string {
	typ := g.recv
	if len(g.inst) > 0 {
		typ += "[" + strings.Join(g.inst, ",") + "]"
	}
	return g.pkgPath + ".(*" + typ + ")." + m.name
}

// stepValues are up to three distinct values for each of m's parameters,
// from their pools, with the type's parameters instantiated; nil when a
// parameter has none.
func (g *goTarget) stepValues(m goMethod, lits []string) [][]any {
	out := make([][]any, len(m.params))
	for i, p := range m.params {
		typ := p.Type
		for j, a := range m.tparams {
			if j < len(g.inst) {
				typ = replaceIdent(typ, a, g.inst[j])
			}
		}
		pool := lang.DedupeValues(goPool(g.pkg.resolve(typ, p.Name, 0), lits))
		var vals []any
		for _, v := range pool {
			if v != nil && !holdsDollar(v) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return nil
		}
		out[i] = vals[:min(len(vals), 3)]
	}
	return out
}

// sequenceReceivers are receivers built from recvs' constructor calls,
// or from the zero value ({"$then": [...]} alone), by the short sequences
// of the type's state-changing methods lang.Sequences says.
func sequenceReceivers(g *goTarget, recvs []any, lits []string) []any {
	if g.pkg == nil {
		return nil
	}
	var bases []map[string]any
	for _, r := range recvs {
		// A constructor's value, or the zero value of the struct ({}).
		if m, ok := r.(map[string]any); ok && (m["$new"] != nil && m["$then"] == nil || len(m) == 0) && len(bases) < 2 {
			bases = append(bases, m)
		}
	}
	if len(bases) == 0 {
		return nil
	}
	type stepper struct {
		target string
		vals   [][]any
	}
	steppers := func(ms []goMethod) []stepper {
		var out []stepper
		for _, m := range ms {
			if vals := g.stepValues(m, lits); (vals != nil || len(m.params) == 0) && len(out) < 3 {
				out = append(out, stepper{g.stepTarget(m), vals})
			}
		}
		return out
	}
	adds, takes := g.mutators()
	adders, takers := steppers(adds), steppers(takes)
	step := func(st lang.Step) any {
		var s stepper
		if st.Take {
			s = takers[st.Method]
		} else {
			s = adders[st.Method]
		}
		args := make([]any, len(s.vals))
		for i, vs := range s.vals {
			args[i] = vs[min(st.K, len(vs)-1)]
		}
		return map[string]any{"$call": s.target, "$args": args}
	}
	var each [][]any
	for _, b := range bases {
		var built []any
		for _, seq := range lang.Sequences(len(adders), len(takers)) {
			then := make([]any, len(seq))
			for i, st := range seq {
				then[i] = step(st)
			}
			v := map[string]any{"$then": then}
			if b["$new"] != nil {
				v["$new"], v["$args"] = b["$new"], b["$args"]
			}
			built = append(built, v)
		}
		each = append(each, built)
	}
	out := lang.DedupeValues(lang.Interleave(each))
	return out[:min(len(out), maxSequenceReceivers)]
}

// maxFieldSettings bounds the exported fields a method reads that its
// receivers are built with set.
const maxFieldSettings = 8

// fieldReadRe finds an exported name read after a dot, not called.
var fieldReadRe = regexp.MustCompile(`\.([A-Z][A-Za-z0-9_]*)\b\s*([^(\s]|$)`)

// fieldsRead are the exported names text reads after a dot, not
// called: a receiver's fields, among others.
func fieldsRead(text string) map[string]bool {
	read := map[string]bool{}
	for _, m := range fieldReadRe.FindAllStringSubmatch(text, -1) {
		read[m[1]] = true
	}
	return read
}

// fieldReceivers are receivers with an exported field the method reads
// set to a value its zero value is not: a caller assigns p.Seq = 5 after
// its constructor (no method sets it), and a changed line behind `if
// p.Seq != 0` runs only then. Each of the first two of bases (built by
// the constructor and the type's own methods, or by the constructor
// alone) takes each such field, one at a time, as one more step
// ({"$field": "Seq", "$value": 1}).
func fieldReceivers(g *goTarget, bases []any, text string, lits []string) []any {
	if g.pkg == nil {
		return nil
	}
	t := g.pkg.resolve(g.recv, "", 0)
	if t.Kind != lang.KindStruct {
		return nil
	}
	read := fieldsRead(text)
	// The fields a condition tests come first: a changed line behind
	// `if p.Seq != 0` runs only when one is set.
	fields := slices.Clone(t.Fields)
	tested := testedFields(text)
	slices.SortStableFunc(fields, func(a, b lang.Field) int {
		return cmp.Compare(tested[b.Name], tested[a.Name])
	})
	var steps []any
	for _, f := range fields {
		if !read[f.Name] || len(steps) == maxFieldSettings {
			continue
		}
		switch f.Type.Kind {
		case lang.KindInt, lang.KindFloat, lang.KindStr, lang.KindBool:
		default:
			continue
		}
		for _, v := range goPool(f.Type, lits) {
			if v != nil && v != 0 && v != "" && v != false && v != 0.0 {
				steps = append(steps, map[string]any{"$field": f.Name, "$value": v})
				break
			}
		}
	}
	if sortRe.MatchString(text) {
		// A method that sorts a list field: the list long and full of
		// ties (sort.Slice for sort.SliceStable).
		for _, f := range fields {
			if e := f.Type.Elem; read[f.Name] && f.Type.Kind == lang.KindList && e != nil && e.Kind == lang.KindStruct {
				if l := tiedList(*e, text, lits); l != nil {
					steps = append(steps, map[string]any{"$field": f.Name, "$value": l})
				}
			}
		}
	}
	var out []any
	taken := 0
	for _, b := range bases {
		m, ok := b.(map[string]any)
		if !ok || m["$new"] == nil && m["$then"] == nil || taken == 2 {
			continue
		}
		taken++
		for _, st := range steps {
			v := maps.Clone(m)
			then, _ := m["$then"].([]any)
			v["$then"] = append(slices.Clip(then), st)
			out = append(out, v)
		}
	}
	return out
}

// condLineRe finds a line that tests or branches; recvNameRe a method's
// receiver's name.
var (
	condLineRe = regexp.MustCompile(`(?m)^\s*(?:\}\s*else\s+)?(?:if|switch|case|for)\b.*$`)
	recvNameRe = regexp.MustCompile(`(?m)^func\s*\(\s*(\w+)\s`)
)

// testedFields are the receiver's fields a condition of text reads
// (if p.Seq != 0, switch p.Kind), by name.
func testedFields(text string) map[string]int {
	out := map[string]int{}
	for _, m := range recvNameRe.FindAllStringSubmatch(text, -1) {
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(m[1]) + `\.([A-Z][A-Za-z0-9_]*)\b`)
		for _, line := range condLineRe.FindAllString(text, -1) {
			for _, f := range re.FindAllStringSubmatch(line, -1) {
				out[f[1]] = 1
			}
		}
	}
	return out
}

// sortRe finds a call of one of Go's sorts.
var sortRe = regexp.MustCompile(`\b(?:sort\.(?:Slice|SliceStable|Sort|Stable)|slices\.Sort(?:Func|StableFunc)?)\(`)

// tiedLen is a tied list's length: past the twelve elements pdqsort
// (sort.Slice, slices.SortFunc) sorts by insertion, which keeps ties in
// order.
const tiedLen = 16

// tiedList is a list of tiedLen structs of type elem that tie in pairs of
// groups and differ otherwise: one text or int field the method's text
// does not name counts up (t0, t1, ...), every other field of a basic
// type takes the first two values of its pool in turn. Sorted by any of
// those fields, a stable sort keeps the count in order within each
// group and an unstable one need not. Nil when no field can count.
func tiedList(elem lang.Type, text string, lits []string) []any {
	count := ""
	for _, f := range elem.Fields {
		if k := f.Type.Kind; (k == lang.KindInt || k == lang.KindStr) && !strings.Contains(text, "."+f.Name) {
			count = f.Name
			break
		}
	}
	if count == "" {
		return nil
	}
	out := make([]any, tiedLen)
	for i := range out {
		m := map[string]any{}
		for _, f := range elem.Fields {
			switch k := f.Type.Kind; {
			case f.Name == count && k == lang.KindInt:
				m[f.Name] = i
			case f.Name == count:
				m[f.Name] = "t" + strconv.Itoa(i)
			case k == lang.KindInt || k == lang.KindStr || k == lang.KindFloat || k == lang.KindBool:
				if pool := goPool(f.Type, lits); len(pool) > 1 {
					m[f.Name] = pool[i%2]
				}
			}
		}
		out[i] = m
	}
	return out
}
