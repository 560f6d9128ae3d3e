package evidence

import (
	"math"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

func TestSmaller(t *testing.T) {
	cases := []struct {
		name   string
		v      any
		want   []any
		reason string
	}{
		{name: "string", v: "abcd", want: []any{"", "ab", "cd", "abc", "bcd"}},
		{name: "int", v: 10, want: []any{0, 5, 9}},
		{name: "negative", v: -4, want: []any{0, -2, -3, 4}, reason: "nearer zero, or shorter"},
		{name: "one digit", v: 9, want: []any{0, 4, 8}, reason: "no shorter, but smaller"},
		{name: "zero", v: 0, want: nil, reason: "nothing is smaller"},
		{name: "expression", v: map[string]any{lang.ExprKey: "iter('ab')"}, want: nil, reason: "an expression is shown as written"},
		{name: "none", v: nil, want: nil},
		{name: "built", v: map[string]any{"$new": "lib/bn.BN", "$args": []any{-18}}, want: []any{
			map[string]any{"$new": "lib/bn.BN", "$args": []any{0}},
			map[string]any{"$new": "lib/bn.BN", "$args": []any{-9}},
			map[string]any{"$new": "lib/bn.BN", "$args": []any{-17}},
			map[string]any{"$new": "lib/bn.BN", "$args": []any{18}},
		}, reason: "an object built for the call is built smaller, never taken apart into a plain object"},
		{name: "protocol value", v: map[string]any{"$date": "2020-01-01"}, want: nil, reason: "a $date without its key is no date"},
	}
	for _, c := range cases {
		got := smaller(c.v, 0)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: smaller(%v) (-want +got):\n%s\n%s", c.name, c.v, diff, c.reason)
		}
	}
	// A list's variants are many: every one must be smaller.
	for _, v := range smaller([]any{3, 1, 2}, 0) {
		if l := len(lang.Compact(v, math.MaxInt32)); l > len("[3,1,2]") || (l == len("[3,1,2]") && magnitude(v) >= 6) {
			t.Errorf("smaller([3, 1, 2]) gave %s, not smaller", lang.Compact(v, math.MaxInt32))
		}
	}
}

func TestMutate(t *testing.T) {
	got := lang.Mutate("Ab", []string{","})
	want := []any{"A", "", "A", "bA", "aB", "ab", "Abé", "Ab\n", " Ab", "AbAb", "Abb", "A,b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mutate(\"Ab\") (-want +got):\n%s", diff)
	}
	if got := lang.Mutate([]any{1, 2}, nil); len(got) != 6 {
		t.Errorf("mutate([1, 2]) = %v, want shorter, empty, one, reversed, repeated, longer", got)
	}
}

// TestMutantsKeepCharactersWhole: a step off either end of a text takes
// a character, never a byte: half of "é" is no text a caller passes, the
// worker receives it as U+FFFD, and the register could not be written
// with it (found on logfmt, where premise run ended with exit 3).
func TestMutantsKeepCharactersWhole(t *testing.T) {
	for _, m := range lang.Mutants(validate.Row{Args: []any{"a\ufffd"}}) {
		if s, ok := m.Args[0].(string); ok && !utf8.ValidString(s) {
			t.Errorf("a mutant %q is not UTF-8", s)
		}
	}
}
