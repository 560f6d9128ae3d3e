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
	"strings"
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

// corpusValue reads one line of a corpus file: a conversion of one
// literal, read by the reader of its type.
func corpusValue(line []byte) (Value, error) {
	typ, arg, err := corpusConversion(line)
	if err != nil {
		return nil, err
	}
	neg := false
	if u, ok := arg.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		neg = u.Op == token.SUB
		arg = u.X
	}
	if id, ok := arg.(*ast.Ident); ok {
		return corpusIdent(typ, id, neg)
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
	read, ok := corpusReaders[typ]
	if !ok {
		return nil, fmt.Errorf("unknown type %s", typ)
	}
	return read(lit, text, typ)
}

// corpusConversion parses a line as T(arg) and returns the type's name
// as the reader tables know it ("int", "[]byte", "Float64frombits") and
// the argument.
func corpusConversion(line []byte) (string, ast.Expr, error) {
	e, err := parser.ParseExprFrom(token.NewFileSet(), "", line, 0)
	if err != nil {
		return "", nil, err
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return "", nil, errors.New("want a conversion of one literal")
	}
	switch f := call.Fun.(type) {
	case *ast.ArrayType:
		if elt, ok := f.Elt.(*ast.Ident); !ok || f.Len != nil || elt.Name != "byte" {
			return "", nil, errors.New("want []byte")
		}
		return "[]byte", call.Args[0], nil
	case *ast.SelectorExpr:
		pkg, ok := f.X.(*ast.Ident)
		if !ok || pkg.Name != "math" || f.Sel.Name != "Float64frombits" && f.Sel.Name != "Float32frombits" {
			return "", nil, errors.New("want math.Float64frombits or math.Float32frombits")
		}
		return f.Sel.Name, call.Args[0], nil
	case *ast.Ident:
		return f.Name, call.Args[0], nil
	}
	return "", nil, errors.New("want a type")
}

// corpusIdent reads an argument that is a name: true and false for a
// bool; NaN and Inf, which JSON cannot carry, and any other name are
// errors.
func corpusIdent(typ string, id *ast.Ident, neg bool) (Value, error) {
	switch {
	case typ == "bool" && !neg && (id.Name == "true" || id.Name == "false"):
		return id.Name == "true", nil
	case id.Name == "NaN" || id.Name == "Inf":
		return nil, errors.New("JSON cannot carry NaN or Inf")
	}
	return nil, fmt.Errorf("want a literal, not %s", id.Name)
}

// corpusReaders read a literal by the type it is converted to; text is
// the literal with its sign.
var corpusReaders = map[string]func(lit *ast.BasicLit, text, typ string) (Value, error){
	"string": corpusString, "[]byte": corpusString,
	"int": corpusInt, "int8": corpusInt, "int16": corpusInt, "int32": corpusInt, "int64": corpusInt, "rune": corpusInt,
	"uint": corpusUint, "uint8": corpusUint, "uint16": corpusUint, "uint32": corpusUint, "uint64": corpusUint, "byte": corpusUint,
	"float32": corpusFloat, "float64": corpusFloat,
	"Float64frombits": corpusBits, "Float32frombits": corpusBits,
}

// corpusString reads a string or a []byte from a string literal.
func corpusString(lit *ast.BasicLit, _, typ string) (Value, error) {
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
}

// corpusUint reads an unsigned integer: an integer that is not negative.
func corpusUint(lit *ast.BasicLit, text, typ string) (Value, error) {
	n, err := corpusInt(lit, text, typ)
	if err != nil {
		return nil, err
	}
	if x, ok := n.(int64); ok && x < 0 {
		return nil, fmt.Errorf("negative %s", typ)
	}
	return n, nil
}

// corpusFloat reads a float32 or float64 written as a number.
func corpusFloat(lit *ast.BasicLit, text, typ string) (Value, error) {
	if lit.Kind != token.FLOAT && lit.Kind != token.INT {
		return nil, fmt.Errorf("%s wants a number", typ)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, err
	}
	return finite(f)
}

// corpusBits reads math.Float64frombits(0x...) and
// math.Float32frombits(0x...): the bits as an unsigned integer.
func corpusBits(lit *ast.BasicLit, text, typ string) (Value, error) {
	if lit.Kind != token.INT || strings.HasPrefix(text, "-") {
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
