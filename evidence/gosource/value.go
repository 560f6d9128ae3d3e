package gosource

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"math"
	"strconv"
	"strings"
)

// Bounds on one evaluated value: a test's giant fixture is not an input
// premise can carry in a row.
const (
	maxString = 64 << 10 // bytes of one string or []byte
	maxElems  = 2000     // elements of one slice, map or table
	maxNodes  = 20000    // values inside one argument
	maxShift  = 512
)

// The evaluator's values. A val is one of these; unknown stands for
// anything the tests compute at run time, and poisons only the call that
// needs it.
type (
	val any
	// cval is a constant, typ the named or predeclared type it has ("" while
	// untyped).
	cval struct {
		c   constant.Value
		typ string
	}
	bval struct{ b []byte }
	nilv struct{}
	lval struct {
		elems []val
		pos   []token.Pos
		typ   string
	}
	mval struct {
		keys, vals []val
		pos        []token.Pos
		typ        string
	}
	sval struct {
		typ   string
		names []string
		vals  []val
		pos   token.Pos
	}
	ctorv struct {
		c   *Ctor
		typ string
	}
	// fval is a function literal bound to a name, or a helper function.
	fval struct {
		lit  *ast.FuncLit
		env  *env
		file *file
	}
	// localType is a type declared inside a function.
	localType struct {
		spec *ast.TypeSpec
		file *file
		env  *env
	}
	// funcRef is a package function used as a value (runTests(t, cases,
	// ToBool)): a helper calling its parameter calls the function.
	funcRef struct {
		name string
		decl *ast.FuncDecl
	}
	unknownv struct{}
)

var unknown val = unknownv{}

func isUnknown(v val) bool { _, ok := v.(unknownv); return ok || v == nil }

// typeOf is the package type a value has, for finding its methods.
func typeOf(v val) string {
	switch x := v.(type) {
	case *cval:
		return x.typ
	case *lval:
		return x.typ
	case *mval:
		return x.typ
	case *sval:
		return x.typ
	case *ctorv:
		return x.typ
	}
	return ""
}

// env is one block's local names. cond marks a block that may run zero or
// many times (a loop body, a branch, a closure): an assignment from inside
// it to a name declared outside makes that name unknown.
type env struct {
	parent *env
	vars   map[string]*binding
	cond   bool
}

type binding struct{ v val }

func newEnv(parent *env, cond bool) *env {
	return &env{parent: parent, vars: map[string]*binding{}, cond: cond}
}

func (e *env) lookup(name string) (*binding, bool) {
	for ; e != nil; e = e.parent {
		if b, ok := e.vars[name]; ok {
			return b, true
		}
	}
	return nil, false
}

func (e *env) has(name string) bool { _, ok := e.lookup(name); return ok }

func (e *env) define(name string, v val) {
	if e == nil || name == "_" || name == "" {
		return
	}
	e.vars[name] = &binding{v: v}
}

// assign writes v into the binding of name, or makes it unknown when the
// write happens in a block that may not run exactly once.
func (e *env) assign(name string, v val) {
	crossed := false
	for s := e; s != nil; s = s.parent {
		if b, ok := s.vars[name]; ok {
			if crossed {
				b.v = unknown
			} else {
				b.v = v
			}
			return
		}
		if s.cond {
			crossed = true
		}
	}
}

// scope is where an expression is evaluated.
type scope struct {
	u    *unit
	f    *file
	env  *env
	iota int64 // -1 outside a constant declaration
}

func (sc scope) tref(e ast.Expr) tref { return tref{e: e, u: sc.u, f: sc.f, env: sc.env} }

// constVal evaluates the package constant name of u.
func (p *Package) constVal(u *unit, name string) val {
	if v, ok := u.constMemo[name]; ok {
		return v
	}
	cs, ok := u.consts[name]
	if !ok || cs.expr == nil || u.evalling["c"+name] {
		return unknown
	}
	u.evalling["c"+name] = true
	sc := scope{u: u, f: cs.file, iota: cs.iota}
	var hint tref
	if cs.typ != nil {
		hint = sc.tref(cs.typ)
	}
	v := p.eval(cs.expr, hint, sc)
	if cs.typ != nil {
		v = p.convert(v, hint)
	}
	if _, ok := v.(*cval); !ok {
		v = unknown
	}
	delete(u.evalling, "c"+name)
	u.constMemo[name] = v
	return v
}

// varVal evaluates the package variable name of u, when nothing in the
// unit assigns to it.
func (p *Package) varVal(u *unit, name string) val {
	if v, ok := u.varMemo[name]; ok {
		return v
	}
	vs, ok := u.vars[name]
	if !ok || u.assigned[name] || u.evalling["v"+name] {
		return unknown
	}
	u.evalling["v"+name] = true
	sc := scope{u: u, f: vs.file, iota: -1}
	var v val = unknown
	switch {
	case vs.expr != nil:
		var hint tref
		if vs.typ != nil {
			hint = sc.tref(vs.typ)
		}
		v = p.eval(vs.expr, hint, sc)
		if vs.typ != nil {
			v = p.convert(v, hint)
		}
	case vs.typ != nil:
		v = p.zero(sc.tref(vs.typ))
	}
	delete(u.evalling, "v"+name)
	u.varMemo[name] = v
	return v
}

// zero is the zero value of a type, where it is a value premise carries.
func (p *Package) zero(t tref) val {
	name, under := p.resolve(t)
	switch x := under.e.(type) {
	case *ast.Ident:
		switch basic(x.Name) {
		case "int", "uint":
			return &cval{constant.MakeInt64(0), name}
		case "float":
			return &cval{constant.MakeFloat64(0), name}
		case "string":
			return &cval{constant.MakeString(""), name}
		case "bool":
			return &cval{constant.MakeBool(false), name}
		}
	case *ast.StructType:
		return &sval{typ: name}
	case *ast.StarExpr, *ast.MapType, *ast.InterfaceType:
		return nilv{}
	case *ast.ArrayType:
		if x.Len == nil {
			return nilv{}
		}
	}
	return unknown
}

// ident evaluates a name: a local, iota, a predeclared constant, or a
// package-level constant or variable.
func (p *Package) ident(x *ast.Ident, sc scope) val {
	if b, ok := sc.env.lookup(x.Name); ok {
		return b.v
	}
	switch x.Name {
	case "iota":
		if sc.iota >= 0 {
			return &cval{constant.MakeInt64(sc.iota), ""}
		}
	case "true", "false":
		return &cval{constant.MakeBool(x.Name == "true"), ""}
	case "nil":
		return nilv{}
	}
	for _, u := range p.visible(sc) {
		if _, ok := u.consts[x.Name]; ok {
			return p.constVal(u, x.Name)
		}
		if _, ok := u.vars[x.Name]; ok {
			return p.varVal(u, x.Name)
		}
	}
	if name, d := p.target(x, sc); d != nil {
		return &funcRef{name, d}
	}
	return unknown
}

// visible lists the units whose package-level names a file sees unqualified.
func (p *Package) visible(sc scope) []*unit {
	if sc.u == nil {
		return nil
	}
	if sc.u != p.in && sc.f != nil && sc.f.dot {
		return []*unit{sc.u, p.in}
	}
	return []*unit{sc.u}
}

// isPkg reports whether id names the package under test in an external
// test file.
func isPkg(id *ast.Ident, sc scope) bool {
	return sc.f != nil && sc.f.pkgName != "" && id.Name == sc.f.pkgName && !sc.env.has(id.Name)
}

// eval computes e in sc, where hint is the type the context gives it (a
// parameter's, an element's, a field's) or the zero tref.
func (p *Package) eval(e ast.Expr, hint tref, sc scope) val {
	v := p.eval1(e, hint, sc)
	if c, ok := v.(*cval); ok && c.typ == "" && hint.e != nil {
		return p.convert(v, hint)
	}
	return v
}

func (p *Package) eval1(e ast.Expr, hint tref, sc scope) val {
	switch x := e.(type) {
	case *ast.BasicLit:
		c := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		if c.Kind() == constant.Unknown || c.Kind() == constant.String && len(constant.StringVal(c)) > maxString {
			return unknown
		}
		return &cval{c, ""}
	case *ast.Ident:
		return p.ident(x, sc)
	case *ast.ParenExpr:
		return p.eval(x.X, hint, sc)
	case *ast.UnaryExpr:
		return p.unary(x, hint, sc)
	case *ast.BinaryExpr:
		return p.binary(x, sc)
	case *ast.CompositeLit:
		return p.composite(x, hint, sc)
	case *ast.CallExpr:
		return p.callValue(x, sc)
	case *ast.SelectorExpr:
		return p.selector(x, sc)
	case *ast.IndexExpr:
		return p.index(x, sc)
	case *ast.StarExpr:
		return p.eval(x.X, tref{}, sc)
	case *ast.FuncLit:
		return &fval{lit: x, env: sc.env, file: sc.f}
	}
	return unknown
}

func (p *Package) unary(x *ast.UnaryExpr, hint tref, sc scope) val {
	if x.Op == token.AND {
		if s, ok := hint.e.(*ast.StarExpr); ok {
			hint.e = s.X
		}
		return p.eval(x.X, hint, sc)
	}
	c, ok := p.eval(x.X, hint, sc).(*cval)
	if !ok {
		return unknown
	}
	switch x.Op {
	case token.SUB, token.ADD:
		if c.c.Kind() != constant.Int && c.c.Kind() != constant.Float {
			return unknown
		}
	case token.XOR:
		if c.c.Kind() != constant.Int {
			return unknown
		}
		// ^x of a typed unsigned constant needs its size; of a signed or
		// untyped one it is -x-1.
		if basic(c.typ) == "uint" {
			return unknown
		}
	case token.NOT:
		if c.c.Kind() != constant.Bool {
			return unknown
		}
	default:
		return unknown
	}
	return &cval{constant.UnaryOp(x.Op, c.c, 0), c.typ}
}

func (p *Package) binary(x *ast.BinaryExpr, sc scope) val {
	xv, ok1 := p.eval(x.X, tref{}, sc).(*cval)
	yv, ok2 := p.eval(x.Y, tref{}, sc).(*cval)
	if !ok1 || !ok2 {
		return unknown
	}
	a, b := xv.c, yv.c
	typ := xv.typ
	if typ == "" {
		typ = yv.typ
	}
	switch x.Op {
	case token.SHL, token.SHR:
		s, ok := constant.Uint64Val(constant.ToInt(b))
		if !ok || s > maxShift || constant.ToInt(a).Kind() != constant.Int {
			return unknown
		}
		return &cval{constant.Shift(constant.ToInt(a), x.Op, uint(s)), xv.typ}
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if !comparable(a, b) {
			return unknown
		}
		return &cval{constant.MakeBool(constant.Compare(a, x.Op, b)), ""}
	case token.LAND, token.LOR:
		if a.Kind() != constant.Bool || b.Kind() != constant.Bool {
			return unknown
		}
		return &cval{constant.BinaryOp(a, x.Op, b), ""}
	case token.ADD:
		if a.Kind() == constant.String && b.Kind() == constant.String {
			if len(constant.StringVal(a))+len(constant.StringVal(b)) > maxString {
				return unknown
			}
			return &cval{constant.BinaryOp(a, x.Op, b), typ}
		}
	case token.SUB, token.MUL:
	case token.QUO, token.REM:
		if !numeric(a) || !numeric(b) || constant.Sign(b) == 0 {
			return unknown
		}
	case token.AND, token.OR, token.XOR, token.AND_NOT:
		if a.Kind() != constant.Int || b.Kind() != constant.Int {
			return unknown
		}
	default:
		return unknown
	}
	if !numeric(a) || !numeric(b) {
		return unknown
	}
	op := x.Op
	isInt := a.Kind() == constant.Int && b.Kind() == constant.Int && basic(typ) != "float"
	if op == token.QUO && isInt {
		op = token.QUO_ASSIGN // integer division, as Go does for integer constants
	}
	if op == token.REM && !isInt {
		return unknown
	}
	r := constant.BinaryOp(a, op, b)
	if r.Kind() == constant.Int && constant.BitLen(r) > 4*maxShift {
		return unknown
	}
	return &cval{r, typ}
}

func numeric(c constant.Value) bool {
	return c.Kind() == constant.Int || c.Kind() == constant.Float
}

func comparable(a, b constant.Value) bool {
	if numeric(a) && numeric(b) {
		return true
	}
	return a.Kind() == b.Kind() && (a.Kind() == constant.String || a.Kind() == constant.Bool && true)
}

// convert gives v the type t: a constant becomes an integer, a float, a
// string or a []byte as t's underlying type asks; anything else keeps its
// value and takes t's name.
func (p *Package) convert(v val, t tref) val {
	if t.e == nil || isUnknown(v) {
		return v
	}
	name, under := p.resolve(t)
	switch ut := under.e.(type) {
	case *ast.Ident:
		k := basic(ut.Name)
		tn := name
		if tn == "" {
			tn = ut.Name
		}
		switch c := v.(type) {
		case *cval:
			r := convertConst(c.c, k)
			if r == nil {
				return unknown
			}
			return &cval{r, tn}
		case *bval:
			if k == "string" {
				return &cval{constant.MakeString(string(c.b)), tn}
			}
		case *lval:
			if k == "string" {
				// string([]rune{...})
				var b strings.Builder
				for _, e := range c.elems {
					r, ok := e.(*cval)
					if !ok || r.c.Kind() != constant.Int {
						return unknown
					}
					n, ok := constant.Int64Val(r.c)
					if !ok {
						return unknown
					}
					b.WriteRune(rune(n))
				}
				return &cval{constant.MakeString(b.String()), tn}
			}
		}
		if basic(ut.Name) != "" {
			return unknown
		}
		return v
	case *ast.ArrayType:
		if ut.Len == nil {
			if elt, ok := ut.Elt.(*ast.Ident); ok {
				c, isConst := v.(*cval)
				if isConst && c.c.Kind() == constant.String {
					s := constant.StringVal(c.c)
					switch elt.Name {
					case "byte", "uint8":
						return &bval{[]byte(s)}
					case "rune", "int32":
						l := &lval{typ: name}
						for _, r := range s {
							l.elems = append(l.elems, &cval{constant.MakeInt64(int64(r)), "rune"})
							l.pos = append(l.pos, token.NoPos)
						}
						return l
					}
				}
			}
		}
	}
	if name == "" {
		return v
	}
	switch x := v.(type) {
	case *lval:
		c := *x
		c.typ = name
		return &c
	case *mval:
		c := *x
		c.typ = name
		return &c
	case *sval:
		c := *x
		c.typ = name
		return &c
	case *cval:
		return &cval{x.c, name}
	}
	return v
}

func convertConst(c constant.Value, kind string) constant.Value {
	switch kind {
	case "int", "uint":
		if c.Kind() == constant.Float {
			r := constant.ToInt(c)
			if r.Kind() != constant.Int {
				return nil
			}
			return r
		}
		if c.Kind() != constant.Int {
			return nil
		}
		if kind == "uint" && constant.Sign(c) < 0 {
			return nil
		}
		return c
	case "float":
		if !numeric(c) {
			return nil
		}
		return constant.ToFloat(c)
	case "string":
		switch c.Kind() {
		case constant.String:
			return c
		case constant.Int:
			// string(rune)
			n, ok := constant.Int64Val(c)
			if !ok || n < 0 || n > math.MaxInt32 {
				return constant.MakeString("\uFFFD")
			}
			return constant.MakeString(string(rune(n)))
		}
		return nil
	case "bool":
		if c.Kind() != constant.Bool {
			return nil
		}
		return c
	case "":
		return c
	}
	return nil
}

func (p *Package) composite(x *ast.CompositeLit, hint tref, sc scope) val {
	t := hint
	if x.Type != nil {
		t = sc.tref(x.Type)
	}
	// An element of []*T may elide &T.
	if s, ok := t.e.(*ast.StarExpr); ok {
		t.e = s.X
	}
	name, under := p.resolve(t)
	elts := x.Elts
	if len(elts) > maxElems {
		elts = elts[:maxElems]
	}
	elem := func(e ast.Expr, h tref) val {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		return p.eval(e, h, sc)
	}
	switch ut := under.e.(type) {
	case *ast.ArrayType:
		l := &lval{typ: name}
		h := tref{e: ut.Elt, u: under.u, f: under.f, env: under.env}
		for _, e := range elts {
			l.elems = append(l.elems, elem(e, h))
			l.pos = append(l.pos, e.Pos())
		}
		return l
	case *ast.MapType:
		m := &mval{typ: name}
		kh := tref{e: ut.Key, u: under.u, f: under.f, env: under.env}
		vh := tref{e: ut.Value, u: under.u, f: under.f, env: under.env}
		for _, e := range elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				return unknown
			}
			m.keys = append(m.keys, p.eval(kv.Key, kh, sc))
			m.vals = append(m.vals, p.eval(kv.Value, vh, sc))
			m.pos = append(m.pos, e.Pos())
		}
		return m
	case *ast.StructType:
		s := &sval{typ: name, pos: x.Pos()}
		fields := fieldList(ut)
		types := fieldTypes(ut)
		for i, e := range elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				id, ok := kv.Key.(*ast.Ident)
				if !ok {
					return unknown
				}
				var h tref
				for j, f := range fields {
					if f.Name == id.Name {
						h = tref{e: types[j], u: under.u, f: under.f, env: under.env}
					}
				}
				s.names = append(s.names, id.Name)
				s.vals = append(s.vals, p.eval(kv.Value, h, sc))
				continue
			}
			if i >= len(fields) {
				return unknown
			}
			s.names = append(s.names, fields[i].Name)
			s.vals = append(s.vals, p.eval(e, tref{e: types[i], u: under.u, f: under.f, env: under.env}, sc))
		}
		if name != "" && sc.f != nil && sc.f.test && p.pkgType(name) {
			if c, ok := receiver(s); ok {
				p.recordCtor(name, c)
			}
		}
		return s
	}
	// A type premise cannot see (another package's): keyed by names it
	// is a struct, unkeyed a list.
	keyed := 0
	for _, e := range elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if _, ok := kv.Key.(*ast.Ident); ok {
				keyed++
			}
		}
	}
	switch keyed {
	case len(elts):
		s := &sval{typ: name, pos: x.Pos()}
		for _, e := range elts {
			kv := e.(*ast.KeyValueExpr)
			s.names = append(s.names, kv.Key.(*ast.Ident).Name)
			s.vals = append(s.vals, p.eval(kv.Value, tref{}, sc))
		}
		return s
	case 0:
		l := &lval{typ: name}
		for _, e := range elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return unknown
			}
			l.elems = append(l.elems, p.eval(e, tref{}, sc))
			l.pos = append(l.pos, e.Pos())
		}
		return l
	}
	return unknown
}

// isType reports whether e, the function of a call, denotes a type: the
// call is then a conversion.
func (p *Package) isType(e ast.Expr, sc scope) bool {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return p.isType(x.X, sc)
	case *ast.ArrayType, *ast.MapType, *ast.StarExpr, *ast.FuncType, *ast.InterfaceType, *ast.ChanType, *ast.StructType:
		return true
	case *ast.Ident:
		if b, ok := sc.env.lookup(x.Name); ok {
			_, lt := b.v.(*localType)
			return lt
		}
		if basic(x.Name) != "" || x.Name == "any" {
			return true
		}
		_, ok := p.lookupType(x, sc.tref(x))
		return ok
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && isPkg(id, sc) {
			_, ok := p.in.types[x.Sel.Name]
			return ok
		}
	case *ast.IndexExpr:
		return p.isType(x.X, sc)
	case *ast.IndexListExpr:
		return p.isType(x.X, sc)
	}
	return false
}

// callValue evaluates a call: a conversion, a constructor of the package,
// or one of the few pure standard functions tests build inputs with.
func (p *Package) callValue(x *ast.CallExpr, sc scope) val {
	if p.isType(x.Fun, sc) {
		if len(x.Args) != 1 {
			return unknown
		}
		t := sc.tref(x.Fun)
		return p.convert(p.eval(x.Args[0], tref{}, sc), t)
	}
	fun := unparen(x.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok && !sc.env.has(id.Name) && sc.f != nil && !isPkg(id, sc) {
			if path, ok := sc.f.imports[id.Name]; ok {
				return p.stdCall(path, sel.Sel.Name, x, sc)
			}
		}
	}
	if id, ok := fun.(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 && !sc.env.has("new") {
		return p.zero(sc.tref(x.Args[0]))
	}
	if id, ok := fun.(*ast.Ident); ok && id.Name == "len" && len(x.Args) == 1 && !sc.env.has("len") {
		switch a := p.eval(x.Args[0], tref{}, sc).(type) {
		case *cval:
			if a.c.Kind() == constant.String {
				return &cval{constant.MakeInt64(int64(len(constant.StringVal(a.c)))), ""}
			}
		case *lval:
			return &cval{constant.MakeInt64(int64(len(a.elems))), ""}
		case *bval:
			return &cval{constant.MakeInt64(int64(len(a.b))), ""}
		}
		return unknown
	}
	if id, ok := fun.(*ast.Ident); ok && sc.u != nil {
		if b, ok := sc.env.lookup(id.Name); ok {
			if fv, ok := b.v.(*fval); ok {
				return p.returnValue(fv.lit.Type, fv.lit.Body, fv.env, fv.file, x, sc)
			}
			return unknown
		}
		if d, ok := sc.u.helpers[id.Name]; ok && !isTestFunc(id.Name) {
			return p.returnValue(d.Type, d.Body, nil, sc.u.fileOfDecl(d), x, sc)
		}
	}
	if v := p.chained(fun, x, sc); v != nil {
		return v
	}
	name, d := p.target(fun, sc)
	if d == nil {
		return unknown
	}
	typ := ctorType(d)
	if typ == "" {
		return unknown
	}
	args, ok := p.args(d, x, sc)
	if !ok {
		return unknown
	}
	_, _, variadic := params(d.Type)
	c := &Ctor{Func: name, Type: typ, Args: args, Variadic: variadic}
	if sc.f != nil && sc.f.test {
		p.recordCtor(typ, c)
	}
	return &ctorv{c: c, typ: typ}
}

// chained is a method of the package's type called on a constructed value
// of it and returning the type (New().FromString(s), q.Select("name")):
// the constructor's call with the step added; nil when x is no such call.
func (p *Package) chained(fun ast.Expr, x *ast.CallExpr, sc scope) val {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := sel.X.(*ast.Ident); ok && isPkg(id, sc) {
		return nil
	}
	cv, ok := p.eval(sel.X, tref{}, sc).(*ctorv)
	if !ok || cv.c.Func == "" || len(cv.c.Then) >= maxChain {
		return nil
	}
	d := p.in.funcs[cv.typ+"."+sel.Sel.Name]
	if d == nil || d.Recv == nil || !returnsOwn(d, cv.typ) {
		return nil
	}
	args, ok := p.args(d, x, sc)
	if !ok {
		return unknown
	}
	c := *cv.c
	_, _, variadic := params(d.Type)
	c.Then = append(append([]Step(nil), cv.c.Then...), Step{Method: sel.Sel.Name, Args: args, Variadic: variadic})
	if sc.f != nil && sc.f.test {
		p.recordCtor(cv.typ, &c)
	}
	return &ctorv{c: &c, typ: cv.typ}
}

// returnsOwn says whether method d returns one value, of typ or *typ.
func returnsOwn(d *ast.FuncDecl, typ string) bool {
	if d.Type == nil || d.Type.Results == nil || len(d.Type.Results.List) != 1 || len(d.Type.Results.List[0].Names) > 1 {
		return false
	}
	t := d.Type.Results.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.Name == typ
}

// target finds the package function a call's function expression names,
// from an in-package test (F, F[int]) or an external one (pkg.F, or F
// after a dot import).
func (p *Package) target(fun ast.Expr, sc scope) (string, *ast.FuncDecl) {
	fun = unparen(fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	switch x := unparen(fun).(type) {
	case *ast.Ident:
		if sc.env.has(x.Name) || sc.u == nil {
			return "", nil
		}
		if sc.u == p.in || sc.f != nil && sc.f.dot {
			if _, helper := sc.u.helpers[x.Name]; helper && sc.u != p.in {
				return "", nil
			}
			if d, ok := p.in.funcs[x.Name]; ok {
				return x.Name, d
			}
		}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && isPkg(id, sc) {
			if d, ok := p.in.funcs[x.Sel.Name]; ok && d.Recv == nil {
				return x.Sel.Name, d
			}
		}
	}
	return "", nil
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// params flattens a function's parameters: one type expression per
// parameter, and whether the last is variadic.
func params(ft *ast.FuncType) (names []string, types []ast.Expr, variadic bool) {
	if ft == nil || ft.Params == nil {
		return nil, nil, false
	}
	for _, fl := range ft.Params.List {
		t := fl.Type
		if el, ok := t.(*ast.Ellipsis); ok {
			variadic = true
			t = &ast.ArrayType{Elt: el.Elt}
		}
		if len(fl.Names) == 0 {
			names = append(names, "")
			types = append(types, t)
		}
		for _, n := range fl.Names {
			names = append(names, n.Name)
			types = append(types, t)
		}
	}
	return names, types, variadic
}

// argVals evaluates a call's arguments against a function type's
// parameters, folding variadic ones into one list; ok is false when the
// count does not match (f(g()) with g returning several).
func (p *Package) argVals(ft *ast.FuncType, declFile *file, x *ast.CallExpr, sc scope) ([]val, bool) {
	_, types, variadic := params(ft)
	n := len(types)
	hint := func(i int) tref { return tref{e: types[i], u: p.unitOf(declFile), f: declFile} }
	var out []val
	switch {
	case !variadic && len(x.Args) != n, variadic && len(x.Args) < n-1:
		return nil, false
	case variadic && x.Ellipsis.IsValid():
		if len(x.Args) != n {
			return nil, false
		}
		for i, a := range x.Args {
			out = append(out, p.eval(a, hint(i), sc))
		}
		return out, true
	}
	for i := 0; i < n && (!variadic || i < n-1); i++ {
		out = append(out, p.eval(x.Args[i], hint(i), sc))
	}
	if variadic {
		l := &lval{}
		h := hint(n - 1)
		eh := tref{e: h.e.(*ast.ArrayType).Elt, u: h.u, f: h.f}
		for _, a := range x.Args[n-1:] {
			l.elems = append(l.elems, p.eval(a, eh, sc))
			l.pos = append(l.pos, a.Pos())
		}
		out = append(out, l)
	}
	return out, true
}

func (p *Package) unitOf(f *file) *unit {
	if f != nil && strings.HasSuffix(f.ast.Name.Name, "_test") && f.ast.Name.Name != p.Name {
		return p.ext
	}
	return p.in
}

// args is argVals made public: ok is false when an argument is not known.
func (p *Package) args(d *ast.FuncDecl, x *ast.CallExpr, sc scope) ([]Value, bool) {
	vals, ok := p.argVals(d.Type, p.declFile(d), x, sc)
	if !ok {
		return nil, false
	}
	out := make([]Value, len(vals))
	budget := maxNodes
	for i, v := range vals {
		pv, ok := public(v, &budget)
		if !ok {
			return nil, false
		}
		out[i] = pv
	}
	return out, true
}

func (p *Package) declFile(d *ast.FuncDecl) *file {
	for _, f := range p.in.files {
		if f.ast.Pos() <= d.Pos() && d.End() <= f.ast.End() {
			return f
		}
	}
	return nil
}

func (p *Package) selector(x *ast.SelectorExpr, sc scope) val {
	if id, ok := x.X.(*ast.Ident); ok && !sc.env.has(id.Name) {
		if isPkg(id, sc) {
			if _, ok := p.in.consts[x.Sel.Name]; ok {
				return p.constVal(p.in, x.Sel.Name)
			}
			if _, ok := p.in.vars[x.Sel.Name]; ok {
				return p.varVal(p.in, x.Sel.Name)
			}
			if name, d := p.target(x, sc); d != nil {
				return &funcRef{name, d}
			}
			return unknown
		}
		if sc.f != nil {
			if path, ok := sc.f.imports[id.Name]; ok {
				return stdConst(path, x.Sel.Name)
			}
		}
	}
	if s, ok := p.eval(x.X, tref{}, sc).(*sval); ok {
		for i, n := range s.names {
			if n == x.Sel.Name {
				return s.vals[i]
			}
		}
	}
	return unknown
}

func (p *Package) index(x *ast.IndexExpr, sc scope) val {
	xv := p.eval(x.X, tref{}, sc)
	if f, ok := xv.(*funcRef); ok {
		return f // an instantiation: ToNumber[float32]
	}
	iv, ok := p.eval(x.Index, tref{}, sc).(*cval)
	if !ok {
		return unknown
	}
	if _, isMap := xv.(*mval); !isMap && iv.c.Kind() != constant.Int {
		return unknown
	}
	switch c := xv.(type) {
	case *lval:
		if i, ok := constant.Int64Val(iv.c); ok && i >= 0 && i < int64(len(c.elems)) {
			return c.elems[i]
		}
	case *mval:
		for i, k := range c.keys {
			if kc, ok := k.(*cval); ok && comparable(kc.c, iv.c) && constant.Compare(kc.c, token.EQL, iv.c) {
				return c.vals[i]
			}
		}
	case *cval:
		if c.c.Kind() == constant.String {
			s := constant.StringVal(c.c)
			if i, ok := constant.Int64Val(iv.c); ok && i >= 0 && i < int64(len(s)) {
				return &cval{constant.MakeInt64(int64(s[i])), "byte"}
			}
		}
	}
	return unknown
}

// stdConst knows the standard constants tests write bounds with.
func stdConst(path, name string) val {
	switch path {
	case "math":
		switch name {
		case "MaxInt8", "MinInt8", "MaxInt16", "MinInt16", "MaxInt32", "MinInt32", "MaxInt64", "MinInt64", "MaxInt", "MinInt":
			var n int64
			switch name {
			case "MaxInt8":
				n = math.MaxInt8
			case "MinInt8":
				n = math.MinInt8
			case "MaxInt16":
				n = math.MaxInt16
			case "MinInt16":
				n = math.MinInt16
			case "MaxInt32":
				n = math.MaxInt32
			case "MinInt32":
				n = math.MinInt32
			case "MaxInt64", "MaxInt":
				n = math.MaxInt64
			default:
				n = math.MinInt64
			}
			return &cval{constant.MakeInt64(n), ""}
		case "MaxUint8":
			return &cval{constant.MakeUint64(math.MaxUint8), ""}
		case "MaxUint16":
			return &cval{constant.MakeUint64(math.MaxUint16), ""}
		case "MaxUint32":
			return &cval{constant.MakeUint64(math.MaxUint32), ""}
		case "MaxUint64", "MaxUint":
			return &cval{constant.MakeUint64(math.MaxUint64), ""}
		case "MaxFloat64":
			return &cval{constant.MakeFloat64(math.MaxFloat64), ""}
		case "SmallestNonzeroFloat64":
			return &cval{constant.MakeFloat64(math.SmallestNonzeroFloat64), ""}
		case "MaxFloat32":
			return &cval{constant.MakeFloat64(math.MaxFloat32), ""}
		case "SmallestNonzeroFloat32":
			return &cval{constant.MakeFloat64(math.SmallestNonzeroFloat32), ""}
		case "Pi":
			return &cval{constant.MakeFloat64(math.Pi), ""}
		case "E":
			return &cval{constant.MakeFloat64(math.E), ""}
		}
	case "time":
		units := map[string]int64{"Nanosecond": 1, "Microsecond": 1e3, "Millisecond": 1e6, "Second": 1e9, "Minute": 60e9, "Hour": 3600e9}
		if n, ok := units[name]; ok {
			return &cval{constant.MakeInt64(n), ""}
		}
	}
	return unknown
}

// stdCall evaluates the few pure standard functions tests build inputs
// with: strings.Repeat and strings.Join.
func (p *Package) stdCall(path, name string, x *ast.CallExpr, sc scope) val {
	switch path + "." + name {
	case "fmt.Sprintf", "fmt.Sprint":
		return p.sprintf(name == "Sprintf", x, sc)
	case "strconv.Itoa", "strconv.Quote":
		if len(x.Args) != 1 {
			return unknown
		}
		a, ok := p.eval(x.Args[0], tref{}, sc).(*cval)
		if !ok {
			return unknown
		}
		if name == "Itoa" {
			n, ok := constant.Int64Val(constant.ToInt(a.c))
			if !ok {
				return unknown
			}
			return &cval{constant.MakeString(strconv.Itoa(int(n))), ""}
		}
		if a.c.Kind() != constant.String {
			return unknown
		}
		return &cval{constant.MakeString(strconv.Quote(constant.StringVal(a.c))), ""}
	}
	if path != "strings" || len(x.Args) != 2 {
		return unknown
	}
	switch name {
	case "Repeat":
		s, ok1 := p.eval(x.Args[0], tref{}, sc).(*cval)
		n, ok2 := p.eval(x.Args[1], tref{}, sc).(*cval)
		if !ok1 || !ok2 || s.c.Kind() != constant.String || n.c.Kind() != constant.Int {
			return unknown
		}
		k, ok := constant.Int64Val(n.c)
		str := constant.StringVal(s.c)
		if !ok || k < 0 || k > maxString || int64(len(str))*k > maxString {
			return unknown
		}
		return &cval{constant.MakeString(strings.Repeat(str, int(k))), ""}
	case "Join":
		l, ok1 := p.eval(x.Args[0], tref{}, sc).(*lval)
		sep, ok2 := p.eval(x.Args[1], tref{}, sc).(*cval)
		if !ok1 || !ok2 || sep.c.Kind() != constant.String {
			return unknown
		}
		parts := make([]string, 0, len(l.elems))
		size := 0
		for _, e := range l.elems {
			c, ok := e.(*cval)
			if !ok || c.c.Kind() != constant.String {
				return unknown
			}
			s := constant.StringVal(c.c)
			size += len(s) + len(constant.StringVal(sep.c))
			if size > maxString {
				return unknown
			}
			parts = append(parts, s)
		}
		return &cval{constant.MakeString(strings.Join(parts, constant.StringVal(sep.c))), ""}
	}
	return unknown
}

// public turns a val into a Value; ok is false when any part is unknown or
// the whole exceeds the budget of nodes.
func public(v val, budget *int) (Value, bool) {
	*budget--
	if *budget < 0 {
		return nil, false
	}
	switch x := v.(type) {
	case *cval:
		switch x.c.Kind() {
		case constant.Bool:
			return constant.BoolVal(x.c), true
		case constant.String:
			s := constant.StringVal(x.c)
			if len(s) > maxString {
				return nil, false
			}
			return s, true
		case constant.Int:
			if basic(x.typ) == "float" {
				f, _ := constant.Float64Val(x.c)
				return f, true
			}
			if n, ok := constant.Int64Val(x.c); ok {
				return n, true
			}
			if n, ok := constant.Uint64Val(x.c); ok {
				return n, true
			}
		case constant.Float:
			f, _ := constant.Float64Val(x.c)
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, false
			}
			if basic(x.typ) == "int" || basic(x.typ) == "uint" {
				if n, ok := constant.Int64Val(constant.ToInt(x.c)); ok {
					return n, true
				}
				return nil, false
			}
			return f, true
		}
		return nil, false
	case *bval:
		if len(x.b) > maxString {
			return nil, false
		}
		return append([]byte{}, x.b...), true
	case nilv:
		return nil, true
	case *lval:
		out := make([]any, len(x.elems))
		for i, e := range x.elems {
			pv, ok := public(e, budget)
			if !ok {
				return nil, false
			}
			out[i] = pv
		}
		return out, true
	case *mval:
		out := make(map[string]any, len(x.keys))
		for i, k := range x.keys {
			kc, ok := k.(*cval)
			if !ok {
				return nil, false
			}
			var key string
			switch kc.c.Kind() {
			case constant.String:
				key = constant.StringVal(kc.c)
			case constant.Int:
				key = kc.c.ExactString()
			case constant.Bool:
				key = strconv.FormatBool(constant.BoolVal(kc.c))
			default:
				return nil, false
			}
			pv, ok := public(x.vals[i], budget)
			if !ok {
				return nil, false
			}
			out[key] = pv
		}
		return out, true
	case *sval:
		out := make(map[string]any, len(x.names))
		for i, n := range x.names {
			pv, ok := public(x.vals[i], budget)
			if !ok {
				return nil, false
			}
			out[n] = pv
		}
		return out, true
	case *ctorv:
		return x.c, true
	}
	return nil, false
}

// receiver describes a value a method is called on.
func receiver(v val) (*Ctor, bool) {
	switch x := v.(type) {
	case *ctorv:
		return x.c, true
	case *sval:
		// A receiver's fields premise cannot carry (a Run func, a
		// writer) are left out: the literal is still a value of the type
		// the method takes, with those fields zero.
		budget := maxNodes
		lit := map[string]Value{}
		for i, n := range x.names {
			if pv, ok := public(x.vals[i], &budget); ok {
				lit[n] = pv
			}
		}
		return &Ctor{Type: x.typ, Literal: lit}, true
	case *cval, *lval, *mval:
		budget := maxNodes
		pv, ok := public(x, &budget)
		if !ok {
			return nil, false
		}
		return &Ctor{Type: typeOf(v), Value: pv}, true
	}
	return nil, false
}

// maxReturnDepth bounds helpers evaluated inside one another.
const maxReturnDepth = 4

// returnValue evaluates a call of a helper the tests define whose body
// only binds names and returns one value (func prstr(s string) PRVersion
// { return PRVersion{VersionStr: s} }), with its parameters bound to the
// call's arguments.
func (p *Package) returnValue(ft *ast.FuncType, body *ast.BlockStmt, closure *env, f *file, x *ast.CallExpr, sc scope) val {
	if body == nil || ft.Results == nil || p.retDepth >= maxReturnDepth {
		return unknown
	}
	p.retDepth++
	defer func() { p.retDepth-- }()
	names, _, _ := params(ft)
	vals, ok := p.argVals(ft, f, x, sc)
	if !ok {
		return unknown
	}
	inner := scope{u: sc.u, f: f, env: newEnv(closure, false), iota: -1}
	if f == nil {
		inner.f = sc.f
	}
	for i, n := range names {
		inner.env.define(n, vals[i])
	}
	w := &walker{p: p, bindOnly: true}
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			w.assign(st, inner)
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok {
				w.decl(gd, inner, ctx{})
			}
		case *ast.ExprStmt:
			// t.Helper(), f.IntVar(&x, ...): what a call changes is not
			// replayed; the value returned is still one the tests build.
			if _, ok := st.X.(*ast.CallExpr); !ok {
				return unknown
			}
		case *ast.IfStmt:
			// if err != nil { t.Fatal(err) }: a branch that does not
			// return leaves the result alone.
			if returnsIn(st) {
				return unknown
			}
		case *ast.ReturnStmt:
			if len(st.Results) != 1 {
				return unknown
			}
			_, rtypes, _ := params(&ast.FuncType{Params: ft.Results})
			if len(rtypes) != 1 {
				return unknown
			}
			return p.eval(st.Results[0], tref{e: rtypes[0], u: sc.u, f: inner.f}, inner)
		default:
			return unknown
		}
	}
	return unknown
}

func returnsIn(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ReturnStmt:
			found = true
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// sprintf formats known constants with fmt, for format strings without
// widths or precisions (a width could ask for any size).
func (p *Package) sprintf(formatted bool, x *ast.CallExpr, sc scope) val {
	if len(x.Args) == 0 || x.Ellipsis.IsValid() || len(x.Args) > 32 {
		return unknown
	}
	var args []any
	size := 0
	for _, a := range x.Args {
		c, ok := p.eval(a, tref{}, sc).(*cval)
		if !ok {
			return unknown
		}
		budget := 1
		v, ok := public(c, &budget)
		if !ok {
			return unknown
		}
		if s, ok := v.(string); ok {
			size += len(s)
		}
		size += 32
		args = append(args, v)
	}
	if size > maxString {
		return unknown
	}
	if !formatted {
		return &cval{constant.MakeString(fmt.Sprint(args...)), ""}
	}
	format, ok := args[0].(string)
	if !ok {
		return unknown
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		for i++; i < len(format) && strings.IndexByte("+-# ", format[i]) >= 0; i++ {
		}
		if i < len(format) && strings.IndexByte("0123456789*.[", format[i]) >= 0 {
			return unknown
		}
	}
	return &cval{constant.MakeString(fmt.Sprintf(format, args[1:]...)), ""}
}

// pkgType reports a type declared in the package's non-test files.
func (p *Package) pkgType(name string) bool {
	ts, ok := p.in.types[name]
	if !ok {
		return false
	}
	f := p.in.fileOf(ts)
	return f != nil && !f.test
}
