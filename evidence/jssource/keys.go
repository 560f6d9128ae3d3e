package jssource

import (
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// KeysRead are, per parameter of fn (by the name JSParams gives it), the
// property names the function reads of it: options.maxAge, opts["sameSite"],
// a destructuring { encode, maxAge } = options, or a destructured parameter
// ({ sentenceCase }). An options object is where such a function's behaviour
// hides; a row that sets each key reaches it. Sorted, each once; the error
// is ErrNoFunction, wrapped, when module does not define fn.
func KeysRead(module *File, fn string) (map[string][]string, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	seen := map[string]map[string]bool{}
	add := func(param, key string) {
		if seen[param] == nil {
			seen[param] = map[string]bool{}
		}
		if key != "" && !seen[param][key] {
			seen[param][key] = true
			out[param] = append(out[param], key)
		}
	}
	names := map[string]bool{}
	for _, p := range params(module, d.fn) {
		pat, _, _, _, _ := paramParts(p)
		if pat == nil {
			continue
		}
		switch pat.Kind() {
		case "identifier":
			names[module.text(pat)] = true
		case "object_pattern":
			for _, k := range patternKeys(module, pat) {
				add(module.text(pat), k)
			}
		}
	}
	body := d.fn.ChildByFieldName("body")
	if body == nil || len(names) == 0 {
		return sorted(out), nil
	}
	// Aliases first: var opt = options || {} reads options through opt.
	alias := map[string]string{} // a name in the body -> the parameter
	for n := range names {
		alias[n] = n
	}
	var aliases func(n *sitter.Node, depth int)
	aliases = func(n *sitter.Node, depth int) {
		if n == nil || depth > maxDepth*4 {
			return
		}
		if n.Kind() == "variable_declarator" {
			name := n.ChildByFieldName("name")
			if p := paramOf(module, n.ChildByFieldName("value"), alias, 0); name != nil && name.Kind() == "identifier" && p != "" {
				alias[module.text(name)] = p
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			aliases(n.NamedChild(i), depth+1)
		}
	}
	aliases(body, 0)
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n == nil || depth > maxDepth*4 {
			return
		}
		switch n.Kind() {
		case "member_expression":
			obj, prop := n.ChildByFieldName("object"), n.ChildByFieldName("property")
			if obj != nil && prop != nil && obj.Kind() == "identifier" && alias[module.text(obj)] != "" && prop.Kind() == "property_identifier" {
				add(alias[module.text(obj)], module.text(prop))
			}
		case "subscript_expression":
			obj, idx := n.ChildByFieldName("object"), n.ChildByFieldName("index")
			if obj != nil && idx != nil && obj.Kind() == "identifier" && alias[module.text(obj)] != "" && idx.Kind() == "string" {
				if v, ok := stringValue(module, idx); ok {
					add(alias[module.text(obj)], v.(string))
				}
			}
		case "variable_declarator":
			name := n.ChildByFieldName("name")
			if p := paramOf(module, n.ChildByFieldName("value"), alias, 0); name != nil && name.Kind() == "object_pattern" && p != "" {
				for _, k := range patternKeys(module, name) {
					add(p, k)
				}
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(body, 0)
	return sorted(out), nil
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
