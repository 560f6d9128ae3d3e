package jssource

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Value reads a literal as Harvest and Constants write it (3, -1, 'a',
// `a`, [1, 2], { a: 1 }, null, undefined, 10n, NaN) into the value a row
// carries to premise's Node worker: plain JSON where JSON says the same,
// else the worker's one-key objects ({"$undefined": true}, {"$number":
// "-0"}, {"$bigint": "10"}). ok is false for anything else: a row never
// carries source text for the worker to run.
func Value(src string) (any, bool) {
	tree, err := parseWith(grammarJS, []byte("("+src+");"))
	if err != nil {
		return nil, false
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() || root.NamedChildCount() != 1 {
		return nil, false
	}
	st := root.NamedChild(0)
	if st.Kind() != "expression_statement" || st.NamedChildCount() != 1 {
		return nil, false
	}
	f := &File{src: []byte("(" + src + ");")}
	return f.value(st.NamedChild(0), 0)
}

// value reads one literal, a node kind at a time.
func (f *File) value(n *sitter.Node, depth int) (any, bool) {
	if n == nil || depth > maxDepth {
		return nil, false
	}
	switch n.Kind() {
	case "parenthesized_expression":
		return f.value(n.NamedChild(0), depth+1)
	case "number":
		return number(f.text(n), false)
	case "true":
		return true, true
	case "false":
		return false, true
	case "null":
		return nil, true
	case "undefined":
		return map[string]any{"$undefined": true}, true
	case "string", "template_string":
		return stringValue(f, n)
	case "regex":
		// The worker builds it: {"$regexp": "/source/flags"}.
		return map[string]any{"$regexp": f.text(n)}, true
	case "identifier":
		return nameValue(f.text(n))
	case "unary_expression":
		return f.signedValue(n)
	case "array":
		return f.arrayValue(n, depth)
	case "object":
		return f.objectValue(n, depth)
	case "new_expression":
		if dateArgs(f, n) != nil {
			return f.dateValue(n, depth)
		}
		return f.builtValue(n, depth)
	}
	return nil, false
}

// builtValue reads new X(...) of literal arguments (builtLit) as
// {"$new": "X", "$args": [...]}: X bare, for the caller to find in the
// module under test (Named).
func (f *File) builtValue(n *sitter.Node, depth int) (any, bool) {
	name := builtClass(f, n)
	if name == "" {
		return nil, false
	}
	var args any = []any{}
	if list := n.ChildByFieldName("arguments"); list != nil {
		var ok bool
		if args, ok = f.arrayValue(list, depth); !ok { // its elements, as an array's
			return nil, false
		}
	}
	return map[string]any{"$new": name, "$args": args}, true
}

// Named is v with each object it builds ({"$new": "X", ...}, as Value
// reads new X(...)) named by where X is found: module(X), or false when
// module finds no X. Values not built pass as they are.
func Named(v any, module func(string) string) (any, bool) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var ok bool
			if out[i], ok = Named(e, module); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		name, isBuilt := x["$new"].(string)
		if isBuilt && !strings.Contains(name, ".") {
			target := module(name)
			if target == "" {
				return nil, false
			}
			args, ok := Named(x["$args"], module)
			if !ok {
				return nil, false
			}
			return map[string]any{"$new": target, "$args": args}, true
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			var ok bool
			if out[k], ok = Named(e, module); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return v, true
}

// dateValue reads new Date(...) as the worker's {"$date": ...}: one string
// or number as it stands (an ISO date, milliseconds), several numbers as
// the list the worker passes to new Date, read in its own time zone as
// the test's was.
func (f *File) dateValue(n *sitter.Node, depth int) (any, bool) {
	args := dateArgs(f, n)
	if args == nil {
		return nil, false
	}
	var parts []any
	for _, a := range args {
		v, ok := f.value(a, depth+1)
		if !ok {
			return nil, false
		}
		if _, num := v.(json.Number); !num && !(len(args) == 1 && isString(v)) {
			return nil, false
		}
		parts = append(parts, v)
	}
	if len(parts) == 1 {
		return map[string]any{"$date": parts[0]}, true
	}
	return map[string]any{"$date": parts}, true
}

// nameValue reads the names that stand for values.
func nameValue(name string) (any, bool) {
	switch name {
	case "undefined":
		return map[string]any{"$undefined": true}, true
	case "NaN", "Infinity":
		return map[string]any{"$number": name}, true
	case Callback:
		return map[string]any{"$func": "mark"}, true
	}
	return nil, false
}

// signedValue reads a number, Infinity or NaN after - or +.
func (f *File) signedValue(n *sitter.Node) (any, bool) {
	op, arg := n.ChildByFieldName("operator"), n.ChildByFieldName("argument")
	if op == nil || arg == nil {
		return nil, false
	}
	neg := f.text(op) == "-"
	if !neg && f.text(op) != "+" {
		return nil, false
	}
	switch {
	case arg.Kind() == "number":
		return number(f.text(arg), neg)
	case arg.Kind() == "identifier" && f.text(arg) == "Infinity":
		if neg {
			return map[string]any{"$number": "-Infinity"}, true
		}
		return map[string]any{"$number": "Infinity"}, true
	case arg.Kind() == "identifier" && f.text(arg) == "NaN":
		return map[string]any{"$number": "NaN"}, true
	}
	return nil, false
}

// arrayValue reads an array whose every element is a literal.
func (f *File) arrayValue(n *sitter.Node, depth int) (any, bool) {
	out := []any{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "comment" {
			continue
		}
		v, ok := f.value(c, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// objectValue reads an object of plain keys and literal values; one
// with a key the worker reads as its own ($undefined) is escaped.
func (f *File) objectValue(n *sitter.Node, depth int) (any, bool) {
	out := map[string]any{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "comment" {
			continue
		}
		if c.Kind() != "pair" {
			return nil, false
		}
		key, ok := f.keyValue(c.ChildByFieldName("key"))
		if !ok {
			return nil, false
		}
		v, ok := f.value(c.ChildByFieldName("value"), depth+1)
		if !ok {
			return nil, false
		}
		out[key] = v
	}
	for k := range out {
		if strings.HasPrefix(k, "$") {
			return map[string]any{"$object": out}, true // the worker's escape
		}
	}
	return out, true
}

// keyValue reads an object's key as the property it names: a name, a
// string, or a number as number reads it, in JSON ({ 0x10: 1 } is
// { "16": 1 }). ok is false for a computed key.
func (f *File) keyValue(k *sitter.Node) (string, bool) {
	if k == nil {
		return "", false
	}
	switch k.Kind() {
	case "property_identifier":
		return f.text(k), true
	case "string":
		s, ok := stringValue(f, k)
		if !ok {
			return "", false
		}
		return s.(string), true
	case "number":
		v, ok := number(f.text(k), false)
		if !ok {
			return "", false
		}
		b, _ := json.Marshal(v)
		return string(b), true
	}
	return "", false
}

// number reads a JavaScript number literal (1_000, 0x1f, 1e3, .5, 10n).
func number(s string, neg bool) (any, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if strings.HasSuffix(s, "n") {
		b, ok := new(big.Int).SetString(strings.TrimSuffix(s, "n"), 0)
		if !ok {
			return nil, false
		}
		if neg {
			b.Neg(b)
		}
		return map[string]any{"$bigint": b.String()}, true
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil && !(neg && i == 0) {
		if neg {
			i = -i
		}
		return json.Number(strconv.FormatInt(i, 10)), true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	if neg {
		if v == 0 {
			return map[string]any{"$number": "-0"}, true
		}
		v = -v
	}
	return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), true
}

// stringValue reads a quoted string or a template without substitutions.
func stringValue(f *File, n *sitter.Node) (any, bool) {
	text := f.text(n)
	if len(text) < 2 {
		return nil, false
	}
	body := text[1 : len(text)-1]
	if n.Kind() == "template_string" && substituted(n) {
		return nil, false
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
		case 'u', 'x':
			size := 2
			if e == 'u' {
				size = 4
			}
			if e == 'u' && i+1 < len(body) && body[i+1] == '{' {
				end := strings.IndexByte(body[i:], '}')
				if end < 0 {
					return nil, false
				}
				r, err := strconv.ParseUint(body[i+2:i+end], 16, 32)
				if err != nil {
					return nil, false
				}
				b.WriteRune(rune(r))
				i += end
				continue
			}
			if i+1+size > len(body) {
				return nil, false
			}
			r, err := strconv.ParseUint(body[i+1:i+1+size], 16, 32)
			if err != nil {
				return nil, false
			}
			b.WriteRune(rune(r))
			i += size
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
