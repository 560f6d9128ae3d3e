package jssource

import (
	"errors"
	"fmt"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/premise-dev/premise/diffparse"
	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// File is one parsed JavaScript or TypeScript source file (a module or a
// test file). Close releases its tree; a File that is not closed is
// released when collected.
type File struct {
	// Path is the file's path as the caller names it; inputs cite it.
	Path string
	src  []byte
	tree *sitter.Tree
	root *sitter.Node
	err  error
	// consts caches the file's names bound once by const to a literal.
	consts map[string]*sitter.Node
	// enums caches the file's TypeScript enums declared once, each as
	// the object literal it is at run time.
	enums map[string]string
}

type grammar int

const (
	grammarJS grammar = iota
	grammarTS
	grammarTSX
)

var (
	langOnce [3]sync.Once
	langs    [3]*sitter.Language
)

func language(g grammar) *sitter.Language {
	langOnce[g].Do(func() {
		switch g {
		case grammarJS:
			langs[g] = sitter.NewLanguage(javascript.Language())
		case grammarTS:
			langs[g] = sitter.NewLanguage(typescript.LanguageTypescript())
		default:
			langs[g] = sitter.NewLanguage(typescript.LanguageTSX())
		}
	})
	return langs[g]
}

// ErrNoFunction is returned (wrapped) when a file defines no function of
// the name asked for.
var ErrNoFunction = errors.New("no such function")

// grammarOf picks the grammar by extension.
func grammarOf(p string) grammar {
	switch path.Ext(p) {
	case ".ts", ".mts", ".cts":
		return grammarTS
	case ".tsx":
		return grammarTSX
	}
	return grammarJS
}

// Parse parses src as the file at path. It fails only when no tree can be
// built; a syntax error is kept and reported by SyntaxError, and the parts
// that parse still serve.
func Parse(path string, src []byte) (*File, error) {
	src = append([]byte(nil), src...) // nodes index the bytes; the caller may reuse its slice
	g := grammarOf(path)
	tree, err := parseWith(g, src)
	if err != nil && g != grammarTSX {
		tree, err = parseWith(grammarTSX, src)
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if tree.RootNode().HasError() && g != grammarTSX {
		// A .js file with Flow's annotations, a .ts file holding JSX.
		if alt, err := parseWith(grammarTSX, src); err == nil {
			if alt.RootNode().HasError() {
				alt.Close()
			} else {
				tree.Close()
				tree = alt
			}
		}
	}
	f := &File{Path: path, src: src, tree: tree, root: tree.RootNode()}
	if f.root.HasError() {
		f.err = syntaxError(path, f.root)
	}
	runtime.SetFinalizer(f, (*File).Close)
	return f, nil
}

func parseWith(g grammar, src []byte) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language(g)); err != nil {
		return nil, err
	}
	tree := diffparse.BoundedParse(p, src) // the one bound every JavaScript parse keeps
	if tree == nil {
		return nil, errors.New("the parser gave up (input too hard to read)")
	}
	return tree, nil
}

// Close releases the file's tree. It is safe to call more than once.
func (f *File) Close() {
	if f == nil || f.tree == nil {
		return
	}
	f.tree.Close()
	f.tree, f.root, f.consts, f.enums = nil, nil, nil, nil
	runtime.SetFinalizer(f, nil)
}

// SyntaxError returns the file's first syntax error, or nil.
func (f *File) SyntaxError() error { return f.err }

func (f *File) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(f.src[n.StartByte():n.EndByte()])
}

func (f *File) pos(n *sitter.Node) string { return fmt.Sprintf("%s:%d", f.Path, line(n)) }

func line(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }

func syntaxError(path string, root *sitter.Node) error {
	var find func(n *sitter.Node) *sitter.Node
	find = func(n *sitter.Node) *sitter.Node {
		if n.IsError() || n.IsMissing() {
			return n
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			if c := n.Child(i); c != nil && (c.HasError() || c.IsMissing()) {
				if e := find(c); e != nil {
					return e
				}
			}
		}
		return nil
	}
	if e := find(root); e != nil {
		return fmt.Errorf("%s:%d: syntax error", path, line(e))
	}
	return fmt.Errorf("%s: syntax error", path)
}

// def is a function found by its local name.
type def struct {
	fn    *sitter.Node // the function, arrow function or method
	outer *sitter.Node // the statement it starts (its JSDoc comment precedes it)
}

// funcKinds are the nodes that are functions.
var funcKinds = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true, "function_expression": true,
	"function": true, "generator_function": true, "arrow_function": true, "method_definition": true,
}

// defs finds the file's functions by local name as premise diff names
// them (mergeRanges, Interval.merge, api.split, default), the first of a
// name winning.
func (f *File) defs() map[string]def {
	d := &definer{f: f, out: map[string]def{}}
	if f.root != nil {
		d.stmts(f.root, "")
	}
	return d.out
}

// definer collects a file's functions, statement by statement: a name
// is the prefix its namespaces give (NS.), then what binds the function
// (a declaration, a const, an export, an assignment), then the members
// of the classes and objects on the way.
type definer struct {
	f   *File
	out map[string]def
}

func (d *definer) add(name string, fn, outer *sitter.Node) {
	if _, ok := d.out[name]; !ok && fn != nil && funcKinds[fn.Kind()] {
		d.out[name] = def{fn: fn, outer: outer}
	}
}

// stmts reads a block's statements, each its own outer node.
func (d *definer) stmts(n *sitter.Node, prefix string) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		d.stmt(c, c, prefix)
	}
}

// stmt reads one statement; outer is the statement its JSDoc comment
// precedes (the export around a declaration).
func (d *definer) stmt(c, outer *sitter.Node, prefix string) {
	f := d.f
	switch c.Kind() {
	case "export_statement":
		if decl := c.ChildByFieldName("declaration"); decl != nil {
			d.stmt(decl, outer, prefix)
		} else if v := unwrap(c.ChildByFieldName("value")); v != nil {
			d.bound(v, prefix+"default", outer, 0)
		}
	case "function_declaration", "generator_function_declaration":
		d.add(prefix+f.text(c.ChildByFieldName("name")), c, outer)
	case "class_declaration", "abstract_class_declaration":
		d.class(c, prefix+f.text(c.ChildByFieldName("name")), 0)
	case "lexical_declaration", "variable_declaration":
		d.declarators(c, outer, prefix)
	case "expression_statement":
		if c.NamedChildCount() != 1 {
			return
		}
		switch e := unwrap(c.NamedChild(0)); e.Kind() {
		case "assignment_expression":
			d.assignment(e, outer, prefix)
		case "internal_module": // namespace NS { ... }
			d.stmt(e, outer, prefix)
		case "call_expression", "unary_expression":
			d.wrapped(e, prefix, 0)
		}
	case "internal_module", "module":
		if body, name := c.ChildByFieldName("body"), c.ChildByFieldName("name"); body != nil && name != nil && name.Kind() != "string" {
			d.stmts(body, prefix+f.text(name)+".")
		}
	case "statement_block", "if_statement", "else_clause", "try_statement", "catch_clause", "finally_clause":
		d.stmts(c, prefix)
	}
}

// wrapped reads the statements of a module wrapped in a function called
// at once, as premise diff names their functions (no prefix of its own):
// (function () { var utils = {...}; module.exports = utils; })(),
// !function () {...}(), (function () {...}).call(this), and a UMD
// wrapper's factory, (function (root, factory) {...})(this, function ()
// {...}), whose body is the module.
func (d *definer) wrapped(e *sitter.Node, prefix string, depth int) {
	if e == nil || depth > 2 {
		return
	}
	if e.Kind() == "unary_expression" {
		d.wrapped(unwrap(e.ChildByFieldName("argument")), prefix, depth+1)
		return
	}
	if e.Kind() != "call_expression" {
		return
	}
	body := func(fn *sitter.Node) {
		if fn = unwrap(fn); fn != nil && funcKinds[fn.Kind()] {
			if b := fn.ChildByFieldName("body"); b != nil && b.Kind() == "statement_block" {
				d.stmts(b, prefix)
			}
		}
	}
	callee := unwrap(e.ChildByFieldName("function"))
	if callee != nil && callee.Kind() == "member_expression" {
		if p := callee.ChildByFieldName("property"); p != nil && (d.f.text(p) == "call" || d.f.text(p) == "apply") {
			callee = callee.ChildByFieldName("object")
		}
	}
	body(callee)
	if args := e.ChildByFieldName("arguments"); args != nil {
		for i := uint(0); i < args.NamedChildCount(); i++ {
			body(args.NamedChild(i))
		}
	}
}

// declarators reads const f = ..., let a = 1, b = ...: each name bound
// by itself (not a destructuring) to a value.
func (d *definer) declarators(c, outer *sitter.Node, prefix string) {
	for i := uint(0); i < c.NamedChildCount(); i++ {
		decl := c.NamedChild(i)
		if decl.Kind() != "variable_declarator" {
			continue // a comment
		}
		if name, v := decl.ChildByFieldName("name"), unwrap(decl.ChildByFieldName("value")); name != nil && name.Kind() == "identifier" && v != nil {
			d.bound(v, prefix+d.f.text(name), outer, 0)
		}
	}
}

// assignment reads CommonJS's exports.f = ..., module.exports = { ... }
// and a prototype's C.prototype.m = ....
func (d *definer) assignment(e, outer *sitter.Node, prefix string) {
	f := d.f
	left, right := e.ChildByFieldName("left"), unwrap(e.ChildByFieldName("right"))
	if left == nil || right == nil {
		return
	}
	if left.Kind() == "member_expression" {
		obj, prop := f.text(left.ChildByFieldName("object")), f.text(left.ChildByFieldName("property"))
		switch {
		case obj == "exports" || obj == "module.exports":
			d.bound(right, prefix+prop, outer, 0)
		case strings.HasSuffix(obj, ".prototype"):
			d.add(prefix+strings.TrimSuffix(obj, ".prototype")+"."+prop, right, outer)
		}
	}
	if t := f.text(left); (t == "module.exports" || t == "exports") && right.Kind() == "object" {
		d.bound(right, prefix, outer, 0)
	}
}

// bound reads the value a name is bound to: a function is the name's, a
// class's and an object's members are named under it. depth counts the
// objects and classes on the way: a hostile file must not exhaust the
// stack.
func (d *definer) bound(v *sitter.Node, name string, outer *sitter.Node, depth int) {
	if depth > 20 {
		return
	}
	switch v.Kind() {
	case "class":
		d.class(v, name, depth)
	case "object":
		d.object(v, name, depth)
	default:
		d.add(name, v, outer)
	}
}

// class reads a class's methods and the fields it binds to a value.
func (d *definer) class(c *sitter.Node, name string, depth int) {
	f := d.f
	body := c.ChildByFieldName("body")
	for i := uint(0); body != nil && i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		switch m.Kind() {
		case "method_definition":
			if k := memberName(f, m.ChildByFieldName("name")); k != "" {
				d.add(name+"."+k, m, m)
			}
		case "field_definition", "public_field_definition": // JavaScript's, TypeScript's
			key := m.ChildByFieldName("property")
			if key == nil {
				key = m.ChildByFieldName("name")
			}
			if v := unwrap(m.ChildByFieldName("value")); v != nil && memberName(f, key) != "" {
				d.bound(v, name+"."+memberName(f, key), m, depth+1)
			}
		}
	}
}

// object reads an object literal's methods and the values of its keys.
func (d *definer) object(v *sitter.Node, name string, depth int) {
	f := d.f
	for i := uint(0); i < v.NamedChildCount(); i++ {
		m := v.NamedChild(i)
		switch m.Kind() {
		case "method_definition":
			if k := memberName(f, m.ChildByFieldName("name")); k != "" {
				d.add(dotted(name, k), m, m)
			}
		case "pair":
			if val, k := unwrap(m.ChildByFieldName("value")), memberName(f, m.ChildByFieldName("key")); val != nil && k != "" {
				d.bound(val, dotted(name, k), m, depth+1)
			}
		}
	}
}

// def finds fn, a local name (f, Class.m) or the longest dotted suffix of
// a qualified one (src/lib/ranges.Interval.merge).
func (f *File) def(fn string) (def, error) {
	defs := f.defs()
	parts := strings.Split(fn, ".")
	for i := range parts {
		if d, ok := defs[strings.Join(parts[i:], ".")]; ok {
			return d, nil
		}
	}
	return def{}, fmt.Errorf("%s: %w %s", f.Path, ErrNoFunction, fn)
}

// dotted joins a prefix and a name; the members of module.exports have
// no prefix.
func dotted(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// unwrap looks through parentheses and TypeScript's assertions.
func unwrap(n *sitter.Node) *sitter.Node {
	for n != nil {
		switch n.Kind() {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion":
			n = n.NamedChild(0)
			if n != nil && n.Kind() == "type_arguments" {
				n = n.NextNamedSibling()
			}
		default:
			return n
		}
	}
	return nil
}

// memberName is a key as a symbol spells it; "" for a computed key.
func memberName(f *File, n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s := f.text(n)
	if n.Kind() == "string" {
		s = strings.Trim(s, `"'`)
	}
	if s == "" || strings.ContainsAny(s, " .[]()\t\n\"'`") {
		return ""
	}
	return s
}

// params returns a function's parameter nodes: identifiers and patterns
// (TypeScript's required_parameter and optional_parameter included as they
// are), this left out.
func params(f *File, fn *sitter.Node) []*sitter.Node {
	if one := fn.ChildByFieldName("parameter"); one != nil {
		return []*sitter.Node{one}
	}
	ps := fn.ChildByFieldName("parameters")
	var out []*sitter.Node
	for i := uint(0); ps != nil && i < ps.NamedChildCount(); i++ {
		c := ps.NamedChild(i)
		switch c.Kind() {
		case "comment", "decorator":
			continue
		case "required_parameter", "optional_parameter":
			if p := c.ChildByFieldName("pattern"); p != nil && p.Kind() == "this" {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// paramParts splits a parameter node into its pattern, TypeScript type
// annotation and default value (each nil when absent), and whether it is
// optional (x?: T) or a rest parameter (...xs).
func paramParts(p *sitter.Node) (pattern, typ, value *sitter.Node, optional, rest bool) {
	switch p.Kind() {
	case "required_parameter", "optional_parameter":
		pattern, typ, value = p.ChildByFieldName("pattern"), p.ChildByFieldName("type"), p.ChildByFieldName("value")
		optional = p.Kind() == "optional_parameter"
	case "assignment_pattern":
		pattern, value = p.ChildByFieldName("left"), p.ChildByFieldName("right")
	default:
		pattern = p
	}
	if pattern != nil && pattern.Kind() == "rest_pattern" {
		rest = true
		if pattern.NamedChildCount() > 0 {
			pattern = pattern.NamedChild(0)
		}
	}
	return
}

// paramName is a parameter's name: the identifier, or the pattern as
// written for a destructured one.
func paramName(f *File, p *sitter.Node) string {
	pat, _, _, _, _ := paramParts(p)
	return f.text(pat)
}
