package evidence_test

import (
	"strings"
	"testing"
)

// TestJavaScriptChangedLinesReached: the Node worker reports the lines
// each call ran (V8's coverage), and evidence counts a JavaScript or
// TypeScript symbol's changed statements as it does Python's and Go's: a
// changed line behind a branch no row takes is named, and a symbol none
// of whose changed lines ran is not exercised, whatever its row count. A
// TypeScript file's lines are its own, not those of the JavaScript Node
// runs (an interface before the function moves them).
func TestJavaScriptChangedLinesReached(t *testing.T) {
	t.Parallel()
	const gate = `createHash("sha256").update(String(key)).digest("hex").startsWith("0000000")`
	js := func(cmp, scaled, locked string) string {
		return `import { createHash } from "node:crypto";

export function scale(n, key) {
  // a negative count is refused
  if (n ` + cmp + ` 0) {
    return -1;
  }
  if (` + gate + `) {
    return n * ` + scaled + `;
  }
  return n * 2;
}

export function locked(n, key) {
  if (` + gate + `) {
    return n + ` + locked + `;
  }
  return n;
}
`
	}
	ts := func(cmp string) string {
		return "interface Limits {\n  hi: number;\n}\n\nexport function clampTo(x: number, lim: Limits): number {\n" +
			"  const top: number = lim.hi;\n  if (x " + cmp + " top) {\n    return top;\n  }\n  return x;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/m.js": js("<", "4", "1"), "src/t.ts": ts(">")}
	head := map[string]string{"src/m.js": js("<=", "3", "2"), "src/t.ts": ts(">=")}
	rep := runCommits(t, base, head, nil)

	s := symbolRows(t, rep, "src/m.scale")
	if s.Coverage == nil || s.Coverage.Head == nil || s.Coverage.Base == nil {
		t.Fatalf("scale: no coverage on both sides: %+v", s)
	}
	if h := s.Coverage.Head; h.Changed != 2 || h.Reached != 1 || h.File != "src/m.js" || len(h.Unreached) != 1 {
		t.Errorf("scale head: %+v, want 1 of its 2 changed lines reached (the comment not counted)", h)
	} else if u := h.Unreached[0]; u.Line != 9 || u.Text != "return n * 3;" {
		t.Errorf("scale: unreached %+v, want line 9 `return n * 3;`", u)
	}
	if b := s.Coverage.Base; b.Changed != 2 || b.Reached != 1 {
		t.Errorf("scale base: %+v, want the removed `if (n < 0) {` reached, `return n * 4;` not", b)
	}
	if s.Unchecked {
		t.Errorf("scale: unchecked (%s), but a changed line ran", s.Why)
	}

	l := symbolRows(t, rep, "src/m.locked")
	if l.Rows == 0 {
		t.Fatalf("locked got no rows: %s", l.Why)
	}
	if l.Coverage == nil || l.Coverage.Head == nil || l.Coverage.Head.Reached != 0 || len(l.Coverage.Head.Unreached) != 1 {
		t.Fatalf("locked: coverage %+v, want its changed line unreached", l.Coverage)
	}
	if !l.Unchecked || !strings.Contains(l.Why, "not exercised") || !strings.Contains(l.Why, "`return n + 2;`") {
		t.Errorf("locked: unchecked %v, why %q; want not exercised, naming the line", l.Unchecked, l.Why)
	}

	c := symbolRows(t, rep, "src/t.clampTo")
	if c.Coverage == nil || c.Coverage.Head == nil || c.Coverage.Base == nil {
		t.Fatalf("clampTo: no coverage on both sides: %+v", c)
	}
	if h, b := c.Coverage.Head, c.Coverage.Base; h.File != "src/t.ts" || h.Changed != 1 || h.Reached != 1 || b.Changed != 1 || b.Reached != 1 {
		t.Errorf("clampTo: head %+v base %+v, want the changed `if` reached on both", h, b)
	}
	if c.Unchecked {
		t.Errorf("clampTo: unchecked (%s)", c.Why)
	}
}
