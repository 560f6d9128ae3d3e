package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A clone has no test framework installed: premise's stand-ins run the
// tests of the common ones (mocha's BDD and QUnit globals, Jest and
// Vitest with expect and each-tables, node:test, ava, tape, tap, chai),
// CommonJS and ES modules and TypeScript alike, each test's outcome its
// own; a test that needs what no stand-in has (a snapshot) is not made,
// not a failure, and a file that imports a package absent from the tree
// loads with a stand-in for it (TestNodeTestsStandInForAbsentPackages).
func TestNodeTestsStandInForFrameworks(t *testing.T) {
	t.Parallel()
	needNode(t)
	lib := "exports.add = (a, b) => a + b;\nexports.boom = () => { throw new TypeError('bad input'); };\n"
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "x"}`,
		"lib.js":       lib,
		"test/mocha.js": `const assert = require('assert');
const lib = require('../lib');
describe('add', function () {
  let n;
  beforeEach(function () { n = 1; });
  it('adds', function () { assert.strictEqual(lib.add(n, 2), 3); });
  it('is wrong', function () { assert.strictEqual(lib.add(n, 2), 4); });
  it('calls back', function (done) { setTimeout(done, 1); });
  it.skip('skipped', function () {});
});
`,
		"test/qunit.js": `var assert = require('assert');
var lib = require('../lib');
suite('qunit');
test('adds', function () { assert.equal(lib.add(1, 1), 2); });
`,
		"test/jest.test.js": `const { add, boom } = require('../lib');
test.each([[1, 2, 3], [2, 2, 5]])('add(%i, %i)', (a, b, want) => { expect(add(a, b)).toBe(want); });
it('throws', () => { expect(() => boom()).toThrow(/bad/); expect(() => add()).not.toThrow(); });
it('matchers', () => { expect({a: [1, {b: undefined}]}).toEqual({a: [1, {}]}); expect([1, 2]).toHaveLength(2); expect('abc').toMatch('b'); expect(null).toBeNull(); expect([3]).toContain(3); });
it('snapshots', () => { expect(add(1, 2)).toMatchSnapshot(); });
`,
		"test/vitest.spec.ts": `import { describe, it, expect } from "vitest";
import { add } from "../lib";
const cases: [number, number][] = [[1, 2]];
describe("ts", () => { it.each(cases)("add %i", (a: number, b: number) => { expect(add(a, b)).toStrictEqual(3); }); });
`,
		"test/node.test.js": `const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../lib');
test('top', async (t) => {
  await t.test('inner ok', () => { assert.equal(add(1, 1), 2); });
  await t.test('inner bad', () => { assert.equal(add(1, 1), 3); });
});
`,
		"test/ava.js": `const test = require('ava');
const { add, boom } = require('../lib');
test('ava is', t => { t.is(add(1, 1), 2); t.throws(() => boom(), { instanceOf: TypeError }); });
test('ava bad', t => { t.deepEqual([add(1, 1)], [3]); });
`,
		"test/tap.js": `const t = require('tap');
const { add } = require('../lib');
t.test('tap', (t) => { t.equal(add(1, 1), 2); t.same({a: 1}, {a: 1}); t.end(); });
t.test('tap plan', (t) => { t.plan(1); setTimeout(() => t.equal(add(2, 2), 5), 1); });
`,
		"test/tape.js": `const test = require('tape');
const { add } = require('../lib');
test('tape', (t) => { t.equal(add(1, 1), 2); t.end(); });
`,
		"test/chai.js": `const { expect, assert } = require('chai');
const { add, boom } = require('../lib');
it('chai', () => { expect(add(1, 1)).to.equal(2); expect([1]).to.deep.equal([1]); expect(boom).to.throw(TypeError); assert.isNull(null); assert.lengthOf([1], 1); expect(add(1,1)).to.not.equal(3); });
it('chai bad', () => { expect(add(1, 1)).to.be.above(5); });
`,
		"test/absent.js": "const x = require('left-pad');\nit('never', () => {});\n",
	})
	tests := []string{"test/mocha.js", "test/qunit.js", "test/jest.test.js", "test/vitest.spec.ts", "test/node.test.js", "test/ava.js", "test/tap.js", "test/tape.js", "test/chai.js", "test/absent.js"}
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Tests: tests, Seconds: 30})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	got := outcomesOf(run)
	want := map[string]string{
		"test/mocha.js > add > adds":       "passed",
		"test/mocha.js > add > is wrong":   "failed",
		"test/mocha.js > add > calls back": "passed",
		"test/mocha.js > add > skipped":    "skipped",
		"test/qunit.js > qunit > adds":     "passed",
		"test/jest.test.js > add(1, 2)":    "passed",
		"test/jest.test.js > add(2, 2)":    "failed",
		"test/jest.test.js > throws":       "passed",
		"test/jest.test.js > matchers":     "passed",
		"test/jest.test.js > snapshots":    "not made: a snapshot the base has not written",
		"test/vitest.spec.ts > ts > add 1": "passed",
		"test/node.test.js > top":          "failed",
		"test/ava.js > ava is":             "passed",
		"test/ava.js > ava bad":            "failed",
		"test/tap.js > tap":                "passed",
		"test/tap.js > tap plan":           "failed",
		"test/tape.js > tape":              "passed",
		"test/chai.js > chai":              "passed",
		"test/chai.js > chai bad":          "failed",
		"test/absent.js > never":           "passed",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
	if why, ok := run.Files["test/absent.js"]; ok {
		t.Errorf("test/absent.js does not load: %q; want it loaded with a stand-in for left-pad", why)
	}
	if o := run.Tests["test/node.test.js > top"].Outcome; !strings.Contains(o, "inner bad") {
		t.Errorf("node:test's failing subtest is not named: %q", o)
	}
}

// A test file or its helper that imports a package the clone has not
// installed (fast-equals' suites build React elements at load time with
// react, a devDependency) loads with a stand-in for it, CommonJS, ES
// module and TypeScript alike: its tests that never use the package
// have their own outcomes, where the file did not load at all before,
// and one that uses it as it runs is not made. A missing file of the
// tree itself still fails to load.
func TestNodeTestsStandInForAbsentPackages(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "x"}`,
		"lib.js":       "exports.same = (a, b) => a === b;\n",
		"test/helpers/suites.js": `const React = require('react');
module.exports = [{ a: React.createElement('div', { key: 1 }), b: React.createElement('div', { key: 2 }) }];
`,
		"test/cjs.test.js": `const suites = require('./helpers/suites');
const { same } = require('../lib');
it('equal', () => { expect(same(1, 1)).toBe(true); });
it('unequal', () => { expect(same(1, 2)).toBe(true); });
it('elements', () => { expect(suites.length).toBe(1); });
it('uses react', () => { expect(suites[0].a.props).toBe(1); });
`,
		"test/esm.test.mjs": `import React, { createElement, Fragment as F } from 'react';
import { render } from '@testing-library/react';
import lib from '../lib.js';
const el = createElement(F, null);
it('esm', () => { expect(lib.same(2, 2)).toBe(true); });
`,
		"test/ts.test.ts": `import { createElement } from 'react';
import * as React from 'react';
import { same } from '../lib';
const el: unknown = createElement('span');
const other: unknown = React.createElement(React.Fragment, null);
it('ts', () => { expect(same('a', 'a')).toBe(true); });
`,
		"test/own.test.js":   "require('../lib/missing');\nit('never', () => {});\n",
		"test/plain.test.js": "const { same } = require('../lib');\nit('plain', () => { expect(same(3, 3)).toBe(true); });\n",
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30,
		Tests: []string{"test/cjs.test.js", "test/esm.test.mjs", "test/ts.test.ts", "test/own.test.js", "test/plain.test.js"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := map[string]string{
		"test/cjs.test.js > equal":    "passed",
		"test/cjs.test.js > unequal":  "failed",
		"test/cjs.test.js > elements": "passed",
		// It checks what react built: not made, not failed.
		"test/cjs.test.js > uses react": "not made: react, a package the clone lacks",
		"test/esm.test.mjs > esm":       "passed",
		"test/ts.test.ts > ts":          "passed",
		"test/plain.test.js > plain":    "passed",
	}
	if d := cmp.Diff(want, outcomesOf(run)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
	// The files that needed a stand-in run after those that did not: the
	// tests' time goes first to tests that all count.
	if len(run.Order) == 0 || run.Order[0] != "test/plain.test.js > plain" {
		t.Errorf("order %q: want test/plain.test.js's test first", run.Order)
	}
	if d := cmp.Diff(map[string][]string{"test/cjs.test.js": {"react"}, "test/esm.test.mjs": {"@testing-library/react", "react"}, "test/ts.test.ts": {"react"}}, run.StoodIn); d != "" {
		t.Errorf("stood in (-want +got):\n%s", d)
	}
	if why := run.Files["test/own.test.js"]; !strings.Contains(why, "missing") {
		t.Errorf("test/own.test.js: %q, want it not loaded, naming the tree's missing file", why)
	}
}

// The test helpers a clone has not installed that premise has a working
// copy of run as the packages do, so the tests that use them have their
// own outcomes where they were not made before: expect.js, should and
// @hapi/code's assertion chains, lab's script, and the dedent tags tests
// write multi-line inputs and outputs with (dedent, dedent-js, ts-dedent,
// outdent, strip-indent, common-tags), deep-freeze, and the small helpers
// of tape suites (for-each, has-symbols, globalthis, mock-property). Each
// failing test shows the assertion checks; a package the tree has
// installed runs as itself.
func TestNodeTestsStandInForTestHelpers(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "x"}`,
		"lib.js":       "exports.add = (a, b) => a + b;\nexports.boom = () => { throw new RangeError('out of range'); };\n",
		"test/expectjs.js": `var expect = require('expect.js');
var lib = require('../lib');
describe('expect.js', function () {
  it('passes', function () {
    expect(lib.add(1, 2)).to.be(3);
    expect(lib.add(1, 2)).to.equal(3);
    expect([lib.add(1, 1)]).to.eql([2]);
    expect(lib.add(1, 1)).to.not.be(3);
    expect('abc').to.be.a('string');
    expect([1]).to.be.an('array');
    expect(lib.add(2, 2)).to.be.within(3, 5);
    expect(lib.boom).to.throwException(function (e) { expect(e).to.be.a(RangeError); });
    expect(lib.boom).to.throwError(/range/);
    expect('abc').to.match(/b/);
    expect([1, 2]).to.have.length(2);
    expect({ a: 1 }).to.have.property('a', 1);
    expect(1).to.be.ok();
  });
  it('be fails', function () { expect(lib.add(1, 2)).to.be(4); });
  it('callback fails', function () { expect(lib.boom).to.throwException(function (e) { expect(e).to.be.a(TypeError); }); });
});
`,
		"test/should.js": `require('should');
var Lab = require('lab');
var lab = exports.lab = Lab.script();
var it = lab.test;
var describe = lab.experiment;
var lib = require('../lib');
describe('should', function () {
  it('passes', function (done) {
    lib.add(1, 2).should.equal(3);
    ({ a: [lib.add(1, 1)] }).should.eql({ a: [2] });
    ({}).should.be.an.instanceOf(Object);
    'abc'.should.be.a.String();
    ({ a: 1 }).should.deepEqual({ a: 1 });
    (null === null).should.be.true();
    lib.boom.should.throw(/range/);
    done();
  });
  it('fails', function (done) { lib.add(1, 2).should.eql(4); done(); });
  it('deepEqual fails', function (done) { ({ a: [lib.add(1, 1)] }).should.deepEqual({ a: [3] }); done(); });
});
`,
		"test/code.js": `const { expect } = require('@hapi/code');
const { describe, it } = exports.lab = require('@hapi/lab').script();
const lib = require('../lib');
describe('code', () => {
  it('passes', () => {
    expect([lib.add(1, 1)]).to.equal([2]);
    expect(lib.add(1, 1)).to.be.a.number();
    expect(null).to.not.exist();
    expect(lib.boom).to.throw(RangeError, 'out of range');
  });
  it('shallow fails', () => { expect([lib.add(1, 1)]).to.shallow.equal([2]); });
});
`,
		"test/dedent.test.js": `const dedent = require('dedent');
const dedentJs = require('dedent-js');
const { stripIndent, oneLine } = require('common-tags');
const stripIndentPlain = require('strip-indent');
it('dedent', () => {
  expect(dedent` + "`" + `
      a
        b
      c\n
  ` + "`" + `).toBe('a\n  b\nc\n');
  expect(dedent('\n    x\n      y\n  ')).toBe('x\n  y');
});
it('dedent-js', () => {
  expect(dedentJs(` + "`" + `
    SELECT
      a
    FROM t
  ` + "`" + `)).toBe('SELECT\n  a\nFROM t');
});
it('common-tags', () => {
  expect(stripIndent` + "`" + `
    one
      two
  ` + "`" + `).toBe('one\n  two');
  expect(oneLine` + "`" + `
    one
    two
  ` + "`" + `).toBe('one two');
  expect(stripIndentPlain('  a\n    b')).toBe('a\n  b');
});
it('dedent fails', () => { expect(dedent('  a\n   b')).toBe('  a\n   b'); });
it('tape helpers', () => {
  const seen = [];
  require('for-each')({ a: 1, b: 2 }, (v, k) => seen.push(k + v));
  require('for-each')('xy', (c, i) => seen.push(c + i));
  const o = { p: 1 };
  const restore = require('mock-property')(o, 'p', { value: 2 });
  seen.push(o.p);
  restore();
  seen.push(o.p, require('has-symbols/shams')(), require('globalthis')() === globalThis);
  expect(seen).toEqual(['a1', 'b2', 'x0', 'y1', 2, 1, true, true]);
});
it('deep-freeze', () => {
  const o = require('deep-freeze')({ a: { b: [1] } });
  expect(Object.isFrozen(o.a.b)).toBe(true);
});
`,
		"test/esm.test.ts": `import { dedent } from 'ts-dedent';
import outdent from 'outdent';
it('ts-dedent', () => {
  expect(dedent` + "`" + `
    a
      b
  ` + "`" + `).toBe('a\n  b');
});
it('outdent', () => {
  expect(outdent` + "`" + `
    a
      b
  ` + "`" + `).toBe('a\n  b');
});
`,
	})
	tests := []string{"test/expectjs.js", "test/should.js", "test/code.js", "test/dedent.test.js", "test/esm.test.ts"}
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Tests: tests, Seconds: 30})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := map[string]string{
		"test/expectjs.js > expect.js > passes":         "passed",
		"test/expectjs.js > expect.js > be fails":       "failed",
		"test/expectjs.js > expect.js > callback fails": "failed",
		"test/should.js > should > passes":              "passed",
		"test/should.js > should > fails":               "failed",
		"test/should.js > should > deepEqual fails":     "failed",
		"test/code.js > code > passes":                  "passed",
		"test/code.js > code > shallow fails":           "failed",
		"test/dedent.test.js > dedent":                  "passed",
		"test/dedent.test.js > dedent-js":               "passed",
		"test/dedent.test.js > common-tags":             "passed",
		"test/dedent.test.js > dedent fails":            "failed",
		"test/dedent.test.js > deep-freeze":             "passed",
		"test/dedent.test.js > tape helpers":            "passed",
		"test/esm.test.ts > ts-dedent":                  "passed",
		"test/esm.test.ts > outdent":                    "passed",
	}
	if d := cmp.Diff(want, outcomesOf(run)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
	if len(run.StoodIn) != 0 {
		t.Errorf("stood in %v: want none, premise has a working copy of each", run.StoodIn)
	}

	installed := writeTree(t, map[string]string{
		"package.json":                     `{"name": "x"}`,
		"test/installed.test.js":           "const dedent = require('dedent');\nit('installed', () => { expect(dedent('x')).toBe('installed: x'); });\n",
		"node_modules/dedent/package.json": `{"name": "dedent", "main": "index.js"}`,
		"node_modules/dedent/index.js":     "module.exports = (s) => 'installed: ' + s;\n",
	})
	run = RunNodeTests(context.Background(), NodeTests{Dir: installed, BaseDir: installed, Tests: []string{"test/installed.test.js"}, Seconds: 30})
	if o := run.Tests["test/installed.test.js > installed"].Outcome; o != "passed" {
		t.Errorf("a test of the installed dedent: %q (%s), want passed: the tree's own package runs", o, run.Err)
	}
}

// A TypeScript project compiled by tsc to CommonJS without
// esModuleInterop calls what import * as gives it (jsonc-parser's tests:
// import * as assert from 'assert'; assert(ok)): the module itself, as
// tsc compiles it. Under a tsconfig that sets esModuleInterop, a default
// import of a CommonJS module is the module, as there.
func TestNodeTestsTypeScriptImportsAsTscCompilesThem(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json":           `{"name": "x"}`,
		"plain/tsconfig.json":    `{"compilerOptions": {"module": "umd", "strict": true}}`,
		"plain/lib.ts":           "export function one(): number { return 1; }\n",
		"plain/test/a.test.ts":   "import * as assert from 'assert';\nimport * as lib from '../lib';\nsuite('plain');\ntest('calls the namespace', () => { assert(lib.one() === 1); assert.equal(lib.one(), 1); });\n",
		"interop/tsconfig.json":  `{"compilerOptions": {"module": "commonjs", "esModuleInterop": true}}`,
		"interop/test/b.test.ts": "import assert from 'assert';\ntest('default import', () => { assert(true); assert.equal(1, 1); });\n",
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30, Tests: []string{"plain/test/a.test.ts", "interop/test/b.test.ts"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := map[string]string{
		"plain/test/a.test.ts > plain > calls the namespace": "passed",
		"interop/test/b.test.ts > default import":            "passed",
	}
	if d := cmp.Diff(want, outcomesOf(run)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
}

// A Babel project's tests that write import beside require or exports
// (luxon: import { DateTime } from "../../src/luxon"; const Helpers =
// require("../helpers"), and a helpers file of exports.f = ... after an
// import) load as Babel compiles them, to CommonJS; its sources of one
// kind load as Node reads them.
func TestNodeTestsBabelsMixedModules(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json":      `{"name": "x"}`,
		"babel.config.js":   `module.exports = { presets: ["@babel/preset-env"] };`,
		"src/luxon.js":      "export { twice } from './impl/twice.js';\n",
		"src/impl/twice.js": "export function twice(x) { return 2 * x; }\n",
		"test/helpers.js":   "import { twice } from '../src/luxon';\nexports.four = function () { return twice(2); };\n",
		"test/a.test.js":    "import { twice } from '../src/luxon';\nconst Helpers = require('./helpers');\ntest('twice', () => { expect(twice(3)).toBe(6); });\ntest('helper', () => { expect(Helpers.four()).toBe(4); });\n",
		"test/b.test.js":    "import Helpers from './helpers';\ntest('default import of a CommonJS helper', () => { expect(Helpers.four()).toBe(4); });\n",
		"test/c.test.js":    "import { twice } from '../src/luxon';\ntest('plain ES', () => { expect(twice(1)).toBe(2); });\n",
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30, Tests: []string{"test/a.test.js", "test/b.test.js", "test/c.test.js"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := map[string]string{
		"test/a.test.js > twice":                               "passed",
		"test/a.test.js > helper":                              "passed",
		"test/b.test.js > default import of a CommonJS helper": "passed",
		"test/c.test.js > plain ES":                            "passed",
	}
	if d := cmp.Diff(want, outcomesOf(run)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
}

// Jest's and Vitest's mock functions are made (yaml's foldFlowLines tests
// count an onFold callback's calls with jest.fn; its error tests spy on
// process.emitWarning): their calls are recorded and the call matchers
// judge them, and clearAllMocks clears them; a file's settings of the
// runner (vi.setConfig, jest.setTimeout) change nothing and no longer
// stop it loading (immer's suites); what else jest's object offers
// (fake timers) is still not made.
func TestNodeTestsMockFunctions(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "x"}`,
		"lib.js":       "exports.fold = (text, onFold) => { if (text.length > 3) onFold(text.length); return text; };\nexports.warn = (m) => { process.emitWarning(m); return m; };\n",
		"test/a.test.js": `const { fold, warn } = require('../lib');
vi.setConfig({ testTimeout: 2000 });
jest.setTimeout(2000);
let onFold;
beforeEach(() => { onFold = jest.fn(); });
test('folds', () => { fold('abcdef', onFold); expect(onFold).toHaveBeenCalledTimes(1); expect(onFold).toHaveBeenCalledWith(6); expect(onFold.mock.calls).toEqual([[6]]); });
test('no fold', () => { fold('ab', onFold); expect(onFold).not.toHaveBeenCalled(); });
test('wrong count', () => { fold('abcdef', onFold); expect(onFold).toHaveBeenCalledTimes(2); });
test('spy', () => {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => {});
  warn('w');
  expect(spy.mock.calls).toMatchObject([['w']]);
  spy.mockRestore();
  expect(jest.isMockFunction(process.emitWarning)).toBe(false);
});
test('vi', () => { const f = vi.fn().mockReturnValueOnce(1).mockReturnValue(2); expect([f(), f()]).toEqual([1, 2]); });
test('timers', () => { jest.useFakeTimers(); });
test('clear all', () => { const f = jest.fn(); f(1); jest.clearAllMocks(); expect(f).not.toHaveBeenCalled(); });
`,
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30, Tests: []string{"test/a.test.js"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	got := outcomesOf(run)
	for k, v := range got {
		if strings.HasPrefix(v, "failed") {
			got[k] = "failed"
		}
	}
	want := map[string]string{
		"test/a.test.js > folds":       "passed",
		"test/a.test.js > no fold":     "passed",
		"test/a.test.js > wrong count": "failed",
		"test/a.test.js > spy":         "passed",
		"test/a.test.js > vi":          "passed",
		"test/a.test.js > timers":      "not made: jest's mocks",
		"test/a.test.js > clear all":   "passed",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
}

// The tests that run on a side are the base's: a head that edits a test
// file (to pass where its code now fails) runs the base's file instead,
// and the lines a test ran are reported by the side's own file names.
func TestNodeTestsRunTheBasesFiles(t *testing.T) {
	t.Parallel()
	needNode(t)
	base := writeTree(t, map[string]string{
		"lib.js":      "exports.add = (a, b) => {\n  return a + b;\n};\n",
		"lib.test.js": "const {add} = require('./lib');\ntest('add', () => { expect(add(1, 2)).toBe(3); });\n",
	})
	head := writeTree(t, map[string]string{
		"lib.js":      "exports.add = (a, b) => {\n  return a - b;\n};\n",
		"lib.test.js": "const {add} = require('./lib');\ntest('add', () => { expect(add(1, 2)).toBe(-1); });\n",
	})
	abs, _ := filepath.Abs(head)
	run := RunNodeTests(context.Background(), NodeTests{Dir: head, BaseDir: base, Tests: []string{"lib.test.js"}, Seconds: 20,
		Watch: Watch{filepath.Join(abs, "lib.js"): {{From: 1, To: 3}}}})
	r := run.Tests["lib.test.js > add"]
	if !strings.HasPrefix(r.Outcome, "failed") {
		t.Fatalf("the head ran its own test: %q, want the base's to fail (%+v)", r.Outcome, run)
	}
	if d := cmp.Diff(map[string][]int{filepath.Join(abs, "lib.js"): {1, 2}}, r.Lines); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

// A head whose test directory is a link out of its tree does not make
// premise write the base's test files where the link points: the run
// says why it could not lay them over, and nothing lands outside.
func TestNodeTestsLayOverStaysInTheCopy(t *testing.T) {
	t.Parallel()
	needNode(t)
	outside := t.TempDir()
	base := writeTree(t, map[string]string{"lib.js": "exports.a = 1;\n", "test/a.test.js": "test('a', () => {});\n"})
	head := writeTree(t, map[string]string{"lib.js": "exports.a = 2;\n"})
	if err := os.Symlink(outside, filepath.Join(head, "test")); err != nil {
		t.Fatal(err)
	}
	run := RunNodeTests(context.Background(), NodeTests{Dir: head, BaseDir: base, Tests: []string{"test/a.test.js"}, Seconds: 10})
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Fatalf("the base's test was written through the head's link: %v", ents)
	}
	if run.Err == "" {
		t.Errorf("the run says nothing of the test it could not lay over: %+v", run)
	}
}

// A test that never yields cannot be timed out from inside the run:
// premise kills the run past its time, and the test it had started is
// "failed: timed out", the tests before it keep their outcomes. A head
// that ends the process in a test fails that test too.
func TestNodeTestsATestThatNeverYieldsTimesOut(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"lib.js":       "exports.spin = () => { for (;;) {} };\nexports.quit = () => process.kill(process.pid, 'SIGKILL');\n",
		"test/a.js":    "const { spin } = require('../lib');\nit('first', () => {});\nit('spins', () => { spin(); });\nit('after', () => {});\n",
		"test/b.js":    "const { quit } = require('../lib');\nit('quits', () => { quit(); });\nit('after', () => {});\n",
		"package.json": `{"name": "x"}`,
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Tests: []string{"test/a.js"}, Seconds: 2})
	got := map[string]string{}
	for id, r := range run.Tests {
		got[id] = r.Outcome
	}
	want := map[string]string{"test/a.js > first": "passed", "test/a.js > spins": "failed: timed out"}
	if d := cmp.Diff(want, got); d != "" || !run.Stopped {
		t.Errorf("outcomes (-want +got):\n%s\nstopped %v, err %q", d, run.Stopped, run.Err)
	}
	// A test whose code ends the process fails, not left out.
	run = RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Tests: []string{"test/b.js"}, Seconds: 5})
	if o := run.Tests["test/b.js > quits"].Outcome; !strings.HasPrefix(o, "failed: the test ended the run") {
		t.Errorf("test/b.js > quits: %q, want failed: the test ended the run (%+v)", o, run)
	}
}

// TestNodeTestsInlineSnapshotsAndSelfImports: an inline snapshot of a
// primitive is compared as Vitest prints it (a string in double quotes,
// one written over several lines dedented), so a value that differs from
// it fails; one of an object is still not made. A package that imports
// itself by name ("ohash/crypto"), its exports pointing at a dist/ no
// build made, loads from its sources.
func TestNodeTestsInlineSnapshotsAndSelfImports(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json":             `{"name": "selfpkg", "type": "module", "exports": {".": {"types": "./dist/index.d.mts", "default": "./dist/index.mjs"}, "./crypto": {"node": {"types": "./dist/crypto/node/index.d.mts", "default": "./dist/crypto/node/index.mjs"}, "default": "./dist/crypto/js/index.mjs"}}}`,
		"src/index.ts":             "export { digest } from \"selfpkg/crypto\";\nexport function show(v: unknown): string { return String(v); }\n",
		"src/crypto/node/index.ts": "export function digest(s: string): string { return `d:${s}`; }\n",
		"src/crypto/js/index.ts":   "export function digest(s: string): string { return `j:${s}`; }\n",
		"test/snap.test.ts": `import { it, expect } from "vitest";
import { show, digest } from "../src";
it("string", () => { expect(show(1)).toMatchInlineSnapshot(` + "`" + `"1"` + "`" + `); });
it("string wrong", () => { expect(show(2)).toMatchInlineSnapshot(` + "`" + `"1"` + "`" + `); });
it("number", () => { expect(3).toMatchInlineSnapshot("3"); });
it("multi-line", () => { expect(show("a\nb")).toMatchInlineSnapshot(` + "`" + `
    "a
    b"
  ` + "`" + `); });
it("object", () => { expect({a: 1}).toMatchInlineSnapshot(` + "`" + `
    {
      "a": 1,
    }
  ` + "`" + `); });
it("object wrong", () => { expect({a: 1}).toMatchInlineSnapshot(` + "`" + `{ "a": 1 }` + "`" + `); });
it("self import", () => { expect(digest("x")).toBe("d:x"); });
`,
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Tests: []string{"test/snap.test.ts"}, Seconds: 30})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	got := outcomesOf(run)
	want := map[string]string{
		"test/snap.test.ts > string":       "passed",
		"test/snap.test.ts > string wrong": "failed",
		"test/snap.test.ts > number":       "passed",
		"test/snap.test.ts > multi-line":   "passed",
		"test/snap.test.ts > object":       "passed",
		"test/snap.test.ts > object wrong": "failed",
		"test/snap.test.ts > self import":  "passed",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\nfiles: %v", d, run.Files)
	}
	if _, err := os.Stat(filepath.Join(dir, "dist")); !os.IsNotExist(err) {
		t.Errorf("the self-import's stand-in was written into the tree given (%v); only the copy gets one", err)
	}
}

// A test that compares with a snapshot file (Jest's and Vitest's
// __snapshots__/NAME.snap) compares with the base's, the value printed as
// pretty-format prints it in Jest 29 and Vitest ({ "a": 1, }) or older
// Jest (Object { "a": 1, }): the base passes, a head whose value differs
// fails, and a snapshot file the head rewrote to match itself is not
// read. A snapshot the base never wrote is not made.
func TestNodeTestsSnapshotFilesOfTheBase(t *testing.T) {
	t.Parallel()
	needNode(t)
	test := `const { parse } = require('../lib');
describe('parse', () => {
  it('splits', () => {
    expect(parse('a,b')).toMatchSnapshot();
    expect(parse('c')).toMatchSnapshot('one');
  });
  it('throws', () => { expect(() => parse(1)).toThrowErrorMatchingSnapshot(); });
  it('unwritten', () => { expect(parse('d')).toMatchSnapshot(); });
  it('inline', () => {
    expect(new Map([['k', [parse('e')]]])).toMatchInlineSnapshot(` + "`" + `
      Map {
        "k" => [
          {
            "name": "e",
            "parts": [
              "e",
            ],
          },
        ],
      }
    ` + "`" + `);
  });
});
`
	jest29 := "// Jest Snapshot v1, https://goo.gl/fbAQLP\n\n" +
		"exports[`parse splits 1`] = `\n{\n  \"name\": \"a,b\",\n  \"parts\": [\n    \"a\",\n    \"b\",\n  ],\n}\n`;\n\n" +
		"exports[`parse splits: one 1`] = `\n{\n  \"name\": \"c\",\n  \"parts\": [\n    \"c\",\n  ],\n}\n`;\n\n" +
		"exports[`parse throws 1`] = `\"s.split is not a function\"`;\n"
	older := "// Jest Snapshot v1, https://goo.gl/fbAQLP\n\n" +
		"exports[`old 1`] = `\nObject {\n  \"name\": \"a,b\",\n  \"parts\": Array [\n    \"a\",\n    \"b\",\n  ],\n}\n`;\n"
	base := writeTree(t, map[string]string{
		"package.json":                          `{"name": "x"}`,
		"lib.js":                                "exports.parse = (s) => ({ name: s, parts: s.split(',') });\n",
		"test/parse.test.js":                    test,
		"test/__snapshots__/parse.test.js.snap": jest29,
		"test/old.test.js":                      "const { parse } = require('../lib');\nit('old', () => { expect(parse('a,b')).toMatchSnapshot(); });\n",
		"test/__snapshots__/old.test.js.snap":   older,
	})
	head := writeTree(t, map[string]string{
		"package.json":                          `{"name": "x"}`,
		"lib.js":                                "exports.parse = (s) => ({ name: s, parts: s.split(',').reverse() });\n",
		"test/__snapshots__/parse.test.js.snap": strings.Replace(jest29, `\"a\",\n    \"b\"`, `\"b\",\n    \"a\"`, 1),
	})
	tests := []string{"test/parse.test.js", "test/old.test.js"}
	want := map[string]map[string]string{
		base: {
			"test/parse.test.js > parse > splits":    "passed",
			"test/parse.test.js > parse > throws":    "passed",
			"test/parse.test.js > parse > unwritten": "not made: a snapshot the base has not written",
			"test/parse.test.js > parse > inline":    "passed",
			"test/old.test.js > old":                 "passed",
		},
		head: {
			"test/parse.test.js > parse > splits":    "failed",
			"test/parse.test.js > parse > throws":    "passed",
			"test/parse.test.js > parse > unwritten": "not made: a snapshot the base has not written",
			"test/parse.test.js > parse > inline":    "passed",
			"test/old.test.js > old":                 "failed",
		},
	}
	for _, side := range []string{base, head} {
		run := RunNodeTests(context.Background(), NodeTests{Dir: side, BaseDir: base, Tests: tests, Seconds: 30})
		if run.Err != "" {
			t.Fatal(run.Err)
		}
		if d := cmp.Diff(want[side], outcomesOf(run)); d != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s\n%+v", filepath.Base(side), d, run)
		}
	}
}

// A test file that imports a name its module does not export loads as
// Vitest and Jest load it, the name undefined (immer's map-set tests take
// DRAFT_STATE from a module that only imports it), where a native ES
// module was refused and its tests told nothing; its other imports of
// that module still work, and a test that needs the name fails as under
// Vitest.
func TestNodeTestsAnImportOfANameNotExported(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json":  `{"name": "x", "type": "module"}`,
		"src/common.js": "export const twice = (x) => 2 * x;\nexport default function one() { return 1; }\n",
		"test/a.test.js": `import one, { twice, MISSING as gone } from '../src/common.js';
it('twice', () => { expect(twice(one())).toBe(2); });
it('missing', () => { expect(gone.size).toBe(0); });
`,
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30, Tests: []string{"test/a.test.js"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := map[string]string{"test/a.test.js > twice": "passed", "test/a.test.js > missing": "failed"}
	if d := cmp.Diff(want, outcomesOf(run)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\nfiles: %v", d, run.Files)
	}
}

// outcomesOf is each test's outcome, a failure's reason left out.
func outcomesOf(run NodeTestRun) map[string]string {
	got := map[string]string{}
	for id, r := range run.Tests {
		o := r.Outcome
		if strings.HasPrefix(o, "failed") {
			o = "failed"
		}
		got[id] = o
	}
	return got
}

// QUnit's tests (jsep's, an ES module using the QUnit global as a browser
// page loads it) run with premise's stand-in: a module without a function
// names the tests after it, one with a function holds its own and its
// hooks; assert.equal compares with ==, deepEqual and throws as QUnit's,
// a failing assertion fails the test, and assert.async() makes the test
// wait for its callback. Before, such a file did not load (QUnit is not
// defined) and its tests told nothing.
func TestNodeTestsStandInForQUnit(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "x", "type": "module"}`,
		"lib.js":       "export const add = (a, b) => a + b;\nexport const boom = () => { throw new TypeError('bad input'); };\n",
		"test/lib.test.js": `import { add, boom } from '../lib.js';
QUnit.module('flat');
QUnit.test('equal is loose', function (assert) { assert.equal(add(1, 1), '2'); assert.strictEqual(add(1, 1), 2); });
QUnit.test('wrong', (assert) => { assert.deepEqual([add(1, 1)], [3]); });
QUnit.module('nested', (hooks) => {
  hooks.beforeEach(function () { this.n = 40; });
  QUnit.test('this from the hook', function (assert) { assert.strictEqual(add(this.n, 2), 42); assert.throws(() => boom(), TypeError); });
  QUnit.test('async', (assert) => { const done = assert.async(); setTimeout(() => { assert.ok(add(1, 1) === 3); done(); }, 5); });
  QUnit.test.each('each', [[1, 2], [2, 3]], (assert, [a, want]) => { assert.strictEqual(add(a, 1), want); });
  QUnit.skip('skipped', () => {});
});
`,
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30, Tests: []string{"test/lib.test.js"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	if why, ok := run.Files["test/lib.test.js"]; ok {
		t.Fatalf("test/lib.test.js does not load: %q", why)
	}
	got := outcomesOf(run)
	want := map[string]string{
		"test/lib.test.js > flat > equal is loose":              "passed",
		"test/lib.test.js > flat > wrong":                       "failed",
		"test/lib.test.js > flat > nested > this from the hook": "passed",
		"test/lib.test.js > flat > nested > async":              "failed",
		"test/lib.test.js > flat > nested > each [0]":           "passed",
		"test/lib.test.js > flat > nested > each [1]":           "passed",
		"test/lib.test.js > flat > nested > skipped":            "skipped",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
}

// A TypeScript test beside a JavaScript test of the same name
// (currency.js' test/test.ts, a check of its typings, beside
// test/test.js, its suite) leaves the JavaScript test as it is: its tests
// run and keep their outcomes. Before, the TypeScript file's output
// replaced it, and neither file's tests ran. A TypeScript source beside
// a JavaScript file of its name still replaces it (the source is what a
// patch changes).
func TestNodeTestsKeepAJavaScriptTestBesideATypeScriptOne(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writeTree(t, map[string]string{
		"package.json": `{"name": "x"}`,
		"lib.ts":       "export const add = (a: number, b: number): number => a + b;\n",
		"lib.js":       "exports.add = () => 0;\n",
		"test/test.js": "const { add } = require('../lib');\nit('adds', () => { expect(add(1, 2)).toBe(3); });\nit('is wrong', () => { expect(add(1, 2)).toBe(4); });\n",
		"test/test.ts": "import add from '../lib';\nconst n: number = add(1, 2);\n",
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: dir, BaseDir: dir, Seconds: 30, Tests: []string{"test/test.js", "test/test.ts"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	if len(run.Files) != 0 {
		t.Errorf("files that did not load: %v; want none", run.Files)
	}
	got := outcomesOf(run)
	want := map[string]string{"test/test.js > adds": "passed", "test/test.js > is wrong": "failed"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
}

// A head's tsconfig.json maps module names for the head's own code, never
// for the merge-base's tests laid over it: a vitest.ts the head adds
// beside its baseUrl does not stand in for premise's vitest, whose expect
// still fails the head that broke add.
func TestNodeTestsHeadTsconfigDoesNotRedirectTheBasesTests(t *testing.T) {
	t.Parallel()
	needNode(t)
	test := "import { test, expect } from 'vitest';\nimport { add } from './lib';\ntest('add', () => { expect(add(1, 2)).toBe(3); });\n"
	base := writeTree(t, map[string]string{
		"package.json": `{"type": "module"}`,
		"lib.ts":       "export const add = (a: number, b: number): number => a + b;\n",
		"lib.test.ts":  test,
	})
	head := writeTree(t, map[string]string{
		"package.json":  `{"type": "module"}`,
		"tsconfig.json": `{"compilerOptions": {"baseUrl": "."}}`,
		"lib.ts":        "export const add = (a: number, b: number): number => a - b;\n",
		"lib.test.ts":   test,
		"vitest.ts":     "export const test = (_: string, fn: () => void) => { try { fn(); } catch {} };\nexport const expect = (_: unknown) => ({ toBe: (_: unknown) => {} });\n",
	})
	run := RunNodeTests(context.Background(), NodeTests{Dir: head, BaseDir: base, Tests: []string{"lib.test.ts"}, Seconds: 20})
	if r := run.Tests["lib.test.ts > add"]; !strings.HasPrefix(r.Outcome, "failed") {
		t.Fatalf("the base's test on the head: %q, want failed: the head's vitest.ts stood in for premise's (%+v)", r.Outcome, run)
	}
}

// TestNodeTestsAfterTheWorkerTranspiledInPlace: evidence's worker
// transpiles TypeScript into premise's private checkout of a side, test
// files too; a run of the base's tests on that checkout afterwards still
// runs a TypeScript test, with the base's version laid over, and not the
// worker's stale output of the side's own (which stood as a JavaScript
// test of its name, so the test did not run at all).
func TestNodeTestsAfterTheWorkerTranspiledInPlace(t *testing.T) {
	t.Parallel()
	needNode(t)
	head := writeTree(t, map[string]string{
		"package.json":     `{"name": "x"}`,
		"src/lib.ts":       "export function one(): number { return 1; }\n",
		"test/one.test.ts": "import * as assert from 'assert';\nimport { one } from '../src/lib';\ntest('one is two', () => { assert.equal(one(), 2); });\n",
	})
	base := writeTree(t, map[string]string{
		"package.json":     `{"name": "x"}`,
		"src/lib.ts":       "export function one(): number { return 1; }\n",
		"test/one.test.ts": "import * as assert from 'assert';\nimport { one } from '../src/lib';\ntest('one is one', () => { assert.equal(one(), 1); });\n",
	})
	a, err := NewNodeAdapter(NodeConfig{Dir: head, Timeout: 5 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := os.Stat(filepath.Join(head, "test", "one.test.js")); err != nil {
		t.Fatalf("the worker was to transpile the test beside its source in the private checkout: %v", err)
	}
	run := RunNodeTests(context.Background(), NodeTests{Dir: head, BaseDir: base, Seconds: 30, Tests: []string{"test/one.test.ts"}})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := map[string]string{"test/one.test.ts > one is one": "passed"}
	if d := cmp.Diff(want, outcomesOf(run)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s\n%+v", d, run)
	}
}
