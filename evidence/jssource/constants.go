package jssource

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Constant is a literal of a function's source, the seed of generated
// inputs: a boundary the code compares against is where patches move it
// (issue 27: inputs at the edges, k-1, k and k+1).
type Constant struct {
	// Value is the literal as written: 3, -1, 2.5, 10n, 'abc', `abc`. A
	// name the function compares with, bound by a const of the module to
	// a literal, is replaced by it.
	Value string
	// Kind is number, bigint or string.
	Kind string
	// Line is the line of its first occurrence.
	Line int
	// Op and Operand are set when the literal is one side of a
	// comparison, read as Operand Op Value: for `3 < xs.length`, Operand
	// "xs.length", Op ">" and Value "3". A switch's case is Operand ===
	// Value.
	Op, Operand string
}

// flipped reads `3 < x` as `x > 3`.
var flipped = map[string]string{
	"<": ">", ">": "<", "<=": ">=", ">=": "<=",
	"==": "==", "!=": "!=", "===": "===", "!==": "!==",
}

// Constants returns the literals of fn's body in order of first
// occurrence, each once (a literal compared with two operands is listed
// for each). Strings of error messages (throw, new Error(...), console
// and assert calls), template strings with substitutions, directives
// ('use strict'), booleans, null and undefined are left out, and so are
// the functions and classes it declares (a callback's literals, as in
// xs.filter(x => x > 0), are the function's own). The error is ErrNoFunction, wrapped, when
// module does not define fn.
func Constants(module *File, fn string) ([]Constant, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, fmt.Errorf("constants: %w", err)
	}
	c := &constants{f: module, seen: map[string]bool{}, out: []Constant{}}
	if body := d.fn.ChildByFieldName("body"); body != nil {
		c.walk(body, 0)
	}
	for _, p := range params(module, d.fn) {
		if _, _, def, _, _ := paramParts(p); def != nil {
			c.walk(def, 0)
		}
	}
	return c.out, nil
}

type constants struct {
	f    *File
	seen map[string]bool
	out  []Constant
}

func (c *constants) add(k Constant) {
	key := k.Value + "\x00" + k.Op + "\x00" + k.Operand
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.out = append(c.out, k)
}

// walk lists the literals under n in source order.
func (c *constants) walk(n *sitter.Node, depth int) {
	if n == nil || depth > 400 || c.leftOut(n) {
		return
	}
	switch n.Kind() {
	case "binary_expression":
		if c.comparison(n) {
			for _, side := range []string{"left", "right"} {
				if s := n.ChildByFieldName(side); s != nil && !isLiteral(c.f, s) {
					c.walk(s, depth+1)
				}
			}
			return
		}
		// Arithmetic of literals: its value, then its parts.
		if k, ok := c.literal(n); ok {
			c.add(k)
		}
	case "switch_statement":
		c.switchStatement(n, depth)
		return
	case "number", "string", "template_string", "unary_expression":
		if k, ok := c.literal(n); ok {
			c.add(k)
			return
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c.walk(n.NamedChild(i), depth+1)
	}
}

// leftOut reports whether n is left out whole: a message (throw, an
// error made or called, console and assert calls), a directive ('use
// strict'), a comment, or a function or class the body declares.
func (c *constants) leftOut(n *sitter.Node) bool {
	f := c.f
	switch n.Kind() {
	case "throw_statement", "comment", "function_declaration", "generator_function_declaration", "class_declaration":
		return true
	case "expression_statement":
		return n.NamedChildCount() == 1 && n.NamedChild(0).Kind() == "string"
	case "new_expression":
		return strings.HasSuffix(f.text(n.ChildByFieldName("constructor")), "Error")
	case "call_expression":
		callee := f.text(n.ChildByFieldName("function"))
		return strings.HasPrefix(callee, "console.") || callee == "assert" || strings.HasPrefix(callee, "assert.") || strings.HasSuffix(callee, "Error")
	}
	return false
}

// switchStatement reads each literal case as a comparison, operand ===
// value; a case that is not a literal and the cases' bodies are walked.
func (c *constants) switchStatement(n *sitter.Node, depth int) {
	value := n.ChildByFieldName("value")
	operand := strings.TrimSuffix(strings.TrimPrefix(c.f.text(value), "("), ")")
	c.walk(value, depth+1)
	body := n.ChildByFieldName("body")
	for i := uint(0); body != nil && i < body.NamedChildCount(); i++ {
		cs := body.NamedChild(i)
		v := cs.ChildByFieldName("value")
		if k, ok := c.literal(v); ok && cs.Kind() == "switch_case" {
			k.Op, k.Operand = "===", operand
			c.add(k)
		} else {
			c.walk(v, depth+1)
		}
		for j := uint(0); j < cs.NamedChildCount(); j++ {
			if s := cs.NamedChild(j); v == nil || s.StartByte() != v.StartByte() || s.EndByte() != v.EndByte() {
				c.walk(s, depth+1)
			}
		}
	}
}

// isLiteral reports whether n is a literal Constants reads.
func isLiteral(f *File, n *sitter.Node) bool {
	c := constants{f: f}
	_, ok := c.literal(n)
	return ok
}

// literal reads a number, BigInt, string or substitution-free template
// string, negated numbers included.
func (c *constants) literal(n *sitter.Node) (Constant, bool) {
	f := c.f
	n = unwrap(n)
	if n == nil {
		return Constant{}, false
	}
	k := Constant{Value: f.text(n), Line: line(n)}
	switch n.Kind() {
	case "number":
		k.Kind = KindNumber
		if strings.HasSuffix(k.Value, "n") {
			k.Kind = KindBigInt
		}
	case "unary_expression":
		op, arg := n.ChildByFieldName("operator"), n.ChildByFieldName("argument")
		if op == nil || arg == nil || f.text(op) != "-" || arg.Kind() != "number" {
			return c.folded(n)
		}
		k.Kind = KindNumber
		if strings.HasSuffix(f.text(arg), "n") {
			k.Kind = KindBigInt
		}
		k.Value = "-" + f.text(arg)
	case "string":
		k.Kind = KindString
	case "template_string":
		if substituted(n) {
			return Constant{}, false
		}
		k.Kind = KindString
	case "binary_expression":
		return c.folded(n)
	default:
		return Constant{}, false
	}
	return k, true
}

// folded is an arithmetic expression of number literals as the number it
// computes (foldNumber): 24 * 60 * 60 is 86400.
func (c *constants) folded(n *sitter.Node) (Constant, bool) {
	v, ok := foldNumber(c.f, n, 0)
	if !ok {
		return Constant{}, false
	}
	return Constant{Value: numberText(v), Kind: KindNumber, Line: line(n)}, true
}

// comparison records a comparison with a literal side, or with a name a
// const of the module binds to a literal, and reports whether n was a
// comparison at all.
func (c *constants) comparison(n *sitter.Node) bool {
	f := c.f
	op := f.text(n.ChildByFieldName("operator"))
	if _, ok := flipped[op]; !ok {
		return false
	}
	left, right := unwrap(n.ChildByFieldName("left")), unwrap(n.ChildByFieldName("right"))
	if left == nil || right == nil {
		return true
	}
	lk, lok := c.sideLiteral(left)
	rk, rok := c.sideLiteral(right)
	switch {
	case rok && !lok:
		rk.Op, rk.Operand, rk.Line = op, f.text(left), line(right)
		c.add(rk)
	case lok && !rok:
		lk.Op, lk.Operand, lk.Line = flipped[op], f.text(right), line(left)
		c.add(lk)
	case lok && rok:
		c.add(lk)
		c.add(rk)
	}
	return true
}

// sideLiteral reads one side of a comparison: a literal, or a name bound
// to one by a const at the module's top level.
func (c *constants) sideLiteral(n *sitter.Node) (Constant, bool) {
	if k, ok := c.literal(n); ok {
		return k, true
	}
	if n.Kind() != "identifier" {
		return Constant{}, false
	}
	v := c.f.moduleConst(c.f.text(n))
	if v == nil {
		return Constant{}, false
	}
	return c.literal(v)
}

// moduleConst is the value a top-level const (exported or not) binds
// name to, nil when there is none.
func (f *File) moduleConst(name string) *sitter.Node {
	if f.root == nil {
		return nil
	}
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		s := f.root.NamedChild(i)
		if s.Kind() == "export_statement" && s.ChildByFieldName("declaration") != nil {
			s = s.ChildByFieldName("declaration")
		}
		if s.Kind() != "lexical_declaration" || !strings.HasPrefix(f.text(s), "const") {
			continue
		}
		for j := uint(0); j < s.NamedChildCount(); j++ {
			d := s.NamedChild(j)
			if d.Kind() == "variable_declarator" && f.text(d.ChildByFieldName("name")) == name {
				return d.ChildByFieldName("value")
			}
		}
	}
	return nil
}
