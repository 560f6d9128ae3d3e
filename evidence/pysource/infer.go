package pysource

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// param is one parameter as written.
type param struct {
	name       string // "*args" and "**kwargs" keep their stars
	annotation string
	def        *sitter.Node
}

// params returns a function's parameters without the receiver of a
// method (self or cls, unless @staticmethod).
func (f *File) params(d def) []param {
	ps := d.fn.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	static := false
	if d.outer.Kind() == "decorated_definition" {
		for i := uint(0); i < d.outer.NamedChildCount(); i++ {
			if c := d.outer.NamedChild(i); c.Kind() == "decorator" && strings.HasSuffix(strings.TrimSpace(f.text(c)), "staticmethod") {
				static = true
			}
		}
	}
	skip := d.class != nil && !static
	var out []param
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		c := ps.NamedChild(i)
		var p param
		switch c.Kind() {
		case "identifier":
			p.name = f.text(c)
		case "default_parameter":
			p.name, p.def = f.text(c.ChildByFieldName("name")), c.ChildByFieldName("value")
		case "typed_default_parameter":
			p.name, p.annotation, p.def = f.text(c.ChildByFieldName("name")), f.text(c.ChildByFieldName("type")), c.ChildByFieldName("value")
		case "typed_parameter":
			p.annotation = f.text(c.ChildByFieldName("type"))
			inner := c.NamedChild(0)
			switch inner.Kind() {
			case "list_splat_pattern":
				p.name = "*" + paramName(f, inner)
			case "dictionary_splat_pattern":
				p.name = "**" + paramName(f, inner)
			default:
				p.name = f.text(inner)
			}
		case "list_splat_pattern":
			p.name = "*" + paramName(f, c)
		case "dictionary_splat_pattern":
			p.name = "**" + paramName(f, c)
		default: // the bare * and / markers, comments
			continue
		}
		if p.name == "" || p.name == "*" || p.name == "**" {
			continue
		}
		if skip {
			skip = false
			continue
		}
		out = append(out, p)
	}
	return out
}

// InferTypes guesses the type of each parameter of fn ("f" or "Class.m";
// self and cls are left out), keyed by name (*args and **kwargs keep their
// stars). Each guess comes from the most trusted source that knows: the
// annotation (with the module's aliases), the stub (nil when there is
// none; overloads join into a union), the docstring (reST, Google or NumPy
// style), the default, how the body uses the parameter, the function of the
// module it is passed on to, then its name. A
// guess whose container lacks an element type borrows one from a less
// trusted source. A parameter nothing speaks for has a Guess with Kind "".
// The error is ErrNoFunction, wrapped, when module does not define fn.
func InferTypes(module *File, fn string, stub *File) (map[string]Guess, error) {
	return inferTypes(module, fn, stub, map[string]bool{})
}

// maxCallDepth bounds how far a parameter is followed into the functions
// it is passed to.
const maxCallDepth = 3

func inferTypes(module *File, fn string, stub *File, visiting map[string]bool) (map[string]Guess, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, fmt.Errorf("infer types: %w", err)
	}
	visiting[fn] = true
	defer delete(visiting, fn)
	aliases := moduleAliases(module)
	var stubTypes map[string]Guess
	if stub != nil && stub.root != nil {
		stubTypes = stubGuesses(stub, fn)
	}
	docTypes := docstringTypes(module, d)
	body, calls := bodyGuesses(module, d)
	out := map[string]Guess{}
	for _, p := range module.params(d) {
		bare := strings.TrimLeft(p.name, "*")
		var cands []Guess
		if p.annotation != "" {
			g := typeExpr(p.annotation, aliases, 0)
			g.From, g.Text = FromAnnotation, p.annotation
			if g.Kind == KindAny && !strings.HasPrefix(p.name, "*") {
				// `value: Any` says anything goes: what the body does
				// with it narrows nothing a caller may pass.
				out[p.name] = g
				continue
			}
			cands = append(cands, g)
		}
		if g, ok := stubTypes[p.name]; ok {
			cands = append(cands, g)
		}
		if g, ok := docTypes[bare]; ok {
			cands = append(cands, g)
		}
		nullable := false
		if p.def != nil {
			g := defaultGuess(module, p.def)
			nullable = g.Kind == KindNone
			if g.Kind != KindNone {
				cands = append(cands, g)
			}
		}
		if g, ok := body[bare]; ok {
			nullable = nullable || g.Nullable
			cands = append(cands, g)
		}
		if sofar := pick(cands); !sofar.Known() && len(visiting) < maxCallDepth {
			if g, ok := passedOn(module, calls[bare], stub, visiting, false); ok {
				cands = append(cands, g)
			}
		} else if refinable(sofar) && len(visiting) < maxCallDepth {
			// The body only sized, iterated or indexed it; a function it
			// is handed to that declares or tests its type says which of
			// those it is (a check that raises unless it is a str). What
			// another function merely does with it (choices.items() in
			// a try) narrows nothing.
			if g, ok := passedOn(module, calls[bare], stub, visiting, true); ok && contains(compatible[g.Kind], sofar.Kind) {
				cands = append([]Guess{g}, cands...)
			}
		}
		if g := nameGuess(bare); g.Kind != "" {
			cands = append(cands, g)
		}
		g := pick(cands)
		if nullable && g.Kind != "" {
			g.Nullable = true
		}
		switch {
		case strings.HasPrefix(p.name, "**"):
			// **kwargs: str -> the annotated value.
			g = Guess{Kind: KindDict, Elem: known(g), Parts: nil, From: g.From, Text: g.Text}
			if g.From == "" {
				g.From = "signature"
			}
		case strings.HasPrefix(p.name, "*"):
			if g.From == FromName && g.Elem != nil {
				g = *g.Elem // *iterables: each one is an iterable
				g.From, g.Text = FromName, bare
			}
			g = Guess{Kind: KindTuple, Elem: known(g), From: g.From, Text: g.Text}
			if g.From == "" {
				g.From = "signature"
			}
		}
		out[p.name] = g
	}
	return out, nil
}

// refinable says g is the body's vague reading alone (sized, iterable, a
// sequence), which a function the parameter is handed to may narrow.
func refinable(g Guess) bool {
	return g.From == FromBody && (g.Kind == KindSized || g.Kind == KindIterable || g.Kind == KindSequence)
}

// declares says g is a type written down (an annotation, a stub, a
// docstring) or tested (isinstance in the body), not one read from what
// the body does with the value.
func declares(g Guess) bool {
	switch g.From {
	case FromAnnotation, FromStub, FromDocstring:
		return true
	case FromBody:
		return strings.Contains(g.Text, "isinstance(")
	}
	return false
}

// passedOn reads a parameter's type from the functions of the module it
// is passed to unchanged: split(src, sep) calling split_iter(src, sep)
// has split_iter's types. With declared, only a type the other function
// declares or tests counts.
func passedOn(module *File, calls []passed, stub *File, visiting map[string]bool, declared bool) (Guess, bool) {
	for _, c := range calls {
		if visiting[c.fn] {
			continue
		}
		in, fn, fnStub := module, c.fn, stub
		if !module.HasDef(fn) {
			// A function imported from another of the project's modules
			// types its parameter there.
			other, orig, ok := module.importedDef(fn)
			if !ok || visiting[orig] {
				continue
			}
			in, fn, fnStub = other, orig, nil
		}
		if len(in.defs(fn)) > 1 {
			continue // overloads (item(value: bool) -> Bool, ...): no one type
		}
		d, err := in.def(fn)
		if err != nil || d.class != nil {
			continue
		}
		name := c.kw
		if name == "" {
			ps := in.params(d)
			if c.pos >= len(ps) || strings.HasPrefix(ps[c.pos].name, "*") {
				continue
			}
			name = ps[c.pos].name
		}
		gs, err := inferTypes(in, fn, fnStub, visiting)
		if err != nil {
			continue
		}
		if g := gs[name]; g.Known() && g.From != FromName && (!declared || declares(g)) {
			g.Text = fn + "(" + name + "): " + g.String() + " from " + g.From
			g.From = FromCall
			return g, true
		}
	}
	return Guess{}, false
}

func known(g Guess) *Guess {
	if g.Kind == "" {
		return nil
	}
	return &g
}

// pick returns the first known candidate, its missing element filled from
// a later one of a container kind; an "any" is kept only when nothing else
// knows.
func pick(cands []Guess) Guess {
	var best Guess
	found := false
	for i, c := range cands {
		if !c.Known() {
			continue
		}
		best, found = c, true
		if best.Elem == nil && len(best.Parts) == 0 && hasElem(best.Kind) {
			for _, l := range cands[i+1:] {
				if hasElem(l.Kind) && l.Elem != nil {
					e := *l.Elem
					best.Elem = &e
					best.From += "+" + l.From
					break
				}
			}
		}
		// A number the body computes with, named like a count, is an int.
		if best.Kind == KindNumber {
			for _, l := range cands[i+1:] {
				if l.Kind == KindInt || l.Kind == KindFloat {
					best.Kind = l.Kind
					best.From += "+" + l.From
					break
				}
			}
		}
		break
	}
	if !found {
		for _, c := range cands {
			if c.Kind == KindAny {
				return c
			}
		}
	}
	return best
}

func hasElem(k string) bool {
	switch k {
	case KindList, KindSet, KindTuple, KindSequence, KindIterable, KindIterator, KindDict:
		return true
	}
	return false
}

// moduleAliases are the module-level names bound to type expressions:
// Num = int | float, Pair: TypeAlias = tuple[int, int], type Num = ...,
// T = TypeVar("T", bound=int).
func moduleAliases(f *File) map[string]string {
	out := map[string]string{}
	if f.root == nil {
		return out
	}
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		c := f.root.NamedChild(i)
		if c.Kind() == "type_alias_statement" {
			if l, r := c.ChildByFieldName("left"), c.ChildByFieldName("right"); l != nil && r != nil {
				name := f.text(l)
				if j := strings.IndexByte(name, '['); j > 0 {
					name = name[:j]
				}
				out[name] = f.text(r)
			}
			continue
		}
		if c.Kind() != "expression_statement" || c.NamedChildCount() != 1 {
			continue
		}
		a := c.NamedChild(0)
		if a.Kind() != "assignment" {
			continue
		}
		l, r := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if l == nil || r == nil || l.Kind() != "identifier" {
			continue
		}
		name, rhs := f.text(l), f.text(r)
		if r.Kind() == "call" && strings.HasSuffix(f.text(r.ChildByFieldName("function")), "TypeVar") {
			out[name] = typeVarBound(f, r)
			continue
		}
		if t := a.ChildByFieldName("type"); t != nil && strings.HasSuffix(f.text(t), "TypeAlias") {
			out[name] = rhs
			continue
		}
		// A plain assignment is an alias only when its right side reads as
		// a type made of names (int | float, List[int]) and a known one.
		switch r.Kind() {
		case "binary_operator", "subscript", "identifier", "attribute":
			if g := typeExpr(rhs, nil, 0); g.Known() && g.Kind != KindObject && looksLikeType(rhs) {
				out[name] = rhs
			}
		}
	}
	return out
}

var typeish = regexp.MustCompile(`^[\w.\[\], |'"]+$`)

func looksLikeType(s string) bool {
	return typeish.MatchString(s) && !strings.ContainsAny(s, "0123456789")
}

// typeVarBound is what a TypeVar stands for: its bound, its constraints
// as a union, else anything.
func typeVarBound(f *File, call *sitter.Node) string {
	args := call.ChildByFieldName("arguments")
	var cons []string
	for i := uint(0); args != nil && i < args.NamedChildCount(); i++ {
		a := args.NamedChild(i)
		if a.Kind() == "keyword_argument" {
			if f.text(a.ChildByFieldName("name")) == "bound" {
				return f.text(a.ChildByFieldName("value"))
			}
			continue
		}
		if i > 0 {
			cons = append(cons, f.text(a))
		}
	}
	if len(cons) > 0 {
		return strings.Join(cons, " | ")
	}
	return "Any"
}

// stubGuesses reads fn's parameter annotations from a .pyi stub; the
// overloads of a name join into one union per parameter.
func stubGuesses(stub *File, fn string) map[string]Guess {
	aliases := moduleAliases(stub)
	per := map[string][]Guess{}
	texts := map[string][]string{}
	for _, d := range stub.defs(fn) {
		for _, p := range stub.params(d) {
			if p.annotation == "" {
				continue
			}
			g := typeExpr(p.annotation, aliases, 0)
			if g.Kind == "" {
				continue
			}
			if p.def != nil && stub.text(p.def) == "None" && g.Kind != KindNone {
				g.Nullable = true
			}
			per[p.name] = append(per[p.name], g)
			texts[p.name] = append(texts[p.name], p.annotation)
		}
	}
	out := map[string]Guess{}
	for name, gs := range per {
		g := joinUnion(gs)
		if len(gs) == 1 {
			g = gs[0]
		}
		g.From, g.Text = FromStub, strings.Join(dedupe(texts[name]), " | ")
		out[name] = g
	}
	return out
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// defaultGuess reads a type from a default value: its literal, or the
// literal a module-level name is bound to.
func defaultGuess(f *File, n *sitter.Node) Guess {
	g := literalGuess(f, n, 0)
	if n.Kind() == "identifier" && builtinNames[f.text(n)] && f.text(n)[0] >= 'a' {
		g = Guess{Kind: KindCallable} // key=bool, factory=list
	}
	if g.Kind == "" && n.Kind() == "identifier" {
		if e, _ := f.moduleNames().lookup(f.text(n)); e != nil {
			g = literalGuess(f, e, 0)
			if g.Kind == KindObject && g.Class == "object" {
				g = Guess{Kind: KindAny} // a sentinel: _marker = object()
			}
		}
	}
	if g.Kind != "" {
		g.From, g.Text = FromDefault, f.text(n)
	}
	return g
}

// literalGuess is the type of a literal expression.
func literalGuess(f *File, n *sitter.Node, depth int) Guess {
	if n == nil || depth > maxTypeDepth {
		return Guess{}
	}
	elem := func() *Guess {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if e := literalGuess(f, n.NamedChild(i), depth+1); e.Kind != "" {
				return &e
			}
		}
		return nil
	}
	switch n.Kind() {
	case "integer":
		return Guess{Kind: KindInt}
	case "float":
		return Guess{Kind: KindFloat}
	case "true", "false":
		return Guess{Kind: KindBool}
	case "none":
		return Guess{Kind: KindNone}
	case "string", "concatenated_string":
		return literalKind(f.text(n))
	case "unary_operator":
		return literalGuess(f, n.ChildByFieldName("argument"), depth+1)
	case "list":
		return Guess{Kind: KindList, Elem: elem()}
	case "tuple":
		return Guess{Kind: KindTuple, Elem: elem()}
	case "set":
		return Guess{Kind: KindSet, Elem: elem()}
	case "dictionary":
		return Guess{Kind: KindDict}
	case "call":
		switch name := f.text(n.ChildByFieldName("function")); name {
		case "list", "tuple", "set", "frozenset", "dict", "str", "int", "float", "bytes", "bool":
			k := typeExpr(name, nil, 0)
			return Guess{Kind: k.Kind}
		case "object":
			return Guess{Kind: KindObject, Class: "object"}
		}
	case "lambda":
		return Guess{Kind: KindCallable}
	}
	return Guess{}
}

var (
	intName       = regexp.MustCompile(`(?i)^(n|k|i|j|r|count|size|limit|index|idx|offset|start|end|stop|step|width|depth|level|port|retries|attempts|times|length|num|number|pos|position|maxsplit|window|chunk_size|max\w*|min\w*|num_\w+|n_\w+|\w+_(count|size|len|length|index|idx|limit|id|n|num))$`)
	floatName     = regexp.MustCompile(`(?i)^(x|y|z|ratio|rate|scale|factor|weight|price|amount|threshold|alpha|beta|epsilon|eps|tolerance|tol|lat|lon|lng|latitude|longitude|elevation|altitude|distance|speed|velocity|angle|radius|\w+_(ratio|rate|weight|price|amount|score|lat|lon|latitude|longitude|elevation|distance|speed|angle))$`)
	strName       = regexp.MustCompile(`(?i)^(s|text|string|name|prefix|suffix|sep|separator|delimiter|delim|word|line|label|title|url|email|query|pattern|char|chars|encoding|\w+_(name|str|text|path|sep))$`)
	boolName      = regexp.MustCompile(`(?i)^(flag|\w+_flag|is_\w+|has_\w+|allow_\w+|strict|verbose|force|dry_run|enabled|reverse|inplace|recursive|ignore_case|case_sensitive)$`)
	iterableName  = regexp.MustCompile(`(?i)^(iterable|iter|src|items|elements|values|data|\w+_iterable)$`)
	iteratorName  = regexp.MustCompile(`(?i)^(iterator|it|gen|generator)$`)
	seqName       = regexp.MustCompile(`(?i)^(seq|sequence|lst|arr|array|\w+_seq|\w+_list)$`)
	callName      = regexp.MustCompile(`(?i)^(key|validator|func|function|fn|pred|predicate|callback|factory|transform|key_func|keyfunc|\w+_func|\w+_fn|\w+func|\w+_factory)$`)
	intListName   = regexp.MustCompile(`(?i)^(ids|nums|numbers|counts|scores|sizes|xs|ys|indices|offsets|ints|weights|amounts|prices|\w+_(ids|counts|sizes|scores))$`)
	strListName   = regexp.MustCompile(`(?i)^(names|words|lines|keys|emails|tags|labels|paths|urls|tokens|strings|parts|fields|\w+_(names|keys|emails|tags|lines))$`)
	dictName      = regexp.MustCompile(`(?i)^(d|mapping|dct|dictionary|\w+_by_\w+|\w+_map|\w+_dict|headers|params|options|kwargs_dict)$`)
	iterablesName = regexp.MustCompile(`(?i)^(iterables|seqs|sequences)$`)
)

// nameGuess guesses from a parameter's name alone, the least trusted
// source; names follow common Python usage (n is a count, s a string,
// pred a function, iterable an iterable).
func nameGuess(name string) Guess {
	var g Guess
	switch {
	case intListName.MatchString(name):
		g = Guess{Kind: KindList, Elem: &Guess{Kind: KindInt}}
	case strListName.MatchString(name):
		g = Guess{Kind: KindList, Elem: &Guess{Kind: KindStr}}
	case iterablesName.MatchString(name):
		g = Guess{Kind: KindIterable, Elem: &Guess{Kind: KindIterable}}
	case iterableName.MatchString(name):
		g = Guess{Kind: KindIterable}
	case iteratorName.MatchString(name):
		g = Guess{Kind: KindIterator}
	case seqName.MatchString(name):
		g = Guess{Kind: KindSequence}
	case callName.MatchString(name):
		g = Guess{Kind: KindCallable}
	case boolName.MatchString(name):
		g = Guess{Kind: KindBool}
	case intName.MatchString(name):
		g = Guess{Kind: KindInt}
	case floatName.MatchString(name):
		g = Guess{Kind: KindFloat}
	case strName.MatchString(name):
		g = Guess{Kind: KindStr}
	case dictName.MatchString(name):
		g = Guess{Kind: KindDict}
	default:
		return Guess{}
	}
	g.From, g.Text = FromName, name
	return g
}

// docstringTypes reads parameter types from fn's docstring: reST
// (:param int x: / :type x: int), Google (Args: x (int): ...), NumPy
// (Parameters / ---------- / x : int) and Epytext (@type x: int).
func docstringTypes(f *File, d def) map[string]Guess {
	out := map[string]Guess{}
	s := docstring(d.fn.ChildByFieldName("body"))
	if s == nil && d.class != nil && f.text(d.fn.ChildByFieldName("name")) == "__init__" {
		s = docstring(d.class.ChildByFieldName("body")) // __init__ is documented on the class
	}
	text, _, ok := f.stringValue(s)
	if !ok {
		return out
	}
	return parseDocTypes(text)
}

var (
	restType   = regexp.MustCompile(`^\s*[:@]type\s+\*{0,2}(\w+)\s*:\s*(.+?)\s*$`)
	restParam  = regexp.MustCompile(`^\s*:param\s+(.+?)\s+\*{0,2}(\w+)\s*:`)
	googleHead = regexp.MustCompile(`^\s*(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters)\s*:\s*$`)
	googleArg  = regexp.MustCompile(`^\s*\*{0,2}(\w+)\s*\(([^)]*)\)\s*:`)
	numpyHead  = regexp.MustCompile(`^\s*(Parameters|Other Parameters|Keyword Arguments)\s*$`)
	numpyRule  = regexp.MustCompile(`^\s*-{3,}\s*$`)
	numpyArg   = regexp.MustCompile(`^(\s*)\*{0,2}(\w+(?:\s*,\s*\*{0,2}\w+)*)\s*:\s*(.*?)\s*$`)
)

// parseDocTypes reads the types of a docstring's parameter sections.
func parseDocTypes(text string) map[string]Guess {
	out := map[string]Guess{}
	set := func(name, typ string) {
		if _, ok := out[name]; ok {
			return
		}
		if g := docType(typ); g.Kind != "" {
			g.From, g.Text = FromDocstring, strings.TrimSpace(typ)
			out[name] = g
		}
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := restType.FindStringSubmatch(l); m != nil {
			set(m[1], m[2])
			continue
		}
		if m := restParam.FindStringSubmatch(l); m != nil {
			set(m[2], m[1])
			continue
		}
		if googleHead.MatchString(l) {
			base := indent(l)
			for i++; i < len(lines); i++ {
				l := lines[i]
				if strings.TrimSpace(l) == "" {
					continue
				}
				if indent(l) <= base {
					i--
					break
				}
				if m := googleArg.FindStringSubmatch(l); m != nil {
					set(m[1], m[2])
				}
			}
			continue
		}
		if numpyHead.MatchString(l) && i+1 < len(lines) && numpyRule.MatchString(lines[i+1]) {
			base := indent(l)
			for i += 2; i < len(lines); i++ {
				l := lines[i]
				if strings.TrimSpace(l) == "" {
					continue
				}
				if i+1 < len(lines) && numpyRule.MatchString(lines[i+1]) {
					i--
					break // the next section
				}
				if indent(l) != base {
					continue // a description line
				}
				if m := numpyArg.FindStringSubmatch(l); m != nil {
					for _, n := range strings.Split(m[2], ",") {
						set(strings.TrimLeft(strings.TrimSpace(n), "*"), m[3])
					}
				}
			}
		}
	}
	return out
}

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

var (
	docOf      = regexp.MustCompile(`(?i)^(list|tuple|set|frozenset|iterable|iterator|sequence|dict|mapping|collection|generator|array)s?\s+of\s+(.+)$`)
	docDefault = regexp.MustCompile(`(?i)[,;]?\s*\(?(optional|default(s)?\b.*|keyword[- ]only)\)?\s*$`)
	docSplit   = regexp.MustCompile(`(?i)\s+or\s+|\s*\|\s*|\s*,\s*`)
)

// docWords maps the prose type words of docstrings to kinds.
var docWords = map[string]string{
	"int": KindInt, "integer": KindInt, "ints": KindInt, "integers": KindInt, "long": KindInt, "positive int": KindInt, "non-negative int": KindInt,
	"float": KindFloat, "floats": KindFloat, "double": KindFloat,
	"number": KindNumber, "numeric": KindNumber, "numbers": KindNumber, "real": KindNumber, "int or float": KindNumber,
	"str": KindStr, "string": KindStr, "strings": KindStr, "unicode": KindStr, "text": KindStr, "basestring": KindStr,
	"bytes": KindBytes, "bytestring": KindBytes, "bool": KindBool, "boolean": KindBool, "none": KindNone,
	"list": KindList, "lists": KindList, "tuple": KindTuple, "tuples": KindTuple, "set": KindSet, "sets": KindSet, "frozenset": KindSet,
	"dict": KindDict, "dictionary": KindDict, "mapping": KindDict, "dicts": KindDict,
	"iterable": KindIterable, "iterables": KindIterable, "collection": KindIterable, "iterator": KindIterator, "generator": KindIterator,
	"sequence": KindSequence, "sequences": KindSequence, "array": KindSequence,
	"callable": KindCallable, "function": KindCallable, "func": KindCallable, "callables": KindCallable,
	"object": KindAny, "any": KindAny,
}

// docType reads a docstring's type text: Python syntax (List[int]) or
// prose ("list of int", "int, optional", "str or None").
func docType(s string) Guess {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "`"))
	s = strings.TrimSpace(docDefault.ReplaceAllString(s, ""))
	if s == "" || len(s) > 120 {
		return Guess{}
	}
	if strings.ContainsAny(s, "[") {
		if g := typeExpr(s, nil, 0); g.Kind != "" && g.Kind != KindObject {
			return g
		}
	}
	if k, ok := docWords[strings.ToLower(s)]; ok {
		return Guess{Kind: k}
	}
	if m := docOf.FindStringSubmatch(s); m != nil {
		g := docType(m[1])
		if e := docType(m[2]); e.Kind != "" {
			g.Elem = &e
		}
		return g
	}
	parts := docSplit.Split(s, -1)
	if len(parts) > 1 {
		var ps []Guess
		for _, p := range parts {
			g := docType(p)
			if g.Kind == "" {
				return Guess{}
			}
			ps = append(ps, g)
		}
		return joinUnion(ps)
	}
	if g := typeExpr(s, nil, 0); g.Kind != "" && g.Kind != KindObject {
		return g
	}
	if isDotted(s) && s[0] >= 'A' && s[0] <= 'Z' {
		return Guess{Kind: KindObject, Class: s}
	}
	return Guess{}
}

// sortedKeys returns m's keys in order, for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
