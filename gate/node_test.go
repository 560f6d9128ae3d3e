package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/premise-dev/premise/validate"
)

// needNode fails the test when node is missing: premise's JavaScript and
// TypeScript worker runs on it, and a skipped test would hide that the
// worker went unchecked.
func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is needed: premise's JavaScript and TypeScript worker runs on it (install Node 18 or later; .ci/run does): %v", err)
	}
}

// writeTree writes files under a fresh directory and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// jsRepo is a JavaScript repository with an ES package at the top and a
// CommonJS one below it, with a function for every kind of value and
// raise the worker must tell apart.
var jsRepo = map[string]string{
	"package.json": `{"name": "ranges", "type": "module"}`,
	"src/lib/ranges.js": `
export function mergeRanges(ranges) {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [s, e] of sorted) {
    if (s > e) throw new RangeError("inverted range " + s + ".." + e);
    const last = out[out.length - 1];
    if (last && s < last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
export class Interval {
  constructor(start, end) {
    if (start > end) throw new RangeError("inverted");
    this.start = start;
    this.end = end;
  }
  static of(pair) { return new Interval(pair[0], pair[1]); }
  merge(other) { return new Interval(Math.min(this.start, other.start), Math.max(this.end, other.end)); }
  get length() { return this.end - this.start; }
}
export class ValidationError extends Error {
  constructor(msg) { super(msg); this.code = "E_VALID"; }
}
export async function later(x) { await new Promise((r) => setTimeout(r, 5)); return x + 1; }
export async function refuse(x) { await null; throw new ValidationError("no " + x); }
export function never() { return new Promise(() => {}); }
export function undef() { return undefined; }
export function nul() { return null; }
export function negZero() { return -0; }
export function zero() { return 0; }
export function nan() { return NaN; }
export function isNaNArg(x) { return Number.isNaN(x); }
export function big(n) { return 2n ** BigInt(n); }
export function kinds(...xs) { return xs.map((x) => (x === null ? "null" : typeof x)); }
export function counts(words) { const m = new Map(); for (const w of words) m.set(w, (m.get(w) || 0) + 1); return m; }
export function uniq(xs) { return new Set(xs); }
export function sizeOf(x) { return x.size; }
export function encodes(s) { try { return encodeURIComponent(s); } catch (e) { return e.name; } }
export function halves(s) { return [s.slice(0, 1), s.slice(1), s, { k: s.slice(1) }]; }
export function bytes(b) { return [b.constructor.name, b.length, b[0] ?? null, Buffer.isBuffer(b)]; }
export function emits(ondata, n) { const buf = new Uint8Array(1); for (let i = 0; i < n; i++) { ondata(buf, false); buf[0] = i + 1; } }
export function calls(fn) { return [fn("a"), fn(2), fn(""), typeof fn]; }
export function dicts() { const o = Object.create(null); o.k = 1; return [o, { k: 1 }]; }
export function protoless(x) { return [Object.getPrototypeOf(x) === null, typeof x.hasOwnProperty, x.a]; }
export function throwString() { throw "bad input"; }
export function throwObject() { throw { code: 42 }; }
export function push(xs) { xs.push(1); return xs.length; }
export function dollar() { return { $new: "x", plain: 1 }; }
export function holes() { return [1, , 3]; }
export function dates() { return [new Date(0), new Date(NaN)]; }
export function options(a, opts) { return [a, opts]; }
export function loop() { for (;;) {} }
export function* count() { let i = 0; for (;;) yield i++; }
export const utils = { prefix: "p-", tag(s) { return this.prefix + s; } };
class Stamp extends Date { year() { return this.getUTCFullYear(); } }
export function clock() {
  return [Date.now(), new Date().toISOString(), typeof Date(), new Date(0).toISOString(), new Date() instanceof Date, new Stamp().year(), new Stamp(0) instanceof Stamp];
}
export default function defaulted() { return "default"; }
`,
	"cjs/package.json": `{"type": "commonjs"}`,
	"cjs/util.js": `
exports.add = (a, b) => a + b;
exports.who = function () { return typeof module === "object" ? "commonjs" : "other"; };
`,
	"cjs/fn.cjs": `module.exports = function double(x) { return x * 2; };`,
	"cjs/umd.js": `(function (root, factory) {
  if (typeof exports === 'object') { module.exports = factory(); } else { root.compare = factory(); }
}(this, function () {
  function split(v) { return v.split('.'); }
  return function compare(a, b) { return split(a).length - split(b).length; };
}));
`,
	"cjs/tools/index.js": `module.exports = { name: () => "index" };`,
	"cjs/filters.js": `var filters = { default: function (v, d) { return v === undefined ? d : v; }, sum: function (xs) { return xs.reduce(function (a, b) { return a + b; }, 0); } };
module.exports = filters;
`,
	"cjs/esm.js": `Object.defineProperty(exports, "__esModule", { value: true });
exports.default = { sum: function () { return "the default's" }, only: function () { return "only" } };
exports.sum = function () { return "the module's" };
`,
	"cjs/validate.js": `(function (exports, module) {
  "use strict";
  var validate = function () {};
  var extend = function (obj, src) { for (var k in src) obj[k] = src[k]; return obj; };
  validate.validators = {
    prefix: "v-",
    email: extend(function (value) { return this.PATTERN.test(value); }, { PATTERN: /^[a-z]+@[a-z]+$/ }),
    tag: extend(function (s) { return this.prefix + s; }, { prefix: "own-" }),
  };
  module.exports = validate;
}).call(this, exports, module);
`,
}

// tsRepo is a TypeScript repository: ES modules at the top importing
// "./x.js" for x.ts (as tsc wants) and an extensionless "./x" (as
// bundlers allow), a CommonJS package below, an .mts and a .cts file, a
// file esbuild refuses, and a plain .js file the TypeScript imports.
var tsRepo = map[string]string{
	"package.json":  `{"type": "module"}`,
	"tsconfig.json": "{\n  // comments, as tsc allows\n  \"compilerOptions\": {\"strict\": true, \"target\": \"ES2022\"},\n}\n",
	"src/helper.ts": `export const helper = (n: number): number => n + 1;
export interface Shape { w: number }
`,
	"src/math.ts": `import { helper } from "./helper.js";
import type { Shape } from "./helper.js";
import { legacy } from "./legacy.js";
export function double(n: number): number { return helper(n) * 2; }
export function area(s: Shape): number { return s.w * s.w; }
export function old(): string { return legacy(); }
export class Counter {
  private n: number;
  constructor(start: number = 0) { this.n = start; }
  add(k: number): number { this.n += k; return this.n; }
}
export enum Color { Red = "red", Blue = "blue" }
export function paint(c: Color): string { return c; }
export async function fetchTwice(n: number): Promise<number[]> { return [await Promise.resolve(n), n]; }
`,
	"src/withext.ts": `import { helper } from "./helper.ts";
export { helper as again } from "./helper.ts";
export function viaExt(n: number): number { return helper(n) + 10; }
export async function viaDynamic(n: number): Promise<number> { return (await import("./helper.ts")).helper(n); }
`,
	"src/bare.ts": `import { helper } from "./helper";
export function viaBare(n: number): number { return helper(n); }
`,
	"src/patterns.ts": `import { helper, Shape } from "./helper";
import {
  Box,
  unbox,
} from "./types/box";
export { Shape, Box };
export function boxed(n: number): Box { return { v: helper(n) }; }
export function opened(b: Box): number { return unbox(b); }
`,
	"src/types/box.ts": `export type Box = { v: number };
export function unbox(b: Box): number { return b.v; }
`,
	"src/legacy.js":    `export function legacy() { return "js"; }`,
	"src/kinds.mts":    `export const kind = (): string => typeof require;`,
	"src/kinds2.cts":   `export function kind(): string { return typeof require; }`,
	"src/broken.ts":    "export function broken(: number {\n",
	"src/types.d.ts":   "export declare function nothing(): void;\n",
	"pkg/package.json": `{"type": "commonjs"}`,
	"pkg/a.ts": `import { b } from "./b.js";
export function a(x: string): string { return b(x) + "!"; }
export default function main(): string { return "main"; }
`,
	"pkg/b.ts": `export function b(x: string): string { return x.toUpperCase(); }`,
	"pkg/c.ts": `import { b } from "./b.ts";
export function c(x: string): string { return b(x) + "?"; }
`,
}

type nodeCase struct {
	name   string
	target string
	args   []any
	kwargs map[string]any
	// want is the reply's value as the worker encodes it, when the call
	// returns; class (and code) when it raises.
	want   string
	class  string
	code   any
	reason string
}

func runNodeCases(t *testing.T, a Adapter, tests []nodeCase) {
	t.Helper()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), Call{ID: "N" + string(rune('A'+i%26)), Target: tc.target, Args: tc.args, Kwargs: tc.kwargs})
			if err != nil {
				t.Fatalf("%s: %v", tc.target, err)
			}
			if tc.class != "" {
				if got.Outcome != OutcomeRaised || got.Exc == nil || got.Exc.Class != tc.class {
					t.Fatalf("%s: got %s %s %+v (%s), want a raise of %s: %s", tc.target, got.Outcome, got.Raw, got.Exc, got.Detail, tc.class, tc.reason)
				}
				if tc.code != nil && got.Exc.Code != tc.code {
					t.Errorf("%s: code %#v, want %#v", tc.target, got.Exc.Code, tc.code)
				}
				return
			}
			if got.Outcome != OutcomeReturned || string(got.Raw) != tc.want {
				t.Errorf("%s: got %s %s %+v (%s), want returned %s: %s", tc.target, got.Outcome, got.Raw, got.Exc, got.Detail, tc.want, tc.reason)
			}
		})
	}
}

// heardBytes is what a callback handed a one-byte array counting from 0
// and false, n times, heard.
func heardBytes(n int) string {
	var calls []string
	for i := 0; i < n; i++ {
		calls = append(calls, fmt.Sprintf(`[{"$class":"Uint8Array","$items":[%d]},false]`, i))
	}
	return strings.Join(calls, ",")
}

// TestNodeAdapterJavaScript: every kind of JavaScript value and raise
// comes back as JavaScript sees it, from ES modules and CommonJS alike.
func TestNodeAdapterJavaScript(t *testing.T) {
	needNode(t)
	dir := writeTree(t, jsRepo)
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const m = "src/lib/ranges."
	iv := func(s, e int) any { return map[string]any{"$new": m + "Interval", "$args": []any{s, e}} }
	runNodeCases(t, a, []nodeCase{
		{name: "returns", target: m + "mergeRanges", args: []any{[]any{[]any{4, 6}, []any{0, 1}}}, want: `[[0,1],[4,6]]`},
		{name: "throws by class", target: m + "mergeRanges", args: []any{[]any{[]any{5, 1}}}, class: "RangeError"},
		{name: "constructor", target: m + "Interval", args: []any{1, 4}, want: `{"$class":"Interval","$fields":{"start":1,"end":4}}`, reason: "a class named as the target is constructed with new"},
		{name: "method on a receiver", target: m + "Interval.merge", args: []any{iv(0, 2), iv(1, 5)}, want: `{"$class":"Interval","$fields":{"start":0,"end":5}}`},
		{name: "getter on a receiver", target: m + "Interval.length", args: []any{iv(2, 7)}, want: `5`},
		{name: "static method", target: m + "Interval.of", args: []any{[]any{3, 4}}, want: `{"$class":"Interval","$fields":{"start":3,"end":4}}`},
		{name: "receiver's constructor throws", target: m + "Interval.merge", args: []any{iv(5, 1), iv(0, 1)}, class: "RangeError", reason: "building the receiver runs the code under review: its throw is the row's"},
		{name: "method without receiver", target: m + "Interval.merge", class: "premise.ArityError"},
		{name: "async awaited", target: m + "later", args: []any{1}, want: `2`},
		{name: "async rejection by class and code", target: m + "refuse", args: []any{"x"}, class: "ValidationError", code: "E_VALID"},
		{name: "undefined", target: m + "undef", want: `{"$undefined":true}`},
		{name: "null", target: m + "nul", want: `null`},
		{name: "minus zero", target: m + "negZero", want: `{"$number":"-0"}`},
		{name: "zero", target: m + "zero", want: `0`},
		{name: "NaN", target: m + "nan", want: `{"$number":"NaN"}`},
		{name: "NaN argument", target: m + "isNaNArg", args: []any{map[string]any{"$number": "NaN"}}, want: `true`},
		{name: "BigInt", target: m + "big", args: []any{64}, want: `{"$bigint":"18446744073709551616"}`},
		{name: "argument kinds", target: m + "kinds", args: []any{nil, map[string]any{"$undefined": true}, map[string]any{"$bigint": "7"}, map[string]any{"$number": "-0"}}, want: `["null","undefined","bigint","number"]`},
		{name: "Map in insertion order", target: m + "counts", args: []any{[]any{"b", "a", "b"}}, want: `{"$map":[["b",2],["a",1]]}`},
		{name: "Set", target: m + "uniq", args: []any{[]any{3, 1, 3}}, want: `{"$set":[3,1]}`},
		{name: "Map and Set arguments", target: m + "sizeOf", args: []any{map[string]any{"$map": []any{[]any{1, "x"}, []any{2, "y"}}}}, want: `2`},
		{name: "an object without a prototype", target: m + "protoless", args: []any{map[string]any{"$nullproto": map[string]any{"a": 1}}}, want: `[true,"undefined",1]`, reason: "Object.create(null): no hasOwnProperty of its own"},
		{name: "an object without a prototype comes back as one", target: m + "dicts", want: `[{"$nullproto":{"k":1}},{"k":1}]`, reason: "'toString' in it is false: a patch that turns {} into Object.create(null), or back, changes every lookup of such a key"},
		{name: "a callback that marks", target: m + "calls", args: []any{map[string]any{"$func": "mark"}}, want: `{"$returned":["<a>",2,"<>","function"],"$heard":[["a"],[2],[""]]}`, reason: "a test's callback stands in as premise's: it shows what it was handed, and the result says what it heard"},
		{name: "a callback of a truth", target: m + "calls", args: []any{map[string]any{"$func": "truthy"}}, want: `{"$returned":[true,true,false,"function"],"$heard":[["a"],[2],[""]]}`},
		{name: "a callback an event calls", target: m + "emits", args: []any{map[string]any{"$func": "identity"}, 40}, want: `{"$returned":{"$undefined":true},"$heard":[` + heardBytes(32) + `],"$heard_more":8}`, reason: "a stream's ondata returns nothing: what it was handed, each as it was then, is the call's behaviour; past 32, how many more"},
		{name: "an unknown callback", target: m + "calls", args: []any{map[string]any{"$func": "constructor"}}, class: "premise.DecodeError", reason: "only premise's own callbacks, never a name the prototype holds"},
		{name: "a typed array", target: m + "bytes", args: []any{map[string]any{"$class": "Uint8Array", "$items": []any{255, 1}}}, want: `["Uint8Array",2,255,false]`, reason: "bytes a parameter typed Uint8Array takes, as the worker encodes them back"},
		{name: "a Buffer", target: m + "bytes", args: []any{map[string]any{"$class": "Buffer", "$items": []any{}}}, want: `["Buffer",0,null,true]`},
		{name: "another class's form", target: m + "bytes", args: []any{map[string]any{"$class": "Date", "$items": []any{1}}}, class: "premise.DecodeError", reason: "only a typed array or a Buffer is built from $class"},
		{name: "a string with a lone surrogate", target: m + "encodes", args: []any{map[string]any{"$utf16": []any{97, 0xd800}}}, want: `"URIError"`, reason: "a string by its code units: a lone surrogate, which encodeURIComponent refuses"},
		{name: "halves of an emoji", target: m + "halves", args: []any{"\U0001F436"}, want: `[{"$utf16":[55357]},{"$utf16":[56374]},"🐶",{"k":{"$utf16":[56374]}}]`, reason: "a lone surrogate comes back by its code units: read as a Go string, every half would be the same U+FFFD, and a diff splitting 🐶 would equal one splitting 🐷"},
		{name: "thrown string", target: m + "throwString", class: "string", code: "bad input"},
		{name: "thrown object", target: m + "throwObject", class: "Object"},
		{name: "dollar keys escaped", target: m + "dollar", want: `{"$object":{"$new":"x","plain":1}}`},
		{name: "holes", target: m + "holes", want: `[1,{"$hole":true},3]`},
		{name: "dates", target: m + "dates", want: `[{"$date":"1970-01-01T00:00:00.000Z"},{"$date":"Invalid Date"}]`},
		{name: "a date from new Date's numbers", target: m + "options", args: []any{map[string]any{"$date": []any{999, 0, 1, 10}}}, want: `[{"$date":"` + time.Date(999, 1, 1, 10, 0, 0, 0, time.Local).UTC().Format("2006-01-02T15:04:05.000Z") + `"},{"$undefined":true}]`, reason: "a test's new Date(999, 0, 1, 10), in the worker's zone"},
		{name: "kwargs as an options object", target: m + "options", args: []any{1}, kwargs: map[string]any{"strict": true}, want: `[1,{"strict":true}]`},
		{name: "unknown tag", target: m + "kinds", args: []any{map[string]any{"$nope": 1}}, class: "premise.DecodeError"},
		{name: "object literal method", target: m + "utils.tag", args: []any{"x"}, want: `"p-x"`, reason: "this is the object the method was found on"},
		{name: "default export", target: m + "default", want: `"default"`},
		{name: "a frozen clock", target: m + "clock", want: `[1718452800000,"2024-06-15T12:00:00.000Z","string","1970-01-01T00:00:00.000Z",true,2024,true]`, reason: "now is the same on both sides of a comparison, run in whatever second; dates built from numbers and Date's subclasses are as ever"},
		{name: "observed iterator", target: m + "count", kwargs: map[string]any{"$observe": 3}, want: `{"$first":[0,1,2]}`},
		{name: "observed mutation", target: m + "push", args: []any{[]any{7}}, kwargs: map[string]any{"$observe": 5}, want: `{"$returned":2,"$args_after":{"0":[7,1]}}`},
		{name: "CommonJS", target: "cjs/util.add", args: []any{2, 3}, want: `5`},
		{name: "CommonJS by package type", target: "cjs/util.who", want: `"commonjs"`},
		{name: "module.exports a function", target: "cjs/fn.default", args: []any{21}, want: `42`},
		{name: "module.exports a function, by its name", target: "cjs/fn.double", args: []any{21}, want: `42`},
		{name: "a UMD factory's function, by its name", target: "cjs/umd.compare", args: []any{"1.2", "1"}, want: `1`},
		{name: "directory index", target: "cjs/tools.name", want: `"index"`},
		{name: "a member of module.exports beside its own default", target: "cjs/filters.default.sum", args: []any{[]any{1, 2}}, want: `3`, reason: "nunjucks' filters object has a filter named default: default.sum is module.exports' sum"},
		{name: "module.exports' own default member", target: "cjs/filters.default.default", args: []any{map[string]any{"$undefined": true}, 7}, want: `7`},
		{name: "a transpiled ES module's default", target: "cjs/esm.default.sum", want: `"the default's"`, reason: "an own default that holds the name is the default export"},
		{name: "a transpiled ES module's default, its only member", target: "cjs/esm.default.only", want: `"only"`},
		{name: "a function reading data copied onto it through this", target: "cjs/validate.validators.email", args: []any{"a@b"}, want: `true`, reason: "validate.js calls its validators as validator.call(validator, ...): email's this.PATTERN is its own, not the validators object's"},
		{name: "a function reading through this what the object has too", target: "cjs/validate.validators.tag", args: []any{"x"}, want: `"v-x"`, reason: "this stays the object it was read from when that object has the key"},
	})

	// A target that names nothing could not be attempted: an InfraError
	// naming it, one line.
	for _, target := range []string{"src/lib/nowhere.f", m + "missing", "../etc.passwd"} {
		_, err := a.Call(context.Background(), Call{ID: "X1", Target: target})
		var ie *InfraError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), target) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming the target", target, err)
		}
	}
}

// TestNodeAdapterTypeScript: TypeScript is transpiled by esbuild without
// type checking, in ES and CommonJS packages, with tsc's "./x.js" for
// x.ts, a bundler's extensionless import, .mts and .cts; a file esbuild
// refuses fails its own rows with the file and line named.
func TestNodeAdapterTypeScript(t *testing.T) {
	needNode(t)
	dir := writeTree(t, tsRepo)
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	runNodeCases(t, a, []nodeCase{
		{name: "./x.js import of x.ts", target: "src/math.double", args: []any{3}, want: `8`},
		{name: "types stripped", target: "src/math.area", args: []any{map[string]any{"w": 3}}, want: `9`},
		{name: "TypeScript imports JavaScript", target: "src/math.old", want: `"js"`},
		{name: "class with a parameter default", target: "src/math.Counter.add", args: []any{map[string]any{"$new": "src/math.Counter", "$args": []any{10}}, 5}, want: `15`},
		{name: "enum", target: "src/math.paint", args: []any{"blue"}, want: `"blue"`},
		{name: "async", target: "src/math.fetchTwice", args: []any{4}, want: `[4,4]`},
		{name: "extensionless import", target: "src/bare.viaBare", args: []any{1}, want: `2`},
		{name: "./x.ts import of x.ts", target: "src/withext.viaExt", args: []any{1}, want: `12`, reason: "tsc's allowImportingTsExtensions: Node loads no .ts file, so the import is of the file premise transpiled"},
		{name: "re-export from ./x.ts", target: "src/withext.again", args: []any{1}, want: `2`},
		{name: "dynamic import of ./x.ts", target: "src/withext.viaDynamic", args: []any{4}, want: `5`},
		{name: "CommonJS package, ./x.ts of x.ts", target: "pkg/c.c", args: []any{"hi"}, want: `"HI?"`},
		{name: ".mts is an ES module", target: "src/kinds.kind", want: `"undefined"`},
		{name: ".cts is CommonJS", target: "src/kinds2.kind", want: `"function"`},
		{name: "CommonJS package, ./x.js of x.ts", target: "pkg/a.a", args: []any{"hi"}, want: `"HI!"`},
		{name: "CommonJS default export", target: "pkg/a.default", want: `"main"`},
		{name: "a type imported and re-exported without `type`", target: "src/patterns.boxed", args: []any{1}, want: `{"v":2}`,
			reason: "tsc reads ./helper and ./types/box and elides Shape and Box; transpiled alone, Node's ES loader refused the module"},
		{name: "beside it, a value of the same module", target: "src/patterns.opened", args: []any{map[string]any{"v": 7}}, want: `7`},
	})
	_, err = a.Call(context.Background(), Call{ID: "X1", Target: "src/broken.broken"})
	var ie *InfraError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "src/broken.ts") || !strings.Contains(err.Error(), "line 1") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a file esbuild refuses: %v; want one line naming src/broken.ts and its line", err)
	}
	// Not a private copy: the user's tree is left as it was.
	if _, err := os.Stat(filepath.Join(dir, "src", "math.js")); !os.IsNotExist(err) {
		t.Errorf("the adapter wrote into the tree it was given (%v); it must transpile in a copy", err)
	}
}

// TestNodeAdapterTimeout: a call that loops, or awaits a promise that
// never settles, is a timeout within the timeout plus a second; only that
// row: the next call gets a fresh worker and its answer.
func TestNodeAdapterTimeout(t *testing.T) {
	needNode(t)
	dir := writeTree(t, jsRepo)
	const timeout = 2 * time.Second
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, target := range []string{"src/lib/ranges.loop", "src/lib/ranges.never"} {
		if r, err := a.Call(context.Background(), Call{ID: "W", Target: "src/lib/ranges.zero"}); err != nil || r.Outcome != OutcomeReturned {
			t.Fatalf("warm-up: %+v, %v", r, err)
		}
		start := time.Now()
		got, err := a.Call(context.Background(), Call{ID: "T", Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if got.Outcome != OutcomeTimeout {
			t.Errorf("%s: %s (%s), want timeout", target, got.Outcome, got.Detail)
		}
		if el := time.Since(start); el > timeout+time.Second {
			t.Errorf("%s: took %s, want under %s", target, el, timeout+time.Second)
		}
		next, err := a.Call(context.Background(), Call{ID: "N", Target: "src/lib/ranges.later", Args: []any{1}})
		if err != nil || next.Outcome != OutcomeReturned || string(next.Raw) != "2" {
			t.Errorf("after %s: %+v, %v; want a fresh worker to answer", target, next, err)
		}
	}
	// In a batch, as the runner sends rows, the timeout is that row's
	// alone.
	calls := []Call{
		{ID: "B1", Target: "src/lib/ranges.zero"},
		{ID: "B2", Target: "src/lib/ranges.loop"},
		{ID: "B3", Target: "src/lib/ranges.later", Args: []any{41}},
	}
	got := make([]Reply, len(calls))
	a.CallBatch(context.Background(), calls, func(i int, r Reply, err error) {
		if err != nil {
			t.Errorf("%s: %v", calls[i].ID, err)
		}
		got[i] = r
	})
	if got[0].Outcome != OutcomeReturned || got[1].Outcome != OutcomeTimeout || got[2].Outcome != OutcomeReturned || string(got[2].Raw) != "42" {
		t.Errorf("batch: %s, %s, %s %s; want returned, timeout, returned 42", got[0].Outcome, got[1].Outcome, got[2].Outcome, got[2].Raw)
	}
}

// TestNodeAdapterThroughRegistry: a table in language typescript runs
// through the registry's adapter, like any other language's, and a gate
// run judges its rows.
func TestNodeAdapterThroughRegistry(t *testing.T) {
	needNode(t)
	dir := writeTree(t, tsRepo)
	for _, lang := range []string{validate.LangJavaScript, validate.LangTypeScript} {
		found := false
		for _, l := range AdapterLanguages() {
			found = found || l == lang
		}
		if !found {
			t.Errorf("no adapter registered for %s: %v", lang, AdapterLanguages())
		}
	}
	tab, err := validate.ParseTable("partitions.yaml", []byte(`version: 1
language: typescript
rows:
  - id: P001
    target: src/math.double
    cls: small
    kind: representative
    args: [3]
    relation: doubles one more than n
    contract: result == 8
    assumption_ids: [A001]
  - id: P002
    target: pkg/a.a
    cls: wrong
    kind: representative
    args: ["x"]
    relation: upper-cases and shouts
    contract: result == "x!"
    assumption_ids: [A001]
`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Repo: dir, Reruns: 1}, tab)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Status != StatusPass || rep.Rows[1].Status != StatusFail {
		t.Errorf("rows: %+v; want P001 pass, P002 fail", rep.Rows)
	}
}

// TestNodeAdapterMemoryLimit: a subject that allocates without bound hits
// the worker's address-space limit (buffers fail with a RangeError, V8's
// heap dies with the worker) before the call's timeout, and the next call
// gets an answer; WebAssembly still works under the limit.
func TestNodeAdapterMemoryLimit(t *testing.T) {
	needNode(t)
	dir := writeTree(t, map[string]string{"m.mjs": `
export function hogBuffers() { const keep = []; for (;;) keep.push(Buffer.alloc(32 << 20, 1)); }
export function hogHeap() { const keep = []; for (;;) keep.push(new Array(1 << 20).fill(0.5)); }
export function wasm() { return new WebAssembly.Memory({ initial: 1 }).buffer.byteLength; }
export const ok = () => "ok";
`})
	const timeout = 30 * time.Second
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, MemoryLimit: 1 << 30, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got, err := a.Call(context.Background(), Call{ID: "W", Target: "m.wasm"}); err != nil || string(got.Raw) != "65536" {
		t.Errorf("WebAssembly under the limit: %s %s %+v (%s) %v", got.Outcome, got.Raw, got.Exc, got.Detail, err)
	}
	for _, target := range []string{"m.hogBuffers", "m.hogHeap"} {
		got, err := a.Call(context.Background(), Call{ID: "H", Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if got.Outcome != OutcomeRaised && got.Outcome != OutcomeCrashed {
			t.Errorf("%s: %s (%s), want a raise or a crash at the limit", target, got.Outcome, got.Detail)
		}
		if next, err := a.Call(context.Background(), Call{ID: "N", Target: "m.ok"}); err != nil || string(next.Raw) != `"ok"` {
			t.Errorf("after %s: %+v, %v", target, next, err)
		}
	}
}

// TestNodeAdapterMissingNode: without node the adapter does not start, and
// says in one line what is missing and what JavaScript needs.
func TestNodeAdapterMissingNode(t *testing.T) {
	_, err := NewNodeAdapter(NodeConfig{Node: filepath.Join(t.TempDir(), "node"), Dir: t.TempDir()})
	var ie *InfraError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "Node 18 or later") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v; want one line saying Node 18 or later is needed", err)
	}
}

// TestNodeAdapterModuleOrderAndBuiltReceivers: a module on an import cycle
// runs after its package's entry, as callers load it (ical.js' time.js
// imported alone reads design.js' binding before design.js ran); a class
// written as a function with prototype methods is built with new; a
// method of a class the module hides is called on what its exported
// factory built.
func TestNodeAdapterModuleOrderAndBuiltReceivers(t *testing.T) {
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json":      `{"type": "module"}`,
		"lib/module.js":     "import design from './design.js';\nimport Time from './time.js';\nexport default { design, Time };\n",
		"lib/design.js":     "import Time from './time.js';\nconst design = { epoch: Time.epoch() };\nexport default design;\n",
		"lib/time.js":       "import design from './design.js';\nexport default class Time {\n  static epoch() { return 1970; }\n  static fromYear(y) { return y - design.epoch; }\n}\n",
		"lib/helpers.js":    "import ICAL from './module.js';\nexport function version() { return ICAL ? 1 : 0; }\n",
		"test/time.test.js": "import ICAL from '../lib/module.js';\n",
		"old/package.json":  `{"type": "commonjs"}`,
		"old/big.js":        "function Big(n) {\n  this.n = n;\n}\nBig.prototype.neg = function () { return new Big(-this.n); };\nmodule.exports = Big;\n",
		"old/num.js": "var num = (function () {\n  function Num(v) { this.v = v; }\n  Num.prototype.twice = function () { return this.v * 2; };\n" +
			"  return function (v) { return new Num(v); };\n})();\nmodule.exports = num;\n",
		"old/schema.js": "class Schema {\n  constructor(checks) { this.checks = checks; }\n  min(n) { return new Schema(this.checks.concat([n])); }\n" +
			"  parse(x) { if (this.checks.some((n) => x.length < n)) throw new RangeError('short'); return x; }\n}\nexports.Schema = Schema;\nexports.string = () => new Schema([]);\n",
	})
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	runNodeCases(t, a, []nodeCase{
		{name: "a module on a cycle, after its entry", target: "lib/time.default.fromYear", args: []any{2000}, want: `30`, reason: "imported alone, time.js runs design.js first, which reads Time before it is initialised"},
		{name: "a function with prototype methods is a class", target: "old/big.default.neg", args: []any{map[string]any{"$new": "old/big.default", "$args": []any{3}}}, want: `{"$class":"Big","$fields":{"n":-3}}`, reason: "called without new, Big(3) sets no field of its own and returns nothing"},
		{name: "a hidden class's method on what the factory built", target: "old/num.Num.twice", args: []any{map[string]any{"$new": "old/num.default", "$args": []any{21}}}, want: `42`},
		{name: "a builder's chain", target: "old/schema.Schema.parse", args: []any{map[string]any{"$new": "old/schema.string", "$args": []any{}, "$chain": []any{map[string]any{"$call": "min", "$args": []any{3}}}}, "ab"}, class: "RangeError", reason: "$chain calls min on what string() built and takes what min returned: a Schema that refuses a short text"},
		{name: "a chain's step on the object itself", target: "old/schema.Schema.parse", args: []any{map[string]any{"$new": "old/schema.string", "$args": []any{}, "$then": []any{map[string]any{"$call": "min", "$args": []any{3}}}}, "ab"}, want: `"ab"`, reason: "$then keeps the object built first: min's new Schema is dropped"},
		{name: "a receiver without the method", target: "old/num.Num.thrice", args: []any{map[string]any{"$new": "old/num.default", "$args": []any{21}}}, class: "premise.DecodeError", reason: "the hidden class's method is the receiver's; a receiver without one is premise's error, never a pass"},
	})
}

// TestNodeAdapterTsconfigPaths: a TypeScript project importing its own
// files by the names its tsconfig.json maps (baseUrl, and paths with a
// star, an exact name and a directory's index) loads, ES module and
// CommonJS alike; a mapped name that names no file is left as written.
func TestNodeAdapterTsconfigPaths(t *testing.T) {
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json":  `{"type": "module"}`,
		"tsconfig.json": "{\n  // as sql-formatter's\n  \"compilerOptions\": {\"baseUrl\": \"./\", \"paths\": {\"src/*\": [\"./src/*\"], \"@util\": [\"lib/util/index.ts\"], \"@out/*\": [\"../outside/*\"]},},\n}\n",
		"src/core/format.ts": `import { upper } from 'src/core/words';
import { twice } from '@util';
import { tag } from 'lib/tags';
export function format(s: string): string { return tag(twice(upper(s))); }
export async function outside(): Promise<string> { try { await import('@out/secret'); return "loaded"; } catch (e) { return (e as Error).constructor.name; } }
`,
		"src/core/words.ts": `export const upper = (s: string): string => s.toUpperCase();`,
		"lib/util/index.ts": `export const twice = (s: string): string => s + s;`,
		"lib/tags.ts":       `export const tag = (s: string): string => "<" + s + ">";`,
		"cjs/package.json":  `{"type": "commonjs"}`,
		"cjs/tsconfig.json": `{"compilerOptions": {"baseUrl": "."}}`,
		"cjs/app/main.ts":   `import { greet } from "app/greet";` + "\nexport function hello(n: string): string { return greet(n); }\n",
		"cjs/app/greet.ts":  `export function greet(n: string): string { return "hi " + n; }`,
	})
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	runNodeCases(t, a, []nodeCase{
		{name: "paths and baseUrl", target: "src/core/format.format", args: []any{"ab"}, want: `"<ABAB>"`, reason: "src/*, an exact name mapped to an index file, and a name found below baseUrl"},
		{name: "a mapped name without a file", target: "src/core/format.outside", want: `"Error"`, reason: "left as a package name, which Node does not find"},
		{name: "CommonJS under baseUrl", target: "cjs/app/main.hello", args: []any{"x"}, want: `"hi x"`},
	})
}
