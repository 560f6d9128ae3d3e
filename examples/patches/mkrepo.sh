#!/usr/bin/env bash
# mkrepo.sh CASE_DIR DEST: build a git repository at DEST with two commits,
# the case's base tree and then the agent's patch (its head tree), so that
#   premise run --repo DEST --base HEAD~1 --head HEAD
# sees exactly the patch the case describes.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: mkrepo.sh CASE_DIR DEST" >&2
	exit 2
fi
case_dir=$(cd "$1" && pwd)
dest=$2
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
	echo "mkrepo.sh: $dest exists and is not empty" >&2
	exit 2
fi
mkdir -p "$dest"
git() { command git -C "$dest" -c user.name=premise -c user.email=premise@example.invalid -c commit.gpgsign=false "$@"; }
git init -q -b main
cp -R "$case_dir/base/." "$dest/"
git add -A
GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z git commit -q -m "base"
# Replace the tracked tree with head's, so deleted files are deleted too.
git rm -q -r .
cp -R "$case_dir/head/." "$dest/"
git add -A
GIT_AUTHOR_DATE=2026-01-01T00:01:00Z GIT_COMMITTER_DATE=2026-01-01T00:01:00Z git commit -q -m "agent patch: $(basename "$case_dir")"
