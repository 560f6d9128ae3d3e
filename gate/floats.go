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
	c, _ = c.floatsKeptChanged()
	return c
}

// floatsKeptChanged is floatsKept, and whether c had such a float.
func (c Call) floatsKeptChanged() (Call, bool) {
	// The list as it is, not boxed in an interface: a call's arguments
	// mostly hold no such float, and are then left alone without an
	// allocation.
	args, a := keepFloatsList(c.Args)
	kwargs, k := keepFloats(c.Kwargs)
	if !a && !k {
		return c, false
	}
	c.Args = args
	c.Kwargs, _ = kwargs.(map[string]any)
	if c.body != nil {
		c.body, _ = encodeBody(c.Target, c.Args, c.Kwargs)
	}
	return c, true
}

// keepFloatsList is keepFloats of a list: x itself when it holds no
// whole-number float64.
func keepFloatsList(x []any) ([]any, bool) {
	var cp []any
	for i, e := range x {
		if ne, ok := keepFloats(e); ok {
			if cp == nil {
				cp = append([]any(nil), x...)
			}
			cp[i] = ne
		}
	}
	if cp == nil {
		return x, false
	}
	return cp, true
}

// keepFloats is v with each whole-number float64 as a json.Number with a
// point ("1.0", "-0.0"), copied only where one is; changed says whether
// any was.
func keepFloats(v any) (out any, changed bool) {
	switch x := v.(type) {
	case []any:
		if cp, ok := keepFloatsList(x); ok {
			return cp, true
		}
		return v, false
	case map[string]any:
		var cp map[string]any
		for k, e := range x {
			if ne, ok := keepFloats(e); ok {
				if cp == nil {
					cp = make(map[string]any, len(x))
					for k2, e2 := range x {
						cp[k2] = e2
					}
				}
				cp[k] = ne
			}
		}
		if cp == nil {
			return v, false
		}
		return cp, true
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) || x != math.Trunc(x) || math.Abs(x) >= 1e21 {
			return v, false
		}
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if math.Signbit(x) && x == 0 {
			s = "-0"
		}
		return json.Number(s + ".0"), true
	}
	return v, false
}
