package gosource

import (
	"go/ast"
	"sort"
	"strings"
)

// Constructor is a package function that builds a value of a type: it
// returns T, *T, (T, error) or (*T, error).
type Constructor struct {
	Name     string
	Params   []Param
	Variadic bool // the last parameter is ...T
}

// Param is one parameter of a function: its name ("" when unnamed) and its
// type as written ("string", "...int", "*Version").
type Param struct {
	Name string
	Type string
}

// Field is one field of a struct type.
type Field struct {
	Name     string // the type's name for an embedded field
	Type     string // as written: "int", "[]string", "*Options"
	Exported bool
	Embedded bool
}

// tref is a type expression with where it is read: the unit and file whose
// names it refers to, and the local scope of a type declared in a function.
type tref struct {
	e   ast.Expr
	u   *unit
	f   *file
	env *env
}

type typeDecl struct {
	spec *ast.TypeSpec
	file *file
}

// basic reports the kind of a predeclared type name: "int", "uint",
// "float", "complex", "string", "bool", or "".
func basic(name string) string {
	switch name {
	case "int", "int8", "int16", "int32", "int64", "rune":
		return "int"
	case "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte":
		return "uint"
	case "float32", "float64":
		return "float"
	case "complex64", "complex128":
		return "complex"
	case "string":
		return "string"
	case "bool":
		return "bool"
	}
	return ""
}

// lookupType finds a named type visible from t: declared in a function
// (t.env), in t's unit, or in the package under test through an external
// test's import or dot import.
func (p *Package) lookupType(id *ast.Ident, t tref) (typeDecl, bool) {
	if t.env != nil {
		if b, ok := t.env.lookup(id.Name); ok {
			if lt, ok := b.v.(*localType); ok {
				return typeDecl{lt.spec, lt.file}, true
			}
			return typeDecl{}, false
		}
	}
	if t.u != nil {
		if ts, ok := t.u.types[id.Name]; ok {
			return typeDecl{ts, t.u.fileOf(ts)}, true
		}
	}
	if t.f != nil && t.f.dot && t.u != p.in {
		if ts, ok := p.in.types[id.Name]; ok {
			return typeDecl{ts, p.in.fileOf(ts)}, true
		}
	}
	return typeDecl{}, false
}

// resolve follows t through named types to the type it is built from. name
// is the first named type of the package under test on the way ("" for a
// predeclared, foreign or literal type); under is the last expression
// reached: a predeclared Ident, a type literal, or a foreign type.
func (p *Package) resolve(t tref) (name string, under tref) {
	for i := 0; i < 32 && t.e != nil; i++ {
		switch x := t.e.(type) {
		case *ast.ParenExpr:
			t.e = x.X
			continue
		case *ast.IndexExpr:
			t.e = x.X
			continue
		case *ast.IndexListExpr:
			t.e = x.X
			continue
		case *ast.Ident:
			if basic(x.Name) != "" || x.Name == "any" || x.Name == "error" {
				if t.env == nil || !t.env.has(x.Name) {
					return name, t
				}
			}
			td, ok := p.lookupType(x, t)
			if !ok || td.spec.Type == nil {
				return name, t
			}
			inPkg := p.in.types[x.Name] == td.spec
			if name == "" && inPkg {
				name = x.Name
			}
			next := tref{e: td.spec.Type, u: t.u, f: td.file}
			if inPkg {
				next.u = p.in
			}
			if t.env != nil {
				if b, ok := t.env.lookup(x.Name); ok {
					if lt, ok := b.v.(*localType); ok {
						next.env = lt.env
					}
				}
			}
			t = next
			continue
		case *ast.SelectorExpr:
			pkg, ok := x.X.(*ast.Ident)
			if ok && t.f != nil && t.f.pkgName != "" && pkg.Name == t.f.pkgName {
				if ts, ok := p.in.types[x.Sel.Name]; ok && ts.Type != nil {
					if name == "" {
						name = x.Sel.Name
					}
					t = tref{e: ts.Type, u: p.in, f: p.in.fileOf(ts)}
					continue
				}
			}
			return name, t
		}
		return name, t
	}
	return name, t
}

func (u *unit) fileOf(ts *ast.TypeSpec) *file {
	for _, f := range u.files {
		if f.ast.Pos() <= ts.Pos() && ts.End() <= f.ast.End() {
			return f
		}
	}
	return nil
}

// fieldList flattens a struct's fields: `a, b int` is two.
func fieldList(st *ast.StructType) []Field {
	var out []Field
	if st == nil || st.Fields == nil {
		return nil
	}
	for _, fl := range st.Fields.List {
		typ := exprString(fl.Type)
		if len(fl.Names) == 0 {
			n := recvName(fl.Type)
			if sel, ok := fl.Type.(*ast.SelectorExpr); ok {
				n = sel.Sel.Name
			} else if st, ok := fl.Type.(*ast.StarExpr); ok {
				if sel, ok := st.X.(*ast.SelectorExpr); ok {
					n = sel.Sel.Name
				}
			}
			out = append(out, Field{Name: n, Type: typ, Exported: ast.IsExported(n), Embedded: true})
			continue
		}
		for _, n := range fl.Names {
			out = append(out, Field{Name: n.Name, Type: typ, Exported: ast.IsExported(n.Name)})
		}
	}
	return out
}

// fieldTypes is fieldList with each field's type expression.
func fieldTypes(st *ast.StructType) []ast.Expr {
	var out []ast.Expr
	if st == nil || st.Fields == nil {
		return nil
	}
	for _, fl := range st.Fields.List {
		n := len(fl.Names)
		if n == 0 {
			n = 1
		}
		for range n {
			out = append(out, fl.Type)
		}
	}
	return out
}

// Underlying returns the type a named type of the package is built from,
// following chains of named types in the package: "int" for
// `type pathKind int`, "[]string", "struct{...}", or a foreign type as
// written ("time.Duration"). It is "" when typeName is not declared.
func (p *Package) Underlying(typeName string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	ts, ok := p.in.types[typeName]
	if !ok || ts.Type == nil {
		return ""
	}
	_, under := p.resolve(tref{e: ast.NewIdent(typeName), u: p.in})
	return exprString(under.e)
}

// Fields returns the fields of a struct type of the package, in order; nil
// when typeName is not a struct.
func (p *Package) Fields(typeName string) []Field {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.in.types[typeName]; !ok {
		return nil
	}
	_, under := p.resolve(tref{e: ast.NewIdent(typeName), u: p.in})
	st, _ := under.e.(*ast.StructType)
	return fieldList(st)
}

// Constructors returns the package functions of the non-test files that
// return typeName, *typeName, (typeName, error) or (*typeName, error),
// sorted by name.
func (p *Package) Constructors(typeName string) []Constructor {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []Constructor
	for name, d := range p.in.funcs {
		if d.Recv != nil || ctorType(d) != typeName {
			continue
		}
		c := Constructor{Name: name}
		for _, fl := range d.Type.Params.List {
			typ := exprString(fl.Type)
			if _, ok := fl.Type.(*ast.Ellipsis); ok {
				c.Variadic = true
			}
			if len(fl.Names) == 0 {
				c.Params = append(c.Params, Param{Type: typ})
			}
			for _, n := range fl.Names {
				c.Params = append(c.Params, Param{Name: n.Name, Type: typ})
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ctorType is the type a package function builds, by its results: T, *T,
// (T, error) or (*T, error); "" for any other function.
func ctorType(d *ast.FuncDecl) string {
	if d == nil || d.Recv != nil || d.Type == nil || d.Type.Results == nil {
		return ""
	}
	var res []ast.Expr
	for _, fl := range d.Type.Results.List {
		n := len(fl.Names)
		if n == 0 {
			n = 1
		}
		for range n {
			res = append(res, fl.Type)
		}
	}
	if len(res) == 2 {
		if id, ok := res[1].(*ast.Ident); !ok || id.Name != "error" {
			return ""
		}
	} else if len(res) != 1 {
		return ""
	}
	t := res[0]
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	if !ok || basic(id.Name) != "" || id.Name == "error" || id.Name == "any" {
		return ""
	}
	return id.Name
}

// Consts returns the values of the package constants of the named type
// typeName declared in the non-test files, in declaration order, iota
// blocks evaluated; a constant whose value cannot be computed is left out.
func (p *Package) Consts(typeName string) []Value {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []Value
	for _, name := range p.in.constOrder {
		cs := p.in.consts[name]
		if cs.file == nil || cs.file.test {
			continue
		}
		v, ok := p.constVal(p.in, name).(*cval)
		if !ok || v.typ != typeName {
			continue
		}
		budget := maxNodes
		if pv, ok := public(v, &budget); ok {
			out = append(out, pv)
		}
	}
	return out
}

// exprString writes a type expression in Go syntax, with struct and
// interface bodies abbreviated.
func exprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr, depth int) {
	if depth > 32 {
		b.WriteString("...")
		return
	}
	d := depth + 1
	switch x := e.(type) {
	case nil:
	case *ast.Ident:
		b.WriteString(x.Name)
	case *ast.SelectorExpr:
		writeExpr(b, x.X, d)
		b.WriteString("." + x.Sel.Name)
	case *ast.StarExpr:
		b.WriteString("*")
		writeExpr(b, x.X, d)
	case *ast.ParenExpr:
		b.WriteString("(")
		writeExpr(b, x.X, d)
		b.WriteString(")")
	case *ast.Ellipsis:
		b.WriteString("...")
		writeExpr(b, x.Elt, d)
	case *ast.ArrayType:
		b.WriteString("[")
		if x.Len != nil {
			if bl, ok := x.Len.(*ast.BasicLit); ok {
				b.WriteString(bl.Value)
			} else if _, ok := x.Len.(*ast.Ellipsis); ok {
				b.WriteString("...")
			} else {
				writeExpr(b, x.Len, d)
			}
		}
		b.WriteString("]")
		writeExpr(b, x.Elt, d)
	case *ast.MapType:
		b.WriteString("map[")
		writeExpr(b, x.Key, d)
		b.WriteString("]")
		writeExpr(b, x.Value, d)
	case *ast.ChanType:
		switch x.Dir {
		case ast.RECV:
			b.WriteString("<-chan ")
		case ast.SEND:
			b.WriteString("chan<- ")
		default:
			b.WriteString("chan ")
		}
		writeExpr(b, x.Value, d)
	case *ast.FuncType:
		b.WriteString("func(")
		if x.Params != nil {
			for i, fl := range x.Params.List {
				if i > 0 {
					b.WriteString(", ")
				}
				writeExpr(b, fl.Type, d)
			}
		}
		b.WriteString(")")
		if x.Results != nil && len(x.Results.List) > 0 {
			b.WriteString(" ...")
		}
	case *ast.StructType:
		if x.Fields == nil || len(x.Fields.List) == 0 {
			b.WriteString("struct{}")
		} else {
			b.WriteString("struct{...}")
		}
	case *ast.InterfaceType:
		if x.Methods == nil || len(x.Methods.List) == 0 {
			b.WriteString("interface{}")
		} else {
			b.WriteString("interface{...}")
		}
	case *ast.IndexExpr:
		writeExpr(b, x.X, d)
		b.WriteString("[")
		writeExpr(b, x.Index, d)
		b.WriteString("]")
	case *ast.IndexListExpr:
		writeExpr(b, x.X, d)
		b.WriteString("[")
		for i, ix := range x.Indices {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, ix, d)
		}
		b.WriteString("]")
	case *ast.BasicLit:
		b.WriteString(x.Value)
	case *ast.UnaryExpr:
		b.WriteString(x.Op.String())
		writeExpr(b, x.X, d)
	case *ast.BinaryExpr:
		writeExpr(b, x.X, d)
		b.WriteString(" " + x.Op.String() + " ")
		writeExpr(b, x.Y, d)
	default:
		b.WriteString("?")
	}
}
