package gosource

import (
	"go/ast"
	"slices"
	"sort"
	"strings"
)

// TestsReaching names the package's tests (TestX, ExampleX with its
// output, FuzzX with its seeds; in its own and its external test files) that can reach one of names, bare function
// or method names, through the package's functions: a function reaches a
// name its body mentions (a call, a method value, a function stored in a
// table), and whatever reaches a function that reaches it. By name
// alone, so a method of another type with the same name counts too: the
// list holds every test that reaches one, and perhaps some that do not.
func (p *Package) TestsReaching(names []string) []string {
	type decl struct {
		name string
		test bool
		uses map[string]bool
	}
	var decls []decl
	for _, u := range []*unit{p.in, p.ext} {
		if u == nil {
			continue
		}
		for _, f := range u.files {
			for _, d := range f.ast.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				uses := map[string]bool{}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						uses[id.Name] = true
					}
					return true
				})
				decls = append(decls, decl{name: fd.Name.Name, test: f.test && isTestDecl(fd), uses: uses})
			}
		}
	}
	reached := map[string]bool{}
	for _, n := range names {
		reached[n] = true
	}
	for grew := true; grew; {
		grew = false
		for _, d := range decls {
			if reached[d.name] {
				continue
			}
			for u := range d.uses {
				if reached[u] {
					reached[d.name], grew = true, true
					break
				}
			}
		}
	}
	var out []string
	for _, d := range decls {
		if d.test && reached[d.name] {
			out = append(out, d.name)
		}
	}
	sort.Strings(out)
	return out
}

// TestsNaming names the package's tests (TestX) whose own body names one
// of names (a call, a method value): those that use a changed function
// themselves, before those that reach it through others (TestsReaching).
func (p *Package) TestsNaming(names []string) []string {
	var out []string
	p.eachTest(func(fd *ast.FuncDecl) {
		named := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && slices.Contains(names, id.Name) {
				named = true
			}
			return !named
		})
		if named {
			out = append(out, fd.Name.Name)
		}
	})
	sort.Strings(out)
	return out
}

// eachTest calls fn with each test function of the package's test files
// (its own and its external ones).
func (p *Package) eachTest(fn func(*ast.FuncDecl)) {
	for _, u := range []*unit{p.in, p.ext} {
		if u == nil {
			continue
		}
		for _, f := range u.files {
			if !f.test {
				continue
			}
			for _, d := range f.ast.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && isTestDecl(fd) {
					fn(fd)
				}
			}
		}
	}
}

// isTestDecl says a function of a test file is one go test runs.
func isTestDecl(fd *ast.FuncDecl) bool {
	n := fd.Name.Name
	return fd.Recv == nil && n != "TestMain" && (strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Example") || strings.HasPrefix(n, "Fuzz"))
}

// Tests are every test function of the package's test files, sorted.
func (p *Package) Tests() []string {
	var out []string
	p.eachTest(func(fd *ast.FuncDecl) { out = append(out, fd.Name.Name) })
	sort.Strings(out)
	return out
}
