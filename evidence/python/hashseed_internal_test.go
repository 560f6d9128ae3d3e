package python

import (
	"testing"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// TestSeedCanMatter: a row of numbers that returns numbers is not rerun
// under other hash seeds (the seed hashes text alone); one whose input or
// answer holds text, or that raised, is.
func TestSeedCanMatter(t *testing.T) {
	ret := func(v any) gate.Reply { return gate.Reply{Outcome: gate.OutcomeReturned, Value: v} }
	rr := func(head, base gate.Reply) gate.RowResult {
		return gate.RowResult{Attempts: []gate.Attempt{{Reply: head, Base: &base}}}
	}
	nums := validate.Row{Args: []any{[]any{3, 1}, 2}}
	words := validate.Row{Args: []any{[]any{"a", "b"}}}
	if seedCanMatter(nums, rr(ret([]any{1, 3}), ret([]any{3, 1}))) {
		t.Error("numbers in, numbers out: rerun under other seeds")
	}
	// An evidence row is observed: its probes, NaN and infinity written
	// as expressions, are calls of a function a side returned, not its
	// input. Nine more worker pairs a side for a row of numbers was half
	// the evidence's time on the bundled example.
	probes := []any{[]any{nil}, []any{map[string]any{"$expr": "float('nan')"}}, []any{"x"}}
	observed := validate.Row{Args: nums.Args, Kwargs: map[string]any{"$observe": 20, "$probes": probes}}
	if seedCanMatter(observed, rr(ret([]any{1, 3}), ret([]any{3, 1}))) {
		t.Error("an observed row of numbers: rerun under other seeds for its probes")
	}
	calls := func(vs ...any) any { return map[string]any{"$calls": vs} }
	if !seedCanMatter(observed, rr(ret(calls(1, 2, 3)), ret(calls(1, 2, 4)))) {
		t.Error("a returned function answering text probes: not rerun under other seeds")
	}
	for name, c := range map[string]struct {
		r  validate.Row
		rr gate.RowResult
	}{
		"text in":  {words, rr(ret(1), ret(2))},
		"text out": {nums, rr(ret([]any{"b", "a"}), ret([]any{"a", "b"}))},
		"a raise":  {nums, rr(gate.Reply{Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "KeyError"}}, ret(1))},
		"repr out": {nums, rr(ret(map[string]any{"$repr": "{'a', 'b'}"}), ret(1))},
	} {
		if !seedCanMatter(c.r, c.rr) {
			t.Errorf("%s: not rerun under other seeds", name)
		}
	}
}
