#!/usr/bin/env bash
# Compare premise diff's wall time with git's own diff on the same range
# (issue 2, "Speed": premise should stay within 2x of `git diff BASE...HEAD`
# on a range of hundreds of commits, since it reads the diff plus the changed
# files once and no more).
#
# usage: bench/diff_vs_git.sh REPO BASE HEAD [RUNS]
#
# Runs are interleaved so both commands see the same machine load; the first
# run of each warms the page cache and is not counted. Prints each median and
# the ratio premise/git.
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 REPO BASE HEAD [RUNS]" >&2
  exit 3
fi
repo=$1 base=$2 head=$3 runs=${4:-11}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/premise" ./cmd/premise)

now() { date +%s%N; }
git_cmd() { git -C "$repo" diff "$base...$head" >/dev/null; }
premise_cmd() { "$tmp/premise" diff --repo "$repo" --base "$base" --head "$head" --json >/dev/null; }

git_cmd
premise_cmd
: >"$tmp/git" && : >"$tmp/premise.ms"
for _ in $(seq "$runs"); do
  t0=$(now); git_cmd; t1=$(now); premise_cmd; t2=$(now)
  echo $(((t1 - t0) / 1000000)) >>"$tmp/git"
  echo $(((t2 - t1) / 1000000)) >>"$tmp/premise.ms"
done

median() { sort -n "$1" | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
g=$(median "$tmp/git")
p=$(median "$tmp/premise.ms")
commits=$(git -C "$repo" rev-list --count "$base..$head")
files=$(git -C "$repo" diff --name-only "$base...$head" | wc -l)
lines=$(git -C "$repo" diff "$base...$head" | wc -l)
echo "range $base...$head: $commits commits, $files files, $lines diff lines; $runs runs each"
echo "git diff median:     ${g} ms"
echo "premise diff median: ${p} ms"
awk -v p="$p" -v g="$g" 'BEGIN { if (g > 0) printf "ratio premise/git:  %.2fx\n", p / g; else print "ratio premise/git:  n/a (git took 0 ms)" }'
