package jssource

import (
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
