package jssource

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/tree-sitter/go-tree-sitter"
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
		{`/(\w)(\d)/g`, `{"$regexp":"/(\\w)(\\d)/g"}`},
		{Callback, `{"$func":"mark"}`}, {"[1, " + Callback + "]", `[1,{"$func":"mark"}]`},
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

// TestValueOfADateATestBuilds: new Date(...) with literal numbers, or one
// string or number, is an input the worker rebuilds ({"$date": ...}, a
// list of numbers read in its own time zone); with anything else it is
// not a literal.
func TestValueOfADateATestBuilds(t *testing.T) {
	f := parse(t, "test.js", `testFormat("pad", new Date(999, 0, 1), "YYYY");
testFormat("iso", new Date("2020-01-01T00:00:00Z"), "YYYY");
testFormat("ms", new Date(0), "YYYY");
testFormat("now", new Date(), "YYYY");
testFormat("computed", new Date(Date.UTC(2020, 0, 1)), "YYYY");
testFormat("two strings", new Date("a", "b"), "YYYY");
`)
	var got []string
	f.eachNode(func(n *sitter.Node) {
		if n.Kind() != "new_expression" || n.Parent().Kind() != "arguments" || n.Parent().Parent().Kind() != "call_expression" || f.text(n.Parent().Parent().ChildByFieldName("function")) != "testFormat" {
			return
		}
		s, ok := f.literal(n, nil)
		if !ok {
			got = append(got, "not a literal")
			return
		}
		v, ok := Value(s)
		b, _ := json.Marshal(v)
		got = append(got, fmt.Sprintf("%s %s %v", s, b, ok))
	})
	want := []string{
		`new Date(999, 0, 1) {"$date":[999,0,1]} true`,
		`new Date("2020-01-01T00:00:00Z") {"$date":"2020-01-01T00:00:00Z"} true`,
		`new Date(0) {"$date":0} true`,
		"not a literal", "not a literal", "not a literal",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dates (-want +got):\n%s", diff)
	}
}

// TestValueOfAnObjectATestBuilds: new X(...) of literal arguments, X not
// one of JavaScript's classes, is {"$new": "X", "$args": [...]}, its class
// bare until Named names it in the module under test; a class the module
// does not have leaves the value unbuilt.
func TestValueOfAnObjectATestBuilds(t *testing.T) {
	f := parse(t, "test.js", `use(new BN(12));
use(new m.Decimal("1.5", [new BN(-1)]));
use(new Map([[1, 2]]));
use(new BN(x));
use(new lower(1));
`)
	var got []string
	f.eachNode(func(n *sitter.Node) {
		if n.Kind() != "new_expression" || n.Parent().Kind() != "arguments" || f.text(n.Parent().Parent().ChildByFieldName("function")) != "use" {
			return
		}
		s, ok := f.literal(n, nil)
		if !ok {
			got = append(got, "not a literal")
			return
		}
		v, _ := Value(s)
		built, ok := Named(v, func(class string) string {
			if class == "BN" {
				return "lib/bn.BN"
			}
			return ""
		})
		b, _ := json.Marshal(built)
		got = append(got, fmt.Sprintf("%s %s %v", s, b, ok))
	})
	want := []string{
		`new BN(12) {"$args":[12],"$new":"lib/bn.BN"} true`,
		`new Decimal("1.5", [new BN(-1)]) null false`,
		"not a literal", "not a literal", "not a literal",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
