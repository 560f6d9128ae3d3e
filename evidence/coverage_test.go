package evidence_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

func symbolRows(t *testing.T, rep *evidence.Report, name string) evidence.SymbolRows {
	t.Helper()
	for _, s := range rep.Symbols {
		if s.Symbol == name {
			return s
		}
	}
	t.Fatalf("no symbol %s in %+v", name, rep.Symbols)
	return evidence.SymbolRows{}
}

// TestChangedLinesReached: each changed symbol says which of its changed
// lines its rows ran, on each side. A changed line behind a branch no row
// takes is named, and a symbol none of whose changed lines ran is not
// exercised, whatever its row count: the run cannot say the gate holds
// for it. Comments and blank lines are not counted.
func TestChangedLinesReached(t *testing.T) {
	t.Parallel()
	base := `import hashlib


def scale(n, unit):
    if n < 0:
        return -1
    return n * 2


def locked(n, key):
    if hashlib.sha256(key.encode()).hexdigest().startswith("00000000"):
        return n + 1
    return n
`
	head := `import hashlib


def scale(n, unit):
    # negative counts are refused
    if n <= 0:
        return -1
    return n * 2


def locked(n, key):
    if hashlib.sha256(key.encode()).hexdigest().startswith("00000000"):
        return n + 2
    return n
`
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, nil)

	s := symbolRows(t, rep, "m.scale")
	if s.Coverage == nil || s.Coverage.Head == nil || s.Coverage.Base == nil {
		t.Fatalf("scale: no coverage on both sides: %+v", s)
	}
	if h := s.Coverage.Head; h.Changed != 1 || h.Reached != 1 || h.File != "m.py" {
		t.Errorf("scale head: %+v, want its one changed line (the comment not counted) reached", h)
	}
	if b := s.Coverage.Base; b.Changed != 1 || b.Reached != 1 {
		t.Errorf("scale base: %+v, want the removed `if n < 0:` reached", b)
	}
	if s.Unchecked {
		t.Errorf("scale: unchecked (%s), but its changed lines ran", s.Why)
	}

	l := symbolRows(t, rep, "m.locked")
	if l.Rows == 0 {
		t.Fatalf("locked got no rows: %s", l.Why)
	}
	if l.Coverage == nil || l.Coverage.Head == nil || l.Coverage.Head.Reached != 0 || len(l.Coverage.Head.Unreached) != 1 {
		t.Fatalf("locked: coverage %+v, want its changed line unreached", l.Coverage)
	}
	if u := l.Coverage.Head.Unreached[0]; u.Line != 13 || u.Text != "return n + 2" {
		t.Errorf("locked: unreached %+v, want line 13 `return n + 2`", u)
	}
	if l.Sources["coverage_guided"] == 0 {
		t.Errorf("locked: no row of the guide ran (%v), but a changed line was left unreached", l.Sources)
	}
	if s.Sources["coverage_guided"] != 0 {
		t.Errorf("scale: the guide ran %d rows, but every changed line was reached", s.Sources["coverage_guided"])
	}
	if !l.Unchecked || !strings.Contains(l.Why, "not exercised") || !strings.Contains(l.Why, "`return n + 2`") {
		t.Errorf("locked: unchecked %v, why %q; want not exercised, naming the line", l.Unchecked, l.Why)
	}
}

// TestGoChangedLinesReached: the Go harness counts the same way through
// go tool cover's blocks.
func TestGoChangedLinesReached(t *testing.T) {
	t.Parallel()
	mod := "module example.com/cov\n\ngo 1.21\n"
	base := "package cov\n\n// Clamp limits x to hi.\nfunc Clamp(x, hi int) int {\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n"
	head := "package cov\n\n// Clamp limits x to hi.\nfunc Clamp(x, hi int) int {\n\tif x >= hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "cov.go": base}, map[string]string{"cov.go": head}, nil)
	s := symbolRows(t, rep, "example.com/cov.Clamp")
	if s.Coverage == nil || s.Coverage.Head == nil || s.Coverage.Base == nil {
		t.Fatalf("Clamp: no coverage on both sides: %+v", s)
	}
	if h, b := s.Coverage.Head, s.Coverage.Base; h.Changed != 1 || h.Reached != 1 || b.Changed != 1 || b.Reached != 1 {
		t.Errorf("Clamp: head %+v base %+v, want the changed `if` reached on both", h, b)
	}
}

// TestGoCallersSliceAfterTheCall: a Go function that now sorts its
// caller's slice in place returns the same, but the slice after the call
// differs: a change.
func TestGoCallersSliceAfterTheCall(t *testing.T) {
	t.Parallel()
	mod := "module example.com/top\n\ngo 1.21\n"
	base := "package top\n\nimport \"sort\"\n\n// Max is the largest of xs.\nfunc Max(xs []int) int {\n\ts := append([]int(nil), xs...)\n\tsort.Ints(s)\n\treturn s[len(s)-1]\n}\n"
	head := "package top\n\nimport \"sort\"\n\n// Max is the largest of xs.\nfunc Max(xs []int) int {\n\tsort.Ints(xs)\n\treturn xs[len(xs)-1]\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "top.go": base}, map[string]string{"top.go": head}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/top.Max" {
			t.Logf("change: %s: base %s, head %s", c.Input, c.Base, c.Head)
			return
		}
	}
	t.Errorf("Max sorts its caller's slice now, yet no change: %+v", rep.Symbols)
}

// TestUncallableChangeIsUnchecked: a changed function premise cannot call
// itself (here one that takes no parameters and runs a program) is not
// checked, and the run cannot say the gate holds for it, unless the rows
// of a caller ran its changed lines: then it was checked through them.
func TestUncallableChangeIsUnchecked(t *testing.T) {
	t.Parallel()
	base := `def run():
    return 2


def total(n):
    return n + run()


def main():
    print("two")
`
	head := `def run():
    return 3


def total(n):
    return n + run()


def main():
    print("three")
`
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, nil)

	m := symbolRows(t, rep, "m.main")
	if m.Rows != 0 || !m.Unchecked {
		t.Errorf("main: rows %d, unchecked %v (%s); want no rows and unchecked", m.Rows, m.Unchecked, m.Why)
	}
	r := symbolRows(t, rep, "m.run")
	if r.Rows != 0 || r.Unchecked || !strings.Contains(r.Why, "checked through its callers") {
		t.Errorf("run: rows %d, unchecked %v (%s); want it checked through total's rows", r.Rows, r.Unchecked, r.Why)
	}
	if c := symbolRows(t, rep, "m.total"); c.Rows == 0 {
		t.Errorf("total, the unchanged caller of run, got no rows: %s", c.Why)
	}
}

// TestJSUnexportedHelperCalledItself: a JavaScript function its module
// does not export is called itself, where the scope its exported
// functions close over holds it (an ES module's, a CommonJS module's,
// TypeScript's emitted CommonJS with its exports as getters): its change
// shows on its own name, with its own rows. Before, it was "not
// exported" and only its callers' rows spoke for it.
func TestJSUnexportedHelperCalledItself(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, file, pkg, src string }{
		{"ES module", "lib/m.js", `{"type": "module"}`, "function clamp(x) {\n  return Math.min(1, Math.max(0, x));\n}\n\nexport function score(x) {\n  return clamp(x) * 10;\n}\n"},
		{"CommonJS", "lib/m.js", `{}`, "function clamp(x) {\n  return Math.min(1, Math.max(0, x));\n}\n\nmodule.exports.score = function score(x) {\n  return clamp(x) * 10;\n};\n"},
		{"TypeScript", "lib/m.ts", `{}`, "function clamp(x: number): number {\n  return Math.min(1, Math.max(0, x));\n}\n\nexport const score = (x: number) => clamp(x) * 10;\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := map[string]string{"package.json": tc.pkg, tc.file: tc.src}
			head := map[string]string{tc.file: strings.Replace(tc.src, "Math.min(1, Math.max(0, x))", "Math.max(0, x)", 1)}
			rep := runCommits(t, base, head, nil)
			c := symbolRows(t, rep, "lib/m.clamp")
			if c.Rows == 0 || c.Unchecked {
				t.Fatalf("clamp: rows %d, unchecked %v (%s); want rows of its own", c.Rows, c.Unchecked, c.Why)
			}
			if !hasChange(rep, "lib/m.clamp", nil) {
				t.Errorf("clamp stopped clamping at 1 and no change on clamp shows: %+v", rep.Changes)
			}
		})
	}
}

// TestJSHelperOnlyLoadingCallsSpeaksThroughCallers: a module's own
// function that none of its exported functions closes over (called only
// while the module loads) cannot be called; its rows are left out on both
// sides and it is said so, not as a module that fails to load, while the
// module's other functions keep their rows.
func TestJSHelperOnlyLoadingCallsSpeaksThroughCallers(t *testing.T) {
	t.Parallel()
	src := "function build(n) {\n  return n + 1;\n}\n\nconst LIMIT = build(4);\n\nexports.cap = function cap(x) {\n  return Math.min(x, LIMIT);\n};\n\nexports.twice = function twice(x) {\n  return x * 2;\n};\n"
	base := map[string]string{"package.json": `{}`, "lib/m.js": src}
	head := map[string]string{"lib/m.js": strings.Replace(strings.Replace(src, "n + 1", "n + 2", 1), "x * 2", "x * 3", 1)}
	rep := runCommits(t, base, head, nil)
	b := symbolRows(t, rep, "lib/m.build")
	if b.Rows != 0 || !strings.HasPrefix(b.Why, "not exported") {
		t.Errorf("build: rows %d (%s); want no rows and \"not exported\"", b.Rows, b.Why)
	}
	for _, s := range rep.Skipped {
		if strings.Contains(s, "lib/m.build") {
			t.Errorf("build is said in its own why, not as a module that did not load: %q", s)
		}
	}
	if !hasChange(rep, "lib/m.twice", nil) {
		t.Errorf("twice, beside it, lost its rows: %+v", rep.Symbols)
	}
}

// TestUncallableCallerDoesNotBlock: an unchanged caller premise adds as a
// target only to reach a changed function through it is left out when it
// cannot be called (here a function of the module nothing it exports
// reaches), without keeping the run from "holds": it is not a change.
func TestUncallableCallerDoesNotBlock(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"package.json": `{}`,
		"lib/m.js":     "function norm(s) {\n  return s.trim().toLowerCase();\n}\n\nfunction shout(s) {\n  return norm(s) + '!';\n}\n\nmodule.exports = { norm, loud: (s) => norm(s) };\n",
	}
	head := map[string]string{
		"lib/m.js": "function norm(s) {\n  return s.trim();\n}\n\nfunction shout(s) {\n  return norm(s) + '!';\n}\n\nmodule.exports = { norm, loud: (s) => norm(s) };\n",
	}
	rep := runCommits(t, base, head, nil)
	for _, s := range rep.Symbols {
		if s.Symbol == "lib/m.shout" && (s.Unchecked || s.Rows != 0) {
			t.Errorf("shout, an unchanged caller premise cannot call: rows %d, unchecked %v (%s); want it left out, not unchecked", s.Rows, s.Unchecked, s.Why)
		}
	}
	for _, s := range rep.Symbols {
		if s.Unchecked {
			t.Errorf("%s is unchecked (%s): a caller premise cannot call must not keep the run from holding", s.Symbol, s.Why)
		}
	}
	if n := symbolRows(t, rep, "lib/m.norm"); n.Rows == 0 || n.Unchecked {
		t.Errorf("norm, the changed function: rows %d, unchecked %v (%s)", n.Rows, n.Unchecked, n.Why)
	}
}

// TestJSMethodReceiverFromAnyConstruction: a JavaScript method whose test
// calls it on an object built from a loop variable still gets receivers
// from a literal construction of its class elsewhere in the tests.
func TestJSMethodReceiverFromAnyConstruction(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"package.json":     `{"type": "module"}`,
		"lib/box.js":       "export class Box {\n  constructor(n) { this.n = n; }\n  size() {\n    return this.n * 2;\n  }\n}\n",
		"test/box.test.js": "import { Box } from '../lib/box.js';\ntest('sizes', () => {\n  for (const n of sizes) { const b = new Box(n); b.size(); }\n  expect(new Box(4) instanceof Box).toBe(true);\n});\n",
	}
	head := map[string]string{
		"lib/box.js": "export class Box {\n  constructor(n) { this.n = n; }\n  size() {\n    return this.n * 3;\n  }\n}\n",
	}
	rep := runCommits(t, base, head, nil)
	if s := symbolRows(t, rep, "lib/box.Box.size"); s.Rows == 0 || s.Unchecked {
		t.Fatalf("Box.size: rows %d, unchecked %v (%s); want rows on new Box(4)", s.Rows, s.Unchecked, s.Why)
	}
	if hasChange(rep, "lib/box.Box.size", nil) {
		return
	}
	t.Errorf("Box.size changed from n*2 to n*3 and no change shows: %+v", rep.Changes)
}

// TestBudgetCutSymbolStillNeedsItsLines: a symbol whose rows the row
// budget cut is not checked when the rows it kept ran none of its changed
// lines: "budget reached" does not stand in for "exercised".
func TestBudgetCutSymbolStillNeedsItsLines(t *testing.T) {
	t.Parallel()
	src := func(ret string) string {
		return "import hashlib\n\n\ndef locked(n, key):\n    if hashlib.sha256(key.encode()).hexdigest().startswith(\"00000000\"):\n        return " + ret + "\n    return n\n"
	}
	rep := runCommits(t, map[string]string{"m.py": src("n + 1")}, map[string]string{"m.py": src("n + 2")}, func(c *evidence.Config) {
		c.MaxRowsPerFunction = 3
	})
	l := symbolRows(t, rep, "m.locked")
	if l.Rows == 0 || !strings.Contains(l.Why, "budget reached") {
		t.Fatalf("locked: rows %d (%s); want its rows cut by the budget", l.Rows, l.Why)
	}
	if !l.Unchecked || !strings.HasPrefix(l.Why, "not exercised") {
		t.Errorf("locked: unchecked %v (%s); its kept rows ran none of its changed lines", l.Unchecked, l.Why)
	}
}

// TestGoZeroValueReceiverFirst: a method that stops handling its type's
// zero value (a struct whose constructors always set its fields) differs
// only on Dec{}; with more constructed receivers than the function's rows
// allow, the zero value still gets its row, before them.
func TestGoZeroValueReceiverFirst(t *testing.T) {
	t.Parallel()
	mod := "module example.com/dec\n\ngo 1.21\n"
	base := `package dec

import "strconv"

type Dec struct{ digits *string }

func New(n int) Dec        { s := strconv.Itoa(n); return Dec{&s} }
func FromText(s string) Dec { return Dec{&s} }

func (d Dec) init() Dec {
	if d.digits == nil {
		z := "0"
		d.digits = &z
	}
	return d
}

// Len is the number of digits.
func (d Dec) Len() int {
	d = d.init()
	return len(*d.digits)
}
`
	head := strings.Replace(base, "\td = d.init()\n", "", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "dec.go": base}, map[string]string{"dec.go": head}, func(c *evidence.Config) {
		c.MaxRowsPerFunction = 8
	})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/dec.Dec.Len" && c.Input == "({})" {
			return
		}
	}
	t.Errorf("Len panics on the zero Dec now, yet no change on it: %+v", append(rep.Changes, rep.Unexplained...))
}

// TestGoDurationAtItsUnit: a duration is nanoseconds to JSON, and small
// integers and extremes never make exactly one second; a patch that
// drops the singular differs only there, so a time.Duration parameter
// takes its units' own values.
func TestGoDurationAtItsUnit(t *testing.T) {
	t.Parallel()
	mod := "module example.com/human\n\ngo 1.21\n"
	base := `package human

import (
	"fmt"
	"time"
)

// Seconds says d in whole seconds.
func Seconds(d time.Duration) string {
	s := int64(d / time.Second)
	if s == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", s)
}
`
	head := strings.Replace(base, "\tif s == 1 {\n\t\treturn \"1 second\"\n\t}\n", "", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "human.go": base}, map[string]string{"human.go": head}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/human.Seconds" && strings.Contains(c.Base, `"1 second"`) {
			return
		}
	}
	t.Errorf("Seconds lost its singular, yet no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
}

// TestGoBytesAreText: a []byte is a parser's input; as a list of small
// numbers it never holds text of blanks alone, where a patch that indexes
// past the trimmed end panics. It is text wherever it sits: an argument,
// a struct's field (Doc.Body), a list's element.
func TestGoBytesAreText(t *testing.T) {
	t.Parallel()
	mod := "module example.com/blank\n\ngo 1.21\n"
	base := `package blank

import "bytes"

// Last is the last character of data that is not a blank.
func Last(data []byte) string {
	d := bytes.TrimSpace(data)
	if len(d) == 0 {
		return ""
	}
	return string(d[len(d)-1])
}

// Doc is a document's text.
type Doc struct{ Body []byte }

// LastIn is the last character of a document that is not a blank.
func LastIn(doc Doc) string { return Last(doc.Body) }

// LastOf is the last character of each line.
func LastOf(lines [][]byte) []string {
	var out []string
	for _, l := range lines {
		out = append(out, Last(l))
	}
	return out
}
`
	head := strings.Replace(base, "\tif len(d) == 0 {\n\t\treturn \"\"\n\t}\n", "\tif len(data) == 0 {\n\t\treturn \"\"\n\t}\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "blank.go": base}, map[string]string{"blank.go": head}, nil)
	shown := map[string]bool{}
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if strings.Contains(c.Input, `[]byte(" `) && strings.Contains(c.Head, "panic") {
			shown[c.Symbol] = true
		}
	}
	for _, sym := range []string{"example.com/blank.Last", "example.com/blank.LastIn", "example.com/blank.LastOf"} {
		if !shown[sym] {
			t.Errorf("%s panics on blank text now, yet no change on it shows blank text: %+v", sym, append(rep.Changes, rep.Unexplained...))
		}
	}
}

// TestGoVariadicTimeIsBuilt: a trailing `ref ...time.Time` (a reference
// time most scheduling and date code takes) left its function without a
// row; it can always be given none, and a time.Time is built from RFC
// 3339 text, so a patch that ignores a single reference time is seen.
func TestGoVariadicTimeIsBuilt(t *testing.T) {
	t.Parallel()
	mod := "module example.com/stamp\n\ngo 1.21\n"
	base := `package stamp

import "time"

// Stamp is prefix and the day of ref, 2020-01-01 without one.
func Stamp(prefix string, ref ...time.Time) string {
	t := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if len(ref) > 0 {
		t = ref[0]
	}
	return prefix + t.Format("2006-01-02")
}
`
	head := strings.Replace(base, "len(ref) > 0", "len(ref) > 1", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "stamp.go": base}, map[string]string{"stamp.go": head}, nil)
	if s := symbolOf(rep, "example.com/stamp.Stamp"); s.Rows == 0 {
		t.Fatalf("Stamp got no rows: %s", s.Why)
	}
	if !hasChange(rep, "example.com/stamp.Stamp", nil) {
		t.Errorf("Stamp ignores a single reference time on the head, yet no change shows it: %+v", rep.Symbols)
	}
}

// TestGoHandlerGetsRequests: a function of a response writer and a
// request (a handler, a router's ServeHTTP, a middleware's step) had no
// row at all. It gets requests of the methods and paths a router tells
// apart and a recorder, whose status, headers and body are its outcome,
// so a handler that stops answering HEAD is seen.
func TestGoHandlerGetsRequests(t *testing.T) {
	t.Parallel()
	mod := "module example.com/web\n\ngo 1.21\n"
	base := `package web

import (
	"fmt"
	"net/http"
)

// Page answers GET and HEAD with the path.
func Page(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	fmt.Fprint(w, r.URL.Path)
}
`
	head := strings.Replace(strings.Replace(base, " && r.Method != http.MethodHead", "", 1), `"GET, HEAD"`, `"GET"`, 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "web.go": base}, map[string]string{"web.go": head}, nil)
	if s := symbolOf(rep, "example.com/web.Page"); s.Rows == 0 {
		t.Fatalf("Page got no rows: %s", s.Why)
	}
	if !hasChange(rep, "example.com/web.Page", func(c evidence.Change) bool { return strings.Contains(c.Input, "HEAD") }) {
		t.Errorf("Page no longer answers HEAD, yet no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// TestGoContextIsBuilt: a function taking a context.Context (most of a
// Go API that does I/O) got no row at all ("no value could be built for
// `ctx`"); it is called with the background context and with one already
// canceled, where a patch that stops honouring its context shows.
func TestGoContextIsBuilt(t *testing.T) {
	t.Parallel()
	mod := "module example.com/fetch\n\ngo 1.21\n"
	base := `package fetch

import "context"

// Pages says how many pages to fetch, none once the context is done.
func Pages(ctx context.Context, n int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return n, nil
}
`
	head := strings.Replace(base, "\tif err := ctx.Err(); err != nil {\n\t\treturn 0, err\n\t}\n", "", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "fetch.go": base}, map[string]string{"fetch.go": head}, nil)
	if s := symbolOf(rep, "example.com/fetch.Pages"); s.Rows == 0 {
		t.Fatalf("Pages got no rows: %s", s.Why)
	}
	if !hasChange(rep, "example.com/fetch.Pages", func(c evidence.Change) bool { return strings.Contains(c.Input, "canceled") }) {
		t.Errorf("Pages no longer stops on a canceled context, yet no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// TestGoInterfaceParamGetsImplementers: a parameter of an interface the
// package declares got no row ("no value could be built for `s`"); it
// takes the package's own types that implement it, as their
// constructors build them.
func TestGoInterfaceParamGetsImplementers(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shape\n\ngo 1.21\n"
	base := `package shape

type Shape interface{ Area() int }

type Square struct{ side int }

func NewSquare(side int) *Square { return &Square{side: side} }

func (s *Square) Area() int { return s.side * s.side }

// Big says a shape covers four units or more.
func Big(s Shape) bool { return s.Area() >= 4 }
`
	head := strings.Replace(base, "s.Area() >= 4", "s.Area() > 4", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "shape.go": base}, map[string]string{"shape.go": head}, nil)
	if s := symbolOf(rep, "example.com/shape.Big"); s.Rows == 0 {
		t.Fatalf("Big got no rows: %s", s.Why)
	}
	if !hasChange(rep, "example.com/shape.Big", func(c evidence.Change) bool { return strings.Contains(c.Input, "NewSquare(2)") }) {
		t.Errorf("a square of side 2 is no longer big, yet no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// TestGoReflectValueIsBuilt: a reflection-driven decoder's function
// taking a reflect.Value (mapstructure's, csvutil's, gorilla/schema's)
// got no row ("no value could be built"); it is called on settable
// values of each kind, and what it stores in one is part of the outcome.
func TestGoReflectValueIsBuilt(t *testing.T) {
	t.Parallel()
	mod := "module example.com/dec\n\ngo 1.21\n"
	base := `package dec

import (
	"reflect"
	"strconv"
)

// Set stores the text s in v as v's kind reads it.
func Set(v reflect.Value, s string) error {
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		v.SetInt(n)
	case reflect.Bool:
		v.SetBool(s == "true" || s == "1")
	}
	return nil
}
`
	head := strings.Replace(base, `s == "true" || s == "1"`, `s == "true"`, 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "dec.go": base}, map[string]string{"dec.go": head}, nil)
	if s := symbolOf(rep, "example.com/dec.Set"); s.Rows == 0 {
		t.Fatalf("Set got no rows: %s", s.Why)
	}
	if !hasChange(rep, "example.com/dec.Set", func(c evidence.Change) bool {
		return strings.Contains(c.Input, "reflect.Value(false)") && strings.Contains(c.Base, "left arg1 true")
	}) {
		t.Errorf("Set no longer reads 1 as true, yet no change shows what it stored: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// TestGoGuidePutsTheFunctionsWordsIntoStrings: the changed branch runs
// only on a field with text before its "#" (cron's "5#3"). The rows have
// filled the function's share (here 8) without reaching it; the guide's
// rows, which the share does not bound, put the function's own literal
// at the end of a string the rows passed ("5" -> "5#"), reach the branch
// and show the change.
func TestGoGuidePutsTheFunctionsWordsIntoStrings(t *testing.T) {
	t.Parallel()
	mod := "module example.com/cron\n\ngo 1.21\n"
	src := func(keep string) string {
		return "package cron\n\nimport \"strings\"\n\n// Day is a day-of-week field without its week.\nfunc Day(field string) string {\n\tif i := strings.Index(field, \"#\"); i > 0 {\n\t\treturn " + keep + "\n\t}\n\treturn field\n}\n"
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "cron.go": src("field[:i]")}, map[string]string{"cron.go": src("field[:i-1]")},
		func(c *evidence.Config) { searching(c); c.TraceSeconds, c.MaxRowsPerFunction = -1, 8 })
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/cron.Day" && strings.Contains(c.Input, "#") && strings.Contains(c.Source, lang.SourceGuided) {
			return
		}
	}
	t.Errorf("Day's changed branch is behind a text with a # after it, and the guide shows no change: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestWordMutantsPutTheWordAtEitherEnd: the guide's word steps.
func TestWordMutantsPutTheWordAtEitherEnd(t *testing.T) {
	got := map[string]bool{}
	for _, m := range lang.WordMutants(validate.Row{Args: []any{"5", 3}}, []string{"#", "l"}) {
		got[m.Args[0].(string)] = true
		if m.Args[1] != 3 {
			t.Errorf("a word step changed the other argument: %v", m.Args)
		}
	}
	for _, want := range []string{"5#", "#5", "5l", "l5"} {
		if !got[want] {
			t.Errorf("no step %q among %v", want, got)
		}
	}
}

// TestProtocolStubIsADeclaration: a method the patch adds to a Protocol,
// its body `...`, does nothing and no row can call it: it is not judged,
// and it leaves nothing unchecked (tinydb's QueryLike.is_cacheable kept
// a run at "not every changed symbol was checked").
func TestProtocolStubIsADeclaration(t *testing.T) {
	t.Parallel()
	base := "from typing import Protocol\n\n\nclass QueryLike(Protocol):\n    def __call__(self, value) -> bool: ...\n"
	head := base + "\n    def is_cacheable(self) -> bool: ...\n"
	rep := runCommits(t, map[string]string{"q.py": base}, map[string]string{"q.py": head}, func(c *evidence.Config) { c.TraceSeconds = -1 })
	s := symbolRows(t, rep, "q.QueryLike.is_cacheable")
	if s.Why != lang.Declaration || s.Unchecked {
		t.Errorf("the Protocol's stub: %+v, want a declaration, not unchecked", s)
	}
}

// TestGoGenericTypeMethodIsCalled: a method of a generic type (a queue,
// a set, a cache) is called on an instantiation of it, its receivers
// built by the type's generic constructor; it once got no rows at all,
// "a method of a generic type: not instantiated yet".
func TestGoGenericTypeMethodIsCalled(t *testing.T) {
	t.Parallel()
	mod := "module example.com/box\n\ngo 1.21\n"
	base := `package box

// Box holds up to limit items.
type Box[T any] struct {
	items []T
	limit int
}

// NewBox makes an empty box of the given limit.
func NewBox[T any](limit int) *Box[T] { return &Box[T]{limit: limit} }

// Room is how many more items fit.
func (b *Box[T]) Room() int {
	return b.limit - len(b.items)
}
`
	head := strings.Replace(base, "\treturn b.limit - len(b.items)\n", "\tif b.limit > 3 {\n\t\treturn 3 - len(b.items)\n\t}\n\treturn b.limit - len(b.items)\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "box.go": base}, map[string]string{"box.go": head}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/box.Box.Room" {
			return
		}
	}
	for _, s := range rep.Symbols {
		t.Logf("%s: %d rows %s", s.Symbol, s.Rows, s.Why)
	}
	t.Errorf("Room of a box of more than 3 changed, yet no change on it: %+v", append(rep.Changes, rep.Unexplained...))
}

// TestJSParserByteOverRangeShows is parsimmon's byte(b) dropping its
// check that b fits in a byte, in miniature: byte is reached where the
// exports hold it (P.Binary = {byte: byte}, read by no closure), its b is
// a number though the body reads b.toString(16), and what it returns, a
// parser with a then method, is compared as returned, not awaited.
func TestJSParserByteOverRangeShows(t *testing.T) {
	t.Parallel()
	src := `function P(action) {
  if (!(this instanceof P)) return new P(action);
  this._ = action;
}
P.prototype.then = function (next) {
  if (!(next instanceof P)) throw new Error("not a parser: " + next);
  return P(function (input, i) { return next._(input, i); });
};
function assertNumber(x) {
  if (typeof x !== "number") throw new Error("not a number: " + x);
}
function byte(b) {
  assertNumber(b);
  if (b > 0xff) {
    throw new Error("larger than a byte");
  }
  var expected = (b > 0xf ? "0x" : "0x0") + b.toString(16);
  return P(function (input, i) { return input[i] === b ? expected : null; });
}
P.Binary = { byte: byte };
module.exports = P;
`
	base := map[string]string{"package.json": `{}`, "src/p.js": src}
	head := map[string]string{"src/p.js": strings.Replace(src, "  if (b > 0xff) {\n    throw new Error(\"larger than a byte\");\n  }\n", "", 1)}
	rep := runCommits(t, base, head, nil)
	c := symbolRows(t, rep, "src/p.byte")
	if c.Rows == 0 || c.Unchecked {
		t.Fatalf("byte: rows %d, unchecked %v (%s); want rows of its own", c.Rows, c.Unchecked, c.Why)
	}
	if !hasChange(rep, "src/p.byte", nil) {
		t.Errorf("byte(256) raised on the base and returns a parser on the head, and no change shows: %+v", rep.Changes)
	}
}

// TestPythonDurationPastTheFunctionsBound: a function that takes a
// timedelta among other date types (an isinstance test) and corrects
// durations past day 59 as it corrects dates (xlsxwriter's leap-day
// slip): the type's own small durations never cross 59 days; a duration a
// day past each of the function's constants does.
func TestPythonDurationPastTheFunctionsBound(t *testing.T) {
	t.Parallel()
	base := `import datetime


def to_serial(value, date_1904):
    is_delta = False
    if isinstance(value, datetime.datetime):
        delta = value - datetime.datetime(1899, 12, 31)
    elif isinstance(value, datetime.timedelta):
        is_delta = True
        delta = value
    else:
        raise TypeError("unsupported")
    serial = delta.days + delta.seconds / 86400
    if not date_1904 and not is_delta and serial > 59:
        serial += 1
    return serial
`
	head := strings.Replace(strings.Replace(strings.Replace(base, "    is_delta = False\n", "", 1), "        is_delta = True\n", "", 1), "not is_delta and ", "", 1)
	tests := "import datetime\nfrom serial import to_serial\n\n\ndef test_day():\n    assert to_serial(datetime.datetime(1900, 1, 2), False) == 2\n"
	rep := runCommits(t, map[string]string{"serial.py": base, "test_serial.py": tests}, map[string]string{"serial.py": head}, nil)
	if !hasChange(rep, "serial.to_serial", nil) {
		t.Errorf("to_serial adds a leap day to durations past day 59 on the head, and no change shows: %+v", rep.Changes)
	}
}

// TestPythonReceiverAttributeFarDownChanges: xlsxwriter's set_header,
// turned from > 255 to >= 255: a header of exactly 255 characters is kept
// on the base and refused on the head. The string is longer than the 64
// characters a length edge was built to, and the attribute it sets is one
// of a sheet's many (past the first twenty a receiver's state showed):
// both are reached, and the change names the attribute.
func TestPythonReceiverAttributeFarDownChanges(t *testing.T) {
	t.Parallel()
	var attrs strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&attrs, "        self.a%02d = %d\n", i, i)
	}
	base := "class Sheet:\n    def __init__(self):\n" + attrs.String() + "        self.header = ''\n\n" +
		"    def set_header(self, header=''):\n        if len(header) > 255:\n            return\n        self.header = header\n"
	head := strings.Replace(base, "len(header) > 255", "len(header) >= 255", 1)
	tests := "from sheet import Sheet\n\n\ndef test_header():\n    s = Sheet()\n    s.set_header('&Cx')\n    assert s.header == '&Cx'\n"
	rep := runCommits(t, map[string]string{"sheet.py": base, "test_sheet.py": tests}, map[string]string{"sheet.py": head}, nil)
	if !hasChange(rep, "sheet.Sheet.set_header", func(c evidence.Change) bool { return strings.Contains(c.Base, "{header=") }) {
		t.Errorf("a 255-character header is kept on the base only, and no change names header: %+v", changesOf(rep, "sheet.Sheet.set_header"))
	}
}

// TestJSReturnedObjectComparedByItsMethods: a combinator returns a parser
// whose change shows only in what it parses (parsimmon's regexp losing
// its default group); the tests call the parser's method on what the
// combinator built (var parser = P.regexp(/[0-9]/); parser.parse("1")),
// and every row's returned parser is asked the same. The test itself
// passes on both sides: only the parse it makes tells them apart.
func TestJSReturnedObjectComparedByItsMethods(t *testing.T) {
	t.Parallel()
	src := `function regexp(re, group) {
  group = group || 0;
  return {
    parse: function (s) {
      var m = re.exec(s);
      return m ? { status: true, value: m[group] } : { status: false };
    }
  };
}
module.exports = { regexp: regexp };
`
	test := `var P = require("../src/p");
var assert = require("assert");
it("parses a digit", function () {
  var parser = P.regexp(/[0-9]/);
  assert.ok(parser.parse("1"));
  assert.equal(parser.parse("x").status, false);
});
`
	base := map[string]string{"package.json": `{}`, "src/p.js": src, "test/p.test.js": test}
	head := map[string]string{"src/p.js": strings.Replace(src, "  group = group || 0;\n", "", 1)}
	rep := runCommits(t, base, head, nil)
	var shown []string
	for _, c := range append(append([]evidence.Change{}, rep.Changes...), rep.Unexplained...) {
		if c.Symbol == "src/p.regexp" {
			shown = append(shown, c.Input+": "+c.Base+" / "+c.Head)
		}
	}
	if len(shown) == 0 {
		t.Fatalf("regexp's parser parses \"1\" to \"1\" on the base and to nothing on the head, and no change shows: %+v", rep.Changes)
	}
	if !strings.Contains(strings.Join(shown, "\n"), `(/[0-9]/): returned an object; .parse("1") = `) {
		t.Errorf("no change names the parse that parts the sides:\n%s", strings.Join(shown, "\n"))
	}
}

// TestJSMethodThatChangesItsArgument: the object a function returns has a
// method that takes the first key off the caller's list (fast-sort's
// sort(rows).asc(by) after by.shift()); what it returns is the same on
// both sides, and the list the caller still holds tells them apart.
func TestJSMethodThatChangesItsArgument(t *testing.T) {
	t.Parallel()
	src := func(take string) string {
		return `function sort(rows) {
  var take = "` + take + `";
  return {
    asc: function (by) {
      var key = by[take](0, 1)[0];
      return rows.slice().sort(function (a, b) { return a[key] - b[key]; });
    }
  };
}
module.exports = { sort: sort };
`
	}
	test := `var s = require("../src/sort");
var assert = require("assert");
it("sorts by keys", function () {
  assert.deepEqual(s.sort([{a: 2}, {a: 1}]).asc(["a", "b"]), [{a: 1}, {a: 2}]);
});
`
	base := map[string]string{"package.json": `{}`, "src/sort.js": src("slice"), "test/sort.test.js": test}
	head := map[string]string{"src/sort.js": src("splice")}
	rep := runCommits(t, base, head, nil)
	var shown []string
	for _, c := range append(append([]evidence.Change{}, rep.Changes...), rep.Unexplained...) {
		if c.Symbol == "src/sort.sort" {
			shown = append(shown, c.Input+": "+c.Base+" / "+c.Head)
		}
	}
	if !strings.Contains(strings.Join(shown, "\n"), `.asc(["a","b"]) = [{"a":1},{"a":2}]; argument 1 became ["b"]`) {
		t.Errorf("asc takes the first key off the caller's list on the head, and no change says so:\n%s\n%+v", strings.Join(shown, "\n"), rep.Symbols)
	}
}
