#!/usr/bin/env bash
# premise reject run against seed 000's own runner (issue 6, "Done means":
# 10,000 entries re-hash and run in seconds, not minutes).
#
# ENTRIES must-reject entries against a Python subject that rejects at once,
# timed two ways, each N times (median reported):
#   seed     seed 000's must_reject_gate.py: one call per entry, in the gate's
#            own process (no isolation, no fail-closed checks): the floor
#   premise  premise reject run: strict lockfile, re-hash through os.Root,
#            duplicate-key check, never-skip's three calls per entry in a
#            separate worker process
#
# Usage: bench/reject_vs_seed.sh [ENTRIES] [N]
set -euo pipefail
ENTRIES=${1:-10000}
N=${2:-5}
# The interpreter itself, not a pyenv shim that costs seconds a start.
PYTHON=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$here" && go build -o "$work/premise" ./cmd/premise)

mkdir -p "$work/billing"
: > "$work/billing/__init__.py"
cat > "$work/billing/api.py" <<'PY'
class ValidationError(Exception):
    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


def create_user(email, tenant):
    raise ValidationError("invalid email: " + email, code="email.invalid")
PY

# The corpus, written as seed 000's Step 1 writes it.
"$PYTHON" - "$ENTRIES" "$work" <<'PY'
import hashlib, json, pathlib, sys
n, root = int(sys.argv[1]), pathlib.Path(sys.argv[2])
d = root / "corpus" / "must_reject"
d.mkdir(parents=True)
entries = []
for i in range(n):
    eid = "user-email-reject-%05d" % i
    p = d / (eid + ".json")
    p.write_text(json.dumps({"email": "not-an-email-%d" % i, "tenant": "t-%d" % (i % 17)}, sort_keys=True) + "\n")
    entries.append({"id": eid, "target": "billing.api.create_user",
                    "input_sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
                    "input_path": "corpus/must_reject/%s.json" % eid,
                    "must": {"kind": "exception", "class": "ValidationError", "code": "email.invalid"},
                    "flake_policy": "never-skip"})
(root / "must_reject.lock.json").write_text(json.dumps({"version": 1, "entries": entries}, indent=2) + "\n")
PY

# Seed 000's runner, as the article prints it (http branch omitted: no http
# entries here).
cat > "$work/must_reject_gate.py" <<'PY'
from __future__ import annotations
import hashlib, importlib, json, pathlib
from dataclasses import dataclass
ROOT = pathlib.Path(__file__).resolve().parent
LOCK = ROOT / "must_reject.lock.json"
@dataclass
class Result:
    entry_id: str
    ok: bool
    detail: str
def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()
def load_target(dotted):
    mod, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(mod), name)
def expect_exception(fn, payload, class_name, code):
    try:
        fn(**payload)
        return "forbidden success: call returned"
    except Exception as exc:
        if type(exc).__name__ != class_name:
            return f"class mismatch: {type(exc).__name__} != {class_name}"
        got = getattr(exc, "code", None)
        if code is not None and got != code:
            return f"code mismatch: {got!r} != {code!r}"
        return None
def run_entry(entry):
    path = ROOT / entry["input_path"]
    digest = sha256(path)
    if digest != entry["input_sha256"]:
        return Result(entry["id"], False, f"fixture hash drift: {digest}")
    payload = json.loads(path.read_text())
    fn = load_target(entry["target"])
    must = entry["must"]
    err = expect_exception(fn, payload, must["class"], must.get("code"))
    return Result(entry["id"], err is None, err or "held")
def main():
    lock = json.loads(LOCK.read_text())
    failed = []
    for entry in lock["entries"]:
        r = run_entry(entry)
        print(f"{'HOLD' if r.ok else 'BROKEN'} {r.entry_id} {r.detail}")
        if not r.ok:
            failed.append(r)
    print(f"held={len(lock['entries']) - len(failed)} broken={len(failed)}")
    return 1 if failed else 0
if __name__ == "__main__":
    raise SystemExit(main())
PY

time_ms() { # prints the wall time of "$@" in milliseconds; the command must exit 0
  local t0 t1
  t0=$(date +%s%N)
  "$@" > "$work/out" 2>&1 || { echo "failed: $*" >&2; tail -3 "$work/out" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

seed=(); prem=()
for _ in $(seq "$N"); do
  seed+=("$(cd "$work" && time_ms "$PYTHON" must_reject_gate.py)")
  prem+=("$(cd "$work" && time_ms ./premise reject run --python "$PYTHON")")
done
grep -q "^held=$ENTRIES broken=0$" "$work/out" || { echo "premise did not hold every entry" >&2; exit 1; }
ms=$(printf '%s\n' "${seed[@]}" | median)
mp=$(printf '%s\n' "${prem[@]}" | median)
echo "entries=$ENTRIES runs=$N (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
echo "seed runner    median ${ms} ms  (1 call per entry, in-process)"
echo "premise reject median ${mp} ms  (3 calls per entry, separate worker)"
awk -v a="$mp" -v b="$ms" 'BEGIN {printf "ratio premise/seed %.2fx\n", a / b}'
