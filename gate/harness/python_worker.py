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
    # A src/ layout: premise names its modules without the src/ prefix
    # (diffparse), so they import from there.
    src = os.path.join(repo, "src")
    if os.path.isdir(src):
        sys.path.insert(1, src)
    reqs = os.fdopen(REQ_FD, "rb", buffering=1 << 16)
    reps = os.fdopen(REP_FD, "wb", buffering=0)
    # The handshake: premise times calls from here, not from the
    # interpreter's start, which a loaded machine can make slow.
    _send(reps, {"ready": True}, max_frame)
    cache = {}
    while True:
        line = reqs.readline(max_frame + 1)
        if not line:
            return
        if len(line) > max_frame:
            raise SystemExit("request frame over %d bytes" % max_frame)
        try:
            call = json.loads(line)
        except ValueError as e:
            _send(reps, {"id": "", "outcome": "error", "detail": "bad request: %s" % e}, max_frame)
            continue
        _send(reps, _handle(call, cache), max_frame)


def _default(v):
    """Converts what json cannot: sets become sorted lists."""
    if isinstance(v, (set, frozenset)):
        items = list(v)
        try:
            items.sort(key=lambda x: json.dumps(x, sort_keys=True, default=_default))
        except (TypeError, ValueError):
            pass
        return items
    raise TypeError("a value of type %s.%s has no JSON form" % (type(v).__module__, type(v).__qualname__))


def _send(f, reply, max_frame):
    # Each reply leaves at once, never queued behind the next call: if that
    # call hangs, premise must already hold every earlier reply, or its
    # timeout would blame the wrong call.
    try:
        # The C encoder carries tuples as lists and refuses NaN (allow_nan).
        data = json.dumps(reply, allow_nan=False, separators=(",", ":"), default=_default).encode()
    except (TypeError, ValueError, RecursionError) as e:
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
            json.dumps(code, allow_nan=False, default=_default)
        except (TypeError, ValueError, RecursionError):
            code = repr(code)
        return {"id": cid, "outcome": "raised",
                "exc": {"class": type(e).__name__, "code": code, "message": str(e)[:4096]},
                "detail": "".join(traceback.format_exception(type(e), e, e.__traceback__))[-4096:]}
    return {"id": cid, "outcome": "returned", "value": value}


if __name__ == "__main__":
    main()
