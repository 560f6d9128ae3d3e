package lang

import (
	"testing"

	"github.com/premise-dev/premise/validate"
)

// TestFirstDiffNamesTheProbeThatParts: two returned functions are told
// apart at the first probe whose replies differ, written as the language
// writes the call: a probe of the worker's own, a function the returned
// one carries called a second time, and a value it carries (wildcard-
// match's isMatch.regexp), which is read, not called.
func TestFirstDiffNamesTheProbeThatParts(t *testing.T) {
	cp := CallProbes{Probes: []string{"()", "(0)"}, AttrProbes: []string{"()", "(1)"}, Raised: "threw",
		Args: func(args []any) string { return "(" + Compact(args, 20) + ")" }, Show: func(v any) string { return Compact(v, 40) }}
	calls := func(items ...any) map[string]any { return map[string]any{CallsKey: items} }
	for _, c := range []struct {
		base, head    map[string]any
		label, bv, hv string
	}{
		{calls(1, 2), calls(1, map[string]any{"$raised": "TypeError"}), "f(0)", " = 2", " threw TypeError"},
		{calls(1, 2, map[string]any{"$attr": "clear", "$value": 0}, map[string]any{"$attr": "clear", "$value": 1}),
			calls(1, 2, map[string]any{"$attr": "clear", "$value": 0}, map[string]any{"$attr": "clear", "$value": 2}), "f.clear(1)", " = 1", " = 2"},
		{calls(1, 2, map[string]any{"$attr": "regexp", "$data": map[string]any{"$regexp": "/^a$/"}}),
			calls(1, 2, map[string]any{"$attr": "regexp", "$data": map[string]any{"$regexp": "/^a/"}}), "f.regexp", ` = {"$regexp":"/^a$/"}`, ` = {"$regexp":"/^a/"}`},
	} {
		label, bv, hv, ok := cp.FirstDiff("f", c.base, c.head, nil)
		if !ok || label != c.label || bv != c.bv || hv != c.hv {
			t.Errorf("FirstDiff = %q %q %q %v, want %q %q %q", label, bv, hv, ok, c.label, c.bv, c.hv)
		}
	}
}

// TestObservedRowAsksForItems: an observed row carries how many items of
// an iterator to compare and its extra probes beside its own keyword
// arguments, which it keeps.
func TestObservedRowAsksForItems(t *testing.T) {
	r := ObservedRow(validate.Row{Args: []any{1}, Kwargs: map[string]any{"k": 2}}, 20, []any{[]any{"x"}})
	if r.Kwargs[ObserveKey] != 20 || r.Kwargs["k"] != 2 || len(r.Args) != 1 {
		t.Errorf("observed row: %+v", r)
	}
	if _, ok := r.Kwargs[ProbesKey]; !ok {
		t.Errorf("observed row lost its probes: %+v", r)
	}
}
