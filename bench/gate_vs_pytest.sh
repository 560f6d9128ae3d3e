#!/usr/bin/env bash
# premise gate against its floor and against pytest (issue 5, "Speed").
#
# 1,000 partition rows x 5 reruns against a Python subject (seed 004's range
# merger), timed three ways, each N times (median reported):
#   floor   the same rows in a plain in-process Python loop, 5 calls each
#   premise premise gate --reruns 5 (its own worker process, CEL contracts)
#   pytest  the same rows as a parametrized pytest run (row x rerun cases)
# Targets: premise within 3x of the floor, at least 10x faster than pytest
# (issues 5 and 28), at 1,000 and at 10,000 rows. The largest resident size
# premise reached is printed too; what premise itself allocates a row is
# BenchmarkGateFile's B/row (go test ./gate -run '^$' -bench GateFile).
#
# Usage: bench/gate_vs_pytest.sh [ROWS] [N]
# Needs: go, python3 with pytest (Debian: apt-get install -y python3-pytest).
# PYTHON picks the interpreter for all three (default: the first python3 that
# imports pytest).
set -euo pipefail
ROWS=${1:-1000}
N=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
bin=$(mktemp -d) # outside the gated tree: premise gate runs rows in a private copy of it
trap 'rm -rf "$work" "$bin"' EXIT

if [ -z "${PYTHON:-}" ]; then
  for p in python3 /usr/bin/python3; do
    if "$p" -c 'import pytest' 2>/dev/null; then PYTHON=$(command -v "$p"); break; fi
  done
fi
if [ -z "${PYTHON:-}" ]; then
  echo "gate_vs_pytest: no python3 with pytest (apt-get install -y python3-pytest)" >&2
  exit 3
fi

(cd "$here" && go build -o "$bin/premise" ./cmd/premise)

cat > "$work/intervals.py" <<'PY'
def merge_ranges(ranges):
    if ranges is None:
        raise TypeError("ranges is required")
    ordered = sorted(ranges, key=lambda r: r[0])
    out = []
    for start, end in ordered:
        if end < start:
            raise ValueError("end < start")
        if not out or start >= out[-1][1]:
            out.append([start, end])
        elif end > out[-1][1]:
            out[-1][1] = end
    return out
PY

# The rows: random range lists with their merged cover as the contract,
# written as partitions.yaml (for premise) and rows.json (for the others).
"$PYTHON" - "$ROWS" "$work" <<'PY'
import json, random, sys
sys.path.insert(0, sys.argv[2])
from intervals import merge_ranges
random.seed(4)
rows = []
for i in range(int(sys.argv[1])):
    inp = []
    for _ in range(random.randint(0, 8)):
        s = random.randint(0, 50)
        inp.append([s, s + random.randint(0, 10)])
    rows.append({"id": "P%04d" % (i + 1), "inp": inp, "want": merge_ranges(inp)})
json.dump(rows, open(sys.argv[2] + "/rows.json", "w"))
with open(sys.argv[2] + "/partitions.yaml", "w") as f:
    f.write("version: 1\ntarget: intervals.merge_ranges\nrows:\n")
    for r in rows:
        f.write("  - id: %s\n    cls: random\n    kind: representative\n    inp: %s\n"
                "    relation: merges into a sorted disjoint cover\n    contract: result == %s\n"
                "    assumption_ids: [A001]\n" % (r["id"], json.dumps(r["inp"]), json.dumps(r["want"])))
PY

cat > "$work/floor.py" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from intervals import merge_ranges
rows = json.load(open(sys.argv[1] + "/rows.json"))
bad = 0
for r in rows:
    for _ in range(5):
        if merge_ranges(r["inp"]) != r["want"]:
            bad += 1
sys.exit(1 if bad else 0)
PY

cat > "$work/test_rows.py" <<'PY'
import json, os, pytest
from intervals import merge_ranges
ROWS = json.load(open(os.path.join(os.path.dirname(__file__), "rows.json")))

@pytest.mark.parametrize("rerun", range(5))
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_row(row, rerun):
    assert merge_ranges(row["inp"]) == row["want"]
PY

# median N COMMAND...: runs COMMAND (which must exit 0) N times and prints
# the median wall seconds and the median CPU seconds (user + system, the
# command and the children it waited for), to the millisecond: /usr/bin/time
# counts in hundredths, a fifth of the floor. On a loaded machine the CPU
# figure is the steadier one. Third, the largest resident size in KB of
# any one process of the runs.
median() {
  local n=$1; shift
  "$PYTHON" - "$n" "$@" <<'PY'
import resource, statistics, subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
walls, cpus = [], []
for _ in range(n):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    walls.append(time.perf_counter() - t0)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        sys.stderr.write("gate_vs_pytest: failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.decode()[-2000:]))
        sys.exit(3)
print("%.4f %.4f %d" % (statistics.median(walls), statistics.median(cpus), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}

cd "$work"
read -r floor floor_cpu _ < <(median "$N" "$PYTHON" -B floor.py "$work")
read -r premise premise_cpu premise_rss < <(median "$N" "$bin/premise" gate --python "$PYTHON" --partitions partitions.yaml --reruns 5 --seed 1 --freezes "$work/none.json")
read -r pytest pytest_cpu _ < <(median "$(( N < 3 ? N : 3 ))" "$PYTHON" -B -m pytest -q -p no:cacheprovider test_rows.py)

echo "rows=$ROWS reruns=5 runs=$N python=$PYTHON ($("$PYTHON" --version 2>&1)) cpus=$(nproc) load=$(cut -d' ' -f1 /proc/loadavg)"
echo "                            wall (median)  cpu (median)"
printf "floor   (in-process loop)   %9.4fs     %9.4fs\n" "$floor" "$floor_cpu"
printf "premise (gate)              %9.4fs     %9.4fs\n" "$premise" "$premise_cpu"
printf "pytest  (parametrized)      %9.4fs     %9.4fs\n" "$pytest" "$pytest_cpu"
printf "premise max resident size   %d KB (%.1f KB a row)\n" "$premise_rss" "$(awk -v r="$premise_rss" -v n="$ROWS" 'BEGIN { print r / n }')"
awk -v f="$floor" -v p="$premise" -v t="$pytest" -v fc="$floor_cpu" -v pc="$premise_cpu" -v tc="$pytest_cpu" 'BEGIN {
  printf "premise / floor  = %.2fx wall, %.2fx cpu  (target <= 3x)  %s\n", p/f, pc/fc, (p/f <= 3 ? "ok" : "MISSED")
  printf "pytest / premise = %.2fx wall, %.2fx cpu  (target >= 10x) %s\n", t/p, tc/pc, (t/p >= 10 ? "ok" : "MISSED")
}'
