package golang

import (
	"go/ast"
	"go/token"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// Statements are a Go file's statements as go tool cover's blocks see
// them run (coverage.go): a simple statement's lines; a compound
// statement's header, from its keyword to its opening brace; a case's
// `case x:` line; a func's signature to its brace, counted run when its
// body ran. nil when the file does not parse.
func (*goLang) Statements(src []byte) []lang.StmtLines {
	if src == nil {
		return nil
	}
	fset, file, err := diffparse.ParseGo("x.go", src)
	if err != nil {
		return nil
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var out []lang.StmtLines
	header := func(from token.Pos, brace token.Pos) {
		out = append(out, lang.StmtLines{First: line(from), Last: line(brace)})
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncDecl:
			if s.Body != nil {
				out = append(out, lang.StmtLines{First: line(s.Pos()), Last: line(s.Body.Lbrace), Def: true})
			}
		case *ast.BlockStmt, *ast.LabeledStmt, *ast.EmptyStmt:
		case *ast.IfStmt:
			header(s.If, s.Body.Lbrace)
		case *ast.ForStmt:
			header(s.For, s.Body.Lbrace)
		case *ast.RangeStmt:
			header(s.For, s.Body.Lbrace)
		case *ast.SwitchStmt:
			header(s.Switch, s.Body.Lbrace)
		case *ast.TypeSwitchStmt:
			header(s.Switch, s.Body.Lbrace)
		case *ast.SelectStmt:
			header(s.Select, s.Body.Lbrace)
		case *ast.CaseClause:
			header(s.Case, s.Colon)
		case *ast.CommClause:
			header(s.Case, s.Colon)
		case ast.Stmt:
			out = append(out, lang.StmtLines{First: line(s.Pos()), Last: line(s.End())})
		}
		return true
	})
	return out
}
