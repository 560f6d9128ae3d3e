#!/usr/bin/env python3
"""Build a git repository with a long history over real code, for
bench/diff_vs_git.sh when no large repository is at hand.

usage: bench/make_history.py OUT_DIR [COMMITS] [SOURCE_DIR...]

The first commit holds the Python and Go files of the source directories
(default: the installed Python standard library and Go's net/http, go/ and
encoding/ sources). Each later commit edits three files the way patches do:
a line inserted, a line deleted, a line changed, a function appended; an edit
that would break a Python module is drawn again, as a real history keeps its
modules valid. The edits are seeded, so the history is the same on every run.
"""
import ast
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import warnings


def git(out, *args, env=None):
    subprocess.run(["git", "-C", out, *args], check=True, env=env, stdout=subprocess.DEVNULL)


def main():
    out = sys.argv[1]
    commits = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    sources = sys.argv[3:] or [
        sysconfig.get_paths()["stdlib"],
        *[os.path.join(subprocess.check_output(["go", "env", "GOROOT"], text=True).strip(), "src", d)
          for d in ("net/http", "go", "encoding")],
    ]
    warnings.simplefilter("ignore")  # ast.parse warns about old escapes in the stdlib
    rng = random.Random(4)
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@premise.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@premise.invalid",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    os.makedirs(out, exist_ok=False)
    subprocess.run(["git", "init", "-q", "-b", "main", out], check=True)
    files = []
    for i, src in enumerate(sources):
        for dirpath, dirnames, filenames in os.walk(src):
            dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__", "testdata"))
            for fn in sorted(filenames):
                if not (fn.endswith(".py") or fn.endswith(".go")):
                    continue
                rel = os.path.join(f"src{i}", os.path.relpath(os.path.join(dirpath, fn), src))
                os.makedirs(os.path.join(out, os.path.dirname(rel)), exist_ok=True)
                shutil.copyfile(os.path.join(dirpath, fn), os.path.join(out, rel))
                files.append(rel)
    git(out, "add", "-A", env=env)
    git(out, "commit", "-q", "-m", "snapshot", env=env)
    for c in range(commits):
        for rel in rng.sample(files, 3):
            path = os.path.join(out, rel)
            with open(path, "rb") as f:
                original = f.read()
            for _attempt in range(10):
                edited = edit(original, rel, rng, c)
                if not rel.endswith(".py") or parses(edited):
                    break  # patches keep Python modules valid; retry an edit that broke one
            else:
                edited = original + b"\n# edited\n"
            with open(path, "wb") as f:
                f.write(edited)
        git(out, "commit", "-q", "-a", "-m", f"edit {c}", env=env)
    print(out)


def parses(src):
    try:
        ast.parse(src)
        return True
    except (SyntaxError, ValueError):
        return False


def edit(src, rel, rng, c):
    """One edit of the kinds patches make."""
    lines = src.split(b"\n")
    n = len(lines)
    at = rng.randrange(max(n, 1))
    op = rng.choice(["insert", "delete", "change", "append"])
    if op == "insert":
        lines.insert(at, lines[at] if n else b"")
    elif op == "delete" and n > 1:
        del lines[at]
    elif op == "change" and n:
        lines[at] = lines[at] + (b"  # edited" if rel.endswith(".py") else b" // edited")
    else:
        if rel.endswith(".py"):
            lines += [b"", b"", f"def bench_added_{c}():".encode(), b"    return %d" % c, b""]
        else:
            lines += [b"", f"func benchAdded{c}() int {{ return {c} }}".encode(), b""]
    return b"\n".join(lines)


if __name__ == "__main__":
    main()
