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
	opaque   bool // isinstance of a type premise cannot read (basestring, a variable)
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

// useFact reads what one use of the parameter id says of its type: the
// node the use sits in (looking through parentheses) names the construct,
// and each construct has its reader below.
func useFact(f *File, id *sitter.Node, name string) (fact, bool) {
	p := id.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		id, p = p, p.Parent()
	}
	if p == nil {
		return fact{}, false
	}
	u := use{f: f, id: id, p: p, name: name}
	switch p.Kind() {
	case "attribute":
		return u.method()
	case "call":
		if u.is(p.ChildByFieldName("function")) {
			return fact{kind: KindCallable, text: name + "(...)"}, true
		}
	case "argument_list":
		return u.argument()
	case "keyword_argument":
		return u.keyword()
	case "for_statement", "for_in_clause":
		return u.loop()
	case "yield":
		if strings.HasPrefix(f.text(p), "yield from") {
			return fact{kind: KindIterable, text: "yield from " + name}, true
		}
	case "list_splat":
		return fact{kind: KindIterable, text: "*" + name}, true
	case "dictionary_splat":
		return fact{kind: KindDict, text: "**" + name}, true
	case "subscript":
		return u.subscript()
	case "slice":
		return fact{kind: KindInt, text: "[" + f.text(p) + "]"}, true
	case "unary_operator":
		return u.unary()
	case "binary_operator", "augmented_assignment":
		return u.operator()
	case "comparison_operator":
		return u.comparison()
	}
	return fact{}, false
}

// use is one use of a parameter: the identifier (or the parentheses
// around it) id, inside p.
type use struct {
	f     *File
	id, p *sitter.Node
	name  string
}

// is reports whether n is the use itself.
func (u use) is(n *sitter.Node) bool {
	return n != nil && n.StartByte() == u.id.StartByte() && n.EndByte() == u.id.EndByte()
}

// methodKinds maps a method called on the parameter to the kind that has
// it; a method of two families takes the first's.
var methodKinds = kindOfMethods(
	strMethods, KindStr, setOf("decode"), KindBytes, listMethods, KindList, dictMethods, KindDict,
	setMethods, KindSet, iterMethods, KindIterator, intMethods, KindInt, setOf("is_integer"), KindFloat,
	setOf("count", "index"), KindSequence)

// kindOfMethods folds pairs of (method family, kind) into one map, an
// earlier family winning a method two of them name.
func kindOfMethods(pairs ...any) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(pairs); i += 2 {
		for m := range pairs[i].(map[string]bool) {
			if _, ok := out[m]; !ok {
				out[m] = pairs[i+1].(string)
			}
		}
	}
	return out
}

// method reads x.attr: a method of a known family names its kind.
func (u use) method() (fact, bool) {
	if !u.is(u.p.ChildByFieldName("object")) {
		return fact{}, false
	}
	attr := u.f.text(u.p.ChildByFieldName("attribute"))
	if k, ok := methodKinds[attr]; ok {
		return fact{kind: k, text: u.name + "." + attr}, true
	}
	return fact{}, false
}

// firstArgKinds are the builtins whose first argument has one kind:
// len(x) is sized, sum(x) an iterable of numbers.
var firstArgKinds = map[string]Guess{
	"len": {Kind: KindSized}, "next": {Kind: KindIterator}, "reversed": {Kind: KindSequence},
	"ord": {Kind: KindStr}, "dict": {Kind: KindIterable},
	"sum": {Kind: KindIterable, Elem: &Guess{Kind: KindNumber}}, "fsum": {Kind: KindIterable, Elem: &Guess{Kind: KindNumber}},
}

// argKinds are the functions that take a kind at given positions, in the
// order they are asked: islice(x, n) takes an iterable and an int.
var argKinds = []struct {
	at   map[string][]int
	kind string
}{{intArg, KindInt}, {callableArg, KindCallable}, {iterableArg, KindIterable}}

// argument reads f(..., x, ...): the builtin called says the kind at x's
// position; a module function called by name is followed (a call fact).
func (u use) argument() (fact, bool) {
	call := u.p.Parent()
	if call == nil || call.Kind() != "call" {
		return fact{}, false
	}
	fn := call.ChildByFieldName("function")
	callee := u.f.text(fn)
	short := callee[strings.LastIndex(callee, ".")+1:]
	at := argIndex(u.p, u.id)
	t := short + "(" + u.name + ")"
	if fn.Kind() == "attribute" && short == "join" && isStringLiteral(fn.ChildByFieldName("object")) {
		return fact{kind: KindIterable, elem: &Guess{Kind: KindStr}, text: t}, true
	}
	if short == "isinstance" && at == 0 && u.p.NamedChildCount() == 2 {
		return u.isinstance()
	}
	if g, ok := firstArgKinds[short]; ok && at == 0 {
		fa := fact{kind: g.Kind, text: t}
		if g.Elem != nil {
			e := *g.Elem
			fa.elem = &e
		}
		return fa, true
	}
	if numberArg[short] {
		return fact{kind: KindNumber, text: t}, true
	}
	for _, a := range argKinds {
		if inPositions(a.at[short], at) {
			return fact{kind: a.kind, text: t}, true
		}
	}
	if (short == "min" || short == "max") && at == 0 && countArgs(u.p) == 1 {
		return fact{kind: KindIterable, text: t}, true
	}
	if fn.Kind() == "identifier" && at >= 0 {
		return fact{call: &passed{fn: callee, pos: at}}, true
	}
	return fact{}, false
}

// isStringLiteral reports whether n is a string written out (”, "a" "b").
func isStringLiteral(n *sitter.Node) bool {
	return n != nil && (n.Kind() == "string" || n.Kind() == "concatenated_string")
}

// isinstance reads isinstance(x, T) and isinstance(x, (T, U)): the body
// branches on the type, so the fact is strong. isinstance(x, base_type)
// names no type premise can read (a variable, Python 2's basestring
// aliased): the body branches on something unknown, so the fact is
// opaque, and the parameter's type is not known.
func (u use) isinstance() (fact, bool) {
	typ := u.p.NamedChild(1)
	g := typeExpr(u.f.text(typ), nil, 0)
	if typ.Kind() == "tuple" {
		g = typeExpr(strings.ReplaceAll(strings.Trim(u.f.text(typ), "()"), ",", "|"), nil, 0)
	}
	if g.Kind == "" || g.Kind == KindObject && !isClassName(g.Class) {
		return fact{opaque: true, text: "isinstance(" + u.name + ", " + u.f.text(typ) + ")"}, true
	}
	return fact{kind: g.Kind, elem: g.Elem, parts: g.Parts, class: g.Class,
		text: "isinstance(" + u.name + ", " + u.f.text(typ) + ")", strong: true}, true
}

// keyword reads f(kw=x): a keyword that takes a function (key=, pred=)
// makes x callable; a module function called by name is followed.
func (u use) keyword() (fact, bool) {
	if !u.is(u.p.ChildByFieldName("value")) {
		return fact{}, false
	}
	kw := u.f.text(u.p.ChildByFieldName("name"))
	if callableKws[kw] {
		return fact{kind: KindCallable, text: kw + "=" + u.name}, true
	}
	if args := u.p.Parent(); args != nil && args.Parent() != nil && args.Parent().Kind() == "call" {
		if fn := args.Parent().ChildByFieldName("function"); fn != nil && fn.Kind() == "identifier" {
			return fact{call: &passed{fn: u.f.text(fn), kw: kw}}, true
		}
	}
	return fact{}, false
}

// loop reads `for v in x` (a statement or a comprehension's clause): x is
// an iterable, whose elements are what the loop does with v, or tuples
// when the loop unpacks them.
func (u use) loop() (fact, bool) {
	if !u.is(u.p.ChildByFieldName("right")) {
		return fact{}, false
	}
	fa := fact{kind: KindIterable, text: "for ... in " + u.name}
	l := u.p.ChildByFieldName("left")
	if l == nil {
		return fa, true
	}
	switch l.Kind() {
	case "identifier":
		// for c in s: c.isdigit() says what the elements are.
		if e := loopElem(u.f, u.p, u.f.text(l)); e.Known() {
			fa.elem = &e
			fa.text = "for " + u.f.text(l) + " in " + u.name + " (" + e.Text + ")"
		}
	case "pattern_list", "tuple_pattern", "list_pattern":
		e := Guess{Kind: KindTuple}
		for i := uint(0); i < l.NamedChildCount(); i++ {
			e.Parts = append(e.Parts, Guess{}) // one unknown field per target
		}
		fa.elem = &e
		fa.text = "for " + u.f.text(l) + " in " + u.name
	}
	return fa, true
}

// subscript reads x[k] (a dict when k is a string, else a sequence) and
// seq[x] (x an index).
func (u use) subscript() (fact, bool) {
	if v := u.p.ChildByFieldName("value"); !u.is(v) {
		if t := u.f.text(v); t == "self" || t == "cls" {
			// The object's own __getitem__ decides what it takes: a
			// mapping class's keys are text as often as numbers.
			return fact{}, false
		}
		return fact{kind: KindInt, text: u.f.text(u.p)}, true
	}
	sub := u.p.ChildByFieldName("subscript")
	t := u.name + "[" + u.f.text(sub) + "]"
	if isStringLiteral(sub) {
		return fact{kind: KindDict, text: t}, true
	}
	if whole, ok := u.strPiece(sub); ok {
		return fact{kind: KindStr, text: whole}, true
	}
	return fact{kind: KindSequence, text: t}, true
}

// strPiece says whether x[sub] is put together with text in a way only a
// str allows, and returns the expression that shows it: a slice of x
// added to a str literal (x[1:] + '.'), or chosen in its stead
// (x[j:] if j < n else ""), and a slice of x added to one of its items
// (x[:j] + x[i]: a list's item would have to be a list itself).
func (u use) strPiece(sub *sitter.Node) (string, bool) {
	piece, p := u.p, u.p.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		piece, p = p, p.Parent()
	}
	if p == nil || sub == nil {
		return "", false
	}
	slice := sub.Kind() == "slice"
	var others []*sitter.Node
	switch p.Kind() {
	case "binary_operator":
		if u.f.text(p.ChildByFieldName("operator")) != "+" {
			return "", false
		}
		others = append(others, p.ChildByFieldName("left"), p.ChildByFieldName("right"))
	case "conditional_expression":
		if p.NamedChildCount() != 3 {
			return "", false
		}
		others = append(others, p.NamedChild(0), p.NamedChild(2))
	default:
		return "", false
	}
	for _, o := range others {
		if o == nil || (o.StartByte() == piece.StartByte() && o.EndByte() == piece.EndByte()) {
			continue
		}
		if slice && literalGuess(u.f, o, 0).Kind == KindStr {
			return u.f.text(p), true
		}
		if p.Kind() == "binary_operator" && o.Kind() == "subscript" && u.f.text(o.ChildByFieldName("value")) == u.name {
			if s := o.ChildByFieldName("subscript"); s != nil && (s.Kind() == "slice") != slice {
				return u.f.text(p), true
			}
		}
	}
	return "", false
}

// unary reads ~x (an int) and -x, +x (a number).
func (u use) unary() (fact, bool) {
	switch op := u.f.text(u.p)[:1]; op {
	case "~":
		return fact{kind: KindInt, text: u.f.text(u.p)}, true
	case "-", "+":
		return fact{kind: KindNumber, text: u.f.text(u.p)}, true
	}
	return fact{}, false
}

// plusKinds maps the kind of what x is added to onto the kind x must be.
var plusKinds = map[string]string{
	KindStr: KindStr, KindInt: KindNumber, KindFloat: KindNumber, KindList: KindList,
	KindTuple: KindTuple, KindBytes: KindBytes,
}

// operator reads x op y and x op= y: arithmetic makes a number, + takes
// the kind of a literal other side, % formats a str with a tuple or a
// dict, bit operators with an int make an int, and a shift makes one
// whatever it shifts by.
func (u use) operator() (fact, bool) {
	other := u.p.ChildByFieldName("right")
	if u.is(other) {
		other = u.p.ChildByFieldName("left")
	}
	ot := literalGuess(u.f, other, 0).Kind
	t := u.f.text(u.p)
	kind := ""
	switch strings.TrimSuffix(u.f.text(u.p.ChildByFieldName("operator")), "=") {
	case "+":
		kind = plusKinds[ot]
	case "-", "/", "//", "**":
		kind = KindNumber
	case "*":
		if ot == KindFloat {
			kind = KindNumber
		}
	case "%":
		kind = u.modulo(ot)
	case "<<", ">>":
		// Only an int shifts (a set has & and ^, no shift).
		kind = KindInt
	case "&", "^":
		if ot == KindInt {
			kind = KindInt
		}
	}
	if kind == "" {
		return fact{}, false
	}
	return fact{kind: kind, text: t}, true
}

// modulo reads x % y by the kind of y: a number modulo an int, a str
// formatted with a tuple or a dict; "" when x is on the right.
func (u use) modulo(other string) string {
	if !u.is(u.p.ChildByFieldName("left")) {
		return ""
	}
	switch other {
	case KindInt:
		return KindNumber
	case KindTuple, KindDict:
		return KindStr
	}
	return ""
}

// comparison reads x compared with literals: with None it is nullable,
// with a number a number, with a str a str; `in` makes the right side an
// iterable and the left a str when the right is one.
func (u use) comparison() (fact, bool) {
	p, t := u.p, u.f.text(u.p)
	var ops []string
	for i := uint(0); i < p.ChildCount(); i++ {
		if c := p.Child(i); !c.IsNamed() {
			ops = append(ops, u.f.text(c))
		}
	}
	membership := len(ops) == 1 && (ops[0] == "in" || ops[0] == "not in")
	for i := uint(0); i < p.NamedChildCount(); i++ {
		c := p.NamedChild(i)
		if u.is(c) {
			continue
		}
		lg := literalGuess(u.f, c, 0)
		if lg.Kind == KindNone {
			return fact{nullable: true, text: t}, true
		}
		if membership {
			if u.is(p.NamedChild(1)) {
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

// joinFacts joins the facts of one parameter: the most specific kind that
// agrees with the others; conflicting specific kinds make a union. An
// isinstance test joins its types to that union: the body branches on
// them, so it takes each, and what it does with the parameter outside the
// test (label.encode() where the test is for bytes: a str converted) is
// another type it takes. An isinstance test of a type premise cannot
// read makes the type unknown.
func joinFacts(facts []fact) Guess {
	if len(facts) == 0 {
		return Guess{}
	}
	for _, fa := range facts {
		if fa.opaque {
			return Guess{}
		}
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
	if len(strong) > 0 {
		// The tested types first; a kind they already satisfy (str's
		// methods beside isinstance(x, str)) adds nothing.
		for _, g := range top {
			if !satisfiedBy(strong, g.Kind) {
				strong = append(strong, g)
			}
		}
		top = strong
	}
	g := joinUnion(top)
	if len(top) == 0 {
		g = Guess{}
	}
	g.Nullable = g.Nullable || nullable
	g.Text = text
	return g
}

// satisfiedBy says whether one of gs is of kind k or of a kind that
// satisfies it (a str is sized and iterable).
func satisfiedBy(gs []Guess, k string) bool {
	for _, g := range gs {
		if g.Kind == k || contains(compatible[g.Kind], k) {
			return true
		}
		if g.Kind == KindUnion && satisfiedBy(g.Parts, k) {
			return true
		}
	}
	return false
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
