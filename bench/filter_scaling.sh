#!/bin/sh
# Issue 3's bar for the real-symbol filter: 10,000 candidate rows against a
# diff of 2,000 symbols, the index built once and each row looked up in
# constant time. Runs BenchmarkFilter (index build included) and
# BenchmarkFilterScaling (200, 2,000 and 20,000 symbols, index built
# outside the timer) COUNT times and prints median milliseconds per 10,000
# rows and the ratio to the smallest diff: a flat ratio is the O(1) lookup.
#
#   sh bench/filter_scaling.sh [COUNT]
set -eu
count=${1:-5}
cd "$(dirname "$0")/.."
go test -run XXX -bench 'Filter' -count "$count" ./validate/ |
awk '/^BenchmarkFilter/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") t[name] = t[name] " " $i / 1e6
}
function median(s,   a, n, i, j, x) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { x = a[i]; a[i] = a[j]; a[j] = x }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	base = median(t["FilterScaling/symbols=200"])
	printf "%-32s %14s %8s\n", "case", "ms/10k rows", "ratio"
	printf "%-32s %14.1f %8s\n", "Filter (2,000 symbols, +index)", median(t["Filter"]), "-"
	split("200 2000 20000", n, " ")
	for (i = 1; i <= 3; i++) {
		k = "FilterScaling/symbols=" n[i]
		printf "%-32s %14.1f %8.2f\n", k, median(t[k]), median(t[k]) / base
	}
}'
