package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

const observeSubjects = `
class Thing:
    def __repr__(self):
        return "<Thing @ %d>" % id(self)

def gen(n):
    for i in range(n):
        yield i

def late(n):
    yield 1
    raise ValueError("late")

def sort_in_place(xs):
    xs.sort()

def call(f, it):
    return [f(x) for x in it]

def thing():
    return [Thing()]

class Patch:
    def __init__(self):
        self._ops = []

    def build(self, op):
        self._ops.append(op)

    def keep(self, op):
        self._last = op

    def asdicts(self):
        return [{"op": o} for o in self._ops]

class Cents(int):
    def __add__(self, other):
        return 99

def cents(n):
    return Cents(n)

def plain_cents(n):
    return n

def ordered(n):
    import collections
    return collections.OrderedDict(n=n)
`

// TestPythonAdapterObserve: the evidence protocol keys ($observe, $expr)
// of the Python worker (issue 13, parts 4 and 5). Without $observe a call
// is as it always was.
func TestPythonAdapterObserve(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "obs.py"), []byte(observeSubjects), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	obs := map[string]any{"$observe": 3}
	tests := []struct {
		name   string
		call   Call
		want   Reply
		reason string
	}{
		{"generator items", Call{ID: "O1", Target: "obs.gen", Args: []any{2}, Kwargs: obs},
			Reply{ID: "O1", Outcome: OutcomeReturned, Value: []any{num("0"), num("1")}}, "an exhausted iterator is its items"},
		{"generator first items", Call{ID: "O2", Target: "obs.gen", Args: []any{5}, Kwargs: obs},
			Reply{ID: "O2", Outcome: OutcomeReturned, Value: map[string]any{"$first": []any{num("0"), num("1"), num("2")}}}, "at most $observe items"},
		{"raise while iterating", Call{ID: "O3", Target: "obs.late", Args: []any{1}, Kwargs: obs},
			Reply{ID: "O3", Outcome: OutcomeRaised, Exc: &Exc{Class: "ValueError", Message: "late"}}, ""},
		{"argument after the call", Call{ID: "O4", Target: "obs.sort_in_place", Args: []any{[]any{2, 1}}, Kwargs: obs},
			Reply{ID: "O4", Outcome: OutcomeReturned, Value: map[string]any{"$returned": nil, "$args_after": map[string]any{"0": []any{num("1"), num("2")}}}}, "an in-place sort is a change"},
		{"expressions", Call{ID: "O5", Target: "obs.call", Args: []any{
			map[string]any{"$expr": "operator.neg", "$imports": []any{"import operator"}},
			map[string]any{"$expr": "iter([1, 2])"}}, Kwargs: obs},
			Reply{ID: "O5", Outcome: OutcomeReturned, Value: []any{num("-1"), num("-2")}}, ""},
		{"repr without ids", Call{ID: "O6", Target: "obs.thing", Kwargs: obs},
			Reply{ID: "O6", Outcome: OutcomeReturned, Value: []any{map[string]any{"$repr": "<Thing>"}}}, "an id differs between workers"},
		{"expression raises", Call{ID: "O8", Target: "obs.call", Args: []any{
			map[string]any{"$expr": "obs.Thing(1)", "$imports": []any{"import obs"}}, []any{}}, Kwargs: obs},
			Reply{ID: "O8", Outcome: OutcomeRaised, Exc: &Exc{Class: "TypeError", Message: "Thing() takes no arguments"}},
			"a receiver's constructor that raises is the code's behaviour on the row, not the worker failing: one such row must not stop the others"},
		{"receiver after the call", Call{ID: "O10", Target: "obs.Patch.build", Args: []any{
			map[string]any{"$expr": "obs.Patch()", "$imports": []any{"import obs"}}, "addap"}, Kwargs: obs},
			Reply{ID: "O10", Outcome: OutcomeReturned, Value: map[string]any{"$returned": nil, "$args_after": map[string]any{
				"0": map[string]any{"$state": map[string]any{"asdicts()": []any{map[string]any{"op": "addap"}}}}}}},
			"a method that returns nothing and changes its receiver changed what the receiver shows: a build that appends the wrong operation is seen"},
		{"receiver's private state", Call{ID: "O11", Target: "obs.Patch.keep", Args: []any{
			map[string]any{"$expr": "obs.Patch()", "$imports": []any{"import obs"}}, "x"}, Kwargs: obs},
			Reply{ID: "O11", Outcome: OutcomeReturned, Value: nil},
			"a private attribute is how a class keeps its state, not what it shows: a refactor may keep it another way"},
		{"the project's own int", Call{ID: "O12", Target: "obs.cents", Args: []any{10}, Kwargs: obs},
			Reply{ID: "O12", Outcome: OutcomeReturned, Value: map[string]any{"$class": "Cents", "$value": num("10")}},
			"a look-alike of a plain value whose methods answer otherwise (Cents(10) + 1 is 99) is not the plain 10 another side returns"},
		{"a plain int", Call{ID: "O13", Target: "obs.plain_cents", Args: []any{10}, Kwargs: obs},
			Reply{ID: "O13", Outcome: OutcomeReturned, Value: num("10")}, ""},
		{"the standard library's dict", Call{ID: "O14", Target: "obs.ordered", Args: []any{1}, Kwargs: obs},
			Reply{ID: "O14", Outcome: OutcomeReturned, Value: map[string]any{"n": num("1")}},
			"an OrderedDict is compared as the dict it holds, as before"},
		{"no observe", Call{ID: "O7", Target: "obs.gen", Args: []any{2}},
			Reply{ID: "O7", Outcome: OutcomeUnencodable}, "gate rows see what they always saw"},
		{"expressions without observe", Call{ID: "O9", Target: "obs.call", Args: []any{
			map[string]any{"$expr": "operator.neg", "$imports": []any{"import operator"}}, []any{3}}},
			Reply{ID: "O9", Outcome: OutcomeReturned, Value: []any{num("-3")}},
			"a table's own row writes a value JSON cannot hold as an expression (a datetime), as check tells a person to: the code gets the value, never the dict"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), tc.call)
			if err != nil {
				t.Fatal(err)
			}
			got.Detail, got.Elapsed = "", 0
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
