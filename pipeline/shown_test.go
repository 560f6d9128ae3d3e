package pipeline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShown: a reviewer reads, per symbol, one input for each distinct way
// base and head differ (the shrunk witness first, else the shortest), then
// the other inputs shortest first, each input once, five at most, and a
// count of the rest; a symbol with few changes shows them all.
func TestShown(t *testing.T) {
	cs := []BehaviorChange{
		{Symbol: "m.f", Row: "E1", Input: "([1, 2, 3, 4])", Head: "raised"},
		{Symbol: "m.g", Row: "E2", Input: "(1)"},
		{Symbol: "m.f", Row: "E3", Input: "([1, 2])", Head: "raised"},
		{Symbol: "m.f", Row: "E4", Input: "([1, 2, 3])", Head: "raised"},
		{Symbol: "m.f", Row: "E5", Input: "([9, 9, 9, 9, 9, 9])", Head: "returned 9"},
		{Symbol: "m.f", Row: "E6", Input: "([1, 2, 3, 5])", Head: "raised"},
		{Symbol: "m.f", Row: "E7", Input: "([1, 2, 3, 6])", Head: "raised"},
		{Symbol: "m.f", Row: "E8", Input: "([1, 2])", Head: "raised"},
		{Symbol: "m.f", Row: "E1", Input: "([1])", Head: "raised", Witness: true},
	}
	shown, more := Shown(cs)
	var got []string
	for _, c := range shown {
		got = append(got, c.Symbol+" "+c.Input)
	}
	want := []string{"m.f ([1])", "m.f ([9, 9, 9, 9, 9, 9])", "m.f ([1, 2])", "m.f ([1, 2, 3])", "m.f ([1, 2, 3, 4])", "m.g (1)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"m.f": 3}, more); diff != "" {
		t.Errorf("more (-want +got):\n%s", diff)
	}
}
