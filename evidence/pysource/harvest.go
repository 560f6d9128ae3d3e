package pysource

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Input is one call of the function found in the repository, as Python
// source.
type Input struct {
	// Args are the positional arguments, each an expression as written,
	// with local names replaced by the literal they were bound to.
	Args []string
	// Kwargs are the keyword arguments: name -> expression.
	Kwargs map[string]string
	// Receiver is the expression a method is called on: a constructor
	// call (Bits(4, 2)), or the class itself for a static or class method
	// called on the class. It is "" for a function.
	Receiver string
	// ReceiverCall is the receiver's constructor call in parts, with its
	// arguments as written, so the receiver can be varied like any input;
	// nil when the receiver is not a call with literal-ish arguments.
	ReceiverCall *Call
	// Imports are the standard-library import statements the expressions
	// need ("import operator").
	Imports []string
	// Kind says where the input was found: doctest, test, or parametrize
	// (a row of a pytest.mark.parametrize table or of a loop over a literal
	// table feeding the call).
	Kind string
	// Pos is the file and line of the call: "more.py:120".
	Pos string
	// Raises says the call sits in a block that expects it to raise
	// (with pytest.raises(...), with self.assertRaises(...)): its
	// arguments are ones the code refuses, no typical value of them.
	Raises bool
}

// Call is a constructor call: Bits(4, 2) or Version.parse("1.0").
type Call struct {
	Callee string
	Args   []string
	Kwargs map[string]string
}

// String is the call as Python source, keyword arguments sorted.
func (c *Call) String() string {
	parts := append([]string(nil), c.Args...)
	keys := make([]string, 0, len(c.Kwargs))
	for k := range c.Kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+c.Kwargs[k])
	}
	return c.Callee + "(" + strings.Join(parts, ", ") + ")"
}

// Kinds of Input.
const (
	KindDoctest     = "doctest"
	KindTest        = "test"
	KindParametrize = "parametrize"
)

// maxRows bounds the rows one test expands to (stacked parametrize
// decorators multiply).
const maxRows = 256

// Harvest returns the calls of fn ("f" or "Class.m", defined in module)
// whose arguments are literal-ish: first the doctests of fn's docstring,
// its class's and its module's, then the calls in tests, file by file.
// Duplicates are dropped; at most limit inputs are returned (all when limit
// is not positive). A module or test file that does not parse still gives
// what its well-formed parts hold.
func Harvest(module *File, fn string, tests []*File, limit int) []Input {
	// Up to eight times the limit are read, then thinned to it across
	// the whole: a fix's test is most often the last row of its table.
	h := &harvester{fn: fn, limit: 8 * limit, seen: map[string]bool{}, out: []Input{}}
	h.cls, h.name = "", fn
	if i := strings.LastIndex(fn, "."); i >= 0 {
		// Outer.Inner.m is called on an Inner.
		h.cls, h.name = fn[strings.LastIndex(fn[:i], ".")+1:i], fn[i+1:]
	}
	if module != nil && module.root != nil {
		h.module = module.Module()
		var bodies []*sitter.Node
		if d, err := module.def(fn); err == nil {
			bodies = append(bodies, d.fn.ChildByFieldName("body"))
			if d.class != nil {
				cb := d.class.ChildByFieldName("body")
				bodies = append(bodies, cb)
				// Doctests of sibling methods often build the object and
				// call this one too.
				for i := uint(0); cb != nil && i < cb.NamedChildCount(); i++ {
					c := cb.NamedChild(i)
					if c.Kind() == "decorated_definition" {
						c = c.ChildByFieldName("definition")
					}
					if c != nil && c.Kind() == "function_definition" && c != d.fn {
						bodies = append(bodies, c.ChildByFieldName("body"))
					}
				}
			}
		}
		bodies = append(bodies, module.root)
		for _, b := range bodies {
			if s := docstring(b); s != nil {
				h.doctest(module, s)
			}
		}
	}
	for _, t := range tests {
		if t != nil && t.root != nil && !h.full() {
			h.file(t)
		}
	}
	return thin(h.out, limit)
}

// Instances returns the objects of the class cls (defined in module) that
// the tests build and keep in a name, as the test leaves them: s =
// Segment() with literal-ish arguments, and the test's own statements
// that fill it after (s.points.append(Point(1, 2)), s.name = 'x',
// s.add(1)), one expression each (Input.Receiver, no Args). A test builds
// an object to use it, most often through another function than the
// method judged (a segment put in a track the test asks for its bounds):
// it is still an object of the class in a state its code reaches. At most
// limit are returned (all when limit is not positive).
func Instances(module *File, cls string, tests []*File, limit int) []Input {
	h := &harvester{fn: cls + ".__init__", limit: 8 * limit, seen: map[string]bool{}, out: []Input{}, instances: true}
	h.cls, h.name = cls[strings.LastIndex(cls, ".")+1:], "__init__"
	if module != nil {
		h.module = module.Module()
	}
	for _, t := range tests {
		if t != nil && t.root != nil && !h.full() {
			h.file(t)
		}
	}
	return thin(h.out, limit)
}

type harvester struct {
	fn, cls, name string
	module        string
	limit         int
	// instances collects the objects of cls the tests keep in a name
	// (Instances), not the calls of fn.
	instances bool
	seen      map[string]bool
	out       []Input
	// fileHelpers are the helpers of the test file being read.
	fileHelpers map[string]helper
}

// thin keeps limit of ins, in their order: the first half of the limit,
// the last quarter, and between them inputs spread evenly over the rest.
func thin(ins []Input, limit int) []Input {
	if limit <= 0 || len(ins) <= limit {
		return ins
	}
	head, tail := limit/2, limit/4
	out := append([]Input{}, ins[:head]...)
	mid := ins[head : len(ins)-tail]
	n := limit - head - tail
	for i := 0; i < n; i++ {
		out = append(out, mid[i*len(mid)/n])
	}
	return append(out, ins[len(ins)-tail:]...)
}

func (h *harvester) full() bool { return h.limit > 0 && len(h.out) >= h.limit }

func (h *harvester) add(in Input) {
	if h.full() {
		return
	}
	keys := make([]string, 0, len(in.Kwargs))
	for k := range in.Kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(in.Receiver + "\x00" + strings.Join(in.Args, "\x00") + "\x01")
	for _, k := range keys {
		b.WriteString(k + "=" + in.Kwargs[k] + "\x00")
	}
	if h.seen[b.String()] {
		return
	}
	h.seen[b.String()] = true
	h.out = append(h.out, in)
}

// doctest harvests the >>> examples of one docstring: the examples are
// joined into one Python snippet, so names an example binds serve the
// examples after it, and lines are mapped back to the file. A name bound
// again by a later example (pcap = ... before each parse) is read as the
// example calling the function last bound it: each such call is read in a
// snippet of the examples before it without the bindings they replaced.
func (h *harvester) doctest(module *File, s *sitter.Node) {
	text, start, ok := module.stringValue(s)
	if !ok || !strings.Contains(text, ">>>") {
		return
	}
	var examples []example
	for i, l := range strings.Split(text, "\n") {
		t := strings.TrimLeft(l, " \t")
		switch {
		case strings.HasPrefix(t, ">>> "), t == ">>>":
			examples = append(examples, example{})
			t = strings.TrimPrefix(strings.TrimPrefix(t, ">>>"), " ")
		case strings.HasPrefix(t, "... "), t == "...":
			if len(examples) == 0 {
				continue
			}
			t = strings.TrimPrefix(strings.TrimPrefix(t, "..."), " ")
		default:
			continue
		}
		e := &examples[len(examples)-1]
		e.code += t + "\n"
		e.lines = append(e.lines, start+i)
	}
	if len(examples) > maxExamples {
		examples = examples[:maxExamples]
	}
	bindings(module.Path, examples)
	again := map[string]bool{}
	seen := map[string]bool{}
	for _, e := range examples {
		for _, n := range e.binds {
			again[n] = again[n] || seen[n]
			seen[n] = true
		}
	}
	if len(again) == 0 {
		h.snippet(module, examples, 0)
		return
	}
	for k, e := range examples {
		if !h.mentions([]byte(e.code)) || h.full() {
			continue
		}
		// The examples up to k, each binding of a name left out when a
		// later one before k binds it again.
		var kept []example
		for j := range k {
			if !boundAgain(examples[j], examples[j+1:k]) {
				kept = append(kept, examples[j])
			}
		}
		h.snippet(module, append(kept, e), len(kept))
	}
}

// maxExamples bounds the examples of one docstring read.
const maxExamples = 200

// example is one >>> example of a docstring with its ... lines: its code,
// the file's line of each of its lines, and the names it binds by plain
// assignment.
type example struct {
	code  string
	lines []int
	binds []string
}

// boundAgain says every name e binds is bound again by one of later.
func boundAgain(e example, later []example) bool {
	if len(e.binds) == 0 {
		return false
	}
	for _, n := range e.binds {
		if !slices.ContainsFunc(later, func(l example) bool { return slices.Contains(l.binds, n) }) {
			return false
		}
	}
	return true
}

// bindings fills in the names each example binds by a plain assignment
// at its top (pcap = ...), read from one parse of the examples together.
func bindings(path string, examples []example) {
	var src strings.Builder
	first := make([]uint, len(examples)) // the first row of each example in src
	for i, e := range examples {
		if i > 0 {
			first[i] = first[i-1] + uint(len(examples[i-1].lines))
		}
		src.WriteString(e.code)
	}
	snip, err := Parse(path, []byte(src.String()))
	if err != nil {
		return
	}
	defer snip.Close()
	for i := uint(0); i < snip.root.NamedChildCount(); i++ {
		st := snip.root.NamedChild(i)
		a := st.NamedChild(0)
		if st.Kind() != "expression_statement" || a == nil || a.Kind() != "assignment" {
			continue
		}
		left := a.ChildByFieldName("left")
		if left == nil || left.Kind() != "identifier" {
			continue
		}
		row := st.StartPosition().Row
		k, _ := slices.BinarySearch(first, row+1)
		e := &examples[k-1]
		e.binds = append(e.binds, snip.text(left))
	}
}

// snippet harvests the calls of examples[from:], read as one snippet
// with the examples before them.
func (h *harvester) snippet(module *File, examples []example, from int) {
	var src strings.Builder
	var lines []int
	firstRow := uint(0)
	for i, e := range examples {
		if i == from {
			firstRow = uint(len(lines))
		}
		src.WriteString(e.code)
		lines = append(lines, e.lines...)
	}
	snip, err := Parse(module.Path, []byte(src.String()))
	if err != nil {
		return
	}
	defer snip.Close()
	snip.project = module.project
	ns := snip.moduleNames()
	ns.outer = module.doctestNames()
	for i := uint(0); i < snip.root.NamedChildCount(); i++ {
		if n := snip.root.NamedChild(i); n.StartPosition().Row >= firstRow {
			h.walk(snip, n, ns, []map[string]string{nil}, KindDoctest, lines)
		}
	}
}

// doctestNames are the names a doctest of the module finds besides its
// own: the module's imports of standard and project modules, and, when
// its import path is known, every name the module binds at its top,
// imported from it (HTTPS.parse(Buffer(pcap), len(pcap)) builds its
// Buffer as the module imported it). Read once a file, as moduleNames.
func (f *File) doctestNames() *names {
	if f.docNames != nil {
		return f.docNames
	}
	mod := f.moduleNames()
	ns := &names{f: f, consts: map[string]*sitter.Node{}, bound: map[string]bool{}, imports: map[string]string{}}
	if f.importPath != "" {
		for name := range mod.bound {
			ns.imports[name] = "from " + f.importPath + " import " + name
		}
		for name := range mod.consts {
			ns.imports[name] = "from " + f.importPath + " import " + name
		}
	}
	for name, stmt := range mod.imports {
		ns.imports[name] = stmt
	}
	f.docNames = ns
	return ns
}

// builds says the function is its class's constructor, which a call of
// the class runs: __init__, or the __new__ of a class of values of an
// immutable built-in type.
func (h *harvester) builds() bool { return h.name == "__init__" || h.name == "__new__" }

// mentions says code names the function (its class, for __init__) or a
// helper that calls it.
func (h *harvester) mentions(code []byte) bool {
	return bytes.Contains(code, []byte(h.name)) || h.builds() && bytes.Contains(code, []byte(h.cls)) || h.namesHelper(code)
}

// file harvests one test file.
func (h *harvester) file(t *File) {
	h.fileHelpers = h.helpers(t)
	h.walk(t, t.root, t.moduleNames(), []map[string]string{nil}, KindTest, nil)
	h.fileHelpers = nil
}

// walk finds the calls under n. rows are the bindings of the enclosing
// parametrize tables and loops over literal tables; a call is expanded
// once per row.
func (h *harvester) walk(f *File, n *sitter.Node, ns *names, rows []map[string]string, kind string, lines []int) {
	if h.full() {
		return
	}
	// Most of a test file never names the function: skip those parts
	// before reading their scopes.
	if !h.mentions(f.src[n.StartByte():n.EndByte()]) {
		return
	}
	switch n.Kind() {
	case "decorated_definition":
		def := n.ChildByFieldName("definition")
		if def == nil || def.Kind() != "function_definition" {
			break
		}
		inner := h.scope(f, def, ns)
		rs := rows
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if d := n.NamedChild(i); d.Kind() == "decorator" {
				if p := h.parametrize(f, d, ns); p != nil {
					rs, kind = product(rs, p), KindParametrize
				}
			}
		}
		h.walk(f, def.ChildByFieldName("body"), inner, rs, kind, lines)
		return
	case "function_definition":
		h.walk(f, n.ChildByFieldName("body"), h.scope(f, n, ns), rows, kind, lines)
		return
	case "class_definition":
		if b := n.ChildByFieldName("body"); b != nil {
			cs := f.scopes[b.StartByte()]
			if cs == nil || cs.outer != ns {
				cs = classScope(f, b, ns)
				if f.scopes == nil {
					f.scopes = map[uint]*names{}
				}
				f.scopes[b.StartByte()] = cs
			}
			h.walk(f, b, cs, rows, kind, lines)
		}
		return
	case "for_statement":
		if p := h.loopRows(f, n, ns); p != nil {
			if r := n.ChildByFieldName("right"); r != nil {
				h.walk(f, r, ns, rows, kind, lines)
			}
			h.walk(f, n.ChildByFieldName("body"), ns, product(rows, p), KindParametrize, lines)
			if e := n.ChildByFieldName("alternative"); e != nil {
				h.walk(f, e, ns, rows, kind, lines)
			}
			return
		}
	case "call":
		h.call(f, n, ns, rows, kind, lines)
		if h.fileHelpers != nil {
			h.helperCall(f, n, ns, rows, kind, lines)
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		h.walk(f, n.NamedChild(i), ns, rows, kind, lines)
	}
}

func (h *harvester) scope(f *File, def *sitter.Node, outer *names) *names {
	return scopeOf(f, def, outer)
}

// scopeOf is the scope of the function def inside outer, read once.
func scopeOf(f *File, def *sitter.Node, outer *names) *names {
	if ns := f.scopes[def.StartByte()]; ns != nil && ns.outer == outer {
		return ns
	}
	ns := newScope(f, def, outer)
	if f.scopes == nil {
		f.scopes = map[uint]*names{}
	}
	f.scopes[def.StartByte()] = ns
	return ns
}

func newScope(f *File, def *sitter.Node, outer *names) *names {
	ns := &names{f: f, consts: map[string]*sitter.Node{}, bound: map[string]bool{}, imports: map[string]string{}, outer: outer}
	if ps := def.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			if p := paramName(f, ps.NamedChild(i)); p != "" {
				ns.bound[p] = true
			}
		}
	}
	if b := def.ChildByFieldName("body"); b != nil {
		collectBindings(f, b, ns)
	}
	return ns
}

// classScope reads the fixtures of a test class: the attributes its
// setUp (or pytest's setup_method) binds on self exactly once, and those
// its setUpClass (or setup_class) binds on cls.
func classScope(f *File, body *sitter.Node, outer *names) *names {
	ns := &names{f: f, consts: map[string]*sitter.Node{}, bound: map[string]bool{}, imports: map[string]string{}, fixtures: map[string]*sitter.Node{}, fixtureDefs: map[string]*sitter.Node{}, outer: outer}
	count := map[string]int{}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		d := body.NamedChild(i)
		if d.Kind() == "decorated_definition" {
			d = d.ChildByFieldName("definition")
		}
		if d == nil || d.Kind() != "function_definition" {
			continue
		}
		owner := ""
		switch f.text(d.ChildByFieldName("name")) {
		case "setUp", "setup_method":
			owner = "self"
		case "setUpClass", "setup_class":
			owner = "cls"
		default:
			continue
		}
		def := d
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			if n.Kind() == "assignment" {
				if l := n.ChildByFieldName("left"); l != nil && l.Kind() == "attribute" && f.text(l.ChildByFieldName("object")) == owner {
					a := f.text(l.ChildByFieldName("attribute"))
					count[a]++
					ns.fixtures[a] = n.ChildByFieldName("right")
					ns.fixtureDefs[a] = def
				}
			}
			for j := uint(0); j < n.NamedChildCount(); j++ {
				walk(n.NamedChild(j))
			}
		}
		if b := d.ChildByFieldName("body"); b != nil {
			walk(b)
		}
	}
	for a, c := range count {
		if c != 1 {
			delete(ns.fixtures, a)
		}
	}
	return ns
}

// call records n when it calls the function under test with literal-ish
// arguments.
func (h *harvester) call(f *File, n *sitter.Node, ns *names, rows []map[string]string, kind string, lines []int) {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.Kind() != "argument_list" {
		return
	}
	if fn.Kind() == "identifier" {
		// format_meter = tqdm.format_meter, then format_meter(5, 10, 1):
		// a local name for the function is a call of it.
		if e, _ := ns.lookup(f.text(fn)); e != nil && e.Kind() == "attribute" && f.text(e.ChildByFieldName("attribute")) == h.name {
			fn = e
		}
	}
	var recv *sitter.Node // the receiver expression of a method call
	switch {
	case h.cls == "":
		if !h.callsFunc(f, fn, ns) {
			return
		}
	case h.builds():
		if !h.namesClass(f, fn, ns) {
			return
		}
		if h.instances {
			h.instance(f, n, ns, rows, kind, lines)
			return
		}
	default:
		if fn.Kind() != "attribute" || f.text(fn.ChildByFieldName("attribute")) != h.name {
			return
		}
		recv = fn.ChildByFieldName("object")
	}
	for _, row := range rows {
		if h.full() {
			return
		}
		r := newResolver(ns, row)
		r.before = n.StartByte()
		in := Input{Args: []string{}, Kind: kind, Pos: pos(f, n, lines), Raises: expectsRaise(f, n)}
		if recv != nil {
			rt, rc, ok := h.receiver(f, recv, ns, r, 0)
			if !ok {
				continue
			}
			in.Receiver, in.ReceiverCall = rt, rc
		}
		if !h.arguments(f, args, r, &in) {
			continue
		}
		in.Imports = r.imports()
		if len(in.Imports) == 0 {
			in.Imports = nil
		}
		h.add(in)
	}
}

// instance records the object the construction n builds when a statement
// of its scope binds it to a name (s = Segment()): the construction and
// every step the scope takes on the name (Instances). A name changed
// other than by its statements (in a loop, a branch, an expression) is
// not the object so built, and is left out.
func (h *harvester) instance(f *File, n *sitter.Node, ns *names, rows []map[string]string, kind string, lines []int) {
	a := n.Parent()
	if a == nil || a.Kind() != "assignment" {
		return
	}
	left := a.ChildByFieldName("left")
	if left == nil || left.Kind() != "identifier" {
		return
	}
	name := f.text(left)
	if ns.consts[name] == nil && !ns.stepBuilt[name] {
		return
	}
	for _, row := range rows {
		if h.full() {
			return
		}
		r := newResolver(ns, row)
		r.before = ^uint(0) // every step the scope takes on it
		rt, rc, ok := h.receiver(f, left, ns, r, 0)
		if !ok {
			continue
		}
		in := Input{Args: []string{}, Receiver: rt, ReceiverCall: rc, Kind: kind, Pos: pos(f, n, lines), Imports: r.imports()}
		if len(in.Imports) == 0 {
			in.Imports = nil
		}
		h.add(in)
	}
}

func pos(f *File, n *sitter.Node, lines []int) string {
	l := line(n)
	if lines != nil && l-1 < len(lines) {
		l = lines[l-1]
	}
	return f.Path + ":" + strconv.Itoa(l)
}

func (h *harvester) arguments(f *File, args *sitter.Node, r *resolver, in *Input) bool {
	for i := uint(0); i < args.NamedChildCount(); i++ {
		a := args.NamedChild(i)
		switch a.Kind() {
		case "comment":
			continue
		case "keyword_argument":
			v, ok := r.expr(a.ChildByFieldName("value"))
			if !ok {
				return false
			}
			if in.Kwargs == nil {
				in.Kwargs = map[string]string{}
			}
			in.Kwargs[f.text(a.ChildByFieldName("name"))] = v
		case "list_splat", "dictionary_splat":
			// f(*rows) hides the arity; the worker could spread it, but a
			// wrong split would be a false finding.
			return false
		default:
			v, ok := r.expr(a)
			if !ok {
				return false
			}
			in.Args = append(in.Args, v)
		}
	}
	return true
}

// callsFunc reports whether fn names the function under test: f, or
// m.f where m is the module or a name the file imports.
func (h *harvester) callsFunc(f *File, fn *sitter.Node, ns *names) bool {
	switch fn.Kind() {
	case "identifier":
		// A test's own helper of the same name is not the function.
		return f.text(fn) == h.name && !ns.shadows(h.name)
	case "attribute":
		if f.text(fn.ChildByFieldName("attribute")) != h.name {
			return false
		}
		return h.moduleRef(f, fn.ChildByFieldName("object"), ns)
	}
	return false
}

// namesClass reports whether fn names the class: Cls or m.Cls.
func (h *harvester) namesClass(f *File, fn *sitter.Node, ns *names) bool {
	switch fn.Kind() {
	case "identifier":
		return f.text(fn) == h.cls
	case "attribute":
		return f.text(fn.ChildByFieldName("attribute")) == h.cls && h.moduleRef(f, fn.ChildByFieldName("object"), ns)
	}
	return false
}

// moduleRef reports whether o can name the module under test: its name, or
// any name a module-level import binds (import more_itertools as mi), or a
// dotted path ending in one.
func (h *harvester) moduleRef(f *File, o *sitter.Node, ns *names) bool {
	if o == nil {
		return false
	}
	switch o.Kind() {
	case "identifier":
		name := f.text(o)
		switch name {
		case h.module:
			return true
		case "self", "cls":
			return false
		}
		if e, _ := ns.lookup(name); e != nil {
			return false // a local value, not a module
		}
		return importedNames(f)[name]
	case "attribute":
		return f.text(o.ChildByFieldName("attribute")) == h.module || h.moduleRef(f, o.ChildByFieldName("object"), ns)
	}
	return false
}

// importedNames are the names a file's imports bind at any level.
func importedNames(f *File) map[string]bool {
	if f.imported != nil {
		return f.imported
	}
	f.imported = map[string]bool{}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch n.Kind() {
		case "import_statement", "import_from_statement":
			from := n.ChildByFieldName("module_name")
			for i := uint(0); i < n.NamedChildCount(); i++ {
				c := n.NamedChild(i)
				if from != nil && c.StartByte() == from.StartByte() {
					continue
				}
				switch c.Kind() {
				case "aliased_import":
					f.imported[f.text(c.ChildByFieldName("alias"))] = true
				case "dotted_name":
					f.imported[strings.SplitN(f.text(c), ".", 2)[0]] = true
				}
			}
			return
		case "function_definition", "class_definition", "block", "module", "decorated_definition",
			"if_statement", "try_statement", "with_statement", "else_clause", "except_clause", "elif_clause", "finally_clause":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				walk(n.NamedChild(i))
			}
		}
	}
	walk(f.root)
	return f.imported
}

// receiver renders the object a method is called on: Cls(...) built from
// literal-ish arguments, a name bound once to such a call, or Cls itself.
func (h *harvester) receiver(f *File, o *sitter.Node, ns *names, r *resolver, depth int) (string, *Call, bool) {
	if depth > 8 {
		return "", nil, false
	}
	switch o.Kind() {
	case "parenthesized_expression":
		if o.NamedChildCount() == 1 {
			return h.receiver(f, o.NamedChild(0), ns, r, depth+1)
		}
	case "call":
		fn := o.ChildByFieldName("function")
		if fn == nil {
			return "", nil, false
		}
		callee := h.cls
		if !h.namesClass(f, fn, ns) {
			// A class method that builds one: Version.parse("1.0").
			if fn.Kind() != "attribute" || !h.namesClass(f, fn.ChildByFieldName("object"), ns) {
				return "", nil, false
			}
			attr := f.text(fn.ChildByFieldName("attribute"))
			if attr == h.name {
				return "", nil, false
			}
			callee = h.cls + "." + attr
		}
		args := o.ChildByFieldName("arguments")
		if args == nil || args.Kind() != "argument_list" {
			return "", nil, false
		}
		var in Input
		if !h.arguments(f, args, r, &in) {
			return "", nil, false
		}
		c := &Call{Callee: callee, Args: in.Args, Kwargs: in.Kwargs}
		return c.String(), c, true
	case "identifier", "attribute":
		if h.namesClass(f, o, ns) {
			return h.cls, nil, true
		}
		if o.Kind() == "attribute" && f.text(o.ChildByFieldName("object")) == "self" {
			// self.b, bound in setUp. A test that rebinds or mutates
			// self.b is not seen: the receiver is the fixture as built.
			if e, owner := ns.fixture(f.text(o.ChildByFieldName("attribute"))); e != nil {
				return h.receiver(f, e, owner, r, depth+1)
			}
		}
		if o.Kind() == "identifier" {
			if e, owner := ns.object(f.text(o)); e != nil {
				rt, rc, ok := h.receiver(f, e, owner, r, depth+1)
				if steps := r.stepsIn(owner, f.text(o)); ok && rc != nil && len(steps) > 0 {
					// q = Queue(); q.put(1); q.get(): the object as the
					// test's own calls left it. It is no longer a plain
					// constructor call (ReceiverCall).
					if calls, ok := r.stepCalls(owner, steps, depth); ok {
						return built(rt, calls), nil, true
					}
				}
				return rt, rc, ok
			}
		}
	}
	return "", nil, false
}

// parametrize reads one @pytest.mark.parametrize("a,b", [...]) decorator
// into rows; nil when the decorator is something else or its table is not
// literal.
func (h *harvester) parametrize(f *File, d *sitter.Node, ns *names) []map[string]string {
	if d.NamedChildCount() == 0 {
		return nil
	}
	c := d.NamedChild(0)
	if c.Kind() != "call" || !strings.HasSuffix(f.text(c.ChildByFieldName("function")), "parametrize") {
		return nil
	}
	args := c.ChildByFieldName("arguments")
	var pos []*sitter.Node
	for i := uint(0); args != nil && i < args.NamedChildCount(); i++ {
		a := args.NamedChild(i)
		switch a.Kind() {
		case "keyword_argument":
			switch f.text(a.ChildByFieldName("name")) {
			case "argnames":
				pos = append([]*sitter.Node{a.ChildByFieldName("value")}, pos...)
			case "argvalues":
				pos = append(pos, a.ChildByFieldName("value"))
			}
		case "comment":
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 {
		return nil
	}
	var params []string
	switch n := pos[0]; n.Kind() {
	case "string":
		s, _, ok := f.stringValue(n)
		if !ok {
			return nil
		}
		for _, p := range strings.Split(s, ",") {
			params = append(params, strings.TrimSpace(p))
		}
	case "list", "tuple":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			s, _, ok := f.stringValue(n.NamedChild(i))
			if !ok {
				return nil
			}
			params = append(params, s)
		}
	default:
		return nil
	}
	return h.table(f, pos[1], params, ns, true)
}

// table reads a literal table into rows binding names: each element is a
// tuple or list of len(names) values, or the value itself for one name.
func (h *harvester) table(f *File, t *sitter.Node, params []string, ns *names, pytest bool) []map[string]string {
	owner := ns
	for depth := 0; t != nil && t.Kind() == "identifier" && depth < 8; depth++ {
		t, owner = ns.lookup(f.text(t))
	}
	if t == nil || (t.Kind() != "list" && t.Kind() != "tuple") || len(params) == 0 {
		return nil
	}
	var rows []map[string]string
	for i := uint(0); i < t.NamedChildCount() && len(rows) < maxRows; i++ {
		e := t.NamedChild(i)
		if e.Kind() == "comment" {
			continue
		}
		if pytest && e.Kind() == "call" && strings.HasSuffix(f.text(e.ChildByFieldName("function")), "param") {
			e = e.ChildByFieldName("arguments") // pytest.param(1, 2, id="x"): the positional ones
		}
		var vals []*sitter.Node
		if len(params) == 1 && e.Kind() != "argument_list" {
			vals = []*sitter.Node{e}
		} else if k := e.Kind(); k == "tuple" || k == "list" || k == "argument_list" || k == "parenthesized_expression" {
			for j := uint(0); j < e.NamedChildCount(); j++ {
				if v := e.NamedChild(j); v.Kind() != "keyword_argument" && v.Kind() != "comment" {
					vals = append(vals, v)
				}
			}
		}
		if len(vals) != len(params) {
			continue
		}
		row := map[string]string{}
		for j, v := range vals {
			r := newResolver(owner, nil)
			if text, ok := r.expr(v); ok && len(r.imps) == 0 {
				row[params[j]] = paren(v, text)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// loopRows reads `for a, b in [(1, 2), ...]:` into rows; nil when the loop
// is over something else.
func (h *harvester) loopRows(f *File, n *sitter.Node, ns *names) []map[string]string {
	left := n.ChildByFieldName("left")
	if left == nil {
		return nil
	}
	var params []string
	switch left.Kind() {
	case "identifier":
		params = []string{f.text(left)}
	case "pattern_list", "tuple_pattern", "list_pattern":
		for i := uint(0); i < left.NamedChildCount(); i++ {
			c := left.NamedChild(i)
			if c.Kind() != "identifier" {
				return nil
			}
			params = append(params, f.text(c))
		}
	default:
		return nil
	}
	return h.table(f, n.ChildByFieldName("right"), params, ns, false)
}

// product combines the rows of nested tables, bounded by maxRows.
func product(a, b []map[string]string) []map[string]string {
	var out []map[string]string
	for _, x := range a {
		for _, y := range b {
			if len(out) >= maxRows {
				return out
			}
			m := make(map[string]string, len(x)+len(y))
			for k, v := range x {
				m[k] = v
			}
			for k, v := range y {
				m[k] = v
			}
			out = append(out, m)
		}
	}
	return out
}

// expectsRaise reports whether the call n sits in a with block that
// expects an exception: pytest.raises(...), self.assertRaises(...),
// assertRaisesRegex, within the test function holding it.
func expectsRaise(f *File, n *sitter.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda", "class_definition":
			return false
		case "with_statement":
			for i := uint(0); i < p.NamedChildCount(); i++ {
				c := p.NamedChild(i)
				if c.Kind() == "with_clause" && raisesRe.Match(f.src[c.StartByte():c.EndByte()]) {
					return true
				}
			}
		}
	}
	return false
}

// raisesRe finds a context manager that expects an exception.
var raisesRe = regexp.MustCompile(`(?:^|[^\w])(?:raises|assertRaises|assertRaisesRegexp?)\s*\(`)
