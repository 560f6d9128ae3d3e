package jssource

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConstants reads the literals of a function and the two sides of its
// comparisons, so inputs can be made at the edges.
func TestConstants(t *testing.T) {
	f := parse(t, "src/port.ts", `const MAX_PORT = 65535;
export function parsePort(text: string, fallback = 8080): number {
  "use strict";
  const port = Number(text.trim());
  if (port < 1 || MAX_PORT < port) {
    throw new RangeError("bad port: " + text);
  }
  if (text.length >= 6) console.warn("long", text);
  switch (text[0]) {
    case "+": return -1;
    case "0": return 0n > 1n ? 1 : 2;
  }
  const ok = [80, 443].filter((p) => p === port);
  return `+"`x${port}`"+` ? port : fallback;
}
`)
	got, err := Constants(f, "parsePort")
	if err != nil {
		t.Fatal(err)
	}
	want := []Constant{
		{Value: "1", Kind: KindNumber, Line: 5, Op: "<", Operand: "port"},
		{Value: "65535", Kind: KindNumber, Line: 5, Op: ">", Operand: "port"},
		{Value: "6", Kind: KindNumber, Line: 8, Op: ">=", Operand: "text.length"},
		{Value: "0", Kind: KindNumber, Line: 9},
		{Value: `"+"`, Kind: KindString, Line: 10, Op: "===", Operand: "text[0]"},
		{Value: "-1", Kind: KindNumber, Line: 10},
		{Value: `"0"`, Kind: KindString, Line: 11, Op: "===", Operand: "text[0]"},
		{Value: "0n", Kind: KindBigInt, Line: 11},
		{Value: "1n", Kind: KindBigInt, Line: 11},
		{Value: "1", Kind: KindNumber, Line: 11},
		{Value: "2", Kind: KindNumber, Line: 11},
		{Value: "80", Kind: KindNumber, Line: 13},
		{Value: "443", Kind: KindNumber, Line: 13},
		{Value: "8080", Kind: KindNumber, Line: 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("constants (-want +got):\n%s", diff)
	}
	if _, err := Constants(f, "nope"); err == nil {
		t.Error("a missing function is an error")
	}
}

// TestConstantsForms: one body at a time, the literals Constants lists,
// each as "value" or "value op operand": the literals of messages are
// left out wherever the message is made, a call or a construction of
// anything else keeps its literals.
func TestConstantsForms(t *testing.T) {
	deep := "return " + strings.Repeat("(", 410) + "1" + strings.Repeat(")", 410) + " + 2;"
	for _, tc := range []struct {
		name, body string
		want       []string
		reason     string
	}{
		{name: "thrown", body: `throw new Error("bad " + 1);`, want: []string{}},
		{name: "error made, not thrown", body: `const e = new TypeError("bad " + 2); return e;`, want: []string{}},
		{name: "error called", body: `return RangeError("bad", 3);`, want: []string{}},
		{name: "other construction", body: `return new Map([[4, "a"]]);`, want: []string{"4", `"a"`}},
		{name: "console and assert", body: `console.log(5); assert(x > 6); assert.ok(7);`, want: []string{}},
		{name: "other call", body: `return g(8, 'b');`, want: []string{"8", "'b'"}},
		{name: "directive", body: `'use strict'; return "c";`, want: []string{`"c"`}},
		{name: "declared function", body: "function g() { return 9; }\nclass K { m() { return 10; } }\nreturn (() => 11)();", want: []string{"11"},
			reason: "a callback's literals are the function's own, a declared function's are not"},
		{name: "comparison", body: "return x.length <= 3 || 4 > x || 5 === 6 || x == y;", want: []string{"3 <= x.length", "4 < x", "5", "6"}},
		{name: "switch", body: "switch (x) { case 1: return -1; case k + 2: break; default: return 3; }",
			want: []string{"1 === x", "-1", "2", "3"}, reason: "a case that is not a literal is walked as any expression"},
		{name: "template", body: "return [`a`, `b${x}`, -x, !0];", want: []string{"`a`", "0"}},
		{name: "deep", body: deep, want: []string{"3", "2"},
			reason: "the body is walked 400 levels deep: a hostile file must not exhaust the stack (the sum is read through the parentheses)"},
		{name: "arithmetic", body: "if (x === -(7 * 1111)) return x;\nreturn x > 24 * 60 * 60 ? (1 << 20) - 1 : x * 3 + 2 ** 0.5 + 5n * 2n;",
			want:   []string{"-7777 === x", "86400 > x", "1048575", "1048576", "1", "20", "3", "1.4142135623730951", "2", "0.5", "5n", "2n"},
			reason: "arithmetic of number literals is the number it computes, beside its parts; of anything else (x * 3, a BigInt) only its parts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Constants(parse(t, "m.js", "function f(x) {\n"+tc.body+"\n}\n"), "f")
			if err != nil {
				t.Fatal(err)
			}
			values := []string{}
			for _, k := range got {
				values = append(values, strings.TrimSpace(k.Value+" "+k.Op+" "+k.Operand))
			}
			if diff := cmp.Diff(tc.want, values); diff != "" {
				t.Errorf("Constants (-want +got):\n%s%s", diff, tc.reason)
			}
		})
	}
}

// TestConstantsBesideVarianceAnnotations: a module that declares
// interface Check<in T> (TypeScript 4.7) still parses, and its literals
// are read as written, a string that looks like an annotation included.
func TestConstantsBesideVarianceAnnotations(t *testing.T) {
	f := parse(t, "src/check.ts", `export interface Check<in T = never> { run(x: T): void }
export function label(x: number): string {
  if (x > 3) return "<in a, out b>";
  return "";
}
`)
	if err := f.SyntaxError(); err != nil {
		t.Fatalf("SyntaxError = %v, want none", err)
	}
	got, err := Constants(f, "label")
	if err != nil {
		t.Fatal(err)
	}
	want := []Constant{
		{Value: "3", Kind: KindNumber, Line: 3, Op: ">", Operand: "x"},
		{Value: `"<in a, out b>"`, Kind: KindString, Line: 3},
		{Value: `""`, Kind: KindString, Line: 4},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("constants (-want +got):\n%s", diff)
	}
}
