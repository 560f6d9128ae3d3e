package propose

import (
	"fmt"
	"path"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// isJSTestName reports whether a file's base name marks a JavaScript or
// TypeScript test: x.test.ts, x.spec.mjs, x.test.tsx, ...
func isJSTestName(base string) bool {
	switch path.Ext(base) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx":
	default:
		return false
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
}

// JSRules are the static rules for JavaScript, which read TypeScript too:
// the narrowing patterns agents write in them (issue 27, part 4).
func JSRules() []Rule {
	return []Rule{
		{
			Name: "js-removed-sort", Language: "javascript",
			Example: "removed `const ordered = [...ranges].sort((a, b) => a[0] - b[0]);` -> `ranges` arrives already sorted",
			Doc:     "A .sort() or .toSorted() the patch deleted, with the function still walking the parameter (for...of, forEach, reduce, an index loop) and sorting nothing, assumes the parameter arrives already sorted.",
			Run:     jsRemovedSort,
		},
		{
			Name: "js-removed-copy", Language: "javascript",
			Example: "removed `const out = xs.slice();`, added `xs.sort((a, b) => a - b);` -> callers never reuse `xs` after the call",
			Doc:     "A copy of a parameter the patch deleted (.slice(), [...xs], Array.from, structuredClone, {...obj}, Object.assign({}, obj)) while the head changes the parameter in place (sort, reverse, splice, push, an element or field assigned, delete) assumes callers never reuse what they passed.",
			Run:     jsRemovedCopy,
		},
		{
			Name: "js-loose-equality", Language: "javascript",
			Example: "`if (a.id == b.id) {` -> `a.id` and `b.id` never hold values of different types that coerce equal",
			Doc:     "A guard comparing with == or != (where === or !== was, or in new code) coerces: 0 == \"\", \"1\" == 1, [] == false. The patch assumes both sides are never of different types that compare equal; a comparison with null or undefined, or of a typeof, is the idiom and left alone.",
			Run:     jsLooseEquality,
		},
		{
			Name: "js-or-default", Language: "javascript",
			Example: "`const limit = opts.limit || 10;` -> `opts.limit` is never 0, \"\" or false when it is given",
			Doc:     "A default written with || (or ||=) replaces every falsy value, not only null and undefined: 0, \"\", false and NaN become the default, where ?? would keep them. The patch assumes the left side is never one of them when it is set.",
			Run:     jsOrDefault,
		},
		{
			Name: "js-dropped-await", Language: "javascript",
			Example: "removed `await save(record);`, added `save(record);` -> `save(record)` needs no waiting",
			Doc:     "A call the base awaited and the head makes without await: the function goes on before it settles, uses a pending Promise as its value, and no longer sees its rejection. The patch assumes the call needs no waiting.",
			Run:     jsDroppedAwait,
		},
		{
			Name: "js-empty-early-return", Language: "javascript",
			Example: "`if (!xs.length) return [];` -> an empty `xs` needs none of the work below",
			Doc:     "An early return the patch adds for an empty parameter (!xs.length, xs.length === 0, xs.size === 0, xs === \"\", Object.keys(xs).length === 0) answers empty input at once: the patch assumes its answer there is the one the rest of the function would give, or that empty input is never passed.",
			Run:     jsEmptyEarlyReturn,
		},
		{
			Name: "js-optional-chain", Language: "javascript",
			Example: "`user.profile.name` became `user?.profile?.name` -> `undefined` is an acceptable answer when `user` is missing",
			Doc:     "A ?. the patch put where . was turns the TypeError a missing value raised into undefined, which flows on: the patch assumes that value may be null or undefined there and that undefined is an acceptable result for it.",
			Run:     jsOptionalChain,
		},
	}
}

// jsNorm is a line with its whitespace collapsed, for pairing a deleted
// line with an added one.
func jsNorm(s string) string { return strings.Join(strings.Fields(s), " ") }

// memberCall splits obj.method(...) into the object's text and the method
// name; ok is false for anything else.
func memberCall(text func(*sitter.Node) string, n *sitter.Node) (obj, method string, ok bool) {
	if n.Kind() != "call_expression" {
		return "", "", false
	}
	fn := n.ChildByFieldName("function")
	if fn == nil || fn.Kind() != "member_expression" {
		return "", "", false
	}
	return text(fn.ChildByFieldName("object")), text(fn.ChildByFieldName("property")), true
}

var sortMethods = map[string]bool{"sort": true, "toSorted": true}

// jsRemovedSort: a deleted sort, the parameter still walked.
func jsRemovedSort(p *Pass) {
	removed := ""
	p.JS.Removed(func(n *sitter.Node) {
		if _, m, ok := memberCall(p.JS.BaseText, n); ok && sortMethods[m] && removed == "" {
			removed = p.JS.BaseText(n)
		}
	})
	if removed == "" {
		return
	}
	sorts := false
	p.JS.Walk(func(n *sitter.Node) bool {
		if _, m, ok := memberCall(p.JS.Text, n); ok && sortMethods[m] {
			sorts = true
		}
		return !sorts
	})
	if sorts {
		return
	}
	done := false
	p.JS.Walk(func(n *sitter.Node) bool {
		if done {
			return false
		}
		name := jsWalked(p, n)
		if name != "" && p.IsParam(name) {
			done = p.ReportNear(LineOf(n), fmt.Sprintf("`%s` arrives already sorted (the patch removed `%s`)", name, removed))
		}
		return !done
	})
}

// jsWalked is the name a loop walks: for (x of NAME), NAME.forEach(...)
// and the other element-by-element methods, for (...; i < NAME.length;
// ...).
func jsWalked(p *Pass, n *sitter.Node) string {
	switch n.Kind() {
	case "for_in_statement":
		if r := n.ChildByFieldName("right"); r != nil && r.Kind() == "identifier" {
			return p.JS.Text(r)
		}
	case "for_statement":
		if c := n.ChildByFieldName("condition"); c != nil {
			var name string
			pyWalk(c, func(m *sitter.Node) bool {
				if m.Kind() == "member_expression" && p.JS.Text(m.ChildByFieldName("property")) == "length" {
					if o := m.ChildByFieldName("object"); o != nil && o.Kind() == "identifier" && name == "" {
						name = p.JS.Text(o)
					}
				}
				return name == ""
			})
			return name
		}
	case "call_expression":
		switch obj, m, ok := memberCall(p.JS.Text, n); {
		case !ok:
		case m == "forEach", m == "reduce", m == "map", m == "filter", m == "some", m == "every", m == "find", m == "findIndex", m == "flatMap":
			return obj
		}
	}
	return ""
}

// jsMutators are the array methods that change the array.
var jsMutators = map[string]bool{
	"sort": true, "reverse": true, "splice": true, "push": true, "pop": true, "shift": true,
	"unshift": true, "fill": true, "copyWithin": true,
}

// jsCopied is the name n copies: NAME.slice(), NAME.concat(), [...NAME],
// {...NAME}, Array.from(NAME), structuredClone(NAME), Object.assign({},
// NAME); "" for anything else.
func jsCopied(text func(*sitter.Node) string, n *sitter.Node) string {
	switch n.Kind() {
	case "call_expression":
		args := n.ChildByFieldName("arguments")
		if obj, m, ok := memberCall(text, n); ok && (m == "slice" || m == "concat") && args != nil && args.NamedChildCount() == 0 {
			return obj
		}
		if args == nil {
			return ""
		}
		switch text(n.ChildByFieldName("function")) {
		case "Array.from", "structuredClone":
			if args.NamedChildCount() >= 1 && args.NamedChild(0).Kind() == "identifier" {
				return text(args.NamedChild(0))
			}
		case "Object.assign":
			if args.NamedChildCount() == 2 && text(args.NamedChild(0)) == "{}" && args.NamedChild(1).Kind() == "identifier" {
				return text(args.NamedChild(1))
			}
		}
	case "array", "object":
		if n.NamedChildCount() == 1 {
			if s := n.NamedChild(0); s.Kind() == "spread_element" && s.NamedChildCount() == 1 && s.NamedChild(0).Kind() == "identifier" {
				return text(s.NamedChild(0))
			}
		}
	}
	return ""
}

// jsMutated is the name n changes in place: NAME.sort(), NAME[i] = ...,
// NAME.k = ..., delete NAME.k; "" for anything else.
func jsMutated(text func(*sitter.Node) string, n *sitter.Node) string {
	switch n.Kind() {
	case "call_expression":
		if obj, m, ok := memberCall(text, n); ok && jsMutators[m] {
			return obj
		}
	case "assignment_expression", "augmented_assignment_expression":
		if l := n.ChildByFieldName("left"); l != nil && (l.Kind() == "subscript_expression" || l.Kind() == "member_expression") {
			if o := l.ChildByFieldName("object"); o != nil && o.Kind() == "identifier" {
				return text(o)
			}
		}
	case "unary_expression":
		if text(n.ChildByFieldName("operator")) == "delete" {
			if a := n.ChildByFieldName("argument"); a != nil && (a.Kind() == "member_expression" || a.Kind() == "subscript_expression") {
				return text(a.ChildByFieldName("object"))
			}
		}
	}
	return ""
}

// jsRemovedCopy: a deleted copy of a parameter the head now changes in
// place.
func jsRemovedCopy(p *Pass) {
	copied := map[string]string{} // parameter -> the deleted copy
	p.JS.Removed(func(n *sitter.Node) {
		if name := jsCopied(p.JS.BaseText, n); name != "" && p.IsParam(name) && copied[name] == "" {
			copied[name] = p.JS.BaseText(n)
		}
	})
	if len(copied) == 0 {
		return
	}
	p.JS.Walk(func(n *sitter.Node) bool {
		name := jsMutated(p.JS.Text, n)
		if c := copied[name]; c != "" && p.Added(LineOf(n)) {
			if p.Report(LineOf(n), fmt.Sprintf("callers never reuse `%s` after the call: the patch changes it in place (`%s`) where the base changed a copy (`%s`)", name, p.JS.Text(n), c)) {
				delete(copied, name)
			}
		}
		return true
	})
}

// jsGuardFields are the fields of the statements whose condition guards.
var jsGuardFields = map[string]string{
	"if_statement": "condition", "while_statement": "condition", "do_statement": "condition",
	"for_statement": "condition", "ternary_expression": "condition",
}

// inGuard reports whether n lies in the condition of an if, a loop or a
// ternary, within the function.
func inGuard(fn, n *sitter.Node) bool {
	for c, p := n, n.Parent(); p != nil; c, p = p, p.Parent() {
		if f, ok := jsGuardFields[p.Kind()]; ok {
			if cond := p.ChildByFieldName(f); cond != nil && cond.StartByte() <= c.StartByte() && c.EndByte() <= cond.EndByte() {
				return true
			}
		}
		if p.StartByte() == fn.StartByte() && p.EndByte() == fn.EndByte() || jsFuncKinds[p.Kind()] {
			return false
		}
	}
	return false
}

// jsNullish reports whether n is null, undefined or void 0.
func jsNullish(text func(*sitter.Node) string, n *sitter.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "null", "undefined":
		return true
	case "identifier":
		return text(n) == "undefined"
	case "unary_expression":
		return text(n.ChildByFieldName("operator")) == "void"
	}
	return false
}

func isTypeof(text func(*sitter.Node) string, n *sitter.Node) bool {
	return n != nil && n.Kind() == "unary_expression" && text(n.ChildByFieldName("operator")) == "typeof"
}

// jsLooseEquality: == or != in a guard, not against null and not of a
// typeof.
func jsLooseEquality(p *Pass) {
	p.JS.Walk(func(n *sitter.Node) bool {
		if n.Kind() != "binary_expression" {
			return true
		}
		op := p.JS.Text(n.ChildByFieldName("operator"))
		if op != "==" && op != "!=" || !p.Added(LineOf(n)) || !inGuard(p.JS.Node, n) {
			return true
		}
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if jsNullish(p.JS.Text, l) || jsNullish(p.JS.Text, r) || isTypeof(p.JS.Text, l) || isTypeof(p.JS.Text, r) {
			return true
		}
		lt, rt := p.JS.Text(l), p.JS.Text(r)
		pre := fmt.Sprintf("`%s` and `%s` never hold values of different types that `%s` coerces (`0 == \"\"`, `\"1\" == 1`, `[] == false`)", lt, rt, op)
		strict := strings.Replace(jsNorm(p.Line(LineOf(n))), op, op+"=", 1)
		for _, old := range p.Removed {
			if jsNorm(old) == strict {
				pre += fmt.Sprintf("; the patch loosened `%s=` to `%s`", op, op)
				break
			}
		}
		p.Report(LineOf(n), pre)
		return true
	})
}

// jsDefaultLiteral reports whether n is a literal a || default is written
// with: a number, a string, a template with no substitution, a boolean.
func jsDefaultLiteral(n *sitter.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "number", "string", "true", "false":
		return true
	case "template_string":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if n.NamedChild(i).Kind() == "template_substitution" {
				return false
			}
		}
		return true
	case "unary_expression":
		a := n.ChildByFieldName("argument")
		return a != nil && a.Kind() == "number"
	}
	return false
}

// jsOrDefault: x || literal outside a guard, and x ||= literal.
func jsOrDefault(p *Pass) {
	p.JS.Walk(func(n *sitter.Node) bool {
		var left, right *sitter.Node
		switch n.Kind() {
		case "binary_expression":
			if p.JS.Text(n.ChildByFieldName("operator")) != "||" || inGuard(p.JS.Node, n) {
				return true
			}
			if par := n.Parent(); par != nil && (par.Kind() == "binary_expression" || par.Kind() == "unary_expression") {
				return true // a || b inside a larger test
			}
		case "augmented_assignment_expression":
			if p.JS.Text(n.ChildByFieldName("operator")) != "||=" {
				return true
			}
		default:
			return true
		}
		left, right = n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if !jsDefaultLiteral(right) || left == nil || !p.Added(LineOf(n)) {
			return true
		}
		switch left.Kind() {
		case "identifier", "member_expression", "subscript_expression", "call_expression":
		default:
			return true // a comparison or a logical expression: already a boolean
		}
		lt := p.JS.Text(left)
		p.Report(LineOf(n), fmt.Sprintf("`%s` is never 0, \"\", false or NaN when it is given: `||` replaces them with `%s` (`??` would keep them)", lt, p.JS.Text(right)))
		return true
	})
}

// jsDroppedAwait: a call the base awaited and the head does not.
func jsDroppedAwait(p *Pass) {
	awaited := map[string]bool{}
	p.JS.Removed(func(n *sitter.Node) {
		if n.Kind() == "await_expression" && n.NamedChildCount() > 0 {
			awaited[jsNorm(p.JS.BaseText(n.NamedChild(0)))] = true
		}
	})
	if len(awaited) == 0 {
		return
	}
	p.JS.Walk(func(n *sitter.Node) bool {
		if n.Kind() == "await_expression" {
			return false
		}
		if n.Kind() != "call_expression" || !p.Added(LineOf(n)) {
			return true
		}
		if call := jsNorm(p.JS.Text(n)); awaited[call] {
			if p.Report(LineOf(n), fmt.Sprintf("`%s` needs no waiting: the patch no longer awaits it, so the function goes on before it settles and does not see it fail", call)) {
				delete(awaited, call)
			}
			return false
		}
		return true
	})
}

// jsEmptyTest is the parameter an emptiness test names: !NAME.length,
// NAME.length === 0 (== 0, < 1, <= 0), NAME.size === 0, NAME === "",
// Object.keys(NAME).length === 0, and either side of || holding one.
func jsEmptyTest(p *Pass, c *sitter.Node) string {
	text := p.JS.Text
	c = unwrapParens(c)
	if c == nil {
		return ""
	}
	sized := func(m *sitter.Node) string { // NAME.length, NAME.size, Object.keys(NAME).length
		if m == nil || m.Kind() != "member_expression" {
			return ""
		}
		prop, obj := text(m.ChildByFieldName("property")), m.ChildByFieldName("object")
		if prop != "length" && prop != "size" || obj == nil {
			return ""
		}
		if obj.Kind() == "identifier" {
			return text(obj)
		}
		if obj.Kind() == "call_expression" && text(obj.ChildByFieldName("function")) == "Object.keys" {
			if args := obj.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() == 1 && args.NamedChild(0).Kind() == "identifier" {
				return text(args.NamedChild(0))
			}
		}
		return ""
	}
	switch c.Kind() {
	case "unary_expression":
		if text(c.ChildByFieldName("operator")) == "!" {
			return sized(unwrapParens(c.ChildByFieldName("argument")))
		}
	case "binary_expression":
		op := text(c.ChildByFieldName("operator"))
		l, r := unwrapParens(c.ChildByFieldName("left")), unwrapParens(c.ChildByFieldName("right"))
		switch op {
		case "||":
			if n := jsEmptyTest(p, l); n != "" {
				return n
			}
			return jsEmptyTest(p, r)
		case "===", "==", "<=", "<":
			zero := map[string]string{"===": "0", "==": "0", "<=": "0", "<": "1"}[op]
			if r != nil && text(r) == zero {
				return sized(l)
			}
			if (op == "===" || op == "==") && r != nil && (text(r) == `""` || text(r) == "''") && l.Kind() == "identifier" {
				return text(l)
			}
		}
	}
	return ""
}

func unwrapParens(n *sitter.Node) *sitter.Node {
	for n != nil && n.Kind() == "parenthesized_expression" && n.NamedChildCount() > 0 {
		n = n.NamedChild(0)
	}
	return n
}

// jsEmptyEarlyReturn: an added if on an empty parameter that returns.
func jsEmptyEarlyReturn(p *Pass) {
	p.JS.Walk(func(n *sitter.Node) bool {
		if n.Kind() != "if_statement" || !p.Added(LineOf(n)) {
			return true
		}
		name := jsEmptyTest(p, n.ChildByFieldName("condition"))
		if !p.IsParam(name) {
			return true
		}
		ret := n.ChildByFieldName("consequence")
		if ret != nil && ret.Kind() == "statement_block" && ret.NamedChildCount() > 0 {
			ret = ret.NamedChild(0)
		}
		if ret == nil || ret.Kind() != "return_statement" {
			return true
		}
		what := "nothing"
		if ret.NamedChildCount() > 0 {
			what = "`" + p.JS.Text(ret.NamedChild(0)) + "`"
		}
		p.Report(LineOf(n), fmt.Sprintf("an empty `%s` needs none of the work below: the patch returns %s for it at once", name, what))
		return true
	})
}

// jsOptionalChain: an added ?. where the deleted line had a plain access.
func jsOptionalChain(p *Pass) {
	removed := map[string]bool{}
	for _, l := range p.Removed {
		removed[jsNorm(l)] = true
	}
	if len(removed) == 0 {
		return
	}
	plain := strings.NewReplacer("?.(", "(", "?.[", "[", "?.", ".")
	p.JS.Walk(func(n *sitter.Node) bool {
		if n.Kind() != "optional_chain" || !p.Added(LineOf(n)) {
			return true
		}
		line := p.Line(LineOf(n))
		if !removed[jsNorm(plain.Replace(line))] {
			return true
		}
		access := n.Parent()
		obj := ""
		if access != nil {
			if o := access.ChildByFieldName("object"); o != nil {
				obj = p.JS.Text(o)
			} else if f := access.ChildByFieldName("function"); f != nil {
				obj = p.JS.Text(f)
			}
		}
		p.Report(LineOf(n), fmt.Sprintf("`%s` may be null or undefined here and `undefined` is an acceptable result for it: `%s` threw a TypeError on it, `%s` gives `undefined`", obj, jsNorm(plain.Replace(p.JS.Text(access))), jsNorm(p.JS.Text(access))))
		return false
	})
}
