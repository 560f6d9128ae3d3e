#!/usr/bin/env bash
# What a user waits for (issue 28): premise run on real commits beside the
# project's own test suite, first and second run, with the ratios the issue
# sets as targets.
#
# usage: bench/run_vs_suite.sh PREMISE REPO [N] [SUITE_RUNS]
#
# PREMISE is the binary to measure; REPO a work tree of a real project
# (bench/fetch_repos.sh, or any clone). The N (default 20) commits are the
# ones bench/run_real.sh measures (bench/real.py pick: the newest non-merge
# first-parent commits that change a line inside a function of a non-test
# Python or Go file). Each commit is run twice as
#   premise run --base C^ --head C --model static --out FRESH --json
# with its own empty cache directory (PREMISE_CACHE_DIR): the first run is
# what a pull request's first check costs, the second what a re-run of the
# same commit costs (the same cache, a new --out, so no register feeds it).
# The project's suite runs SUITE_RUNS times (default 3) at the work tree's
# checkout after a warm-up, the median kept: `go test -count=1 ./...` for a
# Go module; for Python `python -m pytest -q -p no:cacheprovider` where
# pytest imports, else `python -m unittest -q`. SUITE="a command" runs that
# instead. Prints a line a commit, then the medians, the slowest run, and
# the ratios to the suite with the issue's targets: a first run's median at
# most a quarter of the suite, none past 60 s, a second run's median at
# most a tenth.
#
# PYTHON is the interpreter premise runs Python rows with, as in
# run_real.sh. Nothing is fetched; the work tree is never modified.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 PREMISE REPO [N] [SUITE_RUNS]" >&2
  exit 3
fi
premise=$(realpath "$1") repo=$(realpath "$2") n=${3:-20} suite_runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "${SUITE:-}" ]; then
  suite=$SUITE
elif [ -f "$repo/go.mod" ]; then
  suite="go test -count=1 ./..."
elif "$PYTHON" -c 'import pytest' 2>/dev/null; then
  suite="$PYTHON -m pytest -q -p no:cacheprovider"
else
  suite="$PYTHON -m unittest -q"
fi

now() { date +%s.%N; }

echo "premise $("$premise" --version 2>&1 | head -1)"
echo "repo $repo at $(git -C "$repo" rev-parse HEAD)"
echo "suite: $suite"
echo "cpus=$(nproc) load=$(cut -d' ' -f1 /proc/loadavg)"

# The suite, in a copy of the work tree so that its caches and bytecode do
# not land in the repository premise reads.
git -C "$repo" worktree add -q --detach "$tmp/suite" HEAD
cleanup_suite() { git -C "$repo" worktree remove --force "$tmp/suite" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup_suite EXIT
: >"$tmp/suite_times"
for i in $(seq 0 "$suite_runs"); do
  t0=$(now)
  # A suite with a timing-sensitive test can fail on a loaded machine:
  # its time still counts, and the run says which test failed.
  (cd "$tmp/suite" && PYTHONDONTWRITEBYTECODE=1 bash -c "$suite" >"$tmp/suite.out" 2>&1) || {
    echo "suite run $i failed (exit $?): $(grep -m3 -E '^(--- FAIL|FAIL:|ERROR:)' "$tmp/suite.out" | tr '\n' ' ')" >&2
  }
  t1=$(now)
  [ "$i" -eq 0 ] || echo "$t0 $t1" | awk '{printf "%.3f\n", $2-$1}' >>"$tmp/suite_times"
done
suite_s=$(python3 -c 'import statistics, sys; print("%.3f" % statistics.median(float(x) for x in sys.stdin))' <"$tmp/suite_times")
echo "suite median of $suite_runs: ${suite_s} s"

python3 "$here/real.py" pick "$repo" "$n" >"$tmp/commits"
printf "%-12s %5s %5s %9s %9s\n" commit exit1 exit2 "first s" "second s"
: >"$tmp/first"
: >"$tmp/second"
while read -r c; do
  cache="$tmp/cache-$c"
  codes=()
  times=()
  for run in first second; do
    o="$tmp/out-$c-$run"
    mkdir -p "$o" "$cache"
    t0=$(now)
    set +e
    PREMISE_CACHE_DIR="$cache" "$premise" run --repo "$repo" --base "$c^" --head "$c" --model static \
      --python "$PYTHON" --out "$o" --json --quiet >/dev/null 2>"$tmp/stderr"
    rc=$?
    set -e
    t1=$(now)
    s=$(echo "$t0 $t1" | awk '{printf "%.3f", $2-$1}')
    echo "$s" >>"$tmp/$run"
    codes+=("$rc")
    times+=("$s")
  done
  printf "%-12s %5s %5s %9s %9s\n" "${c:0:12}" "${codes[0]}" "${codes[1]}" "${times[0]}" "${times[1]}"
done <"$tmp/commits"

python3 - "$suite_s" "$tmp/first" "$tmp/second" <<'PY'
import statistics, sys
suite = float(sys.argv[1])
first = [float(x) for x in open(sys.argv[2]) if x.strip()]
second = [float(x) for x in open(sys.argv[3]) if x.strip()]
f, s = statistics.median(first), statistics.median(second)
print(f"first run:  median {f:.2f} s, slowest {max(first):.2f} s; {f / suite:.2f}x the suite "
      f"(target at most 0.25x, none past 60 s: {'met' if f <= suite / 4 and max(first) <= 60 else 'not met'})")
print(f"second run: median {s:.2f} s, slowest {max(second):.2f} s; {s / suite:.2f}x the suite "
      f"(target at most 0.10x: {'met' if s <= suite / 10 else 'not met'})")
PY
