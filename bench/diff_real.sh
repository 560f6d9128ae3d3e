#!/usr/bin/env bash
# premise diff over a long range of a real project's history, beside git's
# own diff of the same range (issue 12; the 2x bar of issue 2, "Speed").
#
# usage: bench/diff_real.sh PREMISE REPO [COMMITS] [RUNS]
#
# PREMISE is the binary to measure; REPO a work tree of a real project with
# large files (more-itertools: more_itertools/more.py is over 5,000 lines).
# The range is HEAD~COMMITS...HEAD (default 300, first-parent steps, against
# the merge-base as premise reads it). Each command runs once uncounted to
# warm the page cache, then RUNS times (default 11), interleaved so both see
# the same machine load. Prints the median wall and CPU time of each and the
# ratio premise/git.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 PREMISE REPO [COMMITS] [RUNS]" >&2
  exit 3
fi
premise=$(realpath "$1") repo=$(realpath "$2") commits=${3:-300} runs=${4:-11}
base=$(git -C "$repo" rev-parse "HEAD~$commits") head=$(git -C "$repo" rev-parse HEAD)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$premise" diff --repo "$repo" --base "$base" --head "$head" --json >"$tmp/out.json"
python3 - "$repo" "$base" "$head" "$premise" "$runs" "$tmp/out.json" <<'PY'
import json, resource, statistics, subprocess, sys, time
repo, base, head, premise, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
cmds = {
    "git": ["git", "-C", repo, "diff", base + "..." + head],
    "premise": [premise, "diff", "--repo", repo, "--base", base, "--head", head, "--json"],
}
def once(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.stderr.write("diff_real: exit %d: %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.decode()[-2000:]))
        sys.exit(3)
    return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
t = {k: ([], []) for k in cmds}
for k in cmds:
    once(cmds[k])
for _ in range(runs):
    for k in cmds:
        w, c = once(cmds[k])
        t[k][0].append(w)
        t[k][1].append(c)
git = lambda *a: subprocess.run(["git", "-C", repo, *a], check=True, capture_output=True, text=True).stdout
n_commits = git("rev-list", "--count", base + ".." + head).strip()
files = len(git("diff", "--name-only", base + "..." + head).splitlines())
lines = len(git("diff", base + "..." + head).splitlines())
out = json.load(open(sys.argv[6]))
syms = sum(len(f.get("symbols") or []) for f in out.get("files") or [])
print("range %s...%s: %s commits, %d files, %d diff lines, %d symbols; %d runs each" % (
    base[:12], head[:12], n_commits, files, lines, syms, runs))
print("%-8s %9s %9s %9s %9s" % ("", "wall ms", "min", "max", "cpu ms"))
for k in cmds:
    w, c = t[k]
    print("%-8s %9.1f %9.1f %9.1f %9.1f" % (k, 1000 * statistics.median(w), 1000 * min(w), 1000 * max(w), 1000 * statistics.median(c)))
pw, gw = statistics.median(t["premise"][0]), statistics.median(t["git"][0])
pc, gc = statistics.median(t["premise"][1]), statistics.median(t["git"][1])
print("ratio premise/git: %.2fx wall, %.2fx cpu (target <= 2x)" % (pw / gw, pc / gc if gc else float("nan")))
PY
