// premise's runner of the merge-base's JavaScript and TypeScript tests
// (issue 27), on one side's tree in the box. premise embeds this file and
// runs it as
//   NODE [FLAGS] --input-type=module --eval SOURCE SPEC OUT
// (gate/nodetests.go). SPEC is {"files": [ABS, ...], "only": [ID, ...] or
// null, "watch": WATCH, "hook": bool, "seconds": N, "per_test": N}: the
// test files to load, each the merge-base's (laid over the side's tree by
// premise; a TypeScript test already transpiled beside its source), the
// tests to run (all when null), the watch as the Node worker takes it
// (gate/nodecover.go), whether premise transpiled TypeScript to ES
// modules. OUT receives a JSON line a test as each ends, {"id", "outcome",
// "lines"}, one a test file that did not load, {"file", "why"}, and
// {"stopped": true} when the run's time ended it before its last test.
//
// No test framework is installed in a clone, so premise stands in for
// them, as base_tests.py stands in for pytest: node:test, mocha (BDD,
// TDD and QUnit globals: describe/it, suite/test, hooks, this.timeout),
// Jest and Vitest (the same globals, it.each/test.each tables, expect
// with the common matchers), chai's expect and assert, ava, tape and tap
// (test(name, t => ...) with t's assertions and subtests), QUnit
// (QUnit.module and QUnit.test, hooks, assert with async()). Each is a
// module no file of the subject's can replace: require() and import of
// its name return premise's, whatever node_modules holds. A test that
// needs what the stand-ins do not have (a snapshot, a mock timer) is "not
// made": left out, never a failure.
//
// An outcome is "passed", "failed: MESSAGE", "skipped" or "not made:
// WHY". A test's id is its file, then its suites' titles and its own, "
// > " between. lines are the watched lines the test ran (its hooks
// included), read from V8's precise coverage as the worker reads them.
import * as fs from "node:fs";
import * as path from "node:path";
import * as url from "node:url";
import * as nodeModule from "node:module";
import * as util from "node:util";
import * as nodeAssert from "node:assert";

const { writeFileSync, appendFileSync, realpathSync } = fs;
const { pathToFileURL } = url;
const { isDeepStrictEqual, inspect } = util;
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;
const DateNow = Date.now;
const jsonStringify = JSON.stringify; // bound before any subject code runs, as the worker's

const spec = JSON.parse(process.argv[1]);
const outPath = process.argv[2];
process.argv.length = 1;
process.execArgv.length = 0;
const started = DateNow();
const deadline = started + spec.seconds * 1000;
const perTest = (spec.per_test || 5) * 1000;
const only = spec.only ? new Set(spec.only) : null;

class NotMade extends Error {}

// ---- the registry ----

function suiteOf(name, parent, file) {
  return { kind: "suite", name, parent, file, children: [], before: [], after: [], beforeEach: [], afterEach: [], skip: false };
}
let current = null; // the suite tests are registered in
let running = null; // the test running, for assertions made through t
let tdd = null; // a QUnit-style suite(name) with no function

function register(node) {
  const into = tdd && tdd.parent === current ? tdd : current;
  if (into === null) throw new Error("a test registered outside a test file");
  node.parent = into;
  into.children.push(node);
}

// title is a test's or suite's name on one line: a title may start with
// a newline (node-semver's "\ncomparison tests").
function title(name) {
  return String(name).replace(/\s+/g, " ").trim();
}

function addTest(name, fn, style, opts = {}) {
  register({ kind: "test", name: title(name), fn, style, skip: !!opts.skip, notMade: opts.notMade });
}

function addSuite(name, fn, opts = {}) {
  const s = suiteOf(title(name), null, null);
  s.skip = !!opts.skip;
  register(s);
  if (typeof fn === "function") {
    const was = current, wasTdd = tdd;
    current = s;
    tdd = null;
    try {
      fn.call(mochaContext(null));
    } finally {
      current = was;
      tdd = wasTdd;
    }
  }
  return s;
}

function hook(kind) {
  return (a, b) => {
    const fn = typeof a === "function" ? a : b;
    if (typeof fn !== "function") return;
    const into = tdd && tdd.parent === current ? tdd : current;
    if (into) into[kind].push(fn);
  };
}

// ---- formatting of each-tables (Jest, Vitest) ----

function fmt(title, args, index) {
  let i = 0;
  let out = String(title).replace(/%([sdifjopO#%])/g, (m, c) => {
    if (c === "%") return "%";
    if (c === "#") return String(index);
    const v = args[i++];
    if (c === "d" || c === "i") return String(Math.trunc(Number(v)));
    if (c === "f") return String(Number(v));
    if (c === "s") return typeof v === "string" ? v : inspect(v, { depth: 2 });
    return inspect(v, { depth: 2 });
  });
  if (args.length === 1 && args[0] !== null && typeof args[0] === "object" && !Array.isArray(args[0])) {
    out = out.replace(/\$([A-Za-z_][\w.]*)/g, (m, k) => {
      let v = args[0];
      for (const p of k.split(".")) v = v == null ? undefined : v[p];
      return v === undefined ? m : typeof v === "string" ? v : inspect(v, { depth: 2 });
    });
  }
  return out;
}

function eachRows(table, vals) {
  if (Array.isArray(table) && Array.isArray(table.raw)) {
    // A tagged template: the first row names the columns.
    const heads = table.join("").split("|").map((s) => s.trim()).filter(Boolean);
    const rows = [];
    for (let i = 0; i + heads.length <= vals.length; i += heads.length) {
      const o = {};
      heads.forEach((h, k) => (o[h] = vals[i + k]));
      rows.push([o]);
    }
    return rows;
  }
  return Array.from(table, (r) => (Array.isArray(r) ? r : [r]));
}

function each(add) {
  return (table, ...vals) =>
    (title, fn, timeout) => {
      eachRows(table, vals).forEach((args, i) => {
        const wrapped = function (...rest) {
          return fn.apply(this, args.concat(rest.slice(0, Math.max(0, fn.length - args.length))));
        };
        Object.defineProperty(wrapped, "length", { value: Math.max(0, fn.length - args.length) });
        add(fmt(title, args, i), wrapped, timeout);
      });
    };
}

// ---- mocha, Jest, Vitest globals ----

function mochaContext(test) {
  return {
    timeout() { return this; },
    slow() { return this; },
    retries() { return this; },
    skip() { throw new SkipSignal(); },
    test,
    currentTest: test,
  };
}

// suiteContext is a suite's `this`, as mocha has it: one object its
// hooks and tests share (what a before hook sets on this, a test reads),
// a nested suite's inheriting from its parent's.
function suiteContext(s) {
  if (!s.ctx) s.ctx = s.parent ? Object.create(suiteContext(s.parent)) : mochaContext(null);
  return s.ctx;
}

class SkipSignal extends Error {}

function defineTestFn(style) {
  const t = (name, fn, opts) => {
    if (typeof name === "function") [name, fn] = [name.name || "anonymous", name];
    if (typeof fn !== "function") return addTest(name, null, style, { skip: true });
    addTest(name, fn, style, typeof opts === "object" && opts ? opts : {});
  };
  t.skip = (name, fn) => addTest(name, fn, style, { skip: true });
  t.only = t;
  t.todo = (name) => addTest(name, null, style, { skip: true });
  t.each = each((n, f) => t(n, f));
  t.skip.each = each((n, f) => t.skip(n, f));
  t.only.each = t.each;
  t.concurrent = t;
  t.concurrent.each = t.each;
  t.failing = (name) => addTest(name, null, style, { notMade: "a test expected to fail" });
  t.skipIf = (c) => (c ? t.skip : t);
  t.runIf = (c) => (c ? t : t.skip);
  return t;
}

function defineDescribe() {
  const d = (name, fn, opts) => addSuite(name, typeof fn === "function" ? fn : opts);
  d.skip = (name, fn) => addSuite(name, fn, { skip: true });
  d.only = d;
  d.todo = () => {};
  d.each = each((n, f) => d(n, f));
  d.skip.each = each((n, f) => d.skip(n, f));
  d.only.each = d.each;
  d.concurrent = d;
  d.skipIf = (c) => (c ? d.skip : d);
  d.runIf = (c) => (c ? d : d.skip);
  return d;
}

const plainTest = defineTestFn("plain");
const describe = defineDescribe();
const suite = (name, fn) => {
  if (typeof fn === "function") return describe(name, fn);
  // QUnit style: suite(name) names the tests after it, until the next.
  const s = suiteOf(title(name), current, current.file);
  current.children.push(s);
  tdd = s;
};

// ---- assertions: expect ----

function show(v) {
  return inspect(v, { depth: 3, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 });
}

function fail(msg) {
  const e = new Error(msg);
  e.premiseAssertion = true;
  throw e;
}

// looseEquals is Jest's toEqual: own enumerable properties recursively,
// undefined properties ignored, classes not compared.
function looseEquals(a, b, seen = []) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime() || (isNaN(a) && isNaN(b));
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (seen.includes(a)) return true;
  seen = seen.concat([a]);
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !looseEquals(v, b.get(k), seen)) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v) && ![...b].some((w) => looseEquals(v, w, seen))) return false;
    return true;
  }
  if (Array.isArray(a) && a.length !== b.length) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!looseEquals(a[k], b[k], seen)) return false;
  return true;
}

// matchesObject is toMatchObject and tap's has: every property of want
// is in got, alike.
function matchesObject(got, want) {
  if (want === null || typeof want !== "object") return looseEquals(got, want);
  if (got === null || typeof got !== "object") return false;
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => matchesObject(got[i], w));
  return Object.keys(want).every((k) => matchesObject(got[k], want[k]));
}

// prettyFormats are the ways Jest's and Vitest's pretty-format print a
// value in a snapshot, by their two options that differ between versions
// and configurations: Jest 29 and Vitest drop "Object"/"Array" before a
// plain object's or array's braces and print strings as they are, older
// Jest writes both and escapes quotes and backslashes. A snapshot passes
// when it reads as the value in any of them.
function prettyFormats(v) {
  const out = new Set();
  for (const basic of [false, true]) for (const escape of [false, true]) out.add(pretty(v, { basic, escape }, "", []));
  return out;
}

function pretty(v, o, indent, seen) {
  switch (typeof v) {
    case "string":
      return '"' + (o.escape ? v.replace(/"|\\/g, "\\$&") : v) + '"';
    case "number":
      return Object.is(v, -0) ? "-0" : String(v);
    case "bigint":
      return `${v}n`;
    case "boolean":
    case "undefined":
      return String(v);
    case "symbol":
      return v.toString();
    case "function":
      return `[Function ${v.name || "anonymous"}]`;
  }
  if (v === null) return "null";
  if (seen.includes(v)) return "[Circular]";
  const tag = Object.prototype.toString.call(v);
  if (tag === "[object Date]") return Number.isNaN(v.getTime()) ? "Date { NaN }" : v.toISOString();
  if (tag === "[object RegExp]") return String(v);
  if (v instanceof Error) return `[${v.name}: ${v.message}]`;
  const inner = indent + "  ";
  const next = seen.concat([v]);
  const list = (items, open, close) => (items.length === 0 ? open + close : open + "\n" + items.map((i) => inner + i + ",\n").join("") + indent + close);
  const name = (fallback) => {
    const c = v.constructor;
    return c && typeof c.name === "string" && c.name !== "" ? c.name : fallback;
  };
  if (Array.isArray(v)) {
    const items = v.map((x) => pretty(x, o, inner, next));
    const prefix = name("Array") === "Array" ? (o.basic ? "Array " : "") : name("Array") + " ";
    return prefix + list(items, "[", "]");
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return name("TypedArray") + " " + list(Array.from(v, (x) => pretty(x, o, inner, next)), "[", "]");
  if (v instanceof Map) return "Map " + list([...v].map(([k, x]) => pretty(k, o, inner, next) + " => " + pretty(x, o, inner, next)), "{", "}");
  if (v instanceof Set) return "Set " + list([...v].map((x) => pretty(x, o, inner, next)), "{", "}");
  const proto = Object.getPrototypeOf(v);
  const plain = proto === Object.prototype || proto === null;
  const keys = Object.keys(v).sort();
  const items = keys.map((k) => pretty(k, o, inner, next) + ": " + pretty(v[k], o, inner, next));
  for (const s of Object.getOwnPropertySymbols(v)) if (Object.prototype.propertyIsEnumerable.call(v, s)) items.push(s.toString() + ": " + pretty(v[s], o, inner, next));
  const prefix = plain ? (o.basic ? "Object " : "") : name("Object") + " ";
  return prefix + list(items, "{", "}");
}

// thrownFormats are what a thrown error's snapshot may read as: its
// message printed as a string (Jest), or the error itself (Vitest).
function thrownFormats(e) {
  const out = prettyFormats(e && typeof e === "object" && "message" in e ? String(e.message) : e);
  for (const f of prettyFormats(e)) out.add(f);
  return out;
}

// snapTest is the test running, for the snapshots it reads: its file, the
// names of its suites and its own, and how many of each name it read.
let snapTest = null;
const snapFiles = new Map();

// storedSnapshot is the text the base's snapshot file (__snapshots__/
// NAME.snap beside the test file, as Jest and Vitest write it) holds for
// the running test's next snapshot named hint, its names joined as Jest
// joins them or as Vitest does.
function storedSnapshot(hint) {
  const t = snapTest;
  if (t === null) throw new NotMade("a snapshot");
  const key = t.names.join(" ") + (hint ? ": " + hint : "");
  const n = (t.counts.get(key) || 0) + 1;
  t.counts.set(key, n);
  const rel = spec.names[t.file] || t.file;
  const file = path.join(process.cwd(), path.dirname(rel), "__snapshots__", path.basename(rel) + ".snap");
  if (!snapFiles.has(file)) {
    let held = null;
    try {
      const text = fs.readFileSync(file, "utf8");
      held = Object.create(null);
      new Function("exports", text)(held);
    } catch {
      held = null;
    }
    snapFiles.set(file, held);
  }
  const held = snapFiles.get(file);
  if (held === null) throw new NotMade("a snapshot the base has not written");
  for (const sep of [" ", " > "]) {
    const stored = held[t.names.join(sep) + (hint ? ": " + hint : "") + " " + n];
    if (typeof stored === "string") return stored.length > 1 && stored.startsWith("\n") && stored.endsWith("\n") ? stored.slice(1, -1) : stored;
  }
  throw new NotMade("a snapshot the base has not written");
}

// inlineSnapshot is an inline snapshot's text as compared: one written over
// several lines loses its first and last (blank) lines and the indentation
// of its first line from each.
function inlineSnapshot(s) {
  if (!s.includes("\n")) return s;
  const lines = s.split("\n");
  if (lines.length < 3 || lines[0].trim() !== "" || lines[lines.length - 1].trim() !== "") return s;
  const body = lines.slice(1, -1);
  const indent = body[0].match(/^[ \t]*/)[0];
  return body.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join("\n");
}

function thrownBy(fn) {
  try {
    fn();
  } catch (e) {
    return { e };
  }
  return null;
}

function errorMatches(e, expected) {
  if (expected === undefined) return true;
  const msg = e && typeof e === "object" && "message" in e ? String(e.message) : String(e);
  if (typeof expected === "string") return msg.includes(expected);
  if (expected instanceof RegExp) return expected.test(msg);
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && e instanceof expected) return true;
    if (expected.prototype === undefined || expected === Error || Error.isPrototypeOf(expected)) return false;
    try {
      return expected(e) === true;
    } catch {
      return false;
    }
  }
  if (expected && typeof expected === "object") {
    if (expected instanceof Error) return msg === expected.message;
    return matchesObject(e, expected);
  }
  return true;
}

function expect(actual) {
  const make = (negate, mode) => {
    const m = {};
    const check = (ok, what) => {
      if (ok === negate) fail(`expect(${show(actual)})${negate ? ".not" : ""}.${what}`);
    };
    const matchers = {
      toBe: (v) => check(Object.is(actual, v), `toBe(${show(v)})`),
      toEqual: (v) => check(looseEquals(actual, v), `toEqual(${show(v)})`),
      toStrictEqual: (v) => check(isDeepStrictEqual(actual, v), `toStrictEqual(${show(v)})`),
      toBeNull: () => check(actual === null, "toBeNull()"),
      toBeUndefined: () => check(actual === undefined, "toBeUndefined()"),
      toBeDefined: () => check(actual !== undefined, "toBeDefined()"),
      toBeTruthy: () => check(!!actual, "toBeTruthy()"),
      toBeFalsy: () => check(!actual, "toBeFalsy()"),
      toBeNaN: () => check(Number.isNaN(actual), "toBeNaN()"),
      toBeGreaterThan: (v) => check(actual > v, `toBeGreaterThan(${show(v)})`),
      toBeGreaterThanOrEqual: (v) => check(actual >= v, `toBeGreaterThanOrEqual(${show(v)})`),
      toBeLessThan: (v) => check(actual < v, `toBeLessThan(${show(v)})`),
      toBeLessThanOrEqual: (v) => check(actual <= v, `toBeLessThanOrEqual(${show(v)})`),
      toBeCloseTo: (v, d = 2) => check(Math.abs(actual - v) < 10 ** -d / 2, `toBeCloseTo(${show(v)})`),
      toBeInstanceOf: (c) => check(actual instanceof c, `toBeInstanceOf(${c && c.name})`),
      toBeTypeOf: (t) => check(typeof actual === t, `toBeTypeOf(${show(t)})`),
      toContain: (v) => check(actual != null && typeof actual.includes === "function" ? actual.includes(v) : [...actual].includes(v), `toContain(${show(v)})`),
      toContainEqual: (v) => check([...actual].some((x) => looseEquals(x, v)), `toContainEqual(${show(v)})`),
      toHaveLength: (n) => check(actual != null && actual.length === n, `toHaveLength(${n})`),
      toMatch: (p) => check(typeof actual === "string" && (p instanceof RegExp ? p.test(actual) : actual.includes(p)), `toMatch(${show(p)})`),
      toMatchObject: (o) => check(matchesObject(actual, o), `toMatchObject(${show(o)})`),
      toHaveProperty: (p, ...v) => {
        let o = actual, ok = true;
        for (const k of Array.isArray(p) ? p : String(p).split(".")) {
          if (o == null || !(k in Object(o))) {
            ok = false;
            break;
          }
          o = o[k];
        }
        check(ok && (v.length === 0 || looseEquals(o, v[0])), `toHaveProperty(${show(p)})`);
      },
      toThrow: (expected) => {
        if (mode === "rejects") return check(errorMatches(actual, expected), `toThrow(${show(expected)})`);
        const got = thrownBy(actual);
        if (negate) return check(got !== null, "toThrow()");
        if (got === null) fail("expected the function to throw");
        if (!errorMatches(got.e, expected)) fail(`expected a throw matching ${show(expected)}, got ${show(got.e && got.e.message)}`);
      },
      toHaveBeenCalled: () => check(calls(actual, "toHaveBeenCalled").length > 0, "toHaveBeenCalled()"),
      toHaveBeenCalledTimes: (n) => check(calls(actual, "toHaveBeenCalledTimes").length === n, `toHaveBeenCalledTimes(${n})`),
      toHaveBeenCalledWith: (...a) => check(calls(actual, "toHaveBeenCalledWith").some((c) => looseEquals(c, a)), `toHaveBeenCalledWith(${show(a)})`),
      toHaveBeenLastCalledWith: (...a) => {
        const c = calls(actual, "toHaveBeenLastCalledWith");
        check(c.length > 0 && looseEquals(c[c.length - 1], a), `toHaveBeenLastCalledWith(${show(a)})`);
      },
      toHaveBeenNthCalledWith: (n, ...a) => {
        const c = calls(actual, "toHaveBeenNthCalledWith");
        check(c.length >= n && looseEquals(c[n - 1], a), `toHaveBeenNthCalledWith(${n}, ${show(a)})`);
      },
      toHaveReturnedWith: (v) => check(mockOf(actual, "toHaveReturnedWith").results.some((r) => r.type === "return" && looseEquals(r.value, v)), `toHaveReturnedWith(${show(v)})`),
      // A snapshot, written in the test or in the base's snapshot file
      // beside it, is compared with the value as pretty-format prints it
      // (prettyFormats); one with property matchers is not made.
      toMatchSnapshot: (a, b) => {
        if (mode !== undefined || (a !== null && typeof a === "object")) throw new NotMade("a snapshot");
        const stored = storedSnapshot(typeof a === "string" ? a : typeof b === "string" ? b : "");
        check(prettyFormats(actual).has(stored), "toMatchSnapshot()");
      },
      toMatchInlineSnapshot: (...a) => {
        const snap = a.length > 0 && typeof a[a.length - 1] === "string" ? a[a.length - 1] : undefined;
        if (mode !== undefined || snap === undefined || a.length > 1) throw new NotMade("a snapshot");
        check(prettyFormats(actual).has(inlineSnapshot(snap)), `toMatchInlineSnapshot(${show(snap)})`);
      },
      toThrowErrorMatchingSnapshot: (hint) => {
        if (mode !== undefined) throw new NotMade("a snapshot");
        const stored = storedSnapshot(typeof hint === "string" ? hint : "");
        const got = thrownBy(actual);
        if (got === null) fail("expected the function to throw");
        check(thrownFormats(got.e).has(stored), "toThrowErrorMatchingSnapshot()");
      },
      toThrowErrorMatchingInlineSnapshot: (snap) => {
        if (mode !== undefined || typeof snap !== "string") throw new NotMade("a snapshot");
        const got = thrownBy(actual);
        if (got === null) fail("expected the function to throw");
        check(thrownFormats(got.e).has(inlineSnapshot(snap)), `toThrowErrorMatchingInlineSnapshot(${show(snap)})`);
      },
    };
    matchers.toThrowError = matchers.toThrow;
    matchers.toBeCalled = matchers.toHaveBeenCalled;
    matchers.toBeCalledTimes = matchers.toHaveBeenCalledTimes;
    matchers.toBeCalledWith = matchers.toHaveBeenCalledWith;
    matchers.lastCalledWith = matchers.toHaveBeenLastCalledWith;
    matchers.toEqualValues = matchers.toEqual;
    for (const [k, f] of Object.entries(matchers)) m[k] = f;
    return new Proxy(m, {
      get(target, k) {
        if (k in target) return target[k];
        if (typeof k === "string" && /^to[A-Z]/.test(k)) {
          return () => {
            throw new NotMade("expect(...)." + k);
          };
        }
        return undefined;
      },
    });
  };
  const e = make(false);
  e.not = make(true);
  const settle = (how) => {
    const wrap = (negate) =>
      new Proxy({}, {
        get(_, k) {
          return async (...args) => {
            let v, rejected = false;
            try {
              v = await actual;
            } catch (err) {
              v = err;
              rejected = true;
            }
            if (rejected !== (how === "rejects")) fail(`expected the promise to ${how === "rejects" ? "reject" : "resolve"}`);
            const inner = expectValue(v, how);
            return (negate ? inner.not : inner)[k](...args);
          };
        },
      });
    const p = wrap(false);
    p.not = wrap(true);
    return p;
  };
  e.resolves = settle("resolves");
  e.rejects = settle("rejects");
  return e;
}

function expectValue(v, mode) {
  const e = expect(v);
  if (mode === "rejects") {
    // toThrow on a rejection's reason
    const orig = e.toThrow;
    e.toThrow = e.toThrowError = (expected) => {
      if (!errorMatches(v, expected)) fail(`expected a rejection matching ${show(expected)}, got ${show(v && v.message)}`);
    };
    e.not.toThrow = () => fail("expected the promise to resolve");
    void orig;
  }
  return e;
}
expect.assertions = () => {};
expect.hasAssertions = () => {};
expect.anything = () => ({ asymmetricMatch: (v) => v != null });
expect.any = (c) => ({ asymmetricMatch: (v) => v instanceof c || typeof v === c.name.toLowerCase() });
expect.extend = () => {
  throw new NotMade("expect.extend");
};

// ---- chai ----

// chaiExpect is chai's expect, and in a dialect the chains of the other
// BDD assertion packages a clone may lack (expectJs, should, codeExpect):
// dialect.deepEqual makes equal deep unless .shallow (@hapi/code);
// dialect.beCalls makes .be(v) an equal (expect.js), and dialect.callback
// a function given to throw a callback on the error (expect.js).
function chaiExpect(actual, message, dialect = {}) {
  const flags = { not: false, deep: !!dialect.deepEqual, last: "" };
  const ok = (cond, what) => {
    if (!!cond === flags.not) fail((message ? message + ": " : "") + `expected ${show(actual)} ${flags.not ? "not " : ""}${what}`);
  };
  const eq = (v) => (flags.deep ? looseEquals(actual, v) : Object.is(actual, v) || actual === v);
  const isA = (t) =>
    typeof t === "function" ? actual instanceof t
    : t === "array" ? Array.isArray(actual)
    : t === "null" ? actual === null
    : t === "date" || t === "regexp" || t === "error" ? Object.prototype.toString.call(actual).toLowerCase() === `[object ${t}]` || (t === "error" && actual instanceof Error)
    : t === "object" ? actual !== null && typeof actual === "object" && !Array.isArray(actual)
    : typeof actual === t;
  const methods = {
    equal: (v) => ok(eq(v), `to equal ${show(v)}`),
    eql: (v) => ok(looseEquals(actual, v), `to deeply equal ${show(v)}`),
    above: (v) => ok(actual > v, `to be above ${v}`),
    below: (v) => ok(actual < v, `to be below ${v}`),
    least: (v) => ok(actual >= v, `to be at least ${v}`),
    most: (v) => ok(actual <= v, `to be at most ${v}`),
    a: (t) => ok(isA(typeof t === "string" ? t.toLowerCase() : t), `to be a ${typeof t === "function" ? t.name : t}`),
    exactly: (v) => ok(Object.is(actual, v) || actual === v, `to be exactly ${show(v)}`),
    within: (lo, hi) => ok(actual >= lo && actual <= hi, `to be within ${lo}..${hi}`),
    between: (lo, hi) => ok(actual > lo && actual < hi, `to be between ${lo} and ${hi}`),
    startWith: (v) => ok(typeof actual === "string" && actual.startsWith(v), `to start with ${show(v)}`),
    endWith: (v) => ok(typeof actual === "string" && actual.endsWith(v), `to end with ${show(v)}`),
    containEql: (v) => ok(typeof actual === "string" ? actual.includes(v) : actual != null && Array.from(actual).some((x) => looseEquals(x, v)), `to contain ${show(v)}`),
    containDeep: (v) => ok(actual != null && matchesObject(actual, v), `to contain ${show(v)}`),
    size: (n) => ok(actual != null && (typeof actual.size === "number" ? actual.size : Object.keys(actual).length) === n, `to have size ${n}`),
    error: (type, msg) => ok(actual instanceof Error && (typeof type !== "function" || actual instanceof type) && errorMatches(actual, typeof type === "function" ? msg : type), `to be an error`),
    fail: (msg) => fail(msg || "explicit failure"),
    ...Object.fromEntries(["string", "number", "boolean", "object", "array", "function", "date", "regexp", "symbol", "bigint"].flatMap((t) => [
      [t, () => ok(isA(t), `to be a ${t}`)],
      [t[0].toUpperCase() + t.slice(1), () => ok(isA(t), `to be a ${t}`)],
    ])),
    include: (v) => ok(typeof actual === "string" ? actual.includes(v) : Array.isArray(actual) ? (flags.deep ? actual.some((x) => looseEquals(x, v)) : actual.includes(v)) : actual && typeof v === "object" ? matchesObject(actual, v) : false, `to include ${show(v)}`),
    lengthOf: (n) => ok(actual != null && actual.length === n, `to have length ${n}`),
    match: (re) => ok(re.test(actual), `to match ${re}`),
    property: (k, ...v) => ok(actual != null && k in Object(actual) && (v.length === 0 || eq.call(null, v[0]) || looseEquals(actual[k], v[0])), `to have property ${k}`),
    instanceOf: (c) => ok(actual instanceof c, `to be an instance of ${c && c.name}`),
    throw: (expected, msg) => {
      const got = thrownBy(actual);
      if (got !== null && dialect.callback && typeof expected === "function" && expected !== Error && !Error.isPrototypeOf(expected) && !(got.e instanceof expected)) {
        expected(got.e); // expect.js: a callback that asserts on what was thrown
        return ok(true, "to throw");
      }
      const matches = got !== null && errorMatches(got.e, expected) && (msg === undefined || errorMatches(got.e, msg));
      ok(matches, `to throw ${show(expected)}`);
    },
    members: (v) => ok(Array.isArray(actual) && actual.length === v.length && v.every((x) => actual.some((y) => looseEquals(x, y))), `to have members ${show(v)}`),
    keys: (...ks) => ok(actual && (Array.isArray(ks[0]) ? ks[0] : ks).every((k) => k in actual), `to have keys ${show(ks)}`),
    closeTo: (v, d) => ok(Math.abs(actual - v) <= d, `to be close to ${v}`),
    oneOf: (list) => ok(list.includes(actual), `to be one of ${show(list)}`),
  };
  const alias = { equals: "equal", eq: "equal", eqls: "eql", gt: "above", greaterThan: "above", lt: "below", lessThan: "below", gte: "least", lte: "most", an: "a", includes: "include", contain: "include", contains: "include", length: "lengthOf", matches: "match", throws: "throw", Throw: "throw", throwException: "throw", throwError: "throw", instanceof: "instanceOf", key: "keys", haveOwnProperty: "property", ownProperty: "property", min: "least", max: "most", type: "a", approximately: "closeTo", Error: "error", RegExp: "regexp", deepEqual: "eql", aboveOrEqual: "least", belowOrEqual: "most", containDeepOrdered: "containDeep" };
  const props = {
    true: () => ok(actual === true, "to be true"),
    false: () => ok(actual === false, "to be false"),
    null: () => ok(actual === null, "to be null"),
    undefined: () => ok(actual === undefined, "to be undefined"),
    Null: () => ok(actual === null, "to be null"),
    Undefined: () => ok(actual === undefined, "to be undefined"),
    ok: () => ok(!!actual, "to be truthy"),
    NaN: () => ok(Number.isNaN(actual), "to be NaN"),
    exist: () => ok(actual != null, "to exist"),
    empty: () => ok(actual != null && (typeof actual === "object" && !Array.isArray(actual) && !(typeof actual.length === "number") ? Object.keys(actual).length === 0 : actual.length === 0), "to be empty"),
    finite: () => ok(Number.isFinite(actual), "to be finite"),
  };
  const chain = new Set(["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of", "same", "but", "does", "still", "also", "own", "nested", "any", "all", "ordered", "only", "part", "the", "it", "should"]);
  const self = new Proxy(function () {}, {
    // expect.js: expect(x).to.be(v)
    apply(_, __, args) {
      if (dialect.beCalls && flags.last === "be") methods.equal(args[0]);
      return self;
    },
    get(_, k) {
      flags.last = k;
      if (k === "shallow") {
        flags.deep = false;
        return self;
      }
      if (k === "not") {
        flags.not = !flags.not;
        return self;
      }
      if (k === "deep") {
        flags.deep = true;
        return self;
      }
      if (typeof k === "string" && chain.has(k)) return self;
      if (typeof k === "string" && Object.hasOwn(props, k)) {
        props[k]();
        return self;
      }
      const name = typeof k === "string" ? alias[k] || k : null;
      if (name && Object.hasOwn(methods, name)) {
        const f = (...a) => {
          methods[name](...a);
          return self;
        };
        // length and a/an are also chains: expect(x).to.have.length(3)
        // and a method's name is a chain before another's: should's
        // x.should.be.an.instanceOf(Object), be.a.String()
        return new Proxy(f, { get: (t, p) => (p === "above" || p === "below" || p === "least" || p === "most" || p === "of" ? ((flags.lengthOf = true), self[p]) : typeof p === "string" && !(p in t) ? self[p] : t[p]) });
      }
      if (k === "then") return undefined;
      throw new NotMade("chai's ." + String(k));
    },
  });
  return self;
}

function chaiAssert(v, msg) {
  if (!v) fail(msg || `expected ${show(v)} to be truthy`);
}
const chaiAssertMethods = {
  equal: (a, b, m) => (a == b ? undefined : fail(m || `expected ${show(a)} to equal ${show(b)}`)),
  notEqual: (a, b, m) => (a != b ? undefined : fail(m || `expected ${show(a)} not to equal ${show(b)}`)),
  strictEqual: (a, b, m) => (a === b ? undefined : fail(m || `expected ${show(a)} to equal ${show(b)}`)),
  notStrictEqual: (a, b, m) => (a !== b ? undefined : fail(m || `expected ${show(a)} not to equal ${show(b)}`)),
  deepEqual: (a, b, m) => (looseEquals(a, b) ? undefined : fail(m || `expected ${show(a)} to deeply equal ${show(b)}`)),
  deepStrictEqual: (a, b, m) => (looseEquals(a, b) ? undefined : fail(m || `expected ${show(a)} to deeply equal ${show(b)}`)),
  notDeepEqual: (a, b, m) => (!looseEquals(a, b) ? undefined : fail(m || `expected ${show(a)} not to deeply equal ${show(b)}`)),
  isTrue: (a, m) => (a === true ? undefined : fail(m || `expected ${show(a)} to be true`)),
  isFalse: (a, m) => (a === false ? undefined : fail(m || `expected ${show(a)} to be false`)),
  isOk: (a, m) => (a ? undefined : fail(m || `expected ${show(a)} to be truthy`)),
  ok: (a, m) => (a ? undefined : fail(m || `expected ${show(a)} to be truthy`)),
  isNotOk: (a, m) => (!a ? undefined : fail(m || `expected ${show(a)} to be falsy`)),
  notOk: (a, m) => (!a ? undefined : fail(m || `expected ${show(a)} to be falsy`)),
  isNull: (a, m) => (a === null ? undefined : fail(m || `expected ${show(a)} to be null`)),
  isNotNull: (a, m) => (a !== null ? undefined : fail(m || "expected not null")),
  isUndefined: (a, m) => (a === undefined ? undefined : fail(m || `expected ${show(a)} to be undefined`)),
  isDefined: (a, m) => (a !== undefined ? undefined : fail(m || "expected a value")),
  isNaN: (a, m) => (Number.isNaN(a) ? undefined : fail(m || `expected ${show(a)} to be NaN`)),
  typeOf: (a, t, m) => ((t === "array" ? Array.isArray(a) : t === "null" ? a === null : typeof a === t) ? undefined : fail(m || `expected ${show(a)} to be a ${t}`)),
  instanceOf: (a, c, m) => (a instanceof c ? undefined : fail(m || `expected an instance of ${c && c.name}`)),
  lengthOf: (a, n, m) => (a != null && a.length === n ? undefined : fail(m || `expected ${show(a)} to have length ${n}`)),
  include: (a, v, m) => ((typeof a === "string" || Array.isArray(a) ? a.includes(v) : matchesObject(a, v)) ? undefined : fail(m || `expected ${show(a)} to include ${show(v)}`)),
  notInclude: (a, v, m) => (!(typeof a === "string" || Array.isArray(a) ? a.includes(v) : matchesObject(a, v)) ? undefined : fail(m || `expected ${show(a)} not to include ${show(v)}`)),
  match: (a, re, m) => (re.test(a) ? undefined : fail(m || `expected ${show(a)} to match ${re}`)),
  notMatch: (a, re, m) => (!re.test(a) ? undefined : fail(m || `expected ${show(a)} not to match ${re}`)),
  property: (a, k, m) => (a != null && k in Object(a) ? undefined : fail(m || `expected property ${k}`)),
  throws: (fn, e, m) => {
    const got = thrownBy(fn);
    if (got === null || !errorMatches(got.e, typeof e === "string" ? e : e) || (m !== undefined && typeof m !== "string" && !errorMatches(got.e, m))) fail(`expected ${fn && fn.name ? fn.name : "the function"} to throw ${show(e)}`);
  },
  doesNotThrow: (fn, m) => (thrownBy(fn) === null ? undefined : fail(m || "expected no throw")),
  fail: (m) => fail(m || "assert.fail()"),
  sameMembers: (a, b, m) => (a.length === b.length && b.every((x) => a.includes(x)) ? undefined : fail(m || `expected the same members as ${show(b)}`)),
  sameDeepMembers: (a, b, m) => (a.length === b.length && b.every((x) => a.some((y) => looseEquals(x, y))) ? undefined : fail(m || `expected the same members as ${show(b)}`)),
  isAbove: (a, b, m) => (a > b ? undefined : fail(m || `expected ${a} above ${b}`)),
  isBelow: (a, b, m) => (a < b ? undefined : fail(m || `expected ${a} below ${b}`)),
  isArray: (a, m) => (Array.isArray(a) ? undefined : fail(m || "expected an array")),
  isString: (a, m) => (typeof a === "string" ? undefined : fail(m || "expected a string")),
  isNumber: (a, m) => (typeof a === "number" ? undefined : fail(m || "expected a number")),
  isObject: (a, m) => (a !== null && typeof a === "object" ? undefined : fail(m || "expected an object")),
  isFunction: (a, m) => (typeof a === "function" ? undefined : fail(m || "expected a function")),
};
Object.assign(chaiAssert, chaiAssertMethods);
const chai = { expect: chaiExpect, assert: chaiAssert, should: () => { throw new NotMade("chai's should"); }, use: () => { throw new NotMade("a chai plugin"); }, config: {} };

// ---- the test helpers a clone may lack ----

// helperStandIns are packages of the tests' own, not installed in the
// clone, that premise has a working copy of: the BDD assertion packages
// whose chains chaiExpect speaks (expect.js, should, @hapi/code), lab's
// script, and the dedent tags tests write multi-line inputs with. Each is
// made when a test file first asks for it and the clone has none of its
// own (an installed package runs as itself).
const helperStandIns = {
  "expect.js": () => expectJs,
  should: () => shouldPackage(),
  code: () => codePackage,
  "@hapi/code": () => codePackage,
  lab: () => labPackage,
  "@hapi/lab": () => labPackage,
  dedent: () => asModule(dedentTag, ["dedent"]),
  "dedent-js": () => asModule(dedentJs, ["dedent"]),
  "ts-dedent": () => asModule(dedentJs, ["dedent"]),
  outdent: () => asModule(outdent, ["outdent"]),
  "strip-indent": () => asModule(stripIndentPlain, []),
  "common-tags": () => ({ stripIndent: commonStripIndent, stripIndents: commonStripIndents, oneLine: commonOneLine, oneLineTrim: commonOneLineTrim }),
  "deep-freeze": () => asModule(deepFreeze, []),
  "deep-freeze-strict": () => asModule(deepFreeze, []),
  // The small helpers of tape suites in the style of object-inspect's
  // and qs's, each what its package does on a modern Node.
  "for-each": () => asModule(forEachItem, []),
  "has-symbols": () => asModule(() => true, []),
  "has-symbols/shams": () => asModule(() => true, []),
  "has-tostringtag": () => asModule(() => true, []),
  "has-tostringtag/shams": () => asModule(() => true, []),
  globalthis: () => asModule(() => globalThis, []),
  "functions-have-names": () => Object.assign(asModule(() => true, []), { functionsHaveConfigurableNames: () => true, boundFunctionsHaveNames: () => true }),
  "mock-property": () => asModule(mockProperty, []),
};

// forEachItem is for-each: fn(value, key, collection) over an array's or
// a string's items, or an object's own enumerable keys.
function forEachItem(list, fn, thisArg) {
  if (typeof fn !== "function") throw new TypeError("iterator must be a function");
  if (Array.isArray(list) || typeof list === "string") {
    for (let i = 0; i < list.length; i++) fn.call(thisArg, typeof list === "string" ? list.charAt(i) : list[i], i, list);
    return;
  }
  for (const k of Object.keys(list)) fn.call(thisArg, list[k], k, list);
}

// mockProperty is mock-property: the property given a value, accessors,
// or deleted, until the function it returns puts it back.
function mockProperty(obj, prop, opts = {}) {
  const had = Object.prototype.hasOwnProperty.call(obj, prop);
  const was = Object.getOwnPropertyDescriptor(obj, prop);
  if (opts.delete) {
    delete obj[prop];
  } else {
    const d = { configurable: true, enumerable: opts.nonEnumerable ? false : was ? was.enumerable : true };
    if ("get" in opts || "set" in opts) {
      if (opts.get) d.get = opts.get;
      if (opts.set) d.set = opts.set;
    } else {
      d.value = "value" in opts ? opts.value : was && was.value;
      d.writable = opts.nonWritable ? false : true;
    }
    Object.defineProperty(obj, prop, d);
  }
  return () => {
    if (had) Object.defineProperty(obj, prop, was);
    else delete obj[prop];
  };
}

// deepFreeze is deep-freeze: the object frozen, and each object or
// function it holds that is not frozen yet.
function deepFreeze(o) {
  Object.freeze(o);
  for (const k of Object.getOwnPropertyNames(o)) {
    const v = o[k];
    if (v !== null && (typeof v === "object" || typeof v === "function") && !Object.isFrozen(v)) deepFreeze(v);
  }
  return o;
}

// asModule is f as a package that exports it as default, as itself
// (module.exports = f) and under names.
function asModule(f, names) {
  f.default = f;
  for (const n of names) f[n] = f;
  return f;
}

function expectJs(actual) {
  return chaiExpect(actual, undefined, { beCalls: true, callback: true });
}
expectJs.version = "0.3.1";

// should is should.js: should(x) and, once a test requires it, x.should
// on every value.
function should(actual) {
  return chaiExpect(actual, undefined, {});
}
should.exist = should.exists = (v, msg) => (v != null ? undefined : fail(msg || `expected ${show(v)} to exist`));
should.not = { exist: (v, msg) => (v == null ? undefined : fail(msg || `expected ${show(v)} not to exist`)) };
should.not.exists = should.not.exist;
let shouldOnObjects = false;
function shouldPackage() {
  if (!shouldOnObjects) {
    shouldOnObjects = true;
    Object.defineProperty(Object.prototype, "should", {
      get() {
        const v = this instanceof String || this instanceof Number || this instanceof Boolean ? this.valueOf() : this;
        return should(v);
      },
      set(v) {
        Object.defineProperty(this, "should", { value: v, writable: true, configurable: true, enumerable: true });
      },
      configurable: true,
      enumerable: false,
    });
  }
  return asModule(should, ["should"]);
}

// @hapi/code: equal is deep unless .shallow.
function codeExpect(actual, prefix) {
  return chaiExpect(actual, prefix, { deepEqual: true });
}
const codePackage = { expect: codeExpect, fail: (m) => fail(m || "code.fail()"), settings: {}, count: () => 0, incomplete: () => null };
codePackage.default = codePackage;

// lab's script: its experiments and tests are this run's suites and
// tests; lab's options object may come before the function.
const labTest = (name, a, b) => (typeof a === "function" ? plainTest(name, a) : plainTest(name, b, a));
const labSuite = (name, a, b) => (typeof a === "function" ? describe(name, a) : describe(name, b, a));
labTest.skip = plainTest.skip;
labTest.only = labTest;
labSuite.skip = describe.skip;
labSuite.only = labSuite;
const labScript = {
  describe: labSuite, experiment: labSuite, suite: labSuite, it: labTest, test: labTest,
  before: hook("before"), after: hook("after"), beforeEach: hook("beforeEach"), afterEach: hook("afterEach"),
};
const labPackage = { script: () => labScript, assertions: codePackage, expect: codeExpect };
labPackage.default = labPackage;

// ---- dedent and its kin, as tags and as plain calls ----

// templateParts are a tag's strings (cooked, or as written when raw) and
// values, or a plain call's one string.
function templateParts(args, raw) {
  const [strings, ...values] = args;
  if (typeof strings === "string") return { parts: [strings], values: [] };
  return { parts: Array.from(raw && strings.raw ? strings.raw : strings), values };
}

function interleave(parts, values) {
  let out = parts[0];
  for (let i = 0; i < values.length; i++) out += String(values[i]) + parts[i + 1];
  return out;
}

// dedentTag is the dedent package: the smallest indentation of a line
// with text is cut from every line that starts with a blank, and the
// whole is trimmed; a tag reads its strings as written, with \n then
// made a line break.
function dedentTag(...args) {
  const tagged = typeof args[0] !== "string";
  const { parts, values } = templateParts(args, true);
  const written = tagged ? parts.map((p) => p.replace(/\\\n[ \t]*/g, "").replace(/\\`/g, "`").replace(/\\\$/g, "$").replace(/\\\{/g, "{")) : parts;
  let text = interleave(written, values);
  let least = null;
  for (const line of text.split("\n")) {
    const m = line.match(/^(\s+)\S+/);
    if (m) least = least === null ? m[1].length : Math.min(least, m[1].length);
  }
  if (least !== null) text = text.split("\n").map((l) => (l[0] === " " || l[0] === "\t" ? l.slice(least) : l)).join("\n");
  text = text.trim();
  return tagged ? text.replace(/\\n/g, "\n") : text;
}
dedentTag.withOptions = () => dedentTag;

// dedentJs is dedent-js and ts-dedent: the last line's break and
// indentation dropped, the smallest indentation after a line break cut
// after each, the first line break dropped.
function dedentJs(...args) {
  const { parts, values } = templateParts(args, false);
  parts[parts.length - 1] = parts[parts.length - 1].replace(/\r?\n([\t ]*)$/, "");
  const sizes = [];
  for (const p of parts) for (const m of p.match(/\n[\t ]+/g) || []) sizes.push(m.length - 1);
  if (sizes.length > 0) {
    const cut = new RegExp(`\n[\t ]{${Math.min(...sizes)}}`, "g");
    for (let i = 0; i < parts.length; i++) parts[i] = parts[i].replace(cut, "\n");
  }
  parts[0] = parts[0].replace(/^\r?\n/, "");
  return interleave(parts, values);
}

// outdent: the first line break and the last, with its indentation, are
// dropped, and the first line's indentation is cut from every line.
function outdent(...args) {
  if (args.length === 1 && args[0] !== null && typeof args[0] === "object" && !Array.isArray(args[0]) && !("raw" in args[0])) return outdent;
  const { parts, values } = templateParts(args, false);
  const first = parts[0].match(/^\r?\n([ \t]*)/);
  if (first) {
    const cut = new RegExp(`(\r?\n)[ \t]{0,${first[1].length}}`, "g");
    for (let i = 0; i < parts.length; i++) parts[i] = parts[i].replace(cut, "$1");
    parts[0] = parts[0].replace(/^\r?\n/, "");
  }
  parts[parts.length - 1] = parts[parts.length - 1].replace(/\r?\n[ \t]*$/, "");
  return interleave(parts, values);
}
outdent.string = (s) => outdent(s);

// stripIndentPlain is strip-indent: the smallest indentation of a line
// with text cut from every line.
function stripIndentPlain(text) {
  const sizes = (String(text).match(/^[ \t]*(?=\S)/gm) || []).map((m) => m.length);
  if (sizes.length === 0) return String(text);
  const least = Math.min(...sizes);
  return least > 0 ? String(text).replace(new RegExp(`^[ \t]{${least}}`, "gm"), "") : String(text);
}

// common-tags' stripIndent, stripIndents, oneLine and oneLineTrim.
function commonStripIndent(...args) {
  const { parts, values } = templateParts(args, false);
  return stripIndentPlain(interleave(parts, values)).trim();
}
function commonStripIndents(...args) {
  const { parts, values } = templateParts(args, false);
  return interleave(parts, values).replace(/^[ \t]+/gm, "").trim();
}
function commonOneLine(...args) {
  const { parts, values } = templateParts(args, false);
  return interleave(parts, values).replace(/(?:\n(?:\s*))+/g, " ").trim();
}
function commonOneLineTrim(...args) {
  const { parts, values } = templateParts(args, false);
  return interleave(parts, values).replace(/(?:\n\s*)/g, "").trim();
}

// ---- t: node:test, ava, tape, tap ----

function makeT(test, style) {
  const t = {};
  const rec = (ok, msg) => {
    test.asserts++;
    if (!ok && test.failure === undefined) test.failure = msg;
    if (test.plan !== undefined && test.asserts >= test.plan) test.finish();
    return ok;
  };
  const strictEq = (a, b) => Object.is(a, b) || a === b;
  const m = (msg, dflt) => (typeof msg === "string" && msg ? msg + ": " : "") + dflt;
  const add = (names, f) => names.forEach((n) => (t[n] = f));
  add(["equal", "equals", "isEqual", "strictEqual", "strictEquals", "is"], (a, b, msg) => rec(strictEq(a, b), m(msg, `expected ${show(b)}, got ${show(a)}`)));
  add(["notEqual", "notEquals", "isNotEqual", "notStrictEqual", "not", "isNot", "doesNotEqual", "isInequal"], (a, b, msg) => rec(!strictEq(a, b), m(msg, `expected not ${show(b)}`)));
  add(["same", "deepEqual", "deepEquals", "isEquivalent", "looseEqual", "looseEquals", "deepLooseEqual", "strictSame", "strictDeepEqual", "deepStrictEqual", "isDeeply"], (a, b, msg) => rec(looseEquals(a, b), m(msg, `expected ${show(b)}, got ${show(a)}`)));
  add(["notSame", "notDeepEqual", "notDeepEquals", "notStrictSame", "notDeepLooseEqual", "notDeepStrictEqual", "isNotDeeply"], (a, b, msg) => rec(!looseEquals(a, b), m(msg, `expected not ${show(b)}`)));
  add(["ok", "true", "truthy", "assert", "assertNot"], (v, msg) => rec(style === "ava" && t.true === t.ok ? !!v : !!v, m(msg, `expected truthy, got ${show(v)}`)));
  t.true = (v, msg) => rec(style === "ava" ? v === true : !!v, m(msg, `expected true, got ${show(v)}`));
  add(["notOk", "false", "falsy", "notok"], (v, msg) => rec(!v, m(msg, `expected falsy, got ${show(v)}`)));
  t.false = (v, msg) => rec(style === "ava" ? v === false : !v, m(msg, `expected false, got ${show(v)}`));
  add(["throws", "throw"], (fn, expected, msg) => {
    if (typeof expected === "string" && msg === undefined && style !== "ava") [expected, msg] = [undefined, expected];
    const got = thrownBy(fn);
    let ok = got !== null;
    if (ok && expected !== undefined && expected !== null) {
      if (style === "ava" && typeof expected === "object" && !(expected instanceof Error)) {
        ok = (expected.instanceOf === undefined || got.e instanceof expected.instanceOf) && (expected.message === undefined || errorMatches(got.e, expected.message)) &&
          (expected.name === undefined || (got.e && got.e.name === expected.name)) && (expected.code === undefined || (got.e && got.e.code === expected.code));
      } else ok = errorMatches(got.e, expected);
    }
    rec(ok, m(msg, got === null ? "expected a throw" : `the throw did not match ${show(expected)}: ${show(got.e && got.e.message)}`));
    return got ? got.e : undefined;
  });
  add(["doesNotThrow", "notThrows", "notThrow"], (fn, msg) => {
    const got = thrownBy(fn);
    rec(got === null, m(typeof msg === "string" ? msg : "", `threw ${show(got && got.e && got.e.message)}`));
  });
  add(["throwsAsync", "rejects"], async (p, expected, msg) => {
    try {
      await (typeof p === "function" ? p() : p);
      rec(false, m(msg, "expected a rejection"));
    } catch (e) {
      rec(expected === undefined || errorMatches(e, expected), m(msg, `the rejection did not match ${show(expected)}`));
      return e;
    }
  });
  add(["notThrowsAsync", "resolves", "resolveMatch"], async (p, msg) => {
    try {
      await (typeof p === "function" ? p() : p);
      rec(true);
    } catch (e) {
      rec(false, m(msg, `rejected: ${show(e && e.message)}`));
    }
  });
  add(["match", "like"], (a, want, msg) => rec(want instanceof RegExp ? want.test(String(a)) : typeof want === "string" ? String(a).includes(want) : matchesObject(a, want), m(msg, `${show(a)} does not match ${show(want)}`)));
  add(["notMatch", "unlike", "notRegex"], (a, want, msg) => rec(!(want instanceof RegExp ? want.test(String(a)) : matchesObject(a, want)), m(msg, `${show(a)} matches ${show(want)}`)));
  t.regex = (a, re, msg) => rec(re.test(a), m(msg, `${show(a)} does not match ${re}`));
  add(["has", "hasStrict", "hasFields", "includes"], (a, want, msg) => rec(matchesObject(a, want), m(msg, `${show(a)} lacks ${show(want)}`)));
  t.type = (v, type, msg) => rec(typeof type === "function" ? v instanceof type : typeof v === type || (type === "array" && Array.isArray(v)), m(msg, `expected type ${typeof type === "function" ? type.name : type}`));
  t.pass = () => rec(true);
  t.fail = (msg) => rec(false, msg || "t.fail()");
  add(["error", "ifError", "ifErr", "iferror"], (e, msg) => rec(!e, m(msg, `error: ${show(e && e.message)}`)));
  t.plan = (n) => {
    test.plan = n;
    if (test.asserts >= n) test.finish();
  };
  t.end = t.done = () => test.finish();
  t.endAll = t.end;
  add(["comment", "log", "diagnostic", "note", "timeout", "setTimeout", "teardown", "after"], (f) => {
    if (typeof f === "function") test.teardowns.push(f);
  });
  t.skip = () => {
    if (style === "node") test.skipped = true;
  };
  t.todo = t.skip;
  t.context = {};
  t.assert = style === "node" ? nodeAssert : t.ok;
  add(["snapshot", "matchSnapshot", "resolveMatchSnapshot", "throwsSnapshot"], () => {
    throw new NotMade("a snapshot");
  });
  t.mock = new Proxy({}, {
    get() {
      throw new NotMade("node:test's mock");
    },
  });
  // Subtests run after the function, in order; one that fails fails the
  // test that made it.
  t.test = (name, opts, fn) => {
    if (typeof opts === "function") [opts, fn] = [undefined, opts];
    if (typeof name === "function") [name, fn] = [name.name, name];
    if (typeof fn !== "function") return Promise.resolve();
    const p = (test.chain = test.chain.then(async () => {
      const sub = await runT({ name: String(name) }, fn, style, Math.max(100, deadlineFor() - DateNow()));
      if (sub.notMade && test.notMade === undefined) test.notMade = sub.notMade;
      if (sub.failure !== undefined && test.failure === undefined) test.failure = String(name) + ": " + sub.failure;
    }));
    return p;
  };
  t.describe = t.suite = t.it = t.test;
  t.beforeEach = t.afterEach = t.before = () => {};
  t.name = test.name;
  t.title = test.name;
  if (style === "qunit") qunitAssert(t, test, rec, m);
  return t;
}

// qunitAssert gives t QUnit's assertions where they differ from tap's:
// equal compares with ==, true and false want the boolean itself, and
// async() makes the test wait for the callbacks it returns.
function qunitAssert(t, test, rec, m) {
  t.equal = (a, b, msg) => rec(a == b, m(msg, `expected ${show(b)}, got ${show(a)}`));
  t.notEqual = (a, b, msg) => rec(a != b, m(msg, `expected not ${show(b)}`));
  t.strictEqual = (a, b, msg) => rec(Object.is(a, b) || a === b, m(msg, `expected ${show(b)}, got ${show(a)}`));
  t.notStrictEqual = (a, b, msg) => rec(!(Object.is(a, b) || a === b), m(msg, `expected not ${show(b)}`));
  t.propEqual = (a, b, msg) => rec(looseEquals({ ...a }, { ...b }), m(msg, `expected ${show(b)}, got ${show(a)}`));
  t.notPropEqual = (a, b, msg) => rec(!looseEquals({ ...a }, { ...b }), m(msg, `expected not ${show(b)}`));
  t.propContains = (a, b, msg) => rec(matchesObject(a, b), m(msg, `${show(a)} lacks ${show(b)}`));
  t.true = (v, msg) => rec(v === true, m(msg, `expected true, got ${show(v)}`));
  t.false = (v, msg) => rec(v === false, m(msg, `expected false, got ${show(v)}`));
  t.raises = t.throws;
  t.pushResult = (r) => rec(!!(r && r.result), (r && r.message) || `expected ${show(r && r.expected)}, got ${show(r && r.actual)}`);
  t.expect = () => {};
  t.timeout = () => {};
  const steps = [];
  t.step = (s) => {
    steps.push(s);
    rec(true);
  };
  t.verifySteps = (want, msg) => rec(looseEquals(steps.splice(0), want), m(msg, `steps were not ${show(want)}`));
  t.async = (n = 1) => {
    test.pending = (test.pending || 0) + 1;
    let left = n;
    return () => {
      if (--left !== 0) return;
      if (--test.pending === 0) test.finish();
    };
  };
}

// runT runs fn(t) for a t-style test: done when the function's promise
// settles, or (tape, tap) when t.end() is called or the plan met, then its
// subtests, in order.
function runT(test, fn, style, timeLeft) {
  return new Promise((resolve) => {
    let finished = false, settled = false;
    const state = {
      name: test.name,
      asserts: 0,
      failure: undefined,
      plan: undefined,
      subtests: [],
      teardowns: [],
      skipped: false,
      chain: Promise.resolve(),
      notMade: undefined,
      finish() {
        finished = true;
        maybeDone();
      },
    };
    let timer;
    const done = (how) => {
      if (settled) return;
      settled = true;
      realClearTimeout(timer);
      resolve(how);
    };
    // Subtests run in order, each once the code before it yields: after
    // a synchronous function, or at its awaits.
    const runSubs = async () => {
      for (let seen; seen !== state.chain; ) {
        seen = state.chain;
        await seen;
      }
      return state.notMade === undefined ? null : { notMade: state.notMade };
    };
    let returned = false, waitEnd = style === "tap" || style === "tape";
    const maybeDone = async () => {
      if (!returned || settled) return;
      if (waitEnd && !finished) return;
      if (state.pending > 0) return; // QUnit's assert.async() callbacks not all called
      const nm = await runSubs();
      for (const f of state.teardowns) {
        try {
          await f();
        } catch {}
      }
      if (nm) return done(nm);
      done({ failure: state.failure, skipped: state.skipped });
    };
    timer = realSetTimeout(() => done({ failure: state.failure ?? "timed out" }), Math.max(1, timeLeft));
    const t = makeT(state, style);
    let r;
    try {
      r = fn.length >= 2 && style === "node" ? new Promise((res, rej) => fn.call(t, t, (e) => (e ? rej(e) : res()))) : fn.call(style === "qunit" && test.ctx ? test.ctx : t, t);
    } catch (e) {
      if (e instanceof NotMade) return done({ notMade: e.message });
      state.failure = state.failure ?? errText(e);
      returned = finished = true;
      return maybeDone();
    }
    if (r && typeof r.then === "function") {
      r.then(
        () => {
          returned = finished = true;
          maybeDone();
        },
        (e) => {
          if (e instanceof NotMade) return done({ notMade: e.message });
          state.failure = state.failure ?? errText(e);
          returned = finished = true;
          maybeDone();
        },
      );
    } else {
      returned = true;
      if (style === "ava" || style === "node") finished = true;
      maybeDone();
    }
  });
}

function deadlineFor() {
  return Math.min(deadline, DateNow() + perTest);
}

function defineTStyle(style) {
  const t = (name, opts, fn) => {
    if (typeof opts === "function") [opts, fn] = [undefined, opts];
    if (typeof name === "function") [name, fn] = [name.name || "anonymous", name];
    if (typeof fn !== "function") return addTest(name, null, style, { skip: true });
    addTest(name, fn, style, { skip: !!(opts && (opts.skip || opts.todo)) });
    return Promise.resolve();
  };
  t.test = t;
  t.serial = t;
  t.only = t;
  t.cb = t;
  t.skip = (name) => addTest(name, null, style, { skip: true });
  t.todo = t.skip;
  t.failing = (name) => addTest(name, null, style, { notMade: "a test expected to fail" });
  t.serial.skip = t.skip;
  t.before = hook("before");
  t.after = hook("after");
  t.beforeEach = hook("beforeEach");
  t.afterEach = hook("afterEach");
  t.after.always = t.after;
  t.afterEach.always = t.afterEach;
  t.teardown = t.after;
  t.describe = t.suite = describe;
  t.it = plainTest;
  t.onFinish = t.onFailure = () => {};
  t.createStream = () => ({ pipe() {} });
  t.mock = new Proxy({}, {
    get() {
      throw new NotMade("node:test's mock");
    },
  });
  return t;
}

const nodeTest = defineTStyle("node");
nodeTest.describe = nodeTest.suite = describe;
nodeTest.it = (name, opts, fn) => nodeTest(name, opts, fn);
nodeTest.it.skip = nodeTest.skip;
nodeTest.it.todo = nodeTest.skip;
nodeTest.it.only = nodeTest.it;
nodeTest.test = nodeTest;
nodeTest.beforeEach = hook("beforeEach");
nodeTest.afterEach = hook("afterEach");
nodeTest.before = hook("before");
nodeTest.after = hook("after");
const ava = defineTStyle("ava");
const tape = defineTStyle("tape");
const tap = defineTStyle("tap");
tap.t = tap;
tap.mochaGlobals = () => {};
tap.jobs = 1;
for (const k of ["equal", "same", "ok", "notOk", "throws", "match", "strictSame", "has", "pass", "fail", "end", "plan", "comment", "teardown", "notSame", "type", "error"]) {
  // Assertions on the top-level t outside any test: a test of their own.
  tap[k] = (...a) => {
    if (k === "end" || k === "plan" || k === "comment" || k === "teardown") return;
    addTest(`(top level) ${k}`, (t) => { t[k](...a); t.end(); }, "tap");
  };
}

// ---- QUnit ----

// QUnit.module(name) names the tests after it, until the next; with a
// function, the tests it registers. Its hooks (an object, or the hooks
// the function is handed) run with the module's this and an assert whose
// failure fails the test. QUnit.test's function gets assert, and this
// shared with the hooks.
function qunitModule(name, a, b, opts = {}) {
  const hooks = a && typeof a === "object" ? a : null;
  const fn = typeof a === "function" ? a : typeof b === "function" ? b : null;
  let s;
  if (fn) {
    s = suiteOf(title(name), null, null);
    s.skip = !!opts.skip;
    register(s);
  } else {
    if (current === null) throw new Error("a test registered outside a test file");
    s = suiteOf(title(name), current, current.file);
    s.skip = !!opts.skip;
    current.children.push(s);
    tdd = s;
  }
  const into = (kind) => (f) => {
    if (typeof f === "function") s[kind].push(qunitHook(f));
  };
  const on = { before: into("before"), beforeEach: into("beforeEach"), afterEach: into("afterEach"), after: into("after") };
  if (hooks) for (const k of Object.keys(on)) on[k](hooks[k]);
  if (fn) {
    const was = current, wasTdd = tdd;
    current = s;
    tdd = null;
    try {
      fn.call(suiteContext(s), on);
    } finally {
      current = was;
      tdd = wasTdd;
    }
  }
}

// qunitHook is a QUnit hook as the runner calls a mocha one: with no
// argument, throwing when one of its assertions failed.
function qunitHook(f) {
  return async function () {
    const state = { name: "", asserts: 0, failure: undefined, pending: 0, teardowns: [], chain: Promise.resolve(), finish() {} };
    await f.call(this, makeT(state, "qunit"));
    if (state.failure !== undefined) throw Object.assign(new Error(state.failure), { premiseAssertion: true });
  };
}

function qunitTest(name, fn, opts = {}) {
  if (typeof fn !== "function") return addTest(name, null, "qunit", { skip: true });
  addTest(name, fn, "qunit", opts);
}
qunitTest.each = (name, data, fn) => {
  for (const [k, v] of Object.entries(data || {})) {
    qunitTest(`${name} [${k}]`, function (assert) {
      return fn.call(this, assert, v);
    });
  }
};
qunitTest.skip = (name) => addTest(name, null, "qunit", { skip: true });
qunitTest.only = qunitTest;
qunitTest.todo = (name) => addTest(name, null, "qunit", { notMade: "a test expected to fail" });
qunitTest.if = (name, cond, fn) => (cond ? qunitTest(name, fn) : qunitTest.skip(name));
const qunitModuleFn = (name, a, b) => qunitModule(name, a, b);
qunitModuleFn.skip = (name, a, b) => qunitModule(name, a, b, { skip: true });
qunitModuleFn.only = qunitModuleFn;
qunitModuleFn.todo = qunitModuleFn.skip;
const noop = () => {};
const QUnit = {
  module: qunitModuleFn, test: qunitTest, skip: qunitTest.skip, only: qunitTest, todo: qunitTest.todo,
  config: {}, assert: {}, dump: { parse: show }, equiv: (a, b) => looseEquals(a, b),
  on: noop, begin: noop, done: noop, log: noop, testStart: noop, testDone: noop, moduleStart: noop, moduleDone: noop, start: noop,
  extend: Object.assign, hooks: { beforeEach: noop, afterEach: noop },
};

// Mock functions, as Jest's jest.fn and jest.spyOn and Vitest's vi.fn
// and vi.spyOn make them: the calls and results they record
// (fn.mock.calls, fn.mock.results), an implementation to run, replaced or
// once, values to return, and a spy's restore. yaml's foldFlowLines tests
// count an onFold callback's calls; its error tests spy on
// process.emitWarning. Timers, module mocks and the rest of jest's object
// are not made.
const MOCK = Symbol("premise mock");

function mockFn(impl, restore) {
  let base = impl;
  const once = [];
  const state = { calls: [], results: [], instances: [], contexts: [] };
  const fn = function (...args) {
    state.calls.push(args);
    state.instances.push(this);
    state.contexts.push(this);
    const f = once.length > 0 ? once.shift() : base;
    try {
      const value = f ? (new.target ? Reflect.construct(f, args, new.target) : f.apply(this, args)) : undefined;
      state.results.push({ type: "return", value });
      return value;
    } catch (e) {
      state.results.push({ type: "throw", value: e });
      throw e;
    }
  };
  Object.defineProperty(fn, MOCK, { value: state });
  fn.mock = state;
  fn._isMockFunction = true;
  fn.getMockName = () => "jest.fn()";
  fn.mockName = () => fn;
  fn.mockImplementation = (f) => ((base = f), fn);
  fn.mockImplementationOnce = (f) => (once.push(f), fn);
  fn.mockReturnValue = (v) => ((base = () => v), fn);
  fn.mockReturnValueOnce = (v) => (once.push(() => v), fn);
  fn.mockResolvedValue = (v) => ((base = () => Promise.resolve(v)), fn);
  fn.mockResolvedValueOnce = (v) => (once.push(() => Promise.resolve(v)), fn);
  fn.mockRejectedValue = (v) => ((base = () => Promise.reject(v)), fn);
  fn.mockRejectedValueOnce = (v) => (once.push(() => Promise.reject(v)), fn);
  fn.mockReturnThis = () => ((base = function () { return this; }), fn);
  fn.mockClear = () => {
    state.calls.length = state.results.length = state.instances.length = state.contexts.length = 0;
    return fn;
  };
  fn.mockReset = () => (fn.mockClear(), (base = undefined), (once.length = 0), fn);
  fn.mockRestore = () => (fn.mockReset(), restore && restore(), fn);
  return fn;
}

function spyOn(obj, name) {
  if (obj == null || typeof obj[name] !== "function") throw new TypeError(`Cannot spy on ${String(name)}: not a function`);
  const orig = obj[name];
  const own = Object.prototype.hasOwnProperty.call(obj, name);
  const spy = mockFn(orig, () => {
    if (own) obj[name] = orig;
    else delete obj[name];
  });
  obj[name] = spy;
  return spy;
}

function mockOf(f, matcher) {
  if (typeof f !== "function" || !f[MOCK]) throw new Error(`${matcher}: the value is not a mock function`);
  return f[MOCK];
}

function calls(f, matcher) {
  return mockOf(f, matcher).calls;
}

// allMocks are the mock functions made so far, for jest.clearAllMocks()
// and its kin.
const allMocks = [];

function mockObject(framework) {
  const made = {
    fn: (impl) => remember(mockFn(impl)),
    spyOn: (obj, name) => remember(spyOn(obj, name)),
    isMockFunction: (f) => typeof f === "function" && !!f[MOCK],
    clearAllMocks: () => (allMocks.forEach((f) => f.mockClear()), made),
    resetAllMocks: () => (allMocks.forEach((f) => f.mockReset()), made),
    restoreAllMocks: () => (allMocks.forEach((f) => f.mockRestore()), made),
    // A suite's settings of the runner (its timeout, retries) change
    // nothing of what a test checks; the timers are real already.
    setConfig: () => made,
    resetConfig: () => made,
    setTimeout: () => made,
    retryTimes: () => made,
    useRealTimers: () => made,
  };
  const remember = (f) => (allMocks.push(f), f);
  return new Proxy(made, {
    get(target, k) {
      if (k in target) return target[k];
      if (typeof k === "symbol") return undefined;
      throw new NotMade(framework + "'s mocks");
    },
  });
}

const jestGlobals = {
  describe, it: plainTest, test: plainTest, expect,
  beforeEach: hook("beforeEach"), afterEach: hook("afterEach"), beforeAll: hook("before"), afterAll: hook("after"),
  jest: mockObject("jest"),
  vi: mockObject("vitest"),
  assert: chaiAssert,
  xit: plainTest.skip, xtest: plainTest.skip, xdescribe: describe.skip, fit: plainTest, fdescribe: describe,
  suite: describe, bench: () => {},
};

// The stand-ins by the name a test imports them by: each a namespace.
const standIns = {
  "node:test": { default: nodeTest, ...namespaceOf(nodeTest, ["test", "describe", "it", "suite", "before", "after", "beforeEach", "afterEach", "skip", "todo", "only", "mock"]) },
  test: null, // set below: the bare name node:test also answers to
  ava: { default: ava, ...namespaceOf(ava, ["serial", "skip", "todo", "only", "before", "after", "beforeEach", "afterEach"]) },
  tape: { default: tape, test: tape, ...namespaceOf(tape, ["skip", "only", "onFinish", "createStream"]) },
  tap: { default: tap, ...namespaceOf(tap, ["test", "t", "equal", "same", "ok", "notOk", "throws", "match", "strictSame", "has", "plan", "end", "pass", "fail", "teardown"]) },
  mocha: { default: jestGlobals, describe, it: plainTest, before: hook("before"), after: hook("after"), beforeEach: hook("beforeEach"), afterEach: hook("afterEach"), suite, test: plainTest, setup: hook("beforeEach"), teardown: hook("afterEach"), suiteSetup: hook("before"), suiteTeardown: hook("after"), context: describe, specify: plainTest },
  vitest: { default: jestGlobals, ...jestGlobals },
  "@jest/globals": { default: jestGlobals, ...jestGlobals },
  chai: { default: chai, ...chai },
  qunit: { default: QUnit, QUnit, module: QUnit.module, test: QUnit.test, skip: QUnit.skip, only: QUnit.only, todo: QUnit.todo },
  "power-assert": { default: nodeAssert.default ?? nodeAssert, ...nodeAssert },
};
standIns.test = standIns["node:test"];

// deep-equal, which many older test files require and a clone has not
// installed: Node's own comparison, loose unless told strict, as the
// package's.
function deepEqualStandIn(a, b, opts) {
  try {
    (opts && opts.strict ? nodeAssert.deepStrictEqual : nodeAssert.deepEqual)(a, b);
    return true;
  } catch {
    return false;
  }
}
standIns["deep-equal"] = { default: deepEqualStandIn };

function namespaceOf(o, names) {
  const out = {};
  for (const n of names) if (o[n] !== undefined) out[n] = o[n];
  return out;
}

// ---- the globals of mocha, Jest and Vitest ----

Object.assign(globalThis, {
  describe, it: plainTest, test: plainTest, specify: plainTest, context: describe, suite,
  before: hook("before"), after: hook("after"), beforeEach: hook("beforeEach"), afterEach: hook("afterEach"),
  beforeAll: hook("before"), afterAll: hook("after"), setup: hook("beforeEach"), teardown: hook("afterEach"),
  suiteSetup: hook("before"), suiteTeardown: hook("after"),
  xit: plainTest.skip, xtest: plainTest.skip, xdescribe: describe.skip, xcontext: describe.skip, xspecify: plainTest.skip,
  fit: plainTest, fdescribe: describe, expect,
  jest: jestGlobals.jest, vi: jestGlobals.vi,
  QUnit,
});

// A package the clone has not installed that a test file or its helper
// imports (a devDependency: react, which fast-equals' test suites build
// elements with at load time): a stand-in whose every property, call and
// construction gives another, the same one for the same path, while the
// file loads, so it loads and its tests that never use the package run.
// A test that uses it is not made: what it would check is the package's
// (and a stand-in in a loop of the code's would spend the tests' time).
const absent = new Map();
let loadingFile = false;
function absentPackage(path, names = []) {
  if (absent.has(path)) return absent.get(path);
  const used = () => {
    if (!loadingFile) throw new NotMade(path.split(/[.(]/)[0] + ", a package the clone lacks");
  };
  const p = new Proxy(function () {}, {
    // A transpiled namespace import (import * as React) copies the
    // module's own names: those its importer reads from it.
    ownKeys(t) {
      return [...new Set([...Reflect.ownKeys(t), ...names])];
    },
    get(t, k) {
      if (k === Symbol.toPrimitive) return () => "[" + path + "]";
      if (k === "then" || k === "__esModule" || typeof k === "symbol") return undefined;
      used();
      if (k === "default") return p;
      return absentPackage(path + "." + String(k));
    },
    apply() {
      used();
      return absentPackage(path + "()");
    },
    construct() {
      used();
      return absentPackage("new " + path);
    },
  });
  absent.set(path, p);
  return p;
}
// standingIn are the absent packages the file being loaded was given.
const standingIn = new Set();
function standIn(request, names) {
  if (Object.hasOwn(helperStandIns, request)) return helperStandIns[request]();
  standingIn.add(packageName(request) ?? request);
  return absentPackage(request, names);
}
const ABSENT = "__premise_absent__";
Object.defineProperty(globalThis, ABSENT, { value: standIn, enumerable: false });

// packageName is a bare specifier's package ("react" of "react/jsx-runtime"),
// null for a relative, absolute or built-in one.
function packageName(request) {
  if (typeof request !== "string" || request === "" || /^[./]/.test(request) || request.includes(":") || nodeModule.isBuiltin?.(request)) return null;
  const parts = request.split("/");
  return request.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

// require() of a stand-in's name returns premise's (CommonJS).
const Module = nodeModule.default ?? nodeModule.Module;
const origLoad = Module._load;
Module._load = function (request, parent, isMain) {
  const bare = typeof request === "string" && request.startsWith("node:") && request !== "node:test" ? null : request;
  if (bare !== null && Object.hasOwn(standIns, bare)) {
    const ns = standIns[bare];
    if (bare === "chai") return chai;
    if (bare === "mocha") return ns;
    const d = ns.default;
    return typeof d === "function" ? Object.assign(d, ns, { default: d }) : ns;
  }
  try {
    return origLoad.apply(this, arguments);
  } catch (e) {
    const pkg = packageName(request);
    if (pkg === null || e?.code !== "MODULE_NOT_FOUND" || !String(e.message).startsWith("Cannot find module '" + request + "'")) throw e;
    return standIn(request, namesRead(parent?.filename, request));
  }
};

// namesRead are the names a file reads from what it binds specifier to
// (React.createElement after import * as React from 'react' or
// const React = require('react')).
function namesRead(file, specifier) {
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out = new Set();
  const quoted = (q) => q + specifier + q;
  for (const q of ["'", '"', "`"]) {
    for (let at = text.indexOf(quoted(q)); at >= 0; at = text.indexOf(quoted(q), at + 1)) {
      const before = text.slice(Math.max(0, text.lastIndexOf("\n", at - 1) - 200), at);
      const m = before.match(/(?:import\s+(?:\*\s+as\s+)?|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)[^;]*$/);
      if (!m) continue;
      for (const r of text.matchAll(new RegExp("(?<![\\w$.])" + m[1].replace(/\$/g, "\\$") + "\\.([A-Za-z_$][\\w$]*)", "g"))) out.add(r[1]);
    }
  }
  return [...out];
}

// import of a stand-in's name gets a module that reads premise's (ES);
// a relative import without its extension or of a directory ('.') is
// retried as bundlers resolve it.
const KEY = "__premise_stand_ins__";
Object.defineProperty(globalThis, KEY, { value: standIns, enumerable: false });
const HOOK = `
import { readFileSync } from "node:fs";
const names = ${JSON.stringify(Object.keys(standIns))};
const exported = ${JSON.stringify(Object.fromEntries(Object.entries(standIns).map(([k, v]) => [k, Object.keys(v).filter((n) => n !== "default")])))};
const tries = [".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs"];
// importedNames are the names a file imports or re-exports from specifier
// (import { a, b as c } from "specifier").
function importedNames(specifier, parentURL) {
  let text = "";
  try {
    text = readFileSync(new URL(parentURL), "utf8");
  } catch {
    return [];
  }
  const out = new Set();
  for (const quote of ["'", '"']) {
    const tail = quote + specifier + quote;
    for (let at = text.indexOf(tail); at >= 0; at = text.indexOf(tail, at + 1)) {
      const close = text.lastIndexOf("}", at);
      const open = text.lastIndexOf("{", close);
      if (open < 0 || !/^\\s*from\\s*$/.test(text.slice(close + 1, at))) continue;
      for (const part of text.slice(open + 1, close).split(",")) {
        const words = part.trim().split(/\\s+/).filter((w) => w !== "type");
        if (words.length > 0 && /^[A-Za-z_$][\\w$]*$/.test(words[0]) && words[0] !== "default") out.add(words[0]);
      }
    }
  }
  return [...out];
}
export async function resolve(specifier, context, next) {
  if (names.includes(specifier)) {
    const src = "const ns = globalThis['${KEY}'][" + JSON.stringify(specifier) + "];" +
      "export default ns.default;" + exported[specifier].map((n) => "export const " + n + " = ns[" + JSON.stringify(n) + "];").join("");
    return { url: "data:text/javascript," + encodeURIComponent(src), shortCircuit: true };
  }
  try {
    return await next(specifier, context);
  } catch (e) {
    const relative = specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../");
    if (!relative && e?.code === "ERR_MODULE_NOT_FOUND" && !/^[/]|:/.test(specifier)) {
      // A package the clone lacks: its stand-in, with the names the
      // importing file takes from it.
      const src = "const ns = globalThis['${ABSENT}'](" + JSON.stringify(specifier) + ");export default ns;" +
        importedNames(specifier, context.parentURL).map((n) => "export const " + n + " = ns[" + JSON.stringify(n) + "];").join("");
      return { url: "data:text/javascript," + encodeURIComponent(src), shortCircuit: true };
    }
    if (!relative || (e?.code !== "ERR_MODULE_NOT_FOUND" && e?.code !== "ERR_UNSUPPORTED_DIR_IMPORT")) throw e;
    const bare = specifier.replace(/\\.(m|c)?tsx?$/, "").replace(/\\/$/, "");
    for (const ext of tries) {
      try {
        return await next(bare + ext, context);
      } catch {}
    }
    throw e;
  }
}
`;
if (typeof nodeModule.register === "function") nodeModule.register("data:text/javascript," + encodeURIComponent(HOOK));

// ---- coverage ----

const cover = await coverage(spec.watch || {});

async function coverage(watch) {
  const files = new Map();
  for (const p of Object.keys(watch)) {
    const w = watch[p];
    if (!w || typeof w.file !== "string" || !Array.isArray(w.spans)) continue;
    files.set(pathToFileURL(p).href, w);
    try {
      files.set(pathToFileURL(realpathSync(p)).href, w);
    } catch {}
  }
  if (files.size === 0) return null;
  let session;
  try {
    const { Session } = await import("node:inspector");
    session = new Session();
    session.connect();
  } catch {
    return null;
  }
  const post = session.post.bind(session);
  const take = () => {
    let out = null;
    post("Profiler.takePreciseCoverage", (err, res) => {
      if (!err && res) out = res.result;
    });
    return out;
  };
  let ok = false;
  post("Profiler.enable", (err) => (ok = !err));
  if (ok) post("Profiler.startPreciseCoverage", { callCount: true, detailed: true }, (err) => (ok = !err));
  if (!ok) return null;
  return {
    reset: take,
    lines() {
      const scripts = take();
      if (!scripts) return undefined;
      let out;
      for (const s of scripts) {
        const w = files.get(s.url);
        if (!w) continue;
        const ran = linesRan(s.functions, w.spans);
        if (ran.length === 0) continue;
        out = out || {};
        out[w.file] = [...new Set([...(out[w.file] || []), ...ran])].sort((a, b) => a - b);
      }
      return out;
    },
  };
}

// linesRan is the Node worker's (node_worker.mjs): the lines of spans
// with a piece in code that ran, the innermost of V8's nested ranges
// counting.
function linesRan(functions, spans) {
  const ranges = [];
  for (const f of functions) for (const r of f.ranges) ranges.push(r);
  ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const ran = [];
  const emit = (from, to, count) => {
    if (to <= from || count <= 0) return;
    if (ran.length > 0 && ran[ran.length - 1] === from) ran[ran.length - 1] = to;
    else ran.push(from, to);
  };
  const open = [];
  let pos = 0;
  for (const r of ranges) {
    while (open.length > 0 && open[open.length - 1].endOffset <= r.startOffset) {
      const o = open.pop();
      emit(pos, o.endOffset, o.count);
      if (o.endOffset > pos) pos = o.endOffset;
    }
    if (open.length > 0) emit(pos, r.startOffset, open[open.length - 1].count);
    pos = r.startOffset;
    open.push(r);
  }
  while (open.length > 0) {
    const o = open.pop();
    emit(pos, o.endOffset, o.count);
    if (o.endOffset > pos) pos = o.endOffset;
  }
  const out = [];
  for (let i = 0; i + 2 < spans.length; i += 3) {
    const from = spans[i], to = spans[i + 1];
    let lo = 0, hi = ran.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ran[2 * mid + 1] <= from) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ran.length / 2 && ran[2 * lo] < to) out.push(spans[i + 2]);
  }
  return out;
}

// ---- running ----

function errText(e) {
  if (e instanceof Error) {
    // Node's assert spreads its message over lines: one line of it.
    const text = String(e.message).split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
    return (e.name && e.name !== "Error" && !e.premiseAssertion ? e.name + ": " : "") + text.slice(0, 500);
  }
  return String(e).slice(0, 500);
}

let uncaught = null;
process.on("uncaughtException", (e) => (uncaught = uncaught ?? e));
process.on("unhandledRejection", (e) => (uncaught = uncaught ?? e));
process.exit = () => {
  throw new Error("the test called process.exit");
};

let stopped = false;

function withTimeout(p, ms) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => (timer = realSetTimeout(() => rej(new Error("timed out")), Math.max(1, ms))))]).finally(() => realClearTimeout(timer));
}

// callPlain runs a mocha/Jest function: a done callback when it takes an
// argument, else what it returns, awaited.
function callPlain(fn, ctx, ms) {
  if (fn.length >= 1) {
    return withTimeout(new Promise((res, rej) => {
      try {
        const r = fn.call(ctx, (e) => (e ? rej(e) : res()));
        if (r && typeof r.then === "function") r.then(res, rej);
      } catch (e) {
        rej(e);
      }
    }), ms);
  }
  return withTimeout(Promise.resolve().then(() => fn.call(ctx)), ms);
}

function hooksUp(s, kind) {
  const chain = [];
  for (let p = s; p; p = p.parent) chain.unshift(p);
  return kind === "beforeEach" ? chain.flatMap((p) => p.beforeEach) : chain.reverse().flatMap((p) => p.afterEach);
}

function idOf(node) {
  const parts = [];
  for (let p = node; p; p = p.parent) if (p.name) parts.unshift(p.name);
  return parts.join(" > ");
}

function selected(s) {
  return s.children.some((c) => (c.kind === "test" ? !only || only.has(c.id) : selected(c)));
}

async function runSuite(s) {
  if (!selected(s)) return;
  if (DateNow() > deadline) {
    stopped = true;
    return;
  }
  let beforeFailed = null;
  for (const h of s.before) {
    try {
      await callPlain(h, suiteContext(s), deadlineFor() - DateNow());
    } catch (e) {
      beforeFailed = e;
      break;
    }
  }
  for (const c of s.children) {
    if (DateNow() > deadline) {
      stopped = true;
      return;
    }
    if (c.kind === "suite") {
      if (s.skip) c.skip = true;
      await runSuite(c);
      continue;
    }
    if (only && !only.has(c.id)) continue;
    await runTest(c, s.skip, beforeFailed);
  }
  for (const h of s.after) {
    try {
      await callPlain(h, suiteContext(s), deadlineFor() - DateNow());
    } catch {}
  }
}

// fileOf is the test file a test was registered from; suiteNames its
// suites' names below the file's and its own.
function fileOf(c) {
  for (let s = c.parent; s; s = s.parent) if (s.file) return s.file;
  return "";
}
function suiteNames(c) {
  const names = [c.name];
  for (let s = c.parent; s && s.parent; s = s.parent) names.unshift(s.name);
  return names;
}

async function runTest(c, skip, beforeFailed) {
  const rec = { outcome: "passed" };
  if (skip || c.skip || c.fn === null) {
    rec.outcome = c.notMade ? "not made: " + c.notMade : "skipped";
    emit({ id: c.id, ...rec });
    return;
  }
  starting(c.id);
  if (cover) cover.reset();
  uncaught = null;
  const ctx = c.parent ? suiteContext(c.parent) : mochaContext(null);
  ctx.test = ctx.currentTest = { title: c.name };
  snapTest = { file: fileOf(c), names: suiteNames(c), counts: new Map() };
  try {
    if (beforeFailed) throw beforeFailed;
    for (const h of hooksUp(c.parent, "beforeEach")) await callPlain(h, ctx, deadlineFor() - DateNow());
    if (c.style === "plain") {
      await callPlain(c.fn, ctx, deadlineFor() - DateNow());
    } else {
      const got = await runT({ name: c.name, ctx }, c.fn, c.style, deadlineFor() - DateNow());
      if (got.notMade) throw new NotMade(got.notMade);
      if (got.skipped) throw new SkipSignal();
      if (got.failure !== undefined) throw Object.assign(new Error(got.failure), { premiseAssertion: true });
    }
    if (uncaught) throw uncaught;
  } catch (e) {
    if (e instanceof NotMade) rec.outcome = "not made: " + e.message;
    else if (e instanceof SkipSignal) rec.outcome = "skipped";
    else rec.outcome = "failed: " + errText(e);
  }
  for (const h of hooksUp(c.parent, "afterEach")) {
    try {
      await callPlain(h, ctx, deadlineFor() - DateNow());
    } catch (e) {
      if (rec.outcome === "passed") rec.outcome = "failed: afterEach: " + errText(e);
    }
  }
  if (cover) {
    const lines = cover.lines();
    if (lines) rec.lines = lines;
  }
  emit({ id: c.id, ...rec });
}

function assignIds(s, seen) {
  for (const c of s.children) {
    if (c.kind === "suite") {
      assignIds(c, seen);
      continue;
    }
    let id = idOf(c);
    if (seen.has(id)) {
      let n = 2;
      while (seen.has(`${id} #${n}`)) n++;
      id = `${id} #${n}`;
    }
    seen.add(id);
    c.id = id;
  }
}

// Each outcome is a line appended to OUT as it is known, so a run premise
// kills past its time (a test that never yields: a loop the head added)
// still says what ran before; the test about to run is named in
// OUT.current, and premise calls it timed out.
function emit(o) {
  appendFileSync(outPath, jsonStringify(o) + "\n");
}

function starting(id) {
  writeFileSync(outPath + ".current", id);
}

// loadTestFile imports a test file. One that imports a name its module
// does not export (immer's map-set tests take DRAFT_STATE from a module
// that only imports it) loads under Vitest and Jest, whose transforms
// read a missing name as undefined, where a native ES module is refused
// before it runs: such a file is loaded again from a copy beside it whose
// imports of that module read the names off the module's namespace.
async function loadTestFile(f) {
  let file = f;
  for (let tries = 0; ; tries++) {
    try {
      return await withTimeout(import(pathToFileURL(file).href), Math.max(1, deadline - DateNow()));
    } catch (e) {
      const m = e instanceof SyntaxError && /The requested module '([^']+)' does not provide an export named '([^']+)'/.exec(e.message);
      if (!m || tries >= 4) throw e;
      const text = fs.readFileSync(file, "utf8");
      const read = throughNamespace(text, m[1]);
      if (read === text) throw e;
      file = f + ".premise" + tries + ".mjs";
      fs.writeFileSync(file, read);
    }
  }
}

// throughNamespace is a module's text with each import of names from
// specifier (import d, { a, b as c } from "x") made an import of its
// namespace and the names read off it.
let namespaces = 0;
function throughNamespace(text, specifier) {
  const q = specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp("import\\s+(?:([A-Za-z_$][\\w$]*)\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*([\"'])" + q + "\\3\\s*;?", "g");
  return text.replace(re, (all, dflt, names, quote) => {
    const ns = "__premise_ns" + namespaces++;
    const binds = names.split(",").map((x) => x.trim()).filter(Boolean).map((x) => x.split(/\s+as\s+/).join(": "));
    return `import * as ${ns} from ${quote}${specifier}${quote}; const { ${binds.join(", ")} } = ${ns};` + (dflt ? ` const ${dflt} = ${ns}.default;` : "");
  });
}

async function main() {
  const deferred = [];
  for (const f of spec.files) {
    if (DateNow() > deadline) {
      stopped = true;
      break;
    }
    const fileSuite = suiteOf(spec.names[f] || f, null, f);
    current = fileSuite;
    tdd = null;
    standingIn.clear();
    loadingFile = true;
    try {
      await loadTestFile(f);
    } catch (e) {
      emit({ file: spec.names[f] || f, why: e instanceof NotMade ? "not made: " + e.message : errText(e) });
      current = null;
      continue;
    } finally {
      loadingFile = false;
    }
    current = null;
    tdd = null;
    assignIds(fileSuite, new Set());
    if (standingIn.size > 0) {
      // A file that needed a stand-in runs after the others: its tests
      // that use the package tell nothing, and those that do not must
      // not spend the time of a file whose tests all count.
      emit({ file: spec.names[f] || f, stood_in: [...standingIn].sort() });
      deferred.push(fileSuite);
      continue;
    }
    await runSuite(fileSuite);
  }
  for (const fileSuite of deferred) {
    if (stopped || DateNow() > deadline) {
      stopped = true;
      break;
    }
    await runSuite(fileSuite);
  }
  if (stopped) emit({ stopped: true });
  writeFileSync(outPath + ".current", "");
}

try {
  await main();
} catch (e) {
  emit({ error: errText(e) });
}
process.reallyExit(0);
