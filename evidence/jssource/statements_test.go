package jssource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStatementsAsV8SeesThem: the units changed-line coverage counts in
// JavaScript and TypeScript: simple statements whole, compound statements
// by their header (a multi-line test included), a case by its label, a
// do-while by its test; no else, try, finally or class line, no
// directive, nothing of a type; a function's header marked, an arrow
// function's with a block body too.
func TestStatementsAsV8SeesThem(t *testing.T) {
	cases := []struct {
		name, path, src string
		want            []Statement
	}{
		{name: "javascript", path: "m.js", src: `export function f(xs,
    limit = 3) {
  "use strict";
  if (xs.length >
      limit) {
    return xs.slice(0, limit);
  } else {
    xs.push(1);
  }
  try {
    const y = {
      a: 1,
    };
  } catch (err) {
    throw err;
  } finally {
    done();
  }
  for (const x of xs) continue;
  switch (limit) {
    case 1:
    case 2:
      break;
    default:
      limit++;
  }
  do {
    limit--;
  } while (limit > 0);
  return xs.map((x) => {
    return x * 2;
  }).filter((x) => x > 1);
}
class C {
  n = 3;
  get(k) {
    return this.n + k;
  }
}
`, want: []Statement{
			{1, 2, true}, {4, 5, false}, {6, 6, false}, {8, 8, false},
			{11, 13, false}, {14, 14, false}, {15, 15, false}, {17, 17, false},
			{19, 19, false}, {19, 19, false}, {20, 20, false}, {21, 21, false}, {22, 22, false},
			{23, 23, false}, {24, 24, false}, {25, 25, false}, {29, 29, false}, {28, 28, false},
			{30, 32, false}, {30, 30, true}, {31, 31, false},
			{35, 35, false}, {36, 36, true}, {37, 37, false},
		}},
		{name: "typescript", path: "m.ts", src: `interface Limits {
  hi: number;
}
type N = number;
export function clamp(x: number, hi: number): number;
export function clamp(x: number, lim: Limits | number): number {
  const hi: N = typeof lim === "number"
    ? lim
    : lim.hi;
  return x > hi ? hi : x;
}
`, want: []Statement{{6, 6, true}, {7, 9, false}, {10, 10, false}}},
	}
	for _, c := range cases {
		f, err := Parse(c.path, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.SyntaxError(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if diff := cmp.Diff(c.want, f.Statements()); diff != "" {
			t.Errorf("%s: Statements (-want +got):\n%s", c.name, diff)
		}
		f.Close()
	}
}
