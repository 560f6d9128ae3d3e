package pysource

import (
	"bytes"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A harvested argument must mean the same thing in a worker that has only
// the module under test and the standard library imported: it may name
// builtins, names it binds itself (lambda parameters, comprehension
// variables), a few pure standard modules, and local names bound once to
// such an expression, which are substituted by their value.

// builtinNames are the builtins an argument may use: pure constructors and
// functions, no I/O (print, open, input) and no evaluation (eval, exec).
var builtinNames = setOf(
	"None", "True", "False", "Ellipsis", "NotImplemented",
	"abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr",
	"complex", "dict", "divmod", "enumerate", "filter", "float", "format", "frozenset",
	"hash", "hex", "int", "isinstance", "iter", "len", "list", "map", "max", "min", "next",
	"object", "oct", "ord", "pow", "range", "repr", "reversed", "round", "set", "slice",
	"sorted", "str", "sum", "tuple", "zip",
	"ArithmeticError", "AssertionError", "AttributeError", "Exception", "IndexError",
	"KeyError", "LookupError", "RuntimeError", "StopIteration", "TypeError", "ValueError",
	"ZeroDivisionError",
)

// stdModules are the standard modules whose names an argument may use; the
// input then carries the import.
var stdModules = setOf(
	"cmath", "collections", "datetime", "decimal", "fractions", "functools", "itertools",
	"math", "operator", "statistics", "string",
	// Values tests build as often: types (Optional[str]), patterns,
	// enums, in-memory streams, addresses, paths, encoded text.
	"typing", "re", "enum", "io", "ipaddress", "pathlib", "uuid", "json", "base64", "binascii",
	"textwrap", "unicodedata", "numbers", "heapq", "bisect", "copy", "array", "types", "zoneinfo",
	"calendar",
)

// mutators are the methods that change a value in place: a local name a
// test mutates is not replaced by the literal it started as.
var mutators = setOf(
	"append", "extend", "insert", "add", "update", "pop", "popitem", "remove", "clear",
	"setdefault", "sort", "reverse", "discard", "appendleft", "extendleft", "rotate",
)

func setOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// names is what a scope knows of its names: those bound once to an
// expression (consts), those bound any other way (bound, which hide outer
// consts), and the standard imports of the file.
type names struct {
	f       *File
	consts  map[string]*sitter.Node
	bound   map[string]bool
	imports map[string]string // local name -> import statement
	// fixtures are the attributes a test class's setUp binds once
	// (self.b = Bits(4)), for the receivers of its tests.
	fixtures map[string]*sitter.Node
	// objects are names bound once and then mutated (x = Cls(); x.pop()):
	// not literals, but a fresh Cls() is still a fair receiver.
	objects map[string]*sitter.Node
	// steps are, by name, the method calls the scope makes on it as
	// statements of its own (G = nx.Graph(); G.add_edges_from([...])), in
	// order: a name so built is that construction and those calls. A name
	// one is made on inside a nested block (a loop, a branch) has none.
	steps map[string][]*sitter.Node
	// stepBuilt are the objects (mutated names) changed only by their
	// steps: built again by them, they are the value the test had.
	stepBuilt map[string]bool
	// fixtureDefs are the methods binding each fixture (setUp, or
	// setup_class binding cls.G = G), whose scope its expression is read in.
	fixtureDefs map[string]*sitter.Node
	outer       *names
}

// stepsOf returns the calls building name, made before the byte before
// when before is not 0.
func (ns *names) stepsOf(name string, before uint) []*sitter.Node {
	var out []*sitter.Node
	for _, c := range ns.steps[name] {
		if before == 0 || c.StartByte() < before {
			out = append(out, c)
		}
	}
	return out
}

// object returns what a name was bound to once, mutated or not.
func (ns *names) object(name string) (*sitter.Node, *names) {
	for s := ns; s != nil; s = s.outer {
		if n := s.consts[name]; n != nil {
			return n, s
		}
		if n := s.objects[name]; n != nil {
			return n, s
		}
		if s.bound[name] {
			return nil, nil
		}
	}
	return nil, nil
}

// fixture returns the expression self.name was bound to in setUp.
func (ns *names) fixture(name string) (*sitter.Node, *names) {
	for s := ns; s != nil; s = s.outer {
		if s.fixtures != nil {
			return s.fixtures[name], s
		}
	}
	return nil, nil
}

// fixtureDef returns the expression self.name (or cls.name) was bound to
// in its class's setUp or setup_class, and that method.
func (ns *names) fixtureDef(name string) (e, def *sitter.Node, class *names) {
	for s := ns; s != nil; s = s.outer {
		if s.fixtures != nil {
			return s.fixtures[name], s.fixtureDefs[name], s
		}
	}
	return nil, nil, nil
}

// lookup returns the expression a name was bound to once, and the scope it
// belongs to.
func (ns *names) lookup(name string) (*sitter.Node, *names) {
	for s := ns; s != nil; s = s.outer {
		if n := s.consts[name]; n != nil {
			return n, s
		}
		if s.bound[name] {
			return nil, nil
		}
	}
	return nil, nil
}

// shadows reports whether the scope binds name itself (def, assignment,
// parameter), so a call of name is not a call of an imported function.
func (ns *names) shadows(name string) bool {
	for s := ns; s != nil; s = s.outer {
		if s.consts[name] != nil || s.bound[name] {
			return true
		}
	}
	return false
}

func (ns *names) importOf(name string) (string, bool) {
	for s := ns; s != nil; s = s.outer {
		if imp, ok := s.imports[name]; ok {
			return imp, true
		}
	}
	if stdModules[name] {
		return "import " + name, true
	}
	return "", false
}

// moduleNames returns the file's module-level names, read once.
func (f *File) moduleNames() *names {
	if f.names == nil {
		f.names = fileNames(f)
	}
	return f.names
}

// fileNames collects the module-level names of a file and its standard
// imports.
func fileNames(f *File) *names {
	ns := &names{f: f, consts: map[string]*sitter.Node{}, bound: map[string]bool{}, imports: map[string]string{}}
	if f.root == nil {
		return ns
	}
	collectBindings(f, f.root, ns)
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		c := f.root.NamedChild(i)
		switch c.Kind() {
		case "import_statement":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				addImport(f, ns, "", c.NamedChild(j))
			}
		case "import_from_statement":
			mod := f.text(c.ChildByFieldName("module_name"))
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if n := c.NamedChild(j); n.StartByte() > c.ChildByFieldName("module_name").StartByte() {
					addImport(f, ns, mod, n)
				}
			}
		}
	}
	return ns
}

func addImport(f *File, ns *names, from string, n *sitter.Node) {
	if k := n.Kind(); k != "dotted_name" && k != "aliased_import" {
		return // a line continuation, a comment
	}
	name, alias := f.text(n), ""
	if n.Kind() == "aliased_import" {
		name, alias = f.text(n.ChildByFieldName("name")), f.text(n.ChildByFieldName("alias"))
	}
	root := name
	if from != "" {
		root = from
	}
	if top := strings.SplitN(root, ".", 2)[0]; !stdModules[top] && !f.project[top] {
		return
	}
	stmt := "import " + name
	if from != "" {
		stmt = "from " + from + " import " + name
	}
	local := strings.SplitN(name, ".", 2)[0]
	if alias != "" {
		stmt += " as " + alias
		local = alias
	}
	if from != "" && alias == "" {
		local = name
	}
	ns.imports[local] = stmt
}

// collectBindings records every name bound in scope (a module or a
// function body), not entering nested definitions: a name bound once by a
// plain assignment and never mutated is a const.
func collectBindings(f *File, scope *sitter.Node, ns *names) {
	b := &binder{f: f, ns: ns, count: map[string]int{}, mutated: map[string]bool{}, scope: scope, unsure: map[string]bool{}, loose: map[string]bool{}}
	b.walk(scope, true)
	b.settle()
}

// binder counts how often each name of one scope is bound and which
// names are mutated, for collectBindings. A count of 2 stands for any
// binding that is not a plain one (a def, a parameter).
type binder struct {
	f       *File
	ns      *names
	count   map[string]int
	mutated map[string]bool
	// scope is the node the scope's own statements are children of;
	// unsure are the names a statement call is made on elsewhere; loose
	// the names mutated other than by a step (xs.pop() in an expression,
	// xs += ..., next(it)).
	scope  *sitter.Node
	unsure map[string]bool
	loose  map[string]bool
}

// walk visits n and the nodes under it, stopping at nested scopes; top is
// the scope itself, whose own definition is not a nested one.
func (b *binder) walk(n *sitter.Node, top bool) {
	if !b.visit(n, top) {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		b.walk(n.NamedChild(i), false)
	}
}

// visit records what one node binds or mutates; false when what is under
// it belongs to another scope.
func (b *binder) visit(n *sitter.Node, top bool) bool {
	switch n.Kind() {
	case "function_definition", "class_definition":
		if !top {
			b.count[b.f.text(n.ChildByFieldName("name"))] += 2
			return false
		}
	case "lambda":
		return false
	case "assignment":
		b.assignment(n)
	case "augmented_assignment", "for_statement", "for_in_clause":
		if l := n.ChildByFieldName("left"); l != nil {
			b.target(l)
			if n.Kind() == "augmented_assignment" && l.Kind() == "identifier" {
				b.mutated[b.f.text(l)] = true
				b.loose[b.f.text(l)] = true
			}
		}
	case "named_expression":
		b.target(n.ChildByFieldName("name"))
	case "as_pattern_target", "delete_statement", "global_statement", "nonlocal_statement":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			b.target(n.NamedChild(i))
		}
	case "call":
		b.call(n)
	case "parameters", "lambda_parameters":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if id := paramName(b.f, n.NamedChild(i)); id != "" {
				b.count[id] += 2
			}
		}
		return false
	}
	return true
}

// assignment reads name = expr, the one binding that can make a const;
// any other left side binds its targets.
func (b *binder) assignment(n *sitter.Node) {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left != nil && left.Kind() == "identifier" && right != nil && right.Kind() != "assignment" {
		name := b.f.text(left)
		b.count[name]++
		if b.count[name] == 1 {
			b.ns.consts[name] = right
		}
	} else if left != nil {
		b.target(left)
	}
}

// rootName is the name a chain of fields and items starts from (g in
// g.tracks[0].points), n itself when it is a name; nil when the chain
// starts elsewhere (a call, a literal).
func rootName(n *sitter.Node) *sitter.Node {
	for d := 0; n != nil && d < maxDepth; d++ {
		switch n.Kind() {
		case "identifier":
			return n
		case "attribute":
			n = n.ChildByFieldName("object")
		case "subscript":
			n = n.ChildByFieldName("value")
		default:
			return nil
		}
	}
	return nil
}

// chainChecked checks the items a chain of fields and items reads
// (g.tracks[0].points: the 0) are literal-ish.
func (r *resolver) chainChecked(ns *names, n *sitter.Node, depth int) bool {
	for n != nil && n.Kind() != "identifier" {
		switch n.Kind() {
		case "attribute":
			n = n.ChildByFieldName("object")
		case "subscript":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				if c := n.NamedChild(i); c.StartByte() != n.ChildByFieldName("value").StartByte() && !r.check(ns, c, nil, depth+1) {
					return false
				}
			}
			n = n.ChildByFieldName("value")
		default:
			return false
		}
	}
	return n != nil
}

// step records n, a statement changing name (a method called on it, a
// field of it filled), as a step building it when the statement is the
// scope's own; a field set (p.name = 'x') is none: no argument
// expression may assign (gate.CheckPythonExpr refuses setattr). One
// made inside a nested block leaves the name unsure. It says whether n
// was a step.
func (b *binder) step(name string, n *sitter.Node) bool {
	st := n.Parent()
	if st == nil || st.Kind() != "expression_statement" {
		return false
	}
	if p := st.Parent(); p != nil && p.StartByte() == b.scope.StartByte() && p.EndByte() == b.scope.EndByte() && p.Kind() == b.scope.Kind() {
		if b.ns.steps == nil {
			b.ns.steps = map[string][]*sitter.Node{}
		}
		b.ns.steps[name] = append(b.ns.steps[name], n)
		return true
	}
	b.unsure[name] = true
	return false
}

// target reads the target of a binding: names are bound, unpacking binds
// each, and x[k] or x.attr mutates x.
func (b *binder) target(t *sitter.Node) {
	switch t.Kind() {
	case "identifier":
		b.count[b.f.text(t)]++
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern", "parenthesized_expression":
		for i := uint(0); i < t.NamedChildCount(); i++ {
			b.target(t.NamedChild(i))
		}
	case "subscript", "attribute":
		if v := t.ChildByFieldName("value"); v != nil && v.Kind() == "identifier" {
			b.mutated[b.f.text(v)] = true
		}
		if o := t.ChildByFieldName("object"); o != nil && o.Kind() == "identifier" {
			b.mutated[b.f.text(o)] = true
		}
	}
}

// call reads the calls that mutate a name: a mutator method (x.append)
// and next(it), which consumes: it is not the value it was bound to.
func (b *binder) call(n *sitter.Node) {
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return
	}
	step := false
	if fn.Kind() == "attribute" {
		// A method called on a name as a statement: a step building it.
		// So is filling a field of it (s.points.append(Point(1, 2))).
		o := fn.ChildByFieldName("object")
		switch {
		case o != nil && o.Kind() == "identifier":
			step = b.step(b.f.text(o), n)
		case o != nil && mutators[b.f.text(fn.ChildByFieldName("attribute"))]:
			if v := rootName(o); v != nil {
				name := b.f.text(v)
				b.mutated[name] = true
				if !b.step(name, n) {
					b.loose[name] = true
				}
			}
		}
	}
	if fn.Kind() == "attribute" && mutators[b.f.text(fn.ChildByFieldName("attribute"))] {
		if o := fn.ChildByFieldName("object"); o.Kind() == "identifier" {
			b.mutated[b.f.text(o)] = true
			if !step {
				b.loose[b.f.text(o)] = true
			}
		}
	}
	if fn.Kind() == "identifier" && b.f.text(fn) == "next" {
		if a := n.ChildByFieldName("arguments"); a != nil && a.NamedChildCount() > 0 && a.NamedChild(0).Kind() == "identifier" {
			b.mutated[b.f.text(a.NamedChild(0))] = true
			b.loose[b.f.text(a.NamedChild(0))] = true
		}
	}
}

// settle turns the counts into the scope's names: a name bound other than
// once is bound, not a const; a mutated const becomes an object.
func (b *binder) settle() {
	ns := b.ns
	for name := range b.unsure {
		// Built by calls that may or may not run (in a loop, a
		// branch): not the value it was bound to.
		delete(ns.steps, name)
		b.mutated[name] = true
	}
	for name, c := range b.count {
		if c != 1 {
			delete(ns.consts, name)
			ns.bound[name] = true
		}
	}
	for name := range b.mutated {
		if e := ns.consts[name]; e != nil && b.count[name] == 1 {
			if ns.objects == nil {
				ns.objects = map[string]*sitter.Node{}
			}
			ns.objects[name] = e
			if !b.loose[name] && !b.unsure[name] && len(ns.steps[name]) > 0 {
				if ns.stepBuilt == nil {
					ns.stepBuilt = map[string]bool{}
				}
				ns.stepBuilt[name] = true
			}
		}
		delete(ns.consts, name)
		ns.bound[name] = true
	}
}

// paramName returns the name a parameter node binds, "" for markers.
func paramName(f *File, p *sitter.Node) string {
	switch p.Kind() {
	case "identifier":
		return f.text(p)
	case "default_parameter", "typed_default_parameter":
		return f.text(p.ChildByFieldName("name"))
	case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
		for i := uint(0); i < p.NamedChildCount(); i++ {
			if c := p.NamedChild(i); c.Kind() == "identifier" {
				return f.text(c)
			} else if c.Kind() == "list_splat_pattern" || c.Kind() == "dictionary_splat_pattern" {
				return paramName(f, c)
			}
		}
	}
	return ""
}

// resolver checks that an expression is literal-ish and renders it with
// its local names replaced.
type resolver struct {
	ns   *names
	row  map[string]string // names bound by a parametrize or loop row: rendered text
	repl map[uint]string   // identifier start byte (an attribute's: attrKey) -> replacement
	// before is where the call read is: a step of its own scope after it
	// is not part of what it was given.
	before uint
	imps   map[string]bool
	// work is shared by a resolver and those it starts for substituted
	// names, so a = [b, b]; b = [c, c]; ... cannot blow up.
	work *work
}

type work struct {
	budget   int
	visiting map[uint]bool   // const expressions being resolved: a = [a] is a cycle
	done     map[uint]string // const expressions resolved, by start byte
}

// maxWork bounds the nodes one argument may cost to check.
const maxWork = 20000

func newResolver(ns *names, row map[string]string) *resolver {
	return &resolver{ns: ns, row: row, repl: map[uint]string{}, imps: map[string]bool{},
		work: &work{budget: maxWork, visiting: map[uint]bool{}, done: map[uint]string{}}}
}

// expr renders n when it is literal-ish; ok is false otherwise.
func (r *resolver) expr(n *sitter.Node) (string, bool) {
	if !r.check(r.ns, n, nil, 0) {
		return "", false
	}
	return render(r.ns.f, n, r.repl), true
}

func (r *resolver) imports() []string {
	out := make([]string, 0, len(r.imps))
	for i := range r.imps {
		out = append(out, i)
	}
	sort.Strings(out)
	return out
}

// maxDepth bounds the chain of substituted names (a = [1]; b = a; ...),
// and the nesting checked, so hostile input cannot recurse without end.
const maxDepth = 200

// leafKinds are the nodes literal in themselves: numbers, constants, the
// pieces of a string, comments.
var leafKinds = setOf("integer", "float", "true", "false", "none", "ellipsis", "comment",
	"string_start", "string_content", "string_end", "escape_sequence")

// compoundKinds are the nodes literal when each of their children is:
// containers, operators, indexing, argument lists.
var compoundKinds = setOf("if_clause", "pair", "list", "tuple", "set", "dictionary", "concatenated_string",
	"parenthesized_expression", "unary_operator", "binary_operator", "boolean_operator",
	"not_operator", "comparison_operator", "conditional_expression", "subscript", "slice",
	"list_splat", "dictionary_splat", "expression_list", "argument_list")

// check reports whether n, in scope ns with the names local binds (a
// lambda's parameters, a comprehension's targets), is literal-ish, and
// records the substitutions and imports rendering it takes.
func (r *resolver) check(ns *names, n *sitter.Node, local map[string]bool, depth int) bool {
	if depth > maxDepth || n == nil || n.IsError() || n.IsMissing() || r.work.budget <= 0 {
		return false
	}
	r.work.budget--
	switch k := n.Kind(); {
	case leafKinds[k]:
		return true
	case compoundKinds[k]:
		return r.children(ns, n, local, depth)
	}
	switch n.Kind() {
	case "identifier":
		return r.name(ns, n, local, depth)
	case "string":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if n.NamedChild(i).Kind() == "interpolation" {
				return false
			}
		}
		return true
	case "attribute":
		if r.fixtureArg(ns, n, depth) {
			return true
		}
		// 'a,b'.split, operator.add, math.pi: the object must resolve.
		return r.check(ns, n.ChildByFieldName("object"), local, depth+1)
	case "call":
		fn := n.ChildByFieldName("function")
		if fn == nil || !r.check(ns, fn, local, depth+1) {
			return false
		}
		return r.children(ns, n.ChildByFieldName("arguments"), local, depth)
	case "lambda", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		return r.scope(ns, n, local, depth)
	case "keyword_argument":
		return r.check(ns, n.ChildByFieldName("value"), local, depth+1)
	}
	return false
}

// name checks an identifier: a name bound inside the expression, a name
// of the row, a local const (substituted by its value), a builtin, or a
// standard module (imported).
func (r *resolver) name(ns *names, n *sitter.Node, local map[string]bool, depth int) bool {
	name := ns.f.text(n)
	if local[name] {
		return true
	}
	if v, ok := r.row[name]; ok && ns == r.ns {
		r.repl[n.StartByte()] = v
		return true
	}
	if e, owner := ns.lookup(name); e != nil && owner.f == r.ns.f {
		if steps := r.stepsIn(owner, name); len(steps) > 0 {
			return r.substituteBuilt(n.StartByte(), e, owner, steps, depth)
		}
		return r.substitute(n, e, owner, depth)
	}
	if e, owner := ns.object(name); e != nil && owner.f == r.ns.f && e.Kind() == "call" && owner.stepBuilt[name] {
		// A mutated object the scope changes by its statements alone
		// (q = Queue(); q.append(1)): those made before the call.
		if steps := r.stepsIn(owner, name); len(steps) > 0 {
			return r.substituteBuilt(n.StartByte(), e, owner, steps, depth)
		}
	}
	if builtinNames[name] {
		return true
	}
	if imp, ok := ns.importOf(name); ok {
		r.imps[imp] = true
		return true
	}
	return false
}

// substitute checks the expression e the name n was bound to once, in
// the scope owner, and replaces n by its rendering; each expression is
// checked once, and one that refers to itself is not literal.
func (r *resolver) substitute(n, e *sitter.Node, owner *names, depth int) bool {
	if text, ok := r.work.done[e.StartByte()]; ok {
		// it = iter(xs); f(it, it) passes one iterator twice:
		// two copies of iter(xs) would be another input.
		if k := e.Kind(); k == "generator_expression" || k == "call" && !valueCall(owner.f, e) {
			return false
		}
		r.repl[n.StartByte()] = text
		return true
	}
	if r.work.visiting[e.StartByte()] {
		return false
	}
	r.work.visiting[e.StartByte()] = true
	sub := &resolver{ns: owner, repl: map[uint]string{}, imps: r.imps, work: r.work}
	ok := sub.check(owner, e, nil, depth+1)
	delete(r.work.visiting, e.StartByte())
	if !ok {
		return false
	}
	text := paren(e, render(owner.f, e, sub.repl))
	r.work.done[e.StartByte()] = text
	r.repl[n.StartByte()] = text
	return true
}

// valueModules are standard modules whose functions return values, not
// objects a call changes: pcap = binascii.unhexlify(b"00"), then
// parse(Buffer(pcap), len(pcap)) is the same input with pcap computed
// twice.
var valueModules = setOf("binascii", "base64", "struct", "datetime", "decimal", "fractions", "math", "ipaddress", "uuid", "re", "string", "unicodedata")

// valueCall says a call's function is one of valueModules' (binascii.unhexlify).
func valueCall(f *File, call *sitter.Node) bool {
	fn := call.ChildByFieldName("function")
	if fn == nil || fn.Kind() != "attribute" {
		return false
	}
	o := fn.ChildByFieldName("object")
	return o != nil && o.Kind() == "identifier" && valueModules[f.text(o)]
}

// stepsIn are the steps building name in owner that the call read has
// been made after: in the call's own scope, those before it; in an outer
// one or a fixture's method, all.
func (r *resolver) stepsIn(owner *names, name string) []*sitter.Node {
	if owner == r.ns {
		return owner.stepsOf(name, r.before)
	}
	return owner.stepsOf(name, 0)
}

// builtName is the parameter of the lambda a built object is rendered
// through: (lambda _premise_o: (_premise_o.add(1), _premise_o)[-1])(C()).
const builtName = "_premise_o"

// substituteBuilt replaces the node starting at at (a name, or attrKey of
// a fixture's attribute) by the expression e it was bound to, in owner,
// and the calls steps made on it, in order, as one expression; each call's
// arguments must be literal-ish too.
func (r *resolver) substituteBuilt(at uint, e *sitter.Node, owner *names, steps []*sitter.Node, depth int) bool {
	if _, done := r.work.done[e.StartByte()]; done || r.work.visiting[e.StartByte()] {
		// One object passed twice is not two built alike.
		return false
	}
	r.work.visiting[e.StartByte()] = true
	defer delete(r.work.visiting, e.StartByte())
	sub := &resolver{ns: owner, repl: map[uint]string{}, imps: r.imps, work: r.work}
	if !sub.check(owner, e, nil, depth+1) {
		return false
	}
	calls, ok := r.stepCalls(owner, steps, depth)
	if !ok {
		return false
	}
	text := built(render(owner.f, e, sub.repl), calls)
	r.work.done[e.StartByte()] = text
	r.repl[at] = text
	return true
}

// stepCalls renders the calls steps make on a name, in owner, as calls
// on builtName; ok is false when an argument of one is not literal-ish.
func (r *resolver) stepCalls(owner *names, steps []*sitter.Node, depth int) ([]string, bool) {
	var calls []string
	for _, c := range steps {
		cs := &resolver{ns: owner, repl: map[uint]string{}, imps: r.imps, work: r.work}
		// What the call is made on (o in o.add(1), o.points in
		// o.points.append(p)): the name it starts from is the object.
		obj := c.ChildByFieldName("function").ChildByFieldName("object")
		if !cs.children(owner, c.ChildByFieldName("arguments"), nil, depth+1) || !cs.chainChecked(owner, obj, depth) {
			return nil, false
		}
		cs.repl[obj.StartByte()] = builtName
		calls = append(calls, render(owner.f, c, cs.repl))
	}
	return calls, true
}

// built is the expression of the object ctor builds after calls (each a
// call on builtName) are made on it.
func built(ctor string, calls []string) string {
	if len(calls) == 0 {
		return ctor
	}
	return "(lambda " + builtName + ": (" + strings.Join(calls, ", ") + ", " + builtName + ")[-1])(" + ctor + ")"
}

// attrKey is the key an attribute node's replacement has in a resolver's
// repl, apart from the start bytes of identifiers.
func attrKey(n *sitter.Node) uint { return n.EndByte() + 1<<40 }

// fixtureArg checks self.name or cls.name, a fixture of the test's class
// bound in its setUp or setup_class, and replaces it by what the fixture
// was built as, read in that method's scope.
func (r *resolver) fixtureArg(ns *names, n *sitter.Node, depth int) bool {
	obj, attr := n.ChildByFieldName("object"), n.ChildByFieldName("attribute")
	if obj == nil || attr == nil || obj.Kind() != "identifier" || (ns.f.text(obj) != "self" && ns.f.text(obj) != "cls") {
		return false
	}
	e, def, class := ns.fixtureDef(ns.f.text(attr))
	if e == nil || def == nil {
		return false
	}
	scope := scopeOf(ns.f, def, class)
	if e.Kind() == "identifier" {
		// cls.G = G: the name the method built.
		name := ns.f.text(e)
		if v, owner := scope.lookup(name); v != nil && owner == scope {
			return r.substituteBuilt(attrKey(n), v, scope, scope.stepsOf(name, 0), depth)
		}
		if v, owner := scope.object(name); v != nil && owner == scope && v.Kind() == "call" && len(scope.steps[name]) > 0 {
			return r.substituteBuilt(attrKey(n), v, scope, scope.stepsOf(name, 0), depth)
		}
		return false
	}
	return r.substituteBuilt(attrKey(n), e, scope, nil, depth)
}

// scope checks a lambda or a comprehension, whose parameters or targets
// are names of their own for what they hold.
func (r *resolver) scope(ns *names, n *sitter.Node, local map[string]bool, depth int) bool {
	inner := map[string]bool{}
	for k := range local {
		inner[k] = true
	}
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			p := ps.NamedChild(i)
			inner[paramName(ns.f, p)] = true
			// A default is evaluated outside the lambda.
			if d := p.ChildByFieldName("value"); d != nil && !r.check(ns, d, local, depth+1) {
				return false
			}
		}
		return r.check(ns, n.ChildByFieldName("body"), inner, depth+1)
	}
	// Comprehensions (and a lambda without parameters): each for clause
	// binds its targets for what follows.
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "for_in_clause" {
			if !r.check(ns, c.ChildByFieldName("right"), inner, depth+1) {
				return false
			}
			patternNames(ns.f, c.ChildByFieldName("left"), inner)
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "for_in_clause" {
			continue
		}
		if !r.check(ns, c, inner, depth+1) {
			return false
		}
	}
	return true
}

func (r *resolver) children(ns *names, n *sitter.Node, local map[string]bool, depth int) bool {
	if n == nil {
		return false
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if !r.check(ns, n.NamedChild(i), local, depth+1) {
			return false
		}
	}
	return true
}

func patternNames(f *File, p *sitter.Node, into map[string]bool) {
	if p == nil {
		return
	}
	if p.Kind() == "identifier" {
		into[f.text(p)] = true
		return
	}
	for i := uint(0); i < p.NamedChildCount(); i++ {
		patternNames(f, p.NamedChild(i), into)
	}
}

// render returns n's source with identifiers replaced by repl (keyed by
// start byte); whitespace and comments inside are kept as written, and
// newlines folded so the text is one line.
func render(f *File, n *sitter.Node, repl map[uint]string) string {
	var b strings.Builder
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.Kind() == "identifier" {
			if v, ok := repl[n.StartByte()]; ok {
				b.WriteString(v)
				return
			}
		}
		if n.Kind() == "attribute" {
			if v, ok := repl[attrKey(n)]; ok {
				b.WriteString(v)
				return
			}
		}
		multiline := bytes.IndexByte(f.src[n.StartByte():n.EndByte()], '\n') >= 0
		if n.Kind() == "string" && multiline {
			// A triple-quoted string over several lines, on one line
			// with its newlines as escapes: folding its lines would
			// change its value.
			b.WriteString(oneLineString(f, n))
			return
		}
		if n.ChildCount() == 0 || len(repl) == 0 && !multiline {
			b.Write(f.src[n.StartByte():n.EndByte()])
			return
		}
		at := n.StartByte()
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			b.Write(f.src[at:c.StartByte()])
			walk(c)
			at = c.EndByte()
		}
		b.Write(f.src[at:n.EndByte()])
	}
	walk(n)
	return oneLine(b.String())
}

// oneLineString writes a string literal spanning lines as one line with
// the same value: each newline in it as \n (a raw string's backslashes
// doubled, its r dropped, so that the escape means a newline), a
// backslash ending a line of a plain string (which joins the lines)
// dropped with its newline.
func oneLineString(f *File, n *sitter.Node) string {
	var start, end string
	var body strings.Builder
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		text := string(f.src[c.StartByte():c.EndByte()])
		switch c.Kind() {
		case "string_start":
			start = text
		case "string_end":
			end = text
		default:
			body.WriteString(text)
		}
	}
	if start == "" {
		return string(f.src[n.StartByte():n.EndByte()])
	}
	quote := strings.TrimLeft(start, "rRbBuU")
	prefix := start[:len(start)-len(quote)]
	content := body.String()
	if strings.ContainsAny(prefix, "rR") {
		prefix = strings.NewReplacer("r", "", "R", "").Replace(prefix)
		content = strings.ReplaceAll(content, `\`, `\\`)
	} else {
		content = strings.ReplaceAll(content, "\\\r\n", "")
		content = strings.ReplaceAll(content, "\\\n", "")
	}
	content = strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(content)
	return prefix + quote + content + end
}

// oneLine folds a multi-line expression (a list over several lines) into
// one line; comments are dropped with their line's end.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n#") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := commentStart(l); j >= 0 {
			l = l[:j]
		}
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, " "))
}

// commentStart finds a # outside string quotes on one line, -1 if none.
func commentStart(l string) int {
	var q byte
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q == 0 && c == '#':
			return i
		}
	}
	return -1
}

// paren wraps a substituted expression in parentheses unless it is one
// token or already bracketed, so precedence survives the substitution.
func paren(n *sitter.Node, text string) string {
	switch n.Kind() {
	case "integer", "float", "string", "true", "false", "none", "identifier", "list", "tuple",
		"dictionary", "set", "call", "list_comprehension", "set_comprehension",
		"dictionary_comprehension", "generator_expression", "parenthesized_expression", "subscript", "attribute":
		return text
	}
	return "(" + text + ")"
}
