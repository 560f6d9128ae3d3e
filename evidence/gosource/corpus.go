package gosource

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
)

// corpusHeader opens every file of a go test fuzz corpus
// (testdata/fuzz/FuzzX/*).
const corpusHeader = "go test fuzz v1"

var errCorpus = errors.New("not a go test fuzz v1 file")

// parseCorpus reads one corpus file: after the header, one value a line,
// written as a conversion of a literal (string("abc"), int(-5), []byte("x"),
// rune('a'), float64(1.5), bool(true), math.Float64frombits(0x...)).
// Strings and []byte are carried as they are, integers as int64 (uint64
// above MaxInt64), floats as float64; a NaN or an infinity, which JSON
// cannot carry, makes the file an error.
func parseCorpus(data []byte) ([]Value, error) {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) == 0 || string(bytes.TrimSpace(lines[0])) != corpusHeader {
		return nil, errCorpus
	}
	var out []Value
	for i, l := range lines[1:] {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		v, err := corpusValue(l)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+2, err)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errCorpus
	}
	return out, nil
}

func corpusValue(line []byte) (Value, error) {
	e, err := parser.ParseExprFrom(token.NewFileSet(), "", line, 0)
	if err != nil {
		return nil, err
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil, errors.New("want a conversion of one literal")
	}
	arg := call.Args[0]
	var typ string
	switch f := call.Fun.(type) {
	case *ast.ArrayType:
		if elt, ok := f.Elt.(*ast.Ident); !ok || f.Len != nil || elt.Name != "byte" {
			return nil, errors.New("want []byte")
		}
		typ = "[]byte"
	case *ast.SelectorExpr:
		pkg, ok := f.X.(*ast.Ident)
		if !ok || pkg.Name != "math" || f.Sel.Name != "Float64frombits" && f.Sel.Name != "Float32frombits" {
			return nil, errors.New("want math.Float64frombits or math.Float32frombits")
		}
		typ = f.Sel.Name
	case *ast.Ident:
		typ = f.Name
	default:
		return nil, errors.New("want a type")
	}
	neg := false
	if u, ok := arg.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		neg = u.Op == token.SUB
		arg = u.X
	}
	if id, ok := arg.(*ast.Ident); ok {
		switch {
		case typ == "bool" && !neg && (id.Name == "true" || id.Name == "false"):
			return id.Name == "true", nil
		case id.Name == "NaN" || id.Name == "Inf":
			return nil, errors.New("JSON cannot carry NaN or Inf")
		}
		return nil, fmt.Errorf("want a literal, not %s", id.Name)
	}
	lit, ok := arg.(*ast.BasicLit)
	if !ok {
		return nil, errors.New("want a literal")
	}
	text := lit.Value
	if neg {
		if lit.Kind == token.STRING {
			return nil, errors.New("a negative string")
		}
		text = "-" + text
	}
	switch typ {
	case "string", "[]byte":
		if lit.Kind != token.STRING {
			return nil, fmt.Errorf("%s wants a string literal", typ)
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return nil, err
		}
		if typ == "[]byte" {
			return []byte(s), nil
		}
		return s, nil
	case "int", "int8", "int16", "int32", "int64", "rune":
		return corpusInt(lit, text, typ)
	case "uint", "uint8", "uint16", "uint32", "uint64", "byte":
		n, err := corpusInt(lit, text, typ)
		if err != nil {
			return nil, err
		}
		if x, ok := n.(int64); ok && x < 0 {
			return nil, fmt.Errorf("negative %s", typ)
		}
		return n, nil
	case "float32", "float64":
		if lit.Kind != token.FLOAT && lit.Kind != token.INT {
			return nil, fmt.Errorf("%s wants a number", typ)
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, err
		}
		return finite(f)
	case "Float64frombits", "Float32frombits":
		if lit.Kind != token.INT || neg {
			return nil, errors.New("want the bits as an integer")
		}
		bits, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			return nil, err
		}
		if typ == "Float32frombits" {
			if bits > math.MaxUint32 {
				return nil, errors.New("float32 bits out of range")
			}
			return finite(float64(math.Float32frombits(uint32(bits))))
		}
		return finite(math.Float64frombits(bits))
	}
	return nil, fmt.Errorf("unknown type %s", typ)
}

func finite(f float64) (Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errors.New("JSON cannot carry NaN or Inf")
	}
	return f, nil
}

// corpusInt reads an integer or a character literal, bounded by the type's
// size.
func corpusInt(lit *ast.BasicLit, text, typ string) (Value, error) {
	var n int64
	switch lit.Kind {
	case token.CHAR:
		if text[0] == '-' {
			return nil, errors.New("a negative character")
		}
		r, _, tail, err := strconv.UnquoteChar(text[1:len(text)-1], '\'')
		if err != nil || tail != "" {
			return nil, fmt.Errorf("bad character literal %s", text)
		}
		n = int64(r)
	case token.INT:
		x, err := strconv.ParseInt(text, 0, 64)
		if err != nil {
			u, uerr := strconv.ParseUint(text, 0, 64)
			if uerr != nil || typ != "uint" && typ != "uint64" {
				return nil, err
			}
			return u, nil
		}
		n = x
	default:
		return nil, fmt.Errorf("%s wants an integer", typ)
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch typ {
	case "int8":
		lo, hi = math.MinInt8, math.MaxInt8
	case "int16":
		lo, hi = math.MinInt16, math.MaxInt16
	case "int32", "rune":
		lo, hi = math.MinInt32, math.MaxInt32
	case "uint8", "byte":
		lo, hi = 0, math.MaxUint8
	case "uint16":
		lo, hi = 0, math.MaxUint16
	case "uint32":
		lo, hi = 0, math.MaxUint32
	}
	if n < lo || n > hi {
		return nil, fmt.Errorf("%d out of range for %s", n, typ)
	}
	return n, nil
}
