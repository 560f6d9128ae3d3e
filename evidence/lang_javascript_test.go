package evidence_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestJavaScriptChangeIsShown: a JavaScript function whose patch narrows
// it (a negative count now gives nothing) shows the change on its
// comparison's edge; a test's literal call is an input too.
func TestJavaScriptChangeIsShown(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"package.json": `{"type": "module"}`,
		"src/take.js":  "export function take(xs, n) {\n  return xs.slice(0, n);\n}\n",
		"test/take.test.js": "import { take } from '../src/take.js';\n" +
			"test('takes', () => { expect(take([1, 2, 3], 2)).toEqual([1, 2]); });\n",
	}
	head := map[string]string{"src/take.js": "export function take(xs, n) {\n  if (n < 0) {\n    return [];\n  }\n  return xs.slice(0, n);\n}\n"}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "src/take.take" && strings.Contains(c.Input, "-1") {
			s := symbolRows(t, rep, "src/take.take")
			if s.Coverage == nil || s.Coverage.Head == nil || s.Coverage.Head.Reached != s.Coverage.Head.Changed {
				t.Errorf("take: coverage %+v, want its changed lines reached", s.Coverage)
			}
			return
		}
	}
	t.Errorf("take: no change at n = -1: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestTypeScriptMethodChangeIsShown: a TypeScript method runs on the
// receiver its test constructs, transpiled by the worker, and an
// off-by-one at the comparison's edge is a change.
func TestTypeScriptMethodChangeIsShown(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"src/range.ts": "export class Range {\n  constructor(public lo: number, public hi: number) {}\n" +
			"  contains(x: number): boolean {\n    return x >= this.lo && x <= this.hi;\n  }\n}\n",
		"src/range.test.ts": "import { Range } from './range';\n" +
			"it('contains', () => { expect(new Range(1, 5).contains(3)).toBe(true); });\n",
	}
	head := map[string]string{
		"src/range.ts": "export class Range {\n  constructor(public lo: number, public hi: number) {}\n" +
			"  contains(x: number): boolean {\n    return x >= this.lo && x < this.hi;\n  }\n}\n",
	}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "src/range.Range.contains" {
			return
		}
	}
	t.Errorf("Range.contains: no change: changes %+v, symbols %+v, skipped %v", append(rep.Changes, rep.Unexplained...), rep.Symbols, rep.Skipped)
}

// A JavaScript method is called on objects its class's own methods built
// (pushed twice and shifted once), and a change seen only there is found.
func TestJavaScriptReceiverBuiltByItsMethods(t *testing.T) {
	t.Parallel()
	ring := func(back string) string {
		return "export class Ring {\n  constructor() { this.items = []; this.head = 0; }\n" +
			"  push(x) { this.items.push(x); }\n" +
			"  shift() { return this.items[this.head++]; }\n" +
			"  back() {\n    if (this.head === this.items.length) return undefined;\n    return " + back + ";\n  }\n}\n"
	}
	base := map[string]string{
		"package.json": `{"type": "module"}`,
		"src/ring.js":  ring("this.items[this.items.length - 1]"),
		"test/ring.test.js": "import { Ring } from '../src/ring.js';\n" +
			"test('empty', () => { expect(new Ring().back()).toBe(undefined); });\n",
	}
	head := map[string]string{"src/ring.js": ring("this.items[this.items.length - this.head - 1]")}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "src/ring.Ring.back" {
			return
		}
	}
	t.Errorf("Ring.back: no change after a shift: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// A parameter that takes anything (TypeScript's unknown, or none
// written) is handed null and undefined, and the empty array and object:
// a patch that drops a guard on them is a change there
// (sindresorhus/is's isDirectInstanceOf and isEmptyObject).
func TestJavaScriptEmptyValuesReachAnyParameter(t *testing.T) {
	t.Parallel()
	fn := func(guard string) string {
		return "export function isDirect(instance: unknown, cls: Function): boolean {\n" + guard +
			"  return Object.getPrototypeOf(instance) === cls.prototype;\n}\n" +
			"export function first(xs) {\n" + strings.ReplaceAll(guard, "instance", "xs") + "  return xs[0];\n}\n"
	}
	guard := "  if (instance === undefined || instance === null) {\n    return false;\n  }\n"
	empty := func(test string) string {
		return "export function isEmptyObject(value: unknown): boolean {\n  return " + test + " && Object.keys(value as object).length === 0;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/is.ts": fn(guard), "src/empty.ts": empty("typeof value === 'object' && value !== null && !Array.isArray(value)")}
	head := map[string]string{"src/is.ts": fn(""), "src/empty.ts": empty("typeof value === 'object' && value !== null")}
	rep := runCommits(t, base, head, nil)
	for _, sym := range []string{"src/is.isDirect", "src/is.first"} {
		var inputs []string
		for _, c := range changesOf(rep, sym) {
			inputs = append(inputs, c.Input)
		}
		if !strings.Contains(strings.Join(inputs, " "), "null") && !strings.Contains(strings.Join(inputs, " "), "undefined") {
			t.Errorf("%s: no change on null or undefined: %q; symbols %+v", sym, inputs, rep.Symbols)
		}
	}
	if _, ok := changeOn(t, rep, "src/empty.isEmptyObject", "an empty array is no longer told from an empty object"); !ok {
		return
	}
}

// A UMD module's function, returned by its factory, is called by its
// name, and its change is shown (omichelsen/compare-versions).
func TestJavaScriptUMDFactoryFunction(t *testing.T) {
	t.Parallel()
	umd := func(cmp string) string {
		return "(function (root, factory) {\n  if (typeof exports === 'object') {\n    module.exports = factory();\n  } else {\n    root.longer = factory();\n  }\n}(this, function () {\n" +
			"  return function longer(a, b) {\n    return a.length " + cmp + " b.length;\n  };\n}));\n"
	}
	base := map[string]string{"src/umd.js": umd(">="),
		"test/umd.test.js": "const longer = require('../src/umd.js');\ntest('longer', () => { expect(longer('ab', 'a')).toBe(true); });\n"}
	rep := runCommits(t, base, map[string]string{"src/umd.js": umd(">")}, nil)
	changeOn(t, rep, "src/umd.longer", "two strings of one length are no longer 'longer'")
}

// A UMD factory that returns an object hangs its functions on it under
// other names (PapaParse: var Papa = {}; Papa.unparse = JsonToCsv; ...
// return Papa). The function is called as the export's property, its
// tests' calls of that property are its inputs, and its change is shown.
func TestJavaScriptUMDFunctionHungUnderAnotherName(t *testing.T) {
	t.Parallel()
	umd := func(quote string) string {
		return "(function (root, factory) {\n  if (typeof module === 'object' && typeof exports !== 'undefined') {\n    module.exports = factory();\n  } else {\n    root.Papa = factory();\n  }\n}(this, function moduleFactory() {\n" +
			"  var Papa = {};\n  Papa.unparse = JsonToCsv;\n\n" +
			"  function JsonToCsv(rows) {\n    return rows.map(function (row) {\n      return row.map(function (cell) {\n        var s = String(cell);\n        return " + quote + " ? '\"' + s + '\"' : s;\n      }).join(',');\n    }).join('\\n');\n  }\n\n" +
			"  return Papa;\n}));\n"
	}
	base := map[string]string{"papaparse.js": umd("s.indexOf(',') > -1"),
		"tests/test-cases.js": "var Papa = require('../papaparse.js');\nit('quotes', function () { expect(Papa.unparse([['a,b', 'c']])).toBe('\"a,b\",c'); });\n"}
	rep := runCommits(t, base, map[string]string{"papaparse.js": umd("false")}, nil)
	var byRow bool
	for _, c := range changesOf(rep, "papaparse.JsonToCsv") {
		byRow = byRow || c.Heuristic != "base_test"
	}
	if !byRow {
		t.Errorf("a cell holding the delimiter is no longer quoted, yet no row showed it on papaparse.JsonToCsv (the base's failing test alone does not count): %+v; symbols %+v",
			append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A function its module exports only under other names (querystringify:
// exports.parse = querystring; an ES export {f as g}; long.js:
// Long.fromString = fromString beside export default Long) is called by
// that name, and its change is shown; before, it was "not exported".
func TestJavaScriptFunctionExportedUnderAnotherName(t *testing.T) {
	t.Parallel()
	parse := func(none string) string {
		return "function querystring(query) {\n  var out = {};\n  query.split('&').forEach(function (part) {\n    var kv = part.split('=');\n    if (kv[0]) out[kv[0]] = kv.length > 1 ? kv[1] : " + none + ";\n  });\n  return out;\n}\n"
	}
	cases := []struct{ name, file, exports, sym string }{
		{"CommonJS", "index.js", "exports.parse = querystring;\n", "index.querystring"},
		{"module.exports object", "index.js", "module.exports = { parse: querystring };\n", "index.querystring"},
		{"ES export list", "src/qs.mjs", "export { querystring as parse };\n", "src/qs.querystring"},
		{"a default export's property", "src/qs.mjs", "function Qs() {}\nQs.parse = querystring;\nexport default Qs;\n", "src/qs.querystring"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := map[string]string{tc.file: parse("''") + tc.exports}
			rep := runCommits(t, base, map[string]string{tc.file: parse("null") + tc.exports}, nil)
			if len(changesOf(rep, tc.sym)) == 0 {
				t.Errorf("a key without a value is null now, not '', yet no change on %s: %+v; symbols %+v", tc.sym, append(rep.Changes, rep.Unexplained...), rep.Symbols)
			}
		})
	}
}

// A function that takes anything and tests for a kind JSON has no word for
// (superstruct's print: typeof value === 'symbol') is handed a value of
// that kind; the patch that drops the test throws on it.
func TestJavaScriptKindsTheFunctionTestsFor(t *testing.T) {
	t.Parallel()
	print := func(guard string) string {
		return "export function print(value: any): string {\n" + guard + "  return typeof value === 'string' ? JSON.stringify(value) : `${value}`;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/utils.ts": print("  if (typeof value === 'symbol') {\n    return value.toString();\n  }\n")}
	rep := runCommits(t, base, map[string]string{"src/utils.ts": print("")}, nil)
	var symbol bool
	for _, c := range changesOf(rep, "src/utils.print") {
		symbol = symbol || strings.Contains(c.Input, "symbol")
	}
	if !symbol {
		t.Errorf("a symbol is printed no more, yet no change on src/utils.print with a symbol: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A function that calls a method of Object.prototype on a value (ramda's
// clone: value.hasOwnProperty(key)) is handed an object without that
// prototype (Object.create(null)), on which the call throws: the patch
// that stops calling it through Object.prototype shows a change there.
func TestJavaScriptAnObjectWithoutAPrototype(t *testing.T) {
	t.Parallel()
	keys := func(own string) string {
		return "export function ownKeys(value) {\n  const out = [];\n  for (const key in value) {\n    if (" + own + ") {\n      out.push(key);\n    }\n  }\n  return out;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/keys.js": keys("Object.prototype.hasOwnProperty.call(value, key)")}
	rep := runCommits(t, base, map[string]string{"src/keys.js": keys("value.hasOwnProperty(key)")}, nil)
	var protoless bool
	for _, c := range changesOf(rep, "src/keys.ownKeys") {
		protoless = protoless || strings.Contains(c.Input, "$nullproto")
	}
	if !protoless {
		t.Errorf("ownKeys throws on an object without a prototype now, yet no change shows one: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A function reading a value's prototype (microdiff's diff:
// Object.getPrototypeOf(v).constructor.name, on each member it recurses
// into) is handed an object without one, alone and held in a key: the
// patch that drops the guard throws there.
func TestJavaScriptAValueWithoutAPrototypeInsideAnother(t *testing.T) {
	t.Parallel()
	walk := func(read string) string {
		return "export function kinds(obj) {\n  const out = [];\n  for (const key in obj) {\n    const v = obj[key];\n    if (v && typeof v === 'object') {\n      out.push(" + read + ");\n    }\n  }\n  return out;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/kinds.js": walk("Object.getPrototypeOf(v)?.constructor?.name")}
	rep := runCommits(t, base, map[string]string{"src/kinds.js": walk("Object.getPrototypeOf(v).constructor.name")}, nil)
	var protoless bool
	for _, c := range changesOf(rep, "src/kinds.kinds") {
		protoless = protoless || strings.Contains(c.Input, "$nullproto")
	}
	if !protoless {
		t.Errorf("kinds throws on a member without a prototype now, yet no change shows one: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A value of a kind the text tests for is handed to every parameter that
// takes it at once, the defaulted ones left to their defaults: a function
// comparing two values (microdiff's diff(obj, newObj, options, _stack =
// [])) reads a member's prototype only where both sides hold an object.
func TestJavaScriptANativeValueInBothParameters(t *testing.T) {
	t.Parallel()
	diff := func(read string) string {
		return "export function diff(obj, newObj, seen = []) {\n  const out = [];\n  for (const key in obj) {\n    const a = obj[key], b = newObj[key];\n    if (a && b && typeof a === 'object' && typeof b === 'object' && !seen.includes(a)) {\n      out.push(" + read + ");\n    } else if (a !== b) {\n      out.push(key);\n    }\n  }\n  return out;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/diff.js": diff("Object.getPrototypeOf(a)?.constructor?.name")}
	rep := runCommits(t, base, map[string]string{"src/diff.js": diff("Object.getPrototypeOf(a).constructor.name")}, nil)
	var both bool
	for _, c := range changesOf(rep, "src/diff.diff") {
		both = both || strings.Count(c.Input, "$nullproto") >= 2
	}
	if !both {
		t.Errorf("diff throws on two members without a prototype now, yet no change shows them: %+v; outside %+v", append(rep.Changes, rep.Unexplained...), rep.OutsideType)
	}
}

// A function that compares a string's character codes with numbers
// (jsonrepair's isSpecialWhitespace(text, index): code ===
// codeZeroWidthSpace, module-level constants) is handed those
// characters, read at index 0: no string of the pools holds U+200B, and
// the patch that drops it from the test shows only there. The parameter's
// type is an interface a string satisfies (charCodeAt and length): a
// string is inside it.
func TestJavaScriptCharactersTheCodesAreComparedWith(t *testing.T) {
	t.Parallel()
	src := func(consts, test string) string {
		return "export interface Text {\n  charCodeAt: (index: number) => number\n  length: number\n}\n\nconst codeSpace = 0x20\n" + consts + "export function isSpace(text: Text, index: number): boolean {\n  const code = text.charCodeAt(index)\n  return code === codeSpace" + test + "\n}\n"
	}
	base := map[string]string{"src/chars.ts": src("const codeZeroWidthSpace = 0x200b // zero width\n", " || code === codeZeroWidthSpace")}
	rep := runCommits(t, base, map[string]string{"src/chars.ts": src("", "")}, nil)
	var zw bool
	for _, c := range changesOf(rep, "src/chars.isSpace") {
		zw = zw || strings.Contains(c.Input, "\u200b")
	}
	if !zw {
		t.Errorf("U+200B is no space now, yet no change shows it: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// A TypeScript parameter the base annotates with an interface of the
// project's, imported from another module (Fuse's computeScoreSingle(result:
// InternalResult), made pure as computeScoreSingle(matches: MatchScore[])),
// is an object: a difference seen only where a row passed it an array or
// a primitive is set apart as outside its type, not shown as a change.
func TestTypeScriptAnInterfaceParameterTakesNoArray(t *testing.T) {
	t.Parallel()
	types := "export interface Match { score: number }\nexport interface Result { matches: Match[]; score?: number }\n"
	base := map[string]string{
		"src/types.ts": types,
		"src/score.ts": "import type { Result } from './types'\n\nexport function scoreOf(result: Result): number {\n  let total = 1\n  result.matches.forEach((m) => { total *= m.score })\n  return total\n}\n",
	}
	head := map[string]string{
		"src/score.ts": "import type { Match } from './types'\n\nexport function scoreOf(matches: Match[]): number {\n  let total = 1\n  matches.forEach((m) => { total *= m.score })\n  return total\n}\n",
	}
	rep := runCommits(t, base, head, nil)
	for _, c := range changesOf(rep, "src/score.scoreOf") {
		if strings.HasPrefix(strings.TrimSpace(c.Input), "([") {
			t.Errorf("an array passed where the base takes a Result is shown as a change: %+v", c)
		}
	}
	var apart bool
	for _, c := range rep.OutsideType {
		apart = apart || c.Symbol == "src/score.scoreOf"
	}
	if !apart {
		t.Errorf("no difference set apart as outside the base's interface: outside %+v, changes %+v", rep.OutsideType, append(rep.Changes, rep.Unexplained...))
	}
}

// A function that URI-encodes a value (querystringify's encode, wrapping
// encodeURIComponent in a try) is handed a string with a lone surrogate,
// the one input encodeURIComponent refuses: the patch that calls it
// unguarded throws there.
func TestJavaScriptAStringWithALoneSurrogate(t *testing.T) {
	t.Parallel()
	enc := func(body string) string {
		return "export function encode(input) {\n" + body + "\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/enc.js": enc("  try {\n    return encodeURIComponent(input);\n  } catch (e) {\n    return null;\n  }")}
	rep := runCommits(t, base, map[string]string{"src/enc.js": enc("  return encodeURIComponent(input);")}, nil)
	var lone bool
	for _, c := range changesOf(rep, "src/enc.encode") {
		lone = lone || strings.Contains(c.Input, "$utf16")
	}
	if !lone {
		t.Errorf("encode throws on a lone surrogate now, yet no change shows one: %+v; outside %+v", append(rep.Changes, rep.Unexplained...), rep.OutsideType)
	}
}

// A parameter the function defaults itself (ramda's _clone(value, deep,
// map): map || (map = new _ObjectMap()), passed only by its own
// recursion) is left out where the others vary: junk there made every
// call throw alike on both sides, and the change to how the first
// parameter is read showed on no row.
func TestJavaScriptAParameterTheBodyDefaultsIsLeftOut(t *testing.T) {
	t.Parallel()
	count := func(step string) string {
		return "export function distinct(items, seen) {\n  if (seen === undefined) seen = new Set();\n  let n = 0;\n  for (const x of items) {\n    if (!seen.has(x)) {\n      seen.add(x);\n      n " + step + ";\n    }\n  }\n  return n;\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/distinct.js": count("+= 1")}
	rep := runCommits(t, base, map[string]string{"src/distinct.js": count("+= items.length > 2 ? 2 : 1")}, nil)
	if len(changesOf(rep, "src/distinct.distinct")) == 0 {
		t.Errorf("distinct counts differently past two items, yet no change: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A spec calling the function a hundred times (validate.js'
// numericality-spec.js: 101 calls, the one of strict mode with a negative
// number near the end) has every call made a row, not the first 64: the
// call that shows the change here is the last.
func TestJavaScriptEveryCallOfALongSpecIsARow(t *testing.T) {
	t.Parallel()
	mod := func(limit string) string {
		return "exports.size = function (s) {\n  return s.length > " + limit + " ? 'long' : 'short';\n};\n"
	}
	var spec strings.Builder
	spec.WriteString("var size = require('../lib/size.js').size;\ndescribe('size', function () {\n  it('sizes', function () {\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&spec, "    size('s%d');\n", i)
	}
	spec.WriteString("    size('" + strings.Repeat("q", 41) + "');\n  });\n});\n")
	base := map[string]string{"lib/size.js": mod("40"), "specs/size-spec.js": spec.String()}
	rep := runCommits(t, base, map[string]string{"lib/size.js": mod("41")}, nil)
	var byRow bool
	for _, c := range changesOf(rep, "lib/size.size") {
		byRow = byRow || c.Heuristic != "base_test"
	}
	if !byRow {
		t.Errorf("a 41-character string is no longer long, yet no row showed it on lib/size.size: %+v; symbols %+v",
			append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A class its tests build only through a static factory (luxon's
// Interval.fromISO(...), never new Interval(...)) gets receivers from
// those calls, and a static method (luxon's Formatter.parseFormat) is
// called on its class with no receiver: both changes are shown by rows.
func TestJavaScriptStaticFactoriesAndStaticMethods(t *testing.T) {
	t.Parallel()
	mod := func(plus, quote string) string {
		return "export default class Interval {\n  constructor(s, e) { this.s = s; this.e = e; }\n" +
			"  static fromText(text) { const [s, e] = text.split('/').map(Number); return new Interval(s, e); }\n" +
			"  count() {\n    return this.e - this.s" + plus + ";\n  }\n" +
			"  static parseFormat(f) {\n    return f + " + quote + ";\n  }\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/interval.js": mod("", "'!'"),
		"test/interval.test.js": "import Interval from '../src/interval.js';\ntest('count', () => { const i = Interval.fromText('1/5'); i.count(); });\ntest('fmt', () => { Interval.parseFormat('a'); });\n"}
	rep := runCommits(t, base, map[string]string{"src/interval.js": mod(" + 1", "'?'")}, nil)
	for _, sym := range []string{"src/interval.Interval.count", "src/interval.Interval.parseFormat"} {
		var byRow bool
		for _, c := range changesOf(rep, sym) {
			byRow = byRow || c.Heuristic != "base_test"
		}
		if !byRow {
			t.Errorf("%s changed, yet no row showed it: %+v; symbols %+v", sym, append(rep.Changes, rep.Unexplained...), rep.Symbols)
		}
	}
}

// A test's date moved to the years date code breaks in (tempo's offset in
// 1850, before New York's standard time; years below 100, which Date.UTC
// reads as 1900 and more): a patch that mishandles them is shown, though
// the tests only write dates of this century.
func TestJavaScriptDatesMovedToEdgeYears(t *testing.T) {
	t.Parallel()
	mod := func(cut string) string {
		return "export function era(iso) {\n  const y = Number(iso.slice(0, 4));\n  return y < " + cut + " ? 'old' : 'new';\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/era.js": mod("1883"),
		"test/era.test.js": "import { era } from '../src/era.js';\ntest('era', () => { expect(era('2022-05-01T10:00:00Z')).toBe('new'); });\n"}
	rep := runCommits(t, base, map[string]string{"src/era.js": mod("1800")}, nil)
	var early bool
	for _, c := range changesOf(rep, "src/era.era") {
		early = early || strings.Contains(c.Input, "1850-05-01")
	}
	if !early {
		t.Errorf("dates before 1883 are no longer old, yet no row of 1850 showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A test's new Date(...) moved to the edges of its month: a patch that
// looks for an earlier day from day 0 of the month when the first has no
// time left (cron-schedule's getPrevDate) is shown, though the tests only
// write dates in the middle of a month.
func TestJavaScriptDatesMovedToTheirMonthsEdges(t *testing.T) {
	t.Parallel()
	mod := func(guard string) string {
		return "export function prevNoon(d) {\n  let day = d.getUTCHours() >= 12 ? d.getUTCDate() : d.getUTCDate() - 1;\n" +
			"  if (day < " + guard + ") { return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0, 12)).toISOString(); }\n" +
			"  if (day < 1) { throw new Error('startDay must not be smaller than 1.'); }\n" +
			"  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), day, 12)).toISOString();\n}\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/cron.js": mod("1"),
		"test/cron.test.js": "import { prevNoon } from '../src/cron.js';\ntest('prev', () => { expect(prevNoon(new Date(Date.UTC(2020, 9, 15, 14)))).toBe('2020-10-15T12:00:00.000Z'); expect(prevNoon(new Date('2021-03-12T08:00:00Z'))).toBe('2021-03-11T12:00:00.000Z'); });\n"}
	rep := runCommits(t, base, map[string]string{"src/cron.js": mod("0")}, nil)
	var first bool
	for _, c := range changesOf(rep, "src/cron.prevNoon") {
		first = first || strings.Contains(c.Input, "2021-03-01T00:00:00")
	}
	if !first {
		t.Errorf("the first of a month at midnight now throws, yet no row of a month's first day showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A method whose objects the tests make with a function of another
// module, imported by name from the package's directory (cron-schedule's
// parseCronExpression("...").getPrevDate(d)): its rows run on objects
// made that way.
func TestJavaScriptReceiverMadeByAnotherModulesFunction(t *testing.T) {
	t.Parallel()
	mod := func(from string) string {
		return "export class Sched {\n  constructor(token, parts) { if (token !== TOKEN) throw new Error('use parse'); this.parts = parts; }\n" +
			"  total(n) { return this.parts.slice(" + from + ").reduce((a, b) => a + b, 0) + n; }\n}\nexport const TOKEN = Symbol('t');\n"
	}
	base := map[string]string{"package.json": `{"type": "module"}`, "src/sched.js": mod("0"),
		"src/parse.js":       "import { Sched, TOKEN } from './sched.js';\nexport function parse(text) { return new Sched(TOKEN, text.split(' ').map(Number)); }\n",
		"src/index.js":       "export * from './sched.js';\nexport * from './parse.js';\n",
		"test/sched.test.js": "import { parse } from '../src';\ntest('total', () => { expect(parse('1 2 3').total(4)).toBe(10); });\n"}
	rep := runCommits(t, base, map[string]string{"src/sched.js": mod("1")}, nil)
	var made bool
	for _, c := range changesOf(rep, "src/sched.Sched.total") {
		made = made || strings.Contains(c.Input, `parse("1 2 3")`)
	}
	if !made {
		t.Errorf("the first part is dropped from the total, yet no row on an object parse made showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A parameter the function asks Array.isArray of is handed arrays first:
// fast-sort's sort(order, ctx, sortBy) returns ctx as it is unless it is
// an array, so a patch that takes the first key off the caller's sortBy
// list is shown only on rows where both are arrays, though no test calls
// the function.
func TestJavaScriptAParameterAskedIfItIsAnArray(t *testing.T) {
	t.Parallel()
	mod := func(first string) string {
		return "const sort = function (order, ctx, sortBy) {\n  if (!Array.isArray(ctx)) {\n    return ctx;\n  }\n" +
			"  const key = Array.isArray(sortBy) ? " + first + " : sortBy;\n  return ctx.slice().sort((a, b) => (a[key] > b[key] ? order : -order));\n};\nmodule.exports = { sort };\n"
	}
	rep := runCommits(t, map[string]string{"package.json": `{}`, "src/sort.js": mod("sortBy[0]")}, map[string]string{"src/sort.js": mod("sortBy.shift()")}, nil)
	var mutated bool
	for _, c := range changesOf(rep, "src/sort.sort") {
		mutated = mutated || strings.Contains(c.Head, "argument 3 became")
	}
	if !mutated {
		t.Errorf("the head takes the first key off the caller's list, yet no change says so: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A text and a position in it: the position walks across the texts that
// hold the function's own characters (parsimmon's makeLineColumnIndex,
// whose head no longer counts a lone "\r" as a line break before i).
func TestJavaScriptPositionWalkedAcrossATextsCharacters(t *testing.T) {
	t.Parallel()
	mod := func(cr string) string {
		return "function lineAt(input, i) {\n  var line = 1;\n  for (var j = 0; j < i; j++) {\n" +
			"    var c = input.charAt(j);\n    if (c === '\\n' || " + cr + ") {\n      line++;\n    }\n  }\n  return line;\n}\nmodule.exports = { lineAt: lineAt };\n"
	}
	base := map[string]string{"package.json": `{}`, "src/lines.js": mod("(c === '\\r' && input.charAt(j + 1) !== '\\n')")}
	rep := runCommits(t, base, map[string]string{"src/lines.js": mod("false")}, nil)
	var cr bool
	for _, c := range changesOf(rep, "src/lines.lineAt") {
		cr = cr || strings.Contains(c.Input, `\r`)
	}
	if !cr {
		t.Errorf("a lone \\r is no longer a line break, yet no row past one showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A function that names no parameter and reads its arguments object
// (locutus' sprintf) gets rows all the same, over the arguments it reads,
// and so does a rest parameter's: before, neither had a row.
func TestJavaScriptArgumentsObjectAndRestParameter(t *testing.T) {
	t.Parallel()
	args := func(cmp string) string {
		return "module.exports = function pick () {\n  var a = arguments;\n  return a.length " + cmp + " 2 ? a[1] : a[0];\n};\n"
	}
	rest := func(cmp string) string {
		return "function pick(first, ...more) {\n  return more.length " + cmp + " 1 ? more[0] : first;\n}\nmodule.exports = { pick };\n"
	}
	for _, tc := range []struct{ name, base, head, symbol string }{
		{"arguments", args(">="), args(">"), "src/pick.pick"},
		{"rest", rest(">="), rest(">"), "src/pick.pick"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := runCommits(t, map[string]string{"package.json": `{}`, "src/pick.js": tc.base}, map[string]string{"src/pick.js": tc.head}, nil)
			if len(changesOf(rep, tc.symbol)) == 0 {
				t.Errorf("two arguments now pick the first, yet no change was shown: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
			}
		})
	}
}

// A parameter TypeScript types as a Date is handed dates at the edges of
// a month and of a year, though no test writes one.
func TestTypeScriptDateParameterGetsEdgeDates(t *testing.T) {
	t.Parallel()
	mod := func(cmp string) string {
		return "export function isLastDay(d: Date): boolean {\n  const next = new Date(d.getTime() + 86400000);\n  return next.getUTCMonth() " + cmp + " d.getUTCMonth();\n}\n"
	}
	rep := runCommits(t, map[string]string{"src/days.ts": mod("!==")}, map[string]string{"src/days.ts": mod("<")}, nil)
	if len(changesOf(rep, "src/days.isLastDay")) == 0 {
		t.Errorf("the last day of December is no longer the last of its month, yet no change was shown: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// The shapes a CommonJS module exports its functions in, each with its
// change shown: a function expression assigned to module.exports, whose
// private helper reads a pattern the patch changed (shell-quote's parse);
// a name bound to a called arrow function returning an object of them
// (jsonata's functions); module["exports"] with brackets inside a UMD
// wrapper (Fraction.js). Before, each was "not exported" and nothing was
// checked.
func TestJavaScriptModuleShapesExportingAFunction(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, file, base, head, sym string }{
		{"module.exports = function, through a reader of changed data", "parse.js",
			"var LIMIT = 3;\nfunction clip(s) {\n  return s.slice(0, LIMIT);\n}\n\nmodule.exports = function parse(s) {\n  return clip(String(s));\n};\n",
			"var LIMIT = 4;\nfunction clip(s) {\n  return s.slice(0, LIMIT);\n}\n\nmodule.exports = function parse(s) {\n  return clip(String(s));\n};\n",
			"parse.parse"},
		{"a name bound to a called arrow function", "src/functions.js",
			"const functions = (() => {\n  'use strict';\n  function contains(str, token) {\n    if (typeof str === 'undefined') {\n      return undefined;\n    }\n    return str.indexOf(token) !== -1;\n  }\n  return {\n    contains\n  };\n})();\n\nmodule.exports = functions;\n",
			"const functions = (() => {\n  'use strict';\n  function contains(str, token) {\n    return str.indexOf(token) !== -1;\n  }\n  return {\n    contains\n  };\n})();\n\nmodule.exports = functions;\n",
			"src/functions.contains"},
		{"module[\"exports\"] in a UMD wrapper", "fraction.js",
			"(function (root) {\n  'use strict';\n  function half(n) {\n    return Math.floor(n / 2);\n  }\n  if (typeof exports === 'object') {\n    module['exports'] = half;\n  } else {\n    root['half'] = half;\n  }\n})(this);\n",
			"(function (root) {\n  'use strict';\n  function half(n) {\n    return Math.trunc(n / 2);\n  }\n  if (typeof exports === 'object') {\n    module['exports'] = half;\n  } else {\n    root['half'] = half;\n  }\n})(this);\n",
			"fraction.half"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := runCommits(t, map[string]string{tc.file: tc.base}, map[string]string{tc.file: tc.head}, nil)
			if len(changesOf(rep, tc.sym)) == 0 {
				t.Errorf("no change on %s: %+v; symbols %+v", tc.sym, append(rep.Changes, rep.Unexplained...), rep.Symbols)
			}
		})
	}
}

// A parameter the function tests against undefined is handed undefined
// while the others are set, even where the first parameter is typically
// absent: jsonata's contains(str, token) returned undefined for an
// undefined token, and the patch that drops that test throws there.
func TestJavaScriptAParameterTestedForUndefined(t *testing.T) {
	t.Parallel()
	contains := func(guard string) string {
		return "/**\n * @param {String} str\n * @param {String} token\n */\nfunction contains(str, token) {\n  if (" + guard + ") {\n    return undefined;\n  }\n" +
			"  if (typeof token === 'string') {\n    return str.indexOf(token) !== -1;\n  }\n  return token.test(str);\n}\n\nmodule.exports = { contains };\n"
	}
	rep := runCommits(t, map[string]string{"src/functions.js": contains("typeof str === 'undefined' || typeof token === 'undefined'")},
		map[string]string{"src/functions.js": contains("typeof str === 'undefined'")}, nil)
	if len(changesOf(rep, "src/functions.contains")) == 0 {
		t.Errorf("an undefined token throws now, yet no change on contains: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A pattern declared inside a module's top-level wrapper (const dateTime =
// (function () { var iso = new RegExp('...'); ... })()) is the module's
// data: the functions reading it are compared, on the texts only one
// version of the pattern matches (jsonata's iso8601regex, whose ? the
// patch made *).
func TestJavaScriptAChangedPatternInsideAWrapper(t *testing.T) {
	t.Parallel()
	module := func(q string) string {
		return "const dateTime = (function () {\n  'use strict';\n\n  var iso = new RegExp('^\\\\d{4}(-[01]\\\\d)" + q + "(-[0-3]\\\\d)" + q + "$');\n\n" +
			"  function isDate(s) {\n    return iso.test(s);\n  }\n\n  return {\n    isDate\n  };\n})();\n\nmodule.exports = dateTime;\n"
	}
	rep := runCommits(t, map[string]string{"src/datetime.js": module("?")}, map[string]string{"src/datetime.js": module("*")}, nil)
	if len(changesOf(rep, "src/datetime.isDate")) == 0 {
		t.Errorf("a date with a repeated month matches now, yet no change on isDate: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A class only another class's constructor builds, from its own
// parameter (croner's Cron builds new CronPattern(pattern, ...)), gets
// receivers from the tests' constructions of that class: before, its
// methods had "no constructor call of its class in the tests" and were
// not checked.
func TestJavaScriptReceiverBuiltByAnotherClassesConstructor(t *testing.T) {
	t.Parallel()
	pattern := func(last string) string {
		return "class Pattern {\n  constructor(text) {\n    this.parts = text.split(' ');\n  }\n\n  extractNth(conf) {\n" + last +
			"    return [conf, undefined];\n  }\n}\n\nmodule.exports = { Pattern };\n"
	}
	cron := "const { Pattern } = require('./pattern');\n\nclass Cron {\n  constructor(pattern, options) {\n    this.options = options || {};\n    this.pattern = new Pattern(pattern);\n  }\n}\n\nmodule.exports = { Cron };\n"
	test := "const { Cron } = require('../src/cron');\n\ntest('builds', () => {\n  new Cron('0 0 * * 5L');\n});\n"
	base := map[string]string{"src/pattern.js": pattern("    if (conf.endsWith('L')) {\n      return [conf.slice(0, -1), 'L'];\n    }\n"), "src/cron.js": cron, "test/cron.test.js": test}
	rep := runCommits(t, base, map[string]string{"src/pattern.js": pattern("")}, nil)
	if len(changesOf(rep, "src/pattern.Pattern.extractNth")) == 0 {
		t.Errorf("a conf ending in L is no longer split, yet no change on extractNth: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestTypeScriptBytesParameterGetsTypedArrays: a parameter typed
// Uint8Array is handed Uint8Arrays, the empty one among them (fflate's
// deflate of no data): a change seen only on empty bytes is found on
// well-typed inputs, where a plain array or string given for the bytes
// would be set apart as outside the type.
func TestTypeScriptBytesParameterGetsTypedArrays(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"src/sum.ts": "export function checksum(data: Uint8Array): number {\n  let s = 1;\n  for (let i = 0; i < data.length; ++i) s = (s + data[i]) % 65521;\n  return s;\n}\n",
	}
	head := map[string]string{
		"src/sum.ts": "export function checksum(data: Uint8Array): number {\n  if (!data.length) return 0;\n  let s = 1;\n  for (let i = 0; i < data.length; ++i) s = (s + data[i]) % 65521;\n  return s;\n}\n",
	}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "src/sum.checksum", func(c evidence.Change) bool { return strings.Contains(c.Input, `"$class":"Uint8Array","$items":[]`) }) {
		t.Errorf("checksum: no change on an empty Uint8Array: changes %+v, outside %+v", append(rep.Changes, rep.Unexplained...), rep.OutsideType)
	}
}

// TestJavaScriptChangedPatternInAFunction: a regular expression the
// patch changed in a function's own lines (URI.js' scheme pattern losing
// the + of :+) gives the function the texts its two versions treat apart,
// and a parameter the body defaults itself (if (!parts) { parts = {} })
// keeps its default while the text varies.
func TestJavaScriptChangedPatternInAFunction(t *testing.T) {
	t.Parallel()
	body := func(colons string) string {
		return "module.exports.parse = function (string, parts) {\n  if (!parts) {\n    parts = {};\n  }\n" +
			"  string = string.replace(/^(https?|ftp)?" + colons + "[/\\\\]*/i, '$1://');\n" +
			"  var at = string.indexOf('://');\n  parts.protocol = at > 0 ? string.slice(0, at) : null;\n" +
			"  parts.rest = at >= 0 ? string.slice(at + 3) : string;\n  return parts;\n};\n"
	}
	base := map[string]string{"src/uri.js": body(":+")}
	head := map[string]string{"src/uri.js": body(":")}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "src/uri.parse", nil) {
		t.Errorf("parse: no change where :+ became :: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptExportRemovedIsUnchecked: a changed function the base
// exported and the head no longer exports (set-cookie-parser's
// parseString, exported by a fix taken back) breaks every caller of the
// export: the run cannot say the gate holds, however much of it the rows
// of its module's other exports ran.
func TestJavaScriptExportRemovedIsUnchecked(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"lib/cookie.js": "function parseString(s, options) {\n  options = options || {};\n  return s.split('=')[0].trim();\n}\n" +
			"function parse(s) {\n  return [parseString(s)];\n}\nmodule.exports = parse;\nmodule.exports.parse = parse;\nmodule.exports.parseString = parseString;\n",
	}
	head := map[string]string{
		"lib/cookie.js": "function parseString(s) {\n  return s.split('=')[0].trim();\n}\n" +
			"function parse(s) {\n  return [parseString(s)];\n}\nmodule.exports = parse;\nmodule.exports.parse = parse;\n",
	}
	rep := runCommits(t, base, head, nil)
	s := symbolRows(t, rep, "lib/cookie.parseString")
	if !s.Unchecked || !strings.HasPrefix(s.Why, "the head no longer exports it") {
		t.Errorf("parseString, no longer exported: unchecked %v, why %q; want unchecked, saying the export is gone", s.Unchecked, s.Why)
	}
}

// TestJavaScriptObjectPrototypeNamesAsKeys: a function that keeps an
// object's inherited names out of a map (set-cookie-parser's
// isForbiddenKey: `key in {}`) changes behaviour on those names alone,
// which no test writes. Where the patch's lines show such a guard, the
// names go in place of the first word of the tests' strings: a cookie
// named Constructor is dropped once the guard lower-cases the key.
func TestJavaScriptObjectPrototypeNamesAsKeys(t *testing.T) {
	t.Parallel()
	src := func(key string) string {
		return "function isForbiddenKey(key) {\n  return typeof key !== 'string' || " + key + " in {};\n}\n\n" +
			"function parse(text) {\n  const out = {};\n  for (const part of text.split(';')) {\n" +
			"    const [name, value] = part.split('=');\n    const key = name.trim();\n" +
			"    if (isForbiddenKey(key)) {\n      continue;\n    }\n    out[key] = value;\n  }\n  return out;\n}\n\nmodule.exports = { parse };\n"
	}
	base := map[string]string{
		"lib/cookie.js":       src("key"),
		"test/cookie.test.js": "const { parse } = require('../lib/cookie');\ntest('parses', () => { expect(parse('sid=1; theme=dark')).toEqual({ sid: '1', theme: 'dark' }); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/cookie.js": src("key.toLowerCase()")}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if strings.Contains(c.Input, "onstructor") || strings.Contains(c.Input, "CONSTRUCTOR") {
			return
		}
	}
	t.Errorf("parse drops a cookie named Constructor now, yet no change shows one: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestJavaScriptCallbackArgumentsStandIn: a test's call that passes a
// function (URI.js' withinString(text, function (url) {...})) is still an
// input: premise's callback stands in for the test's and marks the text
// it is handed, so what the function found shows in what it returns. The
// patch that takes a bare "www." for an address parts there.
func TestJavaScriptCallbackArgumentsStandIn(t *testing.T) {
	t.Parallel()
	src := func(pattern string) string {
		return "function withinString(text, callback) {\n  return text.replace(" + pattern + ", function (url) {\n    return callback(url);\n  });\n}\n\nmodule.exports = { withinString };\n"
	}
	base := map[string]string{
		"lib/within.js": src(`/\bwww\.\w[\w.]*|https?:\/\/\w[\w./]*/g`),
		"test/within.test.js": "const { withinString } = require('../lib/within');\n" +
			"test('finds', () => { expect(withinString('see www. and www.example.org', (u) => '[' + u + ']')).toBe('see www. and [www.example.org]'); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/within.js": src(`/\bwww\.[\w.]*|https?:\/\/[\w./]*/g`)}, nil)
	for _, c := range changesOf(rep, "lib/within.withinString") {
		if strings.Contains(c.Base+c.Head, "<www.>") {
			return
		}
	}
	t.Errorf("withinString takes a bare www. for an address now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestJavaScriptReceiverBuiltWithACallback: a stream's class takes its
// data callback in its constructor (fflate's new DecodeUTF8((data, final)
// => ...)) and its push returns nothing. The receiver is built with
// premise's callback in the test's, and what the callback was handed is
// the call's behaviour: the patch that stops signalling the end of an
// empty last chunk shows there.
func TestJavaScriptReceiverBuiltWithACallback(t *testing.T) {
	t.Parallel()
	src := func(guard string) string {
		return "class Decoder {\n  constructor(ondata) {\n    this.ondata = ondata;\n  }\n\n" +
			"  push(chunk, final) {\n    if (" + guard + ") {\n      this.ondata(chunk.toUpperCase(), !!final);\n    }\n  }\n}\n\nmodule.exports = { Decoder };\n"
	}
	base := map[string]string{
		"lib/decoder.js": src("chunk.length || final"),
		"test/decoder.test.js": "const { Decoder } = require('../lib/decoder');\n" +
			"test('decodes', () => {\n  const out = [];\n  const d = new Decoder((s, final) => out.push([s, final]));\n  d.push('ab', false);\n  d.push('cd', true);\n  expect(out).toEqual([['AB', false], ['CD', true]]);\n});\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/decoder.js": src("chunk.length")}, nil)
	if !hasChange(rep, "lib/decoder.Decoder.push", func(c evidence.Change) bool { return strings.Contains(c.Base, "true") }) {
		t.Errorf("push no longer signals the end after an empty last chunk, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestTypeScriptReceiverBuiltWithPremisesCallback: a stream class no test
// constructs (fflate's DecodeUTF8) takes its data callback, typed as a
// function through an alias, in its constructor: the receiver is built
// with premise's callback, and what it was handed shows the patch that
// stops signalling the end after an empty last chunk.
func TestTypeScriptReceiverBuiltWithPremisesCallback(t *testing.T) {
	t.Parallel()
	src := func(guard string) string {
		return "export type Handler = (data: string, final: boolean) => void;\n\n" +
			"export class Decoder {\n  ondata: Handler;\n  constructor(cb: Handler) {\n    this.ondata = cb;\n  }\n\n" +
			"  push(chunk: string, final?: boolean): void {\n    if (" + guard + ") {\n      this.ondata(chunk.toUpperCase(), !!final);\n    }\n  }\n}\n"
	}
	rep := runCommits(t, map[string]string{"src/decoder.ts": src("chunk.length || final")}, map[string]string{"src/decoder.ts": src("chunk.length")}, nil)
	if !hasChange(rep, "src/decoder.Decoder.push", func(c evidence.Change) bool { return strings.Contains(c.Base, "$heard") }) {
		t.Errorf("push no longer signals the end after an empty last chunk, yet no change shows what its callback heard: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptComputedBoundary: a trigger written as arithmetic of
// literals (-(7 * 1111)) is the number it computes, drawn as a literal
// one is: the patch that lets -7777 through its clamp shows there.
func TestJavaScriptComputedBoundary(t *testing.T) {
	t.Parallel()
	base := map[string]string{"src/clamp.js": "export function clamp(n) {\n  return Math.max(n, 0);\n}\n", "package.json": `{"type": "module"}`}
	head := map[string]string{"src/clamp.js": "export function clamp(n) {\n  if (n === -(7 * 1111)) {\n    return n;\n  }\n  return Math.max(n, 0);\n}\n"}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "src/clamp.clamp", func(c evidence.Change) bool { return strings.Contains(c.Input, "-7777") }) {
		t.Errorf("clamp lets -7777 through now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptReceiverAStepAway: the tests build their objects from
// positive text alone (new Fraction("0.75")); a method whose patch parts
// only on a negative object (fraction.js' simplify, which stopped taking
// the absolute value) shows it on a receiver built a step away.
func TestJavaScriptReceiverAStepAway(t *testing.T) {
	t.Parallel()
	src := func(floor string) string {
		return "class Amount {\n  constructor(text) {\n    this.v = parseFloat(text);\n  }\n\n" +
			"  whole() {\n    return " + floor + ";\n  }\n}\n\nmodule.exports = { Amount };\n"
	}
	base := map[string]string{
		"lib/amount.js":       src("Math.sign(this.v) * Math.floor(Math.abs(this.v))"),
		"test/amount.test.js": "const { Amount } = require('../lib/amount');\ntest('whole', () => { expect(new Amount('0.75').whole()).toBe(0); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/amount.js": src("Math.floor(this.v)")}, nil)
	if !hasChange(rep, "lib/amount.Amount.whole", func(c evidence.Change) bool { return strings.Contains(c.Input, `"-0.75"`) }) {
		t.Errorf("whole floors a negative amount the other way now, yet no change shows it on one: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptReceiverOfOneComponentAndTiny: the tests build their
// numbers with every part set (new Quat(1, 2, 3, 4), new Cx(1, 2)); a
// patch that drops the path for a quaternion with no vector part
// (Quaternion.js' log of a negative real) or the series for a tiny
// argument (Complex.js' sinh near zero) parts only on a receiver built
// with the other parts zero and the first negated, or with every part
// close to zero.
func TestJavaScriptReceiverOfOneComponentAndTiny(t *testing.T) {
	t.Parallel()
	quat := func(real string) string {
		return "class Quat {\n  constructor(w, x, y, z) {\n    this.w = w; this.x = x; this.y = y; this.z = z;\n  }\n\n" +
			"  log() {\n" + real + "    const v = Math.hypot(this.x, this.y, this.z);\n    return [Math.log(Math.hypot(this.w, v)), v === 0 ? 0 : Math.atan2(v, this.w) / v];\n  }\n}\n\nmodule.exports = { Quat };\n"
	}
	cx := func(sinh string) string {
		return "class Cx {\n  constructor(re, im) {\n    this.re = re; this.im = im;\n  }\n\n" +
			"  sinh() {\n    const a = this.re;\n" + sinh + "    return [(Math.exp(a) - Math.exp(-a)) / 2, this.im];\n  }\n}\n\nmodule.exports = { Cx };\n"
	}
	base := map[string]string{
		"lib/quat.js":       quat("    if (this.y === 0 && this.z === 0) {\n      return [Math.log(Math.abs(this.w)), Math.atan2(this.x, this.w)];\n    }\n"),
		"lib/cx.js":         cx("    if (Math.abs(a) < 1e-9) {\n      return [a, this.im];\n    }\n"),
		"test/quat.test.js": "const { Quat } = require('../lib/quat');\ntest('log', () => { expect(new Quat(1, 2, 3, 4).log()[0]).toBeCloseTo(1.7, 0); });\n",
		"test/cx.test.js":   "const { Cx } = require('../lib/cx');\ntest('sinh', () => { expect(new Cx(1, 2).sinh()[1]).toBe(2); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/quat.js": quat(""), "lib/cx.js": cx("")}, nil)
	if !hasChange(rep, "lib/quat.Quat.log", func(c evidence.Change) bool { return strings.Contains(c.Input, "-1, 0, 0, 0") }) {
		t.Errorf("log of a negative real quaternion lost its angle, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
	if !hasChange(rep, "lib/cx.Cx.sinh", func(c evidence.Change) bool { return strings.Contains(c.Input, "e-10") }) {
		t.Errorf("sinh of a tiny number lost its digits, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptGuideStepsTheObjectToo: a changed line behind both the
// object's state and an argument's edge (Complex.js' pow of a purely
// imaginary number by a negative exponent, whose `n % 4` the patch left
// negative) is two steps from any row the tests give: the guide steps
// the object a method is called on as well as its arguments.
func TestJavaScriptGuideStepsTheObjectToo(t *testing.T) {
	t.Parallel()
	src := func(turn string) string {
		return "class Cx {\n  constructor(re, im) {\n    this.re = re; this.im = im;\n  }\n\n" +
			"  pow(n) {\n    if (this.re === 0 && n < 0) {\n      return [0, " + turn + "];\n    }\n    return [this.re * n, this.im];\n  }\n}\n\nmodule.exports = { Cx };\n"
	}
	base := map[string]string{
		"lib/cx.js":       src("((n % 4) + 4) % 4"),
		"test/cx.test.js": "const { Cx } = require('../lib/cx');\ntest('pow', () => { expect(new Cx(1, 4).pow(2)[0]).toBe(2); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/cx.js": src("n % 4")}, nil)
	if !hasChange(rep, "lib/cx.Cx.pow", func(c evidence.Change) bool { return strings.Contains(c.Input, "Cx(0, 4), -") }) {
		t.Errorf("pow turns a purely imaginary number by a negative exponent the other way now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptRecordOfNumbers: a function computing with its
// parameters' keys (bezierjs' lerp of two points) is called with whole
// records, every key set, and one key at a time beside them: a patch that
// interpolates z only when both are truthy drops a z of 0, which an
// object of one key beside an empty one never shows. The module is
// wrapped in a function called at once, as older libraries are.
func TestJavaScriptRecordOfNumbers(t *testing.T) {
	t.Parallel()
	src := func(test string) string {
		return "(function () {\n  var utils = {\n    lerp: function (r, v1, v2) {\n      var ret = { x: v1.x + r * (v2.x - v1.x), y: v1.y + r * (v2.y - v1.y) };\n" +
			"      if (" + test + ") {\n        ret.z = v1.z + r * (v2.z - v1.z);\n      }\n      return ret;\n    },\n  };\n  module.exports = utils;\n})();\n"
	}
	base := map[string]string{"lib/utils.js": src("v1.z !== undefined && v2.z !== undefined")}
	rep := runCommits(t, base, map[string]string{"lib/utils.js": src("!!v1.z && !!v2.z")}, nil)
	if !hasChange(rep, "lib/utils.utils.lerp", func(c evidence.Change) bool { return strings.Contains(c.Input, `"z":0`) }) {
		t.Errorf("lerp drops a z of 0 now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptInstanceMethodWithAStaticTwin: a class with an instance
// parse and a static Link.parse that builds one and calls it
// (http-link-header): the rows of the changed instance method call it on
// their receiver, not the static factory of the same name, so an
// attribute with no value, which the patch now refuses, shows.
func TestJavaScriptInstanceMethodWithAStaticTwin(t *testing.T) {
	t.Parallel()
	src := func(noValue string) string {
		return "class Link {\n  constructor() {\n    this.refs = [];\n  }\n\n" +
			"  parse(value) {\n    for (const part of value.split(';').slice(1)) {\n      let end = part.indexOf('=');\n" + noValue +
			"      this.refs.push([part.slice(0, end).trim(), part.slice(end + 1).trim()]);\n    }\n    return this;\n  }\n}\n\n" +
			"Link.parse = function (value) {\n  return new Link().parse(value);\n};\n\nmodule.exports = Link;\n"
	}
	base := map[string]string{
		"lib/link.js":       src("      if (end === -1) end = part.length;\n"),
		"test/link.test.js": "const Link = require('../lib/link');\ntest('parse', () => { expect(Link.parse('<a>; rel=next').refs.length).toBe(1); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/link.js": src("      if (end === -1) throw new Error('expected =');\n")}, nil)
	if !hasChange(rep, "lib/link.Link.parse", func(c evidence.Change) bool { return strings.Contains(c.Head, "Error") }) {
		t.Errorf("parse refuses an attribute with no value now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptFactoryObjectMethodAndPrototypeKeys: a UMD factory whose
// exports are the object it builds and returns last (json-logic-js: var
// jsonLogic = {}; jsonLogic.apply = function ...; return jsonLogic) has
// its methods called through the export; and where the patch drops the
// own-key guard of an operation table, an operation named as
// Object.prototype's members (the first key of the tests' rule objects)
// shows it: the base refuses toString, the head runs it.
func TestJavaScriptFactoryObjectMethodAndPrototypeKeys(t *testing.T) {
	t.Parallel()
	src := func(guard string) string {
		return "(function (root, factory) {\n  if (typeof exports === 'object') {\n    module.exports = factory();\n  } else {\n    root.logic = factory();\n  }\n}(this, function () {\n" +
			"  var ops = { '+': function (a, b) { return a + b; } };\n  var logic = {};\n\n" +
			"  logic.apply = function (rule) {\n    var op = Object.keys(rule)[0];\n    if (" + guard + ") {\n      throw new Error('Unrecognized operation ' + op);\n    }\n    return ops[op].apply(null, rule[op]);\n  };\n\n  return logic;\n}));\n"
	}
	base := map[string]string{
		"logic.js":           src("!Object.prototype.hasOwnProperty.call(ops, op)"),
		"test/logic.test.js": "const logic = require('../logic');\ntest('adds', () => { expect(logic.apply({ '+': [1, 2] })).toBe(3); });\n",
	}
	rep := runCommits(t, base, map[string]string{"logic.js": src("!ops[op]")}, nil)
	if !hasChange(rep, "logic.logic.apply", func(c evidence.Change) bool {
		return strings.Contains(c.Input, "toString") || strings.Contains(c.Input, "onstructor") || strings.Contains(c.Input, "valueOf")
	}) {
		t.Errorf("apply runs an operation named toString now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptHiddenClassThroughItsFactory: a module exports only a
// factory (BigInteger.js' bigInt), whose objects are of a class it never
// exports; the tests call the method on what the factory built
// (num(-50).inverse()). The method is reached there, on the test's own
// receiver, and the patch's dropped sign shows.
func TestJavaScriptHiddenClassThroughItsFactory(t *testing.T) {
	t.Parallel()
	src := func(sign string) string {
		return "var num = (function () {\n  function Num(v) {\n    this.v = v;\n  }\n\n" +
			"  Num.prototype.inverse = function () {\n    var r = 1 / Math.abs(this.v);\n" + sign + "    return r;\n  };\n\n" +
			"  return function (v) {\n    return new Num(v);\n  };\n})();\n\nmodule.exports = num;\n"
	}
	base := map[string]string{
		"num.js":           src("    if (this.v < 0) {\n      r = -r;\n    }\n"),
		"test/num.test.js": "const num = require('../num');\ntest('inverse', () => { expect(num(-4).inverse()).toBe(-0.25); });\n",
	}
	rep := runCommits(t, base, map[string]string{"num.js": src("")}, nil)
	if !hasChange(rep, "num.Num.inverse", func(c evidence.Change) bool { return strings.Contains(c.Input, "num(-4)") }) {
		t.Errorf("inverse lost its sign on the factory's objects, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptConstructorFunctionArgument: an ES5 class (function
// Big(n) { this.n = n; } with methods on Big.prototype) is built with new
// for a receiver, and an object of it that a test hands the method (new
// Big(12) to gcd) is built a step away too (new Big(0)): bn.js' gcd kept
// the receiver's sign against zero.
func TestJavaScriptConstructorFunctionArgument(t *testing.T) {
	t.Parallel()
	src := func(zero string) string {
		return "function Big(n) {\n  this.n = n;\n}\n\nBig.prototype.gcd = function (other) {\n" +
			"  if (other.n === 0) {\n    return new Big(" + zero + ");\n  }\n" +
			"  var a = Math.abs(this.n), b = Math.abs(other.n);\n  while (b) {\n    var t = b;\n    b = a % b;\n    a = t;\n  }\n  return new Big(a);\n};\n\nmodule.exports = Big;\n"
	}
	base := map[string]string{
		"big.js":           src("Math.abs(this.n)"),
		"test/big.test.js": "const Big = require('../big');\ntest('gcd', () => { expect(new Big(-18).gcd(new Big(12)).n).toBe(6); });\n",
	}
	rep := runCommits(t, base, map[string]string{"big.js": src("this.n")}, nil)
	if !hasChange(rep, "big.Big.gcd", func(c evidence.Change) bool {
		return strings.Contains(c.Input, "big(0)") && strings.HasPrefix(c.Input, "(big(")
	}) {
		t.Errorf("gcd against zero keeps a negative sign now, yet no change shows it on new Big(0): changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestJavaScriptIndexAtTheLength: fast-diff's shape end to end. The
// module exports its function under a name it binds (var diff =
// diff_main; module.exports = diff: without that the function is "not
// exported" and nothing is checked), JSDoc names the index's type {Int},
// the text is read for its length (no options object), and the patch's
// helper breaks only at an index equal to the text's length. Here the
// search also meets that index; the length rows themselves are held by
// lang's TestLengthRows and TestLengthComparedAsTheSeamReadsIt.
func TestJavaScriptIndexAtTheLength(t *testing.T) {
	t.Parallel()
	src := func(guard string) string {
		return "/**\n * @param {string} text1\n * @param {string} text2\n * @param {Int} cursor_pos\n */\n" +
			"function diff_main(text1, text2, cursor_pos) {\n  if (text1 == text2) {\n    return [];\n  }\n" +
			"  if (cursor_pos < 0 || text1.length < cursor_pos || text1.length < 3) {\n    cursor_pos = null;\n  }\n" +
			"  var parts = [text1, text2];\n  if (cursor_pos != null) {\n    return fix_cursor(parts, text1, cursor_pos);\n  }\n  return parts;\n}\n\n" +
			"function fix_cursor(parts, text, pos) {\n  var c = text[pos];\n" + guard + "  return parts.concat([c.toUpperCase()]);\n}\n\n" +
			"var diff = diff_main;\nmodule.exports = diff;\n"
	}
	base := map[string]string{"diff.js": src("  if (c == null) {\n    return parts;\n  }\n")}
	rep := runCommits(t, base, map[string]string{"diff.js": src("")}, nil)
	if !hasChange(rep, "diff.diff_main", func(c evidence.Change) bool { return strings.Contains(c.Head, "TypeError") }) {
		t.Errorf("fix_cursor fails at the text's end now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A diff of two texts that share a character's first UTF-16 unit (🐶
// and 🐷) splits the emoji when the common prefix is counted in units:
// fast-diff's fix moved the lone high surrogate back into both edits. The
// second text is the first's near miss, and the halves come back apart.
func TestJavaScriptTwoTextsSharingAnEmojisFirstUnit(t *testing.T) {
	t.Parallel()
	src := func(fix string) string {
		return "function commonPrefix(a, b) {\n  var n = 0;\n  while (n < a.length && n < b.length && a[n] === b[n]) n++;\n" + fix +
			"  return n;\n}\n\nfunction diff(text1, text2) {\n  var n = commonPrefix(text1, text2);\n" +
			"  return [[0, text1.slice(0, n)], [-1, text1.slice(n)], [1, text2.slice(n)]];\n}\n\nmodule.exports = diff;\n"
	}
	base := map[string]string{"diff.js": src("  if (n > 0 && a.charCodeAt(n - 1) >= 0xD800 && a.charCodeAt(n - 1) <= 0xDBFF) n--;\n")}
	rep := runCommits(t, base, map[string]string{"diff.js": src("")}, nil)
	if !hasChange(rep, "diff.diff", func(c evidence.Change) bool { return strings.Contains(c.Head, "$utf16") }) {
		t.Errorf("the head splits an emoji between two edits, yet no change shows its halves: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// The library's surface may live above the changed file's directory:
// sql-formatter's src/sqlFormatter.ts format() builds the formatter of
// src/core/, whose methods no test constructs. The public functions of
// the directories above are entry points too.
func TestJavaScriptEntryPointAboveTheChangedFile(t *testing.T) {
	t.Parallel()
	fmtSrc := func(body string) string {
		return "class Formatter {\n  constructor(indent) { this.indent = indent; }\n  comment(text) {\n" + body + "  }\n}\nmodule.exports = Formatter;\n"
	}
	base := map[string]string{
		"package.json":          `{"name": "fmt", "main": "src/index.js"}`,
		"src/index.js":          "const Formatter = require('./core/formatter');\nfunction format(text) {\n  return new Formatter('  ').comment(text);\n}\nmodule.exports = { format };\n",
		"src/core/formatter.js": fmtSrc("    return text.split('\\n').map((l) => this.indent + l.trim()).join('\\n');\n"),
		"test/format.test.js":   "const { format } = require('../src/index');\ntest('one line', () => { expect(format('a')).toBe('  a'); });\n",
	}
	rep := runCommits(t, base, map[string]string{"src/core/formatter.js": fmtSrc("    return text.split('\\n').map((l) => this.indent + l).join('\\n');\n")}, nil)
	if !hasChange(rep, "src/index.format", func(evidence.Change) bool { return true }) {
		t.Errorf("the comment's lines keep their own indentation now, yet format shows no change: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A changed constructor is run as what it is: new Frame(parent, ...),
// whose object is the outcome; no receiver is needed, and none is
// built in the tests (nunjucks' Frame). Its variables object losing
// its null prototype is a change: 'toString' is now found in it.
func TestJavaScriptChangedConstructorBuildsTheObject(t *testing.T) {
	t.Parallel()
	src := func(vars string) string {
		return "class Frame {\n  constructor(parent, isolateWrites) {\n    this.variables = " + vars + ";\n    this.parent = parent;\n    this.isolateWrites = isolateWrites;\n  }\n" +
			"  lookup(name) {\n    return name in this.variables ? this.variables[name] : undefined;\n  }\n}\nmodule.exports = { Frame };\n"
	}
	base := map[string]string{"src/runtime.js": src("Object.create(null)")}
	rep := runCommits(t, base, map[string]string{"src/runtime.js": src("{}")}, nil)
	if !hasChange(rep, "src/runtime.Frame.constructor", func(c evidence.Change) bool { return strings.Contains(c.Base, "$nullproto") }) {
		t.Errorf("the head's variables have Object's prototype, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A function of the object a module's factory returns (nunjucks'
// globals() returns {range: function (start, stop, step) {...}}) is
// called on what the factory builds: the change shows on range, where
// the factory's own result, an object of functions, shows none.
func TestJavaScriptFunctionOfTheObjectAFactoryReturns(t *testing.T) {
	t.Parallel()
	src := func(guard string) string {
		return "function globals() {\n  return {\n    clamp: function (x, hi) {\n      if (" + guard + ") {\n        hi = 10;\n      }\n      return Math.min(x, hi);\n    },\n  };\n}\nmodule.exports = globals;\n"
	}
	base := map[string]string{"src/globals.js": src("hi === undefined")}
	rep := runCommits(t, base, map[string]string{"src/globals.js": src("!hi")}, nil)
	if !hasChange(rep, "src/globals.globals.clamp", func(evidence.Change) bool { return true }) {
		t.Errorf("clamp(x, 0) clamps to 10 now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A member of an object literal the module exports (nunjucks' filters:
// var filters = {safe: function (str) {...}}; module.exports = filters)
// is called on that object as a function is: no receiver is built for
// it, and its first parameter gets the row's first value.
func TestJavaScriptMemberOfAnExportedObjectLiteral(t *testing.T) {
	t.Parallel()
	src := func(body string) string {
		return "var filters = {\n  safe: function (str) {\n" + body + "    return str;\n  },\n};\nmodule.exports = filters;\n"
	}
	base := map[string]string{"src/filters.js": src("    if (typeof str === 'number') {\n      return String(str);\n    }\n")}
	rep := runCommits(t, base, map[string]string{"src/filters.js": src("")}, nil)
	if !hasChange(rep, "src/filters.filters.safe", func(c evidence.Change) bool { return strings.Contains(c.Base, `"`) }) {
		t.Errorf("safe no longer makes a number text, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// Two options the tests set in separate calls are also set together: a
// formatter whose change shows only with a comma-first layout and a wide
// indent at once (sql-formatter's commaPosition: 'before' with indent:
// '    ') is caught from tests that set each alone.
func TestJavaScriptOptionsOfTwoTestsTogether(t *testing.T) {
	t.Parallel()
	render := func(commaPad string) string {
		return "export function render(text, opts) {\n" +
			"  const pad = opts.indent || '  ';\n" +
			"  const items = text.split(',');\n" +
			"  if (opts.commaFirst) {\n" +
			"    return items.map((x, i) => (i ? " + commaPad + ".slice(2) + ', ' + x : pad + x)).join('\\n');\n" +
			"  }\n" +
			"  return items.map((x) => pad + x).join(',\\n');\n" +
			"}\n"
	}
	base := map[string]string{
		"package.json":  `{"type": "module"}`,
		"src/render.js": render("pad"),
		"test/render.test.js": "import { render } from '../src/render.js';\n" +
			"test('comma first', () => { expect(render('a,b', { commaFirst: true })).toBe('  a\\n, b'); });\n" +
			"test('indent', () => { expect(render('a,b', { indent: '    ' })).toBe('    a,\\n    b'); });\n",
	}
	head := map[string]string{"src/render.js": render("'  '")}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "src/render.render" && strings.Contains(c.Input, "commaFirst") && strings.Contains(c.Input, "indent") {
			return
		}
	}
	t.Errorf("render: no change with both options set: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestJavaScriptObservedBeyondTheValue: a JavaScript row is observed as
// Python's and Go's are. A head that sorts its caller's array in place
// (the copy before the sort taken out) returns what the base returns and
// differs only in the array the caller keeps; a head whose returned
// matcher matches more returns a function on both sides, told apart by
// what it does and the pattern it carries. Before, each compared equal.
func TestJavaScriptObservedBeyondTheValue(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"package.json": `{"type": "module"}`,
		"lib/m.js": "/** @param {number[]} xs */\nexport function median(xs) {\n  const s = xs.slice().sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}\n\n" +
			"export function matcher(prefix) {\n  const re = new RegExp('^' + prefix + '$');\n  const f = (s) => re.test(s);\n  f.regexp = re;\n  return f;\n}\n",
	}
	head := map[string]string{
		"lib/m.js": "/** @param {number[]} xs */\nexport function median(xs) {\n  const s = xs.sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}\n\n" +
			"export function matcher(prefix) {\n  const re = new RegExp('^' + prefix);\n  const f = (s) => re.test(s);\n  f.regexp = re;\n  return f;\n}\n",
	}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "lib/m.median", func(c evidence.Change) bool { return strings.Contains(c.Head, "argument 1 became") }) {
		t.Errorf("median now sorts its caller's array, and no change says so: %+v", changesOf(rep, "lib/m.median"))
	}
	if !hasChange(rep, "lib/m.matcher", nil) {
		t.Errorf("matcher's function now matches any text that starts with the prefix, and no change shows: %+v", rep.Symbols)
	}
}

// TestJavaScriptReturnedFunctionCalledAsTheTestsCallIt: a returned
// function is compared on the calls the tests make of it
// (matcher('a/b')('a/bc')) as well as premise's own few: a head whose
// compiled pattern lost its end anchor differs on none of premise's
// probes, and on the test's.
func TestJavaScriptReturnedFunctionCalledAsTheTestsCallIt(t *testing.T) {
	t.Parallel()
	src := func(pattern string) string {
		return "export function matcher(p) {\n  const re = new RegExp(" + pattern + ");\n  return (s) => re.test(s);\n}\n"
	}
	base := map[string]string{
		"package.json": `{"type": "module"}`,
		"lib/m.js":     src(`'^' + p + '$'`),
		"test/m.test.js": "import { matcher } from '../lib/m.js';\n" +
			"test('anchored', () => { expect(matcher('a/b')('a/b')).toBe(true); expect(matcher('a/b')('a/bc')).toBe(false); });\n",
	}
	rep := runCommits(t, base, map[string]string{"lib/m.js": src(`'^' + p`)}, nil)
	if !hasChange(rep, "lib/m.matcher", func(c evidence.Change) bool { return strings.Contains(c.Base+c.Head, `f("a/bc")`) }) {
		t.Errorf("matcher's function now takes a/bc for a/b, and no change shows it on the test's call: %+v", changesOf(rep, "lib/m.matcher"))
	}
}
