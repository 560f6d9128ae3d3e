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
	f.tree, f.root, f.consts = nil, nil, nil
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
	out := map[string]def{}
	if f.root == nil {
		return out
	}
	var stmts func(n *sitter.Node, prefix string)
	var bound func(v *sitter.Node, name string, outer *sitter.Node, depth int)
	add := func(name string, fn, outer *sitter.Node) {
		if _, ok := out[name]; !ok && fn != nil && funcKinds[fn.Kind()] {
			out[name] = def{fn: fn, outer: outer}
		}
	}
	class := func(c *sitter.Node, name string, depth int) {
		body := c.ChildByFieldName("body")
		for i := uint(0); body != nil && i < body.NamedChildCount(); i++ {
			m := body.NamedChild(i)
			switch m.Kind() {
			case "method_definition":
				if k := memberName(f, m.ChildByFieldName("name")); k != "" {
					add(name+"."+k, m, m)
				}
			case "field_definition", "public_field_definition":
				key := m.ChildByFieldName("property")
				if key == nil {
					key = m.ChildByFieldName("name")
				}
				if v := unwrap(m.ChildByFieldName("value")); v != nil && memberName(f, key) != "" {
					bound(v, name+"."+memberName(f, key), m, depth+1)
				}
			}
		}
	}
	bound = func(v *sitter.Node, name string, outer *sitter.Node, depth int) {
		if depth > 20 {
			return
		}
		switch v.Kind() {
		case "class":
			class(v, name, depth)
		case "object":
			for i := uint(0); i < v.NamedChildCount(); i++ {
				m := v.NamedChild(i)
				switch m.Kind() {
				case "method_definition":
					if k := memberName(f, m.ChildByFieldName("name")); k != "" {
						add(dotted(name, k), m, m)
					}
				case "pair":
					if val, k := unwrap(m.ChildByFieldName("value")), memberName(f, m.ChildByFieldName("key")); val != nil && k != "" {
						bound(val, dotted(name, k), m, depth+1)
					}
				}
			}
		default:
			add(name, v, outer)
		}
	}
	var stmt func(c, outer *sitter.Node, prefix string)
	stmt = func(c, outer *sitter.Node, prefix string) {
		switch c.Kind() {
		case "export_statement":
			if d := c.ChildByFieldName("declaration"); d != nil {
				stmt(d, outer, prefix)
			} else if v := unwrap(c.ChildByFieldName("value")); v != nil {
				bound(v, prefix+"default", outer, 0)
			}
		case "function_declaration", "generator_function_declaration":
			add(prefix+f.text(c.ChildByFieldName("name")), c, outer)
		case "class_declaration", "abstract_class_declaration":
			class(c, prefix+f.text(c.ChildByFieldName("name")), 0)
		case "lexical_declaration", "variable_declaration":
			for i := uint(0); i < c.NamedChildCount(); i++ {
				d := c.NamedChild(i)
				if d.Kind() != "variable_declarator" {
					continue
				}
				if name, v := d.ChildByFieldName("name"), unwrap(d.ChildByFieldName("value")); name != nil && name.Kind() == "identifier" && v != nil {
					bound(v, prefix+f.text(name), outer, 0)
				}
			}
		case "expression_statement":
			if c.NamedChildCount() == 1 {
				if e := c.NamedChild(0); e.Kind() == "assignment_expression" {
					left, right := e.ChildByFieldName("left"), unwrap(e.ChildByFieldName("right"))
					if left != nil && right != nil && left.Kind() == "member_expression" {
						obj, prop := f.text(left.ChildByFieldName("object")), f.text(left.ChildByFieldName("property"))
						switch {
						case obj == "exports" || obj == "module.exports":
							bound(right, prefix+prop, outer, 0)
						case strings.HasSuffix(obj, ".prototype"):
							add(prefix+strings.TrimSuffix(obj, ".prototype")+"."+prop, right, outer)
						}
					}
					if t := f.text(left); (t == "module.exports" || t == "exports") && right != nil && right.Kind() == "object" {
						bound(right, prefix, outer, 0)
					}
				} else if e.Kind() == "internal_module" {
					stmt(e, outer, prefix)
				}
			}
		case "internal_module", "module":
			if body, name := c.ChildByFieldName("body"), c.ChildByFieldName("name"); body != nil && name != nil && name.Kind() != "string" {
				stmts(body, prefix+f.text(name)+".")
			}
		case "statement_block", "if_statement", "else_clause", "try_statement", "catch_clause", "finally_clause":
			for i := uint(0); i < c.NamedChildCount(); i++ {
				stmt(c.NamedChild(i), c.NamedChild(i), prefix)
			}
		}
	}
	stmts = func(n *sitter.Node, prefix string) {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			stmt(c, c, prefix)
		}
	}
	stmts(f.root, "")
	return out
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
