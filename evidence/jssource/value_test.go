package jssource

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestValueReadsLiterals: each literal Harvest and Constants write reads
// into the value premise's Node worker decodes to the same JavaScript
// value; anything that is not a literal is refused.
func TestValueReadsLiterals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"3", `3`}, {"-1", `-1`}, {"2.5", `2.5`}, {"1_000", `1000`}, {"0x1f", `31`},
		{"-0", `{"$number":"-0"}`}, {"NaN", `{"$number":"NaN"}`}, {"-Infinity", `{"$number":"-Infinity"}`},
		{"10n", `{"$bigint":"10"}`}, {"-10n", `{"$bigint":"-10"}`},
		{"'a\\'b'", `"a'b"`}, {`"x\ny"`, `"x\ny"`}, {"`tpl`", `"tpl"`}, {`'\u00e9'`, `"é"`},
		{"null", `null`}, {"undefined", `{"$undefined":true}`}, {"true", `true`},
		{"[1, 'a', [null]]", `[1,"a",[null]]`}, {"{ a: 1, 'b-c': [2] }", `{"a":1,"b-c":[2]}`},
		{"{ $x: 1 }", `{"$object":{"$x":1}}`}, {"[]", `[]`}, {"{}", `{}`},
		{"false", `false`}, {"+1", `1`}, {"+Infinity", `{"$number":"Infinity"}`}, {"-NaN", `{"$number":"NaN"}`},
		{"[1, /* c */ 2]", `[1,2]`}, {"{ /* c */ a: 1 }", `{"a":1}`},
		{"{ 1: 'a', 0x10: 'b', 1.5: 'c' }", `{"1":"a","1.5":"c","16":"b"}`}, // a number key is the string JavaScript makes of it
		{`{ 'a\nb': 1 }`, `{"a\nb":1}`},
		{strings.Repeat("[", 63) + "1" + strings.Repeat("]", 63), strings.Repeat("[", 63) + "1" + strings.Repeat("]", 63)},
	} {
		v, ok := Value(tc.src)
		if !ok {
			t.Errorf("Value(%s) refused", tc.src)
			continue
		}
		got, _ := json.Marshal(v)
		if string(got) != tc.want {
			t.Errorf("Value(%s) = %s, want %s", tc.src, got, tc.want)
		}
	}
	for _, src := range []string{"f(1)", "x", "`a${b}`", "1 + 2", "new Date()", "[...xs]", "{ ...o }", "() => 1",
		"!1", "-x", "-'a'", "[1, x]", "{ a }", "{ a: x }", "{ [k]: 1 }", `{ '\u{zz}': 1 }`, "1; 2", "",
		`'\u{100000000}'`, `{ '\u{100000000}': 1 }`, // beyond Unicode: JavaScript refuses it too
		"1e1000", "{ 1e1000: 1 }", // beyond float64: refused rather than guessed
		strings.Repeat("[", 64) + "1" + strings.Repeat("]", 64), // nested arrays in a hostile file must not exhaust the stack
	} {
		if v, ok := Value(src); ok {
			t.Errorf("Value(%s) = %v, want it refused: not a literal", src, v)
		}
	}
}

func FuzzValue(f *testing.F) {
	for _, s := range []string{"3", "'a'", "[1, {a: -0}]", "10n", "`x`", "{ 'k': [null, undefined] }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if v, ok := Value(src); ok {
			if _, err := json.Marshal(v); err != nil {
				t.Fatalf("Value(%q) = %v, which does not encode: %v", src, v, err)
			}
		}
	})
}
