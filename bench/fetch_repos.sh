#!/usr/bin/env bash
# Work trees of the real repositories the issue-12 benchmarks were measured
# on (bench/run_real.sh, bench/diff_real.sh, bench/same_diff.sh), each
# checked out (detached) at the commit measured, so figures taken later
# compare with bench/README.md.
#
# usage: bench/fetch_repos.sh DIR [MIRRORS]
#
# Clones into DIR/<name>. With MIRRORS, a directory of bare mirrors laid out
# as MIRRORS/<owner>+<name>/repo (as a sandbox's fetch tool leaves them under
# /work/.mirror), clones from there; otherwise from https://github.com/.
# The clones are full (the benchmarks walk hundreds of commits back) and are
# never modified by the benchmarks: premise reads git objects and writes
# only under the --out directories they give it.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 DIR [MIRRORS]" >&2
  exit 3
fi
dir=$1 mirrors=${2:-}
mkdir -p "$dir"

# owner/name  commit measured at  what it is measured for
repos="
more-itertools/more-itertools 2fe1b2eeb9d75f994113fe3ac76d14b6bcd6fb10 python:run_real,diff_real,same_diff
spf13/cobra                   adbc8813901bba65827259daa8e22ff94ec1f30e go:run_real,same_diff
"

echo "$repos" | while read -r repo commit _; do
  [ -n "$repo" ] || continue
  name=${repo#*/}
  if [ -n "$mirrors" ]; then src="$mirrors/${repo%%/*}+$name/repo"; else src="https://github.com/$repo"; fi
  if [ ! -d "$dir/$name/.git" ]; then git clone -q "$src" "$dir/$name"; fi
  if ! git -C "$dir/$name" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "fetch_repos: $repo has no commit $commit (an older mirror?)" >&2
    exit 3
  fi
  git -C "$dir/$name" checkout -q --detach "$commit"
  echo "$dir/$name  $repo at $commit"
done
