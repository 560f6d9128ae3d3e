#!/usr/bin/env bash
# Byte identity of premise diff --json between two premise binaries on a
# real repository's history (issue 12): a refactor of diffparse must not
# change one byte of what premise diff says about real commits.
#
# usage: bench/same_diff.sh OLD_BIN NEW_BIN REPO [N] [SPAN]
#
# Runs both binaries as `premise diff --repo REPO --base C~SPAN --head C
# --json` for the N (default 100) consecutive commits C on HEAD's
# first-parent line (SPAN default 1: each commit against its first parent;
# SPAN 10 compares ranges of ten first-parent steps). The exit status
# counts as part of the output. Prints how many of the N differ and the
# first difference as a unified diff; exits 1 when any differ, 0 when none.
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 OLD_BIN NEW_BIN REPO [N] [SPAN]" >&2
  exit 3
fi
old=$(realpath "$1") new=$(realpath "$2") repo=$(realpath "$3") n=${4:-100} span=${5:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The commits that have SPAN first-parent steps behind them.
git -C "$repo" rev-list --first-parent -n "$n" HEAD >"$tmp/all"
: >"$tmp/commits"
while read -r c; do
  if git -C "$repo" rev-parse -q --verify "$c~$span^{commit}" >/dev/null; then echo "$c" >>"$tmp/commits"; fi
done <"$tmp/all"

run() { # BIN COMMIT OUT
  set +e
  "$1" diff --repo "$repo" --base "$2~$span" --head "$2" --json >"$3" 2>"$3.err"
  echo "exit $?" >>"$3"
  set -e
}

same=0 differ=0 first=
while read -r c; do
  run "$old" "$c" "$tmp/old"
  run "$new" "$c" "$tmp/new"
  if cmp -s "$tmp/old" "$tmp/new"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    if [ -z "$first" ]; then
      first=$c
      diff -u --label "old $c~$span...$c" --label "new $c~$span...$c" "$tmp/old" "$tmp/new" | head -n 40 >"$tmp/first" || true
    fi
  fi
  if [ "$(tail -n 1 "$tmp/old")" != "exit 0" ]; then
    echo "note: old exits $(tail -n 1 "$tmp/old" | cut -d' ' -f2) on $c~$span...$c: $(head -c 300 "$tmp/old.err" | tr '\n' ' ')" >&2
  fi
done <"$tmp/commits"

total=$((same + differ))
echo "repo $repo at $(git -C "$repo" rev-parse HEAD); $total commits on the first-parent line, span $span"
echo "old $old"
echo "new $new"
echo "identical: $same, differ: $differ"
if [ "$differ" -gt 0 ]; then
  echo "first difference ($first~$span...$first):"
  cat "$tmp/first"
  exit 1
fi
