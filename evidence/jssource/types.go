package jssource

import (
	"fmt"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Guess is what the source says of a parameter's type.
type Guess struct {
	// Kind is one of the Kind constants; "" when nothing was learned.
	Kind string
	// Elem is the element of an array or a set; nil when unknown.
	Elem *Guess
	// Parts are the members of a union, the fields of a tuple, and
	// [key, value] of a record or a map.
	Parts []Guess
	// Values are the literal values a literal type allows, as written:
	// 'asc' | 'desc' is a string with Values ["'asc'", "'desc'"].
	Values []string
	// Nullable says null or undefined is one of the values (| null, |
	// undefined, JSDoc's ?T).
	Nullable bool
	// Optional says a call may leave the parameter out: x?: T, a default
	// value, JSDoc's [x] or T=.
	Optional bool
	// Rest marks a rest parameter (...xs), whose Guess is its array's.
	Rest bool
	// Class names the class or interface of an object guess (Date,
	// Interval).
	Class string
	// From says what the guess was read from: one of the From constants.
	From string
	// Text is the type or the default as written.
	Text string
}

// Kinds of Guess.
const (
	KindNumber    = "number"
	KindBigInt    = "bigint"
	KindString    = "string"
	KindBoolean   = "boolean"
	KindNull      = "null"
	KindUndefined = "undefined"
	KindArray     = "array"
	KindTuple     = "tuple"
	KindObject    = "object" // an instance of Class, or an object type
	KindRecord    = "record" // Record<K, V>, { [k: string]: V }: keys to values
	KindMap       = "map"
	KindSet       = "set"
	KindFunction  = "function"
	KindUnion     = "union"
	KindAny       = "any" // any, unknown: the source says anything goes
)

// Sources of a Guess, in order of trust.
const (
	FromAnnotation = "annotation"
	FromJSDoc      = "jsdoc"
	FromDefault    = "default"
)

// Known reports whether the guess says anything values can be built from.
func (g Guess) Known() bool { return g.Kind != "" && g.Kind != KindAny }

// String renders the guess compactly, for messages and tests:
// "array[number]", "string('a'|'b')", "number | string", a trailing ?
// for Nullable.
func (g Guess) String() string {
	var b strings.Builder
	g.write(&b)
	return b.String()
}

func (g Guess) write(b *strings.Builder) {
	switch {
	case g.Kind == "":
		b.WriteString("?")
	case g.Kind == KindUnion:
		for i, p := range g.Parts {
			if i > 0 {
				b.WriteString(" | ")
			}
			p.write(b)
		}
	case g.Kind == KindObject && g.Class != "":
		b.WriteString(g.Class)
	default:
		b.WriteString(g.Kind)
	}
	if g.Elem != nil {
		b.WriteString("[")
		g.Elem.write(b)
		b.WriteString("]")
	}
	if g.Kind != KindUnion && len(g.Parts) > 0 {
		b.WriteString("[")
		for i, p := range g.Parts {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(b)
		}
		b.WriteString("]")
	}
	if len(g.Values) > 0 {
		b.WriteString("(" + strings.Join(g.Values, "|") + ")")
	}
	if g.Nullable {
		b.WriteString("?")
	}
}

// InferTypes returns a guess for each parameter of fn (named as Harvest
// takes it) by its name as written (a destructured one by its pattern):
// from its TypeScript annotation, else its JSDoc @param {type} tag, else
// its default value. A type alias of the same file is followed. A
// parameter nothing speaks for has a Guess with Kind "". The error is
// ErrNoFunction, wrapped, when module does not define fn.
func InferTypes(module *File, fn string) (map[string]Guess, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, fmt.Errorf("infer types: %w", err)
	}
	doc := jsdocTypes(module, d)
	out := map[string]Guess{}
	for _, p := range params(module, d.fn) {
		pat, typ, def, optional, rest := paramParts(p)
		name := module.text(pat)
		var g Guess
		switch {
		case typ != nil && typ.NamedChildCount() > 0:
			g = typeGuess(module, typ.NamedChild(0), 0)
			g.From, g.Text = FromAnnotation, module.text(typ.NamedChild(0))
		case doc[name].Kind != "" || doc[name].Optional:
			g = doc[name]
		case def != nil:
			g = literalGuess(module, def, 0)
			g.From, g.Text = FromDefault, module.text(def)
		}
		if g.Kind == "" && g.From != FromJSDoc {
			g.From = ""
		}
		g.Optional = g.Optional || optional || def != nil
		g.Rest = rest
		out[name] = g
	}
	return out, nil
}

// maxTypeDepth bounds how deep a type (or an alias chain) is followed.
const maxTypeDepth = 24

// typeGuess reads a TypeScript type node.
func typeGuess(f *File, n *sitter.Node, depth int) Guess {
	if n == nil || depth > maxTypeDepth {
		return Guess{}
	}
	switch n.Kind() {
	case "predefined_type":
		return predefined(f.text(n))
	case "literal_type":
		if n.NamedChildCount() == 0 {
			return Guess{}
		}
		return literalTypeGuess(f, n.NamedChild(0))
	case "parenthesized_type", "readonly_type", "type_annotation":
		if n.NamedChildCount() == 0 {
			return Guess{}
		}
		return typeGuess(f, n.NamedChild(n.NamedChildCount()-1), depth+1)
	case "array_type":
		e := typeGuess(f, n.NamedChild(0), depth+1)
		return Guess{Kind: KindArray, Elem: &e}
	case "tuple_type":
		g := Guess{Kind: KindTuple}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			g.Parts = append(g.Parts, typeGuess(f, n.NamedChild(i), depth+1))
		}
		return g
	case "optional_type", "rest_type":
		return typeGuess(f, n.NamedChild(0), depth+1)
	case "union_type":
		var members []Guess
		var walk func(u *sitter.Node, d int)
		walk = func(u *sitter.Node, d int) {
			for i := uint(0); i < u.NamedChildCount() && d < maxTypeDepth; i++ {
				c := u.NamedChild(i)
				if c.Kind() == "union_type" {
					walk(c, d+1)
				} else {
					members = append(members, typeGuess(f, c, depth+1))
				}
			}
		}
		walk(n, depth)
		return joinUnion(members)
	case "function_type", "constructor_type":
		return Guess{Kind: KindFunction}
	case "object_type":
		// { [k: string]: V } is a record; other object types are objects.
		if n.NamedChildCount() == 1 && n.NamedChild(0).Kind() == "index_signature" {
			sig := n.NamedChild(0)
			var v Guess
			if t := sig.ChildByFieldName("type"); t != nil {
				v = typeGuess(f, t, depth+1)
			}
			return Guess{Kind: KindRecord, Parts: []Guess{{Kind: KindString}, v}}
		}
		return Guess{Kind: KindObject}
	case "type_identifier", "nested_type_identifier":
		return namedType(f, f.text(n), nil, depth)
	case "generic_type":
		name := f.text(n.ChildByFieldName("name"))
		var args []Guess
		if ta := n.ChildByFieldName("type_arguments"); ta != nil {
			for i := uint(0); i < ta.NamedChildCount(); i++ {
				args = append(args, typeGuess(f, ta.NamedChild(i), depth+1))
			}
		}
		return namedType(f, name, args, depth)
	}
	return Guess{}
}

func predefined(s string) Guess {
	switch s {
	case "number", "string", "boolean", "bigint", "null", "undefined":
		return Guess{Kind: s}
	case "void":
		return Guess{Kind: KindUndefined}
	case "any", "unknown":
		return Guess{Kind: KindAny}
	case "object":
		return Guess{Kind: KindObject}
	}
	return Guess{}
}

func literalTypeGuess(f *File, n *sitter.Node) Guess {
	switch n.Kind() {
	case "string", "template_string":
		return Guess{Kind: KindString, Values: []string{f.text(n)}}
	case "number":
		if strings.HasSuffix(f.text(n), "n") {
			return Guess{Kind: KindBigInt, Values: []string{f.text(n)}}
		}
		return Guess{Kind: KindNumber, Values: []string{f.text(n)}}
	case "unary_expression":
		return Guess{Kind: KindNumber, Values: []string{f.text(n)}}
	case "true", "false":
		return Guess{Kind: KindBoolean, Values: []string{f.text(n)}}
	case "null":
		return Guess{Kind: KindNull}
	case "undefined":
		return Guess{Kind: KindUndefined}
	}
	return Guess{}
}

// namedType reads a type by name: the built-in containers, Date and other
// classes, and the file's own type aliases, followed.
func namedType(f *File, name string, args []Guess, depth int) Guess {
	arg := func(i int) *Guess {
		if i < len(args) {
			a := args[i]
			return &a
		}
		return &Guess{}
	}
	switch name {
	case "Array", "ReadonlyArray", "Iterable":
		return Guess{Kind: KindArray, Elem: arg(0)}
	case "Set", "ReadonlySet":
		return Guess{Kind: KindSet, Elem: arg(0)}
	case "Map", "ReadonlyMap":
		return Guess{Kind: KindMap, Parts: []Guess{*arg(0), *arg(1)}}
	case "Record":
		return Guess{Kind: KindRecord, Parts: []Guess{*arg(0), *arg(1)}}
	case "Number":
		return Guess{Kind: KindNumber}
	case "String":
		return Guess{Kind: KindString}
	case "Boolean":
		return Guess{Kind: KindBoolean}
	case "BigInt":
		return Guess{Kind: KindBigInt}
	case "Function":
		return Guess{Kind: KindFunction}
	case "Readonly", "NonNullable":
		return *arg(0)
	}
	if alias := f.typeAlias(name); alias != nil && depth < maxTypeDepth {
		return typeGuess(f, alias, depth+1)
	}
	return Guess{Kind: KindObject, Class: name}
}

// declares says whether f binds name itself, a class, function or
// variable of its own or an import.
func (f *File) declares(name string) bool {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`\b(class|function|var|let|const|type|interface)\s+` + q + `\b|\bimport\b[^;]*\b` + q + `\b`).Match(f.src)
}

// jsdocNumbers are the names JSDoc comments give a number that no
// TypeScript type has.
var jsdocNumbers = map[string]bool{"Int": true, "int": true, "Integer": true, "integer": true, "Float": true, "float": true, "Double": true, "double": true}

// typeAlias is the value of the file's type alias of the name, nil when it
// declares none.
func (f *File) typeAlias(name string) *sitter.Node {
	if f.root == nil {
		return nil
	}
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		c := f.root.NamedChild(i)
		if c.Kind() == "export_statement" && c.ChildByFieldName("declaration") != nil {
			c = c.ChildByFieldName("declaration")
		}
		if c.Kind() == "type_alias_declaration" && f.text(c.ChildByFieldName("name")) == name && c.ChildByFieldName("type_parameters") == nil {
			return c.ChildByFieldName("value")
		}
	}
	return nil
}

// joinUnion folds a union's members: null and undefined make it Nullable,
// literals of one kind join their Values, one kind left is that kind.
func joinUnion(ms []Guess) Guess {
	var rest []Guess
	nullable := false
	for _, m := range ms {
		switch {
		case m.Kind == KindNull || m.Kind == KindUndefined:
			nullable = true
		case m.Kind == "":
			return Guess{Nullable: nullable}
		default:
			merged := false
			for i := range rest {
				if rest[i].Kind == m.Kind && rest[i].Elem == nil && m.Elem == nil && len(rest[i].Parts) == 0 && rest[i].Class == m.Class {
					if len(rest[i].Values) > 0 && len(m.Values) > 0 {
						rest[i].Values = append(rest[i].Values, m.Values...)
					} else {
						rest[i].Values = nil // string | 'a' is any string
					}
					merged = true
					break
				}
			}
			if !merged {
				rest = append(rest, m)
			}
		}
	}
	switch len(rest) {
	case 0:
		return Guess{Kind: KindNull, Nullable: true}
	case 1:
		g := rest[0]
		g.Nullable = g.Nullable || nullable
		return g
	}
	return Guess{Kind: KindUnion, Parts: rest, Nullable: nullable}
}

// literalGuess reads a default value.
func literalGuess(f *File, n *sitter.Node, depth int) Guess {
	n = unwrap(n)
	if n == nil || depth > maxTypeDepth {
		return Guess{}
	}
	switch n.Kind() {
	case "number":
		if strings.HasSuffix(f.text(n), "n") {
			return Guess{Kind: KindBigInt}
		}
		return Guess{Kind: KindNumber}
	case "unary_expression":
		if a := n.ChildByFieldName("argument"); a != nil && a.Kind() == "number" {
			return literalGuess(f, a, depth+1)
		}
	case "string", "template_string":
		return Guess{Kind: KindString}
	case "true", "false":
		return Guess{Kind: KindBoolean}
	case "null":
		return Guess{Nullable: true}
	case "array":
		g := Guess{Kind: KindArray}
		if n.NamedChildCount() > 0 {
			e := literalGuess(f, n.NamedChild(0), depth+1)
			if e.Kind != "" {
				g.Elem = &e
			}
		}
		return g
	case "object":
		return Guess{Kind: KindObject}
	case "arrow_function", "function_expression", "function":
		return Guess{Kind: KindFunction}
	case "new_expression":
		return Guess{Kind: KindObject, Class: f.text(n.ChildByFieldName("constructor"))}
	}
	return Guess{}
}

// jsdocTypes reads the @param tags of the /** */ comment before the
// function.
func jsdocTypes(f *File, d def) map[string]Guess {
	out := map[string]Guess{}
	c := d.outer.PrevSibling()
	if c == nil || c.Kind() != "comment" || !strings.HasPrefix(f.text(c), "/**") {
		return out
	}
	text := f.text(c)
	for {
		i := strings.Index(text, "@param")
		if i < 0 {
			return out
		}
		text = strings.TrimLeft(text[i+len("@param"):], " \t")
		var typ string
		if strings.HasPrefix(text, "{") {
			depth, end := 0, -1
			for j, r := range text {
				if r == '{' {
					depth++
				} else if r == '}' {
					depth--
					if depth == 0 {
						end = j
						break
					}
				}
			}
			if end < 0 {
				return out
			}
			typ, text = text[1:end], strings.TrimLeft(text[end+1:], " \t")
		}
		name := text
		if k := strings.IndexAny(name, " \t\n*"); k >= 0 {
			name = name[:k]
		}
		optional := false
		if strings.HasPrefix(name, "[") { // [name] or [name=default]
			optional = true
			name = strings.TrimPrefix(name, "[")
			if k := strings.IndexAny(name, "=]"); k >= 0 {
				name = name[:k]
			}
		}
		if name == "" || strings.Contains(name, ".") || typ == "" {
			continue // a field of an object parameter, or no type
		}
		if _, seen := out[name]; seen {
			continue
		}
		g := docType(typ)
		if g.Kind == KindObject && jsdocNumbers[g.Class] {
			// JSDoc's own spellings of a number (fast-diff's @param
			// {Int} cursor_pos), where the file declares no class of
			// the name.
			if !f.declares(g.Class) {
				g.Kind, g.Class = KindNumber, ""
			}
		}
		g.Optional = g.Optional || optional
		g.From, g.Text = FromJSDoc, typ
		out[name] = g
	}
}

// docType reads a JSDoc type (Closure's syntax: ?T nullable, !T, T=
// optional, *, Array.<T>, Object.<K, V>, function(...)) by parsing it
// as a TypeScript type.
func docType(s string) Guess {
	s = strings.TrimSpace(s)
	if len(s) > 512 {
		return Guess{}
	}
	var g Guess
	if strings.HasSuffix(s, "=") {
		g.Optional, s = true, strings.TrimSpace(strings.TrimSuffix(s, "="))
	}
	nullable := false
	switch {
	case strings.HasPrefix(s, "?"):
		nullable, s = true, s[1:]
	case strings.HasPrefix(s, "!"):
		s = s[1:]
	}
	rest := false
	if strings.HasPrefix(s, "...") {
		rest, s = true, s[3:]
	}
	s = strings.ReplaceAll(s, ".<", "<")
	if s == "*" || s == "" {
		return Guess{Kind: KindAny, Optional: g.Optional}
	}
	if strings.HasPrefix(s, "function(") {
		return Guess{Kind: KindFunction, Optional: g.Optional, Nullable: nullable}
	}
	if strings.HasPrefix(s, "Object<") {
		s = "Record<" + s[len("Object<"):]
	}
	t, err := Parse("jsdoc.ts", []byte("type T = "+s+";\n"))
	if err != nil {
		return g
	}
	defer t.Close()
	if t.SyntaxError() != nil || t.root.NamedChildCount() != 1 {
		return g
	}
	out := typeGuess(t, t.root.NamedChild(0).ChildByFieldName("value"), 0)
	if rest {
		elem := out // not &out: the array would be its own element
		out = Guess{Kind: KindArray, Elem: &elem}
	}
	out.Optional = g.Optional
	out.Nullable = out.Nullable || nullable
	return out
}
