package pysource

import (
	"strings"
)

// Guess is what the source says of a parameter's type.
type Guess struct {
	// Kind is one of the Kind constants; "" when nothing was learned.
	Kind string
	// Elem is the element of a list, set, tuple[X, ...], sequence,
	// iterable or iterator, and the value of a dict; nil when unknown.
	Elem *Guess
	// Parts are the members of a union, the fields of a fixed tuple, and
	// [key, value] of a dict whose key type is known.
	Parts []Guess
	// Nullable says None is one of the values (Optional, a None default,
	// an `is None` test in the body).
	Nullable bool
	// Class names the class of an object guess as written (Bits,
	// datetime).
	Class string
	// From says what the guess was read from: one of the From constants,
	// or "signature" for a *args or **kwargs nothing else speaks for.
	// A second source after a + refined it: "annotation+body" borrowed
	// the element type, "body+name" made a number an int.
	From string
	// Text is the evidence as written: the annotation, the docstring
	// type, the default, or the body uses ("x.split, len(x)").
	Text string
}

// Kinds of Guess. Number is an int or a float; Sized has a len; Iterable
// can be looped over once; Iterator also has next; Sequence also indexes.
const (
	KindInt      = "int"
	KindFloat    = "float"
	KindNumber   = "number"
	KindStr      = "str"
	KindBytes    = "bytes"
	KindBool     = "bool"
	KindNone     = "none"
	KindList     = "list"
	KindTuple    = "tuple"
	KindSet      = "set"
	KindDict     = "dict"
	KindIterable = "iterable"
	KindIterator = "iterator"
	KindSequence = "sequence"
	KindSized    = "sized"
	KindCallable = "callable"
	KindUnion    = "union"
	KindObject   = "object" // an instance of Class
	KindAny      = "any"    // Any, object or an unbound TypeVar: the source says anything goes
)

// Sources of a Guess, in order of trust.
const (
	FromAnnotation = "annotation"
	FromStub       = "stub"
	FromDocstring  = "docstring"
	FromDefault    = "default"
	FromBody       = "body"
	FromCall       = "call" // passed on to another function of the module, whose guess it takes
	FromName       = "name"
)

// Known reports whether the guess says anything values can be built from:
// not unknown and not "anything".
func (g Guess) Known() bool { return g.Kind != "" && g.Kind != KindAny }

// String renders the guess compactly, for messages and tests:
// "list[tuple[int, str]]", "int | str", "iterable[?]?" (a trailing ? is
// Nullable).
func (g Guess) String() string {
	var b strings.Builder
	g.write(&b)
	return b.String()
}

func (g Guess) write(b *strings.Builder) {
	switch g.Kind {
	case "":
		b.WriteString("?")
	case KindUnion:
		for i, p := range g.Parts {
			if i > 0 {
				b.WriteString(" | ")
			}
			p.write(b)
		}
	case KindObject:
		b.WriteString(g.Class)
	default:
		b.WriteString(g.Kind)
		switch {
		case len(g.Parts) > 0:
			b.WriteString("[")
			for i, p := range g.Parts {
				if i > 0 {
					b.WriteString(", ")
				}
				p.write(b)
			}
			b.WriteString("]")
		case g.Elem != nil:
			b.WriteString("[")
			g.Elem.write(b)
			b.WriteString("]")
		}
	}
	if g.Nullable {
		b.WriteString("?")
	}
}

// maxTypeDepth bounds nested annotations and alias chains.
const maxTypeDepth = 24

// typeExpr reads a type written as a Python expression: an annotation, a
// stub's, an alias's right-hand side, or a docstring type in Python
// syntax. aliases maps module-level names to their right-hand sides.
func typeExpr(s string, aliases map[string]string, depth int) Guess {
	s = strings.TrimSpace(s)
	if depth > maxTypeDepth || s == "" {
		return Guess{}
	}
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return typeExpr(s[1:len(s)-1], aliases, depth+1) // a forward reference
	}
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && closes(s) {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if parts := splitTop(s, '|'); len(parts) > 1 {
		return union(parts, aliases, depth)
	}
	head, args := s, ""
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		head, args = strings.TrimSpace(s[:i]), s[i+1:len(s)-1]
	}
	if !isDotted(head) {
		return Guess{}
	}
	short := head[strings.LastIndex(head, ".")+1:]
	argv := splitTop(args, ',')
	if args == "" {
		argv = nil
	}
	arg := func(i int) *Guess {
		if i >= len(argv) {
			return nil
		}
		g := typeExpr(argv[i], aliases, depth+1)
		if g.Kind == "" {
			return nil
		}
		return &g
	}
	var g Guess
	switch short {
	case "Optional":
		g = typeExpr(args, aliases, depth+1)
		if g.Kind == KindNone {
			return g
		}
		g.Nullable = true
		return g
	case "Union":
		return union(argv, aliases, depth)
	case "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly":
		if len(argv) > 0 {
			return typeExpr(argv[0], aliases, depth+1)
		}
		return Guess{}
	case "int", "SupportsInt", "SupportsIndex", "Integral":
		g.Kind = KindInt
	case "float", "SupportsFloat", "Real":
		g.Kind = KindFloat
	case "complex", "Number", "Complex", "Decimal", "Fraction", "Rational":
		g.Kind = KindNumber
	case "str", "LiteralString", "AnyStr", "Text":
		g.Kind = KindStr
	case "bytes", "bytearray", "memoryview", "ByteString":
		g.Kind = KindBytes
	case "bool":
		g.Kind = KindBool
	case "None", "NoneType":
		g.Kind = KindNone
	case "list", "List", "MutableSequence":
		g.Kind, g.Elem = KindList, arg(0)
	case "Sequence", "Reversible":
		g.Kind, g.Elem = KindSequence, arg(0)
	case "Iterable", "Collection", "AsyncIterable", "Container":
		g.Kind, g.Elem = KindIterable, arg(0)
	case "Iterator", "Generator", "AsyncIterator", "AsyncGenerator":
		g.Kind, g.Elem = KindIterator, arg(0)
	case "set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet", "KeysView":
		g.Kind, g.Elem = KindSet, arg(0)
	case "dict", "Dict", "Mapping", "MutableMapping", "DefaultDict", "defaultdict", "OrderedDict", "Counter", "ChainMap":
		g.Kind = KindDict
		if short == "Counter" {
			g.Elem = &Guess{Kind: KindInt}
			if k := arg(0); k != nil {
				g.Parts = []Guess{*k, {Kind: KindInt}}
			}
			break
		}
		if len(argv) == 2 {
			g.Elem = arg(1)
			if k := arg(0); k != nil && g.Elem != nil {
				g.Parts = []Guess{*k, *g.Elem}
			}
		}
	case "tuple", "Tuple":
		g.Kind = KindTuple
		switch {
		case len(argv) == 2 && strings.TrimSpace(argv[1]) == "...":
			g.Elem = arg(0)
		case len(argv) > 0 && !(len(argv) == 1 && strings.TrimSpace(argv[0]) == "()"):
			for i := range argv {
				p := arg(i)
				if p == nil {
					p = &Guess{}
				}
				g.Parts = append(g.Parts, *p)
			}
		}
	case "Callable", "callable":
		g.Kind = KindCallable
	case "Sized":
		g.Kind = KindSized
	case "Any", "object", "Hashable", "TypeVar":
		g.Kind = KindAny
	case "Literal":
		// Literal['a', 'b']: the kind of its values.
		var ps []Guess
		for _, a := range argv {
			if d := literalKind(strings.TrimSpace(a)); d.Kind != "" {
				ps = append(ps, d)
			}
		}
		return joinUnion(ps)
	case "Type", "type":
		g.Kind = KindObject
		g.Class = "type"
	default:
		if rhs, ok := aliases[head]; ok {
			rest := map[string]string{}
			for k, v := range aliases {
				if k != head {
					rest[k] = v
				}
			}
			return typeExpr(rhs, rest, depth+1)
		}
		if strings.HasPrefix(head, "typing.") || strings.HasPrefix(head, "collections.abc.") {
			return Guess{}
		}
		g.Kind, g.Class = KindObject, head
	}
	return g
}

func union(parts []string, aliases map[string]string, depth int) Guess {
	var ps []Guess
	for _, p := range parts {
		g := typeExpr(p, aliases, depth+1)
		if g.Kind == "" {
			return Guess{} // one unknown member: the union is not known
		}
		ps = append(ps, g)
	}
	return joinUnion(ps)
}

// joinUnion folds members into one guess: None makes the rest Nullable,
// one member is itself, nested unions flatten, and duplicates go.
func joinUnion(ps []Guess) Guess {
	var out []Guess
	nullable := false
	seen := map[string]bool{}
	var add func(g Guess)
	add = func(g Guess) {
		if g.Kind == KindNone {
			nullable = true
			return
		}
		if g.Kind == KindUnion {
			nullable = nullable || g.Nullable
			for _, p := range g.Parts {
				add(p)
			}
			return
		}
		if g.Nullable {
			nullable = true
			g.Nullable = false
		}
		if k := g.String(); !seen[k] {
			seen[k] = true
			out = append(out, g)
		}
	}
	for _, p := range ps {
		add(p)
	}
	var g Guess
	switch len(out) {
	case 0:
		if !nullable {
			return Guess{}
		}
		return Guess{Kind: KindNone}
	case 1:
		g = out[0]
	default:
		g = Guess{Kind: KindUnion, Parts: out}
	}
	g.Nullable = nullable
	return g
}

// literalKind is the kind of a literal's value, as written in Python.
func literalKind(d string) Guess {
	switch {
	case d == "":
		return Guess{}
	case d == "None":
		return Guess{Kind: KindNone}
	case d == "True" || d == "False":
		return Guess{Kind: KindBool}
	}
	p := strings.ToLower(d)
	i := strings.IndexAny(p, `"'`)
	if i >= 0 && strings.Trim(p[:i], "rbuf") == "" {
		if strings.Contains(p[:i], "b") {
			return Guess{Kind: KindBytes}
		}
		return Guess{Kind: KindStr}
	}
	d = strings.TrimPrefix(strings.TrimPrefix(d, "-"), "+")
	if d == "" {
		return Guess{}
	}
	isInt, isNum := true, true
	for j, c := range strings.ToLower(d) {
		switch {
		case c >= '0' && c <= '9' || c == '_':
		case c == 'x' || c == 'o' || (c == 'b' && j == 1) || (c >= 'a' && c <= 'f' && strings.HasPrefix(strings.ToLower(d), "0x")):
		case c == '.' || c == 'e' || c == '+' || c == '-':
			isInt = false
		case c == 'j':
			isInt = false
		default:
			isInt, isNum = false, false
		}
	}
	if d[0] < '0' || d[0] > '9' {
		if d[0] != '.' {
			return Guess{}
		}
	}
	switch {
	case isInt:
		return Guess{Kind: KindInt}
	case isNum && strings.HasSuffix(strings.ToLower(d), "j"):
		return Guess{Kind: KindNumber}
	case isNum:
		return Guess{Kind: KindFloat}
	}
	return Guess{}
}

func isDotted(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, c := range part {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// closes reports whether s's first bracket closes at its last byte.
func closes(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i == len(s)-1
			}
		}
	}
	return false
}

// splitTop splits s at sep outside brackets and quotes.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, last := 0, 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '[' || c == '(' || c == '{':
			depth++
		case c == ']' || c == ')' || c == '}':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[last:i])
			last = i + 1
		}
	}
	return append(out, s[last:])
}
