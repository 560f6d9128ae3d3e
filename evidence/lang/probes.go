package lang

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/validate"
)

// What an observed row's reply says beyond its value, as the languages
// write it (Python's and JavaScript's Outcomes): the arguments a call
// left changed, and where two returned functions part.

// ObservedRow is r as an observed evidence call: its positional and
// keyword arguments, with ObserveKey set to items (how many items of a
// returned iterator are compared) and ProbesKey to probes (the extra
// calls a returned function is compared by) when there are some.
func ObservedRow(r validate.Row, items int, probes []any) validate.Row {
	args, kwargs := r.CallArgs()
	kw := make(map[string]any, len(kwargs)+2)
	for k, v := range kwargs {
		kw[k] = v
	}
	kw[ObserveKey] = items
	if len(probes) > 0 {
		kw[ProbesKey] = probes
	}
	r.Inp, r.HasInp = nil, false
	r.Args, r.Kwargs = args, kw
	return r
}

// ArgsAfterText writes the arguments a call left changed ({"0": [1, 3]},
// ArgsAfterKey's value) as "argument 1 became [1, 3]", keyword arguments
// by their names, each value as show writes it.
func ArgsAfterText(after map[string]any, show func(any) string) string {
	keys := slices.Sorted(maps.Keys(after))
	parts := make([]string, len(keys))
	for i, k := range keys {
		name := k
		if n, err := strconv.Atoi(k); err == nil {
			name = fmt.Sprintf("argument %d", n+1)
		}
		parts[i] = name + " became " + show(after[k])
	}
	return strings.Join(parts, ", ")
}

// CallProbes is how a language writes the calls its worker compares a
// returned function by ({"$calls": [...]}, CallsKey).
type CallProbes struct {
	// Probes are the worker's own calls, in the order of its replies;
	// AttrProbes the calls it makes of each function the returned one
	// carries ({"$attr": NAME, "$value": V}); a carried value that is no
	// function is {"$attr": NAME, "$data": V}.
	Probes, AttrProbes []string
	// Args writes an extra probe's arguments, "(…)".
	Args func([]any) string
	// Raised is the word for a probe that raised ("raised", "threw").
	Raised string
	// Show writes a probe's value.
	Show func(any) string
}

// FirstDiff finds the first probe on which two returned functions'
// replies part, name being how the function is written: that probe's
// label (f('ab'), f.regexp) and what each side did there (" = 3", "
// raised KeyError").
func (cp CallProbes) FirstDiff(name string, base, head any, extra []any) (string, string, string, bool) {
	bm, _ := base.(map[string]any)
	hm, _ := head.(map[string]any)
	bc, ok1 := bm[CallsKey].([]any)
	hc, ok2 := hm[CallsKey].([]any)
	if !ok1 || !ok2 {
		return "", "", "", false
	}
	// A returned object's method probes ({"$call": ...}) are not the
	// function's calls.
	extra = slices.DeleteFunc(slices.Clone(extra), func(p any) bool { _, ok := p.([]any); return !ok })
	attrSeen := map[string]int{}
	for i := 0; i < len(bc) && i < len(hc); i++ {
		label := fmt.Sprintf("%s(#%d)", name, i+1)
		switch {
		case i < len(cp.Probes):
			label = name + cp.Probes[i]
		case i-len(cp.Probes) < len(extra):
			// A probe from the target's own constants.
			if args, ok := extra[i-len(cp.Probes)].([]any); ok {
				label = name + cp.Args(args)
			}
		}
		if m, ok := hc[i].(map[string]any); ok {
			if a, ok := m["$attr"].(string); ok {
				if _, data := m["$data"]; data {
					label = name + "." + a
				} else {
					n := attrSeen[a]
					attrSeen[a]++
					label = name + "." + a + cp.AttrProbes[min(n, len(cp.AttrProbes)-1)]
				}
			}
		}
		if reflect.DeepEqual(bc[i], hc[i]) {
			continue
		}
		if l, bv, hv, ok := cp.FirstDiff(label, bc[i], hc[i], extra); ok {
			return l, bv, hv, true
		}
		return label, cp.outcome(bc[i]), cp.outcome(hc[i]), true
	}
	return "", "", "", false
}

// outcome is one probe's outcome: " = 3", " raised KeyError".
func (cp CallProbes) outcome(v any) string {
	if m, ok := v.(map[string]any); ok {
		if e, ok := m["$raised"].(string); ok {
			return " " + cp.Raised + " " + e
		}
		if _, ok := m["$attr"]; ok {
			if d, data := m["$data"]; data {
				v = d
			} else {
				v = m["$value"]
			}
		}
	}
	return " = " + cp.Show(v)
}
