package pysource

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Constant is a literal of a function's source, the seed of generated
// inputs: a boundary the code compares against is where patches move it
// (issue 13, part 4: try k-1, k and k+1).
type Constant struct {
	// Value is the literal as written: 3, -1, 2.5, 'abc', b'\x00'. A
	// module-level name the code compares with is replaced by its literal.
	Value string
	// Kind is int, float, number (complex), str or bytes.
	Kind string
	// Line is the line of its first occurrence.
	Line int
	// Op and Operand are set when the literal is one side of a comparison,
	// read as Operand Op Value: for `3 < len(x)`, Operand "len(x)", Op ">"
	// and Value "3".
	Op, Operand string
}

// Constants returns the literals of fn's source in order of first
// occurrence, each once (a literal compared with two operands is listed for
// each). Docstrings, error messages (raise, assert, warnings and logging
// calls, and strings only bound to a name an exception is raised with),
// f-strings, None and booleans are left out. The error is ErrNoFunction,
// wrapped, when module does not define fn.
func Constants(module *File, fn string) ([]Constant, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, fmt.Errorf("constants: %w", err)
	}
	c := &constants{f: module, seen: map[string]bool{}, names: module.moduleNames(), out: []Constant{}, followed: map[string]bool{}}
	body := d.fn.ChildByFieldName("body")
	if body == nil {
		return c.out, nil
	}
	c.messages = messageNames(module, body)
	doc := docstring(body)
	c.walk(body, doc)
	return append(c.out, c.data...), nil
}

type constants struct {
	f        *File
	names    *names
	messages map[string]bool
	seen     map[string]bool
	out      []Constant
	// data are the literals of the module-level names the function reads
	// (a compiled pattern, a table of suffixes), after its own; followed
	// are those names, each read once.
	data     []Constant
	followed map[string]bool
}

func (c *constants) add(k Constant) {
	key := k.Value + "\x00" + k.Op + "\x00" + k.Operand
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.out = append(c.out, k)
}

// flipped reads `3 < x` as `x > 3`.
var flipped = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}

func (c *constants) walk(n, doc *sitter.Node) {
	if doc != nil && n.StartByte() == doc.StartByte() && n.EndByte() == doc.EndByte() {
		return
	}
	f := c.f
	switch n.Kind() {
	case "raise_statement":
		return
	case "assert_statement":
		// assert cond, "message": only the condition.
		if n.NamedChildCount() > 0 {
			c.walk(n.NamedChild(0), doc)
		}
		return
	case "call":
		callee := f.text(n.ChildByFieldName("function"))
		if isMessageCall(callee) {
			return
		}
	case "function_definition":
		// A nested function's docstring is no constant either.
		if b := n.ChildByFieldName("body"); b != nil {
			c.walk(b, docstring(b))
		}
		return
	case "assignment":
		if l := n.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" && c.messages[f.text(l)] {
			return
		}
	case "comparison_operator":
		c.comparison(n)
		for i := uint(0); i < n.NamedChildCount(); i++ {
			// A compared literal is listed with its operand, not again alone.
			if ch := n.NamedChild(i); ch.Kind() == "identifier" || !c.isLiteral(ch) {
				c.walk(ch, doc)
			}
		}
		return
	case "unary_operator", "binary_operator":
		// -1, and arithmetic of literals: its value, then its parts.
		if k, ok := c.literal(n); ok {
			c.add(k)
			if n.Kind() == "unary_operator" {
				return
			}
		}
	case "integer", "float", "string", "concatenated_string":
		if k, ok := c.literal(n); ok {
			c.add(k)
		}
		return
	case "identifier":
		name := f.text(n)
		if p := n.Parent(); p != nil && p.Kind() == "comparison_operator" && c.isLiteral(n) {
			return // read with its operand, as the comparison's value
		}
		if e, owner := c.names.lookup(name); e != nil && owner == c.names && c.followed != nil && !c.followed[name] {
			c.followed[name] = true
			sub := &constants{f: f, seen: c.seen, names: c.names, out: []Constant{}, followed: c.followed}
			sub.walk(e, nil)
			c.data = append(c.data, sub.out...)
			c.data = append(c.data, sub.data...)
		}
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c.walk(n.NamedChild(i), doc)
	}
}

func (c *constants) isLiteral(n *sitter.Node) bool {
	_, ok := c.literal(n)
	return ok
}

// literal reads one literal node; f-strings with fields are not literals.
func (c *constants) literal(n *sitter.Node) (Constant, bool) {
	f := c.f
	switch n.Kind() {
	case "integer", "float", "string", "concatenated_string":
		if strings.Contains(strings.ToLower(f.text(n)), "{") && isFString(f, n) {
			return Constant{}, false
		}
		k := literalKind(f.text(n)).Kind
		if k == "" {
			return Constant{}, false
		}
		return Constant{Value: oneLine(f.text(n)), Kind: k, Line: line(n)}, true
	case "unary_operator":
		if a := n.ChildByFieldName("argument"); a != nil && f.text(n)[0] == '-' && (a.Kind() == "integer" || a.Kind() == "float") {
			return Constant{Value: "-" + f.text(a), Kind: literalKind(f.text(a)).Kind, Line: line(n)}, true
		}
		return c.folded(n)
	case "binary_operator", "parenthesized_expression":
		return c.folded(n)
	case "identifier":
		// if n > MAX_SIZE: the boundary is the module constant's value.
		if e, owner := c.names.lookup(f.text(n)); e != nil && owner == c.names {
			if k, ok := c.literal(e); ok {
				k.Line = line(n)
				return k, true
			}
		}
	}
	return Constant{}, false
}

// folded is an integer expression of literals as the constant it computes
// (foldInt): 24 * 60 * 60 is 86400.
func (c *constants) folded(n *sitter.Node) (Constant, bool) {
	v, ok := foldInt(c.f, n, c.literal, 0)
	if !ok {
		return Constant{}, false
	}
	return Constant{Value: v.String(), Kind: KindInt, Line: line(n)}, true
}

func isFString(f *File, n *sitter.Node) bool {
	found := false
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.Kind() == "interpolation" {
			found = true
			return
		}
		for i := uint(0); i < n.NamedChildCount() && !found; i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(n)
	return found
}

// comparison records each literal side of a (possibly chained)
// comparison with the operand it is compared with.
func (c *constants) comparison(n *sitter.Node) {
	var operands []*sitter.Node
	var ops []string
	for i := uint(0); i < n.ChildCount(); i++ {
		ch := n.Child(i)
		if ch.IsNamed() {
			if ch.Kind() != "comment" {
				operands = append(operands, ch)
			}
			continue
		}
		op := c.f.text(ch)
		if len(ops) == len(operands) && len(ops) > 0 {
			ops[len(ops)-1] += " " + op // "is not", "not in"
			continue
		}
		ops = append(ops, op)
	}
	for i, op := range ops {
		if i+1 >= len(operands) {
			break
		}
		l, r := operands[i], operands[i+1]
		if k, ok := c.literal(r); ok {
			if _, lit := c.literal(l); !lit {
				k.Op, k.Operand = op, oneLine(c.f.text(l))
				c.add(k)
			}
		} else if k, ok := c.literal(l); ok && flipped[op] != "" {
			k.Op, k.Operand = flipped[op], oneLine(c.f.text(r))
			c.add(k)
		}
	}
}

// isMessageCall reports whether a call's arguments are messages for
// people, not values: warnings, logging, print.
func isMessageCall(callee string) bool {
	short := callee[strings.LastIndex(callee, ".")+1:]
	switch short {
	case "warn", "debug", "info", "warning", "error", "exception", "critical", "print":
		return true
	case "log":
		// logger.log(level, msg), not math.log(x, 2).
		return strings.Contains(strings.ToLower(callee[:len(callee)-len(short)]), "log")
	}
	return false
}

// messageNames are the names an exception is raised with (msg =
// f"..."; raise ValueError(msg)): their strings are messages.
func messageNames(f *File, body *sitter.Node) map[string]bool {
	out := map[string]bool{}
	var walk func(n *sitter.Node, inRaise bool)
	walk = func(n *sitter.Node, inRaise bool) {
		if n.Kind() == "raise_statement" {
			inRaise = true
		}
		if inRaise && n.Kind() == "argument_list" {
			for i := uint(0); i < n.NamedChildCount(); i++ {
				if a := n.NamedChild(i); a.Kind() == "identifier" {
					out[f.text(a)] = true
				}
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), inRaise)
		}
	}
	walk(body, false)
	return out
}
