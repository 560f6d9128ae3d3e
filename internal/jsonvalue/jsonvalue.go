// Package jsonvalue reads JSON values as premise's rows carry them: a
// whole number stays an int, as the code that wrote it passed one.
package jsonvalue

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Numbers returns v, decoded with json.Decoder.UseNumber, with each
// json.Number an int when it is written as one, else a float64, in lists
// and objects too.
func Numbers(v any) any {
	return Leaves(v, func(v any) any {
		x, ok := v.(json.Number)
		if !ok {
			return v
		}
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	})
}

// Leaves returns v with each value that is neither a list nor an object
// replaced by leaf's, in lists and objects too (new ones: v is not
// changed).
func Leaves(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Leaves(e, leaf)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Leaves(e, leaf)
		}
		return out
	}
	return leaf(v)
}

// ProtocolKey reports whether v holds, at any depth, an object key that
// starts with "$": a key premise's row protocol gives a meaning ($expr,
// $new, $func), which would make a value code. A value a model proposed
// must not hold one.
func ProtocolKey(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if ProtocolKey(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.HasPrefix(k, "$") || ProtocolKey(e) {
				return true
			}
		}
	}
	return false
}
