#!/usr/bin/env python3
"""Helpers for the benchmarks on real repositories' history (issue 12):
bench/run_real.sh, bench/diff_real.sh and bench/same_diff.sh.

usage: bench/real.py pick REPO N [REV]
       bench/real.py time RUNS COMMAND...

pick   prints the N newest non-merge commits on REV's first-parent line
       (default HEAD) that change at least one line inside a function of a
       non-test Python or Go file, newest first, one full hash a line. The
       choice is made from git alone (the hunks of `git diff -U0` against
       the first parent and the head file's indentation or braces), never
       from premise's own diff, so an old and a new premise binary are
       measured on the same commits.
time   runs COMMAND RUNS times after one uncounted warm-up run and prints
       "WALL CPU RC": the median wall seconds, the median CPU seconds (user
       plus system of the command and the children it waited for) and the
       exit status of the last run. On a shared machine the CPU figure is
       the steadier one. An argument {fresh} is replaced by a new empty
       directory for each run (made before the clock starts, removed after
       it stops), so no run reads what the one before it wrote.
"""
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
PY_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s")
GO_FUNC = re.compile(r"^func\s")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def is_test(path):
    name = path.rsplit("/", 1)[-1]
    parts = path.split("/")
    return (name.endswith("_test.go") or name.startswith("test_") or name.endswith("_test.py")
            or name == "conftest.py" or "tests" in parts[:-1] or "test" in parts[:-1]
            or "testdata" in parts[:-1])


def changed_lines(repo, commit, path):
    """Head line numbers the commit touched in path (a pure deletion counts
    the line after it)."""
    out = git(repo, "diff", "-U0", "--no-color", "--no-ext-diff", commit + "^", commit, "--", path)
    lines = []
    for line in out.decode("utf-8", "replace").splitlines():
        m = HUNK.match(line)
        if m:
            start, count = int(m.group(1)), int(m.group(2) or "1")
            lines.extend(range(start, start + count) if count else [max(start, 1)])
    return lines


def in_python_function(src, n):
    """Whether line n (1-based) lies in a def: the line is a def, or walking
    up, the first line indented less than everything below it so far is a
    def (a column-0 line that is not a def ends the walk)."""
    if n > len(src):
        return False
    if PY_DEF.match(src[n - 1]):
        return True
    text = src[n - 1]
    limit = len(text) - len(text.lstrip()) if text.strip() else 1 << 30
    for i in range(n - 2, -1, -1):
        line = src[i]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ind = len(line) - len(line.lstrip())
        if ind < limit:
            if PY_DEF.match(line):
                return True
            if ind == 0:
                return False
            limit = ind
    return False


def in_go_function(src, n):
    """Whether line n lies in a top-level func: walking up from it, the
    first line that starts in column 0 (not a comment, not the line's own
    closing brace) opens a func."""
    for i in range(min(n, len(src)) - 1, -1, -1):
        line = src[i]
        if not line[:1] or line[:1].isspace() or line.startswith("//"):
            continue
        if line.startswith("}") and i == n - 1:
            continue
        return bool(GO_FUNC.match(line))
    return False


def touches_function(repo, commit):
    names = git(repo, "diff", "--name-only", "--no-renames", "--diff-filter=AM", commit + "^", commit)
    for path in names.decode().splitlines():
        if is_test(path) or not (path.endswith(".py") or path.endswith(".go")):
            continue
        src = git(repo, "show", commit + ":" + path).decode("utf-8", "replace").splitlines()
        inside = in_python_function if path.endswith(".py") else in_go_function
        if any(inside(src, n) for n in changed_lines(repo, commit, path)):
            return True
    return False


def pick(repo, n, rev="HEAD"):
    out = git(repo, "rev-list", "--first-parent", "--no-merges", rev)
    found = 0
    for commit in out.decode().split():
        if found == n:
            break
        parents = git(repo, "rev-list", "--parents", "-n", "1", commit).decode().split()
        if len(parents) != 2:
            continue
        if touches_function(repo, commit):
            print(commit, flush=True)
            found += 1
    if found < n:
        sys.stderr.write("real.py pick: only %d commits found\n" % found)
        sys.exit(3)


def timed(runs, cmd):
    def once():
        fresh = tempfile.mkdtemp(prefix="premise-bench-")
        argv = [a.replace("{fresh}", fresh) for a in cmd]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        shutil.rmtree(fresh, ignore_errors=True)
        return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, p.returncode
    once()
    walls, cpus, rc = [], [], 0
    for _ in range(runs):
        w, c, rc = once()
        walls.append(w)
        cpus.append(c)
    print("%.4f %.4f %d" % (statistics.median(walls), statistics.median(cpus), rc))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "pick":
        pick(sys.argv[2], int(sys.argv[3]), *(sys.argv[4:5]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "time":
        timed(int(sys.argv[2]), sys.argv[3:])
    else:
        sys.stderr.write(__doc__)
        sys.exit(3)


if __name__ == "__main__":
    main()
