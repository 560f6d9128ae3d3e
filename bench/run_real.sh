#!/usr/bin/env bash
# premise run end to end on single real commits (issue 12, "the benchmarks
# that decide, measured on real repositories' history").
#
# usage: bench/run_real.sh PREMISE REPO [N] [RUNS]
#
# PREMISE is the binary to measure (so an old and a new build can be run on
# the same commits); REPO a work tree of a real project (bench/README.md says
# which ones and how to get them). bench/real.py pick chooses the N (default
# 20) newest non-merge first-parent commits that change a line inside a
# function of a non-test Python or Go file, from git alone. Each commit is run
# as `premise run --base C^ --head C --model static` (the offline proposer,
# no network) with --out a fresh empty directory on every run, so no run's
# register feeds the next; RUNS (default 3) timed runs after one warm-up, the
# per-commit median kept. Prints one line per commit (exit status, stage,
# symbols, evidence rows, behaviour changes, wall and CPU), then the median
# over the commits and the spread (min, quartiles, max). Exit statuses other
# than 0 and 1 (policy blocks, premise unable to do its job) are listed at the
# end: on real commits they are the odd behaviour worth a look.
#
# COMMITS=FILE measures the commits listed in FILE (one a line) instead.
# PYTHON is the interpreter premise runs Python rows with (default the
# interpreter python3 resolves to, not a pyenv shim that costs 80 ms a start).
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 PREMISE REPO [N] [RUNS]" >&2
  exit 3
fi
premise=$(realpath "$1") repo=$(realpath "$2") n=${3:-20} runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "${COMMITS:-}" ]; then
  head -n "$n" "$COMMITS" >"$tmp/commits"
else
  python3 "$here/real.py" pick "$repo" "$n" >"$tmp/commits"
fi

echo "premise $("$premise" --version 2>&1 | head -1)"
echo "repo $repo at $(git -C "$repo" rev-parse HEAD) ($(git -C "$repo" remote get-url origin 2>/dev/null || echo 'no origin'))"
echo "python $PYTHON ($("$PYTHON" --version 2>&1))"
echo "$(wc -l <"$tmp/commits") commits, $runs timed runs each after a warm-up; cpus=$(nproc) load=$(cut -d' ' -f1 /proc/loadavg)"
printf "%-12s %4s %-11s %7s %8s %7s %9s %9s\n" commit exit stage symbols evidence changes "wall s" "cpu s"
: >"$tmp/rows"
while read -r c; do
  # One untimed run for the summary; the timed runs discard their output.
  o="$tmp/out-$c"
  mkdir -p "$o"
  set +e
  "$premise" run --repo "$repo" --base "$c^" --head "$c" --model static --python "$PYTHON" --out "$o" --json \
    >"$tmp/summary.json" 2>"$tmp/stderr"
  rc=$?
  set -e
  read -r stage symbols evidence changes < <(python3 - "$tmp/summary.json" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except ValueError:
    print("no-json - - -")
    sys.exit(0)
print(s.get("stage") or "-", s.get("symbols", "-"), s.get("evidence_rows", "-"),
      len(s.get("behavior_changes") or []))
PY
  )
  read -r wall cpu trc < <(python3 "$here/real.py" time "$runs" \
    "$premise" run --repo "$repo" --base "$c^" --head "$c" --model static --python "$PYTHON" --out "{fresh}" --json)
  printf "%-12s %4s %-11s %7s %8s %7s %9.3f %9.3f\n" "${c:0:12}" "$rc" "$stage" "$symbols" "$evidence" "$changes" "$wall" "$cpu"
  echo "$c $rc $wall $cpu" >>"$tmp/rows"
  if [ "$rc" != "$trc" ]; then
    echo "  odd: exit $rc on the first run, $trc on the last timed run" >&2
  fi
  if [ "$rc" -gt 1 ]; then
    echo "  ${c:0:12} exit $rc: $(tail -c 600 "$tmp/stderr" | tr '\n' ' ')" >>"$tmp/odd"
  fi
  rm -rf "$o"
done <"$tmp/commits"

awk '
function q(a, n, p,   k) { k = 1 + (n - 1) * p; return a[int(k)] + (k - int(k)) * (a[int(k) + 1] - a[int(k)]) }
function sort(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
{ n++; w[n] = $3; c[n] = $4; if ($2 == 0) ok++; else if ($2 == 1) fail++; else other++ }
END {
  sort(w, n); sort(c, n)
  printf "exit 0: %d, exit 1: %d, other: %d\n", ok, fail, other
  printf "%-5s %8s %8s %8s %8s %8s\n", "", "min", "p25", "median", "p75", "max"
  printf "%-5s %8.3f %8.3f %8.3f %8.3f %8.3f  (s, wall)\n", "wall", w[1], q(w, n, .25), q(w, n, .5), q(w, n, .75), w[n]
  printf "%-5s %8.3f %8.3f %8.3f %8.3f %8.3f  (s, cpu)\n", "cpu", c[1], q(c, n, .25), q(c, n, .5), q(c, n, .75), c[n]
}' "$tmp/rows"
if [ -s "$tmp/odd" 2>/dev/null ]; then
  echo "odd exits:"
  cat "$tmp/odd"
fi
