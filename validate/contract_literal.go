package validate

import (
	"encoding/json"
	"io"
	"math"
	"strings"
)

// literalContract is a contract of the shape `result == LITERAL` whose
// literal is JSON: the shape generated tables give most rows. It is judged
// by comparing values, as CEL's heterogeneous equality does, without
// compiling CEL: parsing a thousand CEL list literals costs more than
// running a thousand rows. FuzzLiteralContract checks that both agree.
//
// It is the one fast path beside CEL that earns its place (issue 12):
// without it bench/gate_vs_pytest.sh 1000 takes 2.5 times as long (21
// interleaved runs: 0.19 s -> 0.48 s wall, 0.14 s -> 0.34 s CPU, median).
type literalContract struct {
	want any
}

// parseLiteralContract recognises `result == LITERAL`; ok is false for any
// other expression, which is then compiled as CEL.
func parseLiteralContract(expr string) (*literalContract, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(expr), "result")
	if !ok {
		return nil, false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t\r\n"), "==")
	if !ok || strings.HasPrefix(rest, "=") {
		return nil, false
	}
	if strings.ContainsAny(rest, "{\\") {
		return nil, false // objects and escapes are left to CEL (celLiteral)
	}
	want, ok := fastLiteral([]byte(rest)) // jsondecode_fast.go
	if !ok {
		want, ok = literalValue(rest)
	}
	if !ok {
		return nil, false
	}
	return &literalContract{want: want}, true
}

// literalValue is the literal rest holds, normalised; ok is false when
// rest is not one JSON value CEL reads the same.
func literalValue(rest string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(rest))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false // more follows: `result == [] || x`
	}
	if !celLiteral(rest, v) {
		return nil, false
	}
	return Normalize(v), true
}

// celLiteral reports whether a JSON literal reads the same in CEL. Objects
// and escapes are left to CEL (a repeated key, \/), and so is a number
// CEL would not take: an integer beyond int64, a double beyond float64.
func celLiteral(raw string, v any) bool {
	if strings.ContainsAny(raw, "{\\") {
		return false
	}
	var ok func(any) bool
	ok = func(v any) bool {
		switch x := v.(type) {
		case json.Number:
			if _, err := x.Int64(); err == nil {
				return true
			}
			if !strings.ContainsAny(string(x), ".eE") {
				return false
			}
			_, err := x.Float64()
			return err == nil
		case []any:
			for _, e := range x {
				if !ok(e) {
					return false
				}
			}
		}
		return true
	}
	return ok(v)
}

// Eval reports whether result equals the literal.
func (c *literalContract) Eval(result, _ any, _ []any, _ map[string]any) (bool, error) {
	return equalNormalized(result, c.want), nil
}

// equalNormalized is celEqual(Normalize(a), b) without building a's
// normalised copy: lists and maps are walked as they are, and only their
// scalars normalised.
func equalNormalized(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalNormalized(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalNormalized(v, w) {
				return false
			}
		}
		return true
	}
	return celEqual(Normalize(a), b)
}

// celEqual is CEL's equality over normalised JSON values: numbers compare
// by value across int and double, lists element by element, maps key by
// key, and values of different kinds are unequal.
func celEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return intEqualsFloat(x, y)
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return intEqualsFloat(y, x)
		}
		return false
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !celEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !celEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

func intEqualsFloat(i int64, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return false
	}
	if f < -(1<<63) || f >= 1<<63 {
		return false
	}
	return int64(f) == i
}
