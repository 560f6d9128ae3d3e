package jsonvalue

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNumbers: 37 stays an int and 2.5 a float, inside lists and objects,
// so a row calls area(37, 37), not area(37.0, 37.0).
func TestNumbers(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`[37, 2.5, 1e3, {"n": [-4]}, "7", 9223372036854775808]`))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	want := []any{37, 2.5, 1000.0, map[string]any{"n": []any{-4}}, "7", 9223372036854775808.0}
	if diff := cmp.Diff(want, Numbers(v)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestProtocolKey: a "$" key anywhere in a value marks it, so a model's
// {"$expr": "..."} cannot ride inside a list or an object; "$" inside a
// string value is text.
func TestProtocolKey(t *testing.T) {
	for _, v := range []any{map[string]any{"$expr": "1"}, []any{1, []any{map[string]any{"a": map[string]any{"$new": "X"}}}}} {
		if !ProtocolKey(v) {
			t.Errorf("ProtocolKey(%v) = false", v)
		}
	}
	for _, v := range []any{nil, "$expr", []any{"$1", 2}, map[string]any{"price": "$5"}} {
		if ProtocolKey(v) {
			t.Errorf("ProtocolKey(%v) = true", v)
		}
	}
}
