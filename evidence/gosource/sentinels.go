package gosource

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// errorMakers are the calls whose result a package keeps in a variable as
// an error its callers test for by identity (errors.Is, ==).
var errorMakers = map[string]bool{"errors.New": true, "fmt.Errorf": true, "xerrors.New": true, "xerrors.Errorf": true}

// SentinelErrors are the exported package-level variables of the Go
// package in dir that hold an error callers compare with (var ErrNotFound
// = errors.New("not found"), or one declared of type error), by name, in
// name order, and the package's name: the files the build would
// compile, test files aside. A file that does not parse is skipped.
func SentinelErrors(dir string) (pkg string, names []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil
	}
	ctx := build.Default
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		pkg = f.Name.Name
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				typed := false
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "error" {
					typed = true
				}
				for i, n := range vs.Names {
					if !n.IsExported() {
						continue
					}
					if typed || i < len(vs.Values) && len(vs.Names) == len(vs.Values) && makesError(vs.Values[i]) {
						seen[n.Name] = true
					}
				}
			}
		}
	}
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return pkg, names
}

// makesError says e is a call of one of errorMakers.
func makesError(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && errorMakers[x.Name+"."+sel.Sel.Name]
}
