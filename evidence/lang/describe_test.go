package lang

import (
	"strings"
	"testing"
)

// Rows are told apart by their whole arguments: two calls that read the
// same in a reviewer's short text (they differ past its width) are two
// rows, never one deduplicated away.
func TestCallKeyTellsLongArgumentsApart(t *testing.T) {
	long := strings.Repeat("x", 80)
	a, b := []any{long + "a"}, []any{long + "b"}
	if CallText(a, nil) != CallText(b, nil) {
		t.Fatalf("the short texts differ already: %s %s", CallText(a, nil), CallText(b, nil))
	}
	if CallKey(a, nil) == CallKey(b, nil) {
		t.Errorf("two calls differing at character 81 share a key: %s", CallKey(a, nil))
	}
	if CallKey(a, map[string]any{"k": 1}) == CallKey(a, nil) {
		t.Errorf("keyword arguments are not part of the key")
	}
}
