package gosource

import (
	"go/ast"
	"go/build"
	"sort"
)

// errorMakers are the calls whose result a package keeps in a variable as
// an error its callers test for by identity (errors.Is, ==).
var errorMakers = map[string]bool{"errors.New": true, "fmt.Errorf": true, "xerrors.New": true, "xerrors.Errorf": true}

// SentinelErrors are the package's exported package-level variables that
// hold an error callers compare with (var ErrNotFound = errors.New("not
// found"), or one declared of type error), in name order: of the files
// the build compiles here, test files aside.
func (p *Package) SentinelErrors() []string {
	var out []string
	for name, v := range p.in.vars {
		if !ast.IsExported(name) || v.file.test {
			continue
		}
		if ok, err := build.Default.MatchFile(p.dir, v.file.name); err != nil || !ok {
			continue
		}
		if id, ok := v.typ.(*ast.Ident); ok && id.Name == "error" || makesError(v.expr) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
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
