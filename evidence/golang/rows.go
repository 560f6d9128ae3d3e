package golang

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"math"
	"math/rand"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
)

// goTarget is what a Go target's rows need beyond its signature: its
// package's declarations, the type arguments a generic function is
// instantiated with, and a method's receivers.
type goTarget struct {
	pkg       *goPkg
	tests     *gosource.Package // what the package's tests call, nil without a checkout
	baseTests *gosource.Package // what the base's tests call: a patch cannot take their inputs away
	harvested []goCall          // calls of the target the tests make, as rows
	pkgPath   string
	inst      []string // type arguments, in the order of the type parameters
	recv      string   // a method's receiver type
	// words are the identifiers of the function's text on both sides:
	// the constants it names lead their type's values.
	words map[string]bool
	// read are the exported fields a method's text reads (f.Items[i]):
	// its receivers are built with them first.
	read map[string]bool
	vars []goVar // the package variables it reads that rows set
	// tableNums and tableStrs come from the package-level tables and
	// constants its changed lines name: their bounds, and text of the
	// code points among them.
	tableNums []float64
	tableStrs []string
}

// maxGoReceivers bounds the receivers a Go method's argument rows are
// called on; maxSweptGoReceivers the receivers that take its typical call.
const (
	maxGoReceivers      = 6
	maxSweptGoReceivers = 60
)

// goPlan fills in how a changed Go function or method is called: its
// harness name (a method through its method expression, a generic
// function instantiated), or why it cannot be.
func goPlan(tg *lang.Target, gp *goPkgs, f diffparse.File) string {
	s := tg.Sym
	g := &goTarget{pkg: gp.pkg(f.Path), tests: gp.testsOf(f.Path), baseTests: gp.baseTestsOf(f.Path), pkgPath: strings.TrimSuffix(s.Name, "."+s.Local),
		words: identsOf(tg.BaseText, tg.HeadText)}
	tg.Data = g
	if s.Name == s.Local {
		// No go.mod names the package: the harness gives the tree one
		// and reaches the package by its directory.
		g.pkgPath = "./" + path.Dir(f.Path)
		if path.Dir(f.Path) == "." {
			g.pkgPath = "."
		}
		tg.Call = g.pkgPath + "." + s.Local
	}
	if tg.Sig.Generic {
		inst, ok := instantiate(tg.Sig.TypeParams)
		if !ok {
			return "generic: no type among int, string and float64 satisfies its constraints"
		}
		g.inst = inst
		names := make([]string, len(inst))
		for i, a := range inst {
			names[i] = a
		}
		tg.Call = g.pkgPath + "." + s.Local + "[" + strings.Join(names, ",") + "]"
	}
	g.vars = g.pkg.varsRead(tg)
	g.tableNums, g.tableStrs = g.pkg.tableNumbers(tg)
	if s.Kind != "method" {
		g.harvested = harvestedCalls(g, s.Local, tg.Sig.Params)
		return ""
	}
	recv, method, _ := lang.CutLast(s.Local, ".")
	g.recv = recv
	tg.Call = g.pkgPath + ".(*" + recv + ")." + method
	if g.pkg != nil && len(g.pkg.params[recv]) > 0 {
		// A method of a generic type is called on an instantiation of
		// it, as a generic function is; its parameters' types name the
		// type's parameters as its receiver does (Queue[T]).
		inst, ok := instantiate(g.pkg.params[recv])
		if !ok || len(tg.Sig.TypeParams) != len(inst) {
			return "a method of a generic type: no type among int, string and float64 satisfies its constraints"
		}
		g.inst = inst
		tg.Call = g.pkgPath + ".(*" + recv + "[" + strings.Join(inst, ",") + "])." + method
	}
	if gp.probe {
		return ""
	}
	lits := lang.Literals(tg.BaseText, tg.HeadText)
	g.read = fieldsRead(tg.HeadText + "\n" + tg.BaseText)
	tested := harvestedReceivers(g)
	// The tests' receivers, those the package's constructors build and
	// the tests' mutated take turns: the first receivers get every
	// argument row, and tests that build one kind of object (New(n), all
	// empty) must not crowd out the constructor that builds another
	// (From(words), bits set).
	recvs := lang.DedupeValues(lang.Interleave([][]any{tested, goReceivers(g, lits), goMutatedReceivers(tested, lits)}))
	// A receiver built with a huge size (New(4294967295)) costs its row
	// a large allocation on both sides: such receivers go last, so a
	// function's time is not spent on them before the small ones, where
	// the edges are, have run.
	slices.SortStableFunc(recvs, func(a, b any) int { return cmp.Compare(hugeArgs(a), hugeArgs(b)) })
	recvs = recvs[:min(len(recvs), maxSweptGoReceivers)]
	g.harvested = harvestedCalls(g, s.Local, tg.Sig.Params)
	// The edges of receivers come right after the first (the typical
	// receiver a template or a model's row calls on), where no budget
	// cuts them: the zero value of a struct (decimal.Decimal{}, whose
	// fields a constructor always sets, and a method that forgot to
	// handle it differs there) and, for a pointer method, nil (handled on
	// one side, a panic on the other).
	var edges []any
	if g.pkg.isStruct(g.recv) || g.pkg != nil && g.pkg.resolve(g.recv, "", 0).Kind == lang.KindStruct {
		edges = append(edges, map[string]any{})
	}
	if len(recvs) == 0 && len(edges) == 0 && len(g.harvested) == 0 {
		return "a method: no constructor of " + recv + " and no fields to build a receiver from"
	}
	if len(recvs) > 0 && pointerRecvRe.MatchString(tg.HeadText+"\n"+tg.BaseText) {
		edges = append(edges, nil)
	}
	// Receivers built by a sequence of the type's own calls (from a
	// constructor's, or from the zero value of a type that has none: an
	// unexported stack[T]) take turns with the rest right after the
	// edges, so some of them are among those every argument row is
	// called on.
	seqs := sequenceReceivers(g, append(recvs[:len(recvs):len(recvs)], edges...), lits)
	// Then the same with a field the method reads set, as its callers
	// set it.
	set := fieldReceivers(g, append(seqs[:len(seqs):len(seqs)], recvs...), tg.HeadText+"\n"+tg.BaseText, lits)
	seqs = lang.Interleave([][]any{seqs, set})
	ordered := append(edges, seqs...)
	if len(recvs) > 0 {
		rest := lang.Interleave([][]any{seqs, recvs[1:]})
		ordered = append(append(recvs[:1:1], edges...), rest...)
	}
	tg.Receivers = lang.DedupeValues(ordered)
	return ""
}

// isStruct says the package declares name as a struct type, generic or
// not: its zero value is a receiver.
func (p *goPkg) isStruct(name string) bool {
	if p == nil {
		return false
	}
	_, ok := p.types[name].(*ast.StructType)
	return ok
}

// pointerRecvRe finds a method declared on a pointer receiver.
var pointerRecvRe = regexp.MustCompile(`(?m)^func\s*\(\s*(?:\w+\s+)?\*`)

// goReceivers are objects of the receiver's type: built by the package's
// constructors (NewVersion, Parse, MustParse) over their parameters'
// pools, then from the type's fields or underlying value, as
// encoding/json decodes one.
func goReceivers(g *goTarget, lits []string) []any {
	if g.pkg == nil {
		return nil
	}
	out := ctorValues(g, g.recv, lits, nil, maxSweptGoReceivers)
	t := g.pkg.namedFirst(g.pkg.resolveReading(g.recv, g.read), g.words, 0)
	built := len(out)
	for _, v := range goPool(t, lits) {
		if v == nil || len(out) >= built+maxSweptGoReceivers/4 {
			continue
		}
		out = append(out, v)
	}
	return out
}

// ctorValues are up to n values of the package's type name built by its
// constructors ({"$new": ..., "$args": ...}): each constructor over its
// parameters' pools, text with digits and separators first, the shape
// parsers of versions, sizes and addresses take. The constructors take
// turns, so one of many parameters' values (New(length)) does not crowd
// out another that builds a different state (From(words), with bits set).
// For an argument of the function (not its receiver) own are the
// function's text literals, which lead a text or any parameter's pool: a
// wrapper (AsValue(i any)) of the "\r\n" a filter of the wrapped text
// handles.
func ctorValues(g *goTarget, name string, lits, own []string, n int) []any {
	return ctorValuesIn(g, g.pkg, g.pkgPath, name, lits, own, n)
}

// ctorValuesIn are ctorValues of a type of the package pkg, imported as
// pkgPath: the target's own, or another of its module.
func ctorValuesIn(g *goTarget, pkg *goPkg, pkgPath, name string, lits, own []string, n int) []any {
	var each [][]any
	for _, c := range pkg.ctors[name] {
		if pkg != g.pkg && !token.IsExported(c.name) {
			continue // another package's: only its exported constructors can be called
		}
		ctor := pkgPath + "." + c.name
		if c.typeArgs != nil {
			// A generic constructor, instantiated as its type is.
			if len(c.typeArgs) != len(g.inst) || name != g.recv {
				continue
			}
			ctor += "[" + strings.Join(g.inst, ",") + "]"
		}
		pools := make([][]any, len(c.params))
		ok := true
		for i, p := range c.params {
			typ := p.Type
			for j, a := range c.typeArgs {
				typ = replaceIdent(typ, a, g.inst[j])
			}
			t := pkg.resolve(typ, p.Name, 0)
			pools[i] = parseable(goPool(t, lits))
			if t.Kind == lang.KindStr || t.Kind == lang.KindAny {
				var first []any
				for _, s := range own[:min(len(own), 4)] {
					first = append(first, s)
				}
				pools[i] = lang.DedupeValues(append(first, pools[i]...))
			}
			ok = ok && len(pools[i]) > 0
		}
		if !ok {
			continue
		}
		calls := [][]any{lang.TypicalValues(pools)}
		lang.OneAtATime(&lang.Signature{Params: c.params}, pools, func(_ string, vals []any) { calls = append(calls, vals) })
		var built []any
		seen := map[string]bool{}
		for _, args := range calls {
			if k := lang.Compact(args, 1000); !seen[k] && len(built) < n {
				seen[k] = true
				built = append(built, map[string]any{"$new": ctor, "$args": append([]any{}, args...)})
			}
		}
		each = append(each, built)
	}
	out := lang.DedupeValues(lang.Interleave(each))
	return out[:min(len(out), n)]
}

// litValues are up to n values of the struct type name of the package
// pkg (imported as pkgPath) built from its exported fields, as the
// harness builds one for IMPORTPATH.&Type: an implementer of an
// interface that has no constructor (evalfilter's &object.Integer{Value:
// 3}). None for a type that is no struct, or one with no field premise
// can fill.
func litValues(pkg *goPkg, pkgPath, name string, lits []string, n int) []any {
	t := pkg.resolve(name, "", 0)
	if t.Kind != lang.KindStruct || len(t.Fields) == 0 || pkgPath == "" {
		return nil
	}
	var out []any
	for _, v := range goPool(t, lits) {
		if _, ok := v.(map[string]any); ok && len(out) < n {
			out = append(out, map[string]any{"$new": pkgPath + ".&" + name, "$args": []any{v}})
		}
	}
	return out
}

// parseable orders a pool's strings for a constructor: text of digits and
// punctuation alone first (1.5, 1.2.3, 1,000), then text holding both, the
// shapes parsers of versions, sizes and addresses take, then the rest.
func parseable(vs []any) []any {
	rank := func(v any) int {
		s, ok := v.(string)
		if !ok || !strings.ContainsAny(s, "0123456789") || !strings.ContainsAny(s, ".:-/,+") {
			return 2
		}
		if strings.Trim(s, "0123456789.:-/,+") == "" {
			return 0
		}
		return 1
	}
	var out []any
	for r := 0; r <= 2; r++ {
		for _, v := range vs {
			if rank(v) == r {
				out = append(out, v)
			}
		}
	}
	return out
}

// instantiate picks type arguments for a generic function: the first of
// int, string and float64 every constraint admits, a type parameter
// constrained by ~[]E taking a slice of E's.
func instantiate(tps []lang.Param) ([]string, bool) {
	for _, c := range []string{"int", "string", "float64"} {
		args := map[string]string{}
		out := make([]string, len(tps))
		ok := true
		for i, tp := range tps {
			a, fits := typeArg(tp.Type, c, args)
			if !fits {
				ok = false
				break
			}
			args[tp.Name], out[i] = a, a
		}
		if ok {
			return out, true
		}
	}
	return nil, false
}

var (
	sliceConstraint = regexp.MustCompile(`^~?\[\]\s*(\w+)$`)
	mapConstraint   = regexp.MustCompile(`^~?map\[(\w+)\]\s*(\w+)$`)
)

// typeArg is the type argument a constraint takes when the function is
// instantiated over c, given the type parameters decided before it.
func typeArg(constraint, c string, args map[string]string) (string, bool) {
	k := strings.TrimSpace(constraint)
	if m := sliceConstraint.FindStringSubmatch(k); m != nil {
		if e, ok := args[m[1]]; ok {
			return "[]" + e, true
		}
		return "[]" + c, m[1] == c || goType(m[1], "").Kind != lang.KindUnknown
	}
	if m := mapConstraint.FindStringSubmatch(k); m != nil {
		key, kok := args[m[1]]
		val, vok := args[m[2]]
		if kok && vok {
			return "map[" + key + "]" + val, true
		}
		return "", false
	}
	switch {
	case k == "any" || k == "comparable" || k == "interface{}" || strings.HasSuffix(k, "Ordered"):
		return c, true
	case strings.HasSuffix(k, "Integer") || strings.HasSuffix(k, "Signed"):
		return c, c == "int"
	case strings.HasSuffix(k, "Float"):
		return c, c == "float64"
	case strings.HasSuffix(k, "Number") || strings.HasSuffix(k, "Numeric") || strings.HasSuffix(k, "Real"):
		return c, c == "int" || c == "float64"
	}
	// A union of terms (~int | ~string | float64): c when one names it.
	for _, term := range strings.Split(k, "|") {
		term = strings.TrimPrefix(strings.TrimSpace(term), "~")
		if term == c || (c == "int" && strings.HasSuffix(term, "Integer")) || (c == "float64" && strings.HasSuffix(term, "Float")) {
			return c, true
		}
	}
	return "", false
}

// goParamTypes are the target's parameter types with its package's
// declarations resolved and its type parameters replaced by their
// arguments.
func goParamTypes(tg lang.Target) []lang.Type {
	gt := goOf(tg)
	out := make([]lang.Type, len(tg.Sig.Params))
	for i, p := range tg.Sig.Params {
		typ := p.Type
		for j, tp := range tg.Sig.TypeParams {
			if j < len(gt.inst) {
				typ = replaceIdent(typ, tp.Name, gt.inst[j])
			}
		}
		out[i] = gt.pkg.namedFirst(gt.pkg.resolve(typ, p.Name, 0), gt.words, 0)
		if out[i].Kind == lang.KindUnknown && strings.HasPrefix(typ, "...") {
			// A variadic parameter can always be given no value; its
			// element's values when premise can build one (a time.Time
			// from RFC 3339 text).
			e := gt.pkg.resolve(typ[3:], p.Name, 0)
			if !e.Known() && !(e.Kind == lang.KindTime && strings.Contains(e.Text, "time.Time")) {
				e = lang.Type{}
			}
			out[i] = lang.Type{Kind: kindVariadic, Elem: &e}
		}
	}
	return out
}

// kindVariadic is a Go variadic parameter: its values are spread as
// trailing arguments.
const kindVariadic = "variadic"

func replaceIdent(s, name, with string) string {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	return re.ReplaceAllLiteralString(s, with)
}

// goRows are a Go target's generated rows: each parameter varied over its
// pool while the others keep their typical value, then pairs of
// parameters over the heads of their pools; a method's rows on each of its
// receivers.
func goRows(tg lang.Target, rng *rand.Rand, budget int) []lang.SourcedRow {
	gt := goOf(tg)
	types := goParamTypes(tg)
	var harvested []lang.SourcedRow
	for _, c := range gt.harvested {
		args := c.args
		if n := len(tg.Sig.Params); n > 0 && strings.HasPrefix(tg.Sig.Params[n-1].Type, "...") {
			// The tests' variadic arguments come folded; the call spreads them.
			last := len(args) - 1
			if spread, ok := args[last].([]any); ok && last >= 0 {
				args = append(append([]any{}, args[:last]...), spread...)
			}
		}
		harvested = append(harvested, lang.SourcedRow{Row: lang.PositionalRow("harvested_"+strings.Fields(c.source)[0], args), Source: c.source})
	}
	strs, nums := goLiterals(tg.BaseText, tg.HeadText)
	nums = gosource.WithFolded(nums, tg.BaseText, tg.HeadText)
	own := nums
	nums = append(nums[:len(nums):len(nums)], gt.tableNums...)
	lits := lang.WithSeparators(append(append(append(lang.Literals(tg.BaseText, tg.HeadText), strs...), tg.DataLits...), gt.tableStrs...))
	pools := make([][]any, len(types))
	variadic := -1
	for i, t := range types {
		if t.Kind == kindVariadic {
			variadic = i
			e := goPool(*t.Elem, lits)
			pools[i] = []any{[]any{}}
			if len(e) > 0 {
				pools[i] = append(pools[i], []any{e[0]})
			}
			if len(e) > 2 {
				pools[i] = append(pools[i], []any{e[0], e[2]}, []any{e[2], e[0], e[1]})
			}
			continue
		}
		pools[i] = goPool(t, lits)
		if t.Text == "[]byte" {
			// The magic bytes the function compares the buffer's with,
			// at the lengths it compares the buffer's with.
			var sigs []any
			for _, b := range lang.ByteSignatures(tg.Sig.Params[i].Name, tg.BaseText+"\n"+tg.HeadText) {
				vals := make([]any, len(b))
				for k, v := range b {
					vals[k] = v
				}
				sigs = append(sigs, map[string]any{"$go": "[]byte", "value": vals})
			}
			pools[i] = append(pools[i][:min(1, len(pools[i])):min(1, len(pools[i]))], append(sigs, pools[i][min(1, len(pools[i])):]...)...)
		}
		named := strings.TrimPrefix(strings.TrimSpace(tg.Sig.Params[i].Type), "*")
		if gt.pkg != nil && len(gt.pkg.ctors[named]) > 0 {
			// A value of the package's own type is built as its
			// constructors build one.
			pools[i] = append(ctorValues(gt, named, lits, strs, maxGoReceivers), pools[i]...)
		}
		if gt.pkg != nil {
			// An interface of the package, or of another package of the
			// module (object.Object), is given values of the types that
			// implement it there: as their constructors build them, or
			// built from their fields when they have none.
			q, qPath, typ := gt.pkg, gt.pkgPath, named
			if pkgName, name, ok := strings.Cut(named, "."); ok {
				q, qPath, typ = nil, gt.pkg.imports[pkgName], name
				if gt.pkg.sibling != nil && qPath != "" {
					q = gt.pkg.sibling(pkgName)
				}
			}
			if q != nil && q != gt.pkg {
				// A constructor there whose result is the interface itself
				// (goqu's sb.NewSQLBuilder(isPrepared bool) SQLBuilder)
				// builds one, as the package's callers get theirs.
				pools[i] = append(pools[i], ctorValuesIn(gt, q, qPath, typ, lits, strs, maxGoReceivers)...)
			}
			if q != nil {
				impls := q.implementers(typ)
				for _, impl := range impls {
					n := max(2, maxGoReceivers/len(impls))
					vals := ctorValuesIn(gt, q, qPath, impl, lits, strs, n)
					if len(vals) == 0 {
						vals = litValues(q, qPath, impl, lits, n)
					}
					pools[i] = append(pools[i], vals...)
				}
			}
		}
		switch t.Kind {
		case lang.KindInt:
			pools[i] = append(pools[i], around(nums, true)...)
			pools[i] = append(pools[i], lang.DigitShapes(tg.BaseText+"\n"+tg.HeadText)...)
		case lang.KindStr:
			pools[i] = append(pools[i], lang.PathShapes(tg.BaseText+"\n"+tg.HeadText)...)
		case lang.KindFloat:
			pools[i] = append(pools[i], around(nums, false)...)
			pools[i] = append(pools[i], goSpecialFloats(tg.Sig.Params[i].Type)...)
		case lang.KindAny:
			pools[i] = append(pools[i], goTypedAny()...)
		}
		pools[i] = lang.DedupeValues(pools[i])
		if len(pools[i]) == 0 {
			// A parameter no value can be built for: only what the tests
			// call runs, as written and under the settings it reads.
			out := harvested[:min(len(harvested), budget)]
			settings := goSettingRows(tg, settingCalls(tg, harvested, nil), own, strs, min(maxSettingRows, budget/6))
			return append(out[:len(out):len(out)], settings[:min(len(settings), budget-len(out))]...)
		}
	}
	var calls [][]any
	var classes, sources []string
	src := lang.SourceOneAtATime
	mk := func(cls string, vals []any) {
		args := append([]any{}, vals...)
		if variadic >= 0 {
			spread, _ := args[variadic].([]any)
			args = append(args[:variadic], spread...)
		}
		calls = append(calls, args)
		classes = append(classes, cls)
		sources = append(sources, src)
	}
	if len(pools) == 0 {
		src = lang.SourceNoArguments
		mk("no_arguments", nil)
	}
	src = lang.SourceComparedEdge
	for _, vals := range lang.RelationCalls(tg.Sig, tg.HeadText+"\n"+tg.BaseText, pools, false) {
		mk("compared_edge", vals)
	}
	src = lang.SourceSameText
	for _, vals := range goSameTexts(pools) {
		mk("same_text", vals)
	}
	src = lang.SourceOneAtATime
	lang.OneAtATime(tg.Sig, pools, mk)
	src = lang.SourcePairwise
	for _, vals := range anyPairs(types, pools) {
		mk("typed_pair", vals)
	}
	ownVals := make([][]any, len(pools))
	for i, p := range pools {
		ownVals[i] = lang.OwnValues(p, strs, own)
	}
	pairs := lang.Pairwise(tg.Sig, pools, ownVals, rng)
	for _, p := range pairs[:min(len(pairs), budget/3)] {
		mk(p.Cls, p.Vals)
	}
	// What the tests call comes first; the generated rows share what is
	// left.
	out := harvested[:min(len(harvested), budget*2/3)]
	if variadic < 0 {
		// Each harvested value mutated in its own place (issue 13, part
		// 3), the rest of the call as the test wrote it.
		mutated := goMutatedCalls(gt.harvested, gt.recv != "", lits)
		out = append(out, mutated[:min(len(mutated), budget/4)]...)
	}
	// Calls with the package variables the function reads set: a share
	// of their own, since no argument reaches what they change.
	settings := goSettingRows(tg, settingCalls(tg, harvested, calls), own, strs, min(maxSettingRows, budget/6))
	out = append(out, settings...)
	left := budget - len(out)
	var rows []lang.SourcedRow
	if gt.recv == "" {
		for i, args := range calls {
			rows = append(rows, lang.SourcedRow{Row: lang.PositionalRow(classes[i], args), Source: sources[i]})
		}
	} else {
		rows = goMethodRows(tg.Receivers, calls, classes, sources, left)
	}
	return append(out, rows[:min(len(rows), left)]...)
}

// goMutatedCalls are the calls the tests make with one argument mutated
// (shorter, empty, case-flipped, title-cased, a separator inserted, a
// number moved by one); a method's receiver is left as built.
func goMutatedCalls(calls []goCall, method bool, lits []string) []lang.SourcedRow {
	var out []lang.SourcedRow
	seen := map[string]bool{}
	for _, c := range calls {
		for i, a := range c.args {
			if method && i == 0 {
				continue
			}
			for _, m := range lang.Mutate(a, lits) {
				args := append([]any{}, c.args...)
				args[i] = m
				if k := lang.Compact(args, 1000); !seen[k] {
					seen[k] = true
					out = append(out, lang.SourcedRow{Row: lang.PositionalRow("harvested_mutated", args), Source: lang.SourceMutation})
				}
			}
		}
	}
	return out
}

// goMutatedReceivers are the receivers the tests build with one
// constructor argument mutated: New("person") becomes New("Person").
func goMutatedReceivers(recvs []any, lits []string) []any {
	var out []any
	for _, r := range recvs {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		args, _ := m["$args"].([]any)
		for i, a := range args {
			for _, v := range lang.Mutate(a, lits) {
				na := append([]any{}, args...)
				na[i] = v
				out = append(out, map[string]any{"$new": m["$new"], "$args": na})
			}
		}
	}
	return out
}

// goMethodRows call a method on its receivers: every receiver first with
// the typical call (a method of no parameters has no other, and its
// receiver is its whole input), then every call on the first
// maxGoReceivers receivers, a share each, up to budget rows.
func goMethodRows(receivers []any, calls [][]any, classes, sources []string, budget int) []lang.SourcedRow {
	if len(calls) == 0 {
		return nil
	}
	var sweep []lang.SourcedRow
	for _, recv := range receivers {
		sweep = append(sweep, lang.SourcedRow{Row: lang.PositionalRow("receiver_"+classes[0], append([]any{recv}, calls[0]...)), Source: lang.SourceReceiver})
		if recv != nil {
			continue
		}
		// The nil receiver also takes the calls with a nil argument: a
		// method that handled (nil).M(nil) on one side often panics on
		// the other.
		for i, args := range calls[1:] {
			if slices.Contains(args, nil) {
				sweep = append(sweep, lang.SourcedRow{Row: lang.PositionalRow("receiver_nil_"+classes[i+1], append([]any{nil}, args...)), Source: lang.SourceReceiver})
			}
		}
	}
	if len(calls) > 1 {
		// The argument rows keep at least half the budget.
		sweep = sweep[:min(len(sweep), max(budget/2, maxGoReceivers))]
	}
	full := receivers[:min(len(receivers), maxGoReceivers)]
	var rows []lang.SourcedRow
	for _, recv := range full {
		for i, args := range calls[1:] {
			rows = append(rows, lang.SourcedRow{Row: lang.PositionalRow(classes[i+1], append([]any{recv}, args...)), Source: sources[i+1]})
		}
	}
	if left := budget - len(sweep); len(rows) > left {
		rows = interleaveRows(rows, len(full), max(left, 0))
	}
	return append(sweep, rows...)
}

// interleaveRows takes rows in turn from each of n equal runs of rows (one
// per receiver) until budget rows are taken.
func interleaveRows[R any](rows []R, n, budget int) []R {
	per := len(rows) / n
	var out []R
	for i := 0; i < per && len(out) < budget; i++ {
		for k := 0; k < n && len(out) < budget; k++ {
			out = append(out, rows[k*per+i])
		}
	}
	return out
}

// maxGoLiterals bounds the literals read from a Go function's versions.
const maxGoLiterals = 16

// errorCalls are the calls whose string arguments are messages, not
// values the function compares its input with.
var errorCalls = map[string]bool{"New": true, "Errorf": true, "panic": true, "Sprintf": true, "Fatalf": true, "Wrap": true, "Wrapf": true, "Printf": true}

// goLiterals are the string literals of any length and the numbers of a
// Go function's two versions, leaving out the messages of errors and
// panics (issue 13, part 1).
func goLiterals(texts ...string) ([]string, []float64) {
	var strs []string
	var nums []float64
	seenS, seenN := map[string]bool{}, map[float64]bool{}
	for _, text := range texts {
		var s scanner.Scanner
		fset := token.NewFileSet()
		src := []byte(text)
		s.Init(fset.AddFile("", -1, len(src)), src, func(token.Position, string) {}, 0)
		var prev [2]string
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			switch tok {
			case token.STRING:
				if prev[1] == "(" && errorCalls[prev[0]] {
					break
				}
				if v, err := strconv.Unquote(lit); err == nil && v != "" && len(v) <= 200 && !seenS[v] && len(strs) < maxGoLiterals {
					seenS[v] = true
					strs = append(strs, v)
				}
			case token.CHAR:
				// A rune literal is text to a string parameter and a
				// number to a rune one: pathOK(r) compares r with '+'.
				if v, err := strconv.Unquote(lit); err == nil && v != "" {
					if !seenS[v] && len(strs) < maxGoLiterals {
						seenS[v] = true
						strs = append(strs, v)
					}
					if n := float64([]rune(v)[0]); !seenN[n] && len(nums) < maxGoLiterals {
						seenN[n] = true
						nums = append(nums, n)
					}
				}
			case token.INT, token.FLOAT:
				v, err := strconv.ParseFloat(strings.ReplaceAll(lit, "_", ""), 64)
				if err != nil {
					if n, err2 := strconv.ParseInt(strings.ReplaceAll(lit, "_", ""), 0, 64); err2 == nil {
						v, err = float64(n), nil
					}
				}
				if err == nil && !seenN[v] && len(nums) < maxGoLiterals {
					seenN[v] = true
					nums = append(nums, v)
				}
			}
			t := lit
			if t == "" {
				t = tok.String()
			}
			prev[0], prev[1] = prev[1], t
		}
	}
	return strs, nums
}

// around are the numbers at and beside each constant: k-1, k, k+1 for an
// integer, k and a hair either side of it for a fraction.
func around(nums []float64, integer bool) []any {
	var out []any
	for _, k := range nums {
		if integer {
			if k != float64(int64(k)) || k > 1<<53 || k < -(1<<53) {
				continue
			}
			n := int(k)
			out = append(out, n-1, n, n+1)
			continue
		}
		out = append(out, k-0.05, k, k+0.05)
	}
	return out
}

// goCallText renders a Go call's arguments as a reviewer reads them: a
// receiver or argument a constructor built as the call that built it
// (Parse("1.10")), the rest as JSON.
// goTypedAny are values of Go's basic types for an interface{} parameter:
// JSON alone decodes every number there as a float64, so a function that
// switches on its argument's type would never see an int, a uint64 past
// int64, a byte slice. Each is {"$go": type, "value": v} to the harness.
func goTypedAny() []any {
	typed := func(name string, v any) any { return map[string]any{"$go": name, "value": v} }
	return []any{typed("int", 8), typed("int", -1), typed("int64", int64(math.MinInt64)),
		typed("uint64", "18446744073709551615"), typed("uint", 0), typed("uint8", 255),
		typed("int8", -128), typed("int32", 2147483647), typed("float32", 1.5), typed("[]byte", "abc"),
		typed("*any", nil), // a fresh map to fill, as a decoder's target
		// Typed containers, and the addresses of variables holding them,
		// as a copier or decoder is given them: one holding more than
		// what is copied in, an empty one, a nil one, of two element
		// types.
		typed("[]int", []any{1}), typed("*[]int", []any{1, 2, 3}), typed("[]int", []any{}), typed("*[]int64", nil),
		typed("[]string", []any{"a", "b"}), typed("*[]string", []any{}), typed("*map[string]int", map[string]any{"a": 1}),
		// A map of a concrete value type passed itself: JSON's objects
		// decode as map[string]interface{} alone, so an encoder that
		// coerces other maps (reflect's Kind() == Map) never saw one.
		typed("map[string]int", map[string]any{"a": 1})}
}

// anyPairs are the calls of a function with two or more interface{}
// parameters (a copier's to and from, a decoder's target and input) that
// give one of them the address of a typed container and another a
// container, each pair of places in turn, the rest typical: a pair that
// pairwise rows over a mixed pool rarely draw.
func anyPairs(types []lang.Type, pools [][]any) [][]any {
	var anys []int
	for i, t := range types {
		if t.Kind == lang.KindAny {
			anys = append(anys, i)
		}
	}
	if len(anys) < 2 {
		return nil
	}
	var ptrs, plain []any
	for _, v := range goTypedAny() {
		name, _ := v.(map[string]any)["$go"].(string)
		switch {
		case strings.HasPrefix(name, "*[]") || strings.HasPrefix(name, "*map["):
			ptrs = append(ptrs, v)
		case strings.HasPrefix(name, "[]") && name != "[]byte":
			plain = append(plain, v)
		}
	}
	var out [][]any
	for _, i := range anys {
		for _, j := range anys {
			if i == j {
				continue
			}
			for _, p := range ptrs {
				for _, c := range plain {
					vals := lang.TypicalValues(pools)
					vals[i], vals[j] = p, c
					out = append(out, vals)
				}
			}
		}
	}
	return out
}

func goCallText(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = goValueText(a)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// goStepsText writes the steps that built a value after its constructor
// ($then): each method called, each field set as a caller assigns it.
func goStepsText(v any) string {
	then, ok := v.([]any)
	if !ok {
		return ""
	}
	steps := make([]string, 0, len(then))
	for _, st := range then {
		s, _ := st.(map[string]any)
		if f, ok := s["$field"].(string); ok {
			steps = append(steps, "."+f+" = "+goValueText(s["$value"]))
			continue
		}
		call, _ := s["$call"].(string)
		args, _ := s["$args"].([]any)
		steps = append(steps, call[strings.LastIndex(call, ".")+1:]+goCallText(args))
	}
	return "{" + strings.Join(steps, "; ") + "}"
}

func goValueText(v any) string {
	if v == nil {
		return "nil"
	}
	if m, ok := v.(map[string]any); ok {
		if name, ok := m["$new"].(string); ok {
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
			inner, _ := m["$args"].([]any)
			return name + goCallText(inner) + goStepsText(m["$then"])
		}
		if then, ok := m["$then"].([]any); ok && len(m) == 1 {
			// The zero value, then the calls that built it.
			return "{}" + goStepsText(then)
		}
		if k, ok := m["$func"].(string); ok {
			return "func:" + k // a callback the harness made
		}
		if _, ok := m["$writer"]; ok {
			return "&bytes.Buffer{}"
		}
		if b, ok := m["$bytes"].(string); ok {
			if data, err := base64.StdEncoding.DecodeString(b); err == nil {
				return "bytes.NewReader(" + fmt.Sprintf("%#v", data) + ")"
			}
		}
		if r, ok := m["$reader"].(string); ok {
			return "strings.NewReader(" + strconv.Quote(r) + ")"
		}
		if t, ok := m["$go"].(string); ok {
			if t == "*any" {
				return "&" + lang.Compact(m["value"], 40)
			}
			if c, ok := strings.CutPrefix(t, "*"); ok && (strings.HasPrefix(c, "[]") || strings.HasPrefix(c, "map[")) {
				// The address of a variable holding a typed container.
				if m["value"] == nil {
					return "&" + c + "(nil)"
				}
				return "&" + c + lang.Compact(m["value"], 40)
			}
			if bs, ok := m["value"].([]any); ok && t == "[]byte" {
				// Bytes no text holds, as Go writes them.
				parts := make([]string, len(bs))
				for k, b := range bs {
					if n, ok := lang.Number(b); ok {
						parts[k] = fmt.Sprintf("0x%02x", int(n))
					}
				}
				return shortText("[]byte{" + strings.Join(parts, ", ") + "}")
			}
			return t + "(" + lang.Compact(m["value"], 40) + ")"
		}
		if !hasDollar(m) {
			// A struct's fields, each shown as an argument is
			// ({Body: []byte(" ")}).
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = k + ": " + goValueText(m[k])
			}
			return shortText("{" + strings.Join(parts, ", ") + "}")
		}
	}
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, e := range l {
			parts[i] = goValueText(e)
		}
		return shortText("[" + strings.Join(parts, ", ") + "]")
	}
	return lang.Compact(v, 60)
}

func hasDollar(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

// shortText is s cut to 80 characters, an ellipsis marking the cut.
func shortText(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

// goCall is a call of a Go target the package's tests make, as a row's
// arguments (a method's receiver first) and where it was found.
type goCall struct {
	args   []any
	source string // "test_call version_test.go:42"
}

// harvestedCalls are the target's calls in its package's tests, table
// tests, fuzz seeds and examples (issue 13, part 1) whose every argument
// a row can carry: a receiver or argument built by a constructor the
// base has too, or written as a literal.
func harvestedCalls(g *goTarget, local string, params []lang.Param) []goCall {
	var out []goCall
	seen := map[string]bool{}
	add := func(args []any, source string) {
		if k := lang.CallKey(args, nil); !seen[k] {
			seen[k] = true
			out = append(out, goCall{args: args, source: source})
		}
	}
	for _, c := range testCalls(g, local) {
		var args []any
		ok := true
		if g.recv != "" {
			if c.Receiver == nil {
				continue
			}
			r, fine := g.ctorValue(c.Receiver)
			args, ok = append(args, r), fine
		}
		for _, a := range c.Args {
			v, fine := g.rowValue(a)
			args, ok = append(args, v), ok && fine
		}
		if !ok {
			continue
		}
		add(args, c.Kind+" "+c.Pos)
		if twin := filledThrough(args, params, g.recv != ""); twin != nil {
			add(twin, c.Kind+" "+c.Pos)
		}
	}
	return out
}

// filledThrough is args with each object (or nil) given to an interface
// parameter given as a pointer to it instead ({"$go": "*any"}), nil when
// there is none: a test's Decode(doc, &v) or a table's decodeInto: &T{}
// reads as the value, and a decoder refuses a value where it fills what a
// pointer points at. recv says args start with a receiver.
func filledThrough(args []any, params []lang.Param, recv bool) []any {
	off := 0
	if recv {
		off = 1
	}
	var twin []any
	for i, p := range params {
		t := strings.TrimSpace(p.Type)
		if (t != "any" && t != "interface{}") || i+off >= len(args) {
			continue
		}
		v := args[i+off]
		if _, isMap := v.(map[string]any); (isMap && !holdsDollar(v)) || v == nil {
			if twin == nil {
				twin = append([]any(nil), args...)
			}
			twin[i+off] = map[string]any{"$go": "*any", "value": v}
		}
	}
	return twin
}

// testCalls are the calls of local the base's tests make, then the
// head's.
func testCalls(g *goTarget, local string) []gosource.Call {
	var out []gosource.Call
	for _, p := range []*gosource.Package{g.baseTests, g.tests} {
		if p != nil {
			out = append(out, p.Calls(local)...)
		}
	}
	return out
}

// harvestedReceivers are the receivers the tests build: constructor calls
// and literals of the method's type.
func harvestedReceivers(g *goTarget) []any {
	if g.tests == nil {
		return nil
	}
	var out []any
	for _, c := range g.tests.CtorCalls(g.recv) {
		if v, ok := g.ctorValue(&c); ok && len(out) < maxSweptGoReceivers/2 {
			out = append(out, v)
		}
	}
	return out
}

// ctorValue is a harvested receiver or argument as a row carries it.
func (g *goTarget) ctorValue(c *gosource.Ctor) (any, bool) {
	switch {
	case c.Func != "":
		if !g.hasCtor(c.Type, c.Func) {
			return nil, false
		}
		args := make([]any, len(c.Args))
		for i, a := range c.Args {
			v, ok := g.rowValue(a)
			if !ok {
				return nil, false
			}
			args[i] = v
		}
		built := map[string]any{"$new": g.pkgPath + "." + c.Func, "$args": spread(args, c.Variadic)}
		if len(c.Then) > 0 {
			// The type's own methods the test chained on it
			// (New().FromString(s).Select("name")), called on the
			// object in turn: each returns it.
			if g.pkg == nil || len(g.pkg.params[c.Type]) > 0 {
				return nil, false
			}
			then := make([]any, len(c.Then))
			for i, st := range c.Then {
				vals := make([]any, len(st.Args))
				for j, a := range st.Args {
					v, ok := g.rowValue(a)
					if !ok {
						return nil, false
					}
					vals[j] = v
				}
				then[i] = map[string]any{"$call": g.pkgPath + ".(*" + c.Type + ")." + st.Method, "$args": spread(vals, st.Variadic)}
			}
			built["$then"] = then
		}
		return built, true
	case c.Literal != nil:
		v, ok := g.rowValue(c.Literal)
		return v, ok
	}
	return g.rowValue(c.Value)
}

// hasCtor says the package declares fn as a constructor of typ on both
// sides of the change.
func (g *goTarget) hasCtor(typ, fn string) bool {
	if g.pkg == nil {
		return false
	}
	for _, c := range g.pkg.ctors[typ] {
		if c.name == fn && c.typeArgs == nil { // a test's call of a generic one names no type arguments
			return true
		}
	}
	return slices.Contains(g.pkg.varCtors[typ], fn)
}

// spread is a harvested call's arguments as a row passes them: a
// variadic parameter's list, the last, spread into its elements.
func spread(args []any, variadic bool) []any {
	if !variadic || len(args) == 0 {
		return args
	}
	last, ok := args[len(args)-1].([]any)
	if !ok {
		return args
	}
	return append(args[:len(args)-1:len(args)-1], last...)
}

// rowValue turns a harvested value into one a JSON row carries: bytes as
// base64 (as encoding/json decodes a []byte), a constructor call as $new.
func (g *goTarget) rowValue(v any) (any, bool) {
	switch x := v.(type) {
	case *gosource.Ctor:
		return g.ctorValue(x)
	case []byte:
		// Text as text, which a search changes a character at a time
		// and a reviewer reads; bytes that are no text as Go's JSON has
		// them, base64.
		if utf8.Valid(x) {
			return map[string]any{"$go": "[]byte", "value": string(x)}, true
		}
		return base64.StdEncoding.EncodeToString(x), true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var ok bool
			if out[i], ok = g.rowValue(e); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var ok bool
			if out[k], ok = g.rowValue(e); !ok {
				return nil, false
			}
		}
		return out, true
	case int64:
		return int(x), true
	}
	return v, true
}

// goOf is a Go target's package, instantiation and harvest; nil for
// another language's.
func goOf(tg lang.Target) *goTarget {
	g, _ := tg.Data.(*goTarget)
	return g
}

// hugeArgs counts the numbers past a million a receiver's constructor is
// called with.
func hugeArgs(v any) int {
	m, _ := v.(map[string]any)
	args, _ := m["$args"].([]any)
	n := 0
	for _, a := range args {
		if f, ok := lang.Number(a); ok && math.Abs(f) > 1e6 {
			n++
		}
	}
	return n
}

// goPool is lang.Pool for a Go type in the forms the harness reads: a
// *time.Location's zones (goLocations), a time.Duration's units taking
// turns with its pool (goDurations), and a []byte's text as
// {"$go": "[]byte"} wherever it sits (goValue).
func goPool(t lang.Type, lits []string) []any {
	switch strings.TrimPrefix(t.Text, "*") {
	case "time.Location":
		return goLocations()
	case "http.Request":
		return goRequests(lits)
	case "http.ResponseWriter":
		return []any{map[string]any{"$go": "http.ResponseWriter", "value": nil}}
	case "http.Handler":
		// The handler a middleware wraps: the harness's counts its runs
		// and a returned handler is served requests, so a middleware that
		// skips, repeats or answers for it shows.
		return []any{map[string]any{"$go": "http.Handler", "value": nil}}
	case "context.Context":
		return goContexts()
	case "reflect.Value":
		return goReflectValues(lits)
	case "reflect.Type":
		return goReflectTypes()
	case "reflect.StructField":
		return goStructFields(lits)
	case "time.Duration":
		return goDurations(lang.Pool(t, lits))
	case "net.IP", "netip.Addr", "netip.Prefix", "netip.AddrPort", "net.HardwareAddr", "big.Rat", "big.Float":
		return goTextValues(strings.TrimPrefix(t.Text, "*"))
	}
	pool := lang.Pool(t, lits)
	out := make([]any, len(pool))
	for i, v := range pool {
		out[i] = goValue(t, v)
	}
	return out
}

// goValue is v, of type t, with every text that is a []byte (an
// argument, a struct's field, a list's element) as the harness builds a
// byte slice from text: a plain JSON string would be read as base64, the
// form a harvested []byte takes (rowValue).
func goValue(t lang.Type, v any) any {
	switch x := v.(type) {
	case string:
		if t.Text == "[]byte" {
			return map[string]any{"$go": "[]byte", "value": x}
		}
	case []any:
		if t.Elem != nil {
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = goValue(*t.Elem, e)
			}
			return out
		}
	case map[string]any:
		if len(t.Fields) > 0 {
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = e
				for _, f := range t.Fields {
					if f.Name == k {
						out[k] = goValue(f.Type, e)
					}
				}
			}
			return out
		}
	}
	return v
}

// goLocations are the zones a *time.Location parameter takes: UTC, a
// zone west and one east of it (one not on the hour), and nil, which
// time's own functions refuse and many callers mean as UTC.
// goRequests are requests a handler is called with: the methods a router
// tells apart, paths at a router's edges (the root, a trailing slash, an
// empty segment, a dot segment, an escaped slash, a query) and the
// function's own paths and methods among its literals, a full URL whose
// host is read, a form body.
func goRequests(lits []string) []any {
	req := func(method, target, body string, header map[string]string) any {
		v := map[string]any{"method": method, "target": target}
		if body != "" {
			v["body"] = body
			header = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
		}
		if header != nil {
			v["header"] = header
		}
		return map[string]any{"$go": "*http.Request", "value": v}
	}
	methods := []string{"GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE"}
	paths := []string{"/", "/a", "/a/", "/a/b", "//a", "/a/../b", "/a%2Fb", "/a?x=1&x=2"}
	for _, l := range lits {
		switch {
		case strings.HasPrefix(l, "/") && len(l) < 80 && !strings.ContainsAny(l, " \t\n") && !slices.Contains(paths, l):
			paths = append(paths, l)
		case len(l) > 2 && len(l) < 10 && strings.ToUpper(l) == l && strings.Trim(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" && !slices.Contains(methods, l):
			methods = append(methods, l)
		}
	}
	out := []any{req("GET", "/", "", nil)}
	for _, m := range methods[1:] {
		out = append(out, req(m, "/a", "", nil))
	}
	for _, p := range paths[1:] {
		out = append(out, req("GET", p, "", nil))
	}
	return append(out, req("GET", "http://example.com/a", "", nil), req("POST", "/a", "a=1&b=2", nil),
		req("GET", "/a", "", map[string]string{"Accept": "application/json", "X-Forwarded-Proto": "https"}))
}

// goContexts are the contexts a context.Context parameter takes: the
// background first (what most callers pass), then one already canceled
// and one past its deadline, where a function that honours its context
// stops.
func goContexts() []any {
	var out []any
	for _, state := range []string{"background", "canceled", "deadline"} {
		out = append(out, map[string]any{"$go": "context.Context", "value": state})
	}
	return out
}

// goReflectValues are the values a reflect.Value parameter takes, each
// settable: the zero of each kind a reflection-driven decoder fills in
// (an int, a float, text, a bool, a list, a map), then values holding
// data an encoder reads, the function's own words among them, and values
// of kind Interface (a struct's any field, holding a value or nil).
func goReflectValues(lits []string) []any {
	rv := func(v any) any { return map[string]any{"$go": "reflect.Value", "value": v} }
	typed := func(name string, v any) any { return rv(map[string]any{"$go": name, "value": v}) }
	out := []any{typed("int", 0), typed("float64", 0), rv(""), rv(false), rv([]any{}), rv(map[string]any{}),
		typed("interface{}", "x"), typed("interface{}", nil),
		typed("int", 7), typed("int64", -1), typed("uint", 3), typed("float64", 1.5), rv("abc"), rv(true),
		rv([]any{"a", "b"}), rv(map[string]any{"a": "1"}), typed("[]byte", "abc"), typed("interface{}", 3)}
	for _, l := range lits[:min(len(lits), 4)] {
		out = append(out, rv(l))
	}
	return out
}

// goReflectTypes are the types a reflect.Type parameter takes, by the
// names the harness reads (reflectTypes in the worker): the kinds a
// converter or a decoder tells apart, a pointer, a struct and an
// interface among them.
func goReflectTypes() []any {
	var out []any
	for _, name := range []string{"int", "string", "bool", "float64", "int64", "uint8", "[]int", "[]string", "map[string]int",
		"*int", "struct{}", "interface{}", "time.Time", "time.Duration", "[]byte", "[2]int", "error", "[]interface{}", "map[string]interface{}"} {
		out = append(out, map[string]any{"$go": "reflect.Type", "value": name})
	}
	return out
}

// goStructFields are the fields a reflect.StructField parameter takes:
// untagged ones of a few types, one unexported, and string fields tagged
// with the function's words as keys (json when it has none) and as the
// options after a name: `conf:"a"`, `conf:"a,required"`, `conf:"-"`.
func goStructFields(lits []string) []any {
	field := func(name, typ, tag string) any {
		return map[string]any{"$go": "reflect.StructField", "value": map[string]any{"name": name, "type": typ, "tag": tag}}
	}
	out := []any{field("A", "int", ""), field("A", "string", ""), field("b", "int", ""), field("A", "*int", ""),
		field("A", "[]string", ""), field("A", "struct{}", ""), field("A", "time.Time", ""), field("A", "bool", "")}
	var words []string
	for _, l := range lits {
		if tagWord.MatchString(l) && !slices.Contains(words, l) {
			words = append(words, l)
		}
	}
	keys := words[:min(len(words), 3)]
	if len(keys) == 0 {
		keys = []string{"json"}
	}
	for _, k := range keys {
		for _, typ := range []string{"string", "int"} {
			out = append(out, field("A", typ, k+`:"a"`), field("A", typ, k+`:"-"`), field("A", typ, k+`:",omitempty"`))
			for _, o := range words[:min(len(words), 4)] {
				if o != k {
					out = append(out, field("A", typ, k+`:"a,`+o+`"`))
				}
			}
		}
	}
	return out
}

// tagWord is a word a struct tag's key or option can be.
var tagWord = regexp.MustCompile(`^[a-z][a-z0-9_]{1,15}$`)

func goLocations() []any {
	var out []any
	for _, z := range []string{"UTC", "-05:00", "+05:30", "+14:00"} {
		out = append(out, map[string]any{"$go": "*time.Location", "value": z})
	}
	return append(out, nil)
}

// goSpecialFloats are the floats JSON has no number for: NaN, which no
// comparison holds for, and the infinities, as the harness reads them
// ({"$go": "float64", "value": "NaN"}); none for a parameter of a named
// float type.
func goSpecialFloats(typ string) []any {
	if typ != "float64" && typ != "float32" {
		return nil
	}
	var out []any
	for _, v := range []string{"NaN", "+Inf", "-Inf"} {
		out = append(out, map[string]any{"$go": typ, "value": v})
	}
	return out
}

// holdsDollar says v holds an object with a "$" key at any depth.
func holdsDollar(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if hasDollar(x) {
			return true
		}
		for _, e := range x {
			if holdsDollar(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsDollar(e) {
				return true
			}
		}
	}
	return false
}

// goSameTexts are lang.SameTexts: a text with a character of several
// bytes leads, where a byte offset and a rune index part.
func goSameTexts(pools [][]any) [][]any {
	return lang.SameTexts(pools, nil, 5, func(t string) bool { return utf8.RuneCountInString(t) < len(t) })
}
