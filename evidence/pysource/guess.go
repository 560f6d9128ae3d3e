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
	a := typeArgs{text: args, aliases: aliases, depth: depth}
	if args != "" {
		a.argv = splitTop(args, ',')
	}
	return a.named(head)
}

// typeArgs are the parameters written after a type's name (the int, str
// of dict[int, str]), with what they are read against.
type typeArgs struct {
	text    string   // as written between the brackets
	argv    []string // split at top-level commas; nil when there are none
	aliases map[string]string
	depth   int
}

// arg reads the i-th parameter; nil when it is missing or unknown.
func (a typeArgs) arg(i int) *Guess {
	if i >= len(a.argv) {
		return nil
	}
	g := typeExpr(a.argv[i], a.aliases, a.depth+1)
	if g.Kind == "" {
		return nil
	}
	return &g
}

// scalarKinds maps the names of types read without their parameters to
// their kinds: the builtins, their typing and numbers spellings, and the
// protocols that say as much.
var scalarKinds = map[string]string{
	"int": KindInt, "SupportsInt": KindInt, "SupportsIndex": KindInt, "Integral": KindInt,
	"float": KindFloat, "SupportsFloat": KindFloat, "Real": KindFloat,
	"complex": KindNumber, "Number": KindNumber, "Complex": KindNumber, "Decimal": KindNumber,
	"Fraction": KindNumber, "Rational": KindNumber,
	"str": KindStr, "LiteralString": KindStr, "AnyStr": KindStr, "Text": KindStr,
	"bytes": KindBytes, "bytearray": KindBytes, "memoryview": KindBytes, "ByteString": KindBytes,
	"bool": KindBool, "None": KindNone, "NoneType": KindNone,
	"Callable": KindCallable, "callable": KindCallable, "Sized": KindSized,
	"Any": KindAny, "object": KindAny, "Hashable": KindAny, "TypeVar": KindAny,
}

// elemKinds maps the names of containers whose first parameter is their
// element (list[int], Iterator[str]) to their kinds.
var elemKinds = map[string]string{
	"list": KindList, "List": KindList, "MutableSequence": KindList,
	"Sequence": KindSequence, "Reversible": KindSequence,
	"Iterable": KindIterable, "Collection": KindIterable, "AsyncIterable": KindIterable, "Container": KindIterable,
	"Iterator": KindIterator, "Generator": KindIterator, "AsyncIterator": KindIterator, "AsyncGenerator": KindIterator,
	"set": KindSet, "Set": KindSet, "frozenset": KindSet, "FrozenSet": KindSet, "AbstractSet": KindSet,
	"MutableSet": KindSet, "KeysView": KindSet,
}

// dictNames are the mappings, read as dict[key, value].
var dictNames = setOf("dict", "Dict", "Mapping", "MutableMapping", "DefaultDict", "defaultdict",
	"OrderedDict", "Counter", "ChainMap")

// qualifiers wrap a type without changing what its values are.
var qualifiers = setOf("Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly")

// named reads a type by its name (head, maybe dotted), with these
// parameters: the special forms of typing first, then the scalar and
// container names, then an alias or a class.
func (a typeArgs) named(head string) Guess {
	short := head[strings.LastIndex(head, ".")+1:]
	switch {
	case short == "Optional":
		return a.optional()
	case short == "Union":
		return union(a.argv, a.aliases, a.depth)
	case qualifiers[short]:
		if len(a.argv) > 0 {
			return typeExpr(a.argv[0], a.aliases, a.depth+1)
		}
		return Guess{}
	case dictNames[short]:
		return a.dict(short == "Counter")
	case short == "tuple" || short == "Tuple":
		return a.tuple()
	case short == "Literal":
		return a.literal()
	case short == "Type" || short == "type":
		return Guess{Kind: KindObject, Class: "type"}
	}
	if k, ok := scalarKinds[short]; ok {
		return Guess{Kind: k}
	}
	if k, ok := elemKinds[short]; ok {
		return Guess{Kind: k, Elem: a.arg(0)}
	}
	return a.alias(head)
}

// optional reads Optional[X]: X, nullable unless X is None itself.
func (a typeArgs) optional() Guess {
	g := typeExpr(a.text, a.aliases, a.depth+1)
	if g.Kind == KindNone {
		return g
	}
	g.Nullable = true
	return g
}

// dict reads a mapping's [key, value]; a Counter's values are ints and
// its one parameter is the key.
func (a typeArgs) dict(counter bool) Guess {
	g := Guess{Kind: KindDict}
	if counter {
		g.Elem = &Guess{Kind: KindInt}
		if k := a.arg(0); k != nil {
			g.Parts = []Guess{*k, {Kind: KindInt}}
		}
		return g
	}
	if len(a.argv) == 2 {
		g.Elem = a.arg(1)
		if k := a.arg(0); k != nil && g.Elem != nil {
			g.Parts = []Guess{*k, *g.Elem}
		}
	}
	return g
}

// tuple reads tuple[X, ...] (an element), tuple[X, Y] (fields, unknown
// ones kept as such) and tuple[()] (empty).
func (a typeArgs) tuple() Guess {
	g := Guess{Kind: KindTuple}
	switch {
	case len(a.argv) == 2 && strings.TrimSpace(a.argv[1]) == "...":
		g.Elem = a.arg(0)
	case len(a.argv) > 0 && !(len(a.argv) == 1 && strings.TrimSpace(a.argv[0]) == "()"):
		for i := range a.argv {
			p := a.arg(i)
			if p == nil {
				p = &Guess{}
			}
			g.Parts = append(g.Parts, *p)
		}
	}
	return g
}

// literal reads Literal['a', 'b']: the kinds of its values.
func (a typeArgs) literal() Guess {
	var ps []Guess
	for _, v := range a.argv {
		if d := literalKind(strings.TrimSpace(v)); d.Kind != "" {
			ps = append(ps, d)
		}
	}
	return joinUnion(ps)
}

// alias reads a name no table knows: a module alias reads its right-hand
// side (without itself, so a cycle ends); an unknown typing name says
// nothing; any other name is a class.
func (a typeArgs) alias(head string) Guess {
	if rhs, ok := a.aliases[head]; ok {
		rest := map[string]string{}
		for k, v := range a.aliases {
			if k != head {
				rest[k] = v
			}
		}
		return typeExpr(rhs, rest, a.depth+1)
	}
	if strings.HasPrefix(head, "typing.") || strings.HasPrefix(head, "collections.abc.") {
		return Guess{}
	}
	return Guess{Kind: KindObject, Class: head}
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
