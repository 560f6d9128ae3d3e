package gosource

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Value is one argument as JSON would carry it: string, int64 (uint64
// above MaxInt64), float64, bool, nil, []any, map[string]any. Two Go
// shapes stand beside those: a []byte conversion ([]byte("x"), a fuzz
// corpus's []byte) is a []byte, which encoding/json writes as the base64
// string it decodes back into a []byte parameter; and an argument built by
// a constructor of the package (w in v.LessThan(w), w :=
// NewVersion("1.3")) is a *Ctor, which JSON cannot carry: the caller
// builds it in the harness or drops the call.
type Value = any

// Call is one call of a package function or method found in the tests.
type Call struct {
	// Args holds one value per parameter of the callee; the arguments of
	// a variadic parameter are folded into a trailing []any.
	Args []Value
	// Receiver is what a method is called on; nil for a function.
	Receiver *Ctor
	// Pos is where the input is written: the call ("version_test.go:42"),
	// the table row or f.Add seed it came from, or a corpus file
	// ("testdata/fuzz/FuzzParse/4f3c...").
	Pos string
	// Kind says how it was found: KindTest, KindTable, KindFuzzSeed,
	// KindFuzzCorpus or KindExample.
	Kind string
}

// Ctor says how a value of a package type is built.
type Ctor struct {
	// Type is the package type built ("Version").
	Type string
	// Func is the constructor called (NewVersion), with its arguments as
	// for Call.Args; "" when the value is written as a literal.
	Func string
	Args []Value
	// Literal holds the fields of a composite literal (Version{Major: 1}
	// or a zero `var v Version`), keyed by field name.
	Literal map[string]Value
	// Value holds a value of a named type that is not a struct: a
	// constant (KindDir), a conversion (pathKind(3)), a []string of a
	// named slice type.
	Value Value
	// Variadic says Func's last parameter is variadic: its arguments are
	// the last of Args, one list (New(opts...)).
	Variadic bool `json:",omitempty"`
	// Then are the type's own methods a test chains on what Func built,
	// each returning the type (gojsonq.New().FromString(s).Select("name")).
	Then []Step `json:",omitempty"`
}

// Step is one method chained on a constructed value: its name and
// arguments.
type Step struct {
	Method string
	Args   []Value
	// Variadic says the method's last parameter is variadic: its
	// arguments are the last of Args, one list.
	Variadic bool `json:",omitempty"`
}

// maxChain bounds the methods chained on one constructed value.
const maxChain = 6

// Kinds of Call.
const (
	KindTest       = "test_call"   // a call in a Test or Benchmark function, or a helper it calls
	KindTable      = "table"       // a call fed by a loop over a table of values
	KindFuzzSeed   = "fuzz_seed"   // an f.Add seed reaching the call through f.Fuzz
	KindFuzzCorpus = "fuzz_corpus" // a testdata/fuzz corpus file reaching it
	KindExample    = "example"     // a call in an Example function
)

// Bounds on the harvest of one package.
const (
	maxCalls    = 500     // calls kept per function
	maxCtors    = 500     // constructor calls kept per type
	maxSteps    = 2000000 // statements and calls visited in all
	maxDepth    = 3       // helpers inlined inside one another
	maxRows     = 2000    // elements one loop is expanded over
	maxLiterals = 200     // literals kept per kind
	maxLitBytes = 4 << 10 // bytes of a kept string literal
)

// Calls returns the calls of fn found in the tests and Example functions,
// in the order the files and functions are written, without duplicates,
// at most 500. fn is a package function "F" or a method "T.M" (also
// written "(*T).M"). A call is kept only when every argument, and the
// receiver of a method, is known without running code.
func (p *Package) Calls(fn string) []Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.harvest()
	return append([]Call(nil), p.calls[normKey(fn)]...)
}

// CtorCalls returns the calls of constructors of typeName, and composite
// literals of it, that the tests make with known arguments: receivers for
// a method that no test calls directly.
func (p *Package) CtorCalls(typeName string) []Ctor {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.harvest()
	return append([]Ctor(nil), p.ctors[typeName]...)
}

func (p *Package) recordCtor(typ string, c *Ctor) {
	if p.ctors == nil || len(p.ctors[typ]) >= maxCtors {
		return
	}
	key, err := json.Marshal(c)
	if err != nil {
		return
	}
	if p.ctorKey[typ] == nil {
		p.ctorKey[typ] = map[string]bool{}
	}
	if p.ctorKey[typ][string(key)] {
		return
	}
	p.ctorKey[typ][string(key)] = true
	p.ctors[typ] = append(p.ctors[typ], *c)
}

func (p *Package) record(key string, c Call) {
	if len(p.calls[key]) >= maxCalls {
		return
	}
	k, err := json.Marshal(struct {
		A []Value
		R *Ctor
	}{c.Args, c.Receiver})
	if err != nil {
		return
	}
	if p.seen[key] == nil {
		p.seen[key] = map[string]bool{}
	}
	if p.seen[key][string(k)] {
		return
	}
	p.seen[key][string(k)] = true
	p.calls[key] = append(p.calls[key], c)
}

// harvest walks every test, benchmark, fuzz and example function once.
func (p *Package) harvest() {
	if p.done {
		return
	}
	p.done = true
	p.calls = map[string][]Call{}
	p.seen = map[string]map[string]bool{}
	p.ctors = map[string][]Ctor{}
	p.ctorKey = map[string]map[string]bool{}
	w := &walker{p: p, active: map[ast.Node]bool{}}
	for _, u := range []*unit{p.in, p.ext} {
		for _, f := range u.files {
			if !f.test {
				continue
			}
			for _, d := range f.ast.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || fd.Recv != nil {
					continue
				}
				kind := ""
				switch n := fd.Name.Name; {
				case hasTestPrefix(n, "Test") && n != "TestMain", hasTestPrefix(n, "Benchmark"):
					kind = KindTest
				case hasTestPrefix(n, "Example"):
					kind = KindExample
				case hasTestPrefix(n, "Fuzz"):
					kind = KindTest
				default:
					continue
				}
				sc := scope{u: u, f: f, env: newEnv(nil, false), iota: -1}
				c := ctx{kind: kind}
				if hasTestPrefix(fd.Name.Name, "Fuzz") {
					c.fz = &fuzzTarget{name: fd.Name.Name}
					names, _, _ := params(fd.Type)
					if len(names) > 0 {
						c.fz.fname = names[0]
					}
				}
				w.stmts(fd.Body.List, sc, c)
			}
		}
	}
}

// hasTestPrefix reports whether name is a test function name of go test:
// the prefix, then nothing or a non-lowercase letter.
func hasTestPrefix(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	rest := name[len(prefix):]
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

type walker struct {
	p      *Package
	steps  int
	active map[ast.Node]bool // helpers being inlined, against recursion
	// bindOnly walkers bind names and find no calls: they evaluate a
	// helper's result (returnValue).
	bindOnly bool
}

// ctx is what the enclosing code says about the calls found: how their
// inputs were found and where they are written.
type ctx struct {
	kind  string
	row   token.Pos // the table row or seed
	place string    // a corpus file, when the input is one
	site  token.Pos // the outermost call of an inlined helper
	depth int
	fz    *fuzzTarget
}

type fuzzTarget struct {
	name  string // FuzzX
	fname string // the *testing.F parameter
	seeds []seed
}

type seed struct {
	vals []val
	pos  token.Pos
}

func (c ctx) withKind(k string) ctx {
	if c.kind == KindTest {
		c.kind = k
	}
	return c
}

func (w *walker) tick() bool {
	w.steps++
	return w.steps <= maxSteps
}

// term says how a statement ends the statements after it: a row whose
// `if tt.skip { continue }` is taken reaches no call after it.
type term int

const (
	flows   term = iota
	breaks       // break: leaves the switch or loop
	returns      // return, continue, goto, panic, t.Fatal, t.Skip
)

func (w *walker) stmts(list []ast.Stmt, sc scope, c ctx) term {
	for _, s := range list {
		if !w.tick() {
			return returns
		}
		if t := w.stmt(s, sc, c); t != flows {
			return t
		}
	}
	return flows
}

func (w *walker) block(b *ast.BlockStmt, sc scope, c ctx, cond bool) term {
	if b == nil {
		return flows
	}
	inner := sc
	inner.env = newEnv(sc.env, cond)
	return w.stmts(b.List, inner, c)
}

// stops reports a call after which a test goes no further.
func stops(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := unparen(call.Fun).(type) {
	case *ast.Ident:
		return f.Name == "panic"
	case *ast.SelectorExpr:
		switch f.Sel.Name {
		case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return true
		}
	}
	return false
}

// stmt walks one statement for the calls in it, binds the names it
// writes, and says how it ends the statements after it.
func (w *walker) stmt(s ast.Stmt, sc scope, c ctx) term {
	switch s := s.(type) {
	case *ast.ExprStmt:
		w.expr(s.X, sc, c)
		if stops(s.X) {
			return returns
		}
	case *ast.BranchStmt:
		return branchTerm(s)
	case *ast.AssignStmt:
		w.assignStmt(s, sc, c)
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			w.decl(gd, sc, c)
		}
	case *ast.RangeStmt:
		w.expr(s.X, sc, c)
		w.rangeStmt(s, sc, c)
	case *ast.ForStmt:
		w.forStmt(s, sc, c)
	case *ast.IfStmt:
		return w.ifStmt(s, sc, c)
	case *ast.SwitchStmt:
		if t := w.switchStmt(s, sc, c); t == returns {
			return t
		}
	case *ast.TypeSwitchStmt:
		w.typeSwitchStmt(s, sc, c)
	case *ast.SelectStmt:
		w.selectStmt(s, sc, c)
	case *ast.BlockStmt:
		return w.block(s, sc, c, false)
	case *ast.LabeledStmt:
		return w.stmt(s.Stmt, sc, c)
	case *ast.GoStmt:
		w.expr(s.Call, sc, c)
	case *ast.DeferStmt:
		w.expr(s.Call, sc, c)
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			w.expr(r, sc, c)
		}
		return returns
	case *ast.SendStmt:
		w.expr(s.Chan, sc, c)
		w.expr(s.Value, sc, c)
	case *ast.IncDecStmt:
		if id := rootIdent(s.X); id != nil {
			sc.env.assign(id.Name, unknown)
		}
	}
	return flows
}

// branchTerm says how break, continue, goto and fallthrough end what
// follows: break leaves the switch or loop, fallthrough goes on, the
// others reach nothing after them.
func branchTerm(s *ast.BranchStmt) term {
	switch s.Tok {
	case token.BREAK:
		return breaks
	case token.FALLTHROUGH:
		return flows
	}
	return returns
}

// assignStmt walks the right-hand sides and the written expressions that
// are not plain names (m[F(x)] = v), then binds the names.
func (w *walker) assignStmt(s *ast.AssignStmt, sc scope, c ctx) {
	for _, r := range s.Rhs {
		w.expr(r, sc, c)
	}
	for _, l := range s.Lhs {
		if _, ok := l.(*ast.Ident); !ok {
			w.expr(l, sc, c)
		}
	}
	w.assign(s, sc)
}

// forStmt walks a three-clause loop once, in a scope whose names may
// change on each turn: the init, the post statement, the condition, the
// body.
func (w *walker) forStmt(s *ast.ForStmt, sc scope, c ctx) {
	inner := sc
	inner.env = newEnv(sc.env, true)
	if s.Init != nil {
		w.stmt(s.Init, inner, c)
	}
	if s.Post != nil {
		w.stmt(s.Post, inner, c)
	}
	if s.Cond != nil {
		w.expr(s.Cond, inner, c)
	}
	w.block(s.Body, inner, c, true)
}

// ifStmt walks an if: a condition known without running code takes its
// one branch, whose end is the statement's; otherwise both branches are
// walked as maybe taken.
func (w *walker) ifStmt(s *ast.IfStmt, sc scope, c ctx) term {
	inner := sc
	inner.env = newEnv(sc.env, false)
	if s.Init != nil {
		w.stmt(s.Init, inner, c)
	}
	w.expr(s.Cond, inner, c)
	cond, known := w.p.eval(s.Cond, tref{}, inner).(*cval)
	if known && cond.c.Kind() == constant.Bool {
		if constant.BoolVal(cond.c) {
			return w.block(s.Body, inner, c, false)
		} else if s.Else != nil {
			return w.stmt(s.Else, inner, c)
		}
		return flows
	}
	w.block(s.Body, inner, c, true)
	if s.Else != nil {
		inner.env = newEnv(inner.env, true)
		w.stmt(s.Else, inner, c)
	}
	return flows
}

// typeSwitchStmt walks a type switch: its init and assignment, then
// every clause.
func (w *walker) typeSwitchStmt(s *ast.TypeSwitchStmt, sc scope, c ctx) {
	inner := sc
	inner.env = newEnv(sc.env, false)
	if s.Init != nil {
		w.stmt(s.Init, inner, c)
	}
	w.stmt(s.Assign, inner, c)
	w.clauses(s.Body, inner, c)
}

// selectStmt walks each case of a select, its communication and its
// body, as maybe taken.
func (w *walker) selectStmt(s *ast.SelectStmt, sc scope, c ctx) {
	for _, cl := range s.Body.List {
		if cc, ok := cl.(*ast.CommClause); ok {
			inner := sc
			inner.env = newEnv(sc.env, true)
			if cc.Comm != nil {
				w.stmt(cc.Comm, inner, c)
			}
			w.stmts(cc.Body, inner, c)
		}
	}
}

// assign binds the names an assignment writes.
func (w *walker) assign(s *ast.AssignStmt, sc scope) {
	p := w.p
	set := func(l ast.Expr, v val) {
		id, ok := l.(*ast.Ident)
		if !ok {
			if r := rootIdent(l); r != nil {
				sc.env.assign(r.Name, unknown)
			}
			return
		}
		if s.Tok == token.DEFINE {
			if b, ok := sc.env.vars[id.Name]; ok {
				// := redeclaring a name of this block assigns it.
				b.v = v
				return
			}
			sc.env.define(id.Name, v)
			return
		}
		sc.env.assign(id.Name, v)
	}
	switch {
	case s.Tok != token.DEFINE && s.Tok != token.ASSIGN:
		for _, l := range s.Lhs {
			set(l, unknown)
		}
	case len(s.Lhs) == len(s.Rhs):
		vals := make([]val, len(s.Rhs))
		for i, r := range s.Rhs {
			vals[i] = p.eval(r, tref{}, sc)
		}
		for i, l := range s.Lhs {
			set(l, vals[i])
		}
	case len(s.Rhs) == 1 && len(s.Lhs) == 2:
		// v, err := NewVersion("1.2.3")
		v := p.eval(s.Rhs[0], tref{}, sc)
		if _, ok := v.(*ctorv); !ok {
			v = unknown
		}
		set(s.Lhs[0], v)
		set(s.Lhs[1], unknown)
	default:
		for _, l := range s.Lhs {
			set(l, unknown)
		}
	}
}

func (w *walker) decl(gd *ast.GenDecl, sc scope, c ctx) {
	p := w.p
	switch gd.Tok {
	case token.TYPE:
		for _, sp := range gd.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok {
				sc.env.define(ts.Name.Name, &localType{spec: ts, file: sc.f, env: sc.env})
			}
		}
	case token.VAR, token.CONST:
		var typ ast.Expr
		var exprs []ast.Expr
		for i, sp := range gd.Specs {
			vs, ok := sp.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for _, v := range vs.Values {
				w.expr(v, sc, c)
			}
			if gd.Tok == token.VAR || len(vs.Values) > 0 {
				typ, exprs = vs.Type, vs.Values
			}
			inner := sc
			if gd.Tok == token.CONST {
				inner.iota = int64(i)
			}
			for j, n := range vs.Names {
				var v val = unknown
				switch {
				case j < len(exprs) && len(exprs) == len(vs.Names):
					var hint tref
					if typ != nil {
						hint = sc.tref(typ)
					}
					v = p.eval(exprs[j], hint, inner)
					if typ != nil {
						v = p.convert(v, hint)
					}
				case len(exprs) == 0 && typ != nil:
					v = p.zero(sc.tref(typ))
				}
				sc.env.define(n.Name, v)
			}
		}
	}
}

// rangeStmt expands a loop over a table of known values: the body is
// walked once per element with the loop variables bound to it.
func (w *walker) rangeStmt(s *ast.RangeStmt, sc scope, c ctx) {
	p := w.p
	xv := p.eval(s.X, tref{}, sc)
	bind := func(k, v val, pos token.Pos) {
		inner := sc
		inner.env = newEnv(sc.env, true)
		set := func(e ast.Expr, x val) {
			if e == nil {
				return
			}
			id, ok := e.(*ast.Ident)
			if !ok {
				return
			}
			if s.Tok == token.DEFINE {
				inner.env.define(id.Name, x)
			} else {
				sc.env.assign(id.Name, unknown)
			}
		}
		set(s.Key, k)
		set(s.Value, v)
		cc := c
		if pos.IsValid() {
			cc = c.withKind(KindTable)
			if !cc.row.IsValid() || cc.kind == KindTable {
				cc.row = pos
			}
		}
		w.block(s.Body, inner, cc, false)
	}
	switch x := xv.(type) {
	case *lval:
		for i, e := range x.elems {
			if i >= maxRows || !w.tick() {
				break
			}
			bind(&cval{constant.MakeInt64(int64(i)), "int"}, e, x.pos[i])
		}
		if len(x.elems) > 0 {
			return
		}
	case *mval:
		for i := range x.keys {
			if i >= maxRows || !w.tick() {
				break
			}
			bind(x.keys[i], x.vals[i], x.pos[i])
		}
		if len(x.keys) > 0 {
			return
		}
	}
	bind(unknown, unknown, token.NoPos)
}

func (w *walker) switchStmt(s *ast.SwitchStmt, sc scope, c ctx) term {
	p := w.p
	inner := sc
	inner.env = newEnv(sc.env, false)
	if s.Init != nil {
		w.stmt(s.Init, inner, c)
	}
	var tag *cval
	if s.Tag != nil {
		w.expr(s.Tag, inner, c)
		tag, _ = p.eval(s.Tag, tref{}, inner).(*cval)
	} else {
		tag = &cval{constant.MakeBool(true), ""}
	}
	if tag != nil {
		// Take the one clause a known tag selects, when every case
		// before it is known too.
		var def *ast.CaseClause
		for _, cl := range s.Body.List {
			cc, ok := cl.(*ast.CaseClause)
			if !ok {
				continue
			}
			if cc.List == nil {
				def = cc
				continue
			}
			for _, e := range cc.List {
				v, ok := p.eval(e, tref{}, inner).(*cval)
				if !ok || !comparable(v.c, tag.c) {
					w.clauses(s.Body, inner, c)
					return flows
				}
				if constant.Compare(v.c, token.EQL, tag.c) {
					return w.clause(cc, inner, c, false)
				}
			}
		}
		if def != nil {
			return w.clause(def, inner, c, false)
		}
		return flows
	}
	w.clauses(s.Body, inner, c)
	return flows
}

func (w *walker) clauses(b *ast.BlockStmt, sc scope, c ctx) {
	for _, cl := range b.List {
		if cc, ok := cl.(*ast.CaseClause); ok {
			w.clause(cc, sc, c, true)
		}
	}
}

func (w *walker) clause(cc *ast.CaseClause, sc scope, c ctx, cond bool) term {
	for _, e := range cc.List {
		w.expr(e, sc, c)
	}
	inner := sc
	inner.env = newEnv(sc.env, cond)
	return w.stmts(cc.Body, inner, c)
}

// expr finds the calls in e, walks the function literals in it (t.Run's
// bodies) and forgets what &x may let a callee change.
func (w *walker) expr(e ast.Expr, sc scope, c ctx) {
	if e == nil || w.bindOnly {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			inner := sc
			inner.env = newEnv(sc.env, true)
			names, _, _ := params(n.Type)
			for _, name := range names {
				inner.env.define(name, unknown)
			}
			w.block(n.Body, inner, c, false)
			return false
		case *ast.CallExpr:
			if !w.tick() {
				return false
			}
			if w.fuzzCall(n, sc, c) {
				return false
			}
			w.expr(n.Fun, sc, c)
			for _, a := range n.Args {
				w.expr(a, sc, c)
			}
			w.call(n, sc, c)
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := n.X.(*ast.Ident); ok {
					sc.env.assign(id.Name, unknown)
				}
			}
		}
		return true
	})
}

// call records a call of a package function or method, or inlines a
// helper the tests define.
func (w *walker) call(x *ast.CallExpr, sc scope, c ctx) {
	p := w.p
	fun := unparen(x.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := sc.env.lookup(id.Name); ok {
			switch fv := b.v.(type) {
			case *fval:
				w.inline(fv.lit.Type, fv.lit.Body, fv.lit, fv.env, fv.file, x, sc, c)
			case *funcRef:
				w.emit(fv.name, nil, fv.decl, x, sc, c)
			}
			return
		}
		if d, ok := sc.u.helpers[id.Name]; ok && !isTestFunc(id.Name) {
			w.inline(d.Type, d.Body, d, nil, sc.u.fileOfDecl(d), x, sc, c)
			return
		}
	}
	if name, d := p.target(fun, sc); d != nil {
		w.emit(name, nil, d, x, sc, c)
		return
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	rv := p.eval(sel.X, tref{}, sc)
	typ := typeOf(rv)
	if typ == "" {
		return
	}
	key := typ + "." + sel.Sel.Name
	d, ok := p.in.funcs[key]
	if !ok {
		return
	}
	if r, ok := receiver(rv); ok {
		w.emit(key, r, d, x, sc, c)
	}
}

func isTestFunc(name string) bool {
	return hasTestPrefix(name, "Test") || hasTestPrefix(name, "Benchmark") || hasTestPrefix(name, "Fuzz") || hasTestPrefix(name, "Example")
}

func (u *unit) fileOfDecl(d ast.Node) *file {
	for _, f := range u.files {
		if f.ast.Pos() <= d.Pos() && d.End() <= f.ast.End() {
			return f
		}
	}
	return nil
}

func (w *walker) emit(key string, recv *Ctor, d *ast.FuncDecl, x *ast.CallExpr, sc scope, c ctx) {
	p := w.p
	if len(p.calls[key]) >= maxCalls {
		return
	}
	args, ok := p.args(d, x, sc)
	if !ok {
		return
	}
	call := Call{Args: args, Receiver: recv, Kind: c.kind}
	switch {
	case c.place != "":
		call.Pos = c.place
	case c.row.IsValid():
		call.Pos = p.pos(c.row)
	case c.site.IsValid():
		call.Pos = p.pos(c.site)
	default:
		call.Pos = p.pos(x.Pos())
	}
	p.record(key, call)
}

// inline walks a helper's body (a function of the test files, or a
// function literal bound to a name) with its parameters bound to the
// call's arguments.
func (w *walker) inline(ft *ast.FuncType, body *ast.BlockStmt, node ast.Node, closure *env, f *file, x *ast.CallExpr, sc scope, c ctx) {
	if body == nil || c.depth >= maxDepth || w.active[node] {
		return
	}
	w.active[node] = true
	defer delete(w.active, node)
	names, _, _ := params(ft)
	vals, ok := w.p.argVals(ft, f, x, sc)
	inner := scope{u: sc.u, f: f, env: newEnv(closure, closure != nil), iota: -1}
	if f == nil {
		inner.f = sc.f
	}
	for i, n := range names {
		var v val = unknown
		if ok && i < len(vals) {
			v = vals[i]
		}
		inner.env.define(n, v)
	}
	c.depth++
	if !c.site.IsValid() {
		c.site = x.Pos()
	}
	w.block(body, inner, c, false)
}

// fuzzCall handles f.Add and f.Fuzz in a Fuzz function: seeds are
// collected, then the fuzz body is walked once per seed and per corpus
// file with its parameters bound to the values.
func (w *walker) fuzzCall(x *ast.CallExpr, sc scope, c ctx) bool {
	if c.fz == nil || c.fz.fname == "" {
		return false
	}
	sel, ok := unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || id.Name != c.fz.fname {
		return false
	}
	p := w.p
	switch sel.Sel.Name {
	case "Add":
		s := seed{pos: x.Pos()}
		if c.row.IsValid() {
			s.pos = c.row
		}
		for _, a := range x.Args {
			w.expr(a, sc, c)
			s.vals = append(s.vals, p.eval(a, tref{}, sc))
		}
		if len(c.fz.seeds) < maxRows {
			c.fz.seeds = append(c.fz.seeds, s)
		}
		return true
	case "Fuzz":
		if len(x.Args) != 1 {
			return false
		}
		var ft *ast.FuncType
		var body *ast.BlockStmt
		var closure *env
		f := sc.f
		switch fn := unparen(x.Args[0]).(type) {
		case *ast.FuncLit:
			ft, body, closure = fn.Type, fn.Body, sc.env
		case *ast.Ident:
			d, ok := sc.u.helpers[fn.Name]
			if !ok {
				return false
			}
			ft, body, f = d.Type, d.Body, sc.u.fileOfDecl(d)
		default:
			return false
		}
		names, types, _ := params(ft)
		if len(names) == 0 {
			return true
		}
		run := func(vals []val, cc ctx) {
			inner := scope{u: sc.u, f: f, env: newEnv(closure, true), iota: -1}
			inner.env.define(names[0], unknown)
			for i, n := range names[1:] {
				var v val = unknown
				if i < len(vals) {
					v = p.convert(vals[i], tref{e: types[i+1], u: sc.u, f: f})
				}
				inner.env.define(n, v)
			}
			w.block(body, inner, cc, false)
		}
		walked := false
		for _, s := range c.fz.seeds {
			if !w.tick() {
				break
			}
			cc := c
			cc.kind, cc.row, cc.fz = KindFuzzSeed, s.pos, nil
			run(s.vals, cc)
			walked = true
		}
		for _, cf := range p.corpus(c.fz.name) {
			if !w.tick() {
				break
			}
			cc := c
			cc.kind, cc.place, cc.fz = KindFuzzCorpus, cf.place, nil
			run(cf.vals, cc)
			walked = true
		}
		if !walked {
			cc := c
			cc.fz = nil
			run(nil, cc)
		}
		return true
	}
	return false
}

type corpusFile struct {
	place string
	vals  []val
}

// corpus reads testdata/fuzz/<target>, skipping files that are not in the
// corpus format.
func (p *Package) corpus(target string) []corpusFile {
	dir := filepath.Join(p.dir, "testdata", "fuzz", target)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []corpusFile
	for _, n := range names {
		if len(out) >= maxCorpus {
			break
		}
		path := filepath.Join(dir, n)
		if st, err := os.Stat(path); err != nil || st.Size() > maxCorpusSize {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		vals, err := parseCorpus(data)
		if err != nil {
			continue
		}
		cf := corpusFile{place: filepath.ToSlash(filepath.Join("testdata", "fuzz", target, n))}
		for _, v := range vals {
			cf.vals = append(cf.vals, fromPublic(v))
		}
		out = append(out, cf)
	}
	return out
}

// fromPublic turns a corpus value back into a val.
func fromPublic(v Value) val {
	switch x := v.(type) {
	case string:
		return &cval{constant.MakeString(x), "string"}
	case []byte:
		return &bval{x}
	case int64:
		return &cval{constant.MakeInt64(x), "int64"}
	case uint64:
		return &cval{constant.MakeUint64(x), "uint64"}
	case float64:
		return &cval{constant.MakeFloat64(x), "float64"}
	case bool:
		return &cval{constant.MakeBool(x), "bool"}
	}
	return unknown
}

// Literals returns the literals written in the test files by kind:
// "string", "int" (rune literals too) and "float", negated where a minus
// sign is written, in the order written, without duplicates, at most 200
// per kind; strings longer than 4 KiB are left out.
func (p *Package) Literals() map[string][]Value {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lits != nil {
		return copyLits(p.lits)
	}
	out := map[string][]Value{"string": {}, "int": {}, "float": {}}
	seen := map[string]map[any]bool{"string": {}, "int": {}, "float": {}}
	add := func(lit *ast.BasicLit, neg bool) {
		c := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
		if neg {
			c = constant.UnaryOp(token.SUB, c, 0)
		}
		var kind string
		var v Value
		switch c.Kind() {
		case constant.String:
			s := constant.StringVal(c)
			if len(s) > maxLitBytes {
				return
			}
			kind, v = "string", s
		case constant.Int:
			n, ok := constant.Int64Val(c)
			if !ok {
				return
			}
			kind, v = "int", n
		case constant.Float:
			f, _ := constant.Float64Val(c)
			kind, v = "float", f
		default:
			return
		}
		if len(out[kind]) >= maxLiterals || seen[kind][v] {
			return
		}
		seen[kind][v] = true
		out[kind] = append(out[kind], v)
	}
	for _, u := range []*unit{p.in, p.ext} {
		for _, f := range u.files {
			if !f.test {
				continue
			}
			for _, d := range f.ast.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
					continue
				}
				ast.Inspect(d, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.UnaryExpr:
						if lit, ok := n.X.(*ast.BasicLit); ok && n.Op == token.SUB && lit.Kind != token.STRING {
							add(lit, true)
							return false
						}
					case *ast.BasicLit:
						add(n, false)
					}
					return true
				})
			}
		}
	}
	p.lits = out
	return copyLits(out)
}

func copyLits(m map[string][]Value) map[string][]Value {
	out := make(map[string][]Value, len(m))
	for k, v := range m {
		out[k] = append([]Value{}, v...)
	}
	return out
}
