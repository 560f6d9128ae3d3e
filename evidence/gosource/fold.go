package gosource

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"slices"
)

// A boundary written as arithmetic (24 * 60 * 60, 1<<20 - 1, a sentinel
// as -(7 * 1111)) is the number it computes, as the compiler folds it:
// its neighbours are the inputs, its factors alone are not (issue 26,
// the computed trigger; pysource/fold.go and jssource/fold.go are the
// other languages'). evidence/golang draws the function's numbers from
// them.

// maxFolded bounds the numbers folded from one function's text.
const maxFolded = 8

// FoldedNumbers are the values of the constant arithmetic expressions of
// number literals in a Go function's text (a declaration, as the diff
// gives it), outermost first, each once; an expression of anything else
// (a name, a call) gives none.
func FoldedNumbers(text string) []float64 {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []float64
	seen := map[float64]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if len(out) >= maxFolded {
			return false
		}
		switch n.(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr:
		default:
			return true
		}
		v, ok := foldConst(n.(ast.Expr), 0)
		if !ok {
			return true
		}
		if x, ok := constant.Float64Val(constant.ToFloat(v)); ok && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
		return true
	})
	return out
}

// foldConst is the constant value of an expression of number literals
// and the arithmetic and bitwise operators, as go/constant computes it;
// ok is false for anything else, a division by zero, or a shift past 256.
func foldConst(e ast.Expr, depth int) (constant.Value, bool) {
	if depth > 32 {
		return nil, false
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.INT && x.Kind != token.FLOAT {
			return nil, false
		}
		v := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		return v, v.Kind() != constant.Unknown
	case *ast.ParenExpr:
		return foldConst(x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op != token.SUB && x.Op != token.ADD && x.Op != token.XOR {
			return nil, false
		}
		v, ok := foldConst(x.X, depth+1)
		if !ok || (x.Op == token.XOR && v.Kind() != constant.Int) {
			return nil, false
		}
		return constant.UnaryOp(x.Op, v, 0), true
	case *ast.BinaryExpr:
		a, ok := foldConst(x.X, depth+1)
		if !ok {
			return nil, false
		}
		b, ok := foldConst(x.Y, depth+1)
		if !ok {
			return nil, false
		}
		switch x.Op {
		case token.SHL, token.SHR:
			s, exact := constant.Uint64Val(b)
			if !exact || s > 256 || a.Kind() != constant.Int {
				return nil, false
			}
			return constant.Shift(a, x.Op, uint(s)), true
		case token.QUO, token.REM:
			if constant.Sign(b) == 0 {
				return nil, false
			}
			if x.Op == token.QUO && a.Kind() == constant.Int && b.Kind() == constant.Int {
				return constant.BinaryOp(a, token.QUO_ASSIGN, b), true // integer division
			}
			if x.Op == token.REM && (a.Kind() != constant.Int || b.Kind() != constant.Int) {
				return nil, false
			}
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
			if x.Op != token.ADD && x.Op != token.SUB && x.Op != token.MUL && (a.Kind() != constant.Int || b.Kind() != constant.Int) {
				return nil, false
			}
		default:
			return nil, false
		}
		return constant.BinaryOp(a, x.Op, b), true
	}
	return nil, false
}

// WithFolded is nums and, first, the folded numbers of texts
// (FoldedNumbers) not among them.
func WithFolded(nums []float64, texts ...string) []float64 {
	var out []float64
	for _, t := range texts {
		for _, x := range FoldedNumbers(t) {
			if !slices.Contains(out, x) && !slices.Contains(nums, x) {
				out = append(out, x)
			}
		}
	}
	return append(out, nums...)
}
