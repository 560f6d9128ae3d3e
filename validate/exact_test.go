package validate

import (
	"encoding/json"
	"testing"
)

// TestWitnessMatchesNumbersExactly: a witness row's pinned value is met
// only by the same numbers: an integer to its last digit past 64 bits (as
// the register reads it back, json.Number), a float never by the integer
// it equals; and a float reads as one (0.0) where a reviewer sees it.
func TestWitnessMatchesNumbersExactly(t *testing.T) {
	for _, tc := range []struct {
		pinned, got any
		match       bool
	}{
		{json.Number("-110680464442257309696"), json.Number("-110680464442257309697"), false},
		{json.Number("-110680464442257309696"), json.Number("-110680464442257309696"), true},
		{0.0, json.Number("0"), false},
		{0, json.Number("0.0"), false},
		{0.0, json.Number("0.0"), true},
		{2, json.Number("2"), true},
		{[]any{1.5, "a"}, []any{json.Number("1.50"), "a"}, true},
	} {
		o := &Outcome{Outcome: OutcomeReturned, Value: tc.pinned}
		if got := o.Matches(OutcomeReturned, tc.got, ""); got != tc.match {
			t.Errorf("pinned %#v, got %#v: Matches = %v, want %v", tc.pinned, tc.got, got, tc.match)
		}
	}
	if got := DisplayJSON([]any{0.0, 2, 1.5}); got != "[0.0,2,1.5]" {
		t.Errorf("DisplayJSON = %s, want [0.0,2,1.5]", got)
	}
}
