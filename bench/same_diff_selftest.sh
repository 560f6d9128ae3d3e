#!/usr/bin/env bash
# Shows bench/same_diff.sh can fail: against PREMISE itself it must find no
# difference; against a wrapper that changes one byte of one commit's
# output, exactly one; against one that changes only one commit's exit
# status, exactly one; against one printing git diff --stat instead, all N.
#
# usage: bench/same_diff_selftest.sh PREMISE REPO [N]
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 PREMISE REPO [N]" >&2
  exit 3
fi
premise=$(realpath "$1") repo=$(realpath "$2") n=${3:-100}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$repo" rev-list --first-parent -n "$n" HEAD >"$tmp/commits"
mid=$(sed -n "$(((n + 1) / 2))p" "$tmp/commits")

cat >"$tmp/one-byte" <<SH
#!/bin/sh
case "\$*" in *"--head $mid "*|*"--head $mid") "$premise" "\$@" | sed '0,/"status": "/s//"status": "x/'; exit 0;; esac
exec "$premise" "\$@"
SH
cat >"$tmp/one-exit" <<SH
#!/bin/sh
case "\$*" in *"--head $mid "*|*"--head $mid") "$premise" "\$@"; exit 3;; esac
exec "$premise" "\$@"
SH
cat >"$tmp/git-stat" <<'SH'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in --repo) r=$2; shift;; --base) b=$2; shift;; --head) h=$2; shift;; esac; shift; done
git -C "$r" diff --stat "$b...$h"
SH
chmod +x "$tmp/one-byte" "$tmp/one-exit" "$tmp/git-stat"

fail=0
check() { # NAME BIN WANT_DIFFER
  set +e
  "$here/same_diff.sh" "$premise" "$2" "$repo" "$n" >"$tmp/out" 2>&1
  rc=$?
  set -e
  got=$(sed -n 's/^identical: [0-9]*, differ: \([0-9]*\)$/\1/p' "$tmp/out")
  want_rc=$([ "$3" = 0 ] && echo 0 || echo 1)
  if [ "$got" = "$3" ] && [ "$rc" = "$want_rc" ]; then
    echo "ok    $1: differ $got, exit $rc"
  else
    echo "FAIL  $1: differ ${got:-?} (want $3), exit $rc (want $want_rc)"
    sed 's/^/      /' "$tmp/out" | head -n 20
    fail=1
  fi
}
total=$(wc -l <"$tmp/commits")
check "itself" "$premise" 0
check "one byte of $mid" "$tmp/one-byte" 1
check "the exit status of $mid" "$tmp/one-exit" 1
check "git diff --stat" "$tmp/git-stat" "$total"
exit "$fail"
