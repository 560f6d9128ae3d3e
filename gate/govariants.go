package gate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// A Go test's variants are the Python ones' (base_tests.py variants_of)
// for Go: the test compiled again from the merge-base's source under a
// name of its own, with one literal of its body replaced. Table-driven
// tests write their inputs as literals (args := []string{"-a", "val"});
// a variant runs the same code on an input the test did not write, and a
// variant that ends one way on the base and another on the head is a
// change, as a row's input is.

// A GoVariant is one variant of a Go test.
type GoVariant struct {
	// ID is the variant as a test row names it: "TestX[variant 2]".
	ID string
	// Test is the test it varies; Func the name of its function in the
	// varied file.
	Test, Func string
	// What says which literal became what: `"-a" as ""`.
	What string
	// first and last are the varied file's lines its function spans,
	// origin the line of the test's own function it is made from.
	first, last, origin int
}

// maxGoVariantSites bounds the literals of one test that are replaced.
const maxGoVariantSites = 12

// GoVariants returns src, a Go test file of the merge-base, with the
// variants of tests (its top-level TestX(t *testing.T) functions) added
// at its end, at most max per test, and the variants in order. Those of
// skip (by ID: ones that did not compile) are left out; the others keep
// their numbers. The literals replaced are those of the test's body that
// are inputs: not the messages and names of t's methods (t.Errorf,
// t.Run's name), not a side of == or != (the value a test expects), not
// the fields of a table row named for what it expects (want, expected),
// not an assertion library's arguments.
func GoVariants(src []byte, tests []string, max int, skip map[string]bool) ([]byte, []GoVariant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	taken := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			taken[fd.Name.Name] = true
		}
	}
	out := bytes.NewBuffer(append([]byte{}, src...))
	if !bytes.HasSuffix(src, []byte("\n")) {
		out.WriteByte('\n')
	}
	var vs []GoVariant
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !isGoTestFunc(fd) || !containsString(tests, fd.Name.Name) {
			continue
		}
		t := fd.Type.Params.List[0].Names[0].Name
		start, end := fset.Position(fd.Pos()).Offset, fset.Position(fd.End()).Offset
		name := fset.Position(fd.Name.Pos()).Offset - start
		for n, s := range variantSteps(goSites(fset, fd.Body, t, src), max) {
			id := fmt.Sprintf("%s%s%d]", fd.Name.Name, VariantMark, n)
			if skip[id] {
				continue
			}
			fn := fmt.Sprintf("%s__%d", fd.Name.Name, n)
			for taken[fn] {
				fn += "_"
			}
			text := string(src[start:end])
			lo, hi := s.from-start, s.to-start
			text = text[:name] + fn + text[name+len(fd.Name.Name):lo] + s.with + text[hi:]
			first := bytes.Count(out.Bytes(), []byte("\n")) + 2 // after a blank line
			fmt.Fprintf(out, "\n%s\n", text)
			vs = append(vs, GoVariant{ID: id, Test: fd.Name.Name, Func: fn, What: s.what, first: first, last: first + strings.Count(text, "\n"), origin: fset.Position(fd.Pos()).Line})
		}
	}
	return out.Bytes(), vs, nil
}

// isGoTestFunc says fd is func TestX(t *testing.T) with its parameter
// named.
func isGoTestFunc(fd *ast.FuncDecl) bool {
	n := fd.Name.Name
	if !strings.HasPrefix(n, "Test") || n == "TestMain" || fd.Type.Params == nil || len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) != 1 {
		return false
	}
	star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T" && fd.Type.Params.List[0].Names[0].Name != "_"
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// goSite is one literal of a test's body and what it may become.
type goSite struct {
	from, to int      // its bytes in the source
	text     string   // as written
	with     []string // its replacements, as written
	shows    []string // each as a variant names it
}

// goStep is one replacement of one site.
type goStep struct {
	from, to   int
	with, what string
}

// expectsField names a table row's field that holds what the test
// expects rather than what it gives.
var expectsField = regexp.MustCompile(`(?i)^(want|expect|exp|golden|out|output|result|res)`)

// assertPackages are the assertion libraries whose calls' arguments are
// what a test expects.
var assertPackages = map[string]bool{"assert": true, "require": true, "is": true, "qt": true, "check": true}

// goSites are the literals of body, a test function's, that are inputs.
func goSites(fset *token.FileSet, body *ast.BlockStmt, t string, src []byte) []goSite {
	var sites []goSite
	var stack []ast.Node
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && (id.Name == t || assertPackages[id.Name]) {
					if id.Name == t && sel.Sel.Name == "Run" && len(x.Args) == 2 {
						fl, ok := x.Args[1].(*ast.FuncLit)
						if !ok {
							return false
						}
						// t.Run(name, func(t *testing.T) {...}): the
						// subtest's body, not its name
						sub := t
						if ps := fl.Type.Params.List; len(ps) == 1 && len(ps[0].Names) == 1 {
							sub = ps[0].Names[0].Name
						}
						sites = append(sites, goSites(fset, fl.Body, sub, src)...)
					}
					return false
				}
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				return false // the value compared with is expected
			}
		case *ast.KeyValueExpr:
			if k, ok := x.Key.(*ast.Ident); ok && expectsField.MatchString(k.Name) {
				return false
			}
		case *ast.ArrayType:
			return false // [3]int: its length is a type's
		case *ast.BasicLit:
			if s, ok := goLitSite(x, src, off); ok {
				if u, neg := parent.(*ast.UnaryExpr); neg && u.Op == token.SUB {
					s.from = off(u.Pos())
					s.text = "-" + s.text
				}
				sites = append(sites, s)
			}
			return false
		case *ast.CompositeLit:
			if s, ok := goSliceSite(x, src, off); ok {
				sites = append(sites, s)
			}
		}
		stack = append(stack, n)
		return true
	})
	return sites
}

// goLitSite is a string or number literal as a site.
func goLitSite(x *ast.BasicLit, src []byte, off func(token.Pos) int) (goSite, bool) {
	s := goSite{from: off(x.Pos()), to: off(x.End()), text: x.Value}
	switch x.Kind {
	case token.STRING:
		v, err := strconv.Unquote(x.Value)
		if err != nil {
			return s, false
		}
		add := func(w string) {
			if w != v {
				s.with = append(s.with, strconv.Quote(w))
			}
		}
		add("")
		if m := markupAttribute.FindStringSubmatchIndex(v); m != nil {
			add(v[:m[3]] + v[m[1]:]) // its first element's first attribute gone
		}
		if r := []rune(v); len(r) > 1 {
			add(string(r[0]))
		}
		if digits.MatchString(v) {
			add(digits.ReplaceAllString(v, "0"))
			add(digits.ReplaceAllString(v, "1"))
		}
		if strings.Contains(v, "'") != strings.Contains(v, `"`) {
			add(strings.NewReplacer("'", `"`, `"`, "'").Replace(v))
		}
		add(strings.ReplaceAll(v, " ", "  "))
	case token.INT, token.FLOAT:
		for _, w := range []string{"0", "1", "-1"} {
			if w != x.Value {
				s.with = append(s.with, w)
			}
		}
	default:
		return s, false
	}
	s.shows = s.with
	return s, len(s.with) > 0
}

var digits = regexp.MustCompile(`[0-9]+`)

// markupAttribute is an attribute of a markup element: <path d="M0,0"/>.
var markupAttribute = regexp.MustCompile(`(<[A-Za-z][^<>]*?)\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*')`)

// goSliceSite is a slice written out of plain literals ([]string{"-a",
// "x"}) as a site: empty, without its last or first item, its last twice.
func goSliceSite(x *ast.CompositeLit, src []byte, off func(token.Pos) int) (goSite, bool) {
	at, ok := x.Type.(*ast.ArrayType)
	if !ok || at.Len != nil || len(x.Elts) == 0 {
		return goSite{}, false
	}
	var items []string
	for _, e := range x.Elts {
		switch e := e.(type) {
		case *ast.BasicLit:
		case *ast.UnaryExpr:
			if _, ok := e.X.(*ast.BasicLit); !ok {
				return goSite{}, false
			}
		default:
			return goSite{}, false
		}
		items = append(items, string(src[off(e.Pos()):off(e.End())]))
	}
	typ := string(src[off(x.Type.Pos()):off(x.Type.End())])
	s := goSite{from: off(x.Pos()), to: off(x.End()), text: string(src[off(x.Pos()):off(x.End())])}
	lists := [][]string{nil, items[:len(items)-1], items[1:], append(append([]string{}, items...), items[len(items)-1])}
	if len(items) == 1 {
		lists = [][]string{nil, append(append([]string{}, items...), items[0])}
	}
	for _, l := range lists {
		s.with = append(s.with, typ+"{"+strings.Join(l, ", ")+"}")
	}
	s.shows = s.with
	return s, true
}

// variantSteps are the replacements of sites taken in turns (each site's
// first, then each one's second, ...), the first maxGoVariantSites sites,
// at most max.
func variantSteps(sites []goSite, max int) []goStep {
	if len(sites) > maxGoVariantSites {
		sites = sites[:maxGoVariantSites]
	}
	var out []goStep
	for round := 0; len(out) < max; round++ {
		more := false
		for _, s := range sites {
			if round < len(s.with) && len(out) < max {
				out = append(out, goStep{from: s.from, to: s.to, with: s.with[round], what: shortLit(s.text) + " as " + shortLit(s.shows[round])})
				more = true
			}
		}
		if !more {
			break
		}
	}
	return out
}

// short is a literal in at most 60 characters, as a variant names it.
func shortLit(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// GoVariantsPerTest is how many variants of one Go test are made, the
// same in evidence and in the gate's test row, which numbers them alike.
const GoVariantsPerTest = 16

// GoVariantEnd is how the variant v ended in run (a verbose run): ""
// passed, else its deepest failing subtest's first message ("failed"
// when it said none), a line of the variant's function named as the
// test's own line; ran is false when run has no word of it (a variant
// before it panicked the test binary).
func GoVariantEnd(run GoTestRun, v GoVariant) (end string, ran bool) {
	fn := v.Func
	if run.Passed[fn] {
		return "", true
	}
	if _, failed := run.Failed[fn]; !failed {
		return "", false
	}
	leaf := fn
	for _, n := range run.Order {
		if strings.HasPrefix(n, fn+"/") && len(n) > len(leaf) {
			leaf = n
		}
	}
	how := run.Failed[leaf]
	if how == "" {
		how = run.Failed[fn]
	}
	if how == "" {
		how = "failed"
	}
	how = testLine.ReplaceAllStringFunc(how, func(at string) string {
		file, l, _ := strings.Cut(strings.TrimSuffix(at, ":"), ":")
		if n, err := strconv.Atoi(l); err == nil && n >= v.first && n <= v.last {
			return fmt.Sprintf("%s:%d:", file, n-v.first+v.origin)
		}
		return at
	})
	// A subtest's name is the test's own; the variant's function name
	// is premise's.
	return strings.ReplaceAll(how, fn, v.Test), true
}

// testLine is a place in a Go test file a message names.
var testLine = regexp.MustCompile(`\b[\w.-]+_test\.go:\d+:`)

// BuildErrorsIn are the variants of vs whose function holds one of
// errs (a failed build's places): those to leave out of the next build.
func BuildErrorsIn(errs []string, file string, vs []GoVariant) []string {
	var out []string
	for _, e := range errs {
		f, l, ok := strings.Cut(e, ":")
		n, err := strconv.Atoi(l)
		if !ok || err != nil || f != file {
			continue
		}
		for _, v := range vs {
			if n >= v.first && n <= v.last && !containsString(out, v.ID) {
				out = append(out, v.ID)
			}
		}
	}
	return out
}
