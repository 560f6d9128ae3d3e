package diffparse

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Languages of the JavaScript and TypeScript front ends, as File.Language
// names them.
const (
	LangJavaScript = "javascript"
	LangTypeScript = "typescript"
)

// jsFrontEnd maps JavaScript (.js, .mjs, .cjs, .jsx) and TypeScript (.ts,
// .mts, .cts, .tsx) with tree-sitter's grammars (issue 27, part 1):
//   - functions (function, function*, async function, export default
//     function: "default" when it has no name), and arrow functions,
//     function expressions and classes bound to a name by const, let or var,
//     exported or not;
//   - classes (class declarations and class expressions bound to a name),
//     their methods, getters, setters, constructors and fields holding a
//     function (Interval.merge, Interval.#secret), and the methods of
//     object literals bound to a name (api.merge, api.nested.deep);
//   - CommonJS exports (exports.f = ..., module.exports.f = ..., the
//     members of module.exports = {...}) as functions of the module, and
//     Foo.prototype.m = function as the method Foo.m;
//   - TypeScript's interfaces, type aliases and enums as types, abstract
//     methods, and the members of namespaces (Geo.area). An overloaded
//     function or method is one declaration from its first signature to
//     its implementation.
//
// A span runs from the statement's first line (export, a decorator) to its
// last. Functions nested in functions belong to the enclosing symbol, as in
// Python; so do members with a computed name ([Symbol.iterator]) and
// declare'd (ambient) declarations, which hold no code.
type jsFrontEnd struct {
	lang string // LangJavaScript or LangTypeScript
}

func (fe jsFrontEnd) language() string { return fe.lang }

// jsExts and tsExts are the extensions each language owns.
var (
	jsExts = []string{".js", ".mjs", ".cjs", ".jsx"}
	tsExts = []string{".ts", ".mts", ".cts", ".tsx"}
)

func (fe jsFrontEnd) handles(p string) bool {
	exts := jsExts
	if fe.lang == LangTypeScript {
		exts = tsExts
	}
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// jsGrammar is one of the three grammars.
type jsGrammar int

const (
	grammarJS jsGrammar = iota
	grammarTS
	grammarTSX
)

var (
	jsLangOnce [3]sync.Once
	jsLangs    [3]*sitter.Language
)

func jsLanguage(g jsGrammar) *sitter.Language {
	jsLangOnce[g].Do(func() {
		switch g {
		case grammarJS:
			jsLangs[g] = sitter.NewLanguage(javascript.Language())
		case grammarTS:
			jsLangs[g] = sitter.NewLanguage(typescript.LanguageTypescript())
		default:
			jsLangs[g] = sitter.NewLanguage(typescript.LanguageTSX())
		}
	})
	return jsLangs[g]
}

// grammars are the grammars a source is tried with, in order: the file's
// extension is not known here (Decls takes a language and bytes), so
// TypeScript is read with the TypeScript grammar, and with TSX when that
// fails (JSX in a .tsx file; TSX first when the source seems to hold JSX);
// JavaScript with its own grammar, and with TSX when that fails (Flow's
// annotations read as TypeScript's).
func (fe jsFrontEnd) grammars(src []byte) []jsGrammar {
	if fe.lang == LangJavaScript {
		return []jsGrammar{grammarJS, grammarTSX}
	}
	if bytes.Contains(src, []byte("/>")) || bytes.Contains(src, []byte("</")) {
		return []jsGrammar{grammarTSX, grammarTS}
	}
	return []jsGrammar{grammarTS, grammarTSX}
}

// jsParse parses src with the first of the front end's grammars that reads
// it without a syntax error; when none does, the error is the first
// grammar's. The caller closes the tree.
func (fe jsFrontEnd) parse(src []byte) (*sitter.Tree, error) {
	var first error
	for _, g := range fe.grammars(src) {
		tree, err := jsParseWith(g, src)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		root := tree.RootNode()
		if !root.HasError() {
			return tree, nil
		}
		if first == nil {
			first = pySyntaxError(root)
		}
		tree.Close()
	}
	return nil, first
}

func jsParseWith(g jsGrammar, src []byte) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(jsLanguage(g)); err != nil {
		return nil, fmt.Errorf("javascript parser: %w", err)
	}
	tree := BoundedParse(p, src)
	if tree == nil {
		return nil, errors.New("syntax error: the parser gave up (input too hard to read)")
	}
	return tree, nil
}

// parseBudget is how much work (tree-sitter's progress calls, which come
// at a steady pace while it parses) a parse of src may take before it is
// given up: several times what real code needs (a 370 KB TypeScript file
// takes about 1,300), so that an input on which a grammar loops (TSX was
// seen to, on a few bytes of broken template) fails as a syntax error
// instead of hanging premise. It counts work, not time: the answer does
// not depend on how busy the machine is.
func parseBudget(src []byte) int { return 500 + len(src)/64 }

// BoundedParse parses src within parseBudget; nil when it was given up.
// Every JavaScript and TypeScript parse goes through it (propose's too).
// A source the grammar cannot read only for TypeScript's variance
// annotations (interface Check<in T>, Schema<out O, in I>, TypeScript
// 4.7's, which the grammar premise builds with predates) is read with the
// annotations blanked: the tree's offsets are the source's own, so its
// nodes' text is still read from src.
func BoundedParse(p *sitter.Parser, src []byte) *sitter.Tree {
	tree := boundedParse(p, src)
	if tree == nil || !tree.RootNode().HasError() {
		return tree
	}
	blanked, ok := blankVariance(src)
	if !ok {
		return tree
	}
	if alt := boundedParse(p, blanked); alt != nil {
		if !alt.RootNode().HasError() {
			tree.Close()
			return alt
		}
		alt.Close()
	}
	return tree
}

// varianceRe finds a type parameter's variance annotations: in, out, or
// both, after the < or comma that opens the parameter and before its
// name (comments may come between), which a constraint, a default, a
// comma or the list's end follows.
var varianceRe = regexp.MustCompile(`([<,](?:\s|/\*.*?\*/|//[^\n]*\n)*)((?:(?:in|out)\s+)+)([A-Za-z_$][\w$]*\s*(?:extends\b|=|,|>))`)

// blankVariance is src with every variance annotation turned to spaces,
// of the same length; false when it has none.
func blankVariance(src []byte) ([]byte, bool) {
	out := append([]byte(nil), src...)
	found := false
	for range 8 { // a match takes its comma: <in A, out B> needs a second pass
		locs := varianceRe.FindAllSubmatchIndex(out, -1)
		if len(locs) == 0 {
			break
		}
		for _, l := range locs {
			for i := l[4]; i < l[5]; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
		}
		found = true
	}
	return out, found
}

func boundedParse(p *sitter.Parser, src []byte) *sitter.Tree {
	calls, budget := 0, parseBudget(src)
	read := func(i int, _ sitter.Point) []byte {
		if i >= len(src) {
			return nil
		}
		return src[i:min(len(src), i+64<<10)]
	}
	return p.ParseWithOptions(read, nil, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		calls++
		return calls > budget
	}})
}

func (fe jsFrontEnd) decls(src []byte) ([]Decl, error) {
	tree, err := fe.parse(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	w := jsWalker{src: src, protos: protoAliases(src)}
	w.statements(tree.RootNode(), "")
	if w.out == nil {
		w.out = []Decl{}
	}
	return w.out, nil
}

// jsWalker collects declarations. Overload signatures wait in pending
// until their implementation, which then starts at the first signature.
type jsWalker struct {
	src []byte
	out []Decl
	// funcs, when not nil, collects each function's node by its local
	// name, the first of a name winning (JSFuncParams).
	funcs map[string]*sitter.Node
	// protos are the module's names for a class's prototype (var
	// LongPrototype = Long.prototype; const pp = Parser.prototype), by
	// name: a function assigned to one's property is the class's method.
	protos map[string]string
}

// jsProtoAliasRe is a module-level name bound to a class's prototype.
var jsProtoAliasRe = regexp.MustCompile(`(?m)^[ \t]*(?:var|let|const)[ \t]+([\w$]+)[ \t]*=[ \t]*([\w$]+)\.prototype[ \t]*;?[ \t]*(?://.*)?$`)

// protoAliases are src's names for a class's prototype.
func protoAliases(src []byte) map[string]string {
	out := map[string]string{}
	for _, m := range jsProtoAliasRe.FindAllSubmatch(src, -1) {
		out[string(m[1])] = string(m[2])
	}
	return out
}

// jsContainers are statements whose bodies still belong to the enclosing
// scope.
var jsContainers = map[string]bool{
	"program": true, "statement_block": true, "if_statement": true, "else_clause": true,
	"try_statement": true, "catch_clause": true, "finally_clause": true,
}

// jsFuncKinds are the values that make a name a function.
var jsFuncKinds = map[string]bool{
	"arrow_function": true, "function_expression": true, "function": true,
	"generator_function": true,
}

func (w *jsWalker) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(w.src[n.StartByte():n.EndByte()])
}

// statements walks a scope's statements: the program, a namespace's body.
func (w *jsWalker) statements(n *sitter.Node, prefix string) {
	sigs := overloads{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c != nil {
			w.statement(c, c, prefix, sigs)
		}
	}
	w.flush(sigs, prefix, "function")
}

// statement handles one statement; outer is the node whose first line
// starts the span (an export statement around a declaration).
func (w *jsWalker) statement(c, outer *sitter.Node, prefix string, sigs overloads) {
	switch c.Kind() {
	case "export_statement":
		if d := c.ChildByFieldName("declaration"); d != nil {
			w.statement(d, outer, prefix, sigs)
		} else if v := unwrapJS(c.ChildByFieldName("value")); v != nil {
			w.bound(v, "default", outer, outer, prefix, false)
		}
	case "function_declaration", "generator_function_declaration":
		w.function(c, w.name(c), outer, prefix, "function", sigs)
	case "function_signature":
		sigs.add(w.name(c), outer)
	case "class_declaration", "abstract_class_declaration", "class":
		w.class(c, prefix+w.name(c), outer)
	case "lexical_declaration", "variable_declaration":
		w.variables(c, outer, prefix)
	case "expression_statement":
		if e := soleExpression(c); e != nil {
			switch e.Kind() {
			case "assignment_expression":
				w.assignment(e, outer, prefix)
			case "internal_module", "module":
				w.statement(e, outer, prefix, sigs)
			default:
				if w.mixin(e, prefix) {
					break
				}
				if prefix == "" && c.Parent() != nil && c.Parent().Kind() == "program" {
					w.wrapper(e)
				}
			}
		}
	case "internal_module", "module":
		if body := c.ChildByFieldName("body"); body != nil && c.ChildByFieldName("name") != nil && c.ChildByFieldName("name").Kind() != "string" {
			w.statements(body, prefix+w.text(c.ChildByFieldName("name"))+".")
		}
	case "interface_declaration", "type_alias_declaration", "enum_declaration":
		w.out = append(w.out, Decl{Local: prefix + w.name(c), Kind: "type", Start: startLine(outer), End: endLine(c)})
	default:
		if jsContainers[c.Kind()] {
			for i := uint(0); i < c.NamedChildCount(); i++ {
				if s := c.NamedChild(i); s != nil {
					w.statement(s, s, prefix, sigs)
				}
			}
		}
	}
}

// soleExpression is an expression statement's one expression, the
// comments tree-sitter hangs inside the statement left out: a statement
// without a semicolon takes the comments after it on its line and the
// lines below (fuzzysort's UMD wrapper ends "}) // UMD"). nil when the
// statement holds more than one.
func soleExpression(stmt *sitter.Node) *sitter.Node {
	var e *sitter.Node
	for i := uint(0); i < stmt.NamedChildCount(); i++ {
		c := stmt.NamedChild(i)
		if c == nil || c.Kind() == "comment" {
			continue
		}
		if e != nil {
			return nil
		}
		e = c
	}
	return e
}

// wrapper walks the module a top-level wrapper holds: the body of an
// immediately called function ((function () { ... })(), !function () {
// ... }()) and of a function handed to the call (UMD's factory,
// (function (root, factory) { ... }(this, function () { ... }))). Their
// functions are the module's, named as if declared at the top; a
// function the factory returns by name (return function compareVersions
// (...) {...}) is the module's export.
func (w *jsWalker) wrapper(e *sitter.Node) {
	e = unwrapJS(e)
	if e != nil && e.Kind() == "unary_expression" {
		e = unwrapJS(e.ChildByFieldName("argument"))
	}
	if e == nil || e.Kind() != "call_expression" {
		return
	}
	fns := []*sitter.Node{wrapperCallee(e, w.src)}
	if args := e.ChildByFieldName("arguments"); args != nil {
		for i := uint(0); i < args.NamedChildCount(); i++ {
			fns = append(fns, unwrapJS(args.NamedChild(i)))
		}
	}
	for _, fn := range fns {
		if fn == nil || (fn.Kind() != "function_expression" && fn.Kind() != "function" && fn.Kind() != "arrow_function") {
			continue
		}
		body := fn.ChildByFieldName("body")
		if body == nil || body.Kind() != "statement_block" {
			continue
		}
		w.statements(body, "")
		for i := uint(0); i < body.NamedChildCount(); i++ {
			r := body.NamedChild(i)
			if r == nil || r.Kind() != "return_statement" || r.NamedChildCount() != 1 {
				continue
			}
			if v := unwrapJS(r.NamedChild(0)); v != nil && jsFuncKinds[v.Kind()] && v.ChildByFieldName("name") != nil {
				w.add(Decl{Local: w.name(v), Kind: "function", Start: startLine(r), End: endLine(r)}, v)
			}
		}
	}
}

// function records a function or method, starting at its overloads'
// first signature when it has some.
func (w *jsWalker) function(fn *sitter.Node, local string, outer *sitter.Node, prefix, kind string, sigs overloads) {
	d := Decl{Local: prefix + local, Kind: kind, Start: startLine(outer), End: endLine(outer)}
	if s, ok := sigs[local]; ok {
		d.Start = s.start
		delete(sigs, local)
	}
	w.add(d, fn)
	if prefix == "" && kind == "function" {
		w.returnedObject(fn, local)
		w.inner(fn, local)
	}
}

// inner records the functions a module-level function declares in its
// own body, one level down, as functions named under it
// (OUTER.inner): object-path's factory(options) declares
// getShallowProperty, a parser's configure its steps. A change inside one
// is its own, not only its outer function's, and premise's worker
// reaches it in the scope of the closures the module's exports hold.
func (w *jsWalker) inner(fn *sitter.Node, outer string) {
	body := fn.ChildByFieldName("body")
	if body == nil || body.Kind() != "statement_block" {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		switch c.Kind() {
		case "function_declaration", "generator_function_declaration":
			if name := w.name(c); name != "" {
				w.add(Decl{Local: outer + "." + name, Kind: "function", Start: startLine(c), End: endLine(c)}, c)
			}
		case "lexical_declaration", "variable_declaration":
			var decls []*sitter.Node
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if d := c.NamedChild(j); d != nil && d.Kind() == "variable_declarator" {
					decls = append(decls, d)
				}
			}
			for _, d := range decls {
				name, v := d.ChildByFieldName("name"), unwrapJS(d.ChildByFieldName("value"))
				if name == nil || name.Kind() != "identifier" || v == nil || !jsFuncKinds[v.Kind()] {
					continue
				}
				from := d
				if len(decls) == 1 {
					from = c
				}
				w.add(Decl{Local: outer + "." + w.text(name), Kind: "function", Start: startLine(from), End: endLine(from)}, v)
			}
		}
	}
}

// returnedObject records the functions of the object literal a module's
// function returns as its methods (nunjucks' globals() returns {range(start,
// stop, step) {...}, ...}): a change to range is range's, called on what
// globals() builds, not a change to globals, whose own result (an object
// of functions) shows none.
func (w *jsWalker) returnedObject(fn *sitter.Node, name string) {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return
	}
	if o := unwrapJS(body); o != nil && o.Kind() == "object" {
		w.object(o, name+".", false) // () => ({ ... })
		return
	}
	if body.Kind() != "statement_block" {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		r := body.NamedChild(i)
		if r == nil || r.Kind() != "return_statement" || r.NamedChildCount() == 0 {
			continue
		}
		if o := unwrapJS(r.NamedChild(0)); o != nil && o.Kind() == "object" {
			w.object(o, name+".", false)
		}
	}
}

func (w *jsWalker) add(d Decl, fn *sitter.Node) {
	if d.End < d.Start {
		d.End = d.Start
	}
	w.out = append(w.out, d)
	if w.funcs != nil && fn != nil && w.funcs[d.Local] == nil {
		w.funcs[d.Local] = fn
	}
}

// overloads are a scope's signatures still waiting for an implementation.
type overloads map[string]*overload

type overload struct {
	start, end int
	node       *sitter.Node
}

func (o overloads) add(name string, n *sitter.Node) {
	if name == "" {
		return
	}
	if s, ok := o[name]; ok {
		s.end = endLine(n)
		return
	}
	o[name] = &overload{start: startLine(n), end: endLine(n), node: n}
}

// flush records the signatures no implementation followed (an abstract
// class's, an interface-like declaration) as declarations of their own.
func (w *jsWalker) flush(o overloads, prefix, kind string) {
	for name, s := range o {
		w.add(Decl{Local: prefix + name, Kind: kind, Start: s.start, End: s.end}, nil)
	}
}

// class records a class and walks its members.
func (w *jsWalker) class(c *sitter.Node, name string, outer *sitter.Node) {
	w.out = append(w.out, Decl{Local: name, Kind: "class", Start: startLine(outer), End: endLine(outer)})
	body := c.ChildByFieldName("body")
	if body == nil {
		return
	}
	sigs := overloads{}
	var deco *sitter.Node // a decorator before the member (TypeScript's class bodies)
	for i := uint(0); i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		if m == nil {
			continue
		}
		outer := m
		if deco != nil {
			outer = deco
		}
		if m.Kind() == "decorator" {
			if deco == nil {
				deco = m
			}
			continue
		}
		if m.Kind() != "comment" {
			deco = nil
		}
		switch m.Kind() {
		case "method_definition":
			if local := w.memberName(m.ChildByFieldName("name")); local != "" {
				w.member(m, local, outer, m, name+".", sigs)
			}
		case "method_signature":
			sigs.add(w.memberName(m.ChildByFieldName("name")), outer)
		case "abstract_method_signature":
			if local := w.memberName(m.ChildByFieldName("name")); local != "" {
				w.add(Decl{Local: name + "." + local, Kind: "method", Start: startLine(outer), End: endLine(m)}, m)
			}
		case "field_definition", "public_field_definition":
			key := m.ChildByFieldName("property")
			if key == nil {
				key = m.ChildByFieldName("name")
			}
			if local := w.memberName(key); local != "" {
				if v := unwrapJS(m.ChildByFieldName("value")); v != nil {
					w.bound(v, local, outer, m, name+".", true)
				}
			}
		}
	}
	w.flush(sigs, name+".", "method")
}

// member records a method with its span from outer to end.
func (w *jsWalker) member(fn *sitter.Node, local string, outer, end *sitter.Node, prefix string, sigs overloads) {
	d := Decl{Local: prefix + local, Kind: "method", Start: startLine(outer), End: endLine(end)}
	if s, ok := sigs[local]; ok {
		d.Start = s.start
		delete(sigs, local)
	}
	w.add(d, fn)
}

// bound records what a name is bound to: a function, a class, or an object
// literal whose function members are methods of the name. inType says the
// name is a member of a class or object (a method) rather than of a module
// or namespace (a function).
func (w *jsWalker) bound(v *sitter.Node, local string, outer, end *sitter.Node, prefix string, inType bool) {
	kind := "function"
	if inType {
		kind = "method"
	}
	switch {
	case jsFuncKinds[v.Kind()]:
		w.add(Decl{Local: prefix + local, Kind: kind, Start: startLine(outer), End: endLine(end)}, v)
		if prefix == "" && !inType {
			w.returnedObject(v, local)
			w.inner(v, local)
		}
	case v.Kind() == "class":
		w.class(v, prefix+local, outer)
	case v.Kind() == "object":
		w.object(v, prefix+local+".", false)
	case v.Kind() == "call_expression" && w.mixedFunction(v) != nil:
		// email: v.extend(function (value, options) {...}, {PATTERN:
		// /.../}): the function, with the data it reads through this
		// copied onto it; a change to that data is the function's.
		w.add(Decl{Local: prefix + local, Kind: kind, Start: startLine(outer), End: endLine(end)}, w.mixedFunction(v))
	case v.Kind() == "call_expression" && prefix == "" && !inType && iife(v, w.src):
		// const Serializer = (function () { class Serializer {...};
		// return Serializer })(): the wrapper's declarations are the
		// module's, as a top-level wrapper's are.
		w.wrapper(v)
	case v.Kind() == "call_expression" && wrappedFunction(v, w.src) != nil:
		// var is = _curry2(function is(Ctor, val) {...}), const f =
		// memoize((x) => ...): the name is the function the call
		// wraps, called with its parameters; its body is the name's.
		w.add(Decl{Local: prefix + local, Kind: kind, Start: startLine(outer), End: endLine(end)}, wrappedFunction(v, w.src))
	}
}

// jsValueMethods are the methods of arrays, strings and promises that
// take a function and return no function.
var jsValueMethods = map[string]bool{
	"map": true, "filter": true, "reduce": true, "reduceRight": true, "forEach": true,
	"find": true, "findIndex": true, "findLast": true, "findLastIndex": true, "some": true,
	"every": true, "flatMap": true, "sort": true, "toSorted": true, "then": true,
	"catch": true, "finally": true, "replace": true, "replaceAll": true, "from": true,
	"call": true, "apply": true,
}

// wrappedFunction is the function written in place that a call wraps as
// its last argument, directly or through calls nested the same way
// (_curry2(_dispatchable([...], _xall, function all(fn, list) {...}))),
// when it is the only function written among the calls' arguments; nil
// otherwise, and for a call of a function written in place (a wrapper,
// handled as the module's scope).
func wrappedFunction(call *sitter.Node, src []byte) *sitter.Node {
	callee := unwrapJS(call.ChildByFieldName("function"))
	switch {
	case callee == nil || jsFuncKinds[callee.Kind()] || callee.Kind() == "call_expression":
		return nil
	case callee.Kind() == "member_expression":
		// list.map(x => ...), p.then(...): a value's method handing
		// the function its items, whose result is no function.
		if prop := callee.ChildByFieldName("property"); prop == nil || jsValueMethods[string(src[prop.StartByte():prop.EndByte()])] {
			return nil
		}
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "arguments" || args.NamedChildCount() == 0 {
		return nil
	}
	n := args.NamedChildCount()
	for i := uint(0); i+1 < n; i++ {
		if a := unwrapJS(args.NamedChild(i)); a == nil || jsFuncKinds[a.Kind()] || a.Kind() == "class" {
			return nil
		}
	}
	last := unwrapJS(args.NamedChild(n - 1))
	switch {
	case last == nil:
		return nil
	case jsFuncKinds[last.Kind()]:
		return last
	case last.Kind() == "call_expression":
		return wrappedFunction(last, src)
	}
	return nil
}

// wrapperCallee is the function a wrapper's call runs: the callee itself,
// or the function written in place before .call or .apply
// ((function (exports, module) { ... }).call(this, exports, module), how
// validate.js and CoffeeScript's output wrap a module).
func wrapperCallee(call *sitter.Node, src []byte) *sitter.Node {
	fn := unwrapJS(call.ChildByFieldName("function"))
	if fn != nil && fn.Kind() == "member_expression" {
		if prop := fn.ChildByFieldName("property"); prop != nil && prop.Kind() == "property_identifier" {
			if obj := unwrapJS(fn.ChildByFieldName("object")); obj != nil && jsFuncKinds[obj.Kind()] {
				switch string(src[prop.StartByte():prop.EndByte()]) {
				case "call", "apply":
					return obj
				}
			}
		}
	}
	return fn
}

// jsMixins are the last names of calls that copy an object literal's
// members onto their first argument: Object.assign(target, {...}),
// v.extend(validate, {...}), _.mixin(obj, {...}).
var jsMixins = map[string]bool{"assign": true, "extend": true, "mixin": true}

// mixin records the functions a statement like Object.assign(target,
// {...}) hangs on a module-level name: target.f, reached as the module's
// property when target is what it exports (validate.js hangs its helpers
// on validate with v.extend(validate, {...})). It reports whether the
// statement was such a call.
func (w *jsWalker) mixin(e *sitter.Node, prefix string) bool {
	if e.Kind() != "call_expression" {
		return false
	}
	callee := unwrapJS(e.ChildByFieldName("function"))
	args := e.ChildByFieldName("arguments")
	if callee == nil || args == nil || args.NamedChildCount() < 2 {
		return false
	}
	name := w.text(callee)
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	target := unwrapJS(args.NamedChild(0))
	if !jsMixins[name] || target == nil || target.Kind() != "identifier" {
		return false
	}
	found := false
	for i := uint(1); i < args.NamedChildCount(); i++ {
		if o := unwrapJS(args.NamedChild(i)); o != nil && o.Kind() == "object" {
			w.object(o, prefix+w.text(target)+".", true)
			found = true
		}
	}
	return found
}

// mixedFunction is the function a mixin call written in place returns,
// its first argument with object literals' members copied onto it
// (Object.assign(function () {...}, {...}), v.extend(fn, {...})); nil
// when call is no such call.
func (w *jsWalker) mixedFunction(call *sitter.Node) *sitter.Node {
	callee := unwrapJS(call.ChildByFieldName("function"))
	args := call.ChildByFieldName("arguments")
	if callee == nil || args == nil || args.NamedChildCount() < 2 {
		return nil
	}
	name := w.text(callee)
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	fn := unwrapJS(args.NamedChild(0))
	if !jsMixins[name] || fn == nil || !jsFuncKinds[fn.Kind()] {
		return nil
	}
	for i := uint(1); i < args.NamedChildCount(); i++ {
		if o := unwrapJS(args.NamedChild(i)); o == nil || o.Kind() != "object" {
			return nil
		}
	}
	return fn
}

// iife reports whether call calls a function written in place with a
// block body: (function () { ... })(), (() => { ... })().
func iife(call *sitter.Node, src []byte) bool {
	fn := wrapperCallee(call, src)
	if fn == nil || (fn.Kind() != "function_expression" && fn.Kind() != "function" && fn.Kind() != "arrow_function") {
		return false
	}
	body := fn.ChildByFieldName("body")
	return body != nil && body.Kind() == "statement_block"
}

// object walks an object literal's members: methods, and pairs whose value
// is a function or another object. Members of module.exports (top) are
// functions of the module.
func (w *jsWalker) object(o *sitter.Node, prefix string, top bool) {
	for i := uint(0); i < o.NamedChildCount(); i++ {
		m := o.NamedChild(i)
		if m == nil {
			continue
		}
		switch m.Kind() {
		case "method_definition":
			if local := w.memberName(m.ChildByFieldName("name")); local != "" {
				kind := "method"
				if top {
					kind = "function"
				}
				w.add(Decl{Local: prefix + local, Kind: kind, Start: startLine(m), End: endLine(m)}, m)
			}
		case "pair":
			local := w.memberName(m.ChildByFieldName("key"))
			v := unwrapJS(m.ChildByFieldName("value"))
			if local == "" || v == nil {
				continue
			}
			if v.Kind() == "object" {
				w.object(v, prefix+local+".", false)
				continue
			}
			w.bound(v, local, m, m, prefix, !top)
		}
	}
}

// variables records the names a const, let or var declaration binds to a
// function, class or object literal. A declaration of one name spans the
// whole statement; of several, each declarator its own lines.
func (w *jsWalker) variables(c, outer *sitter.Node, prefix string) {
	var decls []*sitter.Node
	for i := uint(0); i < c.NamedChildCount(); i++ {
		if d := c.NamedChild(i); d != nil && d.Kind() == "variable_declarator" {
			decls = append(decls, d)
		}
	}
	for i, d := range decls {
		name := d.ChildByFieldName("name")
		v := unwrapJS(d.ChildByFieldName("value"))
		if name == nil || name.Kind() != "identifier" || v == nil {
			continue
		}
		from, to := d, d
		if len(decls) == 1 {
			from, to = outer, outer
		} else if i == 0 {
			from = outer
		}
		w.bound(v, w.text(name), from, to, prefix, false)
	}
}

// assignment records CommonJS exports (exports.f = ..., module.exports.f =
// ..., module.exports = {...}) and prototype methods (Foo.prototype.m =
// function).
func (w *jsWalker) assignment(e, outer *sitter.Node, prefix string) {
	left, right := e.ChildByFieldName("left"), unwrapJS(e.ChildByFieldName("right"))
	if left == nil || right == nil {
		return
	}
	target := w.text(left)
	if obj, prop, ok := w.stringSubscript(left); ok {
		// Complex.prototype['equals'] = function, module['exports'] =
		// Complex: a member named by a string, as a minifier-safe
		// library writes it, is the member of that name.
		target = w.text(obj) + "." + prop
	}
	switch {
	case target == "module.exports" || target == "exports":
		switch {
		case right.Kind() == "object":
			w.object(right, prefix, true)
		case target == "module.exports" && (jsFuncKinds[right.Kind()] || right.Kind() == "class"):
			// The module is the function: named by its own name, or
			// "default" (how a caller's import names it) when it has none.
			w.bound(right, w.name(right), outer, outer, prefix, false)
		}
	case left.Kind() == "member_expression" || left.Kind() == "subscript_expression":
		obj, propNode := left.ChildByFieldName("object"), left.ChildByFieldName("property")
		prop := ""
		if propNode != nil && propNode.Kind() == "property_identifier" {
			prop = w.text(propNode)
		} else if o, p, ok := w.stringSubscript(left); ok {
			obj, prop = o, p
		}
		if prop == "" || obj == nil {
			return
		}
		switch o := w.text(obj); {
		case o == "exports" || o == "module.exports":
			w.bound(right, prop, outer, outer, prefix, false)
		case strings.HasSuffix(o, ".prototype") && obj.Kind() == "member_expression" && jsIdent.MatchString(strings.TrimSuffix(o, ".prototype")):
			if jsFuncKinds[right.Kind()] {
				w.add(Decl{Local: prefix + strings.TrimSuffix(o, ".prototype") + "." + prop, Kind: "method", Start: startLine(outer), End: endLine(outer)}, right)
			}
		case obj.Kind() == "identifier" && w.protos[o] != "" && jsFuncKinds[right.Kind()]:
			// LongPrototype.multiply = function multiply(...) {...},
			// where var LongPrototype = Long.prototype: Long's method.
			w.add(Decl{Local: prefix + w.protos[o] + "." + prop, Kind: "method", Start: startLine(outer), End: endLine(outer)}, right)
		case obj.Kind() == "identifier" && jsFuncKinds[right.Kind()]:
			// picomatch.matchBase = (input, glob) => ...: a function
			// hung on a module-level function or object, reached as
			// its property (the module exports picomatch).
			w.add(Decl{Local: prefix + o + "." + prop, Kind: "function", Start: startLine(outer), End: endLine(outer)}, right)
		case obj.Kind() == "identifier" && prop == "prototype" && right.Kind() == "object":
			// Fraction.prototype = {add: function (a, b) {...}, ...}:
			// each member is Fraction's method, named as
			// Fraction.prototype.add = function would name it.
			w.object(right, prefix+o+".", false)
		case obj.Kind() == "identifier" && right.Kind() == "object":
			// validate.validators = {url: function (value, options)
			// {...}}: an object of functions hung on a module-level
			// name; each is reached as its property path.
			w.object(right, prefix+o+"."+prop+".", true)
		}
	}
}

// stringSubscript reads obj['name'], a member named by a string that is a
// plain name: the object and the name.
func (w *jsWalker) stringSubscript(n *sitter.Node) (*sitter.Node, string, bool) {
	if n == nil || n.Kind() != "subscript_expression" {
		return nil, "", false
	}
	obj, idx := n.ChildByFieldName("object"), n.ChildByFieldName("index")
	if obj == nil || idx == nil || idx.Kind() != "string" {
		return nil, "", false
	}
	name := strings.Trim(w.text(idx), `"'`)
	if !jsIdent.MatchString(name) || strings.HasPrefix(name, "#") {
		return nil, "", false
	}
	return obj, name, true
}

// unwrapJS looks through parentheses and TypeScript's assertions around a
// value: (x => x) as Fn is a function.
func unwrapJS(n *sitter.Node) *sitter.Node {
	for n != nil {
		switch n.Kind() {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion":
			n = n.NamedChild(0)
			if n != nil && n.Kind() == "type_arguments" { // <T>x: the value comes second
				n = n.NextNamedSibling()
			}
		default:
			return n
		}
	}
	return nil
}

func (w *jsWalker) name(n *sitter.Node) string {
	if id := n.ChildByFieldName("name"); id != nil {
		return w.text(id)
	}
	return "default"
}

// jsIdent is a name that can stand in a dotted symbol.
var jsIdent = regexp.MustCompile(`^#?[A-Za-z_$][\w$]*$`)

// memberName is a method's or key's name as a symbol spells it: an
// identifier, a private name (#secret), a string or number key that is
// a plain name; "" for a computed key, which leaves the member to its
// class.
func (w *jsWalker) memberName(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s := w.text(n)
	if n.Kind() == "string" {
		s = strings.Trim(s, `"'`)
	}
	if !jsIdent.MatchString(s) {
		return ""
	}
	return s
}

// jsGenerated is the conventions by which a tool marks a file it wrote, in
// the comments that open it: Go's (which protobuf and other generators
// follow in JavaScript too), and the @generated tag.
var jsGenerated = regexp.MustCompile(`(?m)^\s*(//|/?\*)\s*Code generated .* DO NOT EDIT\.?\s*(\*/)?\s*$|@generated\b|(?i)\bauto-?generated\b[^\n]*\bdo not (edit|modify)\b`)

// generated reports whether the comments before the first statement say a
// tool wrote the file.
func (jsFrontEnd) generated(src []byte) bool {
	return jsGenerated.Match(leadingComments(src))
}

// leadingComments returns the opening of src up to its first code: a
// shebang line, blank lines, // and /* */ comments.
func leadingComments(src []byte) []byte {
	if len(src) > 64<<10 {
		src = src[:64<<10]
	}
	i := 0
	if bytes.HasPrefix(src, []byte("#!")) {
		if j := bytes.IndexByte(src, '\n'); j >= 0 {
			i = j + 1
		} else {
			return src
		}
	}
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n':
			i++
		case bytes.HasPrefix(src[i:], []byte("\xef\xbb\xbf")):
			i += 3
		case bytes.HasPrefix(src[i:], []byte("//")):
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				return src
			}
			i += j + 1
		case bytes.HasPrefix(src[i:], []byte("/*")):
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return src
			}
			i += j + 4
		default:
			return src[:i]
		}
	}
	return src
}

// qualifier is the file's path without its extension: src/lib/ranges.ts
// names its functions src/lib/ranges.mergeRanges (issue 27). An index
// file keeps its name: src/lib/index.ts is src/lib/index.
func (jsFrontEnd) qualifier(p string, _ func(string) ([]byte, bool)) string {
	return strings.TrimSuffix(p, path.Ext(p))
}

// excluded says why a file of the language gets no symbols beyond the
// excluder's paths: a type declaration file (.d.ts, .d.mts, .d.cts),
// which holds no code that runs, and a minified bundle (a .min. name, or
// lines averaging more than 110 bytes with one of 500 or more). A bundle
// is judged on the merge-base's side, as every policy is: a patch that
// writes its code on one line is still read (issue 26, item 1).
func (jsFrontEnd) excluded(f *File) string {
	if isDeclarationFile(f.Path) && isDeclarationFile(f.OldPath) {
		return "type declarations"
	}
	if f.BaseSrc == nil {
		return ""
	}
	if strings.Contains(path.Base(f.OldPath), ".min.") {
		return "minified: " + path.Base(f.OldPath)
	}
	if minified(f.BaseSrc) {
		return "minified: long lines"
	}
	return ""
}

// isDeclarationFile reports whether p is a TypeScript declaration file.
func isDeclarationFile(p string) bool {
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// minified reports whether src reads like a minified bundle: lines
// averaging more than 110 bytes (the mark of linguist's minified files)
// and one line of 500 bytes or more.
func minified(src []byte) bool {
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	if lines == 0 || len(src)/lines <= 110 {
		return false
	}
	for _, l := range bytes.Split(src, []byte("\n")) {
		if len(l) >= 500 {
			return true
		}
	}
	return false
}
