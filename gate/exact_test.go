package gate

import (
	"encoding/json"
	"testing"
)

// TestSameComparesNumbersExactly: base and head are the same outcome only
// when their numbers are: an integer past int64 or float64 to the last
// digit, and an integer never a float of the same value (a caller's
// "ab"[n] raises on 0.0). A float zero's sign is no difference, as Python's
// -0.0 == 0.0 is not one.
func TestSameComparesNumbersExactly(t *testing.T) {
	returned := func(text string) Reply {
		var v any
		if err := decodeNumbers([]byte(text), &v); err != nil {
			t.Fatal(err)
		}
		return Reply{Outcome: OutcomeReturned, Value: v}
	}
	for _, tc := range []struct {
		base, head string
		same       bool
	}{
		{`-110680464442257309696`, `-110680464442257309697`, false},
		{`9223372036854775809`, `9223372036854775808`, false},
		{`[0]`, `[0.0]`, false},
		{`{"n": 2}`, `{"n": 2.0}`, false},
		{`1.5`, `1.50`, true},
		{`1e2`, `100.0`, true},
		{`-0.0`, `0.0`, true},
		{`-0`, `0`, true},
		{`123456789012345678901234567890`, `123456789012345678901234567890`, true},
	} {
		if got := Same(returned(tc.head), returned(tc.base)); got != tc.same {
			t.Errorf("Same(head %s, base %s) = %v, want %v", tc.head, tc.base, got, tc.same)
		}
	}
	// A value built in Go (a cached reply read without json.Number) keys
	// as one read from the wire does.
	if a, b := replyKey(Reply{Outcome: OutcomeReturned, Value: []any{json.Number("2.5"), json.Number("7")}}), replyKey(Reply{Outcome: OutcomeReturned, Value: []any{2.5, int64(7)}}); a != b {
		t.Errorf("keys %s and %s differ", a, b)
	}
}
