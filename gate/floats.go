package gate

import (
	"encoding/json"
	"math"
	"strconv"
)

// A float that holds a whole number (1.0, -0.0) leaves Go's encoding/json
// as an integer (1, 0), and a Python worker would read it as an int: the
// row "naturalsize(1.0)" would run naturalsize(1), which the base and the
// head may well treat alike. A worker that tells floats from ints
// (procSpec.floats) gets such values written as floats.

// floatsKept is c with every whole-number float64 of its arguments
// written as a float; c itself when it has none.
func (c Call) floatsKept() Call {
	if !hasWholeFloat(c.Args) && !hasWholeFloat(c.Kwargs) {
		return c
	}
	c.Args, _ = keepFloats(c.Args).([]any)
	if c.Kwargs != nil {
		c.Kwargs, _ = keepFloats(c.Kwargs).(map[string]any)
	}
	if c.body != nil {
		c.body, _ = encodeBody(c.Target, c.Args, c.Kwargs)
	}
	return c
}

// wholeFloat reports whether f is a float64 whose JSON has no point.
func wholeFloat(v any) bool {
	f, ok := v.(float64)
	return ok && !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f) && math.Abs(f) < 1e21
}

func hasWholeFloat(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if hasWholeFloat(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasWholeFloat(e) {
				return true
			}
		}
	default:
		return wholeFloat(v)
	}
	return false
}

// keepFloats copies v with each whole-number float64 as a json.Number
// with a point ("1.0", "-0.0").
func keepFloats(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = keepFloats(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = keepFloats(e)
		}
		return out
	}
	if wholeFloat(v) {
		f := v.(float64)
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if math.Signbit(f) && f == 0 {
			s = "-0"
		}
		return json.Number(s + ".0")
	}
	return v
}
