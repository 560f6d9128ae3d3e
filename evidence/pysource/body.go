package pysource

import (
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// How the body uses a parameter says what it must be: the methods it calls
// on it, the builtins it passes it to, what it loops, indexes, adds or
// compares it with. Each use is a fact; bodyGuesses joins a parameter's
// facts into one guess.

var (
	strMethods = setOf("split", "rsplit", "splitlines", "lower", "upper", "strip", "lstrip", "rstrip",
		"startswith", "endswith", "replace", "join", "format", "isdigit", "isalpha", "isalnum",
		"isspace", "islower", "isupper", "title", "capitalize", "casefold", "partition", "rpartition",
		"center", "ljust", "rjust", "zfill", "expandtabs", "encode", "isnumeric", "isdecimal",
		"isidentifier", "swapcase", "removeprefix", "removesuffix", "translate", "format_map")
	listMethods = setOf("append", "extend", "insert", "sort")
	dictMethods = setOf("items", "keys", "values", "get", "setdefault", "popitem", "fromkeys")
	setMethods  = setOf("add", "discard", "union", "intersection", "difference", "issubset",
		"issuperset", "symmetric_difference", "isdisjoint", "intersection_update", "difference_update")
	iterMethods = setOf("__next__", "send", "throw")
	intMethods  = setOf("bit_length", "to_bytes", "bit_count")
	// iterableArg: builtins and itertools functions that take an iterable
	// at the given positions (-1: every position).
	iterableArg = map[string][]int{
		"iter": {0}, "sorted": {0}, "list": {0}, "tuple": {0}, "set": {0}, "frozenset": {0},
		"sum": {0}, "any": {0}, "all": {0}, "enumerate": {0}, "zip": {-1}, "map": {1, 2, 3},
		"filter": {1}, "chain": {-1}, "cycle": {0}, "groupby": {0}, "tee": {0}, "islice": {0},
		"zip_longest": {-1}, "accumulate": {0}, "starmap": {1}, "takewhile": {1}, "dropwhile": {1},
		"filterfalse": {1}, "compress": {0, 1}, "permutations": {0}, "combinations": {0},
		"combinations_with_replacement": {0}, "product": {-1}, "deque": {0}, "Counter": {0},
		"reduce": {1}, "pairwise": {0}, "batched": {0}, "from_iterable": {0},
	}
	intArg = map[string][]int{
		"range": {-1}, "islice": {1, 2, 3}, "repeat": {1}, "tee": {1}, "combinations": {1},
		"permutations": {1}, "combinations_with_replacement": {1}, "chr": {0}, "batched": {1},
		"bin": {0}, "hex": {0}, "oct": {0},
	}
	callableArg = map[string][]int{
		"map": {0}, "filter": {0}, "starmap": {0}, "takewhile": {0}, "dropwhile": {0},
		"filterfalse": {0}, "reduce": {0}, "accumulate": {1}, "partial": {0}, "groupby": {1},
	}
	numberArg   = setOf("abs", "round", "divmod", "pow", "floor", "ceil", "sqrt", "log", "exp", "isnan", "isinf", "isclose", "trunc", "fsum")
	callableKws = setOf("key", "pred", "predicate", "func", "function", "callback", "default_factory")
)

// passed is a call of a module function the parameter is passed to
// unchanged, at a position or as a keyword.
type passed struct {
	fn  string
	pos int
	kw  string
}

type fact struct {
	call     *passed
	kind     string
	elem     *Guess
	parts    []Guess // isinstance unions
	class    string
	nullable bool
	text     string
	strong   bool // isinstance: the body branches on the type
}

// bodyGuesses returns a guess for each parameter of d the body speaks
// for, and the module-level functions each parameter is passed to.
func bodyGuesses(f *File, d def) (map[string]Guess, map[string][]passed) {
	body := d.fn.ChildByFieldName("body")
	out := map[string]Guess{}
	calls := map[string][]passed{}
	if body == nil {
		return out, calls
	}
	for _, p := range f.params(d) {
		name := strings.TrimLeft(p.name, "*")
		if name != p.name {
			continue // *args, **kwargs: their shape is the signature's
		}
		cut := rebound(f, body, name)
		var facts []fact
		uses(f, body, name, cut, func(id *sitter.Node) {
			if fa, ok := useFact(f, id, name); ok {
				if fa.call != nil {
					calls[name] = append(calls[name], *fa.call)
					return
				}
				facts = append(facts, fa)
			}
		})
		if g := joinFacts(facts); g.Kind != "" || g.Nullable {
			g.From = FromBody
			out[name] = g
		}
	}
	return out, calls
}

// rebound returns the end byte of the first statement that rebinds name
// (name = iter(name)); uses after it see another value. ^uint(0) when the
// name is never rebound.
func rebound(f *File, body *sitter.Node, name string) uint {
	cut := ^uint(0)
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.StartByte() >= cut {
			return
		}
		switch n.Kind() {
		case "function_definition", "class_definition", "lambda":
			return
		case "assignment", "for_statement", "for_in_clause", "named_expression", "with_item":
			l := n.ChildByFieldName("left")
			if n.Kind() == "named_expression" {
				l = n.ChildByFieldName("name")
			}
			if l != nil {
				bound := map[string]bool{}
				patternNames(f, l, bound)
				if bound[name] && n.Kind() != "for_in_clause" && n.EndByte() < cut {
					cut = n.EndByte()
				}
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(body)
	return cut
}

// uses calls fn for each identifier in n that refers to the parameter:
// not after cut, not a binding, not in a nested scope that rebinds it.
func uses(f *File, n *sitter.Node, name string, cut uint, fn func(*sitter.Node)) {
	if n.StartByte() >= cut {
		return
	}
	switch n.Kind() {
	case "identifier":
		if f.text(n) == name {
			fn(n)
		}
		return
	case "function_definition", "lambda":
		if ps := n.ChildByFieldName("parameters"); ps != nil {
			for i := uint(0); i < ps.NamedChildCount(); i++ {
				if paramName(f, ps.NamedChild(i)) == name {
					return
				}
			}
		}
		if b := n.ChildByFieldName("body"); b != nil {
			uses(f, b, name, cut, fn)
		}
		return
	case "class_definition":
		return
	case "keyword_argument":
		// f(key=value): the name is not a use.
		if v := n.ChildByFieldName("value"); v != nil {
			uses(f, v, name, cut, fn)
		}
		return
	case "attribute":
		// x.name: only the object is a use.
		if o := n.ChildByFieldName("object"); o != nil {
			uses(f, o, name, cut, fn)
		}
		return
	case "assignment", "augmented_assignment":
		if l := n.ChildByFieldName("left"); l != nil && l.Kind() != "identifier" {
			uses(f, l, name, cut, fn) // x[i] = v uses x
		} else if l != nil && n.Kind() == "augmented_assignment" && f.text(l) == name {
			fn(l)
		}
		if r := n.ChildByFieldName("right"); r != nil {
			uses(f, r, name, cut, fn)
		}
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		uses(f, n.NamedChild(i), name, cut, fn)
	}
}

// useFact reads what one use of the parameter id says of its type.
func useFact(f *File, id *sitter.Node, name string) (fact, bool) {
	p := id.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		id, p = p, p.Parent()
	}
	if p == nil {
		return fact{}, false
	}
	is := func(n *sitter.Node) bool {
		return n != nil && n.StartByte() == id.StartByte() && n.EndByte() == id.EndByte()
	}
	switch p.Kind() {
	case "attribute":
		if !is(p.ChildByFieldName("object")) {
			return fact{}, false
		}
		attr := f.text(p.ChildByFieldName("attribute"))
		t := name + "." + attr
		switch {
		case strMethods[attr]:
			return fact{kind: KindStr, text: t}, true
		case attr == "decode":
			return fact{kind: KindBytes, text: t}, true
		case listMethods[attr]:
			return fact{kind: KindList, text: t}, true
		case dictMethods[attr]:
			return fact{kind: KindDict, text: t}, true
		case setMethods[attr]:
			return fact{kind: KindSet, text: t}, true
		case iterMethods[attr]:
			return fact{kind: KindIterator, text: t}, true
		case intMethods[attr]:
			return fact{kind: KindInt, text: t}, true
		case attr == "is_integer":
			return fact{kind: KindFloat, text: t}, true
		case attr == "count" || attr == "index":
			return fact{kind: KindSequence, text: t}, true
		}
	case "call":
		if is(p.ChildByFieldName("function")) {
			return fact{kind: KindCallable, text: name + "(...)"}, true
		}
	case "argument_list":
		call := p.Parent()
		if call == nil || call.Kind() != "call" {
			break
		}
		fn := call.ChildByFieldName("function")
		callee := f.text(fn)
		short := callee[strings.LastIndex(callee, ".")+1:]
		at := argIndex(p, id)
		t := short + "(" + name + ")"
		if fn.Kind() == "attribute" && short == "join" {
			if o := fn.ChildByFieldName("object"); o != nil && (o.Kind() == "string" || o.Kind() == "concatenated_string") {
				return fact{kind: KindIterable, elem: &Guess{Kind: KindStr}, text: t}, true
			}
		}
		switch {
		case short == "isinstance" && at == 0 && p.NamedChildCount() == 2:
			g := typeExpr(f.text(p.NamedChild(1)), nil, 0)
			if p.NamedChild(1).Kind() == "tuple" {
				g = typeExpr(strings.ReplaceAll(strings.Trim(f.text(p.NamedChild(1)), "()"), ",", "|"), nil, 0)
			}
			// isinstance(x, base_type) names no type: only a class
			// written as such counts.
			if g.Kind != "" && (g.Kind != KindObject || isClassName(g.Class)) {
				return fact{kind: g.Kind, elem: g.Elem, parts: g.Parts, class: g.Class, text: "isinstance(" + name + ", " + f.text(p.NamedChild(1)) + ")", strong: true}, true
			}
		case short == "len" && at == 0:
			return fact{kind: KindSized, text: t}, true
		case short == "next" && at == 0:
			return fact{kind: KindIterator, text: t}, true
		case short == "reversed" && at == 0:
			return fact{kind: KindSequence, text: t}, true
		case short == "ord" && at == 0:
			return fact{kind: KindStr, text: t}, true
		case (short == "sum" || short == "fsum") && at == 0:
			return fact{kind: KindIterable, elem: &Guess{Kind: KindNumber}, text: t}, true
		case short == "dict" && at == 0:
			return fact{kind: KindIterable, text: t}, true
		case numberArg[short]:
			return fact{kind: KindNumber, text: t}, true
		case inPositions(intArg[short], at):
			return fact{kind: KindInt, text: t}, true
		case inPositions(callableArg[short], at):
			return fact{kind: KindCallable, text: t}, true
		case inPositions(iterableArg[short], at):
			return fact{kind: KindIterable, text: t}, true
		case (short == "min" || short == "max") && at == 0 && countArgs(p) == 1:
			return fact{kind: KindIterable, text: t}, true
		case fn.Kind() == "identifier" && at >= 0:
			return fact{call: &passed{fn: callee, pos: at}}, true
		}
	case "keyword_argument":
		if !is(p.ChildByFieldName("value")) {
			break
		}
		kw := f.text(p.ChildByFieldName("name"))
		if callableKws[kw] {
			return fact{kind: KindCallable, text: kw + "=" + name}, true
		}
		if args := p.Parent(); args != nil && args.Parent() != nil && args.Parent().Kind() == "call" {
			call := args.Parent()
			if fn := call.ChildByFieldName("function"); fn != nil && fn.Kind() == "identifier" {
				return fact{call: &passed{fn: f.text(fn), kw: kw}}, true
			}
		}
	case "for_statement", "for_in_clause":
		if !is(p.ChildByFieldName("right")) {
			break
		}
		fa := fact{kind: KindIterable, text: "for ... in " + name}
		if l := p.ChildByFieldName("left"); l != nil {
			switch l.Kind() {
			case "identifier":
				// for c in s: c.isdigit() says what the elements are.
				if e := loopElem(f, p, f.text(l)); e.Known() {
					fa.elem = &e
					fa.text = "for " + f.text(l) + " in " + name + " (" + e.Text + ")"
				}
			case "pattern_list", "tuple_pattern", "list_pattern":
				e := Guess{Kind: KindTuple}
				for i := uint(0); i < l.NamedChildCount(); i++ {
					e.Parts = append(e.Parts, Guess{})
				}
				fa.elem = &e
				fa.text = "for " + f.text(l) + " in " + name
			}
		}
		return fa, true
	case "yield":
		if strings.HasPrefix(f.text(p), "yield from") {
			return fact{kind: KindIterable, text: "yield from " + name}, true
		}
	case "list_splat":
		return fact{kind: KindIterable, text: "*" + name}, true
	case "dictionary_splat":
		return fact{kind: KindDict, text: "**" + name}, true
	case "subscript":
		if is(p.ChildByFieldName("value")) {
			sub := p.ChildByFieldName("subscript")
			t := name + "[" + f.text(sub) + "]"
			if sub != nil && (sub.Kind() == "string" || sub.Kind() == "concatenated_string") {
				return fact{kind: KindDict, text: t}, true
			}
			return fact{kind: KindSequence, text: t}, true
		}
		// seq[x], seq[x:]: an index.
		return fact{kind: KindInt, text: f.text(p)}, true
	case "slice":
		return fact{kind: KindInt, text: "[" + f.text(p) + "]"}, true
	case "unary_operator":
		op := f.text(p)[:1]
		if op == "~" {
			return fact{kind: KindInt, text: f.text(p)}, true
		}
		if op == "-" || op == "+" {
			return fact{kind: KindNumber, text: f.text(p)}, true
		}
	case "binary_operator", "augmented_assignment":
		op := p.ChildByFieldName("operator")
		other := p.ChildByFieldName("right")
		if is(other) {
			other = p.ChildByFieldName("left")
		}
		ot := literalGuess(f, other, 0)
		o := strings.TrimSuffix(f.text(op), "=")
		t := f.text(p)
		switch o {
		case "+":
			if ot.Kind == KindStr || ot.Kind == KindInt || ot.Kind == KindFloat || ot.Kind == KindList || ot.Kind == KindTuple || ot.Kind == KindBytes {
				k := ot.Kind
				if k == KindInt || k == KindFloat {
					k = KindNumber
				}
				return fact{kind: k, text: t}, true
			}
		case "-", "/", "//", "**":
			return fact{kind: KindNumber, text: t}, true
		case "*":
			if ot.Kind == KindFloat {
				return fact{kind: KindNumber, text: t}, true
			}
		case "%":
			if is(p.ChildByFieldName("left")) {
				if ot.Kind == KindInt {
					return fact{kind: KindNumber, text: t}, true
				}
				if ot.Kind == KindTuple || ot.Kind == KindDict {
					return fact{kind: KindStr, text: t}, true
				}
			}
		case "<<", ">>", "&", "^":
			if ot.Kind == KindInt {
				return fact{kind: KindInt, text: t}, true
			}
		}
	case "comparison_operator":
		t := f.text(p)
		var ops []string
		for i := uint(0); i < p.ChildCount(); i++ {
			if c := p.Child(i); !c.IsNamed() {
				ops = append(ops, f.text(c))
			}
		}
		for i := uint(0); i < p.NamedChildCount(); i++ {
			c := p.NamedChild(i)
			if is(c) {
				continue
			}
			lg := literalGuess(f, c, 0)
			if lg.Kind == KindNone {
				return fact{nullable: true, text: t}, true
			}
			if len(ops) == 1 && (ops[0] == "in" || ops[0] == "not in") {
				if is(p.NamedChild(1)) {
					return fact{kind: KindIterable, text: t}, true
				}
				if lg.Kind == KindStr {
					return fact{kind: KindStr, text: t}, true
				}
				continue
			}
			switch lg.Kind {
			case KindInt, KindFloat:
				return fact{kind: KindNumber, text: t}, true
			case KindStr:
				return fact{kind: KindStr, text: t}, true
			}
		}
	}
	return fact{}, false
}

func argIndex(args, id *sitter.Node) int {
	k := 0
	for i := uint(0); i < args.NamedChildCount(); i++ {
		c := args.NamedChild(i)
		if c.StartByte() == id.StartByte() && c.EndByte() == id.EndByte() {
			return k
		}
		if c.Kind() != "comment" && c.Kind() != "keyword_argument" {
			k++
		}
	}
	return -2
}

func countArgs(args *sitter.Node) int {
	k := 0
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if c := args.NamedChild(i); c.Kind() != "comment" && c.Kind() != "keyword_argument" {
			k++
		}
	}
	return k
}

func inPositions(ps []int, at int) bool {
	for _, p := range ps {
		if p == at || (p == -1 && at >= 0) {
			return true
		}
	}
	return false
}

// specificity orders the kinds a parameter's facts may name: a more
// specific fact refines a vaguer one (len(x) and x.split() make a str).
var specificity = map[string]int{
	KindSized: 1, KindIterable: 2, KindSequence: 3, KindIterator: 3,
	KindNumber: 4, KindInt: 5, KindFloat: 5,
	KindStr: 6, KindBytes: 6, KindList: 6, KindTuple: 6, KindDict: 6, KindSet: 6,
	KindCallable: 6, KindBool: 6, KindObject: 6, KindUnion: 6,
}

// compatible says which vaguer kinds a specific kind satisfies.
var compatible = map[string][]string{
	KindStr:      {KindSized, KindIterable, KindSequence},
	KindBytes:    {KindSized, KindIterable, KindSequence},
	KindList:     {KindSized, KindIterable, KindSequence},
	KindTuple:    {KindSized, KindIterable, KindSequence},
	KindDict:     {KindSized, KindIterable},
	KindSet:      {KindSized, KindIterable},
	KindSequence: {KindSized, KindIterable},
	KindIterator: {KindIterable},
	KindIterable: {KindSized},
	KindInt:      {KindNumber},
	KindFloat:    {KindNumber},
}

// joinFacts joins the facts of one parameter: isinstance tests win (the
// body branches on them, so it takes each); otherwise the most specific
// kind that agrees with the others; conflicting specific kinds make a
// union.
func joinFacts(facts []fact) Guess {
	if len(facts) == 0 {
		return Guess{}
	}
	var texts []string
	nullable := false
	var strong []Guess
	kinds := map[string]*Guess{}
	for _, fa := range facts {
		texts = append(texts, fa.text)
		if fa.nullable {
			nullable = true
		}
		if fa.kind == "" {
			continue
		}
		g := Guess{Kind: fa.kind, Elem: fa.elem, Parts: fa.parts, Class: fa.class}
		if fa.strong {
			strong = append(strong, g)
			continue
		}
		if k := kinds[fa.kind]; k == nil {
			kinds[fa.kind] = &g
		} else if k.Elem == nil {
			k.Elem = fa.elem
		}
	}
	text := strings.Join(dedupe(texts), ", ")
	if len(strong) > 0 {
		g := joinUnion(strong)
		g.Nullable = g.Nullable || nullable
		g.Text = text
		return g
	}
	// Keep the most specific kinds: drop each kind another one satisfies.
	var top []Guess
	for _, k := range sortedKeys(kinds) {
		g := kinds[k]
		covered := false
		for _, o := range sortedKeys(kinds) {
			if o != k && contains(compatible[o], k) {
				covered = true
				if kinds[o].Elem == nil && g.Elem != nil {
					kinds[o].Elem = g.Elem
				}
			}
		}
		if !covered {
			top = append(top, *g)
		}
	}
	sort.SliceStable(top, func(i, j int) bool { return specificity[top[i].Kind] > specificity[top[j].Kind] })
	g := joinUnion(top)
	if len(top) == 0 {
		g = Guess{}
	}
	g.Nullable = g.Nullable || nullable
	g.Text = text
	return g
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// isClassName reports whether a name is spelled like a class: its last
// part capitalized (Bits, collections.OrderedDict).
func isClassName(s string) bool {
	s = s[strings.LastIndex(s, ".")+1:]
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// loopElem guesses the loop variable's type from how the loop's body (or
// the rest of a comprehension) uses it.
func loopElem(f *File, loop *sitter.Node, v string) Guess {
	scope := loop.ChildByFieldName("body")
	if loop.Kind() == "for_in_clause" {
		scope = loop.Parent()
	}
	if scope == nil {
		return Guess{}
	}
	cut := rebound(f, scope, v)
	if loop.Kind() == "for_in_clause" {
		cut = ^uint(0)
	}
	var facts []fact
	uses(f, scope, v, cut, func(id *sitter.Node) {
		if id.StartByte() >= loop.StartByte() && id.EndByte() <= loop.EndByte() && loop.Kind() == "for_in_clause" {
			return // the clause's own target and iterable
		}
		if fa, ok := useFact(f, id, v); ok && fa.call == nil {
			facts = append(facts, fa)
		}
	})
	g := joinFacts(facts)
	g.Nullable = false // a test of one element is not the parameter's
	return g
}
