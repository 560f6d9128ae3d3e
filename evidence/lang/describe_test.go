package lang

import (
	"fmt"
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

// The building sequences are the same for every language: per adder one
// put, two, two then each taker, the same twice, three; each taker alone
// when nothing puts.
func TestSequences(t *testing.T) {
	got := Sequences(1, 1)
	want := [][]Step{{{K: 0}}, {{K: 0}, {K: 1}}, {{K: 0}, {K: 1}, {Take: true}}, {{K: 0}, {K: 0}}, {{K: 0}, {K: 1}, {K: 2}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sequences(1, 1) = %v, want %v", got, want)
	}
	if got := Sequences(0, 2); fmt.Sprint(got) != fmt.Sprint([][]Step{{{Take: true}}, {{Take: true, Method: 1}}}) {
		t.Errorf("Sequences(0, 2) = %v, want each taker once", got)
	}
	if got := Sequences(0, 0); len(got) != 0 {
		t.Errorf("Sequences(0, 0) = %v, want none", got)
	}
}

// A building step's verb is a word of the method's name: push, Push,
// push_back, pushAll and _add put; include, online, settings do not, nor
// do decode, offset and populate take.
func TestPutsAndTakes(t *testing.T) {
	for _, n := range []string{"push", "Push", "push_back", "pushAll", "_add", "Set", "appendleft", "Enqueue", "add2"} {
		if !Puts(n) {
			t.Errorf("Puts(%q) = false", n)
		}
	}
	for _, n := range []string{"include", "online", "settings", "setup", "increment", "Adder", "ok"} {
		if Puts(n) {
			t.Errorf("Puts(%q) = true", n)
		}
	}
	for _, n := range []string{"pop", "Dequeue", "remove_at", "deleteKey", "popleft", "Clear"} {
		if !Takes(n) {
			t.Errorf("Takes(%q) = false", n)
		}
	}
	for _, n := range []string{"decode", "offset", "populate", "delta", "taken", "Decimal"} {
		if Takes(n) {
			t.Errorf("Takes(%q) = true", n)
		}
	}
}
