"""Runs the merge-base's test files on one side's code and says how each
test ended (issue 24: the base's tests on both sides).

    python3 base_tests.py SPEC OUT

SPEC is JSON: {"base": DIR, "tests": [paths relative to DIR], "only":
[test ids] or null, "targets": {"<file>:<qualname>": "<symbol>"},
"seconds": S, "per_test": T}. The current directory is the side's tree;
its code is what the tests import, and each test module is loaded from
the base's file under the name it has in its package, so its relative
imports reach the side's package. Each module's plain test functions
that take no fixtures, its plain test classes and its unittest cases run
one by one, each within T seconds. OUT gets {"order": [ids], "tests":
{id: {"outcome": "passed" | "skipped" | "failed: ...", "reached":
[symbols]}}}: reached names the targets the test called, the last
called first. Written when the tests end or after S seconds."""
import importlib.abc
import importlib.util
import inspect
import json
import os
import signal
import sys
import threading
import traceback
import unittest


class TestTimeout(BaseException):
    """A test past its time: a BaseException, so the test's own except
    Exception does not take it."""


def module_name(base, rel):
    """The test file's module name as its package names it, and the
    directory (relative to the top) that must be on sys.path for it."""
    parts = rel[:-3].split("/")
    top = len(parts) - 1
    while top > 0 and os.path.isfile(os.path.join(base, *parts[:top], "__init__.py")):
        top -= 1
    if top == len(parts) - 1:
        return parts[-1], "/".join(parts[:-1])
    return ".".join(parts[top:]), "/".join(parts[:top])


class BaseTestFinder(importlib.abc.MetaPathFinder):
    """Finds the test modules at the base's files and nothing else."""

    def __init__(self, files):
        self.files = files

    def find_spec(self, fullname, path=None, target=None):
        f = self.files.get(fullname)
        if f is None:
            return None
        return importlib.util.spec_from_file_location(fullname, f)


def outcome_of(exc, test_file=None):
    name = type(exc).__name__
    if name in ("SkipTest", "Skipped") or isinstance(exc, unittest.SkipTest):
        return "skipped"
    msg = str(exc).strip().split("\n")[0][:300]
    if isinstance(exc, TestTimeout):
        return "failed: timed out"
    if isinstance(exc, AssertionError) or not msg:
        # where the assertion stands says more than its empty message
        tb = traceback.extract_tb(exc.__traceback__)
        own = [f for f in tb if f.filename == test_file]
        last = (own or tb or [None])[-1]
        where = "%s:%d" % (os.path.basename(last.filename), last.lineno) if last else ""
        return "failed: %s%s%s" % (name, (" at " + where) if where else "", (": " + msg) if msg else "")
    return "failed: %s: %s" % (name, msg)


def main():
    spec = json.loads(sys.argv[1])
    out_path = sys.argv[2]
    cwd = os.getcwd()
    sys.path[:0] = [cwd] + ([os.path.join(cwd, "src")] if os.path.isdir("src") else [])
    base = spec["base"]
    per_test = float(spec.get("per_test", 5))
    only = set(spec["only"]) if spec.get("only") else None
    targets = {}
    for key, symbol in (spec.get("targets") or {}).items():
        path, qual = key.rsplit(":", 1)
        targets[(os.path.realpath(path), qual)] = symbol
    results, order = {}, []
    current = [None]
    lock = threading.Lock()
    done = [False]

    def flush():
        with lock:
            if done[0]:
                return
            done[0] = True
            sys.setprofile(None)
            with open(out_path + ".tmp", "w") as f:
                json.dump({"order": order, "tests": results}, f)
            os.replace(out_path + ".tmp", out_path)

    symbols = {}

    def profile(frame, event, arg):
        if event != "call" or current[0] is None:
            return
        code = frame.f_code
        got = symbols.get(id(code))
        if got is None:
            qual = getattr(code, "co_qualname", code.co_name)
            sym = targets.get((code.co_filename, qual)) or targets.get((os.path.realpath(code.co_filename), qual))
            got = symbols[id(code)] = (code, sym)
        if got[1] is not None:
            # the last called first: what a test asserts on is most often
            # what it called last
            reached = results[current[0]]["reached"]
            if reached and reached[0] == got[1]:
                return
            if got[1] in reached:
                reached.remove(got[1])
            reached.insert(0, got[1])

    def alarm(signum, frame):
        raise TestTimeout()

    signal.signal(signal.SIGALRM, alarm)

    def run_one(test_id, fn, test_file):
        if only is not None and test_id not in only:
            return
        if done[0]:
            return
        results[test_id] = {"outcome": "passed", "reached": []}
        order.append(test_id)
        current[0] = test_id
        signal.setitimer(signal.ITIMER_REAL, per_test)
        try:
            fn()
        except BaseException as exc:  # the test's, never the run's
            results[test_id]["outcome"] = outcome_of(exc, test_file)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            current[0] = None

    files = {}
    names = []
    for rel in spec["tests"]:
        name, root = module_name(base, rel)
        files[name] = os.path.join(base, rel)
        names.append((rel, name, root))
    sys.meta_path.insert(0, BaseTestFinder(files))
    timer = threading.Timer(float(spec.get("seconds", 20)), lambda: (flush(), os._exit(0)))
    timer.daemon = True
    timer.start()
    if targets:
        sys.setprofile(profile)
    for rel, name, root in names:
        folder = os.path.join(cwd, root) if root else cwd
        if folder not in sys.path:
            sys.path.insert(1, folder)
        try:
            signal.setitimer(signal.ITIMER_REAL, per_test)
            try:
                mod = load(name)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException as exc:
            results[rel] = {"outcome": "failed: the module does not load: " + outcome_of(exc)[len("failed: "):], "reached": []}
            order.append(rel)
            continue
        for attr, obj in sorted(vars(mod).items()):
            if getattr(obj, "__module__", None) != mod.__name__:
                continue
            if isinstance(obj, type) and issubclass(obj, unittest.TestCase):
                try:
                    obj.setUpClass()
                except BaseException:
                    continue
                for case in unittest.defaultTestLoader.loadTestsFromTestCase(obj):
                    run_one("%s::%s::%s" % (rel, attr, case._testMethodName), case.debug, files[name])
                try:
                    obj.tearDownClass()
                except BaseException:
                    pass
            elif isinstance(obj, type) and attr.startswith("Test"):
                try:
                    if any(p.default is p.empty for p in list(inspect.signature(obj).parameters.values())):
                        continue
                except (TypeError, ValueError):
                    continue
                for meth in sorted(m for m in vars(obj) if m.startswith("test") and callable(getattr(obj, m))):
                    if not takes_nothing(getattr(obj, meth), method=True):
                        continue

                    def plain(cls=obj, m=meth):
                        inst = cls()
                        if hasattr(inst, "setup_method"):
                            inst.setup_method(getattr(inst, m))
                        try:
                            getattr(inst, m)()
                        finally:
                            if hasattr(inst, "teardown_method"):
                                inst.teardown_method(getattr(inst, m))
                    run_one("%s::%s::%s" % (rel, attr, meth), plain, files[name])
            elif attr.startswith("test") and inspect.isfunction(obj) and takes_nothing(obj):
                run_one("%s::%s" % (rel, attr), obj, files[name])
    flush()
    os._exit(0)


def load(name):
    """The test module, run as an import runs it; one that ends by
    running its own tests and exiting keeps what it defined before."""
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise ImportError("no module named " + name)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except SystemExit:
        pass
    return mod


def takes_nothing(fn, method=False):
    """A test callable without fixtures: every parameter (but self) has a
    default."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    if method and params:
        params = params[1:]
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


main()
