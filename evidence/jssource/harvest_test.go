package jssource

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func parse(t testing.TB, path, src string) *File {
	t.Helper()
	f, err := Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// calls renders inputs as "Receiver|args...|kind|pos" for comparison.
func calls(ins []Input) []string {
	out := []string{}
	for _, in := range ins {
		out = append(out, in.Receiver+"|"+strings.Join(in.Args, ", ")+"|"+in.Kind+"|"+in.Pos)
	}
	return out
}

const rangesTS = `export function mergeRanges(ranges: Array<[number, number]>, gap = 0): number[][] {
  return ranges;
}
export class Interval {
  constructor(public start: number, public end: number) {}
  merge(other: Interval): Interval { return this; }
  static parse(s: string): Interval { return new Interval(0, 0); }
}
export default function clamp(n: number, lo = 0, hi = 1) { return n; }
`

// TestHarvestJest reads the forms Jest and Vitest tests call a function
// with: plain expects, test.each tables of arrays and of objects, tagged
// template tables, describe.each around nested tests, and literal consts.
func TestHarvestJest(t *testing.T) {
	module := parse(t, "src/lib/ranges.ts", rangesTS)
	test := parse(t, "test/ranges.test.ts", `import { mergeRanges as merge, Interval } from "../src/lib/ranges";
import clampIt from "../src/lib/ranges.js";
import { describe, expect, test, it } from "vitest";

const touching = [[1, 2], [2, 3]];
const gap = 5;

test("merges", () => {
  expect(merge([[1, 3], [2, 4]])).toEqual([[1, 4]]);
  expect(merge(touching, gap)).toEqual([[1, 3]]);
  expect(merge([], -1)).toEqual([]);
  expect(merge(helper())).toEqual([]);
});

test.each([
  [[[0, 1]], 0],
  [[[5, 1]], 1n],
])("merge(%j, %d)", (ranges, g) => {
  expect(merge(ranges, g)).toBeDefined();
});

it.each([{ rs: [[1, 1]], g: 2 }, { rs: [], g: 3 }])("objects $g", ({ rs, g }) => {
  expect(merge(rs, g)).toBeDefined();
});

describe.each`+"`"+`
  rs          | g
  ${[[9, 9]]} | ${"x"}
  ${null}     | ${undefined}
`+"`"+`("template $g", ({ rs, g }) => {
  it("works", () => {
    expect(merge(rs, g)).toBeDefined();
  });
});

test.each([[7], [8]])("unbound %d", (x, gap) => {
  expect(merge(x, gap)).toBeDefined();
});

test("clamps", () => {
  expect(clampIt(-0.5, -Infinity, 1e3)).toBe(0);
});
`)
	got := calls(Harvest(module, "src/lib/ranges.mergeRanges", []*File{test}, 0))
	want := []string{
		"|[[1, 3], [2, 4]]|test|test/ranges.test.ts:9",
		"|[[1, 2], [2, 3]], 5|test|test/ranges.test.ts:10",
		"|[], -1|test|test/ranges.test.ts:11",
		"|[[0, 1]], 0|table|test/ranges.test.ts:16",
		"|[[5, 1]], 1n|table|test/ranges.test.ts:17",
		"|[[1, 1]], 2|table|test/ranges.test.ts:22",
		"|[], 3|table|test/ranges.test.ts:22",
		`|[[9, 9]], "x"|table|test/ranges.test.ts:28`,
		"|null, undefined|table|test/ranges.test.ts:29",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mergeRanges (-want +got):\n%s", diff)
	}
	if got := calls(Harvest(module, "default", []*File{test}, 0)); !cmp.Equal(got, []string{"|-0.5, -Infinity, 1e3|test|test/ranges.test.ts:41"}) {
		t.Errorf("default export: %v", got)
	}
	if got := Harvest(module, "mergeRanges", []*File{test}, 2); len(got) != 2 {
		t.Errorf("limit 2 gave %d inputs", len(got))
	}
}

// TestHarvestMochaAndNodeTest reads CommonJS requires, node:test's
// assert.strictEqual, methods on constructed receivers and static
// methods, and a forEach table around Mocha's its.
func TestHarvestMochaAndNodeTest(t *testing.T) {
	module := parse(t, "src/lib/ranges.ts", rangesTS)
	mocha := parse(t, "test/ranges.spec.js", `const assert = require("node:assert");
const ranges = require("../src/lib/ranges");
const { Interval } = require("../src/lib/ranges");
const { test } = require("node:test");

test("strict", () => {
  assert.strictEqual(ranges.mergeRanges([[1, 2]], 0).length, 1);
  assert.deepStrictEqual(ranges.mergeRanges({ a: 1, "b": [true, false] }), []);
  assert.ok(other.mergeRanges([[3, 4]]));
});

describe("Interval", () => {
  const base = new Interval(1, 4);
  it("merges", () => {
    assert.deepEqual(new Interval(0, 2).merge(new Interval(1, 3)), null);
    assert.deepEqual(base.merge(null), null);
    assert.deepEqual(Interval.parse("1-2"), null);
  });
});

[[1, "a"], [2, "b"]].forEach(([n, s]) => {
  it("row " + s, () => {
    assert.ok(ranges.mergeRanges(n, s));
  });
});
`)
	if got, want := calls(Harvest(module, "mergeRanges", []*File{mocha}, 0)), []string{
		"|[[1, 2]], 0|test|test/ranges.spec.js:7",
		`|{ a: 1, "b": [true, false] }|test|test/ranges.spec.js:8`,
		`|1, "a"|table|test/ranges.spec.js:21`,
		`|2, "b"|table|test/ranges.spec.js:21`,
	}; !cmp.Equal(want, got) {
		t.Errorf("mergeRanges (-want +got):\n%s", cmp.Diff(want, got))
	}
	if got, want := calls(Harvest(module, "Interval.merge", []*File{mocha}, 0)), []string{
		"new Interval(0, 2)|new Interval(1, 3)|test|test/ranges.spec.js:15",
		"new Interval(1, 4)|null|test|test/ranges.spec.js:16",
	}; !cmp.Equal(want, got) {
		t.Errorf("Interval.merge (-want +got):\n%s (an object of the module's class handed to the method is a literal too)", cmp.Diff(want, got))
	}
	if got, want := calls(Harvest(module, "Interval.parse", []*File{mocha}, 0)), []string{
		`Interval|"1-2"|test|test/ranges.spec.js:17`,
	}; !cmp.Equal(want, got) {
		t.Errorf("Interval.parse (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestHarvestLiterals holds the literal forms an argument may take, and
// the ones it may not. A function the test passes is premise's callback
// (Callback); a regular expression the worker builds ({"$regexp": ...}).
func TestHarvestLiterals(t *testing.T) {
	test := parse(t, "t.test.js", "import { f } from './m';\n"+
		"f(1, -2, 0x1F, 1_000, 10n, 'a', \"b\", `c`, true, false, null, undefined, NaN, -Infinity, [1, [2]], { k: 1, 'q': [] }, {});\n"+
		"f(`x${y}`);\nf(...xs);\nf(/re/);\nf(a => a);\nf({ ...o });\nf({ [k]: 1 });\nf(new Date());\n"+
		"f(/* c */ 1, [2, /* d */ 3]);\n")
	got := calls(Harvest(nil, "f", []*File{test}, 0))
	want := []string{
		"|1, -2, 0x1F, 1_000, 10n, 'a', \"b\", `c`, true, false, null, undefined, NaN, -Infinity, [1, [2]], { k: 1, 'q': [] }, {}|test|t.test.js:2",
		"|/re/|test|t.test.js:5",
		"|" + Callback + "|test|t.test.js:6",
		"|1, [2, 3]|test|t.test.js:10",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHarvestUnrelated: a function of the same name on another object, or
// imported from another module, is not the function.
func TestHarvestUnrelated(t *testing.T) {
	module := parse(t, "src/sort.ts", "export function sort(xs: number[]) { return xs; }\n")
	test := parse(t, "t.test.ts", "import { sort as mine } from './other';\nimport * as s from '../src/sort';\n[3, 1].sort();\nmine([1]);\ns.sort([2, 1]);\n")
	if got, want := calls(Harvest(module, "sort", []*File{test}, 0)), []string{"|[2, 1]|test|t.test.ts:5"}; !cmp.Equal(want, got) {
		t.Errorf("(-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestHarvestPackageIndex: a package's index module is what its tests
// reach by the directory ("..", "../"), as cookie's do.
func TestHarvestPackageIndex(t *testing.T) {
	module := parse(t, "index.js", "exports.serialize = function (name, val, options) { return name; };\n")
	test := parse(t, "test/serialize.js", `var assert = require('assert');
var cookie = require('..');
it('serializes', function () {
  assert.equal(cookie.serialize('foo', 'bar', { maxAge: 'buzz' }), 'x');
});
`)
	if got, want := calls(Harvest(module, "serialize", []*File{test}, 0)), []string{
		`|'foo', 'bar', { maxAge: 'buzz' }|test|test/serialize.js:4`,
	}; !cmp.Equal(want, got) {
		t.Errorf("serialize (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestHarvestRequiredFunction: a module whose export is one anonymous
// function (module.exports = function ...) is called by whatever name a
// test binds require(...) to, as balanced-match's tests do.
func TestHarvestRequiredFunction(t *testing.T) {
	module := parse(t, "index.js", "module.exports = function (a, b, str) { return str; };\n")
	test := parse(t, "test/balanced.js", `var test = require('tape');
var balanced = require('..');
test('balanced', function (t) {
  t.deepEqual(balanced('{', '}', 'pre}{in{nest}}post'), {});
});
`)
	if got, want := calls(Harvest(module, "default", []*File{test}, 0)), []string{
		`|'{', '}', 'pre}{in{nest}}post'|test|test/balanced.js:4`,
	}; !cmp.Equal(want, got) {
		t.Errorf("default (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestHarvestRequireInABlock: a test that runs in a browser too assigns
// the module inside an if (ms's tests do); its calls are the function's.
func TestHarvestRequireInABlock(t *testing.T) {
	module := parse(t, "index.js", "module.exports = function (val, options) { return val; };\n")
	test := parse(t, "tests.js", `if (typeof require !== 'undefined') {
  expect = require('expect.js');
  ms = require('./');
}
describe('ms(number)', function () {
  it('is ms', function () {
    expect(ms(Infinity)).to.be(1);
  });
});
`)
	if got, want := calls(Harvest(module, "default", []*File{test}, 0)), []string{
		`|Infinity|test|tests.js:7`,
	}; !cmp.Equal(want, got) {
		t.Errorf("default (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestHarvestLiteralForms: one call at a time, the argument a call is
// harvested with, as written and re-spaced; want "" when the call is
// dropped because an argument is not a literal.
func TestHarvestLiteralForms(t *testing.T) {
	for _, tc := range []struct {
		name, call, want string
		reason           string
	}{
		{name: "parenthesised", call: "f((1))", want: "1"},
		{name: "plus", call: "f(+1)", want: "+1"},
		{name: "negated NaN", call: "f(-NaN)", want: "-NaN"},
		{name: "plus Infinity", call: "f(+Infinity)", want: "+Infinity"},
		{name: "not", call: "f(!1)", reason: "only - and + make a literal of a number"},
		{name: "typeof", call: "f(typeof 1)"},
		{name: "negated name", call: "f(-x)"},
		{name: "negated string", call: "f(-'a')"},
		{name: "template", call: "f(`a\nb`)", want: "`a\nb`"},
		{name: "template with substitution", call: "f(`a${1}`)"},
		{name: "array with a name", call: "f([1, x])"},
		{name: "object", call: "f({a:1,'b':2, 3: [] })", want: "{ a: 1, 'b': 2, 3: [] }"},
		{name: "object with a comment", call: "f({ /* c */ a: 1 })", want: "{ a: 1 }"},
		{name: "object with a name", call: "f({ a: x })"},
		{name: "object shorthand", call: "f({ x })"},
		{name: "object method", call: "f({ m() {} })"},
		{name: "const", call: "const big = [1, -2];\nf(big)", want: "[1, -2]"},
		{name: "const of a const", call: "const a = 1;\nconst b = [a];\nf(b)", want: "[1]"},
		{name: "let", call: "let a = 1;\nf(a)", reason: "a let may change before the call"},
		{name: "const bound twice", call: "const a = 1;\n{ const a = 2; }\nf(a)", reason: "which a the call sees depends on its scope"},
		{name: "64 deep", call: "f(" + strings.Repeat("[", 64) + "1" + strings.Repeat("]", 64) + ")",
			want: strings.Repeat("[", 64) + "1" + strings.Repeat("]", 64)},
		{name: "65 deep", call: "f(" + strings.Repeat("[", 65) + "1" + strings.Repeat("]", 65) + ")",
			reason: "literals are followed 64 levels deep: a hostile file must not exhaust the stack"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test := parse(t, "t.test.js", "import { f } from './m';\n"+tc.call+";\n")
			got := ""
			if ins := Harvest(nil, "f", []*File{test}, 0); len(ins) > 0 {
				got = strings.Join(ins[0].Args, ", ")
			}
			if got != tc.want {
				t.Errorf("%s: harvested %q, want %q %s", tc.call, got, tc.want, tc.reason)
			}
		})
	}
}

// TestHarvestTypeScriptEnums: an enum a test passes is the object it is
// at run time, a numeric member mapped back from its value
// (sindresorhus/is's isEnumCase, whose patch read the reverse mapping's
// keys as members).
func TestHarvestTypeScriptEnums(t *testing.T) {
	for _, tc := range []struct {
		name, decl, want string
	}{
		{name: "numeric, implicit", decl: "enum E { Up, Down }", want: `{"Up": 0, "Down": 1, "0": "Up", "1": "Down"}`},
		{name: "numeric, from a start", decl: "enum E { A = 1, B, C = -1, D }", want: `{"A": 1, "B": 2, "C": -1, "D": 0, "1": "A", "2": "B", "-1": "C", "0": "D"}`},
		{name: "string", decl: "enum E { Key1 = 'key1', Key2 = \"key2\" }", want: `{"Key1": 'key1', "Key2": "key2"}`},
		{name: "string names", decl: "enum E { '0' = 'zero', '01' = 'padded' }", want: `{"0": 'zero', "01": 'padded'}`},
		{name: "heterogeneous", decl: "enum E { A = 1, B = 'b' }", want: `{"A": 1, "B": 'b', "1": "A"}`},
		{name: "computed", decl: "enum E { A = 1 << 2 }"},
		{name: "after a string member", decl: "enum E { A = 'a', B }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test := parse(t, "t.test.ts", "import { f } from './m';\ntest('x', () => {\n  "+tc.decl+"\n  f('Up', E);\n});\n")
			got := ""
			if ins := Harvest(nil, "f", []*File{test}, 0); len(ins) > 0 {
				got = ins[0].Args[1]
			}
			if got != tc.want {
				t.Errorf("%s: harvested %q, want %q", tc.decl, got, tc.want)
			}
		})
	}
}

// TestHarvestThroughAnAPIObject: a function the module's default export
// holds under another name (const is = {enumCase: isEnumCase}) is called
// by that name through the export.
func TestHarvestThroughAnAPIObject(t *testing.T) {
	module := parse(t, "source/index.ts", "export function isEnumCase(v: unknown, e: unknown) { return false; }\nconst is = Object.assign(() => 1, {enumCase: isEnumCase});\nexport default is;\n")
	test := parse(t, "test/test.ts", "import is from '../source/index.ts';\ntest('x', () => {\n  enum E { Up, Down }\n  is.enumCase('Up', E);\n  other.enumCase('no', 1);\n});\n")
	got := calls(Harvest(module, "isEnumCase", []*File{test}, 0))
	want := []string{`|'Up', {"Up": 0, "Down": 1, "0": "Up", "1": "Down"}|test|test/test.ts:4`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls through the API object (-want +got):\n%s", diff)
	}
}

// TestHarvestThroughAHungName: a UMD factory hangs the function on the
// object it returns under another name (Papa.unparse = JsonToCsv); the
// tests call it by that name through the module.
func TestHarvestThroughAHungName(t *testing.T) {
	module := parse(t, "papaparse.js", "(function (root, factory) {\n  module.exports = factory();\n}(this, function () {\n  var Papa = {};\n  Papa.unparse = JsonToCsv;\n  function JsonToCsv(input, config) { return ''; }\n  return Papa;\n}));\n")
	test := parse(t, "tests/test-cases.js", "var Papa = require('../papaparse.js');\nit('x', function () {\n  Papa.unparse([['a', 'b']], {quotes: true});\n  Papa.parse('a,b');\n});\n")
	got := calls(Harvest(module, "JsonToCsv", []*File{test}, 0))
	want := []string{"|[['a', 'b']], { quotes: true }|test|tests/test-cases.js:3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls through the hung name (-want +got):\n%s", diff)
	}
}

// TestHarvestThroughANameBoundInTheTest: the test reads the function off
// the object holding it into a name of its own (validate.js' specs: var
// url = validate.validators.url; url = url.bind(url)) and calls that; a
// name bound to another object's url is not the function.
func TestHarvestThroughANameBoundInTheTest(t *testing.T) {
	module := parse(t, "validate.js", "(function (exports, module) {\n  var validate = function () {};\n  validate.validators = {\n    url: function (value, options) { return; }\n  };\n  module.exports = validate;\n}).call(this, exports, module);\n")
	test := parse(t, "specs/validators/url-spec.js", "describe('validators.url', function () {\n  var url = validate.validators.url;\n  url = url.bind(url);\n  var other = helpers.url;\n  it('allows a query', function () {\n    expect(url('http://foo.com?query=bar', {})).not.toBeDefined();\n    expect(other('no')).toBe(1);\n  });\n});\n")
	got := calls(Harvest(module, "validate.validators.url", []*File{test}, 0))
	want := []string{"|'http://foo.com?query=bar', {}|test|specs/validators/url-spec.js:6"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls through the name the test binds (-want +got):\n%s", diff)
	}
}

// TestHarvestAVarOfTheTestsOwnBody: older specs declare their arguments
// with var inside each test's function (validate.js: var constraints =
// {...} in one it after another), so no file-wide constant holds them;
// the call reads the one its own block declares. A var assigned again in
// its block is not read.
func TestHarvestAVarOfTheTestsOwnBody(t *testing.T) {
	module := parse(t, "validate.js", "module.exports = function validate(attributes, constraints) { return; };\n")
	test := parse(t, "specs/validate-spec.js", "describe('validate', function () {\n  it('a', function () {\n    var constraints = {name: {presence: true}};\n    expect(validate({name: 'x'}, constraints)).toBe(1);\n  });\n  it('nested null', function () {\n    var constraints = {'foo.bar': {presence: true}};\n    expect(validate({foo: null}, constraints)).toBeDefined();\n  });\n  it('changed', function () {\n    var constraints = {a: 1};\n    constraints = {b: 2};\n    validate({}, constraints);\n  });\n});\n")
	got := calls(Harvest(module, "validate", []*File{test}, 0))
	want := []string{
		"|{ name: 'x' }, { name: { presence: true } }|test|specs/validate-spec.js:4",
		"|{ foo: null }, { 'foo.bar': { presence: true } }|test|specs/validate-spec.js:8",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls reading their block's var (-want +got):\n%s", diff)
	}
}

// TestHarvestATableThroughAnIndexLoop: older mocha suites keep their
// cases in a module-level var and walk it with an index loop into a
// helper declared inside the describe, which reads the case's fields
// (PapaParse: for (var i = 0; i < PARSE_TESTS.length; i++)
// generateTest(PARSE_TESTS[i]), and generateTest calls
// Papa.parse(test.input, test.config)). Each row is a call; another
// describe's helper of the same name, calling something else, is not.
func TestHarvestATableThroughAnIndexLoop(t *testing.T) {
	module := parse(t, "papaparse.js", "(function (root, factory) {\n  module.exports = factory();\n}(this, function () {\n  var Papa = {};\n  Papa.parse = CsvToJson;\n  Papa.unparse = JsonToCsv;\n  function CsvToJson(input, config) { return {}; }\n  function JsonToCsv(input, config) { return ''; }\n  return Papa;\n}));\n")
	test := parse(t, "tests/test-cases.js", `var Papa = require('../papaparse.js');
var PARSE_TESTS = [
	{ description: 'header', input: 'a,a,b\n1,2,3', config: { header: true }, expected: {} },
	{ description: 'plain', input: 'x,y', expected: {} }
];
var UNPARSE_TESTS = [{ description: 'u', input: [['a']], expected: 'a' }];
describe('Parse Tests', function () {
	function generateTest(test) {
		it(test.description, function () {
			var actual = Papa.parse(test.input, test.config);
		});
	}
	for (var i = 0; i < PARSE_TESTS.length; i++) {
		generateTest(PARSE_TESTS[i]);
	}
});
describe('Unparse Tests', function () {
	function generateTest(test) {
		it(test.description, function () {
			var actual = Papa.unparse(test.input, test.config);
		});
	}
	for (var i = 0; i < UNPARSE_TESTS.length; i++) {
		generateTest(UNPARSE_TESTS[i]);
	}
});
`)
	got := calls(Harvest(module, "CsvToJson", []*File{test}, 0))
	want := []string{
		"|'a,a,b\\n1,2,3', { header: true }|test|tests/test-cases.js:3",
		"|'x,y', undefined|test|tests/test-cases.js:4",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls through the index loop (-want +got):\n%s", diff)
	}
}

// TestHarvestThroughATestHelper reads a test file's own helper that passes
// its parameters on to the function (fecha's testParse(name, str, format,
// date) calls fecha.parse(str, format)) as a call of the function with the
// helper call's literal arguments; the tests load the module's build
// (./lib/fecha.umd), which is the module under another name.
func TestHarvestThroughATestHelper(t *testing.T) {
	module := parse(t, "src/fecha.ts", `export function parse(dateStr: string, format: string): Date | null { return null; }
export const format = (d: Date, mask: string): string => "";
`)
	test := parse(t, "test.js", `var fecha = require("./lib/fecha.umd");
var test = require("painless").createGroup();
function testParse(name, str, format, date) {
  test(name, function() {
    assert.equal(+fecha.parse(str, format), +date);
  });
}
const later = (str) => fecha.parse(str, "HH:mm");
function unrelated(a) { return a + 1; }
testParse("leap", "2019-02-29 00:00:00Z", "YYYY-MM-DD HH:mm:ssZ", new Date(Date.UTC(2019, 2, 1)));
testParse("short", "0:20:30", "H:mm:ss", new Date(2020, 0, 1));
testParse("no format", "0:20:30", someFormat(), null);
later("10:20");
unrelated(3);
`)
	got := calls(Harvest(module, "parse", []*File{test}, 0))
	want := []string{
		`|"2019-02-29 00:00:00Z", "YYYY-MM-DD HH:mm:ssZ"|test|test.js:10`,
		`|"0:20:30", "H:mm:ss"|test|test.js:11`,
		`|"10:20", "HH:mm"|test|test.js:13`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// TestHarvestConcatenatedStrings: a string a test builds with + of
// literals, in a variable of its own body (URI.js' withinString tests), is
// the one string it makes; + with anything else is no literal.
func TestHarvestConcatenatedStrings(t *testing.T) {
	test := parse(t, "t.test.js", "import { f } from './m';\n"+
		"test('a', () => {\n  var source = 'Hello www.example.com,\\n'\n    + \"see \" + `www.`;\n  f(source, function (u) { return u; });\n});\n"+
		"f('a' + 1);\nf('a' + x);\n")
	got := calls(Harvest(nil, "f", []*File{test}, 0))
	want := []string{`|"Hello www.example.com,\nsee www.", ` + Callback + `|test|t.test.js:5`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHarvestFactoryReceiver: a method of a class its module does not
// export is called on what the module's exports build (bigInt(3).modInv(11),
// m.parse("1.2").bump()), directly or through a const; the receiver is
// written as the export's name and the call's literal arguments, and an
// object of the module's class handed to the method (new BN(2)) is a
// literal too.
func TestHarvestFactoryReceiver(t *testing.T) {
	module := parse(t, "BigInteger.js", "var bigInt = (function () {\n  function BigInteger(v) { this.v = v; }\n"+
		"  BigInteger.prototype.modInv = function (n) { return this; };\n  return function (v) { return new BigInteger(v); };\n})();\nmodule.exports = bigInt;\n")
	test := parse(t, "spec/spec.js", "var bigInt = require('../BigInteger.js');\n"+
		"expect(bigInt(3).modInv(11)).toEqual(4);\n"+
		"const m = bigInt('-50');\nm.modInv(83);\n"+
		"bigInt.parse('7').modInv(new BN(2));\n"+
		"other(3).modInv(5);\n"+
		"bigInt(x).modInv(5);\n")
	got := calls(Harvest(module, "BigInteger.modInv", []*File{test}, 0))
	want := []string{
		"default(3)|11|test|spec/spec.js:2",
		"default('-50')|83|test|spec/spec.js:4",
		"parse('7')|new BN(2)|test|spec/spec.js:5",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHarvestBuilderChain: a builder API's tests make their objects by a
// chain of calls on what the package's index exports (zod: import * as z
// from "../index"; z.string().datetime({ offset: true }).parse(...)),
// directly or through a const; the receiver is the chain, the index's
// namespace the module's (it re-exports it), an index of another
// directory not.
func TestHarvestBuilderChain(t *testing.T) {
	module := parse(t, "src/types.ts", "export class ZodType { parse(x: unknown) { return x; } }\nexport class ZodString extends ZodType {}\nconst stringType = () => new ZodString();\nexport { stringType as string };\n")
	test := parse(t, "src/__tests__/string.test.ts", `import * as z from "../index";
import * as other from "../../lib/index";
const d = z.string().datetime({ offset: true });
d.parse("2020-10-14T17:42:29+0000");
z.string().min(3).parse("ab");
other.string().parse("x");
z.string().min(n).parse("y");
`)
	got := Harvest(module, "ZodType.parse", []*File{test}, 0)
	if diff := cmp.Diff([]string{
		`string().datetime({ offset: true })|"2020-10-14T17:42:29+0000"|test|src/__tests__/string.test.ts:4`,
		`string().min(3)|"ab"|test|src/__tests__/string.test.ts:5`,
	}, calls(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var built []*Built
	for _, in := range got {
		built = append(built, in.Built)
	}
	want := []*Built{
		{Factory: "string", Then: []Step{{Method: "datetime", Args: []string{"{ offset: true }"}}}},
		{Factory: "string", Then: []Step{{Method: "min", Args: []string{"3"}}}},
	}
	if diff := cmp.Diff(want, built, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("the receivers' making (-want +got):\n%s", diff)
	}
}

// TestHarvestReceiverFromAFactoryElsewhere: a class's objects are made by
// a function of another module of the package, which the tests import by
// name from the package's directory (cron-schedule: import {
// parseCronExpression } from "../src"; parseCronExpression("0 12 * * *")
// .getPrevDate(...)); the receiver is that call, its module the one the
// test imported it from. A name imported from a package outside the
// repository is not a factory.
func TestHarvestReceiverFromAFactoryElsewhere(t *testing.T) {
	module := parse(t, "src/cron.ts", "export class Cron { getPrevDate(d: Date): Date { return d; } }\n")
	test := parse(t, "test/cron.test.ts", `import { parseCronExpression as parse } from "../src";
import { wrap } from "some-package";
test("prev", () => {
  expect(parse("*/5 * * * *").getPrevDate(new Date(2001, 2, 12, 0, 37, 48))).toStrictEqual(new Date(2001, 2, 12, 0, 35, 0));
  expect(wrap("x").getPrevDate(new Date(2001, 2, 12))).toBe(1);
});
`)
	got := Harvest(module, "Cron.getPrevDate", []*File{test}, 0)
	if diff := cmp.Diff([]string{
		`parseCronExpression("*/5 * * * *")|new Date(2001, 2, 12, 0, 37, 48)|test|test/cron.test.ts:4`,
	}, calls(got)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	want := &Built{Module: "src", Factory: "parseCronExpression", Args: []string{`"*/5 * * * *"`}}
	if diff := cmp.Diff(want, got[0].Built, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("the receiver's making (-want +got):\n%s", diff)
	}
}

// TestHarvestTableThroughNamedCallback reads the older table form: a var
// inside a describe holding rows of objects, handed to forEach by the
// name of a function that declares one it per row (number-to-words'
// toOrdinal spec).
func TestHarvestTableThroughNamedCallback(t *testing.T) {
	test := parse(t, "spec/toOrdinalSpec.js", `'use strict';
var toOrdinal = require('../src/toOrdinal');

describe('toOrdinal', function () {
    var tests = [
        { input: -11, expect: '-11th' },
        { input: 2, expect: '2nd' }
    ];

    function addTest(test) {
        it('should, if passed ' + test.input, function () {
            expect(toOrdinal(test.input)).toEqual(test.expect);
        });
    }

    tests.forEach(addTest);
});
`)
	if got, want := calls(Harvest(nil, "toOrdinal", []*File{test}, 0)), []string{
		"|-11|table|spec/toOrdinalSpec.js:6",
		"|2|table|spec/toOrdinalSpec.js:7",
	}; !cmp.Equal(want, got) {
		t.Errorf("toOrdinal (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestHarvestMethodsCalledOnTheResult: a factory's tests look at what it
// built by calling its methods (a parser combinator's parser.parse("1")),
// on the call itself or on the name a declaration of its block gives it;
// a call with an argument that is not a literal, or on another name, is
// not one of them.
func TestHarvestMethodsCalledOnTheResult(t *testing.T) {
	module := parse(t, "src/parsimmon.js", "function regexp(re, group) { return { parse: function (s) { return s; } }; }\nmodule.exports = { regexp: regexp };\n")
	test := parse(t, "test/regexp.test.js", `var P = require("../src/parsimmon");
it("parses", function () {
  var parser = P.regexp(/[0-9]/);
  assert.equal(parser.parse("1").value, "1");
  assert.deepEqual(parser.parse("x0"), {});
  other.parse("2");
  parser.parse(x);
});
it("groups", function () {
  assert.equal(P.regexp(/(\w)(\d)/, 1).parse("a1").value, "a");
});
`)
	var got []string
	for _, in := range Harvest(module, "regexp", []*File{test}, 0) {
		var steps []string
		for _, st := range in.Calls {
			steps = append(steps, st.Method+"("+strings.Join(st.Args, ", ")+")")
		}
		got = append(got, strings.Join(in.Args, ", ")+" -> "+strings.Join(steps, " "))
	}
	want := []string{`/[0-9]/ -> parse("1") parse("x0")`, `/(\w)(\d)/, 1 -> parse("a1")`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHarvestThroughASetupGlobal: mocha's setup file makes the module a
// global (global.Parsimmon = require("..")), and the test files call it
// by that name without requiring it; a global bound to another module is
// not it.
func TestHarvestThroughASetupGlobal(t *testing.T) {
	module := parse(t, "src/parsimmon.js", "function regexp(re) { return re; }\nmodule.exports = { regexp: regexp };\n")
	setup := parse(t, "test/setup.js", "\"use strict\";\nglobal.assert = require(\"chai\").assert;\nglobal.Parsimmon = require(\"..\");\nglobal.Other = require(\"../other\");\n")
	test := parse(t, "test/core/regexp.test.js", "it('x', function () {\n  Parsimmon.regexp(/a/);\n  Other.regexp(/b/);\n});\n")
	got := calls(Harvest(module, "regexp", []*File{test, setup}, 0))
	want := []string{"|/a/|test|test/core/regexp.test.js:2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
