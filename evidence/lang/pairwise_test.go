package lang

import (
	"math/rand"
	"testing"
)

// TestPairwiseCrossesOwnValuesFirst: a value the function's text names
// (the layout "15:04" it parses with), far down its parameter's pool, is
// crossed with the other parameter's heads, and those pairs come first,
// where a budget that keeps a third of the pairs keeps them.
func TestPairwiseCrossesOwnValuesFirst(t *testing.T) {
	sig := &Signature{Params: []Param{{Name: "clock"}, {Name: "loc"}}}
	clock := []any{"abc", "", " ", "   ", "a", "A", "0", "15:04", "x"}
	loc := []any{"UTC", "-05:00", "+05:30", "+14:00", nil}
	pairs := Pairwise(sig, [][]any{clock, loc}, [][]any{OwnValues(clock, []string{"15:04"}, nil), nil}, rand.New(rand.NewSource(1)))
	if want := (pairHead + 1) * len(loc); len(pairs) != want {
		t.Fatalf("%d pairs, want %d: five heads and the own value, each with every zone", len(pairs), want)
	}
	seen := map[any]bool{}
	for _, p := range pairs[:len(loc)] {
		if p.Vals[0] != "15:04" || p.Cls != "clock_loc_pair" {
			t.Errorf("pair %+v among the first; want the own value first", p)
		}
		seen[p.Vals[1]] = true
	}
	if len(seen) != len(loc) {
		t.Errorf("the own value met zones %v; want every one", seen)
	}
}

// TestOwnValues: a pool's values the function's text names, numbers by
// value whatever their type, in the pool's order.
func TestOwnValues(t *testing.T) {
	got := OwnValues([]any{3, "abc", 1000, 2.5, true, nil, "k"}, []string{"k"}, []float64{1000, 2.5})
	if want := []any{1000, 2.5, "k"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("OwnValues = %v, want %v", got, want)
	}
}
