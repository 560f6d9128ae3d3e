package jssource

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// maxDepth bounds how deep a literal is followed: nested arrays in a
// hostile file must not exhaust the stack.
const maxDepth = 64

// literalIdents are the names that stand for values.
var literalIdents = map[string]bool{"undefined": true, "NaN": true, "Infinity": true}

// scope maps the names a literal may use to their values' source text:
// the parameters of a table's callback bound to one row.
type scope map[string]string

// literal renders n as JavaScript source when it is a literal value: a
// number (BigInt included), a string, a template string with no
// substitution, true, false, null, undefined, NaN, Infinity, a negated or
// plus-signed number, and arrays and objects of those (plain keys, no
// spreads, no methods). A name is replaced by its value in sc, else by the
// literal a const of the file binds it to once. ok is false for anything
// else.
func (f *File) literal(n *sitter.Node, sc scope) (string, bool) {
	return f.lit(n, sc, 0)
}

// lit renders one literal, a node kind at a time.
func (f *File) lit(n *sitter.Node, sc scope, depth int) (string, bool) {
	if n == nil || depth > maxDepth {
		return "", false
	}
	switch n.Kind() {
	case "number", "true", "false", "null", "undefined", "string", "regex":
		return f.text(n), true
	case "template_string":
		if substituted(n) {
			return "", false
		}
		return f.text(n), true
	case "parenthesized_expression":
		return f.lit(n.NamedChild(0), sc, depth+1)
	case "unary_expression":
		return f.signedLit(n)
	case "identifier":
		return f.nameLit(n, sc, depth)
	case "array":
		return f.arrayLit(n, sc, depth)
	case "object":
		return f.objectLit(n, sc, depth)
	case "new_expression":
		if s, ok := f.dateLit(n, sc, depth); ok {
			return s, true
		}
		return f.builtLit(n, sc, depth)
	case "binary_expression":
		return f.concatLit(n, sc, depth)
	case "arrow_function", "function_expression", "function":
		// A callback the test passes: premise's own stands in for it
		// (Callback), whatever the test's did.
		return Callback, true
	case "member_expression", "subscript_expression":
		// A field of a bound row (test.input, CASES[i].config): bound
		// under its path (fieldsOf).
		if s, ok := sc[f.text(n)]; ok {
			return s, true
		}
		if obj := n.ChildByFieldName("object"); n.Kind() == "member_expression" && obj != nil && sc[f.text(obj)+boundObject] != "" {
			return "undefined", true // a field the bound row does not have
		}
	}
	return "", false
}

// Callback is how a literal writes a function a test passes (a
// callback, a replacer): the worker's callback that marks the text it is
// handed ({"$func": "mark"}), so that a function that finds parts of a
// string and hands each to its callback (URI.js' withinString) returns
// what it found.
const Callback = "premise$callback"

// maxConcat bounds a string a test builds with + (its source text's
// length).
const maxConcat = 1 << 14

// concatLit renders 'a' + 'b' + ... of literal strings as the one string
// it makes (a test's source = 'Hello www.example.com,\n' + ...).
func (f *File) concatLit(n *sitter.Node, sc scope, depth int) (string, bool) {
	op := n.ChildByFieldName("operator")
	if op == nil || f.text(op) != "+" || n.EndByte()-n.StartByte() > maxConcat {
		return "", false
	}
	var text string
	for _, side := range []*sitter.Node{n.ChildByFieldName("left"), n.ChildByFieldName("right")} {
		src, ok := f.lit(side, sc, depth+1)
		if !ok {
			return "", false
		}
		v, ok := Value(src)
		s, isStr := v.(string)
		if !ok || !isStr {
			return "", false
		}
		text += s
	}
	b, err := json.Marshal(text)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// maxDateArgs is how many arguments new Date takes (year to millisecond).
const maxDateArgs = 7

// dateArgs are the arguments of new Date(...) with literal numbers or one
// string: the date a test builds (new Date(999, 0, 1), new
// Date("2020-01-01")); nil for any other new expression.
func dateArgs(f *File, n *sitter.Node) []*sitter.Node {
	ctor, args := n.ChildByFieldName("constructor"), n.ChildByFieldName("arguments")
	if ctor == nil || args == nil || f.text(ctor) != "Date" {
		return nil
	}
	var out []*sitter.Node
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if a := args.NamedChild(i); a.Kind() != "comment" {
			out = append(out, a)
		}
	}
	if len(out) == 0 || len(out) > maxDateArgs {
		return nil
	}
	return out
}

// dateLit renders new Date(...) of literal numbers, or of one literal
// string or number.
func (f *File) dateLit(n *sitter.Node, sc scope, depth int) (string, bool) {
	args := dateArgs(f, n)
	if args == nil {
		return "", false
	}
	var parts []string
	for _, a := range args {
		s, ok := f.lit(a, sc, depth+1)
		if !ok {
			return "", false
		}
		v, ok := Value(s)
		if _, num := v.(json.Number); !ok || !num && !(len(args) == 1 && isString(v)) {
			return "", false
		}
		parts = append(parts, s)
	}
	return "new Date(" + strings.Join(parts, ", ") + ")", true
}

// builtLit renders new X(...) of literal arguments, X a class named as
// the code under test names its own (capitalized, not one of the
// language's): a test's new BN(2) handed to gcd. Value reads it as
// {"$new": "X", "$args": [...]}, its class named bare for the caller to
// find in the module (Named).
func (f *File) builtLit(n *sitter.Node, sc scope, depth int) (string, bool) {
	name := builtClass(f, n)
	if name == "" {
		return "", false
	}
	args := "[]"
	if list := n.ChildByFieldName("arguments"); list != nil {
		var ok bool
		if args, ok = f.arrayLit(list, sc, depth); !ok { // its elements, as an array's
			return "", false
		}
	}
	return "new " + name + "(" + args[1:len(args)-1] + ")", true
}

// builtClass is the class new_expression n constructs when it may be the
// module's own: a capitalized name, bare or read off a namespace
// (new m.BN(2)), that is not one of JavaScript's built-in classes.
func builtClass(f *File, n *sitter.Node) string {
	ctor := n.ChildByFieldName("constructor")
	if ctor != nil && ctor.Kind() == "member_expression" {
		ctor = ctor.ChildByFieldName("property")
	}
	if ctor == nil || ctor.Kind() != "identifier" && ctor.Kind() != "property_identifier" {
		return ""
	}
	name := f.text(ctor)
	if name == "" || name[0] < 'A' || name[0] > 'Z' || builtins[name] {
		return ""
	}
	return name
}

// builtins are JavaScript's and Node's global classes: new Map(...) in a
// test is no object of the module's.
var builtins = map[string]bool{
	"Array": true, "ArrayBuffer": true, "BigInt": true, "BigInt64Array": true, "BigUint64Array": true,
	"Blob": true, "Boolean": true, "Buffer": true, "DataView": true, "Date": true, "Error": true,
	"EvalError": true, "Event": true, "EventEmitter": true, "EventTarget": true, "Float32Array": true,
	"Float64Array": true, "Function": true, "Int16Array": true, "Int32Array": true, "Int8Array": true,
	"Intl": true, "Map": true, "Number": true, "Object": true, "Promise": true, "Proxy": true,
	"RangeError": true, "ReferenceError": true, "RegExp": true, "Set": true, "SharedArrayBuffer": true,
	"String": true, "Symbol": true, "SyntaxError": true, "TextDecoder": true, "TextEncoder": true,
	"TypeError": true, "URIError": true, "URL": true, "URLSearchParams": true, "Uint16Array": true,
	"Uint32Array": true, "Uint8Array": true, "Uint8ClampedArray": true, "WeakMap": true,
	"WeakRef": true, "WeakSet": true, "AbortController": true, "Headers": true, "Request": true,
	"Response": true, "FormData": true, "AggregateError": true,
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// substituted reports whether a template string has a substitution
// (`a${b}`), which no literal has.
func substituted(n *sitter.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.NamedChild(i).Kind() == "template_substitution" {
			return true
		}
	}
	return false
}

// signedLit renders a number, Infinity or NaN after - or +.
func (f *File) signedLit(n *sitter.Node) (string, bool) {
	op, arg := n.ChildByFieldName("operator"), n.ChildByFieldName("argument")
	if op == nil || arg == nil || (f.text(op) != "-" && f.text(op) != "+") {
		return "", false
	}
	if arg.Kind() == "number" || arg.Kind() == "identifier" && (f.text(arg) == "Infinity" || f.text(arg) == "NaN") {
		return f.text(op) + f.text(arg), true
	}
	return "", false
}

// nameLit renders a name: its value in sc, a name that stands for a
// value, or the literal a const of the file binds it to once.
func (f *File) nameLit(n *sitter.Node, sc scope, depth int) (string, bool) {
	name := f.text(n)
	if v, ok := sc[name]; ok {
		return v, v != "" // "": a parameter of the table's callback bound to no literal
	}
	if literalIdents[name] || name == Callback {
		return name, true
	}
	if c := f.constants()[name]; c != nil {
		return f.lit(c, nil, depth+1)
	}
	if v := f.blockBinding(n, name); v != nil {
		return f.lit(v, sc, depth+1)
	}
	if e, ok := f.enumObjects()[name]; ok {
		return e, true
	}
	return "", false
}

// blockBinding is the value the innermost block around use declares name
// with, once and before the use, and never assigns again: the var
// constraints = {...} of the test's own function body, where the file
// declares a constraints in every test (validate.js' specs), so no
// file-wide constant holds it. nil when there is none.
func (f *File) blockBinding(use *sitter.Node, name string) *sitter.Node {
	for b := use.Parent(); b != nil; b = b.Parent() {
		if b.Kind() != "statement_block" {
			continue
		}
		var found *sitter.Node
		count := 0
		for i := uint(0); i < b.NamedChildCount(); i++ {
			st := b.NamedChild(i)
			if st.Kind() != "lexical_declaration" && st.Kind() != "variable_declaration" {
				continue
			}
			for j := uint(0); j < st.NamedChildCount(); j++ {
				d := st.NamedChild(j)
				if d.Kind() != "variable_declarator" || f.text(d.ChildByFieldName("name")) != name {
					continue
				}
				count++
				if d.EndByte() <= use.StartByte() {
					found = d.ChildByFieldName("value")
				}
			}
		}
		if count == 0 {
			continue // declared further out, if anywhere
		}
		if count > 1 || found == nil || f.assignedIn(b, name) {
			return nil
		}
		return found
	}
	return nil
}

// assignedIn reports whether anything inside n assigns name or updates it.
func (f *File) assignedIn(n *sitter.Node, name string) bool {
	switch n.Kind() {
	case "assignment_expression", "augmented_assignment_expression":
		if l := n.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" && f.text(l) == name {
			return true
		}
	case "update_expression":
		if a := n.ChildByFieldName("argument"); a != nil && a.Kind() == "identifier" && f.text(a) == name {
			return true
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if f.assignedIn(n.NamedChild(i), name) {
			return true
		}
	}
	return false
}

// enumObjects are the file's TypeScript enums declared once, each as the
// object it is at run time (`enum Dir { Up, Down }` is {Up: 0, Down: 1,
// "0": "Up", "1": "Down"}: a numeric member maps back from its value, a
// string one does not). An enum with a member computed from anything but
// a literal is left out.
func (f *File) enumObjects() map[string]string {
	if f.enums != nil || f.root == nil {
		return f.enums
	}
	f.enums = map[string]string{}
	seen := map[string]int{}
	f.eachNode(func(n *sitter.Node) {
		if n.Kind() != "enum_declaration" {
			return
		}
		if name := n.ChildByFieldName("name"); name != nil {
			seen[f.text(name)]++
			if obj, ok := f.enumObject(n.ChildByFieldName("body")); ok {
				f.enums[f.text(name)] = obj
			}
		}
	})
	dropRebound(f.enums, seen)
	return f.enums
}

// enumObject renders an enum's body as its run-time object.
func (f *File) enumObject(body *sitter.Node) (string, bool) {
	if body == nil {
		return "", false
	}
	var forward, back []string
	next, numeric := 0.0, true // the value of a member without one
	for i := uint(0); i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		key, value := m, (*sitter.Node)(nil)
		switch m.Kind() {
		case "comment":
			continue
		case "enum_assignment":
			key, value = m.ChildByFieldName("name"), m.ChildByFieldName("value")
		}
		name, ok := f.enumKey(key)
		if !ok {
			return "", false
		}
		switch {
		case value == nil && !numeric:
			return "", false // follows a string member: tsc refuses it
		case value == nil:
		default:
			lit, ok := f.lit(value, nil, 0)
			if !ok {
				return "", false
			}
			v, _ := Value(lit)
			switch x := v.(type) {
			case string:
				forward = append(forward, strconv.Quote(name)+": "+lit)
				numeric = false
				continue
			case json.Number:
				n, err := x.Float64()
				if err != nil {
					return "", false
				}
				next, numeric = n, true
			default:
				return "", false
			}
		}
		num := strconv.FormatFloat(next, 'f', -1, 64)
		forward = append(forward, strconv.Quote(name)+": "+num)
		back = append(back, strconv.Quote(num)+": "+strconv.Quote(name))
		next++
	}
	return "{" + strings.Join(append(forward, back...), ", ") + "}", true
}

// enumKey is a member's name: a name, a string or a number.
func (f *File) enumKey(k *sitter.Node) (string, bool) {
	if k == nil {
		return "", false
	}
	switch k.Kind() {
	case "property_identifier":
		return f.text(k), true
	case "string", "number":
		v, ok := Value(f.text(k))
		if !ok {
			return "", false
		}
		return fmt.Sprint(v), true
	}
	return "", false
}

// arrayLit renders an array whose every element is a literal, comments
// dropped.
func (f *File) arrayLit(n *sitter.Node, sc scope, depth int) (string, bool) {
	parts := []string{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "comment" {
			continue
		}
		s, ok := f.lit(c, sc, depth+1)
		if !ok {
			return "", false
		}
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

// objectLit renders an object of plain keys (names, strings, numbers)
// and literal values, comments dropped; a spread, a method, a shorthand
// or a computed key is not a literal.
func (f *File) objectLit(n *sitter.Node, sc scope, depth int) (string, bool) {
	parts := []string{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "comment":
			continue
		case "pair":
			k := c.ChildByFieldName("key")
			if k == nil || (k.Kind() != "property_identifier" && k.Kind() != "string" && k.Kind() != "number") {
				return "", false
			}
			v, ok := f.lit(c.ChildByFieldName("value"), sc, depth+1)
			if !ok {
				return "", false
			}
			parts = append(parts, f.text(k)+": "+v)
		default:
			return "", false
		}
	}
	if len(parts) == 0 {
		return "{}", true
	}
	return "{ " + strings.Join(parts, ", ") + " }", true
}

// constants are the names the file binds once, by const, to a value; a
// name bound twice anywhere (two tests' own consts) is left out, since
// which one a call sees depends on its scope.
func (f *File) constants() map[string]*sitter.Node {
	if f.consts != nil || f.root == nil {
		return f.consts
	}
	f.consts = map[string]*sitter.Node{}
	seen := map[string]int{}
	assigned := map[string]bool{}
	f.eachNode(func(n *sitter.Node) {
		switch n.Kind() {
		case "assignment_expression", "augmented_assignment_expression":
			if l := n.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" {
				assigned[f.text(l)] = true
			}
			return
		case "update_expression":
			if a := n.ChildByFieldName("argument"); a != nil && a.Kind() == "identifier" {
				assigned[f.text(a)] = true
			}
			return
		case "variable_declarator":
		default:
			return
		}
		if name := n.ChildByFieldName("name"); name != nil && name.Kind() == "identifier" {
			k := f.text(name)
			seen[k]++
			p := n.Parent()
			v := n.ChildByFieldName("value")
			switch {
			case v == nil || p == nil:
			case p.Kind() == "lexical_declaration" && strings.HasPrefix(f.text(p), "const"):
				f.consts[k] = v
			case p.Kind() == "variable_declaration":
				// A var the file declares once and never assigns
				// again holds its value as a const does (older tests'
				// var PARSE_TESTS = [...], a describe's var tests =
				// [...]).
				f.consts[k] = v
			}
		}
	})
	for k := range assigned {
		seen[k] += 2
	}
	dropRebound(f.consts, seen)
	return f.consts
}

// eachNode calls visit on every node of the file, 400 levels deep at
// most: a hostile file must not exhaust the stack.
func (f *File) eachNode(visit func(n *sitter.Node)) {
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 400 {
			return
		}
		visit(n)
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(f.root, 0)
}

// dropRebound deletes from m each name seen bound more than once: which
// binding a use sees depends on its scope.
func dropRebound[V any](m map[string]V, seen map[string]int) {
	for k, n := range seen {
		if n > 1 {
			delete(m, k)
		}
	}
}
