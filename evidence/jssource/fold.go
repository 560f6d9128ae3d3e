package jssource

import (
	"math"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A boundary written as arithmetic (24 * 60 * 60, (1 << 20) - 1, a
// sentinel as -(7 * 1111)) is the number it computes: its neighbours are
// the inputs, its factors alone are not (issue 26, the computed trigger;
// pysource/fold.go is Python's).

// foldNumber is the value of an arithmetic expression of number literals
// (not BigInt), names a module const binds to one, unary - and +, and the
// binary + - * / % ** << >> >>> & | ^, computed as JavaScript does; ok is
// false for anything else or a result that is not finite.
func foldNumber(f *File, n *sitter.Node, depth int) (float64, bool) {
	n = unwrap(n)
	if n == nil || depth > 32 {
		return 0, false
	}
	switch n.Kind() {
	case "number":
		return numberValue(f.text(n))
	case "identifier":
		if v := f.moduleConst(f.text(n)); v != nil && v.Kind() != "identifier" {
			return foldNumber(f, v, depth+1)
		}
	case "unary_expression":
		op := n.ChildByFieldName("operator")
		x, ok := foldNumber(f, n.ChildByFieldName("argument"), depth+1)
		if !ok || op == nil {
			return 0, false
		}
		switch f.text(op) {
		case "-":
			return -x, true
		case "+":
			return x, true
		}
	case "binary_expression":
		op := n.ChildByFieldName("operator")
		a, ok := foldNumber(f, n.ChildByFieldName("left"), depth+1)
		if !ok || op == nil {
			return 0, false
		}
		b, ok := foldNumber(f, n.ChildByFieldName("right"), depth+1)
		if !ok {
			return 0, false
		}
		v, ok := applyNumber(f.text(op), a, b)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		return v, true
	}
	return 0, false
}

// applyNumber is a op b on JavaScript's numbers: doubles, and 32-bit
// integers for the bitwise operators.
func applyNumber(op string, a, b float64) (float64, bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/":
		return a / b, true
	case "%":
		return math.Mod(a, b), true
	case "**":
		return math.Pow(a, b), true
	case "<<":
		return float64(toInt32(a) << (toUint32(b) & 31)), true
	case ">>":
		return float64(toInt32(a) >> (toUint32(b) & 31)), true
	case ">>>":
		return float64(toUint32(a) >> (toUint32(b) & 31)), true
	case "&":
		return float64(toInt32(a) & toInt32(b)), true
	case "|":
		return float64(toInt32(a) | toInt32(b)), true
	case "^":
		return float64(toInt32(a) ^ toInt32(b)), true
	}
	return 0, false
}

// toUint32 and toInt32 are ECMAScript's ToUint32 and ToInt32 of a finite
// number.
func toUint32(x float64) uint32 {
	return uint32(int64(math.Mod(math.Trunc(x), 1<<32)))
}

func toInt32(x float64) int32 { return int32(toUint32(x)) }

// numberValue reads a JavaScript number literal: 10, 2.5, 1e3, 0x1F,
// 0o17, 0b101, 1_000; a BigInt (10n) is no number.
func numberValue(text string) (float64, bool) {
	t := strings.ReplaceAll(text, "_", "")
	if strings.HasSuffix(t, "n") {
		return 0, false
	}
	if len(t) > 2 && t[0] == '0' && strings.ContainsRune("xXoObB", rune(t[1])) {
		n, err := strconv.ParseUint(t[2:], map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[t[1]], 64)
		return float64(n), err == nil
	}
	v, err := strconv.ParseFloat(t, 64)
	return v, err == nil
}

// numberText writes a folded number as JavaScript prints it for a value
// of that size: an integer by its digits, else its shortest form.
func numberText(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
