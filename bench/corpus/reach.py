#!/usr/bin/env python3
"""Evidence reach on real history (issue 13): of the non-test functions and
methods N consecutive commits change, how many got at least one evidence row,
and why the rest got none.

    reach.py MIRROR PREMISE N [--python PY] [--json FILE] [--keep DIR]
    reach.py --summary FILE      (the figures again, from a --json file)

MIRROR is a git repository (a bare mirror as the fetch tool leaves it, or a
clone). It is cloned to a scratch directory, never touched. The commits are
the N newest first-parent commits of its HEAD that are not merges and change
a .py, .go, .js, .mjs, .cjs, .jsx, .ts, .mts, .cts or .tsx file (not a .d.ts)
outside tests (tests are test_*.py, *_test.py, *_test.go, conftest.py,
*.test.*, *.spec.*, test.js, and anything under tests/, test/, testing/,
testdata/, __tests__/ or __mocks__/); on each premise runs as

    premise run --repo CLONE --base C^ --head C --model static --json --quiet --out FRESH --python PY

(one fresh --out per commit), and `premise diff --json` on the same range
lists the changed symbols. A symbol counts when its kind is function or
method, its change is not `deleted`, and its file is not a test file. Its
rows come from the run's `evidence_symbols`; a symbol the run does not list,
or a run that printed no JSON (exit 3), is tallied under that reason.

Changed-line reach (issue 24): each symbol's `coverage` in the run's JSON
counts its changed lines that are code, the head's added and the base's
removed, and how many of them a row ran; the share is printed beside the
share of symbols.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TEST_FILE = re.compile(r"(^|/)(tests?|testing|testdata|__tests__|__mocks__)/|(^|/)test_[^/]*\.py$|_test\.(py|go)$"
                       r"|(^|/)conftest\.py$|\.(test|spec)\.[cm]?[jt]sx?$|(^|/)test\.[cm]?[jt]s$")
# the languages premise judges: Python, Go, JavaScript and TypeScript (a
# type declaration file, .d.ts, has no code to run)
SOURCE = (".py", ".go", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
DECLS = re.compile(r"\.d\.[cm]?ts$")


def source(path):
    return path.endswith(SOURCE) and not DECLS.search(path) and not TEST_FILE.search(path)


def sh(*args, cwd=None):
    return subprocess.run(list(args), cwd=cwd, check=True, stdout=subprocess.PIPE, text=True).stdout


def pick(clone, n):
    out = []
    for line in sh("git", "log", "--first-parent", "--no-merges", "--format=%H %P", "HEAD", cwd=clone).splitlines():
        if len(line.split()) < 2:  # the root commit: no base
            continue
        line = line.split()[0]
        files = sh("git", "diff-tree", "--no-commit-id", "--name-only", "-r", line + "^", line, cwd=clone).split()
        if any(source(f) for f in files):
            out.append(line)
            if len(out) == n:
                break
    return out


def short(why):
    why = re.sub(r'"[^"]*"', '"…"', why)
    why = re.sub(r"`[^`]*`", "`…`", why)
    why = re.sub(r"\b\w+ is not exported", "X is not exported", why)
    why = re.sub(r"_premise_harness_\d+", "_premise_harness_N", why)
    why = re.sub(r"exit status 1: (# \S+ )?\./\S+:\d+:\d+: ", "", why)  # keep the compiler's message
    return why[:150]


def category(why):
    """The reason's kind, for the coarse tally: what to fix first."""
    rules = [
        # JavaScript and TypeScript first: their wording shares words with
        # the Go and Python rules below ("not exported", "method")
        ("premise's worker calls what a module exports", "JS/TS: not exported from its module (the worker calls exports)"),
        ("in the module's exports", "JS/TS: exported, but the worker does not find the name (module.exports is the function or class itself)"),
        ("Cannot find module", "JS/TS: imports a package the tree does not hold (no node_modules)"),
        ("Cannot find package", "JS/TS: imports a package the tree does not hold (no node_modules)"),
        ("method", "a method: no receiver can be built"),
        ("not exported", "Go: an unexported function in the diff aborts the run (exit 3)"),
        ("predeclared any", "Go: the harness needs go >= 1.18, the module's go.mod is older"),
        ("no value could be built", "a parameter premise cannot build a value for"),
        ("its file is new", "new (no base to compare with)"),
        ("added:", "new (no base to compare with)"),
        ("a class, not a function", "a class, not a function"),
        ("no parameters", "takes no parameters"),
        ("no changed function", "only module-level data changed"),
        ("ModuleNotFoundError", "does not import here (a missing dependency)"),
        ("deleted", "deleted"),
    ]
    for needle, name in rules:
        if needle in why:
            return name
    return "other: " + why[:100]


def tally(per):
    """Print and return the reach figures of per-commit results."""
    total = reached = deleted = 0
    reasons, cats = collections.Counter(), collections.Counter()
    with_syms = with_rows = 0
    lines_changed = lines_reached = 0

    def note(why):
        reasons[short(why)] += 1
        cats[category(why)] += 1

    for c in per:
        deleted += c.get("deleted", 0)
        for s in c["symbols"]:
            total += 1
            ch, re_ = (c.get("lines") or {}).get(s, [0, 0])
            lines_changed += ch
            lines_reached += re_
            if c.get("error"):
                note(c["error"])
            elif s not in c["rows"]:
                note("not in evidence_symbols")
            elif c["rows"][s] > 0:
                reached += 1
            else:
                note(c["why"].get(s, ""))
        if c["symbols"]:
            with_syms += 1
            with_rows += 1 if c["reached"] else 0
    new = cats.get("new (no base to compare with)", 0)
    print("changed non-test functions and methods: %d (deleted, not counted: %d)" % (total, deleted))
    print("got >=1 evidence row: %d (%.0f%%)" % (reached, 100.0 * reached / total if total else 0))
    if total - new:
        print("of those that exist on both sides (%d; %d are new): %d (%.0f%%)" % (
            total - new, new, reached, 100.0 * reached / (total - new)))
    print("commits with a changed function: %d; with >=1 reached: %d" % (with_syms, with_rows))
    print("changed lines that are code (head's added, base's removed): %d; a row ran: %d (%.0f%%)" % (
        lines_changed, lines_reached, 100.0 * lines_reached / lines_changed if lines_changed else 0))
    print("why the rest got none, by kind:")
    for why, n in cats.most_common():
        print("  %4d  %s" % (n, why))
    print("why the rest got none, in detail:")
    for why, n in reasons.most_common():
        print("  %4d  %s" % (n, why))
    return {"total": total, "reached": reached, "deleted": deleted, "new": new,
            "lines_changed": lines_changed, "lines_reached": lines_reached,
            "reasons": dict(reasons), "kinds": dict(cats)}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":  # re-read a --json file
        with open(sys.argv[2]) as f:
            j = json.load(f)
        print("%s: %d commits" % (j.get("repo", "?"), len(j["commits"])))
        tally(j["commits"])
        return 0
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mirror")
    p.add_argument("premise")
    p.add_argument("n", type=int)
    p.add_argument("--python", default="python3")
    p.add_argument("--json", help="write per-commit results here")
    p.add_argument("--keep", help="clone here (reused when present) instead of a scratch directory")
    a = p.parse_args()
    py = subprocess.run([a.python, "-c", "import sys; print(sys.executable)"], stdout=subprocess.PIPE,
                        text=True, check=True).stdout.strip()
    premise = os.path.abspath(a.premise)
    scratch = None
    if a.keep:
        clone = a.keep
        if not os.path.isdir(os.path.join(clone, ".git")):
            sh("git", "clone", "-q", a.mirror, clone)
    else:
        scratch = tempfile.mkdtemp(prefix="reach-")
        clone = os.path.join(scratch, "repo")
        sh("git", "clone", "-q", a.mirror, clone)
    commits = pick(clone, a.n)
    name = os.path.basename(os.path.dirname(a.mirror.rstrip("/"))) if a.mirror.rstrip("/").endswith("/repo") else os.path.basename(a.mirror.rstrip("/"))
    exits = collections.Counter()
    per = []
    for c in commits:
        rng = ["--base", c + "^", "--head", c]
        d = subprocess.run([premise, "diff", "--repo", clone] + rng + ["--json"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        syms, deleted, diff_err = [], 0, None
        try:
            for f in json.loads(d.stdout).get("files") or []:
                if TEST_FILE.search(f.get("path") or "") or DECLS.search(f.get("path") or ""):
                    continue
                for s in f.get("symbols") or []:
                    if s.get("kind") not in ("function", "method"):
                        continue
                    if s.get("change") == "deleted":
                        deleted += 1
                        continue
                    syms.append(s["name"])
        except ValueError:
            diff_err = "premise diff printed no JSON"
        out = tempfile.mkdtemp(prefix="reach-out-")
        r = subprocess.run([premise, "run", "--repo", clone] + rng + ["--model", "static", "--json", "--quiet",
                            "--out", out, "--python", py], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        shutil.rmtree(out, ignore_errors=True)
        exits[r.returncode] += 1
        rows, why, lines = {}, {}, {}
        err = None
        skipped = []
        ran = 0
        try:
            j = json.loads(r.stdout)
            ran = j.get("evidence_rows", 0) or 0
            skipped = j.get("evidence_skipped") or []
            for s in j.get("evidence_symbols") or []:
                # a symbol's rows count only when the run ran rows at all (a
                # harness that fails to build leaves the count but runs nothing)
                rows[s["symbol"]] = s.get("rows", 0) if ran else 0
                cov = s.get("coverage") or {}
                lines[s["symbol"]] = [sum((cov.get(side) or {}).get(k, 0) for side in ("head", "base"))
                                      for k in ("changed", "reached")]
                if not rows[s["symbol"]]:
                    why[s["symbol"]] = s.get("why", "") or ("rows planned, none ran: " + skipped[0] if skipped
                                                           else "rows planned, none ran")
        except ValueError:
            err = "run exit %d: %s" % (r.returncode, (r.stderr.strip().splitlines() or ["no JSON"])[-1])
        got = sum(1 for s in syms if err is None and rows.get(s, 0) > 0)
        per.append({"commit": c, "exit": r.returncode, "symbols": syms, "deleted": deleted, "reached": got,
                    "evidence_rows": ran, "error": err or diff_err, "skipped": skipped, "rows": rows, "why": why, "lines": lines})
        print("%s exit=%d symbols=%d reached=%d rows=%d%s" % (c[:10], r.returncode, len(syms), got, ran,
              " error: " + short(err) if err else ""), flush=True)
    print()
    print("%s: %d commits (%s .. %s)" % (name, len(commits), commits[-1][:10] if commits else "-", commits[0][:10] if commits else "-"))
    print("exits: %s" % ", ".join("%d x%d" % (k, v) for k, v in sorted(exits.items())))
    t = tally(per)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(t, repo=name, commits=per, exits={str(k): v for k, v in exits.items()}), f, indent=1)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
