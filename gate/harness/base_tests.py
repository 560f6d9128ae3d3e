"""Runs the merge-base's test files on one side's code and says how each
test ended (issue 24: the base's tests on both sides).

    python3 base_tests.py SPEC OUT

SPEC is JSON: {"base": DIR, "tests": [paths relative to DIR], "only":
[test ids] or null, "targets": {"<file>:<qualname>": "<symbol>"},
"watch": {"<file>": [[from, to], ...]}, "record": N, "seconds": S,
"per_test": T}. The current directory is the side's tree;
its code is what the tests import, and each test module is loaded from
the base's file under the name it has in its package, so its relative
imports reach the side's package. Each module's plain test functions
that take no fixtures, its plain test classes and its unittest cases run
one by one, each within T seconds. OUT gets {"order": [ids], "tests":
{id: {"outcome": "passed" | "skipped" | "failed: ...", "reached":
[symbols], "lines": {"<file>": [lines]}}}}: reached names the targets
the test called, the last called first; lines the watched lines it ran,
by the watch's name of the file. With a record, OUT also has "calls":
{"<symbol>": [{"args": [...], "kwargs": {...}}]}, the arguments (without
self or cls) of up to N distinct calls of each target whose values JSON
carries, the inputs the tests give it. With "amplify": [test ids], each
of those tests runs again once for each variant of its literals
(variants_of: one literal of its body replaced, a text emptied, cut to
its first character, its numbers 0 or 1; a number 0, 1 or -1; a written
list or tuple empty, without its last or first item, its last item
twice), the test function compiled again from the base's source with
that one change, within ten times the test's own time (a second at
least); a variant's id is the test's with "[variant n]"
after it, n the variant's place, and its record says which literal it
changed ("variant"). Only may name a variant alone; its test runs
before it all the same. Written when the tests end or
after S seconds ("stopped": true)."""
import ast
import contextlib
import copy
import importlib.abc
import importlib.util
import inspect
import json
import linecache
import os
import pathlib
import re
import signal
import sys
import tempfile
import textwrap
import threading
import time
import traceback
import types
import unittest
import unittest.mock
import warnings

# Everything the runner uses is imported above, before the side's tree is
# on the path: a file the head adds at its top (re.py, pytest.py) cannot
# stand in for one.


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
    """Finds the test modules at the base's files and nothing else, each
    loaded from its text as read before any of the side's code ran: on
    the head the files are a copy the side may write, and a test module
    the head's code rewrote on the way would be the head's test."""

    def __init__(self, files):
        self.files = files
        self.texts = {}
        for f in files.values():
            try:
                with open(f, "rb") as fh:
                    self.texts[f] = fh.read()
            except OSError:
                continue
            # the source a test's variants are compiled from, and a
            # traceback's lines, are this text too (an entry without a
            # time is never read again from the file)
            text = self.texts[f].decode("utf-8", "replace")
            linecache.cache[f] = (len(text), None, text.splitlines(True), f)

    def find_spec(self, fullname, path=None, target=None):
        f = self.files.get(fullname)
        if f is None or f not in self.texts:
            return None
        return importlib.util.spec_from_file_location(fullname, f, loader=ReadLoader(fullname, f, self.texts[f]))


class ReadLoader(importlib.abc.SourceLoader):
    """Loads a module from a text read earlier, never from its file."""

    def __init__(self, fullname, path, text):
        self.fullname, self.path, self.text = fullname, path, text

    def get_filename(self, fullname):
        return self.path

    def get_data(self, path):
        if path == self.path:
            return self.text
        raise OSError(path)


TIMED_OUT = "failed: timed out"

# the modules beside the base's tests read as the base's, at most, in a
# directory of tests
MAX_HELPERS = 2000
TEST_DIR = re.compile(r"/(tests?|testing|test_[^/]*|[^/]*_tests?)/")


def outcome_of(exc, test_file=None):
    name = type(exc).__name__
    if name in ("SkipTest", "Skipped") or isinstance(exc, unittest.SkipTest):
        return "skipped"
    msg = str(exc).strip().split("\n")[0][:300]
    if isinstance(exc, TestTimeout):
        return TIMED_OUT
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
    # the tests see the command line of a plain pytest run: no arguments
    # (a parser built without a list reads sys.argv), the program pytest
    sys.argv[:] = [os.path.join(os.path.dirname(sys.executable), "pytest")]
    cwd = os.getcwd()
    install_pytest()
    install_nose()
    try:
        import mock  # noqa: F401
    except ImportError:
        # the mock package became unittest.mock
        sys.modules["mock"] = unittest.mock
    sys.path[:0] = [cwd] + ([os.path.join(cwd, "src")] if os.path.isdir("src") else [])
    base = spec["base"]
    per_test = float(spec.get("per_test", 5))
    only = set(spec["only"]) if spec.get("only") else None
    amplify = set(spec.get("amplify") or ())
    targets = {}
    for key, symbol in (spec.get("targets") or {}).items():
        path, qual = key.rsplit(":", 1)
        targets[(os.path.realpath(path), qual)] = symbol
    # a watched file by its real path: the name the watch gave it, and
    # the line spans whose lines a test's record names
    watch = {}
    for path, spans in (spec.get("watch") or {}).items():
        watch[os.path.realpath(path)] = (path, [tuple(r) for r in spans])
    results, order = {}, []
    absent = []  # the modules the tests import that are not installed
    limit = int(spec.get("record") or 0)
    calls, kept = {}, {}
    current = [None]
    lock = threading.Lock()
    done = [False]

    def flush(stopped=False):
        with lock:
            if done[0]:
                return
            done[0] = True
            sys.settrace(None)
            for r in results.values():
                if "lines" in r:
                    r["lines"] = {f: sorted(ls) for f, ls in list(r["lines"].items()) if ls}
            with open(out_path + ".tmp", "w") as f:
                json.dump({"order": order, "tests": results, "calls": calls, "stopped": stopped, "absent": absent}, f)
            os.replace(out_path + ".tmp", out_path)

    symbols = {}

    def code_of(code):
        # what a test's record takes from a code object: the target it
        # is and the watched file it lies in, read once a code object
        got = symbols.get(id(code))
        if got is None:
            qual = getattr(code, "co_qualname", code.co_name)
            real = os.path.realpath(code.co_filename)
            sym = targets.get((code.co_filename, qual)) or targets.get((real, qual))
            spans = watch.get(real)
            if spans is not None and not any(a <= code.co_firstlineno <= b for a, b in spans[1]):
                spans = None
            got = symbols[id(code)] = (code, sym, spans and spans[0])
        return got

    def record_call(frame, symbol):
        # the call's arguments, where JSON carries them: the inputs the
        # tests give the target
        code = frame.f_code
        names = list(code.co_varnames[:code.co_argcount])
        kwnames = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
        if names and names[0] in ("self", "cls"):
            names = names[1:]  # a method: the object is built apart
        try:
            vals = {"args": [frame.f_locals[n] for n in names], "kwargs": {n: frame.f_locals[n] for n in kwnames}}
            text = json.dumps(vals, allow_nan=False, sort_keys=True)
        except Exception:
            return
        got = kept.setdefault(symbol, set())
        if len(text) > 2000 or text in got or len(got) >= limit:
            return
        got.add(text)
        calls.setdefault(symbol, []).append(json.loads(text))

    def trace(frame, event, arg):
        # called on every call of Python code (sys.settrace): names the
        # targets a test calls, and traces the lines of the watched code
        # alone
        if current[0] is None:
            return None
        _, sym, watched = code_of(frame.f_code)
        test = results[current[0]]
        if sym is not None:
            # the last called first: what a test asserts on is most often
            # what it called last
            reached = test["reached"]
            if not reached or reached[0] != sym:
                if sym in reached:
                    reached.remove(sym)
                reached.insert(0, sym)
            if limit:
                record_call(frame, sym)
        if watched is None:
            return None
        seen = test.setdefault("lines", {}).setdefault(watched, set())

        def lines(frame, event, arg):
            if event == "line":
                seen.add(frame.f_lineno)
            return lines
        return lines

    def alarm(signum, frame):
        raise TestTimeout()

    signal.signal(signal.SIGALRM, alarm)

    def run_one(test_id, fn, test_file, test_fn=None):
        variants = []
        if test_fn is not None and (test_id in amplify or only is not None and any(o.startswith(test_id + "[variant ") for o in only)):
            variants = variants_of(test_fn)
        # a variant has ten times the test's own time, a second at least:
        # a loop it finds costs that, not the test's whole time. The test
        # runs first whenever a variant of it does, named alone or not, so
        # a variant meets what its test left, run after run.
        took = per_test / 10
        if only is None or test_id in only or variants:
            took = run_as(test_id, fn, test_file, per_test)
        for n, (code, what) in enumerate(variants):
            vid = "%s[variant %d]" % (test_id, n)
            if test_id not in amplify and vid not in only:
                continue
            kept = test_fn.__code__
            test_fn.__code__ = code
            try:
                run_as(vid, fn, test_file, min(per_test, max(1.0, 10 * took)))
            finally:
                test_fn.__code__ = kept
            if vid in results:
                results[vid]["variant"] = what
                if results[vid]["outcome"] == TIMED_OUT:
                    break  # a loop found: the test's other variants would spend their time in it too

    def run_as(test_id, fn, test_file, seconds):
        """Runs one test within seconds and says how long it took."""
        if done[0]:
            return 0
        results[test_id] = {"outcome": "passed", "reached": []}
        order.append(test_id)
        current[0] = test_id
        started = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            fn()
        except BaseException as exc:  # the test's, never the run's
            results[test_id]["outcome"] = outcome_of(exc, test_file)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            current[0] = None
        return time.monotonic() - started

    first = [w.lower().strip("_") for w in spec.get("first") or [] if len(w.strip("_")) > 2]

    def named_first(name):
        """Whether a test's name holds one of the words run first."""
        name = name.lower()
        return any(w in name for w in first)

    def names_first(attr, obj):
        """Whether a module's test, or a test class's name or one of its
        tests, holds one of the words run first."""
        if named_first(attr):
            return True
        return isinstance(obj, type) and any(named_first(m) for m in vars(obj) if m.startswith("test"))

    files = {}
    names = []
    for rel in spec["tests"]:
        name, root = module_name(base, rel)
        files[name] = os.path.join(base, rel)
        names.append((rel, name, root))
        # the conftests beside and above it are the base's too: the head's
        # could change what a test checks
        d = os.path.dirname(rel)
        while True:
            conf = (d + "/" if d else "") + "conftest.py"
            if os.path.isfile(os.path.join(base, conf)):
                files.setdefault(module_name(base, conf)[0], os.path.join(base, conf))
            if not d:
                break
            d = os.path.dirname(d)
    # and so are the modules beside them that they import (a tests/
    # directory's helpers, its fixtures' package): the head's copy of one
    # could make a failing check pass. Only in a directory of tests
    # (tests/, pkg/test/): beside a test at the top of the tree or in the
    # package it tests are the code under test.
    helpers = 0
    for d in sorted(d for d in {os.path.dirname(rel) for rel in spec["tests"]} if TEST_DIR.search("/" + d + "/")):
        for dirpath, dirnames, filenames in os.walk(os.path.join(base, d)):
            dirnames[:] = sorted(x for x in dirnames if not x.startswith((".", "__pycache__")))
            for fn in sorted(filenames):
                if fn.endswith(".py") and helpers < MAX_HELPERS:
                    rel = os.path.relpath(os.path.join(dirpath, fn), base).replace(os.sep, "/")
                    name = module_name(base, rel)[0]
                    if name.endswith(".__init__"):
                        name = name[: -len(".__init__")]
                    if name not in files:
                        files[name] = os.path.join(base, rel)
                        helpers += 1
    sys.meta_path.insert(0, BaseTestFinder(files))
    timer = threading.Timer(float(spec.get("seconds", 20)), lambda: (flush(True), os._exit(0)))
    timer.daemon = True
    timer.start()
    if targets or watch:
        sys.settrace(trace)
    for rel, name, root in names:
        folder = os.path.join(cwd, root) if root else cwd
        if folder not in sys.path:
            sys.path.insert(1, folder)
        try:
            signal.setitimer(signal.ITIMER_REAL, per_test)
            try:
                mod = load_standing_in(name, cwd, absent)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException as exc:
            results[rel] = {"outcome": "failed: the module does not load: " + outcome_of(exc)[len("failed: "):], "reached": []}
            order.append(rel)
            continue
        fixtures, autouse = {}, []
        for source in conftests(name, files) + [mod]:
            for attr, obj in vars(source).items():
                if callable(obj) and getattr(obj, "premise_fixture", False) is True:
                    fname = getattr(obj, "premise_name", None) or attr
                    fixtures[fname] = obj
                    if getattr(obj, "premise_autouse", False) and fname not in autouse:
                        autouse.append(fname)
        fixtures["premise autouse"] = autouse
        generators = [g for g in (getattr(source, "pytest_generate_tests", None) for source in conftests(name, files) + [mod]) if callable(g)]
        for attr, obj in sorted(vars(mod).items(), key=lambda item: (not names_first(item[0], item[1]), item[0])):
            if getattr(obj, "__module__", None) != mod.__name__:
                continue
            if isinstance(obj, type) and issubclass(obj, unittest.TestCase):
                try:
                    obj.setUpClass()
                except BaseException:
                    continue
                cases_of = list(unittest.defaultTestLoader.loadTestsFromTestCase(obj))
                cases_of.sort(key=lambda case: not named_first(case._testMethodName))
                for case in cases_of:
                    run_one("%s::%s::%s" % (rel, attr, case._testMethodName), case.debug, files[name],
                            plain_function(vars(obj).get(case._testMethodName)))
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
                try:
                    if hasattr(obj, "setup_class"):
                        obj.setup_class()
                except BaseException:
                    continue
                for meth in sorted((m for m in vars(obj) if m.startswith("test") and callable(getattr(obj, m))), key=lambda m: (not named_first(m), m)):
                    for suffix, kwargs, needs, made in cases(getattr(obj, meth), fixtures, class_marks(obj) + generated(generators, getattr(obj, meth), obj, mod)):
                        def plain(cls=obj, m=meth, k=kwargs, n=needs, mk=made):
                            inst = cls()
                            hook(inst, "setup_method", getattr(inst, m))
                            try:
                                call_with(getattr(inst, m), k, n, fixtures, mk)
                            finally:
                                hook(inst, "teardown_method", getattr(inst, m))
                        run_one("%s::%s::%s%s" % (rel, attr, meth, suffix), plain, files[name],
                                None if suffix else plain_function(vars(obj).get(meth)))
                try:
                    if hasattr(obj, "teardown_class"):
                        obj.teardown_class()
                except BaseException:
                    pass
            elif attr.startswith("test") and inspect.isfunction(obj) and getattr(obj, "__test__", True):
                for suffix, kwargs, needs, made in cases(obj, fixtures, generated(generators, obj, None, mod)):
                    run_one("%s::%s%s" % (rel, attr, suffix),
                            lambda fn=obj, k=kwargs, n=needs, mk=made: call_with(fn, k, n, fixtures, mk), files[name],
                            None if suffix else plain_function(obj))
    flush()
    os._exit(0)


def plain_function(fn):
    """A test's own function, whose constants a variant replaces; None
    for anything else (a decorated test's wrapper holds none of them)."""
    if inspect.isfunction(fn) and not hasattr(fn, "__wrapped__"):
        return fn
    return None


# A test's variants: the first MAX_SITES literals of its body, and
# MAX_VARIANTS variants in all.
MAX_SITES = 12
MAX_VARIANTS = 24
DIGITS = re.compile(r"[0-9]+")
# an attribute of a markup element: <path d="M0,0"/>
ATTRIBUTE = re.compile(r"""(<[A-Za-z][^<>]*?)\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*')""")


def literal_sites(fdef):
    """The literals of a test function's body in the order they are
    written: texts and numbers, and lists and tuples written out (of
    anything), a nested function's (a callback the test hands over) as
    well; not its docstring, not an f-string's parts."""
    body = fdef.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]
    out = []

    def visit(node):
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.Constant) and type(node.value) in (str, int, float):
            out.append(node)
        elif isinstance(node, (ast.List, ast.Tuple)) and isinstance(node.ctx, ast.Load) and node.elts:
            out.append(node)
        for child in inputs_of(node):
            visit(child)
    for stmt in body:
        visit(stmt)
    return out


def inputs_of(node):
    """The parts of a node that make what a test passes, not what it
    expects back: an assert's comparison without the values compared
    against, a self.assertX call without its arguments after the first."""
    if isinstance(node, ast.Assert):
        return [node.test.left if isinstance(node.test, ast.Compare) else node.test]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("assert") and node.args:
        return [node.func, node.args[0]]
    return list(ast.iter_child_nodes(node))


def site_steps(node):
    """A literal's replacements and what each says: a text emptied, a
    markup text without its first element's first attribute, cut to its
    first character, its numbers 0 and 1, its quotes the other kind (where
    it has one kind), its spaces doubled; a number 0, 1 and -1; a written
    list or tuple empty, without its last item, without its first and with
    its last twice."""
    if isinstance(node, ast.Constant):
        c = node.value
        if type(c) is str:
            steps = ["", ATTRIBUTE.sub(r"\1", c, count=1), c[:1]] + [DIGITS.sub(d, c) for d in ("0", "1")]
            if ("'" in c) != ('"' in c):
                steps.append(c.translate(str.maketrans("'\"", "\"'")))
            steps.append(c.replace(" ", "  "))
        else:
            steps = [type(c)(v) for v in (0, 1, -1)]
        seen, out = {c}, []
        for v in steps:
            if v not in seen:
                seen.add(v)
                out.append((ast.Constant(v), "%s as %s" % (short(repr(c)), short(repr(v)))))
        return out
    written = short(ast.unparse(node))
    elts, kind = node.elts, type(node)
    out = [(kind(elts=[], ctx=ast.Load()), "%s empty" % written)]
    if len(elts) > 1:
        out.append((kind(elts=elts[:-1], ctx=ast.Load()), "%s without its last item" % written))
        out.append((kind(elts=elts[1:], ctx=ast.Load()), "%s without its first item" % written))
    if not any(isinstance(e, ast.Starred) for e in elts):
        out.append((kind(elts=elts + elts[-1:], ctx=ast.Load()), "%s with its last item twice" % written))
    return out


def short(text):
    """A literal as a change names it: at most 60 characters."""
    return text if len(text) <= 60 else text[:57] + "..."


class Replace(ast.NodeTransformer):
    """Puts new in the place of one node of a tree."""

    def __init__(self, target, new):
        self.target, self.new = target, new

    def visit(self, node):
        if node is self.target:
            return ast.copy_location(self.new, node)
        return super().visit(node)


def parse_def(fn):
    """A module of the function's definition alone, its lines counted
    from the definition's first; None where its source does not read or
    parse. A method's source is indented, and dedent leaves it so where a
    text of its spans lines at the margin: it is parsed under an if."""
    try:
        src = inspect.getsource(fn)
    except Exception:
        return None
    for text, nested in ((textwrap.dedent(src), False), ("if 1:\n" + src, True)):
        try:
            tree = ast.parse(text)
        except Exception:
            continue
        if nested:
            tree = ast.Module(body=tree.body[0].body, type_ignores=[])
            ast.increment_lineno(tree, -1)
        if tree.body and isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return tree
    return None


def variants_of(fn):
    """The test's code with one of its literals replaced (literal_sites,
    site_steps), and what was replaced, in words: compiled again from the
    base's source of the test, at its lines, in its module. None for a
    test whose source premise cannot read, or that is a closure."""
    code = fn.__code__
    if code.co_freevars:
        return []
    tree = parse_def(fn)
    if tree is None:
        return []
    ast.increment_lineno(tree, code.co_firstlineno - 1)
    tree.body[0].decorator_list = []
    out = []
    sites = literal_sites(tree.body[0])[:MAX_SITES]
    steps = [site_steps(site) for site in sites]
    # each literal's first replacement, then each one's second, ...: the
    # variants spread over the test's literals
    order = sorted(((k, n) for n in range(len(sites)) for k in range(len(steps[n]))))
    for k, n in order:
        new, what = steps[n][k]
        # each variant changes a copy: its site is the n-th of the copy's
        mod = copy.deepcopy(tree)
        target = literal_sites(mod.body[0])[n]
        mod = ast.fix_missing_locations(Replace(target, new).visit(mod))
        ns = {}
        try:
            exec(compile(mod, code.co_filename, "exec"), fn.__globals__, ns)
            made = ns[tree.body[0].name].__code__
        except Exception:
            continue
        if made.co_freevars:
            continue
        out.append((made, what))
        if len(out) >= MAX_VARIANTS:
            break
    return out


def hook(inst, name, method):
    """Call a test class's setup_method or teardown_method as pytest does:
    with the test method when it takes one, else with none."""
    fn = getattr(inst, name, None)
    if fn is None:
        return
    try:
        takes = len(inspect.signature(fn).parameters) > 0
    except (TypeError, ValueError):
        takes = True
    if takes:
        fn(method)
    else:
        fn()


class Skipped(Exception):
    """pytest.skip's exception in the stand-in."""


class MarkDecorator:
    """One pytest.mark in the stand-in: kept on the function as pytest
    keeps it (pytestmark), for parametrize, skip, skipif and xfail."""

    def __init__(self, name, args=(), kwargs=None):
        self.name, self.args, self.kwargs = name, args, kwargs or {}

    def __call__(self, *args, **kwargs):
        applied = bool(self.args or self.kwargs) or (len(args) == 1 and callable(args[0]) and not kwargs)
        if applied and len(args) == 1 and callable(args[0]):
            # A class's __dict__ cannot be written to: set as an
            # attribute, the marks it had of its own and this one.
            target = args[0]
            own = vars(target).get("pytestmark", []) if hasattr(target, "__dict__") else []
            setattr(target, "pytestmark", list(own) + [self])
            return target
        return MarkDecorator(self.name, args, kwargs)


class Marks:
    def __getattr__(self, name):
        return MarkDecorator(name)


class RaisesContext:
    def __init__(self, exc, match):
        self.expected, self.match, self.value, self.type = exc, match, None, None

    def __enter__(self):
        return self

    def __exit__(self, t, v, tb):
        if t is None:
            raise AssertionError("DID NOT RAISE %r" % (self.expected,))
        if not issubclass(t, self.expected):
            return False
        if self.match is not None:
            if not re.search(self.match, str(v)):
                raise AssertionError("pattern %r not found in %r" % (self.match, str(v)))
        self.value, self.type = v, t
        return True


class WarnsContext:
    def __init__(self, category, match):
        self.category, self.match = category, match
        self.catch = warnings.catch_warnings(record=True)

    def __enter__(self):
        self.list = self.catch.__enter__()
        warnings.simplefilter("always")
        return self.list

    def __exit__(self, t, v, tb):
        self.catch.__exit__(t, v, tb)
        if t is None and not any(issubclass(w.category, self.category) for w in self.list):
            raise AssertionError("DID NOT WARN %r" % (self.category,))
        return False


class Approx:
    def __init__(self, expected, rel=None, abs=None):
        self.expected, self.rel, self.abs = expected, rel, abs

    def _close(self, a, b):
        if isinstance(b, (list, tuple)):
            return isinstance(a, (list, tuple)) and len(a) == len(b) and all(self._close(x, y) for x, y in zip(a, b))
        if isinstance(b, dict):
            return isinstance(a, dict) and a.keys() == b.keys() and all(self._close(a[k], b[k]) for k in b)
        try:
            tol = max(self.rel if self.rel is not None else 1e-6 * abs_(b), self.abs if self.abs is not None else 1e-12)
            return abs_(a - b) <= tol
        except TypeError:
            return a == b

    def __eq__(self, other):
        return self._close(other, self.expected)

    def __repr__(self):
        return "approx(%r)" % (self.expected,)


abs_ = abs


class ParamSet:
    """pytest.param in the stand-in: one parametrize row and its marks."""

    def __init__(self, values, marks, id=None):
        self.values, self.marks, self.id = values, marks, id


def install_pytest():
    """premise's pytest, installed or not, so a test module that imports
    it loads and runs the same on every machine: raises, warns, approx,
    mark (parametrize, skipif, xfail kept for the runner), fixture, skip,
    fail, importorskip. (A real pytest's fixtures refuse to be called
    but by its own runner, which premise does not use.)"""
    m = types.ModuleType("pytest")

    def raises(exc, *args, match=None, **kwargs):
        if args:
            try:
                args[0](*args[1:], **kwargs)
            except exc as e:
                return e
            raise AssertionError("DID NOT RAISE %r" % (exc,))
        return RaisesContext(exc, match)

    def fixture(*args, **kwargs):
        # scope is not kept: every fixture is made anew for each test
        def mark(fn):
            fn.premise_fixture = True
            fn.premise_params = kwargs.get("params")
            fn.premise_autouse = bool(kwargs.get("autouse"))
            fn.premise_name = kwargs.get("name")
            return fn
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return mark(args[0])
        return mark

    def skip(msg="", **kwargs):
        raise Skipped(msg)
    skip.Exception = Skipped

    def fail(msg="", **kwargs):
        raise AssertionError(msg)

    def importorskip(name, *args, **kwargs):
        try:
            return importlib.import_module(name)
        except ImportError:
            raise Skipped(name)

    m.raises, m.fixture, m.skip, m.fail, m.importorskip = raises, fixture, skip, fail, importorskip
    m.warns = lambda category=Warning, *a, match=None, **k: WarnsContext(category, match)
    m.deprecated_call = lambda *a, **k: WarnsContext((DeprecationWarning, PendingDeprecationWarning), None)
    m.approx, m.mark = Approx, Marks()
    m.param = lambda *values, marks=(), id=None, **k: ParamSet(values, marks if isinstance(marks, (list, tuple)) else [marks], id)
    m.MonkeyPatch = MonkeyPatch

    def other(name):
        # the types a test names in its annotations (pytest.FixtureRequest,
        # pytest.CaptureFixture) and warnings it filters: a module that
        # names one loads
        if name[:1].isupper():
            t = type(name, (Warning,) if name.endswith("Warning") else (object,), {})
            setattr(m, name, t)
            return t
        raise AttributeError(name)
    m.__getattr__ = other
    sys.modules["pytest"] = m


def install_nose():
    """A stand-in for nose.tools where nose is not installed (it does not
    load on Python 3.11): assert_* as unittest's assertions in snake
    case, eq_, ok_, raises, with_setup, istest and nottest."""
    try:
        import nose.tools  # noqa: F401
        return
    except Exception:
        pass
    nose = types.ModuleType("nose")
    tools = types.ModuleType("nose.tools")
    case = unittest.TestCase("__init__")
    case.maxDiff = None
    for name in dir(case):
        if name.startswith("assert") and "_" not in name:
            snake = re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)
            setattr(tools, snake, getattr(case, name))

    def eq_(a, b, msg=None):
        if not a == b:
            raise AssertionError(msg or "%r != %r" % (a, b))

    def ok_(expr, msg=None):
        if not expr:
            raise AssertionError(msg)

    def raises(*exceptions):
        def decorate(fn):
            def wrapped(*args, **kwargs):
                try:
                    fn(*args, **kwargs)
                except exceptions:
                    return
                raise AssertionError("%s() did not raise %s" % (fn.__name__, " or ".join(e.__name__ for e in exceptions)))
            wrapped.__name__ = fn.__name__
            return wrapped
        return decorate

    def with_setup(setup=None, teardown=None):
        def decorate(fn):
            def wrapped(*args, **kwargs):
                if setup:
                    setup()
                try:
                    fn(*args, **kwargs)
                finally:
                    if teardown:
                        teardown()
            wrapped.__name__ = fn.__name__
            return wrapped
        return decorate

    def istest(fn):
        fn.__test__ = True
        return fn

    def nottest(fn):
        fn.__test__ = False
        return fn

    tools.eq_, tools.ok_, tools.raises, tools.with_setup = eq_, ok_, raises, with_setup
    tools.istest, tools.nottest = istest, nottest
    nose.tools = tools
    sys.modules["nose"], sys.modules["nose.tools"] = nose, tools


def marks_of(fn):
    return list(getattr(fn, "pytestmark", None) or [])


class Metafunc:
    """What a pytest_generate_tests hook is given in the stand-in: the
    test's fixture names, and parametrize, whose rows become the test's
    parametrize marks."""

    def __init__(self, fn, cls, module):
        self.function, self.cls, self.module = fn, cls, module
        self.definition, self.config = fn, None
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            params = []
        if cls is not None:
            params = params[1:]
        self.fixturenames = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        self.marks = []

    def parametrize(self, argnames, argvalues, indirect=False, ids=None, scope=None):
        self.marks.append(MarkDecorator("parametrize", (argnames, list(argvalues)), {}))


def generated(generators, fn, cls, module):
    """The parametrize marks the module's and its conftests'
    pytest_generate_tests hooks give fn; none when a hook fails."""
    marks = []
    for gen in generators:
        mf = Metafunc(fn, cls, module)
        try:
            gen(mf)
        except BaseException:
            continue
        marks.extend(mf.marks)
    return marks


def class_marks(cls):
    """The marks of a test class and its bases, which pytest gives each
    of its methods."""
    out = []
    for k in reversed(cls.__mro__):
        out.extend(vars(k).get("pytestmark", None) or [])
    return out


def cases(fn, fixtures, inherited=()):
    """The calls a pytest-style test function stands for: one per row of
    its parametrize marks crossed, each a name suffix and the keyword
    arguments; none when it is skipped, expected to fail, or needs a
    fixture the runner does not have."""
    rows = [("", {})]
    marks = list(inherited) + marks_of(fn)
    for mark in marks:
        name = getattr(mark, "name", "")
        if name == "skip" or name == "xfail":
            return []
        if name == "skipif" and (mark.args and mark.args[0] or mark.kwargs.get("condition")):
            return []
        if name != "parametrize" or len(mark.args) < 2:
            continue
        names, values = mark.args[0], list(mark.args[1])
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",") if n.strip()]
        crossed = []
        for suffix, kwargs in rows:
            for i, v in enumerate(values):
                v_id = None
                if isinstance(v, ParamSet):
                    if any(getattr(mk, "name", "") in ("skip", "xfail") for mk in v.marks):
                        continue
                    v, v_id = v.values, v.id
                elif len(names) == 1:
                    v = (v,)
                else:
                    v = tuple(v)
                if len(v) != len(names):
                    return []
                k = dict(kwargs)
                k.update(zip(names, v))
                tag = str(i)
                if isinstance(v_id, str) and v_id and "]" not in v_id:
                    tag = v_id  # pytest.param(..., id=...) names the row, as pytest does
                crossed.append(("%s[%s]" % (suffix, tag) if not suffix else "%s-%s]" % (suffix[:-1], tag), k))
        rows = crossed
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    used = [n for mark in marks if getattr(mark, "name", "") == "usefixtures" for n in mark.args]
    out = []
    for suffix, kwargs in rows:
        needs = [p.name for p in params if p.name not in kwargs and p.default is p.empty
                 and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "self"]
        made = fixture_closure(list(fixtures.get("premise autouse", [])) + used + needs, fixtures)
        if made is None:
            return []
        # a fixture with params stands for one call per param, crossed
        chosen = [{}]
        for n in made:
            ps = getattr(fixtures.get(n), "premise_params", None) if n not in BUILTIN_FIXTURES else None
            if ps is None:
                continue
            ps = list(ps)
            chosen = [dict(c, **{n: i}) for c in chosen for i in range(len(ps))]
        for c in chosen[:MAX_FIXTURE_CASES]:
            tag = "".join("[%s%d]" % (n, i) for n, i in sorted(c.items()))
            out.append((suffix + tag, kwargs, needs, (made, c)))
    return out


# the fixtures premise makes itself, as pytest does
BUILTIN_FIXTURES = ("tmp_path", "tmpdir", "tmp_path_factory", "tmpdir_factory", "monkeypatch", "capsys", "capfd",
                    "caplog", "recwarn", "pytestconfig", "mocker", "request")
# a test's calls across its fixtures' params, at most
MAX_FIXTURE_CASES = 64


def fixture_needs(fn):
    """The fixtures a fixture or test function asks for by parameter."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    return [p.name for p in params if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            and p.name != "self"]


def fixture_closure(names, fixtures):
    """Every fixture names need, each after those it needs, or None when
    one cannot be made (unknown, or needing itself)."""
    out = []

    def visit(n, stack):
        if n in out:
            return True
        if n in BUILTIN_FIXTURES:
            out.append(n)
            return True
        f = fixtures.get(n)
        if f is None or n in stack or not callable(f):
            return False
        needs = fixture_needs(f)
        if needs is None or not all(visit(m, stack + (n,)) for m in needs):
            return False
        out.append(n)
        return True
    for n in names:
        if not visit(n, ()):
            return None
    return out


def call_with(fn, kwargs, needs, fixtures, made=((), {})):
    """fn called with its parameters and the fixtures it names, each
    fixture made once for the call from the fixtures it needs (a param
    fixture with its chosen param on request.param); generator fixtures
    are finished after the call, the last made first."""
    order, chosen = made
    values, finish = {}, []
    for n in order:
        if n in BUILTIN_FIXTURES:
            if n == "request":
                values[n] = Request(None, values, finish)
            else:
                values[n] = builtin_fixture(n, finish)
            continue
        f = fixtures[n]
        args = {}
        for m in fixture_needs(f):
            if m == "request":
                ps = getattr(f, "premise_params", None)
                param = list(ps)[chosen[n]] if ps is not None and n in chosen else None
                if isinstance(param, ParamSet):
                    param = param.values[0] if len(param.values) == 1 else param.values
                args[m] = Request(param, values, finish)
            else:
                args[m] = values[m]
        v = f(**args)
        if inspect.isgenerator(v):
            finish.append(v)
            v = next(v)
        values[n] = v
    args = dict(kwargs)
    for n in needs:
        args[n] = values[n]
    try:
        return fn(**args)
    finally:
        for g in reversed(finish):
            if callable(g):
                g()
                continue
            for _ in g:
                pass


def builtin_fixture(name, finish):
    if name == "tmp_path":
        return pathlib.Path(tempfile.mkdtemp())
    if name == "tmpdir":
        return LocalPath(tempfile.mkdtemp())
    if name == "tmp_path_factory":
        return TempFactory(pathlib.Path)
    if name == "tmpdir_factory":
        return TempFactory(LocalPath)
    if name == "monkeypatch":
        mp = MonkeyPatch()
        finish.append(mp.undo)
        return mp
    if name in ("capsys", "capfd"):
        cap = CaptureFixture()
        finish.append(cap.stop)
        return cap
    if name == "caplog":
        cap = LogCapture()
        finish.append(cap.stop)
        return cap
    if name == "recwarn":
        rec = warnings.catch_warnings(record=True)
        seen = rec.__enter__()
        warnings.simplefilter("always")
        finish.append(lambda: rec.__exit__(None, None, None))
        return WarningsRecorder(seen)
    if name == "mocker":
        m = Mocker()
        finish.append(m.stopall)
        return m
    if name == "pytestconfig":
        return types.SimpleNamespace(getoption=lambda *a, **k: k.get("default"), getini=lambda *a, **k: None,
                                     rootdir=os.getcwd(), rootpath=pathlib.Path(os.getcwd()))


class LocalPath(type(pathlib.Path())):
    """pytest's tmpdir, a py.path.local as far as tests use one: a path
    that also joins, reads, writes and makes a directory below itself."""

    @property
    def strpath(self):
        return str(self)

    @property
    def basename(self):
        return self.name

    def join(self, *parts):
        return LocalPath(self, *parts)

    def dirpath(self, *parts):
        return LocalPath(self.parent, *parts)

    def mkdir(self, *args, **kwargs):
        if args and isinstance(args[0], str):
            child = self.join(args[0])
            os.mkdir(child)
            return child
        return super().mkdir(*args, **kwargs)

    def ensure(self, *parts, dir=False, file=True):
        p = self.join(*parts)
        if dir:
            os.makedirs(p, exist_ok=True)
        else:
            os.makedirs(p.parent, exist_ok=True)
            p.touch()
        return p

    def write(self, data, mode="w"):
        with open(self, mode if "b" in mode or isinstance(data, str) else mode + "b") as f:
            f.write(data)

    def read(self, mode="r"):
        with open(self, mode) as f:
            return f.read()

    def write_binary(self, data, ensure=False):
        if ensure:
            os.makedirs(self.parent, exist_ok=True)
        self.write_bytes(data)

    def read_binary(self):
        return self.read_bytes()

    def listdir(self):
        return [self.join(n) for n in sorted(os.listdir(self))]

    @contextlib.contextmanager
    def as_cwd(self):
        old = os.getcwd()
        os.chdir(self)
        try:
            yield old
        finally:
            os.chdir(old)

    def check(self, **kwargs):
        if kwargs.get("dir"):
            return self.is_dir()
        if kwargs.get("file"):
            return self.is_file()
        return self.exists()


class TempFactory:
    """pytest's tmp_path_factory and tmpdir_factory: new directories."""

    def __init__(self, kind):
        self.kind = kind
        self.base = kind(tempfile.mkdtemp())

    def mktemp(self, basename="tmp", numbered=True):
        return self.kind(tempfile.mkdtemp(prefix=basename, dir=self.base))

    def getbasetemp(self):
        return self.base


class Request:
    """pytest's request, as far as a fixture reads it: its param, other
    fixtures by name, finalizers."""

    def __init__(self, param, values, finish):
        self.param, self._values, self._finish = param, values, finish
        self.node = types.SimpleNamespace(name="test", get_closest_marker=lambda *a: None)
        self.config = types.SimpleNamespace(getoption=lambda *a, **k: k.get("default"))

    def getfixturevalue(self, name):
        return self._values[name]

    def addfinalizer(self, fn):
        self._finish.append(fn)


class MonkeyPatch:
    """pytest's monkeypatch: every change undone after the test."""
    _unset = object()

    def __init__(self):
        self._undo = []

    def _target(self, target, name, value):
        if value is self._unset:
            path, value = target, name
            mod, _, name = path.rpartition(".")
            parts = mod.split(".")
            for i in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:i]))
                except ImportError:
                    continue
                for p in parts[i:]:
                    obj = getattr(obj, p)
                return obj, name, value
            raise ImportError(mod)
        return target, name, value

    def setattr(self, target, name, value=_unset, raising=True):
        target, name, value = self._target(target, name, value)
        old = getattr(target, name, self._unset)
        if old is self._unset and raising:
            raise AttributeError(name)
        self._undo.append(lambda: delattr(target, name) if old is self._unset else setattr(target, name, old))
        setattr(target, name, value)

    def delattr(self, target, name=_unset, raising=True):
        if name is self._unset:
            # one dotted path: "module.attr"
            target, name, _ = self._target(target, None, self._unset)
        if not hasattr(target, name):
            if raising:
                raise AttributeError(name)
            return
        old = getattr(target, name)
        self._undo.append(lambda: setattr(target, name, old))
        delattr(target, name)

    def setitem(self, d, key, value):
        old = d.get(key, self._unset) if hasattr(d, "get") else self._unset
        self._undo.append(lambda: d.pop(key, None) if old is self._unset else d.__setitem__(key, old))
        d[key] = value

    def delitem(self, d, key, raising=True):
        if key not in d:
            if raising:
                raise KeyError(key)
            return
        old = d[key]
        self._undo.append(lambda: d.__setitem__(key, old))
        del d[key]

    def setenv(self, name, value, prepend=None):
        value = str(value)
        if prepend and name in os.environ:
            value = value + prepend + os.environ[name]
        self.setitem(os.environ, name, value)

    def delenv(self, name, raising=True):
        self.delitem(os.environ, name, raising)

    def syspath_prepend(self, path):
        self._undo.append(lambda: sys.path.remove(str(path)) if str(path) in sys.path else None)
        sys.path.insert(0, str(path))

    def chdir(self, path):
        old = os.getcwd()
        self._undo.append(lambda: os.chdir(old))
        os.chdir(path)

    def undo(self):
        for fn in reversed(self._undo):
            try:
                fn()
            except Exception:
                pass
        self._undo = []


class CaptureFixture:
    """pytest's capsys: what the test prints, read back."""

    def __init__(self):
        import io
        self._io = io
        self._saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()

    def readouterr(self):
        out, err = sys.stdout.getvalue(), sys.stderr.getvalue()
        sys.stdout, sys.stderr = self._io.StringIO(), self._io.StringIO()
        return CaptureResult(out, err)

    def stop(self):
        sys.stdout, sys.stderr = self._saved


class LogCapture:
    """pytest's caplog: the log records made during the test."""

    def __init__(self):
        import logging
        self._logging = logging
        self.records = []
        cap = self

        class Handler(logging.Handler):
            def emit(self, record):
                cap.records.append(record)
        self.handler = Handler(level=0)
        self._root = logging.getLogger()
        self._level = self._root.level
        self._root.addHandler(self.handler)

    @property
    def messages(self):
        return [r.getMessage() for r in self.records]

    @property
    def text(self):
        return "".join("%s %s %s\n" % (r.levelname, r.name, r.getMessage()) for r in self.records)

    @property
    def record_tuples(self):
        return [(r.name, r.levelno, r.getMessage()) for r in self.records]

    def clear(self):
        self.records.clear()

    def set_level(self, level, logger=None):
        self._logging.getLogger(logger).setLevel(level)

    @contextlib.contextmanager
    def at_level(self, level, logger=None):
        lg = self._logging.getLogger(logger)
        old = lg.level
        lg.setLevel(level)
        try:
            yield
        finally:
            lg.setLevel(old)

    def stop(self):
        self._root.removeHandler(self.handler)
        self._root.setLevel(self._level)


class Mocker:
    """pytest-mock's mocker, over unittest.mock: every patch undone after
    the test."""

    Mock, MagicMock, ANY, call, sentinel = (unittest.mock.Mock, unittest.mock.MagicMock, unittest.mock.ANY,
                                            unittest.mock.call, unittest.mock.sentinel)

    def __init__(self):
        self._patches = []
        mocker = self

        class Patch:
            def __call__(self, target, *args, **kwargs):
                return mocker._start(unittest.mock.patch(target, *args, **kwargs))

            def object(self, target, attribute, *args, **kwargs):
                return mocker._start(unittest.mock.patch.object(target, attribute, *args, **kwargs))

            def dict(self, in_dict, values=(), clear=False, **kwargs):
                return mocker._start(unittest.mock.patch.dict(in_dict, values, clear, **kwargs))

            def multiple(self, target, **kwargs):
                return mocker._start(unittest.mock.patch.multiple(target, **kwargs))
        self.patch = Patch()

    def _start(self, p):
        value = p.start()
        self._patches.append(p)
        return value

    def spy(self, obj, name):
        return self.patch.object(obj, name, side_effect=getattr(obj, name), autospec=True)

    def stub(self, name=None):
        return unittest.mock.MagicMock(spec=lambda *args, **kwargs: None, name=name)

    def stopall(self):
        for p in reversed(self._patches):
            p.stop()
        self._patches.clear()

    resetall = lambda self: None


class WarningsRecorder(list):
    """pytest's recwarn: the warnings the test raised."""

    def __init__(self, seen):
        super().__init__()
        self._seen = seen

    def _sync(self):
        self[:] = list(self._seen)

    def __len__(self):
        self._sync()
        return list.__len__(self)

    def __iter__(self):
        self._sync()
        return list.__iter__(self)

    def __getitem__(self, i):
        self._sync()
        return list.__getitem__(self, i)

    @property
    def list(self):
        self._sync()
        return list(self)

    def pop(self, cls=Warning):
        for i, w in enumerate(self._seen):
            if issubclass(w.category, cls):
                return self._seen.pop(i)
        raise AssertionError("no %s was emitted" % cls.__name__)

    def clear(self):
        self._seen.clear()


class CaptureResult(tuple):
    def __new__(cls, out, err):
        return tuple.__new__(cls, (out, err))

    out = property(lambda self: self[0])
    err = property(lambda self: self[1])


def conftests(name, files):
    """The base's conftest modules of the packages above test module
    name, outermost first, as loaded (their fixtures serve its tests)."""
    out = []
    parts = name.split(".")[:-1]
    for i in range(len(parts) + 1):
        pkg = ".".join(parts[:i] + ["conftest"])
        if pkg not in files:
            continue
        try:
            signal.setitimer(signal.ITIMER_REAL, 5)
            try:
                out.append(importlib.import_module(pkg))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException:
            pass
    return out


def load_standing_in(name, cwd, absent):
    """The test module, loaded; a module it imports that is not installed
    (lxml, sh: a test dependency this machine lacks) and not in the tree
    gets a stand-in whose every use raises ImportError, so the module's
    other tests run. Each stand-in's name goes to absent."""
    for _ in range(8):
        try:
            return load(name)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            top = missing.split(".")[0]
            if not missing or missing in sys.modules or os.path.exists(os.path.join(cwd, top)) or \
                    os.path.exists(os.path.join(cwd, top + ".py")) or name.startswith(top + ".") or name == top:
                raise
            sys.modules.pop(name, None)
            parts = missing.split(".")
            for i in range(1, len(parts) + 1):
                sys.modules.setdefault(".".join(parts[:i]), AbsentModule(".".join(parts[:i])))
            absent.append(missing)
    return load(name)


def is_test_dir(part):
    """A package name that says it holds tests (tests, test, testing,
    unit_tests, test_utils), not one that merely contains the letters
    (latest, contest)."""
    words = part.lower().split("_")
    return any(w in ("test", "tests", "testing", "unittests") for w in words)


def bare_test_packages(name):
    """When a test package above test module name does not import (its
    __init__ gathers every test module with star imports, one of which
    connects to a server as it loads), the package stands as its bare
    directory, its __init__ not run, so its other modules still load. A
    package of the code itself is never so stood in for: one that does
    not import is the code's own failure. True when one was."""
    parts = name.split(".")[:-1]
    stood = False
    for i in range(1, len(parts) + 1):
        pkg = ".".join(parts[:i])
        if pkg in sys.modules:
            continue
        if not is_test_dir(parts[i - 1]):
            try:
                importlib.import_module(pkg)
                continue
            except Exception:
                return False
        try:
            importlib.import_module(pkg)
            continue
        except Exception:
            pass
        if i == 1:
            dirs = [os.path.join(p or ".", parts[0]) for p in sys.path if os.path.isdir(os.path.join(p or ".", parts[0]))]
        else:
            dirs = [os.path.join(d, parts[i - 1]) for d in getattr(sys.modules[".".join(parts[:i - 1])], "__path__", [])]
            dirs = [d for d in dirs if os.path.isdir(d)]
        if not dirs:
            return False
        mod = types.ModuleType(pkg)
        mod.__path__, mod.__package__ = dirs[:1], pkg
        mod.__file__ = os.path.join(dirs[0], "__init__.py")
        sys.modules[pkg] = mod
        if i > 1:
            setattr(sys.modules[".".join(parts[:i - 1])], parts[i - 1], mod)
        stood = True
    return stood


class AbsentMeta(type):
    """A class of a module that is not installed: any attribute is another
    such class; calling one gives an AbsentValue (hypothesis's st.text()
    in a decorator's arguments, run as the module loads), and one used
    as a decorator makes its test raise ImportError when it runs, so the
    module's other tests still run."""

    def __getattr__(cls, attr):
        if attr.startswith(("_", "premise", "pytest")):
            raise AttributeError(attr)  # what the runner itself asks of an object
        return AbsentMeta(attr, (), {"premise_absent": cls.premise_absent + "." + attr})

    def __call__(cls, *args, **kwargs):
        return absent_call(cls.premise_absent, args, kwargs)


def absent_call(name, args, kwargs):
    """What calling an absent module's name gives: a test it decorates
    fails with ImportError when run; anything else is an AbsentValue."""
    if len(args) == 1 and not kwargs and inspect.isfunction(args[0]):
        fn = args[0]
        if not fn.__name__.startswith("test"):
            return AbsentValue(name + "(" + fn.__name__ + ")")

        def absent_test():
            raise ImportError("%s is not installed" % name)
        absent_test.__name__ = fn.__name__
        absent_test.__module__ = fn.__module__
        return absent_test
    return AbsentValue(name + "()")


class AbsentValue:
    """A value an absent module's name returned: its attributes and calls
    are more of them; using it as a value raises ImportError."""

    def __init__(self, name):
        object.__setattr__(self, "premise_absent", name)

    def __getattr__(self, attr):
        if attr.startswith(("_", "premise", "pytest")):
            raise AttributeError(attr)
        return AbsentValue(self.premise_absent + "." + attr)

    def __call__(self, *args, **kwargs):
        return absent_call(self.premise_absent, args, kwargs)

    def _absent(self, *args, **kwargs):
        raise ImportError("%s is not installed" % self.premise_absent)

    __bool__ = __iter__ = __len__ = __getitem__ = __int__ = __float__ = __index__ = _absent
    __lt__ = __le__ = __gt__ = __ge__ = __add__ = __radd__ = __sub__ = __mul__ = __contains__ = _absent
    __enter__ = __exit__ = _absent


class AbsentModule(types.ModuleType):
    """A stand-in for a module the tests import that is not installed."""

    def __getattr__(self, attr):
        if attr.startswith(("_", "premise", "pytest")):
            raise AttributeError(attr)
        return AbsentMeta(attr, (), {"premise_absent": self.__name__ + "." + attr})


def load(name):
    """The test module, run as an import runs it; one that ends by
    running its own tests and exiting keeps what it defined before."""
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        if not bare_test_packages(name):
            raise
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


main()
