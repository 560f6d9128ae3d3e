// premise's Node worker: the runner protocol of DESIGN.md on two fds.
//
// Node's built-ins only, each imported by its node: name. premise embeds
// this file and runs it as
//   NODE [FLAGS] --input-type=module --eval SOURCE REPO MAX_FRAME REQ_FD REP_FD HOOK WATCH BOXED ENTRIES
// (gate/node.go). BOXED is "1" where it runs under premise's init in a PID
// namespace of its own: what each call leaves running is then killed.
// ENTRIES maps each package entry to the modules on an import cycle
// loaded after it ({"lib/ical/module": ["lib/ical/time", ...]},
// gate/nodeorder.go). Requests arrive as JSON lines on REQ_FD, replies leave as
// JSON lines on REP_FD (both drawn from a high range), so nothing the
// subject prints on stdout or stderr can corrupt the protocol. The source is
// evaluated, never read from a file, and imports nothing by a bare or
// relative name: a file the head adds to its tree (fs.js, a package.json,
// node_modules/util) cannot replace what this worker runs on (issue 26,
// item 3). The protocol's arguments and the source leave process.argv and
// process.execArgv once read. The built-ins that frame, encode and write
// replies are bound before any subject code runs, so a subject that patches
// JSON.stringify, Object.keys, fs.writeSync or a Map iterator cannot
// rewrite replies through them (what it can still do to its own values, it
// could do by overriding their own methods).
//
// Memory is bounded by premise (RLIMIT_AS, set by the sandbox's init, with
// V8's WebAssembly guard regions off so that the limit leaves Wasm usable);
// there is no progress page (Node cannot map one): every reply leaves at
// once. HOOK is 1 when premise transpiled TypeScript to ES modules (see
// RESOLVE_HOOK).
//
// WATCH is {"/abs/runs.js": {"file": "/abs/src.ts", "spans": [from, to,
// line, ...]}} (gate/nodecover.go), "{}" when premise watches nothing: for
// each file Node runs, the pieces of code of the watched lines of a file
// (the same file, or the TypeScript source esbuild made it from), as
// offsets into the code V8 compiled. With a watch, V8's precise coverage
// runs (node:inspector, a session of the worker's own, started before any
// subject code) and is taken after each call: a reply carries "lines",
// {"/abs/src.ts": [line, ...]}, the watched lines with a piece in a range
// of code that ran (the innermost range holding it counted more than
// zero). What a module runs when it is first imported is taken apart
// from the call. A take walks every function V8 holds (Node's own
// included), so a run of the same call (a row's reruns, already read
// from REQ_FD when the first is answered) is taken once, its lines on
// the last reply of the run. Evidence watches, in its private checkouts;
// the gate never does.
//
// A target is a module path relative to REPO, without its extension, then
// dotted names: "src/lib/ranges.mergeRanges", "src/lib/ranges.Interval.merge",
// "src/lib/ranges.default". The longest prefix that names a file is the
// module (.ts, .mts, .cts, .tsx, .js, .mjs, .cjs, .jsx, then DIR/index.*),
// so dots in file names work. TypeScript and JSX were transpiled by premise
// beside their sources before this worker started (.ts and .tsx to .js, .mts
// to .mjs, .cts to .cjs); the worker loads what Node would load. A .mjs file
// is ES, a .cjs file CommonJS, a .js file what its nearest package.json's
// "type" says: ES modules are import()ed, CommonJS modules require()d (their
// module.exports is the namespace; "default" names module.exports itself
// when it has no own default, and so does the name of the function
// module.exports is, as a UMD factory returns it). The names are then looked up from the
// namespace: a function is called with the object it was found on as
// `this` (undefined for a module's own export), a class is constructed with
// `new` (and so is a module's own function whose prototype has methods of
// its own, a class written before the class keyword), and a name found on a class's prototype rather than on the class
// is an instance method (or getter) called on the first argument, the
// receiver, with the rest: "src/lib/ranges.Interval.merge" with args
// [RECEIVER, other]. A class the module does not export is reached on the
// objects its exports build: "BigInteger.BigInteger.modInv" with args
// [{"$new": "BigInteger.default", "$args": [3]}, 11] calls the modInv the
// receiver has (a receiver without one is a premise.DecodeError).
// A returned promise is awaited: a rejection is a raise.
// JavaScript has no keyword arguments: a call's kwargs, when it has any,
// are passed as one options object after the positional arguments (a
// must-reject fixture {"ranges": ...} calls fn({ranges: ...})).
//
// Values, both ways, are JSON where JSON says what JavaScript means, and an
// object with one "$" key where it does not:
//   null, true, 1.5, "s", [..], {"k": ..}   themselves (an array's hole: {"$hole": true})
//   undefined                               {"$undefined": true}
//   NaN, Infinity, -Infinity, -0            {"$number": "NaN"} ("Infinity", "-Infinity", "-0")
//   123n                                    {"$bigint": "123"}
//   new Map([[k, v]])                       {"$map": [[K, V], ...]} entries in insertion order
//   new Set([v])                            {"$set": [V, ...]} in insertion order
//   new Date(0)                             {"$date": "1970-01-01T00:00:00.000Z"} ("Invalid Date")
//   new Date(999, 0, 1) (an argument)       {"$date": [999, 0, 1]} (new Date's numbers, the worker's zone)
//   /a+/g                                   {"$regexp": "/a+/g"}
//   Symbol("s")                             {"$symbol": "s"}
//   an object with a key starting with $    {"$object": {"$k": ..}} (keys literal)
//   Object.create(null)                     {"$nullproto": {"k": ..}}
//   "a\ud800"                               {"$utf16": [97, 55296]} (a string holding a lone surrogate,
//                                           by its code units: no Go string holds one)
//   an instance of a class                  {"$class": "Interval", "$fields": {own enumerable fields}}
//                                           (one with no own field adds "$getters", what its
//                                           class's getters return: #private state;
//                                           an Error adds "$message"; a typed array, a Buffer or an
//                                           Array subclass "$items"; a boxed primitive "$value";
//                                           a Map or Set subclass its "$map"/"$set")
//   a function                              {"$function": "name"}
//   a callback (an argument)                {"$func": "mark"} (or identity, truthy, true, false:
//                                           CALLBACKS)
//   a cycle, a nesting past 64              {"$cycle": true}, {"$truncated": true}
//   an accessor property                    {"$accessor": true} (its getter is not run)
// so undefined is apart from null, -0 from 0, NaN equal to itself, and two
// instances equal when their classes' names and own fields are. In
// arguments, the same forms build the same values, and
//   {"$new": "src/lib/ranges.Interval", "$args": [0, 3]}
// builds a receiver: a class named so is constructed with new, and so is
// a constructor written as a function whose prototype has methods (an ES5
// class); another function (a factory) is called and its promise awaited;
// what either throws is the row's raise. "$then": [{"$call": "push", "$args": [1]}] calls the built
// object's own methods in order before the row's call (a state its
// constructor never builds); "$chain", in the same form, calls each on
// what the one before returned, as a builder's chain does
// (z.string().datetime({offset: true})). A "$class" form cannot be passed back (build
// it with $new), but for a typed array's or a Buffer's, which builds one
// of its numbers: {"$class": "Uint8Array", "$items": [31, 139]}.
//
// A raise is {"class", "code", "message"}: the class is the thrown value's
// constructor name (TypeError, RangeError, a subclass's own name), or for a
// thrown non-object its type ("string", "number", "undefined", ...), the
// value itself then its code; an object's own primitive `code` is its code
// (Node's ERR_* and E* codes). An argument the worker cannot decode is a
// raise of class premise.DecodeError, never the subject's.
//
// With kwargs "$observe": N (evidence rows), an iterator's (or async
// iterator's) first N items are the value ({"$first": items} when it has
// more), a returned function is compared by its outcomes on a few small
// calls ({"$calls": [...]}, with "$probes" for more), a returned object
// also by what its methods answer to the probes written {"$call": name,
// "$args": [...]} ({"$returned": V, "$methods": [...]}), and an argument the
// call changed is reported beside the value: {"$returned": V,
// "$args_after": {"0": ...}}. A call premise's callbacks ({"$func": ...})
// were called in reports, on every row, what each call handed them, in
// order, as it was then: {"$returned": V, "$heard": [[args], ...]} (and
// "$heard_more": N past 32).
import * as fs from "node:fs";
import * as path from "node:path";
import * as url from "node:url";
import * as nodeModule from "node:module";
import * as util from "node:util";
import { Buffer } from "node:buffer";

// The built-ins the protocol uses, bound before any subject code runs.
const { readSync, writeSync, closeSync, existsSync, statSync, readFileSync, openSync, realpathSync, readdirSync, readlinkSync } = fs;
const { join, dirname, sep, extname } = path;
const { pathToFileURL } = url;
const { createRequire, register } = nodeModule; // register: Node 18.19 and 20.6 on
const { types } = util;
const { parse: jsonParse, stringify: jsonStringify } = JSON;
const { keys: objectKeys, getPrototypeOf, getOwnPropertyDescriptor, getOwnPropertyNames, defineProperty, is: objectIs, hasOwn, create: objectCreate } = Object;
const { apply, construct } = Reflect;
const { isArray } = Array;
const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const fnToString = Function.prototype.call.bind(Function.prototype.toString);
const mapEntries = Function.prototype.call.bind(Map.prototype.entries);
const mapIterNext = Function.prototype.call.bind(Object.getPrototypeOf(new Map().entries()).next);
const setValues = Function.prototype.call.bind(Set.prototype.values);
const setIterNext = Function.prototype.call.bind(Object.getPrototypeOf(new Set().values()).next);
const u8Subarray = Function.prototype.call.bind(Uint8Array.prototype.subarray);
// The classes of bytes and numbers an argument {"$class": NAME, "$items":
// [...]} builds, as the worker found them before any subject loaded.
const ITEM_CLASSES = { __proto__: null, Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array };
const decodeText = Function.prototype.call.bind(TextDecoder.prototype.decode);
const exitNow = process.exit.bind(process);
// process.kill looks process._kill up at each call: the raw one is bound
// here, before the subject could replace it.
const rawKill = process._kill.bind(process);
const ownPid = process.pid;
const dateTime = Function.prototype.call.bind(Date.prototype.getTime);
const dateISO = Function.prototype.call.bind(Date.prototype.toISOString);
const regexpString = Function.prototype.call.bind(RegExp.prototype.toString);
const strStartsWith = Function.prototype.call.bind(String.prototype.startsWith);
const strIncludes = Function.prototype.call.bind(String.prototype.includes);
const strEndsWith = Function.prototype.call.bind(String.prototype.endsWith);
const strSlice = Function.prototype.call.bind(String.prototype.slice);
const strCharCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);
const strIndexOf = Function.prototype.call.bind(String.prototype.indexOf);
const strSplit = Function.prototype.call.bind(String.prototype.split);
const arrayJoin = Function.prototype.call.bind(ArrayProto.join);
const arraySlice = Function.prototype.call.bind(ArrayProto.slice);
const arrayFilter = Function.prototype.call.bind(ArrayProto.filter);
const arraySort = Function.prototype.call.bind(ArrayProto.sort);
const bufferByteLength = Buffer.byteLength;
const bufferFrom = Buffer.from;
const bufferAlloc = Buffer.alloc;
const Str = String;
const Num = Number;
const BigIntOf = BigInt;
const MapC = Map;
const SetC = Set;
const DateC = Date;
const RegExpC = RegExp;
const SymbolC = Symbol;
const fromCharCode = String.fromCharCode;
const ErrorC = Error;
// The built-in errors' prototypes, as they were before any code ran: a
// thrown object whose class bears one's name but not its prototype is the
// code's own class (class RangeError extends Error {}), which a caller's
// instanceof RangeError no longer catches.
const builtinErrorProtos = new Map([Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError]
  .map((c) => [c.name, c.prototype]));
const TextDecoderC = TextDecoder;
const iteratorSym = Symbol.iterator;
const asyncIteratorSym = Symbol.asyncIterator;
const setIntervalF = setInterval;
const clearIntervalF = clearInterval;
const atomicsWait = Atomics.wait;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));
const { isPromise, isDate, isRegExp, isMap, isSet, isTypedArray, isArrayBuffer, isBoxedPrimitive, isNativeError, isProxy } = types;

const MAX_DEPTH = 64;

class DecodeError extends ErrorC {}

// UnreachedError: a target's module loaded, and neither its exports nor
// the scope its exported functions close over hold the name. Its reply's
// detail begins "unreached TARGET:", a form no text of the subject's can
// take (theirs follow "import TARGET:").
class UnreachedError extends ErrorC {}

// SubjectThrow carries what the code under review threw while an argument
// was built ($new): the row's raise, not the worker's failure.
class Encoded {
  // Encoded is a value already in the protocol's form ($first, $calls).
  constructor(v) {
    this.v = v;
  }
}

class SubjectThrow {
  constructor(e) {
    this.e = e;
  }
}

// FROZEN_NOW is the time the subject's clock reads in a worker: the same
// on the base's side and the head's, whatever the second each side runs
// in. A row whose value is "now" (tempo's date(""), new Date(), Date.now())
// otherwise answered a second apart on the two sides now and then, a
// change no patch made.
const FROZEN_NOW = 1718452800000; // 2024-06-15T12:00:00.000Z

// freezeClock makes Date's "now" FROZEN_NOW: new Date() and Date.now(),
// and Date() called as a function; every other use of Date, and
// subclasses of it, work as they do.
function freezeClock() {
  const RealDate = globalThis.Date;
  function Date(...args) {
    if (new.target === undefined) return apply(RealDate.prototype.toString, construct(RealDate, [FROZEN_NOW]), []);
    return construct(RealDate, args.length === 0 ? [FROZEN_NOW] : args, new.target === Date ? RealDate : new.target);
  }
  for (const k of Reflect.ownKeys(RealDate)) {
    if (k === "prototype" || k === "length" || k === "name") continue;
    defineProperty(Date, k, getOwnPropertyDescriptor(RealDate, k));
  }
  defineProperty(Date, "now", { value: function now() { return FROZEN_NOW; }, writable: true, configurable: true });
  defineProperty(Date, "prototype", { value: RealDate.prototype });
  defineProperty(RealDate.prototype, "constructor", { value: Date, writable: true, configurable: true });
  globalThis.Date = Date;
}

async function main() {
  const argv = process.argv;
  const repo = argv[1], maxFrame = Num(argv[2]);
  let reqFd = Num(argv[3]), repFd = Num(argv[4]);
  const hook = argv[5] === "1";
  const watch = argv.length > 6 ? jsonParse(argv[6]) : {};
  const boxed = argv.length > 7 && argv[7] === "1";
  const entries = new MapC(); // a module on a cycle -> its package's entry
  const byEntry = argv.length > 8 ? jsonParse(argv[8]) : {};
  if (byEntry !== null && typeof byEntry === "object") {
    for (const e of objectKeys(byEntry)) {
      if (isArray(byEntry[e])) for (const m of byEntry[e]) if (typeof m === "string") entries.set(m, e);
    }
  }
  // The subject sees an ordinary node run: no protocol arguments, no source.
  argv.length = 1;
  freezeClock();
  process.execArgv.length = 0;
  // Keep the protocol fds out of any process the subject starts: Node
  // cannot clear an inherited fd's close-on-exec flag, so the pipes are
  // opened again (Node opens with O_CLOEXEC) and the inherited fds closed.
  reqFd = reopen(reqFd, "r");
  repFd = reopen(repFd, "w");
  if (hook && typeof register === "function") {
    // ES modules transpiled from TypeScript import "./util" as bundlers
    // and tsc's "bundler" resolution allow; Node's ES loader wants the
    // file's name. A resolve hook retries such a relative specifier with
    // the extensions and index files tsc would try.
    register("data:text/javascript," + encodeURIComponent(RESOLVE_HOOK));
  }
  const send = sender(repFd, maxFrame);
  const cache = new MapC();
  const loader = modules(repo, entries);
  const cover = await coverage(watch);
  privateReach = await privateScopes();
  send({ ready: true });
  return loop(reqFd, maxFrame, send, cache, loader, cover, boxed);
}

// coverage starts V8's precise coverage for watch (the header's WATCH);
// null when nothing is watched, or this Node has no inspector (a reply
// then carries no lines, which says nothing ran, never that it did).
async function coverage(watch) {
  const files = new MapC(); // a file URL Node runs -> {file, spans}
  for (const p of objectKeys(watch)) {
    const w = watch[p];
    if (w === null || typeof w !== "object" || typeof w.file !== "string" || !isArray(w.spans)) continue;
    files.set(pathToFileURL(p).href, w);
    try {
      files.set(pathToFileURL(realpathSync(p)).href, w); // Node names a module by its real path
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
  // A session of the worker's own thread answers at once: post returns
  // with its callback called.
  const post = Function.prototype.bind.call(session.post, session);
  function take() {
    let out = null;
    post("Profiler.takePreciseCoverage", (err, res) => {
      if (!err && res && isArray(res.result)) out = res.result;
    });
    return out;
  }
  let enabled = false, started = false;
  post("Profiler.enable", (err) => (enabled = !err));
  if (enabled) post("Profiler.startPreciseCoverage", { callCount: true, detailed: true }, (err) => (started = !err));
  if (!started) return null;
  return {
    // reset drops the counts so far: the next lines are the next call's.
    reset() {
      take();
    },
    // lines are the watched lines that ran since the last take, by
    // file; null when none did.
    lines() {
      const scripts = take();
      if (scripts === null) return null;
      let out = null;
      for (let i = 0; i < scripts.length; i++) {
        const w = files.get(scripts[i].url);
        if (w === undefined) continue;
        const ran = linesRan(scripts[i].functions, w.spans);
        if (ran.length === 0) continue;
        out = out ?? {};
        const had = hasOwn(out, w.file) ? out[w.file] : [];
        for (let k = 0; k < ran.length; k++) had[had.length] = ran[k];
        defineProperty(out, w.file, { value: had, enumerable: true, writable: true, configurable: true });
      }
      if (out !== null) {
        for (const f of objectKeys(out)) out[f] = uniqueSorted(out[f]);
      }
      return out;
    },
  };
}

// linesRan are the lines of spans ([from, to, line, ...], in order) with a
// piece in code that ran: V8's ranges of a script's functions nest, and a
// position counts as the innermost range holding it says.
function linesRan(functions, spans) {
  const ranges = [];
  for (let i = 0; i < functions.length; i++) {
    const rs = functions[i].ranges;
    for (let k = 0; k < rs.length; k++) ranges[ranges.length] = rs[k];
  }
  arraySort(ranges, (a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  // ran: [from, to) pieces that ran, in order, not overlapping.
  const ran = [];
  const emit = (from, to, count) => {
    if (to <= from || count <= 0) return;
    if (ran.length > 0 && ran[ran.length - 1] === from) ran[ran.length - 1] = to;
    else {
      ran[ran.length] = from;
      ran[ran.length] = to;
    }
  };
  const open = [];
  let pos = 0;
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i];
    while (open.length > 0 && open[open.length - 1].endOffset <= r.startOffset) {
      const o = open[open.length - 1];
      open.length--;
      emit(pos, o.endOffset, o.count);
      if (o.endOffset > pos) pos = o.endOffset;
    }
    if (open.length > 0) emit(pos, r.startOffset, open[open.length - 1].count);
    pos = r.startOffset;
    open[open.length] = r;
  }
  while (open.length > 0) {
    const o = open[open.length - 1];
    open.length--;
    emit(pos, o.endOffset, o.count);
    if (o.endOffset > pos) pos = o.endOffset;
  }
  const out = [];
  for (let i = 0; i + 2 < spans.length; i += 3) {
    const from = spans[i], to = spans[i + 1];
    // The first piece that ran ending past from: does it start before to?
    let lo = 0, hi = ran.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ran[2 * mid + 1] <= from) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ran.length / 2 && ran[2 * lo] < to) out[out.length] = spans[i + 2];
  }
  return out;
}

function uniqueSorted(xs) {
  arraySort(xs, (a, b) => a - b);
  const out = [];
  for (let i = 0; i < xs.length; i++) if (i === 0 || xs[i] !== xs[i - 1]) out[out.length] = xs[i];
  return out;
}

const RESOLVE_HOOK = `
const tries = [".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs"];
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (e) {
    const relative = specifier.startsWith("./") || specifier.startsWith("../");
    if (!relative || (e?.code !== "ERR_MODULE_NOT_FOUND" && e?.code !== "ERR_UNSUPPORTED_DIR_IMPORT")) throw e;
    const bare = specifier.replace(/\\.(m|c)?tsx?$/, "");
    for (const ext of tries) {
      try {
        return await next(bare + ext, context);
      } catch {}
    }
    throw e;
  }
}
`;

function reopen(fd, flags) {
  try {
    const again = openSync("/proc/self/fd/" + fd, flags);
    closeSync(fd);
    return again;
  } catch {
    return fd;
  }
}

// sleep waits ms milliseconds without returning to the event loop.
function sleep(ms) {
  apply(atomicsWait, Atomics, [sleepCell, 0, 0, ms]);
}

function readSome(fd, buf) {
  for (;;) {
    try {
      return readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if (e && e.code === "EAGAIN") {
        sleep(1);
        continue;
      }
      if (e && e.code === "EOF") return 0;
      throw e;
    }
  }
}

function writeAll(fd, data) {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (e) {
      if (e && e.code === "EAGAIN") {
        sleep(1);
        continue;
      }
      throw e;
    }
  }
}

async function loop(reqFd, maxFrame, send, cache, loader, cover, boxed) {
  const buf = bufferAlloc(1 << 16);
  const utf8 = new TextDecoderC("utf-8");
  let text = "", pos = 0;
  for (;;) {
    const nl = strIndexOf(text, "\n", pos);
    if (nl < 0) {
      if (text.length - pos > maxFrame) throw new ErrorC(`request frame over ${maxFrame} bytes`);
      const n = readSome(reqFd, buf);
      if (n === 0) return;
      text = strSlice(text, pos) + decodeText(utf8, u8Subarray(buf, 0, n), { stream: true });
      pos = 0;
      continue;
    }
    if (nl - pos > maxFrame) throw new ErrorC(`request frame over ${maxFrame} bytes`);
    const line = strSlice(text, pos, nl);
    pos = nl + 1;
    let call;
    try {
      call = jsonParse(line);
      if (call === null || typeof call !== "object" || isArray(call)) throw new ErrorC("a request is a JSON object");
    } catch (e) {
      send({ id: "", outcome: "error", detail: `bad request: ${messageOf(e)}` });
      continue;
    }
    if (cover === null) {
      send(await handle(call, cache, loader));
    } else {
      // A row's reruns arrive one after another, the same call under other
      // ids: the last of them carries the lines of all (one take of
      // coverage, not one each).
      const next = strIndexOf(text, "\n", pos);
      const rest = afterID(line);
      const again = next >= 0 && rest !== "" && afterID(strSlice(text, pos, next)) === rest;
      send(await watched(call, cache, loader, cover, again));
    }
    if (boxed) endStrays();
  }
}

// endStrays kills every process the call left behind in the worker's PID
// namespace (BOXED: premise's init started it there): a head that leaves
// processes burning the machine's CPU slows the base's calls, whose rows
// their time then cuts off (issue 26, load). libuv reaps the worker's own
// children.
//
// Node takes a kill of -1 (or 0, or its own pid) for its own end and runs
// its exit hooks first, which end the inspector's view of the worker's
// context: privateScopes would reach a module's own functions on the
// first call alone. So the namespace's processes are killed one by one,
// as the box's own /proc lists them, until none is left but the init and
// the worker; kill(-1), which spares those two and reaches nothing
// outside the namespace, is kept for a /proc that is not the namespace's
// (it names the worker by another pid) or strays that outrun the passes.
function endStrays() {
  // A killed process stays listed until the init reaps it: each pass
  // kills the ones not killed before, and a pass with none is the end.
  const killed = objectCreate(null);
  for (let pass = 0; pass < 8; pass++) {
    let names;
    try {
      if (readlinkSync("/proc/self") !== Str(ownPid)) break;
      names = readdirSync("/proc");
    } catch {
      break;
    }
    let fresh = 0;
    for (const name of names) {
      const pid = Num(name);
      if (!(pid > 1) || pid !== Math.floor(pid) || pid === ownPid || Str(pid) !== name || killed[pid] === true) continue;
      fresh++;
      killed[pid] = true;
      try {
        rawKill(pid, 9);
      } catch {
        // gone already
      }
    }
    if (fresh === 0) return;
  }
  try {
    rawKill(-1, 9);
  } catch {
    // none
  }
}

// afterID is a request's line after its leading "id" member, "" when it
// does not start with one: two requests with the same text after it are
// the same call.
function afterID(line) {
  const head = '{"id":"';
  if (!strStartsWith(line, head)) return "";
  for (let i = head.length; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") i++;
    else if (c === '"') return strSlice(line, i + 1);
  }
  return "";
}

function sender(fd, maxFrame) {
  return function send(reply) {
    let data;
    try {
      data = jsonStringify(reply);
    } catch (e) {
      data = jsonStringify({ id: reply.id ?? "", outcome: "unencodable", detail: `the result cannot be carried as JSON: ${messageOf(e)}` });
    }
    const size = bufferByteLength(data);
    if (size >= maxFrame) {
      data = jsonStringify({ id: reply.id ?? "", outcome: "unencodable", detail: `the reply is ${size} bytes, over the ${maxFrame}-byte frame limit` });
    }
    writeAll(fd, bufferFrom(data + "\n"));
  };
}

// modules finds and loads a target's module in repo.
function modules(repo, entries) {
  const exts = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"];
  const emitted = { ".ts": ".js", ".tsx": ".js", ".jsx": ".js", ".mts": ".mjs", ".cts": ".cjs" };
  const req = createRequire(join(repo, "index.js"));
  const scopes = new MapC(); // directory -> is its package "type": "module"
  function isFile(p) {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  }
  function find(modPath) {
    for (const base of [join(repo, modPath), join(repo, modPath, "index")]) {
      for (const ext of exts) {
        if (isFile(base + ext)) {
          const out = emitted[ext];
          return out ? base + out : base + ext;
        }
      }
    }
    return "";
  }
  function esm(file) {
    if (strEndsWith(file, ".mjs")) return true;
    if (strEndsWith(file, ".cjs")) return false;
    // Node's rule: the nearest package.json's "type", none outside a
    // node_modules directory's own package.
    let dir = dirname(file);
    const seen = [];
    let found = false;
    for (;;) {
      if (scopes.has(dir)) {
        found = scopes.get(dir);
        break;
      }
      seen[seen.length] = dir;
      const pj = join(dir, "package.json");
      if (existsSync(pj)) {
        try {
          found = jsonParse(readFileSync(pj, "utf8")).type === "module";
        } catch {
          found = false;
        }
        break;
      }
      const up = dirname(dir);
      if (up === dir || strEndsWith(dir, sep + "node_modules")) break;
      dir = up;
    }
    for (const d of seen) scopes.set(d, found);
    return found;
  }
  const entered = new SetC();
  // enter loads first the entry of the package a module in an import
  // cycle belongs to (ENTRIES: the module, by its path without extension,
  // to the entry's): imported alone, such a module can read a partner's
  // binding before the partner ran, where the entry runs them in the
  // order the package's callers see. What the entry throws is left for
  // the module's own import to say.
  async function enter(file) {
    const rel = strSlice(file, repo.length + 1);
    const key = strSlice(rel, 0, rel.length - extname(rel).length);
    const entry = entries.get(key);
    if (typeof entry !== "string" || entered.has(entry)) return;
    entered.add(entry);
    const ef = find(entry);
    if (!ef) return;
    try {
      if (esm(ef)) await import(pathToFileURL(ef).href);
      else req(ef);
    } catch {}
  }
  return async function load(modPath) {
    const file = find(modPath);
    if (!file) return null;
    await enter(file);
    if (esm(file)) return { ns: await import(pathToFileURL(file).href), cjs: false };
    return { ns: req(file), cjs: true };
  };
}

// privateReach finds a module's own function it does not export; null
// where this Node has no inspector.
let privateReach = null;

// privateScopes reaches the functions a module keeps to itself (earcut's
// findHoleBridge, object-inspect's isDate, a TypeScript module's
// unexported helper): such a function is a binding of the scope the
// module's exported functions close over (an ES module's scope, a
// CommonJS module's wrapper, a UMD factory's body), which V8's inspector
// lists for a function as its [[Scopes]]. Nothing is added to the
// module or its file: the worker asks V8 through a session of its own,
// whose methods, and the object values pass through, it holds from
// before any subject code ran. The returned find(ns, name) is the
// function bound to name in the innermost scope of the first exported
// function (or method of an exported object or class) that has one;
// undefined when none has.
async function privateScopes() {
  let session, post;
  try {
    const { Session } = await import("node:inspector");
    session = new Session();
    session.connect();
    const raw = Session.prototype.post;
    post = (method, params) => {
      let out = null;
      apply(raw, session, [method, params, (err, res) => {
        if (!err) out = res;
      }]);
      return out;
    };
  } catch {
    return null;
  }
  // holder carries values between the worker and the session: a
  // null-prototype object, so no setter of the subject's runs on it.
  const holder = objectCreate(null);
  const key = "premise-holder-" + Str(Date.now()) + "-" + Str(Math.random());
  defineProperty(globalThis, key, { value: holder, configurable: true });
  const got = post("Runtime.evaluate", { expression: "globalThis[" + jsonStringify(key) + "]", objectGroup: "premise-holder" });
  delete globalThis[key];
  const holderId = got && got.result && got.result.objectId;
  if (typeof holderId !== "string") return null;
  const group = "premise-scopes";
  function idOf(v) {
    holder.v = v;
    const r = post("Runtime.callFunctionOn", { objectId: holderId, functionDeclaration: "function () { return this.v; }", objectGroup: group });
    holder.v = undefined;
    return r && r.result && r.result.objectId;
  }
  function valueOf(objectId) {
    post("Runtime.callFunctionOn", { objectId: holderId, functionDeclaration: "function (v) { this.v = v; }", arguments: [{ objectId }] });
    const v = holder.v;
    holder.v = undefined;
    return v;
  }
  function props(objectId) {
    const r = post("Runtime.getProperties", { objectId, ownProperties: true, objectGroup: group });
    return r || {};
  }
  // bound looks name up in fn's scopes, innermost first.
  function bound(fn, name) {
    const id = idOf(fn);
    if (typeof id !== "string") return undefined;
    const internal = props(id).internalProperties || [];
    let scopes = null;
    for (const p of internal) if (p && p.name === "[[Scopes]]" && p.value && p.value.objectId) scopes = p.value.objectId;
    if (!scopes) return undefined;
    for (const sc of props(scopes).result || []) {
      const v = sc && sc.value;
      if (!v || !v.objectId || strStartsWith(Str(v.description || ""), "Global")) continue;
      for (const b of props(v.objectId).result || []) {
        if (b && b.name === name && b.value && b.value.type === "function" && b.value.objectId) return valueOf(b.value.objectId);
      }
    }
    return undefined;
  }
  // candidates are the functions a module's exports hold: the exports
  // themselves, their own members and a class's methods, at most 256.
  function candidates(ns) {
    const out = [];
    const seen = new SetC();
    const put = (v) => {
      if (typeof v === "function" && !seen.has(v) && out.length < 256) {
        seen.add(v);
        out[out.length] = v;
      }
    };
    const members = (o) => {
      if (o === null || (typeof o !== "object" && typeof o !== "function")) return;
      for (const k of getOwnPropertyNames(o)) {
        const d = getOwnPropertyDescriptor(o, k);
        if (d) {
          put(d.value);
          put(d.get);
        }
      }
    };
    put(ns);
    const tops = [];
    if (ns !== null && (typeof ns === "object" || typeof ns === "function")) {
      for (const k of getOwnPropertyNames(ns)) {
        const d = getOwnPropertyDescriptor(ns, k);
        if (!d) continue;
        // An export esbuild or tsc writes as a getter (CommonJS from
        // TypeScript) closes over the module's scope itself.
        put(d.get);
        let v = d.value;
        if (!("value" in d)) {
          try {
            v = ns[k];
          } catch {
            continue;
          }
        }
        put(v);
        tops[tops.length] = v;
      }
    }
    for (const t of tops) {
      members(t);
      if (typeof t === "function" && t.prototype !== null && typeof t.prototype === "object") members(t.prototype);
    }
    return out;
  }
  return function find(ns, name) {
    try {
      for (const fn of candidates(ns)) {
        const v = bound(fn, name);
        if (v !== undefined) return v;
      }
      return undefined;
    } finally {
      post("Runtime.releaseObjectGroup", { objectGroup: group });
    }
  };
}

// resolve finds what a target names: {fn, self, method, ctor}.
async function resolve(target, cache, loader) {
  const hit = cache.get(target);
  if (hit) return hit;
  if (typeof target !== "string" || target === "") throw new ErrorC("no target");
  const parts = strSplit(target, ".");
  const segs = strSplit(parts[0], "/");
  for (const s of segs) {
    if (s === ".." || s === "" || s === ".") throw new ErrorC(`target ${target}: want a module path inside the repository, e.g. src/lib/ranges.mergeRanges`);
  }
  for (let i = parts.length - 1; i >= 1; i--) {
    const modPath = arrayJoin(arraySlice(parts, 0, i), ".");
    const mod = await loader(modPath);
    if (!mod) continue;
    const r = member(target, mod, arraySlice(parts, i));
    cache.set(target, r);
    return r;
  }
  throw new ErrorC(`no module file for ${target} (want MODULE/PATH.name with MODULE/PATH.ts, .js, .mjs, ... in the repository)`);
}

// heldByName finds the one function named name that the exports hold as
// a member of a member (three levels down at most, 512 values looked at),
// read through data properties alone, so no getter of the subject's runs;
// undefined when none or several have that name.
function heldByName(exports, name) {
  let found;
  let many = false;
  let looked = 0;
  const seen = new SetC();
  const walk = (o, depth) => {
    if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o) || depth > 3 || looked > 512) return;
    seen.add(o);
    for (const k of getOwnPropertyNames(o)) {
      if (++looked > 512) return;
      const d = getOwnPropertyDescriptor(o, k);
      if (!d || !("value" in d)) continue;
      const v = d.value;
      if (typeof v === "function" && depth > 0) {
        const n = getOwnPropertyDescriptor(v, "name");
        if (n && n.value === name) {
          if (found !== undefined && found !== v) many = true;
          found = v;
        }
      }
      if (typeof v === "object" || (typeof v === "function" && depth === 0)) walk(v, depth + 1);
    }
  };
  walk(exports, 0);
  return many ? undefined : found;
}

function isClass(f) {
  if (typeof f !== "function") return false;
  try {
    return strStartsWith(fnToString(f), "class");
  } catch {
    return false;
  }
}

// oldStyleClass says whether fn, not read off an object, is a
// constructor written as a function (function BN(n) { this.negative = 0;
// ... } with BN.prototype.gcd = ...): its prototype has methods of its
// own, and it is built with new as its callers build it. A factory
// (bigInt(3)) has none and is called.
function oldStyleClass(fn, self) {
  if (typeof fn !== "function" || self !== undefined) return false;
  const p = getOwnPropertyDescriptor(fn, "prototype");
  if (!p || p.value === null || typeof p.value !== "object") return false;
  for (const k of getOwnPropertyNames(p.value)) {
    if (k === "constructor") continue;
    const d = getOwnPropertyDescriptor(p.value, k);
    if (d && (typeof d.value === "function" || typeof d.get === "function")) return true;
  }
  return false;
}

function findDescriptor(obj, name) {
  for (let o = obj; o !== null && o !== undefined; o = getPrototypeOf(o)) {
    const d = getOwnPropertyDescriptor(o, name);
    if (d) return d;
  }
  return undefined;
}

// exportsHasNext says module.exports, whose own "default" is a member like
// any other (nunjucks' filters: {default: function ..., sum: ...}), holds
// the name after "default" where that default does not.
function exportsHasNext(exp, names) {
  if (names.length < 2) return false;
  const d = exp.default;
  const inDefault = d !== null && (typeof d === "object" || typeof d === "function") && names[1] in d;
  return !inDefault && names[1] in exp;
}

function member(target, mod, names) {
  let obj = mod.ns;
  let self;
  for (let k = 0; k < names.length; k++) {
    const name = names[k];
    if (k === 0 && mod.cjs && name === "default" && !(obj !== null && (typeof obj === "object" || typeof obj === "function") && hasOwn(obj, "default") && !exportsHasNext(obj, names))) {
      // CommonJS: "default" is module.exports itself, unless it has a
      // default of its own (a transpiled ES module's) that holds the
      // next name.
      self = undefined;
      continue;
    }
    if (k === 0 && mod.cjs && typeof obj === "function" && !(name in obj) && obj.name === name) {
      // CommonJS whose module.exports is the function itself (a UMD
      // factory's return): the function is named by its own name.
      self = undefined;
      continue;
    }
    if (obj === null || (typeof obj !== "object" && typeof obj !== "function")) {
      throw new ErrorC(`${target}: ${arrayJoin(arraySlice(names, 0, k), ".")} is ${describe(obj)}, it has no member ${name}`);
    }
    if (name === "prototype" && k === names.length - 2 && typeof obj === "function" && obj.prototype && typeof obj.prototype === "object") {
      // Class.prototype.method: the instance method, named so where the
      // class has a static member of the same name (Link.parse, a
      // factory calling new Link().parse): called on the receiver.
      const d = findDescriptor(obj.prototype, names[k + 1]);
      if (d && typeof d.get === "function") return { fn: d.get, method: true, getter: true };
      if (d && typeof d.value === "function") return { fn: d.value, method: true };
      throw new ErrorC(`${target}: ${names[k + 1]} is not a method of ${obj.name || "the class"}'s objects`);
    }
    if (typeof obj === "function" && obj.prototype && typeof obj.prototype === "object" && name in obj.prototype && (!hasOwn(obj, name) || builtinOwn(obj, name))) {
      // An instance member: called on the receiver, the first argument.
      if (k !== names.length - 1) throw new ErrorC(`${target}: ${name} is an instance member; name it last`);
      const d = findDescriptor(obj.prototype, name);
      if (d && typeof d.get === "function") return { fn: d.get, method: true, getter: true };
      if (d && typeof d.value === "function") return { fn: d.value, method: true };
      throw new ErrorC(`${target}: ${name} is not a method of ${obj.name || "the class"}`);
    }
    if (!(name in obj) && k === names.length - 2 && k === 0) {
      // A class the module does not export (BigInteger.js' BigInteger,
      // built by the exported bigInt(3)): its method is the one the
      // receiver has by that name.
      return { fn: null, method: true, onReceiver: names[k + 1] };
    }
    if (typeof obj === "function" && !(name in obj) && k === names.length - 1 && k > 0) {
      // A function of the object a factory returns (nunjucks'
      // globals() builds {range, cycler, ...}): called on the receiver
      // the factory built.
      return { fn: null, method: true, onReceiver: name };
    }
    if (!(name in obj) && k === 0 && names.length === 1) {
      // A function the module keeps to itself, reached through the
      // scope its exports close over, or one its exports hold deeper
      // under its own name (parsimmon's Parsimmon.Binary = {byte: byte}:
      // a declaration no closure reads is not in any scope).
      const fn = (privateReach !== null ? privateReach(obj, name) : undefined) ?? heldByName(obj, name);
      if (fn !== undefined) return { fn, self: undefined, ctor: isClass(fn) || oldStyleClass(fn, undefined) };
      throw new UnreachedError(`no ${name} in the module's exports, nor in the scope its exported functions close over`);
    }
    if (!(name in obj)) throw new ErrorC(`${target}: no ${name} in ${k === 0 ? "the module's exports" : arrayJoin(arraySlice(names, 0, k), ".")}`);
    self = k === 0 ? undefined : obj;
    obj = obj[name];
  }
  return { fn: obj, self: ownThis(obj, self), ctor: isClass(obj) || oldStyleClass(obj, self) };
}

// ownThis is the this a function is called with: the object it was read
// from, or the function itself when it reads data copied onto it through
// this that the object lacks (validate.js' email: v.extend(function
// (value) { ... this.PATTERN ... }, {PATTERN: /.../}), which validate
// calls as validator.call(validator, ...)).
function ownThis(fn, self) {
  if (typeof fn !== "function" || self === undefined || self === null || isClass(fn)) return self;
  let text;
  try {
    text = fnToString(fn);
  } catch {
    return self;
  }
  for (const k of objectKeys(fn)) {
    if (!(k in self) && strIncludes(text, "this." + k)) return fn;
  }
  return self;
}

// builtinOwn: a class's own length or name is the function's own, not a
// static member, unless a static member replaced it: Interval.length names
// the getter on Interval's instances.
function builtinOwn(fn, name) {
  if (name !== "length" && name !== "name") return false;
  const d = getOwnPropertyDescriptor(fn, name);
  return d !== undefined && "value" in d && typeof d.value !== "function" && !d.writable && !d.enumerable;
}

function describe(v) {
  if (v === null) return "null";
  return typeof v;
}

async function handle(call, cache, loader) {
  const id = typeof call.id === "string" ? call.id : "";
  let entry;
  try {
    entry = await resolve(call.target, cache, loader);
  } catch (e) {
    if (e instanceof UnreachedError) return { id, outcome: "error", detail: `unreached ${call.target}: ${e.message}` };
    return { id, outcome: "error", detail: `import ${call.target}: ${classOf(e)}: ${oneLine(messageOf(e))}` };
  }
  let args = isArray(call.args) ? call.args : [];
  let kwargs = call.kwargs !== null && typeof call.kwargs === "object" && !isArray(call.kwargs) ? call.kwargs : {};
  let observe = 0;
  let probes = [];
  if (hasOwn(kwargs, "$observe")) {
    const rest = {};
    for (const k of objectKeys(kwargs)) {
      if (k === "$observe") observe = kwargs[k];
      else if (k === "$probes") probes = isArray(kwargs[k]) ? kwargs[k] : [];
      else defineProperty(rest, k, { value: kwargs[k], enumerable: true, writable: true, configurable: true });
    }
    kwargs = rest;
    if (typeof observe !== "number" || !(observe >= 0) || observe !== Math.floor(observe)) observe = 0;
  }
  let extra = [];
  const log = [];
  log.more = 0;
  heardLog = log;
  try {
    return await called(id, call.target, entry, args, kwargs, observe, probes, extra, cache, loader, log);
  } finally {
    heardLog = null;
  }
}

// called is handle's call, its callbacks heard into log: a result beside
// what they were handed, {"$returned": V, "$heard": [[args], ...]} (with
// "$heard_more": N past MAX_HEARD).
async function called(id, target, entry, args, kwargs, observe, probes, extra, cache, loader, log) {
  try {
    args = await decodeArgs(args, cache, loader);
    if (objectKeys(kwargs).length > 0) args[args.length] = await decode(kwargs, cache, loader, 0);
    if (observe) {
      for (const p of probes) {
        if (isArray(p)) extra[extra.length] = await decodeArgs(p, cache, loader);
        else if (p !== null && typeof p === "object" && typeof p.$call === "string" && isArray(p.$args)) {
          extra[extra.length] = { __proto__: null, method: p.$call, args: await decodeArgs(p.$args, cache, loader) };
        }
      }
    }
  } catch (e) {
    // A receiver's constructor is the code under review: what it throws
    // is that code's behaviour on this row.
    if (e instanceof SubjectThrow) return raised(id, e.e);
    return raised(id, e, "premise.DecodeError");
  }
  if (entry.method && args.length === 0) {
    return raised(id, new DecodeError(`${target} is an instance member: pass its receiver as the first argument`), "premise.ArityError");
  }
  if (entry.onReceiver !== undefined && receiverMember(args[0], entry.onReceiver) === undefined) {
    return raised(id, new DecodeError(`${target}: the receiver, ${describe(args[0])}, has no method ${entry.onReceiver}`), "premise.DecodeError");
  }
  const before = observe ? snapshot(args) : null;
  let value;
  try {
    value = invoke(entry, args);
    if (isPromise(value)) value = await settle(value);
    if (observe) value = (await probe((await consume(value, observe)).v, observe, extra, 0)).v;
  } catch (e) {
    return raised(id, e);
  }
  heardLog = null; // what encoding the result runs (a getter) is not the call's
  let out;
  try {
    out = encode(value, 0, []);
    if (observe) {
      const after = snapshot(args);
      const changed = {};
      let any = false;
      for (const k of objectKeys(after)) {
        if (before[k] !== after[k]) {
          changed[k] = jsonParse(after[k]);
          any = true;
        }
      }
      if (any) out = { $returned: out, $args_after: changed };
    }
    if (log.length > 0) {
      if (out === null || typeof out !== "object" || isArray(out) || !hasOwn(out, "$returned")) out = { $returned: out };
      defineProperty(out, "$heard", { value: log, enumerable: true, writable: true, configurable: true });
      if (log.more > 0) defineProperty(out, "$heard_more", { value: log.more, enumerable: true, writable: true, configurable: true });
    }
  } catch (e) {
    return { id, outcome: "unencodable", detail: `the result cannot be carried as JSON: ${classOf(e)}: ${oneLine(messageOf(e))}` };
  }
  return { id, outcome: "returned", value: out };
}

// watched handles a call with coverage on, its reply carrying the
// watched lines it ran, and those of the calls before it that carried
// none; with again (the next call is this one again), it carries none,
// and the next reply carries its lines. A target's module imported for
// the first time is imported before the call, and what its import ran
// dropped.
async function watched(call, cache, loader, cover, again) {
  if (typeof call.target === "string" && !cache.has(call.target)) {
    try {
      await resolve(call.target, cache, loader);
    } catch {} // handle reports it
    cover.reset();
  }
  const reply = await handle(call, cache, loader);
  if (again) return reply;
  const lines = cover.lines();
  if (lines !== null) reply.lines = lines;
  return reply;
}

// receiverMember is the method (or getter) named so on recv's prototype
// chain, undefined when it has none.
function receiverMember(recv, name) {
  if (recv === null || (typeof recv !== "object" && typeof recv !== "function")) return undefined;
  const d = findDescriptor(recv, name);
  if (d && (typeof d.get === "function" || typeof d.value === "function")) return d;
  return undefined;
}

function invoke(entry, args) {
  if (entry.onReceiver !== undefined) {
    const d = receiverMember(args[0], entry.onReceiver);
    if (typeof d.get === "function") return apply(d.get, args[0], []);
    return apply(d.value, args[0], arraySlice(args, 1));
  }
  if (entry.method) {
    const recv = args[0];
    return apply(entry.fn, recv, entry.getter ? [] : arraySlice(args, 1));
  }
  if (entry.ctor) return construct(entry.fn, args);
  // Calling what is not a function fails as JavaScript fails it.
  return apply(entry.fn, entry.self, args);
}

// settle awaits p, keeping the event loop alive meanwhile: a promise that
// never settles is a timeout, not a worker that exits.
async function settle(p) {
  const alive = setIntervalF(() => {}, 1 << 30);
  try {
    return await p;
  } finally {
    clearIntervalF(alive);
  }
}

async function decodeArgs(list, cache, loader) {
  const out = [];
  for (let i = 0; i < list.length; i++) out[i] = await decode(list[i], cache, loader, 0);
  return out;
}

const TAGS = ["$undefined", "$hole", "$number", "$bigint", "$map", "$set", "$date", "$regexp", "$symbol", "$object", "$nullproto", "$utf16", "$func", "$new"];

// CALLBACKS make the functions {"$func": name} builds, a fresh one each
// time (no row sees what another's call left on it): what a caller's
// callback might do with what it is handed. mark wraps a string in angle
// brackets (a replacer whose result shows what it was handed) and hands
// anything else back. Each notes what it was handed (heard): an event's
// or a stream's callback returns nothing the call's result shows.
const CALLBACKS = {
  mark: () => (...a) => (heard(a), typeof a[0] === "string" ? "<" + a[0] + ">" : a[0]),
  identity: () => (...a) => (heard(a), a[0]),
  truthy: () => (...a) => (heard(a), !!a[0]),
  true: () => (...a) => (heard(a), true),
  false: () => (...a) => (heard(a), false),
};

// heardLog is, during one call (handle), the arguments premise's
// callbacks were handed, each encoded when it was (a buffer the code
// reuses is seen as it was then); null between calls. MAX_HEARD bounds
// it: past it, only how many more.
let heardLog = null;
const MAX_HEARD = 32;

function heard(args) {
  if (heardLog === null) return;
  if (heardLog.length >= MAX_HEARD) {
    heardLog.more++;
    return;
  }
  let v;
  try {
    v = encode(args, 0, []);
  } catch (e) {
    v = { $unencodable: classOf(e) };
  }
  heardLog[heardLog.length] = v;
}

async function decode(v, cache, loader, depth) {
  if (v === null || typeof v !== "object") return v;
  if (depth > MAX_DEPTH) throw new DecodeError("an argument nested deeper than 64");
  if (isArray(v)) {
    const out = [];
    out.length = v.length;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === "object" && !isArray(x) && hasOwn(x, "$hole")) continue;
      out[i] = await decode(x, cache, loader, depth + 1);
    }
    return out;
  }
  const ks = objectKeys(v);
  let tag = "";
  for (const k of ks) if (strStartsWith(k, "$")) tag = tag || k;
  if (tag === "") return plainObject(v, ks, cache, loader, depth);
  if (hasOwn(v, "$new")) tag = "$new";
  if (tag === "$new") {
    const target = v.$new;
    const args = isArray(v.$args) ? v.$args : v.$args === undefined ? [] : null;
    if (typeof target !== "string" || args === null) throw new DecodeError(`$new wants a target and a list $args: ${jsonStringify(v)}`);
    let entry;
    try {
      entry = await resolve(target, cache, loader);
    } catch (e) {
      throw new DecodeError(`$new ${target}: ${messageOf(e)}`);
    }
    if (entry.method || typeof entry.fn !== "function") throw new DecodeError(`$new ${target}: not a class or a function`);
    const a = await decodeArgs(args, cache, loader);
    // "$chain" is "$then" whose each call's result is the object the
    // next is called on, as a builder chain reads (z.string().datetime()).
    const chained = v.$chain !== undefined;
    if (chained && v.$then !== undefined) throw new DecodeError(`$new takes $then or $chain, not both: ${oneLine(jsonStringify(v))}`);
    const then = chained ? v.$chain : v.$then === undefined ? [] : v.$then;
    if (!isArray(then)) throw new DecodeError(`$then wants a list of {$call, $args}: ${oneLine(jsonStringify(v))}`);
    let made;
    try {
      made = entry.ctor ? construct(entry.fn, a) : apply(entry.fn, entry.self, a);
      if (isPromise(made)) made = await settle(made);
    } catch (e) {
      throw new SubjectThrow(e);
    }
    // The object's own methods called in order before the row's call
    // ($then: [{$call: "push", $args: [1]}]): a state its constructor
    // alone never builds.
    for (const st of then) {
      const name = st !== null && typeof st === "object" ? st.$call : undefined;
      const sa = st !== null && typeof st === "object" && isArray(st.$args) ? st.$args : null;
      if (typeof name !== "string" || name === "constructor" || sa === null) throw new DecodeError(`$then wants {$call: a method's name, $args: [...]}: ${oneLine(jsonStringify(st))}`);
      const m = made !== null && made !== undefined ? made[name] : undefined;
      if (typeof m !== "function") throw new DecodeError(`$then: ${name} is not a method of what ${target} built`);
      const stepArgs = await decodeArgs(sa, cache, loader);
      try {
        let r = apply(m, made, stepArgs);
        if (isPromise(r)) r = await settle(r);
        if (chained) made = r;
      } catch (e) {
        throw new SubjectThrow(e);
      }
    }
    return made;
  }
  if (tag === "$class" && ks.length === 2 && typeof v.$class === "string" && isArray(v.$items) && (v.$class === "Buffer" || ITEM_CLASSES[v.$class] !== undefined)) {
    if (v.$items.length > 1 << 20) throw new DecodeError(`$items of a ${v.$class}: more than 1048576`);
    for (const x of v.$items) if (typeof x !== "number") throw new DecodeError(`$items of a ${v.$class} wants numbers`);
    return v.$class === "Buffer" ? apply(bufferFrom, Buffer, [v.$items]) : new ITEM_CLASSES[v.$class](v.$items);
  }
  if (ks.length !== 1) throw new DecodeError(`an argument object with ${tag} has other keys: ${oneLine(jsonStringify(v))}`);
  const x = v[tag];
  switch (tag) {
    case "$undefined":
      return undefined;
    case "$hole":
      return undefined;
    case "$number":
      switch (x) {
        case "NaN":
          return NaN;
        case "Infinity":
          return Infinity;
        case "-Infinity":
          return -Infinity;
        case "-0":
          return -0;
      }
      throw new DecodeError(`$number ${jsonStringify(x)}: want "NaN", "Infinity", "-Infinity" or "-0"`);
    case "$bigint":
      try {
        if (typeof x === "string" || typeof x === "number") return BigIntOf(x);
      } catch {}
      throw new DecodeError(`$bigint ${jsonStringify(x)}: want the integer's digits`);
    case "$map": {
      if (!isArray(x)) throw new DecodeError("$map wants a list of [key, value] pairs");
      const m = new MapC();
      for (const e of x) {
        if (!isArray(e) || e.length !== 2) throw new DecodeError("$map wants a list of [key, value] pairs");
        m.set(await decode(e[0], cache, loader, depth + 1), await decode(e[1], cache, loader, depth + 1));
      }
      return m;
    }
    case "$set": {
      if (!isArray(x)) throw new DecodeError("$set wants a list");
      const s = new SetC();
      for (const e of x) s.add(await decode(e, cache, loader, depth + 1));
      return s;
    }
    case "$date":
      // A list is new Date's arguments, year to millisecond, in the
      // worker's time zone: new Date(999, 0, 1) as a test wrote it.
      if (isArray(x) && x.length >= 2 && x.length <= 7) {
        const ns = [];
        for (let i = 0; i < x.length; i++) {
          if (typeof x[i] !== "number") throw new DecodeError("$date's list wants numbers");
          ns[i] = x[i];
        }
        return new DateC(ns[0], ns[1], ns[2] ?? 1, ns[3] ?? 0, ns[4] ?? 0, ns[5] ?? 0, ns[6] ?? 0);
      }
      if (typeof x !== "string" && typeof x !== "number") throw new DecodeError("$date wants an ISO 8601 string, milliseconds or new Date's numbers");
      return new DateC(x === "Invalid Date" ? NaN : x);
    case "$regexp": {
      const m = typeof x === "string" ? /^\/(.*)\/([a-z]*)$/s.exec(x) : null;
      if (!m) throw new DecodeError(`$regexp ${jsonStringify(x)}: want "/source/flags"`);
      try {
        return new RegExpC(m[1], m[2]);
      } catch (e) {
        throw new DecodeError(`$regexp ${x}: ${messageOf(e)}`);
      }
    }
    case "$symbol":
      return SymbolC(typeof x === "string" ? x : undefined);
    case "$object":
      if (x === null || typeof x !== "object" || isArray(x)) throw new DecodeError("$object wants an object");
      return plainObject(x, objectKeys(x), cache, loader, depth);
    case "$utf16": {
      if (!isArray(x) || x.length > 4096) throw new DecodeError("$utf16 wants an array of code units");
      let out = "";
      for (const u of x) {
        if (typeof u !== "number" || u !== (u & 0xffff)) throw new DecodeError("$utf16 wants code units, 0 to 65535");
        out += fromCharCode(u);
      }
      return out;
    }
    case "$func":
      if (typeof x !== "string" || !hasOwn(CALLBACKS, x)) throw new DecodeError(`$func ${jsonStringify(x)}: want one of ${arrayJoin(objectKeys(CALLBACKS), ", ")}`);
      return CALLBACKS[x]();
    case "$nullproto": {
      if (x === null || typeof x !== "object" || isArray(x)) throw new DecodeError("$nullproto wants an object");
      const o = objectCreate(null);
      for (const k of objectKeys(x)) defineProperty(o, k, { value: await decode(x[k], cache, loader, depth + 1), enumerable: true, writable: true, configurable: true });
      return o;
    }
  }
  if (tag === "$class" || tag === "$fields") throw new DecodeError("a class instance cannot be passed as a value: build it with {\"$new\": \"module/path.Class\", \"$args\": [...]}");
  throw new DecodeError(`unknown argument form ${tag} (want one of ${arrayJoin(TAGS, ", ")})`);
}

async function plainObject(v, ks, cache, loader, depth) {
  const out = {};
  for (const k of ks) {
    // defineProperty: a "__proto__" key is a key, never the prototype.
    defineProperty(out, k, { value: await decode(v[k], cache, loader, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// className is the name of v's class: its constructor's name, found as a
// data property on its prototype chain (a getter is not run).
function className(v) {
  let proto;
  try {
    proto = getPrototypeOf(v);
  } catch {
    return "Object";
  }
  if (proto === null) return "Object";
  const d = findDescriptor(proto, "constructor");
  const c = d && d.value;
  if (typeof c === "function") {
    const nd = getOwnPropertyDescriptor(c, "name");
    if (nd && typeof nd.value === "string" && nd.value !== "") return nd.value;
  }
  return "Object";
}

function isPlain(v) {
  const proto = getPrototypeOf(v);
  if (proto === null || proto === ObjectProto) return true;
  // An object made in another realm (vm): its Object.prototype.
  return getPrototypeOf(proto) === null && className(v) === "Object";
}

function fieldsOf(v, depth, stack) {
  const out = {};
  const ks = objectKeys(v);
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i];
    const d = getOwnPropertyDescriptor(v, k);
    const x = d === undefined ? undefined : "value" in d ? encode(d.value, depth + 1, stack) : { $accessor: true };
    defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function itemsOf(v, depth, stack) {
  const out = [];
  for (let i = 0; i < v.length; i++) out[i] = i in v ? encode(v[i], depth + 1, stack) : { $hole: true };
  return out;
}

// encode is v as the protocol carries it (the header's table).
function encode(v, depth, stack) {
  switch (typeof v) {
    case "undefined":
      return { $undefined: true };
    case "boolean":
      return v;
    case "string":
      return loneSurrogate(v) ? { $utf16: codeUnits(v) } : v;
    case "number":
      if (v !== v) return { $number: "NaN" };
      if (v === Infinity) return { $number: "Infinity" };
      if (v === -Infinity) return { $number: "-Infinity" };
      if (objectIs(v, -0)) return { $number: "-0" };
      return v;
    case "bigint":
      return { $bigint: Str(v) };
    case "symbol":
      return { $symbol: v.description ?? "" };
    case "function":
      return { $function: typeof v.name === "string" ? v.name : "" };
  }
  if (v === null) return null;
  if (v instanceof Encoded) return v.v;
  if (depth > MAX_DEPTH) return { $truncated: true };
  for (let i = 0; i < stack.length; i++) if (stack[i] === v) return { $cycle: true };
  stack[stack.length] = v;
  try {
    return encodeObject(v, depth, stack);
  } finally {
    stack.length--;
  }
}

// loneSurrogate says s holds half of a surrogate pair alone ("\ud83d",
// what a diff that splits an emoji leaves): JSON carries it escaped, but
// premise reads JSON into Go strings, where every such half is the same
// U+FFFD. Such a string goes by its code units, {"$utf16": [...]}, so two
// that differ stay apart.
function loneSurrogate(s) {
  for (let i = 0; i < s.length; i++) {
    const c = strCharCodeAt(s, i);
    if (c >= 0xdc00 && c <= 0xdfff) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? strCharCodeAt(s, i + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) return true;
      i++;
    }
  }
  return false;
}

function codeUnits(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) out[out.length] = strCharCodeAt(s, i);
  return out;
}

function encodeObject(v, depth, stack) {
  if (isProxy(v)) return { $class: "Proxy", $fields: {} };
  if (isArray(v)) {
    const items = itemsOf(v, depth, stack);
    const proto = getPrototypeOf(v);
    if (proto === ArrayProto || className(v) === "Array") return items;
    return { $class: className(v), $items: items };
  }
  const cls = className(v);
  if (isMap(v)) {
    const entries = [];
    const it = mapEntries(v);
    for (let r = mapIterNext(it); !r.done; r = mapIterNext(it)) entries[entries.length] = [encode(r.value[0], depth + 1, stack), encode(r.value[1], depth + 1, stack)];
    return cls === "Map" ? { $map: entries } : { $class: cls, $map: entries, $fields: fieldsOf(v, depth, stack) };
  }
  if (isSet(v)) {
    const items = [];
    const it = setValues(v);
    for (let r = setIterNext(it); !r.done; r = setIterNext(it)) items[items.length] = encode(r.value, depth + 1, stack);
    return cls === "Set" ? { $set: items } : { $class: cls, $set: items, $fields: fieldsOf(v, depth, stack) };
  }
  if (isDate(v)) {
    const t = dateTime(v);
    return { $date: t !== t ? "Invalid Date" : dateISO(v) };
  }
  if (isRegExp(v)) return { $regexp: regexpString(v) };
  if (isTypedArray(v)) {
    const items = [];
    for (let i = 0; i < v.length; i++) items[i] = encode(v[i], depth + 1, stack);
    return { $class: cls, $items: items };
  }
  if (isArrayBuffer(v)) {
    const bytes = new Uint8Array(v);
    const items = [];
    for (let i = 0; i < bytes.length; i++) items[i] = bytes[i];
    return { $class: cls, $items: items };
  }
  if (isBoxedPrimitive(v)) return { $class: cls, $value: encode(v.valueOf(), depth + 1, stack) };
  if (isPromise(v)) return { $class: cls, $fields: {} };
  if (isPlain(v)) {
    const ks = objectKeys(v);
    let dollar = false;
    for (let i = 0; i < ks.length; i++) if (strStartsWith(ks[i], "$")) dollar = true;
    const fields = fieldsOf(v, depth, stack);
    // An object without a prototype ('toString' in it is false, as its
    // lookups of such keys) is not {}: a patch that turns one into the
    // other changes what every key lookup finds.
    if (getPrototypeOf(v) === null) return { $nullproto: dollar ? { $object: fields } : fields };
    return dollar ? { $object: fields } : fields;
  }
  const out = { $class: cls, $fields: fieldsOf(v, depth, stack) };
  if (isNativeError(v) || v instanceof ErrorC) out.$message = Str(messageOf(v));
  else if (objectKeys(out.$fields).length === 0) {
    // An object that keeps its state where no key shows it (#private
    // fields) is what its class's getters say: a Span whose lo getter
    // reads #lo.
    const got = gettersOf(v, depth, stack);
    if (got !== undefined) out.$getters = got;
  }
  return out;
}

// gettersOf is what the getters of v's classes (their prototypes' own
// accessors, Object's aside) return, at most eight, by name; undefined
// when they have none. A getter that throws is {"$raised": CLASS}.
function gettersOf(v, depth, stack) {
  let out;
  let n = 0;
  for (let p = getPrototypeOf(v); p !== null && p !== undefined && p !== ObjectProto && n < 8; p = getPrototypeOf(p)) {
    const names = getOwnPropertyNames(p);
    for (let i = 0; i < names.length && n < 8; i++) {
      const k = names[i];
      const d = getOwnPropertyDescriptor(p, k);
      if (d === undefined || typeof d.get !== "function" || (out !== undefined && hasOwn(out, k))) continue;
      let x;
      try {
        x = encode(apply(d.get, v, []), depth + 1, stack);
      } catch (e) {
        x = { $raised: classOf(e) };
      }
      if (out === undefined) out = {};
      defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
      n++;
    }
  }
  return out;
}

// snapshot is each mutable argument's state, as comparable text.
function snapshot(args) {
  const out = {};
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    if (v !== null && typeof v === "object" && (isArray(v) || isMap(v) || isSet(v) || isPlain(v) || isTypedArray(v))) {
      try {
        out[Str(i)] = jsonStringify(encode(v, 0, []));
      } catch {}
    }
  }
  return out;
}

// consume is an iterator's (or async iterator's) first limit items, as a
// list when it ends within them, else {"$first": items}; what iterating
// throws is the call's raise. consume and probe answer in a box with no
// prototype, {v}: an async function's answer is awaited, and a value with
// a then method (a parsimmon parser) would be called as a promise is,
// where the call returned it plainly.
async function consume(value, limit) {
  if (value === null || typeof value !== "object" || isArray(value) || isMap(value) || isSet(value) || isTypedArray(value)) return { __proto__: null, v: value };
  const next = value.next;
  if (typeof next !== "function" || !(iteratorSym in value || asyncIteratorSym in value)) return { __proto__: null, v: value };
  const items = [];
  for (let i = 0; i < limit; i++) {
    let r = apply(next, value, []);
    if (isPromise(r)) r = await settle(r);
    if (r === null || typeof r !== "object") return { __proto__: null, v: value };
    if (r.done) return { __proto__: null, v: items };
    items[items.length] = r.value;
  }
  const shown = [];
  for (let i = 0; i < items.length; i++) shown[i] = encode(items[i], 1, []);
  return { __proto__: null, v: new Encoded({ $first: shown }) };
}

function first(...a) {
  return a.length ? a[0] : undefined;
}

// The calls a returned function is compared by: none, one small number,
// text, a list, two numbers, two strings, a function.
const PROBES = [[], [0], [1], [-2], [3], ["ab"], [[3, 1, 2]], [-2, 3], [2, 3], ["a", "b"], [first]];

// probe: a function the call returned (compose(f, g), a curried function,
// a decorator's wrapper) is compared by what it does on a few small calls
// ({"$calls": [...]}, a raise as its class), one level down for a function
// such a call returns; extra are more calls, from the target's constants.
// Classes are left as they are.
async function probe(value, limit, extra, depth) {
  if (typeof value !== "function" || isClass(value)) return await methodProbes(value, limit, extra);
  const out = [];
  const calls = [...PROBES, ...arrayFilter(extra, isArray)];
  for (const p of calls) {
    try {
      let r = apply(value, undefined, arraySlice(p));
      if (isPromise(r)) r = await settle(r);
      r = (await consume(r, limit)).v;
      if (depth === 0) r = (await probe(r, limit, extra, 1)).v;
      out[out.length] = encode(r, 1, []);
    } catch (e) {
      out[out.length] = { $raised: classOf(e) };
    }
  }
  // The functions a wrapper carries (a cache's clear, a retry's reset)
  // are part of what it does, and so is the data it carries (a compiled
  // matcher's regexp and pattern, wildcard-match's isMatch.regexp).
  const names = [];
  const data = [];
  for (const k of objectKeys(value)) {
    if (strStartsWith(k, "_")) continue;
    if (typeof value[k] === "function") names[names.length] = k;
    else data[data.length] = k;
  }
  arraySort(names);
  arraySort(data);
  for (const k of arraySlice(data, 0, 8)) {
    try {
      out[out.length] = { $attr: k, $data: encode(value[k], 1, []) };
    } catch (e) {
      out[out.length] = { $attr: k, $raised: classOf(e) };
    }
  }
  for (const name of arraySlice(names, 0, 3)) {
    for (const p of [[], [0], [1], [1]]) {
      try {
        let r = apply(value[name], value, p);
        if (isPromise(r)) r = await settle(r);
        out[out.length] = { $attr: name, $value: encode((await consume(r, limit)).v, 1, []) };
      } catch (e) {
        out[out.length] = { $attr: name, $raised: classOf(e) };
      }
    }
  }
  return { __proto__: null, v: new Encoded({ $calls: out }) };
}

// methodProbes compares an object a call returned (a parser a
// combinator built) also by what its methods answer to the calls the
// tests make of them (parser.parse("1")): {"$returned": V, "$methods":
// [{"$call": name, "$value": W} or {"$call": name, "$raised": class}, or
// {"$call": name, "$none": true} where it has no such method]}, in the
// order of the probes. An object with none of those methods is itself.
async function methodProbes(value, limit, extra) {
  if (value === null || typeof value !== "object" || isArray(value) || isPromise(value)) return { __proto__: null, v: value };
  const out = [];
  let any = false;
  for (const p of extra) {
    if (isArray(p)) continue;
    let m;
    try {
      m = value[p.method];
    } catch {}
    if (typeof m !== "function") {
      // Kept in its place, so that the answers line up with the probes.
      out[out.length] = { $call: p.method, $none: true };
      continue;
    }
    any = true;
    try {
      const args = arraySlice(p.args);
      const before = snapshot(args);
      let r = apply(m, value, args);
      if (isPromise(r)) r = await settle(r);
      const answer = { $call: p.method, $value: encode((await consume(r, limit)).v, 1, []) };
      // An argument the method changed (fast-sort's asc(by) took the
      // first key off the caller's list) is part of its answer.
      const after = snapshot(args);
      for (const k of objectKeys(after)) {
        if (before[k] !== after[k]) {
          if (answer.$args_after === undefined) answer.$args_after = {};
          answer.$args_after[k] = jsonParse(after[k]);
        }
      }
      out[out.length] = answer;
    } catch (e) {
      out[out.length] = { $call: p.method, $raised: classOf(e) };
    }
  }
  if (!any) return { __proto__: null, v: value };
  return { __proto__: null, v: new Encoded({ $returned: encode(value, 0, []), $methods: out }) };
}

// classOf is a thrown value's class: its constructor's name for an object
// (an Error's name when its class has none), its type for anything else.
function classOf(e) {
  if (e === null) return "null";
  if (typeof e !== "object" && typeof e !== "function") return typeof e;
  const c = className(e);
  if (c === "Object" && (isNativeError(e) || e instanceof ErrorC)) {
    try {
      if (typeof e.name === "string" && e.name !== "") return e.name;
    } catch {}
  }
  return c;
}

function messageOf(e) {
  try {
    if (e !== null && typeof e === "object") {
      const d = findDescriptor(e, "message");
      if (d && "value" in d) return Str(d.value);
      return "";
    }
    return typeof e === "symbol" ? e.toString() : Str(e);
  } catch {
    return "";
  }
}

function oneLine(s) {
  return strSplit(s, "\n")[0];
}

function raised(id, e, cls) {
  let code = null;
  if (cls === undefined) {
    if (e !== null && (typeof e === "object" || typeof e === "function")) {
      try {
        const d = findDescriptor(e, "code");
        const c = d && "value" in d ? d.value : undefined;
        if (typeof c === "string" || typeof c === "boolean" || (typeof c === "number" && c === c && c !== Infinity && c !== -Infinity)) code = c;
      } catch {}
    } else if (typeof e === "string" || typeof e === "boolean" || (typeof e === "number" && e === e && e !== Infinity && e !== -Infinity)) {
      // A thrown primitive is its own code: throw "E_RANGE" is pinned by it.
      code = e;
    }
  }
  let stack = "";
  try {
    const d = e !== null && typeof e === "object" ? findDescriptor(e, "stack") : undefined;
    if (d && typeof d.value === "string") stack = d.value;
  } catch {}
  const message = messageOf(e);
  const exc = { class: cls ?? classOf(e), code, message: strSlice(message, 0, 4096) };
  if (cls === undefined && builtinErrorProtos.has(exc.class) && e !== null && typeof e === "object") {
    try {
      if (getPrototypeOf(e) !== builtinErrorProtos.get(exc.class)) exc.module = "(the code's own)";
    } catch {}
  }
  return {
    id,
    outcome: "raised",
    exc,
    detail: strSlice(cls === undefined ? stack || message : message, -4096),
    // Only the harness names a class (its refusals): marked so, as no
    // throw of the code under review is, whatever its class is called.
    refused: cls !== undefined,
  };
}

try {
  await main();
  exitNow(0); // the requests ended: premise is done with this worker, whatever timers the subject left
} catch (e) {
  try {
    writeSync(2, `premise worker: ${messageOf(e)}\n`);
  } catch {}
  exitNow(70);
}
