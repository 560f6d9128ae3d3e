package javascript

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/evidence/jssource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// What a call did beyond its value (issue 24: the caller's slice after
// the call; issue 27: a removed copy before mutation). An evidence row
// asks the worker to observe ($observe): the arguments as the call left
// them ({"$returned": V, "$args_after": {...}}), the first items of an
// iterator or generator it returned, and a function it returned by what
// that function does on a few small calls and by the data it carries (a
// compiled matcher's regexp). Without it, a patch that sorts its caller's
// array in place, or changes what a returned matcher matches, differed
// from the base on no row.

// observeItems is how many items of a returned iterator are compared.
const observeItems = 20

// maxProbes bounds the calls a target's returned function takes beyond
// the worker's own.
const maxProbes = 12

// jsInnerFunctionRe finds a function written inside a target's body: a
// function it may return.
var jsInnerFunctionRe = regexp.MustCompile(`=>|\bfunction\b`)

// Probes are the extra calls a function the target returns is probed
// with: those the tests make of it, then one argument each from the
// target's own constants (a matcher a factory compiles compares with
// them). Nil for a target whose body
// writes no function: it returns none to probe.
func (*jsLang) Probes(tg lang.Target) []any {
	info, _ := tg.Data.(*jsInfo)
	if info == nil {
		return nil
	}
	out := methodProbes(info.harvested)
	if !jsInnerFunctionRe.MatchString(bodyOf(tg.HeadText)) {
		return out
	}
	seen := map[string]bool{}
	// What the tests call a returned function with (wcmatch('one/**',
	// '/')('onetwo/three.js')) first: the calls its change is about.
	for _, in := range info.harvested {
		for _, then := range in.Then {
			args, ok := literalArgs(then)
			if k := fmt.Sprint(args); ok && !seen[k] && len(out) < maxProbes {
				seen[k] = true
				out = append(out, args)
			}
		}
	}
	for _, c := range info.consts {
		v, ok := jssource.Value(c.Value)
		if !ok {
			continue
		}
		if k := fmt.Sprint(v); !seen[k] && len(out) < maxProbes {
			seen[k] = true
			out = append(out, []any{v})
		}
	}
	return out
}

// methodProbes are the method calls the tests make of what the target
// returned (var parser = regexp(/[0-9]/); parser.parse("1")), each once,
// as the worker takes them: {"$call": "parse", "$args": ["1"]}. A returned
// object is compared by their answers too: a parser combinator's change
// shows only in what its parser parses.
func methodProbes(harvested []jssource.Input) []any {
	var out []any
	seen := map[string]bool{}
	for _, in := range harvested {
		for _, st := range in.Calls {
			if st.Method == "constructor" || strings.HasPrefix(st.Method, "__") {
				continue // the object's machinery, not what it does
			}
			args, ok := literalArgs(st.Args)
			if k := st.Method + fmt.Sprint(args); ok && !seen[k] && len(out) < maxProbes {
				seen[k] = true
				out = append(out, map[string]any{lang.MethodCallKey: st.Method, lang.MethodArgsKey: args})
			}
		}
	}
	return out
}

// literalArgs reads a harvested call's arguments, each a literal as
// written, into the values the worker decodes; false when one is not.
func literalArgs(lits []string) ([]any, bool) {
	args := make([]any, 0, len(lits))
	for _, a := range lits {
		v, ok := jssource.Value(a)
		if !ok {
			return nil, false
		}
		args = append(args, v)
	}
	return args, true
}

// bodyOf is a function's text past its first line, which names it.
func bodyOf(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			return text[i:]
		}
	}
	return ""
}

// Observe turns an evidence row into the worker's observed call.
func (*jsLang) Observe(r validate.Row, probes []any) validate.Row {
	return lang.ObservedRow(r, observeItems, probes)
}

var _ lang.Observer = (*jsLang)(nil)

// Outcomes is what a JavaScript row did on each side, observed as the
// worker observes it: the arguments a call left changed ("argument 1
// became [1, 3]"), an iterator's first items, and, for two returned
// functions, the first call on which they part ("returned a function;
// f("ab") = false" against "= true").
func (*jsLang) Outcomes(base, head *gate.Reply, o lang.Origin) (string, string) {
	b, h := lang.DescribeWith(jsOutcome, base), lang.DescribeWith(jsOutcome, head)
	if b != h || base == nil || head == nil || base.Outcome != gate.OutcomeReturned || head.Outcome != gate.OutcomeReturned {
		return b, h
	}
	if label, bv, hv, ok := jsProbes.FirstDiff("f", base.Value, head.Value, o.Probes); ok {
		return "returned a function; " + label + bv, "returned a function; " + label + hv
	}
	if label, bv, hv, ok := methodsDiff(base.Value, head.Value, o.Probes); ok {
		return "returned an object; " + label + bv, "returned an object; " + label + hv
	}
	return b, h
}

// methodsDiff finds the first of a returned object's method probes on
// which the two sides part: its call (.parse("x0")) and what each side
// answered there. The answers are in the order of the probes'
// ({"$call": ...}) among all the row's probes.
func methodsDiff(base, head any, probes []any) (string, string, string, bool) {
	var calls []map[string]any
	for _, p := range probes {
		if m, ok := p.(map[string]any); ok {
			calls = append(calls, m)
		}
	}
	bm, _ := base.(map[string]any)
	hm, _ := head.(map[string]any)
	bs, ok1 := bm[lang.MethodsKey].([]any)
	hs, ok2 := hm[lang.MethodsKey].([]any)
	if !ok1 || !ok2 {
		return "", "", "", false
	}
	answer := func(v any) string {
		m, _ := v.(map[string]any)
		if e, ok := m["$raised"].(string); ok {
			return " threw " + e
		}
		if _, ok := m["$none"]; ok {
			return ": no such method"
		}
		if after, ok := m[lang.ArgsAfterKey].(map[string]any); ok {
			// The method changed what it was handed (asc(by) took a key
			// off the caller's list).
			return " = " + lang.Compact(m["$value"], 60) + "; " + lang.ArgsAfterText(after, func(v any) string { return lang.Compact(v, 60) })
		}
		return " = " + lang.Compact(m["$value"], 60)
	}
	for i := 0; i < len(bs) && i < len(hs); i++ {
		if reflect.DeepEqual(bs[i], hs[i]) {
			continue
		}
		m, _ := hs[i].(map[string]any)
		name, _ := m[lang.MethodCallKey].(string)
		args := "(…)"
		if i < len(calls) {
			if a, ok := calls[i][lang.MethodArgsKey].([]any); ok {
				args = jsArgsText(a, 0)
			}
		}
		bv, hv := answer(bs[i]), answer(hs[i])
		if bv == hv || strings.HasSuffix(bv, "…") && strings.HasSuffix(hv, "…") {
			// Two answers alike in their first words: where they part.
			bm, _ := bs[i].(map[string]any)
			if at, x, y, ok := lang.FirstDifference(bm["$value"], m["$value"], ""); ok && at != "" {
				bv += " where " + at + " is " + lang.Compact(x, 60)
				hv += " where " + at + " is " + lang.Compact(y, 60)
			}
		}
		return "." + name + args, bv, hv, true
	}
	return "", "", "", false
}

// jsOutcome writes what an observed JavaScript call returned.
func jsOutcome(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "returned " + lang.Compact(v, 80)
	}
	if first, ok := m[lang.FirstItemsKey]; ok && len(m) == 1 {
		return "yielded " + lang.Compact(first, 80) + " first"
	}
	if _, ok := m[lang.CallsKey]; ok && len(m) == 1 {
		return "returned a function"
	}
	if _, ok := m[lang.MethodsKey]; ok && len(m) == 2 {
		// What its methods answered is told apart by Outcomes.
		return jsOutcome(m[lang.ReturnedKey])
	}
	after, hasAfter := m[lang.ArgsAfterKey].(map[string]any)
	ret, hasRet := m[lang.ReturnedKey]
	if !hasAfter || !hasRet {
		return "returned " + lang.Compact(v, 80)
	}
	return jsOutcome(ret) + "; " + lang.ArgsAfterText(after, func(v any) string { return lang.Compact(v, 60) })
}

// jsProbes is how the Node worker's probes of a returned function are
// written (gate/harness/node_worker.mjs, PROBES), in the order of its
// replies.
var jsProbes = lang.CallProbes{
	Probes:     []string{"()", "(0)", "(1)", "(-2)", "(3)", `("ab")`, "([3, 1, 2])", "(-2, 3)", "(2, 3)", `("a", "b")`, "(f)"},
	AttrProbes: []string{"()", "(0)", "(1)", "(1)"},
	Args:       func(args []any) string { return jsArgsText(args, 0) },
	Raised:     "threw",
	Show:       func(v any) string { return lang.Compact(v, 60) },
}
