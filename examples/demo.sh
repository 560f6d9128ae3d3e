#!/usr/bin/env bash
# The bundled example end to end, offline, with the static proposer:
#   1. premise run drafts assumptions.yaml and draft.md from the agent's patch
#      and shows, before anyone reviews, the inputs on which the patch
#      behaves differently from the base;
#   2. the example's review decisions are applied: the two behaviour
#      changes the evidence found (C001, C002) are rejected as regressions,
#      and the two assumptions (A001: the ranges arrive sorted; A002:
#      touching ranges merge) rejected: the patch must not rely on them;
#   3. premise run again: the witnesses of the rejected changes become rows
#      pinning the base's outcome, the rejected assumptions become rows
#      with inputs that violate them (unsorted ranges, touching ranges)
#      holding the base's outcome, the register check holds, and the gate
#      fails the agent's patch while the same rows pass on the base.
# What the verbs mean:
#   accept C001  the change is intended: rows pin the head's outcome.
#   reject C001  the change is a regression: rows pin the base's outcome.
#   accept A001  the precondition is legitimate, the patch may rely on it:
#                changes seen only on inputs that violate it need no
#                decision; its rows test the edge where it still holds.
#   reject A001  the patch must not rely on it: rows with inputs that
#                violate it hold the base's outcome, failing a patch that
#                relies on it.
# It exits 0 when premise did all of that, and non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/premise" ./cmd/premise
premise() { "$work/premise" "$@"; }

repo=$(premise example intervals --dir "$work")
echo "== the example: $repo (main = the good base, agent/single-pass = the agent's patch)"
git -C "$repo" log --oneline --all
echo

echo "== 1. premise run: draft the register, gather evidence"
set +e
premise run --repo "$repo"
first=$?
set -e
echo "(exit $first)"
echo
echo "== draft.md, the Markdown a reviewer pastes into the PR"
cat "$repo/draft.md"
echo

echo "== 2. the review: each change decided, each assumption decided"
premise review --register "$repo/assumptions.yaml" </dev/null || true
premise reject C001 C002 --register "$repo/assumptions.yaml" \
  --note "regressions: callers pass ranges in any order; the merger must sort and keep touching ranges apart"
premise reject A001 --register "$repo/assumptions.yaml" \
  --note "callers pass ranges in any order; the merger must sort"
premise reject A002 --register "$repo/assumptions.yaml" \
  --note "ranges are half-open: touching ranges share no point and stay apart"
echo

echo "== 3. premise run again: partitions, check, gate"
set +e
premise run --repo "$repo"
second=$?
set -e
echo "(exit $second)"
echo

if [ "$first" -eq 1 ] && [ "$second" -eq 1 ]; then
  echo "premise held the agent's patch back: awaiting review first, then the gate failed it on the witnesses of the rejected changes and on the inputs violating the rejected assumptions (exit 1) while its rows pass on the base."
  exit 0
fi
echo "unexpected exits: first run $first (want 1, awaiting review), second run $second (want 1, gate failed)" >&2
exit 1
