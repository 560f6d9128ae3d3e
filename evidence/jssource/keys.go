package jssource

import (
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// KeysRead are, per parameter of fn (by the name JSParams gives it), the
// property names the function reads of it: options.maxAge, opts["sameSite"],
// a destructuring { encode, maxAge } = options, or a destructured parameter
// ({ sentenceCase }). An options object is where such a function's behaviour
// hides; a row that sets each key reaches it. Sorted, each once; the error
// is ErrNoFunction, wrapped, when module does not define fn.
func KeysRead(module *File, fn string) (map[string][]string, error) {
	r, err := readKeys(module, fn)
	if err != nil {
		return nil, err
	}
	return sorted(r.out), nil
}

// NumericKeys are, per parameter of fn, the keys it reads of it as
// numbers: an operand of arithmetic (v1.x + r * (v2.x - v1.x)), negated,
// or an argument of a Math function. Such a parameter is a record of
// numbers (a point, a vector, a size), whose every key a call sets; an
// object with one of them is not one a caller passes. Sorted, each once.
func NumericKeys(module *File, fn string) (map[string][]string, error) {
	r, err := readKeys(module, fn)
	if err != nil {
		return nil, err
	}
	return sorted(r.numeric), nil
}

func readKeys(module *File, fn string) (*keyReader, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, err
	}
	r := &keyReader{f: module, out: map[string][]string{}, seen: map[[2]string]bool{}, alias: map[string]string{},
		numeric: map[string][]string{}, seenNumeric: map[[2]string]bool{}}
	for _, p := range params(module, d.fn) {
		r.param(p)
	}
	body := d.fn.ChildByFieldName("body")
	if body == nil || len(r.alias) == 0 {
		return r, nil
	}
	// Aliases first: var opt = options || {} reads options through opt.
	r.aliases(body, 0)
	r.walk(body, 0)
	return r, nil
}

// keyReader collects the keys one function reads of its parameters.
type keyReader struct {
	f    *File
	out  map[string][]string
	seen map[[2]string]bool // parameter, key
	// alias maps a name of the body to the parameter it stands for; a
	// parameter stands for itself.
	alias map[string]string
	// numeric are the keys read as numbers, per parameter.
	numeric     map[string][]string
	seenNumeric map[[2]string]bool
}

// asNumber says the value n stands where only a number makes sense: an
// operand of arithmetic other than +, which joins text too, negated, or
// an argument of Math's functions.
func (r *keyReader) asNumber(n *sitter.Node) bool {
	p := n.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		n, p = p, p.Parent()
	}
	if p == nil {
		return false
	}
	switch p.Kind() {
	case "binary_expression":
		op := p.ChildByFieldName("operator")
		if op == nil {
			return false
		}
		switch r.f.text(op) {
		case "-", "*", "/", "%", "**":
			return true
		}
	case "unary_expression":
		op := p.ChildByFieldName("operator")
		return op != nil && r.f.text(op) == "-"
	case "arguments":
		call := p.Parent()
		if call == nil || call.Kind() != "call_expression" {
			return false
		}
		fn := call.ChildByFieldName("function")
		return fn != nil && fn.Kind() == "member_expression" && strings.HasPrefix(r.f.text(fn), "Math.")
	}
	return false
}

func (r *keyReader) add(param, key string) {
	if key != "" && !r.seen[[2]string{param, key}] {
		r.seen[[2]string{param, key}] = true
		r.out[param] = append(r.out[param], key)
	}
}

// param records a parameter: a name to follow through the body, or the
// keys a destructured one reads, under the pattern as written.
func (r *keyReader) param(p *sitter.Node) {
	pat, _, _, _, _ := paramParts(p)
	if pat == nil {
		return
	}
	switch pat.Kind() {
	case "identifier":
		r.alias[r.f.text(pat)] = r.f.text(pat)
	case "object_pattern":
		for _, k := range patternKeys(r.f, pat) {
			r.add(r.f.text(pat), k)
		}
	}
}

// aliases records the names the body binds to a parameter, in the
// order the source binds them.
func (r *keyReader) aliases(n *sitter.Node, depth int) {
	if n == nil || depth > maxDepth*4 {
		return
	}
	if n.Kind() == "variable_declarator" {
		name := n.ChildByFieldName("name")
		if p := paramOf(r.f, n.ChildByFieldName("value"), r.alias, 0); name != nil && name.Kind() == "identifier" && p != "" {
			r.alias[r.f.text(name)] = p
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		r.aliases(n.NamedChild(i), depth+1)
	}
}

// walk records the keys read: p.key, p["key"], const { key } = p.
func (r *keyReader) walk(n *sitter.Node, depth int) {
	if n == nil || depth > maxDepth*4 {
		return
	}
	switch n.Kind() {
	case "member_expression":
		if p, prop := r.paramNamed(n.ChildByFieldName("object")), n.ChildByFieldName("property"); p != "" && prop != nil && prop.Kind() == "property_identifier" {
			r.add(p, r.f.text(prop))
			if k := [2]string{p, r.f.text(prop)}; r.asNumber(n) && !r.seenNumeric[k] {
				r.seenNumeric[k] = true
				r.numeric[p] = append(r.numeric[p], k[1])
			}
		}
	case "subscript_expression":
		if p, idx := r.paramNamed(n.ChildByFieldName("object")), n.ChildByFieldName("index"); p != "" && idx != nil && idx.Kind() == "string" {
			if v, ok := stringValue(r.f, idx); ok {
				r.add(p, v.(string))
			}
		}
	case "variable_declarator":
		if name, p := n.ChildByFieldName("name"), paramOf(r.f, n.ChildByFieldName("value"), r.alias, 0); name != nil && name.Kind() == "object_pattern" && p != "" {
			for _, k := range patternKeys(r.f, name) {
				r.add(p, k)
			}
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		r.walk(n.NamedChild(i), depth+1)
	}
}

// paramNamed is the parameter an identifier stands for; "" for another
// name or node.
func (r *keyReader) paramNamed(n *sitter.Node) string {
	if n == nil || n.Kind() != "identifier" {
		return ""
	}
	return r.alias[r.f.text(n)]
}

// paramOf is the parameter a value stands for: the parameter (or an alias
// of it) itself, `p || {}`, `p ?? {}`, either branch of a conditional,
// parenthesised; "" for anything else.
func paramOf(f *File, v *sitter.Node, alias map[string]string, depth int) string {
	if v == nil || depth > 8 {
		return ""
	}
	switch v.Kind() {
	case "identifier":
		return alias[f.text(v)]
	case "parenthesized_expression":
		return paramOf(f, v.NamedChild(0), alias, depth+1)
	case "binary_expression":
		if op := v.ChildByFieldName("operator"); op != nil && (f.text(op) == "||" || f.text(op) == "??") {
			return paramOf(f, v.ChildByFieldName("left"), alias, depth+1)
		}
	case "ternary_expression":
		if p := paramOf(f, v.ChildByFieldName("alternative"), alias, depth+1); p != "" {
			return p
		}
		return paramOf(f, v.ChildByFieldName("consequence"), alias, depth+1)
	}
	return ""
}

// patternKeys are the keys an object pattern reads: { a, b: c, d = 1 }.
func patternKeys(f *File, pat *sitter.Node) []string {
	var out []string
	for i := uint(0); i < pat.NamedChildCount(); i++ {
		c := pat.NamedChild(i)
		switch c.Kind() {
		case "shorthand_property_identifier_pattern":
			out = append(out, f.text(c))
		case "pair_pattern":
			if k := c.ChildByFieldName("key"); k != nil && k.Kind() == "property_identifier" {
				out = append(out, f.text(k))
			}
		case "object_assignment_pattern":
			if l := c.ChildByFieldName("left"); l != nil {
				out = append(out, f.text(l))
			}
		}
	}
	return out
}

func sorted(m map[string][]string) map[string][]string {
	for _, ks := range m {
		sort.Strings(ks)
	}
	return m
}
