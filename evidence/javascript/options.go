package javascript

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/premise-dev/premise/validate"
)

// maxMergedOptions bounds the rows mergedOptions adds to a function's.
const maxMergedOptions = 24

// mergedOptions are the calls of rows (the tests' own, harvested) with an
// options object replaced by it and another call's options together: at
// each argument position from on, every plain object the calls pass there
// (keys of its own, none of premise's "$" encodings) gains the keys of
// each other that it lacks, with that one's values. A function with
// options is tested one option at a time; its bugs are often where two
// meet (a formatter's commaPosition with a four-space indent).
func mergedOptions(rows []validate.Row, from, limit int) [][]any {
	type use struct {
		args []any
		pos  int
	}
	var uses []use
	byPos := map[int][]map[string]any{}
	for _, r := range rows {
		args, _ := r.CallArgs()
		for p := from; p < len(args); p++ {
			o, ok := plainObject(args[p])
			if !ok {
				continue
			}
			uses = append(uses, use{args, p})
			if !slices.ContainsFunc(byPos[p], func(x map[string]any) bool { return reflect.DeepEqual(x, o) }) {
				byPos[p] = append(byPos[p], o)
			}
		}
	}
	var out [][]any
	for _, u := range uses {
		own, _ := plainObject(u.args[u.pos])
		for _, other := range byPos[u.pos] {
			if len(out) >= limit {
				return out
			}
			merged := maps.Clone(own)
			added := false
			for k, v := range other {
				if _, has := merged[k]; !has {
					merged[k] = v
					added = true
				}
			}
			if !added {
				continue
			}
			args := slices.Clone(u.args)
			args[u.pos] = merged
			out = append(out, args)
		}
	}
	return out
}

// plainObject is v as an object of its own keys: not a value premise
// encodes in one ("$new", "$undefined"...), not an empty one.
func plainObject(v any) (map[string]any, bool) {
	o, ok := v.(map[string]any)
	if !ok || len(o) == 0 {
		return nil, false
	}
	for k := range o {
		if strings.HasPrefix(k, "$") {
			return nil, false
		}
	}
	return o, true
}
