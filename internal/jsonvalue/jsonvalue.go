// Package jsonvalue reads JSON values as premise's rows carry them: a
// whole number stays an int, as the code that wrote it passed one.
package jsonvalue

import (
	"encoding/json"
	"strconv"
)

// Numbers returns v, decoded with json.Decoder.UseNumber, with each
// json.Number an int when it is written as one, else a float64, in lists
// and objects too.
func Numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Numbers(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Numbers(e)
		}
		return out
	}
	return v
}
