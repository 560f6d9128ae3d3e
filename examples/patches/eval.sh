#!/usr/bin/env bash
# eval.sh [PREMISE]: run `premise run --json` offline on every case of the
# corpus and count what issue 7 asks: a behaviour change reported for every
# breaking case, none for any benign one. PREMISE defaults to a build of
# ./cmd/premise. Prints one line per case, then the counts; exits 1 when a
# breaking case shows no change, a benign one shows any, or a run fails (3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
premise=${1:-}
if [ -z "$premise" ]; then
	premise=$work/premise
	(cd "$here/../.." && go build -o "$premise" ./cmd/premise)
fi
for dir in "$here"/[0-9][0-9]-*/; do
	name=$(basename "$dir")
	bash "$here/mkrepo.sh" "$dir" "$work/repos/$name"
	rc=0
	"$premise" run --repo "$work/repos/$name" --base HEAD~1 --head HEAD \
		--out "$work/out/$name" --json --quiet >"$work/out-$name.json" 2>"$work/err-$name.txt" || rc=$?
	kind=$(sed -n 's/^kind: *//p' "$dir/case.yaml")
	printf '%s\t%s\t%s\n' "$name" "$kind" "$rc" >>"$work/runs.tsv"
done
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
tally = {"breaking": [0, 0], "benign": [0, 0]}
failed = []
for line in open(f"{work}/runs.tsv"):
    name, kind, rc = line.rstrip("\n").split("\t")
    try:
        report = json.load(open(f"{work}/out-{name}.json"))
    except (OSError, ValueError):
        report = None
    if report is None or rc == "3":
        err = open(f"{work}/err-{name}.txt").read().strip().splitlines()
        print(f"{name:40} {kind:8} premise failed (exit {rc}): {err[0] if err else 'no output'}")
        failed.append(name)
        continue
    # Changes explained by an assumption and those no assumption names
    # (found by signature-driven rows) both count.
    changes = (report.get("behavior_changes") or []) + (report.get("unexplained_changes") or [])
    ok = bool(changes) if kind == "breaking" else not changes
    tally[kind][0] += ok
    tally[kind][1] += 1
    first = ""
    if changes:
        c = changes[0]
        first = f"  e.g. {json.dumps(c.get('input'))}: base {json.dumps(c.get('base'))}, head {json.dumps(c.get('head'))}"
    print(f"{name:40} {kind:8} {len(changes):3} change(s) {'ok' if ok else 'WRONG'}{first[:160]}")
b, n = tally["breaking"]
g, m = tally["benign"]
print(f"\nbreaking with a change reported: {b}/{n}; benign with none: {g}/{m}; premise failed: {len(failed)}")
sys.exit(0 if b == n and g == m and not failed else 1)
PY
