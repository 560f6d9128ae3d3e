package gosource

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/premise-dev/premise/diffparse"
)

// Limits on what one package directory is read for: a repository's tests
// are trusted to be small, not to be well behaved.
const (
	maxFileSize   = 4 << 20 // a larger .go file is skipped
	maxFiles      = 2000    // .go files read from one directory
	maxCorpus     = 200     // corpus files read per fuzz target
	maxCorpusSize = 64 << 10
)

// Package is one Go package directory read once: its non-test files and
// its _test.go files, of package x and of the external package x_test.
// Every query reads what Load parsed; the harvest of calls runs once, at
// the first query that needs it. A Package is safe for concurrent use.
type Package struct {
	// Name is the package clause of the non-test files ("semver").
	Name string
	// ImportPath is the path the external test package imports it by,
	// read from the nearest go.mod; "" when there is none.
	ImportPath string

	dir  string
	fset *token.FileSet
	// in is package x: its non-test files and its in-package tests; ext
	// is the external test package x_test, which reaches in through the
	// import (or a dot import).
	in, ext *unit

	// mu guards the memos the queries fill in.
	mu   sync.Mutex
	done bool
	// retDepth counts the helpers being evaluated for their result.
	retDepth int
	calls    map[string][]Call
	seen     map[string]map[string]bool
	ctors    map[string][]Ctor
	ctorKey  map[string]map[string]bool
	lits     map[string][]Value
}

// unit is one package clause's files and the package-level names they
// declare.
type unit struct {
	files  []*file
	types  map[string]*ast.TypeSpec
	consts map[string]*constSpec
	// constOrder lists the consts in declaration order.
	constOrder []string
	vars       map[string]*varSpec
	funcs      map[string]*ast.FuncDecl // "F" and "T.M"; non-test files only for in
	// helpers are the test files' plain functions, inlined at their
	// call sites.
	helpers map[string]*ast.FuncDecl
	// assigned are the names assigned with = anywhere in the unit: a
	// package-level var among them is not read as a constant.
	assigned map[string]bool

	constMemo map[string]val
	varMemo   map[string]val
	evalling  map[string]bool
}

type file struct {
	name string // base name
	ast  *ast.File
	test bool
	// imports maps a local name to its import path; "." for dot imports
	// is kept in dots.
	imports map[string]string
	dots    []string
	// pkgName is the name this file uses for the package under test
	// (external tests only); dot is true when it dot-imports it.
	pkgName string
	dot     bool
}

type constSpec struct {
	name string
	typ  ast.Expr // nil when untyped
	expr ast.Expr // nil when the spec has no value (a syntax error)
	iota int64
	file *file
}

type varSpec struct {
	name string
	typ  ast.Expr
	expr ast.Expr
	file *file
}

func newUnit() *unit {
	return &unit{
		types:     map[string]*ast.TypeSpec{},
		consts:    map[string]*constSpec{},
		vars:      map[string]*varSpec{},
		funcs:     map[string]*ast.FuncDecl{},
		helpers:   map[string]*ast.FuncDecl{},
		assigned:  map[string]bool{},
		constMemo: map[string]val{},
		varMemo:   map[string]val{},
		evalling:  map[string]bool{},
	}
}

// Load reads the package in dir, a package directory in a checkout. A file
// that does not parse is skipped; Load fails only when dir cannot be read
// or holds no Go file that parses.
func Load(dir string) (*Package, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read package %s: %w", dir, err)
	}
	p := &Package{dir: dir, fset: token.NewFileSet(), in: newUnit(), ext: newUnit()}
	var names []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) > maxFiles {
		names = names[:maxFiles]
	}
	var parsed []*file
	counts := map[string]int{}
	for _, n := range names {
		path := filepath.Join(dir, n)
		if st, err := os.Stat(path); err != nil || st.Size() > maxFileSize {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		af, err := parser.ParseFile(p.fset, n, src, parser.SkipObjectResolution)
		if err != nil || af.Name == nil || ignored(af) {
			continue
		}
		f := &file{name: n, ast: af, test: strings.HasSuffix(n, "_test.go"), imports: map[string]string{}}
		for _, is := range af.Imports {
			path, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				continue
			}
			switch {
			case is.Name == nil:
				f.imports[importName(path)] = path
			case is.Name.Name == ".":
				f.dots = append(f.dots, path)
			case is.Name.Name != "_":
				f.imports[is.Name.Name] = path
			}
		}
		parsed = append(parsed, f)
		if !f.test {
			counts[af.Name.Name]++
		}
	}
	if len(parsed) == 0 {
		return nil, fmt.Errorf("read package %s: no Go file parses", dir)
	}
	p.Name = mostCommon(counts)
	if p.Name == "" {
		// Only test files: the in-package tests name the package.
		for _, f := range parsed {
			if !strings.HasSuffix(f.ast.Name.Name, "_test") {
				p.Name = f.ast.Name.Name
				break
			}
		}
	}
	p.ImportPath = importPath(dir)
	for _, f := range parsed {
		switch name := f.ast.Name.Name; {
		case name == p.Name:
			p.in.add(f)
		case f.test && name == p.Name+"_test":
			p.bindExternal(f)
			p.ext.add(f)
		}
	}
	return p, nil
}

// ignored reports a file excluded from every build (//go:build ignore), which
// often holds a generator, not the package.
func ignored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if t, ok := strings.CutPrefix(c.Text, "//go:build "); ok && strings.TrimSpace(t) == "ignore" {
				return true
			}
		}
	}
	return false
}

func mostCommon(counts map[string]int) string {
	best, n := "", 0
	for name, c := range counts {
		if c > n || c == n && name < best {
			best, n = name, c
		}
	}
	return best
}

// importName is the name an import path is referred to by when the import
// names none: its last element, without a major version suffix (/v3) or a
// go- prefix or .go suffix, which packages such as go-humanize drop.
func importName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && isDigits(last[1:]) {
		last = elems[len(elems)-2]
	}
	last = strings.TrimPrefix(last, "go-")
	last = strings.TrimSuffix(last, ".go")
	last = strings.TrimSuffix(last, "-go")
	return strings.ReplaceAll(last, "-", "_")
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// importPath reads the module path of the nearest go.mod above dir and
// joins it with dir's place in the module.
func importPath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d, i := abs, 0; i < 32; d, i = filepath.Dir(d), i+1 {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mod := modulePath(data)
			if mod == "" {
				return ""
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil || rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok {
			rest = strings.TrimSpace(rest)
			if s, err := strconv.Unquote(rest); err == nil {
				return s
			}
			if i := strings.IndexAny(rest, " \t/"); i >= 0 && rest[i] != '/' {
				rest = rest[:i]
			}
			return rest
		}
	}
	return ""
}

// bindExternal finds the name an external test file imports the package
// under test by: the import of ImportPath, or else an import whose path
// ends in the package's name (a checkout outside its module path).
func (p *Package) bindExternal(f *file) {
	if !p.bindImport(f, func(path string) bool { return p.ImportPath != "" && path == p.ImportPath }) {
		p.bindImport(f, func(path string) bool {
			return importName(path) == p.Name || strings.HasSuffix(path, "/"+p.Name)
		})
	}
}

func (p *Package) bindImport(f *file, match func(string) bool) bool {
	for _, is := range f.ast.Imports {
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil || !match(path) {
			continue
		}
		switch {
		case is.Name == nil:
			// Unnamed: the package clause names it, whatever the path.
			delete(f.imports, importName(path))
			f.pkgName = p.Name
		case is.Name.Name == ".":
			f.dot = true
			return true
		case is.Name.Name == "_":
			continue
		default:
			f.pkgName = is.Name.Name
		}
		f.imports[f.pkgName] = path
		return true
	}
	return false
}

// add indexes the package-level declarations of f.
func (u *unit) add(f *file) {
	u.files = append(u.files, f)
	for _, d := range f.ast.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name == nil {
				continue
			}
			key := funcKey(d)
			if f.test {
				if d.Recv == nil {
					if _, ok := u.helpers[key]; !ok {
						u.helpers[key] = d
					}
				}
			} else if _, ok := u.funcs[key]; !ok {
				u.funcs[key] = d
			}
		case *ast.GenDecl:
			u.genDecl(d, f)
		}
	}
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && a.Tok != token.DEFINE {
			for i, l := range a.Lhs {
				if id := rootIdent(l); id != nil && !appendsTo(a, i, id.Name) {
					u.assigned[id.Name] = true
				}
			}
		}
		if a, ok := n.(*ast.IncDecStmt); ok {
			if id := rootIdent(a.X); id != nil {
				u.assigned[id.Name] = true
			}
		}
		return true
	})
}

func (u *unit) genDecl(d *ast.GenDecl, f *file) {
	switch d.Tok {
	case token.TYPE:
		for _, s := range d.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok && ts.Name != nil {
				if _, dup := u.types[ts.Name.Name]; !dup {
					u.types[ts.Name.Name] = ts
				}
			}
		}
	case token.CONST:
		// An omitted expression list repeats the previous one and its
		// type (the Go spec, "Constant declarations"); iota counts specs.
		var typ ast.Expr
		var exprs []ast.Expr
		for i, s := range d.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if len(vs.Values) > 0 {
				typ, exprs = vs.Type, vs.Values
			}
			for j, n := range vs.Names {
				if n.Name == "_" {
					continue
				}
				cs := &constSpec{name: n.Name, typ: typ, iota: int64(i), file: f}
				if j < len(exprs) {
					cs.expr = exprs[j]
				}
				if _, dup := u.consts[n.Name]; !dup {
					u.consts[n.Name] = cs
					u.constOrder = append(u.constOrder, n.Name)
				}
			}
		}
	case token.VAR:
		for _, s := range d.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok || len(vs.Values) != len(vs.Names) && len(vs.Values) != 0 {
				continue
			}
			for j, n := range vs.Names {
				if n.Name == "_" {
					continue
				}
				v := &varSpec{name: n.Name, typ: vs.Type, file: f}
				if len(vs.Values) > 0 {
					v.expr = vs.Values[j]
				}
				if _, dup := u.vars[n.Name]; !dup {
					u.vars[n.Name] = v
				}
			}
		}
	}
}

// funcKey names a function "F" and a method "T.M", whatever its receiver's
// pointerness or type parameters.
func funcKey(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	return recvName(d.Recv.List[0].Type) + "." + d.Name.Name
}

func recvName(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// normKey accepts "F", "T.M" and "(*T).M".
func normKey(fn string) string {
	fn = strings.TrimSpace(fn)
	if strings.HasPrefix(fn, "(") {
		if i := strings.Index(fn, ")"); i > 0 {
			return strings.TrimPrefix(fn[1:i], "*") + fn[i+1:]
		}
	}
	return fn
}

// rootIdent is the variable an assignment's left side writes into: x for
// x, x.f, x[i] and *x.
func rootIdent(e ast.Expr) *ast.Ident {
	for i := 0; i < 64; i++ {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
	return nil
}

func (p *Package) pos(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	ps := p.fset.Position(pos)
	return ps.Filename + ":" + strconv.Itoa(ps.Line)
}

// appendsTo says the i-th assignment of a is x = append(x, ...): a table
// an init function extends still holds the rows its literal lists, which
// the tests do pass.
func appendsTo(a *ast.AssignStmt, i int, x string) bool {
	if len(a.Lhs) != len(a.Rhs) || a.Tok != token.ASSIGN {
		return false
	}
	if id, ok := a.Lhs[i].(*ast.Ident); !ok || id.Name != x {
		return false
	}
	call, ok := a.Rhs[i].(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	fn, ok := call.Fun.(*ast.Ident)
	first, ok2 := call.Args[0].(*ast.Ident)
	return ok && ok2 && fn.Name == "append" && first.Name == x
}

// Imports maps the names the package's own (non-test) files give their
// imports to the imports' paths.
func (p *Package) Imports() map[string]string {
	out := map[string]string{}
	for _, f := range p.in.files {
		if !f.test {
			for name, path := range f.imports {
				out[name] = path
			}
		}
	}
	return out
}

// Decls are the declarations of the package's own (non-test) files, in
// file order, as Load parsed them: the one reading of a package's types,
// constants, variables and constructors premise makes.
func (p *Package) Decls() []ast.Decl {
	var out []ast.Decl
	for _, f := range p.in.files {
		if !f.test {
			out = append(out, f.ast.Decls...)
		}
	}
	return out
}

// ParseFile parses one Go file's source on its own, without resolving
// objects: the reader of a changed file's two sides (signatures, the spans
// of its package-level values).
func ParseFile(src []byte) (*token.FileSet, *ast.File, error) {
	return diffparse.ParseGo("", src)
}
