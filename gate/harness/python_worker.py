# premise's Python worker: the runner protocol of DESIGN.md on fds 3 and 4.
#
# Standard library only. premise embeds this file and runs it as
#   INTERPRETER -I -c SCRIPT REPO_DIR MAX_FRAME AS_LIMIT
# Requests arrive as JSON lines on fd 3, replies leave as JSON lines on fd 4,
# so nothing the subject prints on stdout or stderr can corrupt the protocol.
import importlib
import json
import os
import sys
import traceback

REQ_FD, REP_FD = 3, 4


def main():
    repo, max_frame, as_limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if as_limit > 0:
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
        except (ImportError, ValueError, OSError):
            pass
    # Keep the protocol fds out of any process the subject starts.
    os.set_inheritable(REQ_FD, False)
    os.set_inheritable(REP_FD, False)
    sys.path.insert(0, repo)
    reqs = os.fdopen(REQ_FD, "rb", buffering=0)
    reps = os.fdopen(REP_FD, "wb", buffering=0)
    reader = _Lines(reqs, max_frame)
    # The handshake: premise times calls from here, not from the
    # interpreter's start, which a loaded machine can make slow.
    _send(reps, {"ready": True}, max_frame)
    cache = {}
    while True:
        line = reader.next()
        if line is None:
            return
        try:
            call = json.loads(line)
        except ValueError as e:
            _send(reps, {"id": "", "outcome": "error", "detail": "bad request: %s" % e}, max_frame)
            continue
        _send(reps, _handle(call, cache), max_frame)


class _Lines:
    """Reads newline-terminated frames of at most max_frame bytes."""

    def __init__(self, f, max_frame):
        self.f, self.max, self.buf = f, max_frame, b""

    def next(self):
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line, self.buf = self.buf[:i], self.buf[i + 1:]
                return line
            if len(self.buf) > self.max:
                raise SystemExit("request frame over %d bytes" % self.max)
            chunk = self.f.read(1 << 16)
            if not chunk:
                return None
            self.buf += chunk


def _send(f, reply, max_frame):
    try:
        data = json.dumps(reply, allow_nan=False, separators=(",", ":")).encode()
    except (TypeError, ValueError) as e:
        data = json.dumps({"id": reply.get("id", ""), "outcome": "unencodable",
                           "detail": "the result cannot be carried as JSON: %s" % e}).encode()
    if len(data) >= max_frame:
        data = json.dumps({"id": reply.get("id", ""), "outcome": "unencodable",
                           "detail": "the reply is %d bytes, over the %d-byte frame limit" % (len(data), max_frame)}).encode()
    view = memoryview(data + b"\n")
    while view:
        n = f.write(view)
        view = view[n:]


def _resolve(target, cache):
    """Imports a dotted target: the longest importable module prefix, then
    attributes (so pkg.mod.Class.method works)."""
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
            obj = getattr(obj, attr)
        cache[target] = obj
        return obj
    raise err or ImportError("target %r names no module" % target)


def _to_json(v, depth=0):
    """Converts a result to what JSON carries: tuples and sets become lists."""
    if depth > 200:
        raise ValueError("the result nests deeper than 200 levels")
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("%r has no JSON form" % v)
        return v
    if isinstance(v, (list, tuple)):
        return [_to_json(x, depth + 1) for x in v]
    if isinstance(v, (set, frozenset)):
        items = [_to_json(x, depth + 1) for x in v]
        try:
            items.sort(key=lambda x: json.dumps(x, sort_keys=True))
        except (TypeError, ValueError):
            pass
        return items
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if isinstance(k, bool) or not isinstance(k, (str, int, float)):
                raise ValueError("a dict key of type %s has no JSON form" % type(k).__name__)
            out[str(k)] = _to_json(x, depth + 1)
        return out
    raise ValueError("a value of type %s.%s has no JSON form" % (type(v).__module__, type(v).__qualname__))


def _handle(call, cache):
    cid = call.get("id", "")
    try:
        fn = _resolve(call["target"], cache)
    except BaseException as e:
        return {"id": cid, "outcome": "error",
                "detail": "import %s: %s: %s" % (call.get("target"), type(e).__name__, e)}
    args = call.get("args") or []
    kwargs = call.get("kwargs") or {}
    try:
        value = fn(*args, **kwargs)
    except BaseException as e:  # SystemExit and KeyboardInterrupt are raises too
        code = getattr(e, "code", None)
        try:
            code = _to_json(code)
        except ValueError:
            code = repr(code)
        return {"id": cid, "outcome": "raised",
                "exc": {"class": type(e).__name__, "code": code, "message": str(e)[:4096]},
                "detail": "".join(traceback.format_exception(type(e), e, e.__traceback__))[-4096:]}
    try:
        value = _to_json(value)
    except (ValueError, RecursionError) as e:
        return {"id": cid, "outcome": "unencodable", "detail": "the result cannot be carried as JSON: %s" % e}
    return {"id": cid, "outcome": "returned", "value": value}


if __name__ == "__main__":
    main()
