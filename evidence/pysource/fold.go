package pysource

import (
	"math/big"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A boundary is often written as arithmetic: a day as 24 * 60 * 60, a
// mask as (1 << 20) - 1, a sentinel as -(7 * 1111). Its value is the
// constant the code compares with, whose neighbours are the inputs; the
// factors alone are not (issue 26: a trigger computed from literals was
// never drawn, though the same value written as one literal was).

// maxFoldBits bounds a folded integer: a power past it (2 ** 100000) is
// no boundary worth a row.
const maxFoldBits = 256

// foldInt is the value of an integer expression of literals, names of
// module constants holding one (through lit), unary minus and plus, and
// + - * // % ** << >> & | ^ between them; ok is false for anything else, a
// division by zero or a value past maxFoldBits.
func foldInt(f *File, n *sitter.Node, lit func(*sitter.Node) (Constant, bool), depth int) (*big.Int, bool) {
	if n == nil || depth > 32 {
		return nil, false
	}
	switch n.Kind() {
	case "integer":
		return parseInt(f.text(n))
	case "parenthesized_expression":
		if n.NamedChildCount() != 1 {
			return nil, false
		}
		return foldInt(f, n.NamedChild(0), lit, depth+1)
	case "identifier":
		if k, ok := lit(n); ok && k.Kind == KindInt {
			return parseInt(k.Value)
		}
		return nil, false
	case "unary_operator":
		v, ok := foldInt(f, n.ChildByFieldName("argument"), lit, depth+1)
		if !ok {
			return nil, false
		}
		switch strings.TrimSpace(f.text(n))[0] {
		case '-':
			return v.Neg(v), true
		case '+':
			return v, true
		}
		return nil, false
	case "binary_operator":
		a, ok := foldInt(f, n.ChildByFieldName("left"), lit, depth+1)
		if !ok {
			return nil, false
		}
		b, ok := foldInt(f, n.ChildByFieldName("right"), lit, depth+1)
		if !ok {
			return nil, false
		}
		op := n.ChildByFieldName("operator")
		if op == nil {
			return nil, false
		}
		v, ok := applyInt(f.text(op), a, b)
		if !ok || v.BitLen() > maxFoldBits {
			return nil, false
		}
		return v, true
	}
	return nil, false
}

// applyInt is a op b as Python computes it on integers.
func applyInt(op string, a, b *big.Int) (*big.Int, bool) {
	v := new(big.Int)
	switch op {
	case "+":
		return v.Add(a, b), true
	case "-":
		return v.Sub(a, b), true
	case "*":
		return v.Mul(a, b), true
	case "//", "%":
		if b.Sign() == 0 {
			return nil, false
		}
		q, m := new(big.Int), new(big.Int)
		q.DivMod(a, b, m) // Euclidean: m >= 0
		if m.Sign() != 0 && b.Sign() < 0 {
			// Python floors toward minus infinity; its remainder takes
			// the divisor's sign.
			q.Sub(q, big.NewInt(1))
			m.Add(m, b)
		}
		if op == "//" {
			return q, true
		}
		return m, true
	case "**":
		if b.Sign() < 0 || b.BitLen() > 16 || int(b.Int64())*max(a.BitLen(), 1) > maxFoldBits {
			return nil, false
		}
		return v.Exp(a, b, nil), true
	case "<<":
		if b.Sign() < 0 || b.BitLen() > 16 || b.Int64() > maxFoldBits {
			return nil, false
		}
		return v.Lsh(a, uint(b.Int64())), true
	case ">>":
		if b.Sign() < 0 || b.BitLen() > 16 {
			return nil, false
		}
		return v.Rsh(a, uint(b.Int64())), true
	case "&":
		return v.And(a, b), true
	case "|":
		return v.Or(a, b), true
	case "^":
		return v.Xor(a, b), true
	}
	return nil, false
}

// parseInt reads a Python integer literal: 10, -3, 0x1F, 0o17, 0b101,
// 1_000.
func parseInt(text string) (*big.Int, bool) {
	return new(big.Int).SetString(strings.ReplaceAll(strings.TrimPrefix(text, "+"), "_", ""), 0)
}
