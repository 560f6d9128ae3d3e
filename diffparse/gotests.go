package diffparse

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
)

// A GoTestFunc is a top-level test function of a Go test file,
// func TestX(t *testing.T), and the literals of its body that are its
// inputs: what the gate's variants of a test replace (gate.GoVariants).
type GoTestFunc struct {
	Name string
	// Start and End are its bytes in the file, NameAt its name's first
	// byte; Line is the line it starts on.
	Start, End, NameAt, Line int
	Literals                 []GoLiteral
}

// A GoLiteral is one literal of a test's body.
type GoLiteral struct {
	// From and To are its bytes in the file; Text is it as written.
	From, To int
	Text     string
	// Kind is "string" (Value is its value), "number" (a signed integer
	// or float as written) or "slice" (a slice written out of plain
	// literals: Type is its type as written, Items its items).
	Kind  string
	Value string
	Type  string
	Items []string
}

// expectsField names a table row's field that holds what the test
// expects rather than what it gives.
var expectsField = regexp.MustCompile(`(?i)^(want|expect|exp|golden|out|output|result|res)`)

// assertPackages are the assertion libraries whose calls' arguments are
// what a test expects.
var assertPackages = map[string]bool{"assert": true, "require": true, "is": true, "qt": true, "check": true}

// GoTestLiterals reads src, a Go test file, for its test functions and
// the literals of their bodies that are inputs: not the messages and
// names of t's methods (t.Errorf, t.Run's name; a subtest's body is read),
// not a side of == or != (the value a test expects), not the fields of a
// table row named for what it expects (want, expected), not an assertion
// library's arguments, not an array type's length.
func GoTestLiterals(src []byte) ([]GoTestFunc, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var out []GoTestFunc
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !isGoTestFunc(fd) {
			continue
		}
		out = append(out, GoTestFunc{Name: fd.Name.Name, Start: off(fd.Pos()), End: off(fd.End()), NameAt: off(fd.Name.Pos()),
			Line: fset.Position(fd.Pos()).Line, Literals: testLiterals(fd.Body, fd.Type.Params.List[0].Names[0].Name, src, off)})
	}
	return out, nil
}

// isGoTestFunc says fd is func TestX(t *testing.T) with its parameter
// named.
func isGoTestFunc(fd *ast.FuncDecl) bool {
	n := fd.Name.Name
	if len(n) < 4 || n[:4] != "Test" || n == "TestMain" || fd.Type.Params == nil || len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) != 1 {
		return false
	}
	star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T" && fd.Type.Params.List[0].Names[0].Name != "_"
}

// testLiterals are the literals of body, a test function's whose
// *testing.T is named t, that are inputs.
func testLiterals(body *ast.BlockStmt, t string, src []byte, off func(token.Pos) int) []GoLiteral {
	var out []GoLiteral
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && (id.Name == t || assertPackages[id.Name]) {
					if id.Name == t && sel.Sel.Name == "Run" && len(x.Args) == 2 {
						// t.Run(name, func(t *testing.T) {...}): the
						// subtest's body, not its name
						if fl, ok := x.Args[1].(*ast.FuncLit); ok {
							sub := t
							if ps := fl.Type.Params.List; len(ps) == 1 && len(ps[0].Names) == 1 {
								sub = ps[0].Names[0].Name
							}
							out = append(out, testLiterals(fl.Body, sub, src, off)...)
						}
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
			l := GoLiteral{From: off(x.Pos()), To: off(x.End()), Text: x.Value}
			switch x.Kind {
			case token.STRING:
				v, err := strconv.Unquote(x.Value)
				if err != nil {
					return false
				}
				l.Kind, l.Value = "string", v
			case token.INT, token.FLOAT:
				l.Kind = "number"
				if u, neg := parent.(*ast.UnaryExpr); neg && u.Op == token.SUB {
					l.From, l.Text = off(u.Pos()), "-"+l.Text
				}
			default:
				return false
			}
			out = append(out, l)
			return false
		case *ast.CompositeLit:
			if l, ok := sliceLiteral(x, src, off); ok {
				out = append(out, l)
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

// sliceLiteral is a slice written out of plain literals ([]string{"-a",
// "x"}).
func sliceLiteral(x *ast.CompositeLit, src []byte, off func(token.Pos) int) (GoLiteral, bool) {
	at, ok := x.Type.(*ast.ArrayType)
	if !ok || at.Len != nil || len(x.Elts) == 0 {
		return GoLiteral{}, false
	}
	l := GoLiteral{From: off(x.Pos()), To: off(x.End()), Text: string(src[off(x.Pos()):off(x.End())]), Kind: "slice",
		Type: string(src[off(x.Type.Pos()):off(x.Type.End())])}
	for _, e := range x.Elts {
		switch e := e.(type) {
		case *ast.BasicLit:
		case *ast.UnaryExpr:
			if _, ok := e.X.(*ast.BasicLit); !ok {
				return GoLiteral{}, false
			}
		default:
			return GoLiteral{}, false
		}
		l.Items = append(l.Items, string(src[off(e.Pos()):off(e.End())]))
	}
	return l, true
}
