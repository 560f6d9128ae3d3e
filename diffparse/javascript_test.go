package diffparse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// declLines renders declarations as "Local kind start-end".
func declLines(ds []Decl) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %d-%d", d.Local, d.Kind, d.Start, d.End))
	}
	return out
}

// TestJSDecls holds the declarations the JavaScript and TypeScript front
// ends find in the shapes real code takes (issue 27, part 1).
func TestJSDecls(t *testing.T) {
	tests := []struct {
		name, lang, src string
		want            []string
		reason          string
	}{
		{name: "class with methods, decorators and generics", lang: LangTypeScript, src: `import { Injectable } from "./di";

@Injectable()
export class Interval<T extends number> extends Base {
  private readonly start: T;
  handle = (e: Event): void => {
    this.fire(e);
  };
  constructor(start: T, private end: T) {
    super();
  }
  @memoize
  @trace("merge")
  merge<U>(other: Interval<U>): Interval<T> {
    return this;
  }
  static of(a: number): Interval<number> { return new Interval(a, a); }
  get size(): number { return 1; }
  #reset(): void {}
  [Symbol.iterator]() { return [][Symbol.iterator](); }
}
`, want: []string{
			"Interval class 3-21", "Interval.handle method 6-8", "Interval.constructor method 9-11",
			"Interval.merge method 12-16", "Interval.of method 17-17", "Interval.size method 18-18", "Interval.#reset method 19-19",
		}, reason: "decorators start the span; a field holding an arrow function is a method; a computed name stays with its class"},
		{name: "overloads", lang: LangTypeScript, src: `export function parse(s: string): number;
export function parse(s: string[]): number[];
export function parse(s: string | string[]): number | number[] {
  return Array.isArray(s) ? s.map(Number) : Number(s);
}

class Box {
  put(x: string): void;
  put(x: number): void;
  put(x: any): void {
    this.x = x;
  }
}
declare function ambient(x: number): void;
abstract class Shape {
  abstract area(): number;
}
`, want: []string{"Box class 7-13", "Box.put method 8-12", "Shape class 15-17", "Shape.area method 16-16", "parse function 1-5"},
			reason: "an overloaded function is one declaration from its first signature; a declare'd one holds no code"},
		{name: "arrow functions and function expressions bound to names", lang: LangTypeScript, src: `export const double = (x: number): number => x * 2;
const identity = <T,>(x: T): T => x;
let tri = function (x) {
  return x * 3;
}, quad = async (x) => x * 4;
var legacy = function legacyName() {};
export const typed = ((x: string) => x.length) as (x: string) => number;
const notAFunction = 3;
const computed = total(3, 4);
const wrapped = memo(() => 1);
`, want: []string{"double function 1-1", "identity function 2-2", "tri function 3-5", "quad function 5-5", "legacy function 6-6", "typed function 7-7", "wrapped function 10-10"},
			reason: "a call's result is no function declaration unless the call wraps a function written in place; assertions and parentheses are looked through"},
		{name: "object literals, namespaces, types", lang: LangTypeScript, src: `export const api = {
  merge(a: number[], b: number[]) { return a.concat(b); },
  split: (s: string) => s.split(","),
  nested: { deep() { return 1; } },
  "quoted"() {},
  timeout: 30,
};
namespace Geo {
  export function area(r: number): number { return r * r; }
}
interface Shape { area(): number }
type Pair = [number, number];
enum Color { Red, Green }
`, want: []string{"api.merge method 2-2", "api.split method 3-3", "api.nested.deep method 4-4", "api.quoted method 5-5",
			"Geo.area function 9-9", "Shape type 11-11", "Pair type 12-12", "Color type 13-13"}},
		{name: "export default forms", lang: LangJavaScript, src: `export default function () {
  return 1;
}
`, want: []string{"default function 1-3"}},
		{name: "export default arrow", lang: LangJavaScript, src: "export default (a, b) => a + b;\n", want: []string{"default function 1-1"}},
		{name: "module.exports is the function", lang: LangJavaScript, src: "module.exports = (input, options) => {\n  return input;\n};\n", want: []string{"default function 1-3"}},
		{name: "module.exports is a named function", lang: LangJavaScript, src: "module.exports = function bytes(value) {\n  return value;\n};\n", want: []string{"bytes function 1-3"}},
		{name: "export default named", lang: LangJavaScript, src: "export default async function load(url) {\n  return fetch(url);\n}\n", want: []string{"load function 1-3"}},
		{name: "CommonJS and prototypes", lang: LangJavaScript, src: `'use strict';
exports.add = function (a, b) { return a + b; };
module.exports.sub = (a, b) => a - b;
module.exports = {
  mul(a, b) { return a * b; },
  div: function (a, b) { return a / b; },
};
function Stack() { this.items = []; }
Stack.prototype.push = function (x) {
  this.items.push(x);
};
`, want: []string{"add function 2-2", "sub function 3-3", "mul function 5-5", "div function 6-6", "Stack function 8-8", "Stack.push method 9-11"}},
		{name: "JSX components", lang: LangJavaScript, src: `import React from "react";

export function Button({ label, onClick }) {
  return <button onClick={onClick}>{label}</button>;
}

export const List = ({ items }) => (
  <ul>
    {items.map((i) => <li key={i}>{i}</li>)}
  </ul>
);

class Panel extends React.Component {
  render() {
    return <div className="panel">{this.props.children}</div>;
  }
}
`, want: []string{"Button function 3-5", "List function 7-11", "Panel class 13-17", "Panel.render method 14-16"},
			reason: "a function nested in a component (the map callback) belongs to it"},
		{name: "TSX component", lang: LangTypeScript, src: `type Props = { label: string };

export function Badge<T>({ label }: Props): JSX.Element {
  const n = (x: T) => x;
  return <span>{label}</span>;
}
`, want: []string{"Props type 1-1", "Badge function 3-6", "Badge.n function 4-4"}, reason: "the TypeScript grammar refuses JSX; TSX reads it"},
		{name: "functions a function declares", lang: LangJavaScript, src: `function factory(options) {
  function getShallowProperty(obj, prop) {
    return obj[prop];
  }
  const isSet = (o) => o != null, other = 2;
  var objectPath = {};
  objectPath.get = function (obj, path) { return getShallowProperty(obj, path); };
  return objectPath;
}
`, want: []string{"factory function 1-9", "factory.getShallowProperty function 2-4", "factory.isSet function 5-5"},
			reason: "object-path's factory declares its steps; a change inside one is its own (one level down only)"},
		{name: "type assertion in TypeScript", lang: LangTypeScript, src: "export function f(x: unknown): number {\n  return (<number>x) + 1;\n}\n",
			want: []string{"f function 1-3"}, reason: "<T>x is TypeScript's assertion, not JSX"},
		{name: "class expression and generator", lang: LangJavaScript, src: "const Named = class {\n  m() {}\n};\nfunction* ids() { yield 1; }\n",
			want: []string{"Named class 1-3", "Named.m method 2-2", "ids function 4-4"}},
		{name: "UMD wrapper", lang: LangJavaScript, src: `(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define([], factory);
  } else if (typeof exports === 'object') {
    module.exports = factory();
  }
}(this, function () {
  function split(v) {
    return v.split('.');
  }
  return function compare(a, b) {
    return split(a) < split(b);
  };
}));
`, want: []string{"split function 8-10", "compare function 11-13"}, reason: "a UMD factory's functions are the module's; the one it returns is its export"},
		{name: "an arrow UMD wrapper ending in a comment", lang: LangJavaScript, src: ";((root, UMD) => {\n  module.exports = UMD()\n})(this, _ => {\n  var single = (a) => {\n    return a\n  }\n  return {single}\n}) // UMD\n\n// TODO: more\nexports.f = function () {} // f\n",
			want: []string{"single function 4-6", "f function 11-11"}, reason: "a statement without a semicolon holds the comments after it (fuzzysort's \"}) // UMD\"): its expression is still its only one"},
		{name: "methods assigned through a name for the prototype", lang: LangJavaScript, src: "function Long(low, high) {\n  this.low = low;\n}\nvar LongPrototype = Long.prototype;\nLongPrototype.multiply = function multiply(m) {\n  return this.low * m;\n};\nLongPrototype.mul = LongPrototype.multiply;\nexport default Long;\n",
			want: []string{"Long function 1-3", "Long.multiply method 5-7"}, reason: "a function assigned to a prototype alias's property (var LongPrototype = Long.prototype) is the class's method, as Long.prototype.multiply = function is"},
		{name: "methods of an object assigned to the prototype", lang: LangJavaScript, src: "function Fraction(n) {\n  this.n = n;\n}\nFraction.prototype = {\n  'add': function (m) {\n    return new Fraction(this.n + m);\n  },\n  neg() {\n    return new Fraction(-this.n);\n  }\n};\nmodule['exports'] = Fraction;\n",
			want: []string{"Fraction function 1-3", "Fraction.add method 5-7", "Fraction.neg method 8-10"}, reason: "Fraction.prototype = {add: function} gives Fraction the method add, as Fraction.prototype.add = function does (Fraction.js)"},
		{name: "members named by a string", lang: LangJavaScript, src: "function Complex(r, i) {\n  this.r = r;\n}\nComplex.prototype['equals'] = function (a) {\n  return this.r === a;\n};\nComplex['from'] = function (r) {\n  return new Complex(r, 0);\n};\nComplex.prototype[key] = function () {};\nexports['make'] = function (r) {\n  return new Complex(r, 0);\n};\nmodule['exports'] = Complex;\n",
			want: []string{"Complex function 1-3", "Complex.equals method 4-6", "Complex.from function 7-9", "make function 11-13"}, reason: "Complex.prototype['equals'] = function is the method equals, as Complex.prototype.equals = function is (Complex.js writes its methods so for Closure); a computed key names nothing"},
		{name: "immediately called function", lang: LangJavaScript, src: "!function () {\n  function pad(s) {\n    return ' ' + s;\n  }\n  exports.pad = pad;\n}();\n;(() => {\n  const trim = (s) => s.trim();\n})();\nfoo(function () {\n  function notTop() {}\n});\n",
			want: []string{"pad function 2-4", "trim function 8-8", "notTop function 11-11"}, reason: "an IIFE's body is the module's scope"},
		{name: "a const built by an immediately called function", lang: LangTypeScript, src: "export function serialize(v: any): string {\n  return new Serializer().serialize(v);\n}\nconst Serializer = /*@__PURE__*/ (function () {\n  class Serializer {\n    serialize(v: any) { return String(v); }\n  }\n  return Serializer;\n})();\nconst later = compute(function () { function hidden() {} });\n",
			want: []string{"serialize function 1-3", "Serializer class 5-7", "Serializer.serialize method 6-6", "later function 10-10"}, reason: "the wrapper's declarations are the module's, as a top-level wrapper's; a function handed to another call is the name the call binds, and what it declares inside is not the module's"},
		{name: "a function hung on a module-level name", lang: LangJavaScript, src: "const picomatch = (glob) => glob;\npicomatch.matchBase = (input, glob) => {\n  return input === glob;\n};\npicomatch.test = function (input) {\n  return input;\n};\npicomatch.VERSION = '1';\na.b.c = () => 1;\nmodule.exports = picomatch;\n",
			want: []string{"picomatch function 1-1", "picomatch.matchBase function 2-4", "picomatch.test function 5-7"}, reason: "x.f = function: a function reached as the module's x.f"},
		{name: "a module wrapped in a function run by .call, its functions hung in object literals", lang: LangJavaScript, src: `(function (exports, module) {
  var validate = function (attributes, constraints) {
    return v.runValidations(attributes, constraints);
  };
  var v = validate;
  v.extend(validate, {
    runValidations: function (attributes, constraints) {
      return [];
    },
    isPromise(p) { return !!p && typeof p.then === 'function'; }
  });
  validate.validators = {
    url: function (value, options) {
      return /^https?:/.test(value);
    },
    nested: { deep: () => 1 },
    email: v.extend(function (value) {
      return this.PATTERN.test(value);
    }, {
      PATTERN: /^[a-z]+@[a-z]+$/
    }),
    notAFunction: v.extend({}, { a: 1 })
  };
  validate.VERSION = { major: 0 };
  Object.assign(validate, { later: function () {} }, { last: () => 2 });
  notAMixin(validate, { hidden: function () {} });
  exports = module.exports = validate;
}).call(this, typeof exports !== 'undefined' ? exports : null, typeof module !== 'undefined' ? module : null);
`, want: []string{"validate function 2-4", "validate.runValidations function 7-9", "validate.isPromise function 10-10", "validate.validators.url function 13-15", "validate.validators.nested.deep method 16-16", "validate.validators.email function 17-21", "validate.later function 25-25", "validate.last function 25-25"},
			reason: "(function () {...}).call(this, ...) is a wrapper as (function () {...})() is; v.extend(x, {...}), Object.assign(x, {...}) and x.p = {...} hang the literal's functions on x; email: v.extend(function, {data}) is the function, its data inside its span"},
		{name: "a function a call wraps", lang: LangJavaScript, src: `import _curry2 from './internal/_curry2.js';

var is = _curry2(function is(Ctor, val) {
  return val instanceof Ctor;
});
var all = _curry2(_dispatchable(['all'], _xall, function all(fn, list) {
  return true;
}));
export const square = memoize((x) => x * x);
const names = list.map((n) => n.name);
const done = load().then(() => 1);
const pair = compose(f, (x) => x, (y) => y);
export default is;
`, want: []string{"is function 3-5", "all function 6-8", "square function 9-9"},
			reason: "a call whose last argument is the one function written among its arguments (through nested calls) wraps it: the name is that function; a value's map or then gives none, nor two functions"},
		{name: "the object a module's function returns", lang: LangJavaScript, src: `function globals() {
  return {
    range(start, stop) { return [start, stop]; },
    cycler: function (items) { return items; },
    limit: 3,
  };
}
const store = () => ({ get: (k) => k });
function plain() { const o = { inner() {} }; return 1; }
`, want: []string{"globals function 1-7", "globals.range method 3-3", "globals.cycler method 4-4", "store function 8-8", "store.get method 8-8", "plain function 9-9"},
			reason: "nunjucks' globals() returns its functions in an object literal: each is a method of what the function builds; an object the function only uses is not returned"},
		{name: "variance annotations", lang: LangTypeScript, src: `export interface Check<in T = never> {
  run(x: T): void;
}
export interface Schema<
  /** @ts-ignore variance */
  out O, in out I extends string> { o: O; i: I }
export const min = <const T>(xs: T[]): T => xs[0];
export function keep(s: Schema<number, "a">, label: string): string {
  const index = "x in y, out z>";
  return label;
}
`, want: []string{"Check type 1-3", "Schema type 4-6", "min function 7-7", "keep function 8-11"},
			reason: "TypeScript 4.7's in and out on a type parameter, which the grammar lacks, do not hide the file's functions"},
		{name: "Flow annotations in a .js file", lang: LangJavaScript, src: "// @flow\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n",
			want: []string{"add function 2-4"}, reason: "the JavaScript grammar refuses annotations; TSX reads them"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decls(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sortedCopy(tc.want), sortedCopy(declLines(got))); diff != "" {
				t.Errorf("declarations (-want +got) (%s):\n%s", tc.reason, diff)
			}
		})
	}
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestJSSyntaxError: a file neither grammar reads is an error naming the
// line, never a panic and never a partial list.
func TestJSSyntaxError(t *testing.T) {
	for _, lang := range []string{LangJavaScript, LangTypeScript} {
		_, err := Decls(lang, []byte("function ok() {}\n\nfunction broken( {\n"))
		if err == nil || !strings.Contains(err.Error(), "syntax error at line") {
			t.Errorf("%s: err = %v, want a syntax error with its line", lang, err)
		}
	}
}

// TestJSGrammarLoop: an input on which a grammar loops (TSX did, on
// these bytes) is given up as a syntax error, never a hang.
func TestJSGrammarLoop(t *testing.T) {
	src := []byte("describe.each`a|b${00${''}${[2}${{k:d}}(({a,b}=>(f(a,b)))")
	for _, lang := range []string{LangJavaScript, LangTypeScript} {
		if _, err := Decls(lang, src); err == nil || !strings.Contains(err.Error(), "syntax error") {
			t.Errorf("%s: err = %v, want a syntax error", lang, err)
		}
	}
	tree, err := jsParseWith(grammarTSX, src)
	if err == nil {
		tree.Close()
		t.Fatal("TSX read the looping input: the budget is not what stops it")
	}
}

// TestJSParams reads parameters as the Python front end records them:
// annotations and defaults as text.
func TestJSParams(t *testing.T) {
	src := `export function mergeRanges(ranges: Array<[number, number]>, opts?: Options, gap = 0, ...rest: number[]): number[][] {
  return [];
}
export class Interval {
  merge(this: Interval, other: Interval, { strict = false }: { strict?: boolean } = {}) { return this; }
}
export const pick = <T,>(xs: readonly T[], n: number = 1) => xs.slice(0, n);
const one = x => x;
`
	tests := []struct {
		name string
		want []Param
	}{
		{"src/lib/ranges.mergeRanges", []Param{
			{Name: "ranges", Type: "Array<[number, number]>"},
			{Name: "opts", Type: "Options", Optional: true},
			{Name: "gap", Default: "0"},
			{Name: "rest", Type: "number[]", Varargs: true},
		}},
		{"src/lib/ranges.Interval.merge", []Param{
			{Name: "other", Type: "Interval"},
			{Name: "{ strict = false }", Type: "{ strict?: boolean }", Default: "{}"},
		}},
		{"pick", []Param{{Name: "xs", Type: "readonly T[]"}, {Name: "n", Type: "number", Default: "1"}}},
		{"one", []Param{{Name: "x"}}},
	}
	for _, tc := range tests {
		got, err := JSParams(LangTypeScript, []byte(src), tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	js, err := JSFuncParams(LangJavaScript, []byte("function f(a, b = [1, 2], ...more) {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Param{{Name: "a"}, {Name: "b", Default: "[1, 2]"}, {Name: "more", Varargs: true}}
	if diff := cmp.Diff(want, js["f"]); diff != "" {
		t.Errorf("javascript f (-want +got):\n%s", diff)
	}
	if _, err := JSParams(LangTypeScript, []byte(src), "nope"); err == nil {
		t.Error("a missing function is an error")
	}
}

// TestJSLoad maps a JavaScript and TypeScript patch through git: the
// symbols are named by the file's path without its extension, and the
// front ends' exclusions are the merge-base's word (issue 26, item 1).
func TestJSLoad(t *testing.T) {
	long := "var a=function(){return 1};" + strings.Repeat("var b=1;", 80) + "\n"
	r := newTestRepo(t)
	r.write(map[string]string{
		"src/lib/ranges.ts":       "export function mergeRanges(rs: number[][]): number[][] {\n  return rs;\n}\n\nexport class Interval {\n  merge(o: Interval) {\n    return this;\n  }\n}\n",
		"src/util.mjs":            "export const clamp = (n) => {\n  return n;\n};\n",
		"src/types.d.ts":          "export declare function f(x: number): number;\n",
		"dist/app.min.js":         "function f(){return 1}\n",
		"dist/bundle.js":          long,
		"gen/api.js":              "/* @generated by the api tool */\nexport function call() {\n  return 1;\n}\n",
		"src/own.js":              "export function own() {\n  return 1;\n}\n",
		"node_modules/x/index.js": "module.exports = function () {};\n",
	})
	r.commit("base")
	r.git("checkout", "-q", "-b", "agent")
	r.write(map[string]string{
		"src/lib/ranges.ts":       "export function mergeRanges(rs: number[][]): number[][] {\n  return rs.slice();\n}\n\nexport class Interval {\n  merge(o: Interval) {\n    return o;\n  }\n}\n",
		"src/util.mjs":            "export const clamp = (n) => {\n  return Math.max(0, n);\n};\n",
		"src/types.d.ts":          "export declare function f(x: number): string;\n",
		"dist/app.min.js":         "function f(){return 2}\n",
		"dist/bundle.js":          strings.Replace(long, "return 1", "return 2", 1),
		"gen/api.js":              "/* @generated by the api tool */\nexport function call() {\n  return 2;\n}\n",
		"src/own.js":              "/* @generated */\nexport function own() {\n  return 2;\n}\n",
		"src/new.min.js":          "export function hidden() { return 1 }\n",
		"node_modules/x/index.js": "module.exports = function () { return 1; };\n",
	})
	r.commit("patch")
	res := r.load("main", "agent")
	got := map[string]string{}
	for _, f := range res.Files {
		var syms []string
		for _, s := range f.Symbols {
			syms = append(syms, s.Change+" "+s.Name+" "+s.Kind)
		}
		got[f.Path] = f.Language + " | " + f.Excluded + " | " + strings.Join(syms, ", ")
	}
	want := map[string]string{
		"src/lib/ranges.ts":       "typescript |  | modified src/lib/ranges.mergeRanges function, modified src/lib/ranges.Interval.merge method",
		"src/util.mjs":            "javascript |  | modified src/util.clamp function",
		"src/types.d.ts":          "typescript | type declarations | ",
		"dist/app.min.js":         "javascript | minified: app.min.js | ",
		"dist/bundle.js":          "javascript | minified: long lines | ",
		"gen/api.js":              "javascript | generated | ",
		"src/own.js":              "javascript |  | modified src/own.own function",
		"src/new.min.js":          "javascript |  | added src/new.min.hidden function",
		"node_modules/x/index.js": "javascript | vendored: node_modules/ | ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// FuzzJSDecls feeds arbitrary source to the JavaScript and TypeScript front
// ends and an arbitrary diff's hunks onto what they find: never a panic,
// never a span outside the file, never a symbol whose span does not hold
// its changed lines; parameters are read for every function found.
// testdata/fuzz/FuzzJSDecls holds the seeds.
func FuzzJSDecls(f *testing.F) {
	f.Fuzz(func(t *testing.T, diffText, src string, ts bool) {
		lang := LangJavaScript
		if ts {
			lang = LangTypeScript
		}
		decls, err := Decls(lang, []byte(src))
		if err != nil {
			if !strings.Contains(err.Error(), "syntax error") {
				t.Fatalf("error %q does not say it is a syntax error", err)
			}
			return
		}
		lines := strings.Count(src, "\n") + 1
		for _, d := range decls {
			if d.Start < 1 || d.End < d.Start || d.End > lines || d.Local == "" {
				t.Fatalf("bad declaration %+v in %d lines", d, lines)
			}
		}
		params, err := JSFuncParams(lang, []byte(src))
		if err != nil {
			t.Fatalf("JSFuncParams: %v after Decls read the file", err)
		}
		for name, ps := range params {
			for _, p := range ps {
				if p.Name == "" {
					t.Fatalf("%s: a parameter without a name: %+v", name, ps)
				}
			}
		}
		files, err := Parse([]byte(diffText), "fuzz.diff")
		if err != nil || len(files) == 0 {
			return
		}
		for _, s := range changedSymbols(files[0].Hunks, decls, decls, qualifyWith("src/m"), qualifyWith("src/m")) {
			for _, l := range s.ChangedLines {
				if l < s.Start || l > s.End {
					t.Fatalf("%s: changed line %d outside %d-%d", s.Name, l, s.Start, s.End)
				}
			}
		}
	})
}
