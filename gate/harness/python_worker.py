# premise's Python worker: the runner protocol of DESIGN.md on two fds.
#
# Standard library only. premise embeds this file and runs it as
#   INTERPRETER -s -B -c BOOT SCRIPT REPO_DIR MAX_FRAME AS_LIMIT REQ_FD REP_FD PAGE_FD WATCH BOXED
# where BOOT (gate/python.go) executes SCRIPT in a module of its own and calls
# main(). Requests arrive as JSON lines on REQ_FD, replies leave as JSON lines
# on REP_FD (both drawn from a high range), so nothing the subject prints on
# stdout or stderr can corrupt the protocol.
#
# The repository is put on sys.path only after every module this file uses
# is imported (issue 26, item 3): a resource.py or json/ the head adds at the
# top of its tree cannot replace the worker's own, nor lift its limits.
#
# PAGE_FD, when not -1, is premise's progress page: a shared page where the
# worker records which request it is running and since when (CLOCK_MONOTONIC
# nanoseconds) before every call. With it, the worker sends its replies in
# one write whenever it runs out of requests, instead of one write per reply
# (a write that wakes premise costs more than a small call): if a call then
# hangs or kills the worker, premise reads the page to know which call did,
# and sends the calls answered but not yet sent again. Without it every
# reply leaves at once. (Issue 12 kept the batching: replying at once costs
# BenchmarkGatePython1000 a third more; gate/worker_batch.go has the figures.)
#
# WATCH is a JSON object {"/abs/file.py": [[from, to], ...]} (gate/watch.go):
# when it names files, each call runs under a line tracer that looks only
# at code from those files, and its reply carries "lines": the lines inside
# those ranges the call ran. A call marked "unwatched" (every attempt of a
# row but the last) runs without the tracer: a subject that sees it
# (sys.gettrace(), its frame's f_trace) and answers as the base does only
# then answers otherwise on another attempt, which premise calls a change
# of the head's (issue 26, tells). Evidence asks for it, to say whether a row
# executed the lines a patch changed; the gate never does.
import sys

# The working directory, where the code under review lives, is on the path
# of an interpreter started with -c on Pythons without PYTHONSAFEPATH: off
# it goes before anything is imported from it.
while sys.path and sys.path[0] in ("", "."):
    del sys.path[0]

import binascii
import builtins
import codecs
import functools
import importlib
import json
import os
import re
import traceback
import types
from collections.abc import Iterator as _Iterator
from time import monotonic_ns

try:
    import _json  # the C codec; json's Python layer imports re and enum, a third of a start
except ImportError:  # another implementation: json's own classes
    _json = None
try:
    import resource
except ImportError:
    resource = None
try:
    import mmap
except ImportError:
    mmap = None
try:
    import signal
except ImportError:
    signal = None

# The calls the protocol makes, bound before any subject code runs.
_read, _write, _close = os.read, os.write, os.close
_kill, _waitpid, _WNOHANG = os.kill, os.waitpid, os.WNOHANG
FLUSH_BYTES = 1 << 16  # replies held back at most, in bytes
FLUSH_NS = 5_000_000  # and for at most this long before the next call starts


def main():
    repo, max_frame, as_limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    req_fd, rep_fd, page_fd = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    watch = _Watch(json.loads(sys.argv[7]) if len(sys.argv) > 7 else {})
    boxed = len(sys.argv) > 8 and sys.argv[8] == "1"
    del sys.argv[1:]  # the subject sees an ordinary "-c" run
    if as_limit > 0 and resource is not None:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
        except (ValueError, OSError):
            pass
    # Keep the protocol fds out of any process the subject starts.
    os.set_inheritable(req_fd, False)
    os.set_inheritable(rep_fd, False)
    page = None
    if page_fd >= 0 and mmap is not None:
        # mmap keeps a duplicate of the fd (before Python 3.13's trackfd):
        # the low fds are filled first so that it lands beside the
        # protocol's, not at 3 where a subject looks.
        held = []
        try:
            while True:
                fd = os.open(os.devnull, os.O_RDONLY)
                held.append(fd)
                if fd >= page_fd - 1 or len(held) > 1024:
                    break
            mm = mmap.mmap(page_fd, mmap.PAGESIZE)
        finally:
            for fd in held:
                _close(fd)
        _close(page_fd)
        page = memoryview(mm).cast("q")
    sys.path.insert(0, repo)
    # A src/ layout: premise names its modules without the src/ prefix
    # (diffparse), so they import from there.
    src = os.path.join(repo, "src")
    if os.path.isdir(src):
        sys.path.insert(1, src)
    send = _Sender(rep_fd, max_frame, hold=page is not None)
    scan = _scanner()
    # The handshake: premise times calls from here, not from the
    # interpreter's start, which a loaded machine can make slow.
    send({"ready": True})
    send.flush()
    cache = {}
    # Requests are scanned in place in the text read so far, one JSON value
    # then a newline each: no line is cut out and decoded on its own.
    utf8 = codecs.getincrementaldecoder("utf-8")("replace")
    text, pos, n = "", 0, 0
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            if len(text) - pos > max_frame:
                raise SystemExit("request frame over %d bytes" % max_frame)
            # Nothing left to run: everything answered leaves now.
            send.flush()
            chunk = _read(req_fd, 1 << 16)
            if not chunk:
                return
            text, pos = text[pos:] + utf8.decode(chunk), 0
            continue
        if nl - pos > max_frame:
            raise SystemExit("request frame over %d bytes" % max_frame)
        n += 1
        try:
            call, end = scan(text, pos)
            if end != nl and text[end:nl].strip():
                raise ValueError("extra data at character %d" % (end - pos))
            if not isinstance(call, dict):
                raise ValueError("a request is a JSON object")
        except ValueError as e:
            send({"id": "", "outcome": "error", "detail": "bad request: %s" % e})
            pos = nl + 1
            continue
        pos = nl + 1
        if page is not None:
            t = monotonic_ns()
            if send.held and t - send.since > FLUSH_NS:
                send.flush()  # slow calls: premise need not wait for a batch
            # The start first, then the number: premise reads the number,
            # the start, and the number again.
            page[1] = t
            page[0] = n
        if watch.files and call.get("unwatched") is not True:
            send(watch.run(_handle, call, cache))
        else:
            send(_handle(call, cache))
        if boxed:
            _end_strays()


def _end_strays():
    """Kills every process the call left behind in the worker's PID
    namespace (BOXED: premise's init started it there), and reaps the
    worker's own: a head that leaves processes burning the machine's CPU
    slows the base's calls, whose rows their time then cuts off (issue 26,
    load). kill(-1) spares the init and the caller, and reaches nothing
    outside the namespace."""
    try:
        _kill(-1, 9)
    except OSError:
        return  # none
    while True:
        try:
            pid, _ = _waitpid(-1, _WNOHANG)
        except OSError:
            return
        if pid == 0:
            return


class _Watch:
    """The line tracer of WATCH: a global trace function that declines
    every frame whose code is not from a watched file (so the rest of the
    program runs untraced), and records the lines of those that are."""

    def __init__(self, spec):
        self.files = {}
        for path, ranges in spec.items() if isinstance(spec, dict) else ():
            rs = [(int(a), int(b)) for a, b in ranges]
            self.files[path] = (path, rs)
            # A module is known by the path sys.path reached it through,
            # which a symlinked temporary directory can make another.
            self.files.setdefault(os.path.realpath(path), (path, rs))
        self.hits = {}

    def run(self, handle, call, cache):
        hits = self.hits = {}
        files = self.files

        def local(frame, event, arg):
            if event == "line":
                hits.setdefault(frame.f_code.co_filename, set()).add(frame.f_lineno)
            return local

        def tracer(frame, event, arg):
            code = frame.f_code
            return local if code.co_filename in files and code.co_name != "<module>" else None

        # The target's module is imported untraced: what runs at import
        # (a def line, a class body) is not what the call ran.
        try:
            _resolve(call["target"], cache)
        except BaseException:
            pass  # _handle reports it
        sys.settrace(tracer)
        try:
            reply = handle(call, cache)
        finally:
            sys.settrace(None)
        lines = {}
        for name, seen in hits.items():
            path, ranges = files[name]
            keep = [n for n in seen if any(a <= n <= b for a, b in ranges)]
            if keep:
                lines.setdefault(path, set()).update(keep)
        if lines:
            reply = dict(reply)
            reply["lines"] = {p: sorted(ns) for p, ns in lines.items()}
        return reply


def _scanner():
    """Returns scan(text, pos) -> (value, end) for the JSON value at pos,
    raising ValueError where there is none; built once."""
    if _json is not None:
        class Context:
            strict = True
            object_hook = object_pairs_hook = None
            parse_float, parse_int, parse_constant = float, int, float

        try:
            c_scan = _json.make_scanner(Context())

            def scan(text, pos):
                try:
                    return c_scan(text, pos)
                except StopIteration as e:
                    raise ValueError("not JSON at character %d" % (e.value - pos)) from None

            if scan('x{"a": [1, 2.5, "x", null, true]}', 1) == ({"a": [1, 2.5, "x", None, True]}, 33):
                return scan
        except (TypeError, AttributeError, ValueError):
            pass
    raw_decode = json.JSONDecoder().raw_decode
    return lambda text, pos: raw_decode(text, pos)


def _encoder():
    """Returns a function from a reply to compact JSON text: tuples become
    lists, NaN is refused (allow_nan), sets go through _default. One C
    encoder serves every reply (json.dumps builds one per call)."""
    if _json is not None:
        try:
            enc = _json.make_encoder({}, _default, _json.encode_basestring_ascii, None,
                                     ":", ",", False, False, False)
            if "".join(enc({"a": [1, 2.5, "x", None, True]}, 0)) == '{"a":[1,2.5,"x",null,true]}':
                return lambda o: "".join(enc(o, 0))
        except (TypeError, AttributeError, ValueError):
            pass
    return json.JSONEncoder(allow_nan=False, separators=(",", ":"), default=_default).encode


def _default(v):
    """Converts what JSON cannot carry: sets become sorted lists."""
    if isinstance(v, (set, frozenset)):
        items = list(v)
        try:
            items.sort(key=lambda x: json.dumps(x, sort_keys=True, default=_default))
        except (TypeError, ValueError):
            pass
        return items
    raise TypeError("a value of type %s.%s has no JSON form" % (type(v).__module__, type(v).__qualname__))


class _Sender:
    """Encodes replies and writes them to fd: each at once, or, with hold,
    held until flush (or until FLUSH_BYTES are held)."""

    def __init__(self, fd, max_frame, hold):
        self.fd, self.max_frame, self.hold = fd, max_frame, hold
        self.held, self.size, self.since = [], 0, 0
        self.encode = _encoder()

    def __call__(self, reply):
        # The text is ASCII (non-ASCII characters are escaped): its length
        # is its size in bytes.
        try:
            data = self.encode(reply)
        except (TypeError, ValueError, RecursionError) as e:
            # The C encoder's cycle markers may keep entries after a
            # failure: the next reply gets a fresh encoder.
            self.encode = _encoder()
            data = self.encode({"id": reply.get("id", ""), "outcome": "unencodable",
                                "detail": "the result cannot be carried as JSON: %s" % e})
        if len(data) >= self.max_frame:
            data = self.encode({"id": reply.get("id", ""), "outcome": "unencodable",
                                "detail": "the reply is %d bytes, over the %d-byte frame limit" % (len(data), self.max_frame)})
        if self.hold and not self.held:
            self.since = monotonic_ns()
        self.held.append(data)
        self.size += len(data) + 1
        if not self.hold or self.size >= FLUSH_BYTES:
            self.flush()

    def flush(self):
        if not self.held:
            return
        self.held.append("")
        data = "\n".join(self.held).encode("ascii")
        self.held, self.size = [], 0
        view = memoryview(data)
        while view:
            view = view[_write(self.fd, view):]


class _NotInModule(Exception):
    """A target whose module imported but does not hold the name."""


def _resolve(target, cache):
    """Imports a dotted target: the longest importable module prefix, then
    attributes (so pkg.mod.Class.method works). A module that imports but
    does not hold the name raises _NotInModule, apart from a module whose
    own code fails to import."""
    fn = cache.get(target)
    if fn is not None:
        return fn
    parts = target.split(".")
    err = None
    for i in range(len(parts) - 1, 0, -1):
        modname = ".".join(parts[:i])
        try:
            obj = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name and (modname == e.name or modname.startswith(e.name + ".")):
                err = e
                continue
            raise
        for attr in parts[i:]:
            if (attr.startswith("__") and not attr.endswith("__") and isinstance(obj, type)
                    and obj.__name__.lstrip("_")):
                # A private name inside a class is stored mangled:
                # C.__join is C._C__join.
                attr = "_" + obj.__name__.lstrip("_") + attr
            try:
                obj = getattr(obj, attr)
            except AttributeError as e:
                raise _NotInModule(str(e)) from None
        # A property read on its class is the descriptor: the code the
        # patch changed is its getter, called with the object as a
        # method is (C.path(obj) reads obj.path).
        if isinstance(obj, property) and obj.fget is not None:
            obj = obj.fget
        elif isinstance(obj, functools.cached_property):
            obj = obj.func
        cache[target] = obj
        return obj
    raise err or ImportError("target %r names no module" % target)


def _handle(call, cache):
    cid = call.get("id", "")
    try:
        fn = _resolve(call["target"], cache)
    except _NotInModule as e:
        return {"id": cid, "outcome": "error",
                "detail": "resolve %s: AttributeError: %s" % (call.get("target"), e)}
    except BaseException as e:
        return {"id": cid, "outcome": "error",
                "detail": "import %s: %s: %s" % (call.get("target"), type(e).__name__, e)}
    args = call.get("args") or []
    kwargs = call.get("kwargs") or {}
    if "$explore" in kwargs:
        try:
            x = _Explorer(fn, kwargs["$explore"])
            return {"id": cid, "outcome": "returned", "value": x.differ() if x.blind else x.run()}
        except BaseException as e:
            return _raised(cid, e)
    observe = 0
    extra = ()
    probes = None
    if "$observe" in kwargs:
        # Evidence rows (issue 13, parts 4 and 5): an iterator's first
        # items are the value, and the arguments' state after the call is
        # part of the outcome.
        kwargs = dict(kwargs)
        observe = kwargs.pop("$observe")
        probes = kwargs.pop("$probes", None)
        if not isinstance(observe, int) or isinstance(observe, bool) or observe < 0:
            observe = 0
    try:
        # Arguments written as Python expressions ({"$expr": ...}), in any
        # row: a table's hand-written datetime as much as a witness.
        args = [_expr(a) for a in args]
        kwargs = {k: _expr(v) for k, v in kwargs.items()}
        extra = tuple(tuple(_expr(a) for a in p) for p in probes or () if isinstance(p, list))
    except BaseException as e:
        # An argument expression calls the code under review (a
        # receiver's constructor): what it raises is that code's
        # behaviour on this row, never the worker failing.
        return _raised(cid, e)
    # The package of the code under judgement: an argument of a class of
    # its own is compared by what it shows (a receiver the call changed).
    own = (getattr(fn, "__module__", None) or "").split(".")[0]
    before = _snapshot(args, kwargs, own) if observe else None
    attrs_before = _attr_texts(args[0], own) if observe and args and own else None
    try:
        raw = value = _awaited(fn(*args, **kwargs))
        if observe:
            value = _probe(_consume(value, observe), observe, extra)
    except BaseException as e:  # SystemExit and KeyboardInterrupt are raises too
        return _raised(cid, e)
    if observe:
        after = _snapshot(args, kwargs, own)
        changed = {k: v for k, v in after.items() if before.get(k) != v}
        moved = ()
        if attrs_before is not None:
            # The receiver's attributes past the first ones _state shows
            # (xlsxwriter's Worksheet has two hundred; set_header changes
            # its header): those the call changed join its state.
            now = _attr_texts(args[0], own) or {}
            moved = tuple(sorted(k for k in set(attrs_before) | set(now) if attrs_before.get(k) != now.get(k)))
            if moved:
                changed.setdefault("0", True)
        if changed:
            value = {"$returned": value, "$args_after": {k: _after(args, kwargs, k, own, moved) for k in sorted(changed)}}
        try:
            value = _comparable(value, 0)
            again = None
            if (args or kwargs) and not changed and not any(
                    isinstance(a, _Iterator) for a in list(args) + list(kwargs.values())):
                # The same arguments again: none the call used up or changed.
                again = _aliased(fn, args, kwargs, raw, value)
        except BaseException as e:
            return _raised(cid, e)
        if again is not None:
            value = {"$returned": value, "$aliased": again}
    return {"id": cid, "outcome": "returned", "value": value}


def _awaited(value):
    """What a call comes to: an async function's coroutine run to the end
    in an event loop of its own (what it raises is the call's), any other
    value itself. asyncio is imported on the first coroutine: most
    workers never need it, and it is slow to import."""
    if not isinstance(value, types.CoroutineType):
        return value
    import asyncio
    return asyncio.run(value)


def _aliased(fn, args, kwargs, raw, shown):
    """Whether a returned list or dict shares its arguments' state (a
    receiver's own list handed out without a copy): the result is changed
    as a caller might (an item appended, a key set) and the call made
    again on the same arguments; the second result, when it differs from
    the first, is returned (None when it does not, or cannot be asked)."""
    if type(raw) is list:
        raw.append("~")
    elif type(raw) is dict:
        raw["~"] = "~"
    else:
        return None
    try:
        second = _comparable(_awaited(fn(*args, **kwargs)), 0)
    except BaseException:
        return None
    return None if second == shown else second


# The built-in types a value is compared as, and how to read a subclass
# instance's own data past any method the subclass overrides.
_BUILTIN = {int: int.__int__, float: float.__float__, str: str.__str__,
            list: lambda v: list(list.__iter__(v)), tuple: lambda v: tuple(tuple.__iter__(v)),
            dict: lambda v: dict(dict.items(v)), set: lambda v: set(set.__iter__(v)),
            frozenset: lambda v: frozenset(frozenset.__iter__(v))}


def _subclassed(v):
    """v's data as its built-in type when v is an instance of a subclass
    of one defined outside the standard library (the project's own
    int or list with methods of its own), else None: such a value is
    compared with its class, so a head returning a look-alike whose
    methods answer otherwise is not taken for the base's plain value."""
    t = type(v)
    if t in _BUILTIN or t is bool:
        return None
    for base, plain in _BUILTIN.items():
        if isinstance(v, base):
            top = (getattr(t, "__module__", None) or "").split(".")[0]
            if top == "builtins" or top in getattr(sys, "stdlib_module_names", (top,)):
                return None
            return plain(v)
    return None


def _comparable(v, depth):
    """v with what JSON cannot carry replaced by {"$repr": ...}, its repr
    without memory addresses or ids (which differ between any two workers), so
    that two objects are compared by what they show rather than all
    being equally unencodable. An instance of the project's own subclass
    of a built-in type is {"$class": name, "$value": its data}."""
    if v is None or type(v) in (bool, int, str):
        return v
    if depth <= 20:
        plain = _subclassed(v)
        if plain is not None:
            return {"$class": type(v).__qualname__, "$value": _comparable(plain, depth + 1)}
    if isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if v == v and v not in (float("inf"), float("-inf")) else {"$repr": repr(v)}
    if depth > 20:
        return {"$repr": "..."}
    if isinstance(v, list):
        return [_comparable(x, depth + 1) for x in v]
    if isinstance(v, tuple):
        # A tuple is no list to its callers (a dict key, a set member,
        # t + (1,)): a head returning [n, 0] where the base returned
        # (n, 0) changed what they can do with it.
        return {"$tuple": [_comparable(x, depth + 1) for x in v]}
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        return {k: _comparable(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        items = [_comparable(x, depth + 1) for x in v]
        try:
            items.sort(key=lambda x: json.dumps(x, sort_keys=True))
        except (TypeError, ValueError):
            pass
        return items
    # "at 0x7f..." (object's repr) and "@ 140077201951232" (an id())
    # name where the object lives, not what it is.
    shown = {"$repr": re.sub(r"\s?(\bat|@)\s?(0x[0-9a-fA-F]+|\d{6,})", "", repr(v))[:1000]}
    if type(v).__repr__ is object.__repr__ or type(v).__repr__ is BaseException.__repr__:
        fields = _attributes(v)
        if fields is not None:
            # An object that shows nothing but its class is compared by
            # its attributes: two Money objects of different cents differ.
            # So is an exception, whose repr shows only its args: an
            # HTTPError's log_message is an attribute.
            shown["$fields"] = {str(k): _comparable(x, depth + 1) for k, x in sorted(fields.items(), key=lambda kv: str(kv[0]))[:50]}
    return shown


def _attributes(v):
    """An object's attributes: those of its __dict__ and the __slots__ of
    its classes that are set (a class keeping its state in slots has no
    __dict__, and showed nothing); None when it has neither."""
    d = getattr(v, "__dict__", None)
    out = dict(d) if isinstance(d, dict) else None
    for cls in type(v).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        if not isinstance(slots, (tuple, list)):
            continue
        for name in slots:
            if not isinstance(name, str) or name in ("__dict__", "__weakref__"):
                continue
            attr = name
            if name.startswith("__") and not name.endswith("__"):
                attr = "_" + cls.__name__.lstrip("_") + name  # a private slot, as Python mangles it
            if out is None:
                out = {}
            try:
                out.setdefault(attr, object.__getattribute__(v, attr))
            except AttributeError:
                pass  # declared, never set
    return out


# The built-in exception classes, as they were before any code ran.
_BUILTIN_EXC = {n: c for n, c in vars(builtins).items() if isinstance(c, type) and issubclass(c, BaseException)}


def _raised(cid, e):
    code = getattr(e, "code", None)
    if not (code is None or isinstance(code, (bool, int, str))):
        try:
            json.dumps(code, allow_nan=False, default=_default)
        except (TypeError, ValueError, RecursionError):
            code = repr(code)
    exc = {"class": type(e).__name__, "code": code, "message": str(e)[:4096]}
    name = type(e).__name__
    if name in _BUILTIN_EXC and type(e) is not _BUILTIN_EXC[name]:
        # A class of the code's own named like a built-in exception
        # (class ValueError(Exception)): a caller's except ValueError no
        # longer catches it.
        exc["module"] = str(getattr(type(e), "__module__", "")) or "(the code's own)"
    return {"id": cid, "outcome": "raised",
            "exc": exc,
            "detail": "".join(traceback.format_exception(type(e), e, e.__traceback__))[-4096:]}


def _expr(v):
    """Evaluates an argument written as Python source, {"$expr": SRC,
    "$imports": [...]}, afresh for each call (an iterator is used up);
    any other value is itself. The source is the repository's own (its
    doctests and tests), and runs where the repository's code runs."""
    if not (isinstance(v, dict) and "$expr" in v):
        return v
    ns = {"__builtins__": __builtins__}
    for stmt in v.get("$imports") or []:
        exec(compile(stmt, "<premise import>", "exec"), ns)
    return eval(compile(v["$expr"], "<premise argument>", "eval"), ns)


_PLAIN = (list, tuple, dict, str, bytes, bytearray, set, frozenset, int, float, bool, type(None))


def _consume(value, limit):
    """An iterator's (or generator's) first limit items, as a list when it
    ends within them, else {"$first": items}; an exception raised while
    iterating is the call's."""
    if isinstance(value, _PLAIN) or not hasattr(value, "__next__"):
        return value
    items = []
    for _ in range(limit):
        try:
            items.append(next(value))
        except StopIteration:
            return items
    return {"$first": items}


def _first(*a, **k):
    """A function to pass a returned function that takes one: a decorator
    factory's decorator."""
    return a[0] if a else None


# The calls a returned function is compared by: none, one small number,
# text, a list, two numbers, two strings, a function.
_PROBES = ((), (0,), (1,), (-2,), (3,), ("ab",), ([3, 1, 2],), (-2, 3), (2, 3), ("a", "b"), (_first,))


def _probe(value, limit, extra=(), depth=0):
    """A function the call returned (compose(f, g), a curried or partial
    function, a decorator's wrapper) is compared by what it does: its
    outcome on each of a few small calls, {"$calls": [...]}, an exception
    as its class. A function one of those calls returns (the decorator a
    factory returns, applied to a function) is compared the same way, one
    level down. extra are more calls to make, from the target's own
    constants. Classes and callable objects are left as they are."""
    if not isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools.partial)):
        return value
    out = []
    for p in _PROBES + tuple(extra):
        try:
            r = _consume(value(*p), limit)
            if depth == 0:
                r = _probe(r, limit, extra, 1)
            out.append(_comparable(r, 1))
        except BaseException as e:
            out.append({"$raised": type(e).__name__})
    # The functions a wrapper carries (cache's invalidate, a retry's
    # reset) are part of what it does: each is called as a small call
    # would call it, after the calls above.
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        names = sorted(k for k, v in attrs.items()
                       if not k.startswith("_") and isinstance(v, (types.FunctionType, types.MethodType, functools.partial)))
        for name in names[:3]:
            for p in ((), (0,), (1,), (1,)):
                try:
                    r = _consume(attrs[name](*p), limit)
                    out.append({"$attr": name, "$value": _comparable(r, 1)})
                except BaseException as e:
                    out.append({"$attr": name, "$raised": type(e).__name__})
    return {"$calls": out}


def _snapshot(args, kwargs, own=None):
    """Each mutable argument's state, as comparable text: a list's, a
    dict's, a set's own repr, and the first argument's as _state says it
    when it is an object of the code's own (a method's receiver)."""
    out = {}
    for k, v in list(enumerate(args)) + list(kwargs.items()):
        if isinstance(v, (list, dict, set, bytearray)):
            try:
                out[str(k)] = repr(v)
            except BaseException:
                pass
    if args and own:
        state = _state(args[0], own)
        if state is not None:
            out["0"] = json.dumps(state, sort_keys=True, default=repr)
    return out


# The read methods of no arguments an object's state is asked of, as most
# libraries name them: its mapping views and its conversions to plain data.
_READERS = re.compile(r"(keys|values|items|(as|to)_?(dict|dicts|list|tuple|json|native|data))$")


# _REPR writes an attribute short enough to keep two copies of each of a
# few hundred: it tells which attributes a call changed, not what they are.
_REPR = None


def _attr_texts(v, own):
    """Each public attribute of an object of the code's own (its class
    defined in the package own), at most 400, as text without object
    addresses; None for any other value."""
    global _REPR
    t = type(v)
    if isinstance(v, _PLAIN) or (getattr(t, "__module__", None) or "").split(".")[0] != own:
        return None
    attrs = getattr(v, "__dict__", None)
    if not isinstance(attrs, dict):
        return None
    if _REPR is None:
        import reprlib  # here: most workers never need it
        _REPR = reprlib.Repr()
        _REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxset, _REPR.maxtuple = 3, 64, 64, 64, 64
        _REPR.maxstring, _REPR.maxother, _REPR.maxlong = 4096, 400, 400
    out = {}
    for name in sorted(k for k in attrs if isinstance(k, str) and not k.startswith("_"))[:400]:
        a = attrs[name]
        if callable(a):
            continue
        try:
            out[name] = re.sub(r"\s?(\bat|@)\s?(0x[0-9a-fA-F]+|\d{6,})", "", _REPR.repr(a))
        except BaseException as e:
            out[name] = "!" + type(e).__name__
    return out


def _state(v, own, moved=()):
    """What an object of the code's own (its class defined in the
    package own) says of itself without being changed: its own repr, its
    length, its public attributes and what its read methods (_READERS)
    return, {"repr()": ..., "len()": ..., "name": ..., "asdict()": ...};
    None for any other value. A method that returns None and changes its
    receiver (appends to a private list) changed this; its private
    attributes are not part of it, so a rewrite of how a class keeps its
    state is no change while what it shows is the same."""
    t = type(v)
    if isinstance(v, _PLAIN) or (getattr(t, "__module__", None) or "").split(".")[0] != own:
        return None
    out = {}

    def ask(key, f):
        try:
            out[key] = _comparable(_consume(f(), 20), 1)
        except BaseException as e:
            out[key] = {"$raised": type(e).__name__}
    if t.__repr__ is not object.__repr__:
        ask("repr()", lambda: re.sub(r"\s?(\bat|@)\s?(0x[0-9a-fA-F]+|\d{6,})", "", repr(v))[:1000])
    if hasattr(t, "__len__"):
        ask("len()", lambda: len(v))
    attrs = getattr(v, "__dict__", None)
    if isinstance(attrs, dict):
        for name in sorted(k for k in attrs if isinstance(k, str) and not k.startswith("_"))[:20]:
            if not callable(attrs[name]):
                ask(name, lambda name=name: attrs[name])
        for name in moved[:20]:
            if name not in out and name in attrs and not callable(attrs[name]):
                ask(name, lambda name=name: attrs[name])
    for name in sorted(n for n in dir(t) if _READERS.match(n) and not n.startswith("_"))[:5]:
        m = getattr(v, name, None)
        if callable(m) and _no_required(m):
            ask(name + "()", m)
    return out


def _no_required(m):
    """Whether m can be called with no arguments."""
    import inspect  # here: most workers never need it
    try:
        inspect.signature(m).bind()
        return True
    except (TypeError, ValueError):
        return False


def _after(args, kwargs, k, own, moved=()):
    """An argument the call changed, as the outcome shows it: an object
    of the code's own by its state ({"$state": ...}, with the attributes
    moved the call changed), any other itself."""
    v = _plain(args, kwargs, k)
    state = _state(v, own, moved) if k == "0" else None
    if state is None:
        return v
    if moved:
        return {"$state": state, "$changed": list(moved[:20])}
    return {"$state": state}


def _plain(args, kwargs, k):
    return args[int(k)] if k.isdigit() else kwargs[k]



# The calls a search makes without running anything new before it stops;
# the calls that returned it keeps for each goal statement.
PLATEAU = 1000
OK_KEPT = 4
# The calls a blind search makes without an outcome it had not seen
# before it stops.
DIFFER_PLATEAU = 5000


class _Slow(BaseException):
    """An explored call past its own short time."""


def _arm(seconds):
    """Makes the calling code raise _Slow after seconds; returns the
    handler to put back (None without signals)."""
    if signal is None:
        return None

    def slow(signum, frame):
        raise _Slow()
    old = signal.signal(signal.SIGALRM, slow)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return old


def _disarm(old):
    if signal is not None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_M64 = (1 << 64) - 1
# Characters an explored string gains one at a time: the punctuation of
# small formats, white space of every kind, digits and a letter each case.
_CHARS = " \n\t\r\"'\\0123456789-+.,:;=_[]{}()<>#/*!?@$%&|^~`aZ\u00e9\u20ac"


class _Explorer:
    """Coverage as the guide, inside one worker (issue 24, item 2): from
    SPEC's seeds (argument lists of rows that ran), calls fn again and
    again with arguments changed a little at a time (a token of the
    target's own source put in, a span cut or doubled, two seeds spliced,
    a number stepped), keeping every call that ran a line of the
    repository's code, or ran it a number of times, no call had (so a text
    grows a construct at a time), mutating most often the calls that ran
    most of the changed functions, and returns, made small, the arguments
    of calls that ran a goal line: the changed lines no row reached. Its draws are its own
    xorshift, seeded from SPEC (the worker imports no random module the
    tree under review could shadow); the calls it finds are data premise
    then runs as rows on both sides."""

    def __init__(self, fn, spec):
        if not isinstance(spec, dict):
            raise ValueError("$explore wants an object")
        self.fn = fn
        self.seeds = [s for s in spec.get("seeds") or () if isinstance(s, list)][:64]
        # A format's words and marks, not its messages: a token with a
        # space in it is kept only when short.
        self.tokens = [t for t in spec.get("tokens") or ()
                       if isinstance(t, str) and 0 < len(t) <= 24 and (" " not in t.strip() or len(t) <= 8)][:512]
        self.ints = sorted({int(t) for t in self.tokens if t.lstrip("-").isdigit() and len(t) < 12})
        # The goal: by file, the statements to run, each as its lines (a
        # plain line is a statement of one); a statement ran when any of
        # its lines did.
        self.goal, self.statements = {}, 0
        for path, stmts in (spec.get("goal") or {}).items():
            at = {}
            for st in stmts if isinstance(stmts, list) else ():
                lines = st if isinstance(st, list) else [st]
                first = None
                for n in lines:
                    if isinstance(n, int) and not isinstance(n, bool):
                        first = n if first is None else first
                        at[n] = first
                if first is not None:
                    self.statements += 1
            self.goal[path] = (path, at)
            self.goal.setdefault(os.path.realpath(path), (path, at))
        # The spans holding the goal (the changed functions): a call that
        # ran more of them came closer, and is mutated more often.
        self.near = {}
        for path, spans in (spec.get("near") or {}).items():
            rs = [(int(a), int(b)) for a, b in spans]
            self.near[path] = rs
            self.near.setdefault(os.path.realpath(path), rs)
        root = spec.get("root") or (sys.path[0] if sys.path else ".")
        self.root = os.path.realpath(root) + os.sep
        self.seconds = min(float(spec.get("seconds") or 1), 30.0)
        self.execs = int(spec.get("execs") or 5000)
        self.keep = int(spec.get("max") or 16)
        self.per_call = float(spec.get("call_seconds") or 0.2)
        self.state = (int(spec.get("seed") or 1) & _M64) or 1
        self.mine = {}
        self.best, self.last_near, self.last_ok = [], 0, False
        self.byline = {}
        # A blind search (differ): the calls drawn from the seed alone,
        # never from what a call did, so that the base's worker and the
        # head's make the same calls in the same order.
        self.blind = bool(spec.get("differ"))
        emit = spec.get("emit")
        self.emit = None if emit is None else {i for i in emit if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < self.execs}

    def below(self, n):
        s = self.state
        s ^= s >> 12
        s ^= (s << 25) & _M64
        s ^= s >> 27
        self.state = s
        return (((s * 0x2545F4914F6CDD1D) & _M64) >> 11) % n if n > 0 else 0

    def run(self):
        corpus, seen, tried = [], set(), set()
        reached = {}
        done = stale = dry = 0
        deadline = monotonic_ns() + int(self.seconds * 1e9)
        for s in self.seeds:
            cov, hits = self.call(s)
            done += 1
            seen |= cov
            corpus.append(s)
            self.closer(s)
            tried.add(_key(s))
            self.note(s, hits, reached, True)
        if not corpus:
            return {"found": [], "execs": 0}
        while done < self.execs and monotonic_ns() < deadline and not self.done(dry):
            parent = self.pick(corpus)
            child = self.child(parent, corpus)
            k = _key(child)
            if k is None or k in tried:
                stale += 1
                if stale > 1000:
                    break  # nothing left to change
                continue
            stale = 0
            if len(tried) < 200000:
                tried.add(k)
            cov, hits = self.call(child)
            done += 1
            new = cov - seen
            dry += 1
            if new:
                seen |= new
                corpus.append(child)
                self.closer(child)
                dry = 0
            elif dry > PLATEAU:
                break  # nothing new for a while: what is left is out of reach
            self.note(child, hits, reached, bool(new))
        found = self.found(monotonic_ns() + int(self.seconds * 0.25e9))
        return {"found": found, "execs": done,
                "reached": {p: sorted(ls) for p, ls in reached.items()}}

    def differ(self):
        """The differential search: calls drawn from the seeds alone (a
        child of a seed or of an earlier child, one or two changes as
        run() makes them, one child in eight kept as a parent), so that the same spec makes
        the same calls in the base's worker and in the head's. It returns
        a digest of each call's outcome in order ("" when the call ran
        past its time), which premise compares side by side; with "emit",
        it makes no call and returns the arguments of the calls at those
        indices instead, which premise then runs as rows on both sides."""
        corpus = [list(s) for s in self.seeds]
        if not corpus:
            return {"digests": [], "found": [], "execs": 0}
        deadline = monotonic_ns() + int(self.seconds * 1e9)
        last = max(self.emit) if self.emit else -1
        digests, found = [], []
        # A side stops when its calls have answered nothing new for a
        # while: premise compares the calls both sides made.
        kinds, fresh = set(), 0
        n = 0
        while n < self.execs:
            if self.emit is None and monotonic_ns() >= deadline:
                break
            if self.emit is not None and n > last:
                break
            # One change, now and then two, of a seed half the time:
            # where two versions part is most often an edit away from
            # an input that ran.
            seeds = len(self.seeds) if self.below(2) else len(corpus)
            child = self.child(corpus[self.below(seeds)], corpus, 1 + (self.below(4) == 0))
            if self.below(8) == 0:
                if len(corpus) < 256:
                    corpus.append(child)
                else:
                    corpus[self.below(256)] = child
            if self.emit is None:
                d = self.outcome(child)
                digests.append(d)
                if d not in kinds and len(kinds) < 10000:
                    kinds.add(d)
                    fresh = n
                elif n - fresh > DIFFER_PLATEAU:
                    n += 1
                    break
            elif n in self.emit:
                found.append(child)
            n += 1
        return {"digests": digests, "found": found, "execs": n}

    def outcome(self, args):
        """A digest of what fn does on a fresh copy of args: the class of
        what it raised, or its comparable value and the state of its
        mutable arguments after; "" when it ran past its time."""
        try:
            real = [_expr(_copy(a)) for a in args]
        except BaseException as e:
            return "!" + type(e).__name__
        old = _arm(self.per_call)
        try:
            value = _comparable(_consume(_awaited(self.fn(*real)), 100), 0)
            own = (getattr(self.fn, "__module__", None) or "").split(".")[0]
            text = json.dumps([value, sorted(_snapshot(real, {}, own).items())], sort_keys=True)
        except _Slow:
            return ""
        except BaseException as e:
            return "!" + type(e).__name__
        finally:
            _disarm(old)
        return "%08x" % binascii.crc32(text.encode("utf-8", "surrogatepass"))

    def done(self, dry):
        """Every goal statement ran in a call that returned, or ran, and
        a while has passed without anything new (a statement that raises
        never runs in a call that returns)."""
        if len(self.byline) < self.statements:
            return False
        return dry > PLATEAU // 10 or all(len(g["ok"]) >= OK_KEPT for g in self.byline.values())

    def closer(self, args):
        """Keeps args among the closest calls when they ran more lines
        of the goal's spans than one of those (the shorter when equal)."""
        if self.last_near == 0:
            return
        best = self.best
        best.append((-self.last_near, len(_key(args) or ""), args))
        best.sort(key=lambda b: (b[0], b[1]))
        del best[8:]

    def pick(self, corpus):
        """A parent: one of the calls that came closest to the goal a
        third of the time, one of the latest finds a third, else the
        smaller of two drawn at random (small inputs run fast and mutate
        into what they lack)."""
        n = len(corpus)
        if self.best and self.below(3) == 0:
            return self.best[self.below(len(self.best))][2]
        if n > 8 and self.below(2):
            return corpus[n - 1 - self.below(8)]
        a, b = corpus[self.below(n)], corpus[self.below(n)]
        return a if len(_key(a) or "") <= len(_key(b) or "") else b

    def note(self, args, hits, reached, new):
        """Records, for each goal statement args ran, the first call to
        run it, and calls that ran it and returned (texts the function
        accepts whole, whose change then shows in what they return): the
        first, and a few more that also ran something no call had."""
        for h in hits:
            path, line = h
            reached.setdefault(path, set()).add(line)
            got = self.byline.setdefault(h, {"ok": []})
            got.setdefault("first", args)
            if self.last_ok and (new or not got["ok"]) and len(got["ok"]) < OK_KEPT:
                got["ok"].append(args)

    def found(self, deadline):
        """The calls to return: for each goal statement, the first that
        returned, else the first to run it, made smaller while it still
        runs the statement (and still returns); then the other calls that
        returned, as they are, a statement at a time."""
        out, keys = [], set()

        def put(args):
            k = _key(args)
            if k not in keys and len(out) < self.keep:
                keys.add(k)
                out.append(args)

        for h in sorted(self.byline):
            got = self.byline[h]
            ok = bool(got["ok"])
            put(self.smaller(got["ok"][0] if ok else got["first"], h, ok, deadline))
        for i in range(1, OK_KEPT):
            for h in sorted(self.byline):
                if i < len(self.byline[h]["ok"]):
                    put(self.byline[h]["ok"][i])
        return out

    def smaller(self, args, h, ok, deadline):
        """args with spans of its texts cut away while the call still runs
        goal line h (and returns, when ok): halves first, then quarters,
        down to single characters."""
        args = list(args)
        for i, a in enumerate(args):
            if not isinstance(a, str):
                continue
            chunk = len(a) // 2
            while chunk >= 1:
                start = 0
                while start < len(args[i]):
                    if monotonic_ns() > deadline:
                        return args
                    t = list(args)
                    t[i] = args[i][:start] + args[i][start + chunk:]
                    _, hits = self.call(t)
                    if h in hits and (self.last_ok or not ok):
                        args = t
                    else:
                        start += chunk
                chunk //= 2
        return args

    def call(self, args):
        """Runs fn on a fresh copy of args under a line tracer of the
        repository's files; returns the lines it ran, each with how many
        times, and the goal lines among them."""
        counts, hits = {}, []
        mine, root, goal = self.mine, self.root, self.goal

        def local(frame, event, arg):
            if event == "line":
                f, n = frame.f_code.co_filename, frame.f_lineno
                k = (f, n)
                counts[k] = counts.get(k, 0) + 1
                g = goal.get(f)
                if g is not None and n in g[1]:
                    hits.append((g[0], g[1][n]))
            return local

        def tracer(frame, event, arg):
            f = frame.f_code.co_filename
            ok = mine.get(f)
            if ok is None:
                ok = mine[f] = not f.startswith("<") and os.path.realpath(f).startswith(root)
            return local if ok else None

        try:
            real = [_expr(_copy(a)) for a in args]
        except BaseException:
            return set(), hits
        old = _arm(self.per_call)
        sys.settrace(tracer)
        try:
            # A generator's body runs as it is consumed.
            _consume(_awaited(self.fn(*real)), 100)
            self.last_ok = True
        except BaseException:
            self.last_ok = False
        finally:
            sys.settrace(None)
            _disarm(old)
        near = 0
        for (f, n) in counts:
            for a, b in self.near.get(f, ()):
                if a <= n <= b:
                    near += 1
        self.last_near = near
        # A line is new when it ran, or ran a number of times no call
        # had (1, 2, 3, 4-7, 8-15, ...): a key parsed twice where it was
        # parsed once is a step toward a nested construct.
        cov = {(k, c if c < 4 else c.bit_length() + 1) for k, c in counts.items()}
        return cov, sorted(set(hits))

    def child(self, parent, corpus, times=0):
        args = list(parent)
        spots = [i for i, a in enumerate(args) if not (isinstance(a, dict) and "$expr" in a)]
        if not spots:
            return args
        for _ in range(times or 1 + self.below(4)):
            i = spots[self.below(len(spots))]
            other = corpus[self.below(len(corpus))]
            args[i] = self.mutate(args[i], other[i] if i < len(other) else None, 0)
        return args

    def token(self):
        if self.tokens and self.below(4):
            return self.tokens[self.below(len(self.tokens))]
        return _CHARS[self.below(len(_CHARS))]

    def mutate(self, v, other, depth):
        if isinstance(v, bool):
            return not v
        if isinstance(v, int):
            pick = self.below(7)
            if pick == 0 and self.ints:
                return self.ints[self.below(len(self.ints))]
            return (v + 1, v - 1, -v, 0, v * 2, v // 2, self.below(512) - 256)[pick]
        if isinstance(v, float):
            return (v + 1, v - 0.5, -v, v * 10, v / 3, float(round(v)), 0.0)[self.below(7)]
        if isinstance(v, str):
            return self.text(v, other if isinstance(other, str) else v)
        if isinstance(v, list) and depth < 3:
            v = list(v)
            pick = self.below(5)
            if not v or pick == 0:
                v.insert(self.below(len(v) + 1), _copy(v[self.below(len(v))]) if v else self.token())
            elif pick == 1:
                del v[self.below(len(v))]
            elif pick == 2 and len(v) > 1:
                i, j = self.below(len(v)), self.below(len(v))
                v[i], v[j] = v[j], v[i]
            else:
                i = self.below(len(v))
                v[i] = self.mutate(v[i], None, depth + 1)
            return v[:64]
        if isinstance(v, dict) and "$expr" not in v and depth < 3:
            v = dict(v)
            keys = [k for k in v if not k.startswith("$")]
            pick = self.below(4)
            if not keys or pick == 0:
                t = self.token()
                v[t] = _copy(v[keys[self.below(len(keys))]]) if keys else self.below(10)
            elif pick == 1:
                del v[keys[self.below(len(keys))]]
            else:
                k = keys[self.below(len(keys))]
                v[k] = self.mutate(v[k], None, depth + 1)
            return v
        if v is None:
            return self.token()
        return v

    def text(self, s, other):
        n = len(s)
        # Half the changes at an end of the text, where prefixes,
        # suffixes and strips look.
        end = self.below(4)
        i = n if end == 0 else 0 if end == 1 else self.below(n + 1)
        j = i + self.below(min(8, n - i) + 1)
        pick = self.below(10)
        if pick <= 1:
            s = s[:i] + self.token() + s[i:]
        elif pick == 2:
            s = s[:i] + self.token() + s[j:]
        elif pick == 3:
            s = s[:i] + s[j:]
        elif pick == 4:
            s = s[:i] + s[i:j] + s[i:]
        elif pick == 5:
            s = s[:i] + _CHARS[self.below(len(_CHARS))] + s[i:]
        elif pick == 6:
            s = s[:i] + other[self.below(len(other) + 1):]
        elif pick == 7:
            s = s + "\n" + other
        elif pick == 8 and i < n and s[i].isdigit():
            # A digit changed in place: the text keeps its length and
            # format, so a check digit's sum moves and the rest still
            # parses (an identifier's validator).
            s = s[:i] + str(self.below(10)) + s[i + 1:]
        elif pick == 8 and i < n:
            s = s[:i] + s[i].swapcase() + s[i + 1:]
        else:
            s = self.token()
        return s[:512]


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict) and "$expr" not in v:
        return {k: _copy(x) for k, x in v.items()}
    return v


def _key(args):
    try:
        return json.dumps(args, sort_keys=True)
    except (TypeError, ValueError):
        return None
