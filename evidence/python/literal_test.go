package python

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPyLiteral(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		want   any
		ok     bool
		reason string
	}{
		{name: "int", src: "42", want: 42, ok: true},
		{name: "negative", src: "-3", want: -3, ok: true},
		{name: "underscores", src: "1_000", want: 1000, ok: true},
		{name: "hex", src: "0x1F", want: 31, ok: true},
		{name: "leading zero", src: "017", ok: false, reason: "Python 3 refuses 017"},
		{name: "zeros", src: "00", want: 0, ok: true},
		{name: "float", src: "2.5", want: 2.5, ok: true},
		{name: "exponent", src: "1e-3", want: 0.001, ok: true},
		{name: "complex", src: "1j", ok: false, reason: "JSON has no complex"},
		{name: "huge int", src: "123456789012345678901234567890", ok: false, reason: "JSON numbers lose it"},
		{name: "single quotes", src: `'a\'b'`, want: "a'b", ok: true},
		{name: "escapes", src: `"a\n\t\x41\u00e9"`, want: "a\n\tAé", ok: true},
		{name: "raw", src: `r'\d+'`, want: `\d+`, ok: true},
		{name: "triple", src: `"""x"y"""`, want: `x"y`, ok: true},
		{name: "adjacent", src: `'a' "b"`, want: "ab", ok: true, reason: "implicit concatenation"},
		{name: "bytes", src: `b'x'`, ok: false, reason: "bytes have no JSON form"},
		{name: "fstring", src: `f'{x}'`, ok: false},
		{name: "none true false", src: "[None, True, False]", want: []any{nil, true, false}, ok: true},
		{name: "tuple", src: "(1, 'a')", want: []any{1, "a"}, ok: true, reason: "a tuple travels as a list"},
		{name: "one-tuple", src: "(1,)", want: []any{1}, ok: true},
		{name: "parens", src: "(1)", want: 1, ok: true, reason: "parentheses, not a tuple"},
		{name: "empty tuple", src: "()", want: []any{}, ok: true},
		{name: "nested", src: "[[0, 1], [4, 6],]", want: []any{[]any{0, 1}, []any{4, 6}}, ok: true},
		{name: "dict", src: "{'a': 1, 'b': [2]}", want: map[string]any{"a": 1, "b": []any{2}}, ok: true},
		{name: "int keys", src: "{1: 2}", ok: false, reason: "JSON keys are strings"},
		{name: "set", src: "{1, 2}", ok: false, reason: "a set would arrive as a list"},
		{name: "name", src: "x", ok: false},
		{name: "call", src: "iter('ab')", ok: false},
		{name: "trailing", src: "1 2", ok: false},
		{name: "newline in string", src: "'a\nb'", ok: false},
		{name: "multiline list", src: "[1,\n 2]  # two", want: []any{1, 2}, ok: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := pyLiteral(c.src)
			if ok != c.ok {
				t.Fatalf("pyLiteral(%q) ok = %v, want %v (%s)", c.src, ok, c.ok, c.reason)
			}
			if diff := cmp.Diff(c.want, got); ok && diff != "" {
				t.Errorf("pyLiteral(%q) (-want +got):\n%s\n%s", c.src, diff, c.reason)
			}
		})
	}
}

func TestPyRepr(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{nil, "None"},
		{[]any{1, "a", nil, true}, "[1, 'a', None, True]"},
		{"it's", `"it's"`},
		{"a\nb", `'a\nb'`},
		{map[string]any{"b": 1.5, "a": 2.0}, "{'a': 2.0, 'b': 1.5}"},
		{map[string]any{"$tuple": []any{3, []any{1}}}, "(3, [1])"},
		{map[string]any{"$tuple": []any{"a"}}, "('a',)"},
	}
	for _, c := range cases {
		if got := pyRepr(c.v, 0); got != c.want {
			t.Errorf("pyRepr(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// FuzzPyLiteral holds the converter to two rules: it never panics, and
// what it accepts renders (pyRepr) to source it reads back to the same
// value.
func FuzzPyLiteral(f *testing.F) {
	for _, s := range []string{"42", "-0x1F", "1e5", `'a\'b'`, `r"\d"`, "[None, (1, 2.5), {'k': [True]}]", `"""a"""`, "(1,)", "{1, 2}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v, ok := pyLiteral(src)
		if !ok {
			return
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("pyLiteral(%q) = %#v, which JSON cannot carry: %v", src, v, err)
		}
		back, ok := pyLiteral(pyRepr(v, 0))
		if !ok {
			t.Fatalf("pyRepr(pyLiteral(%q)) = %s does not read back", src, pyRepr(v, 0))
		}
		if diff := cmp.Diff(v, back); diff != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", src, diff)
		}
	})
}
