package gate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/google/go-cmp/cmp"
)

const watchedJS = `export function clamp(x, hi) {
  if (x >= hi) {
    return hi;
  } else if (x < 0) {
    return 0;
  }
  const y = x * 2;
  return y / 2;
}

export function other(x) {
  return clamp(x, 10);
}
`

// The TypeScript source's lines are not its output's: the interface and
// the overloads vanish, and line 13's two statements become two lines.
const watchedTS = `interface Limits {
  hi: number;
}

export function clamp(x: number, hi: number): number;
export function clamp(x: string, hi: number): number;
export function clamp(x: number | string, hi: number): number {
  const n: number = typeof x === "string"
    ? Number(x)
    : x;
  if (n >= hi) {
    return hi;
  } const y: number = n * 2; if (y > 100) { return -1; }
  return y / 2;
}

export function other(x: number, lim: Limits = { hi: 10 }): number {
  return clamp(x, lim.hi);
}
`

// TestNodeWatchReportsLinesRun: a watched call's reply says which of the
// watched lines ran, in the file as the patch has it: a JavaScript file's
// own lines, a TypeScript file's lines read back through esbuild's source
// map from the JavaScript Node ran. A branch not taken is not reported,
// nor a line outside the ranges, nor a file not watched; an import runs
// nothing a call is charged with; a call with nothing watched carries no
// lines. Offsets count as V8 counts them: a byte-order mark is not code,
// a character past the BMP is two. An adapter that copies the tree to
// transpile it reports the lines of the files the watch names.
func TestNodeWatchReportsLinesRun(t *testing.T) {
	t.Parallel()
	needNode(t)
	for _, private := range []bool{true, false} {
		t.Run(map[bool]string{true: "private", false: "copied"}[private], func(t *testing.T) {
			testNodeWatch(t, private)
		})
	}
}

func testNodeWatch(t *testing.T, private bool) {
	dir := writeTree(t, map[string]string{
		"package.json":     `{"type": "module"}`,
		"src/clamp.js":     watchedJS,
		"src/clamp2.ts":    watchedTS,
		"cjs/package.json": `{"type": "commonjs"}`,
		"cjs/clamp.js":     "exports.clamp = function (x, hi) {\n  if (x >= hi) {\n    return hi;\n  }\n  return x;\n};\n",
		"src/wide.js":      "\uFEFFconst s = \"\U0001F600\u00e9\"; export function f(x) {\n  if (x) return s; else return \"\U0001F600\";\n  return 0;\n}\n",
	})
	js, ts, cjs, wide := filepath.Join(dir, "src/clamp.js"), filepath.Join(dir, "src/clamp2.ts"), filepath.Join(dir, "cjs/clamp.js"), filepath.Join(dir, "src/wide.js")
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: private, Watch: Watch{
		js:   {{From: 1, To: 9}},
		ts:   {{From: 7, To: 15}},
		cjs:  {{From: 1, To: 6}},
		wide: {{From: 2, To: 4}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		call Call
		file string
		want []int
		why  string
	}{
		{Call{ID: "J1", Target: "src/clamp.clamp", Args: []any{12, 10}}, js, []int{1, 2, 3}, "the if's branch returns: nothing after it ran"},
		{Call{ID: "J2", Target: "src/clamp.clamp", Args: []any{3, 10}}, js, []int{1, 2, 4, 7, 8}, "line 4's `}` closes the branch not taken; its else-if ran"},
		{Call{ID: "J3", Target: "src/clamp.clamp", Args: []any{-3, 10}}, js, []int{1, 2, 4, 5}, ""},
		{Call{ID: "J4", Target: "src/clamp.other", Args: []any{3}}, js, []int{1, 2, 4, 7, 8}, "other's own lines are outside the ranges"},
		{Call{ID: "T1", Target: "src/clamp2.clamp", Args: []any{12, 10}}, ts, []int{7, 8, 10, 11, 12}, "the ternary's string arm is not taken"},
		{Call{ID: "T2", Target: "src/clamp2.clamp", Args: []any{"3", 10}}, ts, []int{7, 8, 9, 11, 13, 14}, "line 13's `}` closes the branch not taken, its statements ran"},
		{Call{ID: "T3", Target: "src/clamp2.clamp", Args: []any{60, 100}}, ts, []int{7, 8, 10, 11, 13}, "line 13's return ran: the line ran"},
		{Call{ID: "T4", Target: "src/clamp2.other", Args: []any{3}}, ts, []int{7, 8, 10, 11, 13, 14}, ""},
		{Call{ID: "W1", Target: "src/wide.f", Args: []any{true}}, wide, []int{2}, "the return after the if is unreached"},
		{Call{ID: "C1", Target: "cjs/clamp.clamp", Args: []any{1, 10}}, cjs, []int{1, 2, 5}, "CommonJS, read as Node reads it; line 6's `;` ends the assignment, run at import"},
	} {
		r, err := a.Call(ctx, tc.call)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != OutcomeReturned {
			t.Fatalf("%s: %s %s", tc.call.ID, r.Outcome, r.Detail)
		}
		if got := r.Lines[tc.file]; !reflect.DeepEqual(got, tc.want) || len(r.Lines) != 1 {
			t.Errorf("%s: lines %v, want %v in %s alone (%s)", tc.call.ID, r.Lines, tc.want, tc.file, tc.why)
		}
	}
	plain, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	r, err := plain.Call(ctx, Call{ID: "U1", Target: "src/clamp.clamp", Args: []any{12, 10}})
	if err != nil || r.Outcome != OutcomeReturned || r.Lines != nil {
		t.Errorf("unwatched call: %s, lines %v, err %v; want none", r.Outcome, r.Lines, err)
	}
	if src, err := os.ReadFile(ts); err != nil || string(src) != watchedTS {
		t.Errorf("the watched source was changed in the tree: %v", err)
	}
}

// TestCodeSpans: the pieces of code the worker tests against V8's ranges,
// in V8's units.
func TestCodeSpans(t *testing.T) {
	w := Watch{"f.js": {{From: 1, To: 3}}}
	cases := []struct {
		name   string
		code   string
		segs   []lineSeg // 0-based lines, as a source map has them
		mapped bool
		want   []int
		reason string
	}{
		{name: "lines", code: "let a = 1;\n  b();\n\n", want: []int{0, 10, 1, 13, 17, 2}},
		{name: "wide", code: "\uFEFFa\U0001F600\u00e9\n  }b\n", want: []int{0, 4, 1, 8, 9, 2},
			reason: "no byte-order mark; a character past the BMP is two units, é one; a line's leading `}` is its block's"},
		{name: "braces only", code: "  }\n}  \nx\n", want: []int{8, 9, 3}},
		{name: "outside the ranges", code: "a\nb\nc\nd\n", want: []int{0, 1, 1, 2, 3, 2, 4, 5, 3}},
		{name: "mapped", code: "const n = t ? A(x) : x;\n  }\nreturn n;\n", mapped: true,
			segs:   []lineSeg{{0, 0, 0}, {0, 14, 1}, {0, 21, 2}, {1, 2, 2}, {2, 0, 5}},
			want:   []int{0, 1, 1, 14, 15, 2, 21, 22, 3},
			reason: "a segment is tested where it starts; one on a `}` alone and one outside the ranges are left out"},
	}
	for _, c := range cases {
		got := codeSpans([]byte(c.code), c.segs, c.mapped, w, "f.js")
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: spans (-want +got):\n%s%s", c.name, diff, c.reason)
		}
	}
}

// TestSourceMapLines: esbuild's map of a TypeScript source reads each
// line of its output back to the source's line.
func TestSourceMapLines(t *testing.T) {
	src := "interface A {\n  a: number;\n}\nexport function f(x: number): number {\n  const y: number = x; if (y > 1) {\n    return -y;\n  }\n  return y;\n}\n"
	res := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS, Format: api.FormatESModule, Sourcemap: api.SourceMapExternal})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	segs, err := sourceMapLines(res.Map)
	if err != nil {
		t.Fatal(err)
	}
	// Each output line, by its text, to the source line its first segment names.
	got := map[string]int{}
	lines := strings.Split(string(res.Code), "\n")
	for _, s := range segs {
		if text := strings.TrimSpace(lines[s.gen]); got[text] == 0 {
			got[text] = s.src + 1
		}
	}
	want := map[string]int{"function f(x) {": 4, "const y = x;": 5, "if (y > 1) {": 5, "return -y;": 6, "return y;": 8}
	for text, line := range want {
		if got[text] != line {
			t.Errorf("%q: source line %d, want %d (all: %v)", text, got[text], line, got)
		}
	}
	if _, err := sourceMapLines([]byte(`{"version": 3, "mappings": "A$"}`)); err == nil {
		t.Errorf("a segment that is not base64 VLQ: no error")
	}
}

// TestNodeWatchRerunsShareATake: the same call sent again and again (a
// row's reruns, pipelined) is read from V8's coverage once: its last
// reply carries the lines, the ones before it none, and the next call's
// lines are its own.
func TestNodeWatchRerunsShareATake(t *testing.T) {
	needNode(t)
	dir := writeTree(t, map[string]string{"package.json": `{"type": "module"}`, "src/clamp.js": watchedJS})
	js := filepath.Join(dir, "src/clamp.js")
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true, Watch: Watch{js: {{From: 1, To: 9}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var calls []Call
	for _, c := range []struct {
		id string
		x  int
	}{{"A#1", 12}, {"A#2", 12}, {"A#3", 12}, {"B#1", 3}, {"B#2", 3}, {"C#1", -3}} {
		args := []any{c.x, 10}
		body, err := encodeBody("src/clamp.clamp", args, nil)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, Call{ID: c.id, Target: "src/clamp.clamp", Args: args, body: body})
	}
	got := map[string][]int{}
	a.CallBatch(context.Background(), calls, func(i int, r Reply, err error) {
		if err != nil || r.Outcome != OutcomeReturned {
			t.Errorf("%s: %s %v", calls[i].ID, r.Outcome, err)
		}
		got[calls[i].ID] = r.Lines[js]
	})
	// A pipelined call may find the next not yet read: then it carries its
	// own lines. Either way a run's lines are its last reply's.
	for _, c := range []struct {
		id   string
		want []int
	}{{"A#3", []int{1, 2, 3}}, {"B#2", []int{1, 2, 4, 7, 8}}, {"C#1", []int{1, 2, 4, 5}}} {
		if !reflect.DeepEqual(got[c.id], c.want) {
			t.Errorf("%s: lines %v, want %v (all: %v)", c.id, got[c.id], c.want, got)
		}
	}
	for id, last := range map[string]string{"A#1": "A#3", "A#2": "A#3", "B#1": "B#2"} {
		if got[id] != nil && !reflect.DeepEqual(got[id], got[last]) {
			t.Errorf("%s: lines %v, want none or its run's, %v", id, got[id], got[last])
		}
	}
	if got["A#1"] != nil && got["A#2"] != nil && got["B#1"] != nil {
		t.Errorf("every rerun carried its own lines: the runs were not taken once (%v)", got)
	}
}

// TestNodeWatchBounded: the watch travels on the worker's command line,
// which Linux bounds: past nodeWatchLimit, the files with the most spans
// are left out (they report no lines, which says nothing ran), never the
// worker's start. A file Node does not run as it is, or that links
// outside the tree, is not read.
func TestNodeWatchBounded(t *testing.T) {
	big := strings.Repeat("x = 1;\n", 20000)
	dir := writeTree(t, map[string]string{"big.js": big, "small.js": "f();\n", "notes.txt": "x\n"})
	outside := filepath.Join(t.TempDir(), "secret.js")
	if err := os.WriteFile(outside, []byte("s();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.js")); err != nil {
		t.Fatal(err)
	}
	all := []LineRange{{From: 1, To: 20000}}
	w := Watch{filepath.Join(dir, "big.js"): all, filepath.Join(dir, "small.js"): all, filepath.Join(dir, "notes.txt"): all, filepath.Join(dir, "link.js"): all}
	got := nodeWatch(w, dir, dir, nil, nil)
	if len(got) > nodeWatchLimit {
		t.Errorf("watch of %d bytes, over the %d-byte limit", len(got), nodeWatchLimit)
	}
	var m map[string]nodeWatched
	if err := json.Unmarshal([]byte(got), &m); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small.js")
	if len(m) != 1 || !reflect.DeepEqual(m[small], nodeWatched{File: small, Spans: []int{0, 4, 1}}) {
		t.Errorf("watch %.300s: want small.js alone", got)
	}
}

// FuzzSourceMapLines feeds arbitrary mappings and code through the source
// map reader and codeSpans: neither may panic, and every span lies in the
// code, on a watched line.
func FuzzSourceMapLines(f *testing.F) {
	for _, m := range []string{"AAAA;AACA,EAAE", "AAAO,SAAS,MAAM;;AAChC", "A,C;;D", "gggggggggg", "/////B"} {
		f.Add(m, "const n = t ? A(x) : x;\n  }\nreturn n;\n")
	}
	f.Fuzz(func(t *testing.T, mappings, code string) {
		b, _ := json.Marshal(map[string]any{"version": 3, "mappings": mappings})
		segs, err := sourceMapLines(b)
		if err != nil {
			return
		}
		w := Watch{"f.ts": {{From: 1, To: 4}}}
		spans := codeSpans([]byte(code), segs, true, w, "f.ts")
		units := len(utf16.Encode([]rune(strings.TrimPrefix(code, "\uFEFF"))))
		for i := 0; i+2 < len(spans); i += 3 {
			if spans[i] < 0 || spans[i] >= spans[i+1] || spans[i+1] > units || !w.covers("f.ts", spans[i+2]) {
				t.Fatalf("span %v outside the code's %d units or the watch", spans[i:i+3], units)
			}
		}
	})
}
