package jssource

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// row is one row of a table: the node of its value, or, for a tagged
// template's row, its values by column.
type row struct {
	node   *sitter.Node
	fields map[string]*sitter.Node
	pos    *sitter.Node
}

// table handles a call whose callback runs once per row of a literal
// table: test.each(rows)(name, fn) and its it, describe, .only, .skip and
// .concurrent forms, test.each`...`(name, fn), and rows.forEach(fn). It
// walks the callback once per row with the row bound to its parameters and
// reports whether n was such a call.
func (h *harvester) table(n *sitter.Node, sc scope, depth int) bool {
	f := h.f
	callee, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if callee == nil || args == nil {
		return false
	}
	var rows []row
	spread := false // each inner array is the callback's arguments
	switch {
	case callee.Kind() == "call_expression" && isEach(f, callee.ChildByFieldName("function")):
		tbl := callee.ChildByFieldName("arguments")
		if tbl == nil {
			return false
		}
		if tbl.Kind() == "template_string" {
			rows = templateRows(f, tbl)
		} else if tbl.NamedChildCount() > 0 {
			rows, spread = arrayRows(f, tbl.NamedChild(0)), true
		}
	case callee.Kind() == "member_expression" && f.text(callee.ChildByFieldName("property")) == "forEach":
		rows = arrayRows(f, callee.ChildByFieldName("object"))
	default:
		return false
	}
	if rows == nil {
		return false
	}
	var fn *sitter.Node
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if a := args.NamedChild(i); a.Kind() == "arrow_function" || a.Kind() == "function_expression" || a.Kind() == "function" {
			fn = a
			break
		}
		if a := args.NamedChild(i); a.Kind() == "identifier" && h.helpers[f.text(a)] != nil {
			// rows.forEach(addTest): a function of the file that
			// declares a test per row, handed by its name.
			fn = h.helpers[f.text(a)]
			break
		}
	}
	if fn == nil {
		return false
	}
	body := fn.ChildByFieldName("body")
	ps := params(f, fn)
	for i, r := range rows {
		if i >= maxRows || h.full() {
			break
		}
		rs := scope{}
		for k, v := range sc {
			rs[k] = v
		}
		for _, p := range ps {
			shadow(f, p, rs)
		}
		switch {
		case r.fields != nil:
			if len(ps) > 0 {
				h.bindFields(ps[0], r.fields, rs)
			}
		case spread && r.node.Kind() == "array":
			var items []*sitter.Node
			for j := uint(0); j < r.node.NamedChildCount(); j++ {
				if c := r.node.NamedChild(j); c.Kind() != "comment" {
					items = append(items, c)
				}
			}
			for j, p := range ps {
				if j < len(items) {
					h.bind(p, items[j], rs, 0)
				}
			}
		case len(ps) > 0:
			h.bind(ps[0], r.node, rs, 0)
		}
		h.walk(body, rs, KindTable, r.pos, depth+1)
	}
	return true
}

// isEach reports whether n is a member chain test.each, it.only.each,
// describe.concurrent.each, ...
func isEach(f *File, n *sitter.Node) bool {
	if n == nil || n.Kind() != "member_expression" || f.text(n.ChildByFieldName("property")) != "each" {
		return false
	}
	for o := n.ChildByFieldName("object"); o != nil; o = o.ChildByFieldName("object") {
		switch o.Kind() {
		case "identifier":
			switch f.text(o) {
			case "test", "it", "describe", "suite", "bench":
				return true
			}
			return false
		case "member_expression":
			continue
		default:
			return false
		}
	}
	return false
}

// arrayRows are the elements of an array literal, or of the one a const
// binds; nil for anything else.
func arrayRows(f *File, n *sitter.Node) []row {
	n = unwrap(n)
	if n != nil && n.Kind() == "identifier" {
		n = unwrap(f.constants()[f.text(n)])
	}
	if n == nil || n.Kind() != "array" {
		return nil
	}
	out := []row{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() != "comment" {
			out = append(out, row{node: c, pos: c})
		}
	}
	return out
}

// templateRows reads a tagged-template table: a heading line of column
// names separated by |, then rows of ${value} cells.
func templateRows(f *File, t *sitter.Node) []row {
	var heads []string
	var cells []*sitter.Node
	for i := uint(0); i < t.NamedChildCount(); i++ {
		c := t.NamedChild(i)
		switch c.Kind() {
		case "string_fragment":
			if heads != nil || len(cells) > 0 {
				continue
			}
			for _, l := range strings.Split(f.text(c), "\n") {
				if strings.TrimSpace(l) == "" {
					continue
				}
				for _, h := range strings.Split(l, "|") {
					heads = append(heads, strings.TrimSpace(h))
				}
				break
			}
		case "template_substitution":
			if c.NamedChildCount() > 0 {
				cells = append(cells, c.NamedChild(0))
			}
		}
	}
	if len(heads) == 0 {
		return nil
	}
	out := []row{}
	for i := 0; i+len(heads) <= len(cells); i += len(heads) {
		r := row{fields: map[string]*sitter.Node{}, pos: cells[i]}
		for j, h := range heads {
			r.fields[h] = cells[i+j]
		}
		out = append(out, r)
	}
	return out
}

// bind binds a parameter (or pattern) to a value node: a name to the
// value's literal text, an array pattern to its elements, an object
// pattern to its keys.
func (h *harvester) bind(p, v *sitter.Node, sc scope, depth int) {
	f := h.f
	if p == nil || v == nil || depth > maxDepth {
		return
	}
	pat, _, def, _, _ := paramParts(p)
	if pat == nil {
		return
	}
	v = unwrap(v)
	if v != nil && v.Kind() == "identifier" && f.constants()[f.text(v)] != nil {
		v = unwrap(f.constants()[f.text(v)])
	}
	if v != nil && (v.Kind() == "undefined" || f.text(v) == "undefined") && def != nil {
		v = def
	}
	switch pat.Kind() {
	case "identifier":
		if s, ok := f.literal(v, sc); ok {
			sc[f.text(pat)] = s
		}
		h.fieldsOf(f.text(pat), v, sc, sc, 0)
	case "array_pattern":
		if v == nil || v.Kind() != "array" {
			return
		}
		var items []*sitter.Node
		for i := uint(0); i < v.NamedChildCount(); i++ {
			if c := v.NamedChild(i); c.Kind() != "comment" {
				items = append(items, c)
			}
		}
		j := 0
		for i := uint(0); i < pat.NamedChildCount(); i++ {
			if j < len(items) {
				h.bind(pat.NamedChild(i), items[j], sc, depth+1)
			}
			j++
		}
	case "object_pattern":
		if v == nil || v.Kind() != "object" {
			return
		}
		fields := map[string]*sitter.Node{}
		for i := uint(0); i < v.NamedChildCount(); i++ {
			if c := v.NamedChild(i); c.Kind() == "pair" {
				fields[strings.Trim(f.text(c.ChildByFieldName("key")), `"'`)] = c.ChildByFieldName("value")
			}
		}
		h.bindFields(pat, fields, sc)
	}
}

// bindFields binds an object pattern ({a, b: c, d = 1}) to values by key.
func (h *harvester) bindFields(p *sitter.Node, fields map[string]*sitter.Node, sc scope) {
	f := h.f
	pat, _, _, _, _ := paramParts(p)
	if pat == nil || pat.Kind() != "object_pattern" {
		return
	}
	for i := uint(0); i < pat.NamedChildCount(); i++ {
		c := pat.NamedChild(i)
		switch c.Kind() {
		case "shorthand_property_identifier_pattern":
			if v := fields[f.text(c)]; v != nil {
				if s, ok := f.literal(v, sc); ok {
					sc[f.text(c)] = s
				}
			}
		case "pair_pattern":
			if v := fields[strings.Trim(f.text(c.ChildByFieldName("key")), `"'`)]; v != nil {
				h.bind(c.ChildByFieldName("value"), v, sc, 1)
			}
		case "object_assignment_pattern":
			left, right := c.ChildByFieldName("left"), c.ChildByFieldName("right")
			v := fields[f.text(left)]
			if v == nil {
				v = right
			}
			if s, ok := f.literal(v, sc); ok && left != nil {
				sc[f.text(left)] = s
			}
		}
	}
}

// shadow marks every name a parameter binds as bound to nothing yet, so
// that a name the row does not bind never falls back to a const of the
// file with the same name.
func shadow(f *File, p *sitter.Node, sc scope) {
	if p == nil {
		return
	}
	switch p.Kind() {
	case "identifier", "shorthand_property_identifier_pattern":
		sc[f.text(p)] = ""
		return
	case "type_annotation":
		return
	}
	for i := uint(0); i < p.NamedChildCount(); i++ {
		c := p.NamedChild(i)
		if k := p.FieldNameForNamedChild(uint32(i)); k == "value" && p.Kind() != "pair_pattern" || k == "right" || k == "key" {
			continue // a default's or key's names are not bound
		}
		shadow(f, c, sc)
	}
}

// boundObject marks, after a name, that fieldsOf bound it to an object
// literal: a field it lacks reads as undefined.
const boundObject = "\x00object"

// fieldsOf binds, under name, the fields of the object v is, each at its
// path (test.input, test.config.header), so a body reading a row's fields
// reads their literals; or, when v is itself a bound path (CASES[i]),
// the fields bound under it in from.
func (h *harvester) fieldsOf(name string, v *sitter.Node, from, to scope, depth int) {
	f := h.f
	v = unwrap(v)
	if v == nil || depth > maxDepth {
		return
	}
	if v.Kind() == "identifier" && f.constants()[f.text(v)] != nil {
		v = unwrap(f.constants()[f.text(v)])
	}
	if v.Kind() != "object" {
		if from[f.text(v)+boundObject] != "" {
			to[name+boundObject] = "object"
		}
		prefix := f.text(v) + "."
		for k, s := range from {
			if strings.HasPrefix(k, prefix) {
				to[name+"."+k[len(prefix):]] = s
			}
		}
		return
	}
	to[name+boundObject] = "object"
	for i := uint(0); i < v.NamedChildCount(); i++ {
		c := v.NamedChild(i)
		if c.Kind() != "pair" {
			continue
		}
		k := c.ChildByFieldName("key")
		if k == nil || k.Kind() != "property_identifier" && k.Kind() != "string" {
			continue
		}
		key := name + "." + strings.Trim(f.text(k), `"'`)
		if s, ok := f.literal(c.ChildByFieldName("value"), from); ok {
			to[key] = s
		}
		h.fieldsOf(key, c.ChildByFieldName("value"), from, to, depth+1)
	}
}

// indexLoop handles for (...; i < ROWS.length; ...) BODY over a literal
// table: BODY is walked once per row with ROWS[i] bound to it, fields and
// all (PapaParse's tests: for (var i = 0; i < PARSE_TESTS.length; i++)
// generateTest(PARSE_TESTS[i])). It reports whether n was such a loop.
func (h *harvester) indexLoop(n *sitter.Node, sc scope, depth int) bool {
	f := h.f
	cond, body := n.ChildByFieldName("condition"), n.ChildByFieldName("body")
	if cond == nil || body == nil {
		return false
	}
	if cond.Kind() == "expression_statement" && cond.NamedChildCount() > 0 {
		cond = cond.NamedChild(0)
	}
	if cond.Kind() != "binary_expression" {
		return false
	}
	left, right := cond.ChildByFieldName("left"), cond.ChildByFieldName("right")
	if left == nil || right == nil || left.Kind() != "identifier" || right.Kind() != "member_expression" ||
		f.text(right.ChildByFieldName("property")) != "length" || !strings.HasPrefix(strings.TrimSpace(f.text(cond)[len(f.text(left)):]), "<") {
		return false
	}
	rows := arrayRows(f, right.ChildByFieldName("object"))
	if rows == nil {
		return false
	}
	at := f.text(right.ChildByFieldName("object")) + "[" + f.text(left) + "]"
	for i, r := range rows {
		if i >= maxRows || h.full() {
			break
		}
		rs := scope{}
		for k, v := range sc {
			rs[k] = v
		}
		if s, ok := f.literal(r.node, sc); ok {
			rs[at] = s
		}
		h.fieldsOf(at, r.node, sc, rs, 0)
		h.walk(body, rs, KindTable, r.pos, depth+1)
	}
	return true
}
