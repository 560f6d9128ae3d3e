package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// goPkgs reads the package of each changed Go file at the head once: what
// a parameter's named type is underneath, its constants, a struct's
// fields and the constructors of a method's receiver (issue 13, part 7).
type goPkgs struct {
	tests   map[string]*gosource.Package // package directory -> what its tests call
	headDir string
	baseDir string // constructors the base lacks build no receivers
	probe   bool   // no checkout yet: a method counts as a target, Run decides
	byDir   map[string]*goPkg
}

// goPkg is one package's declarations, from its non-test files.
type goPkg struct {
	types  map[string]ast.Expr     // type name -> what it is defined as
	params map[string][]lang.Param // generic type name -> its type parameters and their constraints
	consts map[string][]any        // named type -> its constants' values
	// constNames are the names of consts' values, in the same order.
	constNames map[string][]string
	ctors      map[string][]goCtor // type name -> functions returning it
	// varCtors are the variadic functions returning a type, by its name:
	// a test's call of one builds a receiver.
	varCtors map[string][]string
	vars     map[string]goVar // package-level variables of a basic type
	ranges   map[string][]goRange
	words    map[string][]string        // table name -> the text of its keys or elements (golintInitialisms: ID, HTTP, ...)
	reads    map[string]map[string]bool // function or method name -> the names its body uses
	// methods are the names of each type's methods, on T or *T.
	methods map[string]map[string]bool
	// typeMethods are each type's methods, generic types' too, in the
	// order the source declares them.
	typeMethods map[string][]goMethod
	// sibling is the package of the same module the package's files
	// import by a name (orb for orb.Bound); nil when there is none.
	sibling func(name string) *goPkg
	// std is the standard package they import by a name (url for
	// url.URL): its types are resolved, its functions build nothing.
	std func(name string) *goPkg
	// imports are the import paths of the names the package's files
	// import packages by.
	imports map[string]string
}

// goCtor is a package function that returns a T or *T, possibly with an
// error: the receivers of T's methods are built by calling it.
type goCtor struct {
	name   string
	params []lang.Param
	// typeArgs are a generic constructor's type parameters in the order
	// of its type's (NewQueue[T any]() *Queue[T]: [T]); nil for a plain
	// one.
	typeArgs []string
}

func (gp *goPkgs) pkg(file string) *goPkg {
	if gp == nil || gp.headDir == "" {
		return nil
	}
	return gp.pkgIn(filepath.Dir(filepath.FromSlash(file)))
}

// pkgIn is the package in rel, a directory below the tree's top.
func (gp *goPkgs) pkgIn(rel string) *goPkg {
	dir := filepath.Join(gp.headDir, rel)
	if p, ok := gp.byDir[dir]; ok {
		return p
	}
	if gp.byDir == nil {
		gp.byDir = map[string]*goPkg{}
	}
	src := gp.source(dir)
	p := loadGoPkg(src)
	if src != nil {
		imports := src.Imports()
		p.imports = imports
		p.sibling = func(name string) *goPkg { return gp.imported(rel, imports[name]) }
		p.std = func(name string) *goPkg { return gp.std(imports[name]) }
	}
	if gp.baseDir != "" {
		// A receiver is built alike on both sides, or not at all: a
		// constructor the patch added would fail every base call.
		base := loadGoPkg(gp.source(filepath.Join(gp.baseDir, rel)))
		p.keepVarsOf(base)
		p.keepMethodsOf(base)
		for typ, cs := range p.ctors {
			var keep []goCtor
			for _, c := range cs {
				for _, b := range base.ctors[typ] {
					if b.name == c.name && len(b.params) == len(c.params) {
						keep = append(keep, c)
						break
					}
				}
			}
			p.ctors[typ] = keep
		}
	}
	gp.byDir[dir] = p
	return p
}

// imported is the package of the same module that the package in rel
// imports as imp; nil for a package of another module (or none).
func (gp *goPkgs) imported(rel, imp string) *goPkg {
	if imp == "" {
		return nil
	}
	for d := filepath.ToSlash(rel); ; d = path.Dir(d) {
		data, err := os.ReadFile(filepath.Join(gp.headDir, filepath.FromSlash(d), "go.mod"))
		if err == nil {
			mod := modulePath(data)
			switch {
			case mod == "":
				return nil
			case imp == mod:
				return gp.pkgIn(filepath.FromSlash(d))
			case strings.HasPrefix(imp, mod+"/"):
				return gp.pkgIn(filepath.Join(filepath.FromSlash(d), filepath.FromSlash(strings.TrimPrefix(imp, mod+"/"))))
			}
			return nil
		}
		if d == "." || d == "/" || d == "" {
			return nil
		}
	}
}

// standard says imp is a standard library package's path: its first
// element has no dot, as the go command tells them apart.
func standard(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return imp != "C" && !strings.Contains(first, ".")
}

// std is the standard package imp, read from GOROOT's source once: its
// struct types are built as the module's own are (a url.URL a type
// embeds: its Host and Path). nil without a go command or the package.
func (gp *goPkgs) std(imp string) *goPkg {
	if imp == "" || !standard(imp) {
		return nil
	}
	root := gate.GoRoot()
	if root == "" {
		return nil
	}
	dir := filepath.Join(root, "src", filepath.FromSlash(imp))
	if p, ok := gp.byDir[dir]; ok {
		return p
	}
	if gp.byDir == nil {
		gp.byDir = map[string]*goPkg{}
	}
	src := gp.source(dir)
	if src == nil {
		gp.byDir[dir] = nil
		return nil
	}
	p := loadGoPkg(src)
	imports := src.Imports()
	p.imports = imports
	p.std = func(name string) *goPkg { return gp.std(imports[name]) }
	gp.byDir[dir] = p
	return p
}

// modulePath is the module a go.mod declares; "" when it declares none.
func modulePath(data []byte) string {
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// testsOf is what the tests of file's package call, read once; nil
// without a checkout or when none of its files parse.
func (gp *goPkgs) testsOf(file string) *gosource.Package {
	if gp == nil || gp.headDir == "" {
		return nil
	}
	return gp.source(filepath.Dir(filepath.Join(gp.headDir, filepath.FromSlash(file))))
}

// baseTestsOf is what the base's tests of file's package call: a patch
// that deletes the test holding the revealing input does not take the
// input away (issue 26). nil without a base checkout.
func (gp *goPkgs) baseTestsOf(file string) *gosource.Package {
	if gp == nil || gp.baseDir == "" {
		return nil
	}
	return gp.source(filepath.Dir(filepath.Join(gp.baseDir, filepath.FromSlash(file))))
}

// source is the package in dir as gosource read it, once per run for its
// declarations and its tests alike; nil when none of its files parse.
func (gp *goPkgs) source(dir string) *gosource.Package {
	if p, ok := gp.tests[dir]; ok {
		return p
	}
	if gp.tests == nil {
		gp.tests = map[string]*gosource.Package{}
	}
	p, err := gosource.Load(dir)
	if err != nil {
		p = nil
	}
	gp.tests[dir] = p
	return p
}

// loadGoPkg reads what rows need of a package's own declarations: its
// types, constants, constructors and package-level variables; empty when
// src is nil.
func loadGoPkg(src *gosource.Package) *goPkg {
	p := &goPkg{types: map[string]ast.Expr{}, params: map[string][]lang.Param{}, consts: map[string][]any{}, constNames: map[string][]string{}, ctors: map[string][]goCtor{}, varCtors: map[string][]string{},
		vars: map[string]goVar{}, ranges: map[string][]goRange{}, words: map[string][]string{}, reads: map[string]map[string]bool{},
		methods: map[string]map[string]bool{}, typeMethods: map[string][]goMethod{}}
	if src != nil {
		for _, d := range src.Decls() {
			switch d := d.(type) {
			case *ast.GenDecl:
				p.gen(d)
			case *ast.FuncDecl:
				p.fn(d)
				p.method(d)
				p.funcReads(d)
			}
		}
	}
	p.resolveVars()
	for typ := range p.ctors {
		if _, declared := p.types[typ]; !declared {
			delete(p.ctors, typ) // a function returning a string builds no receiver
		}
	}
	return p
}

func (p *goPkg) gen(d *ast.GenDecl) {
	switch d.Tok {
	case token.TYPE:
		for _, s := range d.Specs {
			ts := s.(*ast.TypeSpec)
			p.types[ts.Name.Name] = ts.Type
			if ts.TypeParams != nil {
				for _, f := range ts.TypeParams.List {
					for _, n := range f.Names {
						p.params[ts.Name.Name] = append(p.params[ts.Name.Name], lang.Param{Name: n.Name, Type: types.ExprString(f.Type)})
					}
				}
			}
		}
	case token.VAR:
		p.genVar(d)
	case token.CONST:
		p.genConst(d)
		// An iota block repeats the last type and expression given.
		var typ string
		var expr ast.Expr
		for i, s := range d.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Type != nil || len(vs.Values) > 0 {
				typ, expr = "", nil
				if id, ok := vs.Type.(*ast.Ident); ok {
					typ = id.Name
				}
				if len(vs.Values) > 0 {
					expr = vs.Values[0]
				}
			}
			if typ == "" || expr == nil || len(p.consts[typ]) >= 32 {
				continue
			}
			if v, ok := constValue(expr, i); ok {
				p.consts[typ] = append(p.consts[typ], v)
				p.constNames[typ] = append(p.constNames[typ], vs.Names[0].Name)
			}
		}
	}
}

// constValue evaluates the constant expressions iota blocks use.
func constValue(e ast.Expr, iota int) (any, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT:
			n, err := strconv.ParseInt(x.Value, 0, 64)
			return int(n), err == nil
		case token.STRING:
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		}
	case *ast.Ident:
		if x.Name == "iota" {
			return iota, true
		}
	case *ast.ParenExpr:
		return constValue(x.X, iota)
	case *ast.BinaryExpr:
		a, ok1 := constValue(x.X, iota)
		b, ok2 := constValue(x.Y, iota)
		ai, ok3 := a.(int)
		bi, ok4 := b.(int)
		if !(ok1 && ok2 && ok3 && ok4) {
			return nil, false
		}
		switch x.Op {
		case token.ADD:
			return ai + bi, true
		case token.SUB:
			return ai - bi, true
		case token.MUL:
			return ai * bi, true
		case token.SHL:
			if bi >= 0 && bi < 63 {
				return ai << bi, true
			}
		}
	}
	return nil, false
}

func (p *goPkg) fn(d *ast.FuncDecl) {
	if d.Recv != nil && len(d.Recv.List) == 1 {
		recv := d.Recv.List[0].Type
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = star.X
		}
		if id, ok := recv.(*ast.Ident); ok {
			if p.methods[id.Name] == nil {
				p.methods[id.Name] = map[string]bool{}
			}
			p.methods[id.Name][d.Name.Name] = true
		}
	}
	if d.Recv != nil || d.Type.Results == nil {
		return
	}
	res := d.Type.Results.List
	n := 0
	for _, r := range res {
		n += max(1, len(r.Names))
	}
	if n == 0 || n > 2 {
		return
	}
	if n == 2 && types.ExprString(res[len(res)-1].Type) != "error" {
		return
	}
	name := strings.TrimPrefix(types.ExprString(res[0].Type), "*")
	c := goCtor{name: d.Name.Name}
	if d.Type.TypeParams != nil {
		// A generic constructor builds its generic type when the type's
		// arguments are its own parameters, each of them once:
		// NewQueue[T any]() *Queue[T].
		var own []string
		for _, f := range d.Type.TypeParams.List {
			for _, n := range f.Names {
				own = append(own, n.Name)
			}
		}
		open := strings.IndexByte(name, '[')
		if open < 0 || !strings.HasSuffix(name, "]") {
			return
		}
		for _, a := range strings.Split(name[open+1:len(name)-1], ",") {
			c.typeArgs = append(c.typeArgs, strings.TrimSpace(a))
		}
		name = name[:open]
		sorted := slices.Sorted(slices.Values(c.typeArgs))
		if len(c.typeArgs) != len(own) || !slices.Equal(slices.Compact(sorted), slices.Sorted(slices.Values(own))) {
			return
		}
	}
	if !token.IsIdentifier(name) {
		return
	}
	for _, f := range d.Type.Params.List {
		if _, variadic := f.Type.(*ast.Ellipsis); variadic {
			// Called only as the tests call it (New(opts...)): its
			// options are functions no pool builds.
			if c.typeArgs == nil {
				p.varCtors[name] = append(p.varCtors[name], d.Name.Name)
			}
			return
		}
		typ := types.ExprString(f.Type)
		if len(f.Names) == 0 {
			c.params = append(c.params, lang.Param{Name: "arg" + strconv.Itoa(len(c.params)), Type: typ})
		}
		for _, nm := range f.Names {
			c.params = append(c.params, lang.Param{Name: nm.Name, Type: typ})
		}
	}
	p.ctors[name] = append(p.ctors[name], c)
}

// goSelectorRe is a type of another package: its name there, and the
// type's.
var goSelectorRe = regexp.MustCompile(`^([A-Za-z_]\w*)\.([A-Z]\w*)$`)

// goArrayRe is a fixed-size array type: its element's type.
var goArrayRe = regexp.MustCompile(`^\[[0-9]+\](.+)$`)

// maxFields bounds the fields of a struct a row fills.
const maxFields = 12

// resolve reads a Go parameter's type with its package's declarations: a
// named type is what it is defined as, with the constants declared of it;
// interface{} and any take a mixed pool; a struct is built from its
// exported fields, as encoding/json fills one.
func (p *goPkg) resolve(s, name string, depth int) lang.Type {
	s = strings.TrimSpace(s)
	if depth > 4 {
		return lang.Type{}
	}
	switch {
	case s == "interface{}" || s == "any":
		return lang.Type{Kind: lang.KindAny, Nullable: true}
	case s == "io.Writer" || s == "io.StringWriter" || s == "bytes.Buffer" || s == "bufio.Writer":
		return lang.Type{Kind: lang.KindWriter}
	case s == "io.Reader" || s == "io.RuneReader" || s == "io.ByteReader" || s == "io.RuneScanner":
		return lang.Type{Kind: lang.KindReader}
	case s == "bufio.Reader" || s == "bufio.Scanner":
		// A buffered reader or a line scanner over the same text (the
		// harness wraps the reader it builds).
		return lang.Type{Kind: lang.KindReader}
	case strings.HasPrefix(s, "func("):
		return lang.Type{Kind: lang.KindFunc}
	case strings.HasPrefix(s, "iter.Seq[") && strings.HasSuffix(s, "]"):
		// A sequence, which the harness builds from a list of its
		// values (seqOf in the worker): never nil, whose range panics.
		t := lang.Type{Kind: lang.KindList}
		if e := p.resolve(s[len("iter.Seq["):len(s)-1], "", depth+1); e.Known() {
			t.Elem = &e
		}
		return t
	case strings.HasPrefix(s, "*"):
		t := p.resolve(s[1:], name, depth+1)
		if t.Kind != lang.KindUnknown {
			t.Nullable = true
		}
		return t
	case s == "[]byte":
		return goType(s, name) // text (goBytes)
	case strings.HasPrefix(s, "[]") && !strings.HasPrefix(s, "[][2]"):
		e := p.resolve(s[2:], "", depth+1)
		if e.Kind == lang.KindInt && (s == "[][]int" || s == "[][]int64") && lang.IntervalName.MatchString(name) {
			break
		}
		t := lang.Type{Kind: lang.KindList, Nullable: true}
		if e.Known() {
			t.Elem = &e
		}
		return t
	case strings.HasPrefix(s, "map[string]"):
		e := p.resolve(s[len("map[string]"):], "", depth+1)
		t := lang.Type{Kind: lang.KindDict, Nullable: true}
		if e.Known() {
			t.Elem = &e
		}
		return t
	case strings.HasPrefix(s, "map["):
		// A map whose keys JSON's object keys do not spell as the pools
		// do (map[uintptr]struct{}, a set of pointers): empty or nil,
		// which is still what many callers pass.
		return lang.Type{Kind: lang.KindStruct, Nullable: true}
	}
	if t := goType(s, name); t.Kind != lang.KindUnknown || p == nil {
		return t
	}
	if m := goSelectorRe.FindStringSubmatch(s); m != nil && (p.sibling != nil || p.std != nil) {
		// A type of another package of the module (orb.Bound), or of
		// the standard library (url.URL): what it is defined as there.
		q := (*goPkg)(nil)
		if p.sibling != nil {
			q = p.sibling(m[1])
		}
		if q == nil && p.std != nil {
			q = p.std(m[1])
		}
		if q != nil {
			t := q.resolve(m[2], name, depth+1)
			if t.Kind != lang.KindUnknown && t.Text == "" {
				t.Text = s
			}
			return t
		}
		return lang.Type{}
	}
	if m := goArrayRe.FindStringSubmatch(s); m != nil {
		// A fixed-size array ([2]float64, a point): a list, which JSON
		// fills in as far as it goes.
		t := lang.Type{Kind: lang.KindList}
		if e := p.resolve(m[1], "", depth+1); e.Known() {
			t.Elem = &e
			return t
		}
		return lang.Type{}
	}
	def, ok := p.types[s]
	if !ok || len(p.params[s]) > 0 {
		return lang.Type{}
	}
	switch x := def.(type) {
	case *ast.StructType:
		return p.structType(x, depth, nil)
	case *ast.InterfaceType:
		if x.Methods == nil || len(x.Methods.List) == 0 {
			return lang.Type{Kind: lang.KindAny, Nullable: true}
		}
		return lang.Type{}
	}
	t := p.resolve(types.ExprString(def), name, depth+1)
	if t.Kind != lang.KindUnknown {
		t.Consts = p.consts[s]
		t.Text = s
	}
	return t
}

// resolveReading is resolve of the type s with the struct fields read
// names filled first: past maxFields a struct's later fields are left
// out, and one a method reads (a feed's Items, its 21st field) must not
// be.
func (p *goPkg) resolveReading(s string, read map[string]bool) lang.Type {
	if p != nil && len(read) > 0 {
		if x, ok := p.types[strings.TrimPrefix(s, "*")].(*ast.StructType); ok && len(p.params[strings.TrimPrefix(s, "*")]) == 0 {
			return p.structType(x, 0, read)
		}
	}
	return p.resolve(s, "", 0)
}

// structType is a struct built from its exported fields, as encoding/json
// fills one, at most maxFields of them: those first names first, then
// the rest in order.
func (p *goPkg) structType(st *ast.StructType, depth int, first map[string]bool) lang.Type {
	t := lang.Type{Kind: lang.KindStruct}
	for pass := range 2 {
		if pass == 0 && len(first) == 0 {
			continue
		}
		p.structFields(st, depth, &t, func(name string) bool { return len(first) == 0 || first[name] == (pass == 0) })
	}
	return t
}

// structFields appends to t the fields of st that take says to, an
// embedded one's by its type's name.
func (p *goPkg) structFields(st *ast.StructType, depth int, t *lang.Type, take func(string) bool) {
	for _, f := range st.Fields.List {
		key := ""
		if f.Tag != nil {
			if tag, err := strconv.Unquote(f.Tag.Value); err == nil {
				key, _, _ = strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			}
		}
		if len(f.Names) == 0 && key != "-" && len(t.Fields) < maxFields && take(strings.TrimPrefix(types.ExprString(f.Type), "*")) {
			t.Fields = append(t.Fields, p.embedded(f.Type, key, depth)...)
		}
		for _, n := range f.Names {
			if !n.IsExported() || key == "-" || len(t.Fields) == maxFields || !take(n.Name) {
				continue
			}
			k := n.Name
			if key != "" && len(f.Names) == 1 {
				k = key
			}
			if ft := p.resolve(types.ExprString(f.Type), n.Name, depth+1); ft.Known() {
				t.Fields = append(t.Fields, lang.Field{Name: k, Type: ft})
			}
		}
	}
}

// embedded are the fields an embedded field gives a struct, as
// encoding/json decodes them: an embedded struct's own fields, promoted;
// any other exported named type (a token kind, type TokenType uint32) one
// field named by its type (or by key, its json tag's name).
func (p *goPkg) embedded(typ ast.Expr, key string, depth int) []lang.Field {
	name := strings.TrimPrefix(types.ExprString(typ), "*")
	if _, after, ok := strings.Cut(name, "."); ok {
		name = after
	}
	if name == "" || !ast.IsExported(name) {
		return nil
	}
	ft := p.resolve(strings.TrimPrefix(types.ExprString(typ), "*"), name, depth+1)
	if !ft.Known() {
		return nil
	}
	if ft.Kind == lang.KindStruct && key == "" {
		return ft.Fields
	}
	if key == "" {
		key = name
	}
	return []lang.Field{{Name: key, Type: ft}}
}

// importPath is the import path of file's package at the head: the module
// path of the nearest go.mod above it joined with the directory below it,
// "" when no go.mod names one (or there is no checkout). A package under
// a vendor directory is imported by the path below it.
func (gp *goPkgs) importPath(file string) string {
	if gp == nil || gp.headDir == "" {
		return ""
	}
	dir := path.Dir(filepath.ToSlash(file))
	if i := strings.LastIndex("/"+dir, "/vendor/"); i >= 0 {
		return dir[i+len("vendor/"):]
	}
	for d := dir; ; d = path.Dir(d) {
		data, err := os.ReadFile(filepath.Join(gp.headDir, filepath.FromSlash(d), "go.mod"))
		if err == nil {
			mod := modulePath(data)
			if mod == "" || d == dir {
				return mod
			}
			rel := strings.TrimPrefix(dir, d+"/")
			if d == "." {
				rel = dir
			}
			return mod + "/" + rel
		}
		if d == "." || d == "/" {
			return ""
		}
	}
}

// implementers are the package's own types whose methods (on T or *T)
// include every method of its interface type name, by their names: the
// types an argument of the interface is built from. None when name is not
// an interface of the package, or embeds another (its methods are not all
// in view).
func (p *goPkg) implementers(name string) []string {
	want, ok := p.interfaceMethods(name, 0)
	if !ok || len(want) == 0 {
		return nil
	}
	var out []string
	for typ, def := range p.types {
		if _, isStruct := def.(*ast.StructType); typ == name || !isStruct && p.methods[typ] == nil {
			continue
		}
		ms := p.methodSet(typ, 0)
		all := true
		for _, w := range want {
			all = all && ms[w]
		}
		if all {
			out = append(out, typ)
		}
	}
	sort.Strings(out)
	return out
}

// interfaceMethods are the method names of the package's interface type
// name, those of the package's interfaces it embeds too (type Expr
// interface{ Node }); ok is false when one is not in view (an embedded
// interface of another package) or name is no interface.
func (p *goPkg) interfaceMethods(name string, depth int) ([]string, bool) {
	it, ok := p.types[name].(*ast.InterfaceType)
	if !ok || it.Methods == nil || depth > 4 {
		return nil, false
	}
	var want []string
	for _, m := range it.Methods.List {
		if len(m.Names) == 0 {
			id, ok := m.Type.(*ast.Ident)
			if !ok {
				return nil, false
			}
			sub, ok := p.interfaceMethods(id.Name, depth+1)
			if !ok {
				return nil, false
			}
			want = append(want, sub...)
			continue
		}
		for _, n := range m.Names {
			want = append(want, n.Name)
		}
	}
	return want, true
}

// methodSet are the methods of the package's type typ, those its
// embedded fields of the package's types promote too (NameExpr embeds
// Pos, whose Start it has).
func (p *goPkg) methodSet(typ string, depth int) map[string]bool {
	st, ok := p.types[typ].(*ast.StructType)
	if !ok || depth > 4 {
		return p.methods[typ]
	}
	out := maps.Clone(p.methods[typ])
	for _, f := range st.Fields.List {
		if len(f.Names) > 0 {
			continue
		}
		t := f.Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		if id, ok := t.(*ast.Ident); ok {
			for m := range p.methodSet(id.Name, depth+1) {
				if out == nil {
					out = map[string]bool{}
				}
				out[m] = true
			}
		}
	}
	return out
}

// namedFirst is t with the constants of each named type in it (its own,
// its fields', its elements') that words name first. A struct's values
// try only the first few constants of each field's type, in declaration
// order; the constants the changed function compares a field with
// (n.TokenType == IntegerToken) are the ones its change is about.
func (p *goPkg) namedFirst(t lang.Type, words map[string]bool, depth int) lang.Type {
	if depth > 4 || len(words) == 0 {
		return t
	}
	if names := p.constNames[strings.TrimPrefix(t.Text, "*")]; len(names) == len(t.Consts) && len(names) > 0 {
		var first, rest []any
		for i, v := range t.Consts {
			if words[names[i]] {
				first = append(first, v)
			} else {
				rest = append(rest, v)
			}
		}
		t.Consts = append(first, rest...)
	}
	if len(t.Fields) > 0 {
		fields := make([]lang.Field, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = p.namedFirst(f.Type, words, depth+1)
			fields[i] = f
		}
		t.Fields = fields
	}
	if t.Elem != nil {
		e := p.namedFirst(*t.Elem, words, depth+1)
		t.Elem = &e
	}
	return t
}

// identRe finds the identifiers of Go source.
var identRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// identsOf are the identifiers texts name.
func identsOf(texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, w := range identRe.FindAllString(t, -1) {
			out[w] = true
		}
	}
	return out
}
