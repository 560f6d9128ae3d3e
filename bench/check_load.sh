#!/bin/sh
# Issue 4's bar: a register of 5,000 assumptions and a partition table of
# 20,000 rows load and check well under a second. Runs the Go benchmark
# COUNT times and prints the median wall time and CPU time per case (the
# CPU time is the honest figure on a shared machine: the wall clock also
# measures the neighbours).
#
#   sh bench/check_load.sh [COUNT]
set -eu
count=${1:-5}
cd "$(dirname "$0")/.."
go test -run XXX -bench LoadAndCheck -benchtime 3x -count "$count" ./validate/ |
awk '/^BenchmarkLoadAndCheck/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^BenchmarkLoadAndCheck\//, "", name)
	for (i = 1; i <= NF; i++) {
		if ($(i+1) == "ns/op") wall[name] = wall[name] " " $i / 1e6
		if ($(i+1) == "cpu-ms/op") cpu[name] = cpu[name] " " $i
	}
}
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	printf "%-26s %12s %12s %8s\n", "case", "wall ms", "cpu ms", "cpu/wall"
	for (k in wall) printf "%-26s %12.0f %12.0f %8.2f\n", k, median(wall[k]), median(cpu[k]), median(cpu[k]) / median(wall[k])
}'
