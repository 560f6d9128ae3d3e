package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// benchTable writes bench/gate_vs_pytest.sh's table of n rows into dir:
// random range lists, each row's contract its merged cover, as
// partitions.yaml, beside the range merger the rows call.
func benchTable(tb testing.TB, dir string, n int) string {
	tb.Helper()
	src, err := os.ReadFile("testdata/intervals/base/intervals.py")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "intervals.py"), src, 0o644); err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewSource(4))
	var sb strings.Builder
	sb.WriteString("version: 1\ntarget: intervals.merge_ranges\nrows:\n")
	for i := 1; i <= n; i++ {
		var inp [][2]int
		for range rng.Intn(9) {
			s := rng.Intn(51)
			inp = append(inp, [2]int{s, s + rng.Intn(11)})
		}
		in, _ := json.Marshal(inp)
		if inp == nil {
			in = []byte("[]")
		}
		want, _ := json.Marshal(mergeRanges(inp))
		fmt.Fprintf(&sb, "  - id: P%04d\n    cls: random\n    kind: representative\n    inp: %s\n"+
			"    relation: merges into a sorted disjoint cover\n    contract: result == %s\n    assumption_ids: [A001]\n",
			i, strings.ReplaceAll(string(in), ",", ", "), strings.ReplaceAll(string(want), ",", ", "))
	}
	path := filepath.Join(dir, "partitions.yaml")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// mergeRanges is seed 004's range merger, for the bench table's contracts.
func mergeRanges(in [][2]int) [][2]int {
	rs := slices.Clone(in)
	slices.SortStableFunc(rs, func(a, b [2]int) int { return a[0] - b[0] })
	out := [][2]int{}
	for _, r := range rs {
		switch {
		case len(out) == 0 || r[0] >= out[len(out)-1][1]:
			out = append(out, r)
		case r[1] > out[len(out)-1][1]:
			out[len(out)-1][1] = r[1]
		}
	}
	return out
}

// BenchmarkGateFile runs the gate stage as premise gate does (RunFile:
// the table read from its file, the rows run in a private copy of the
// tree) over bench/gate_vs_pytest.sh's tables of 1,000 and 10,000 rows x 5
// reruns. It reports premise's own memory a row (B/row, the bytes the
// run allocated): issue 28's bar is 2 KB.
//
//	go test ./gate -run '^$' -bench GateFile -benchtime 5x
func BenchmarkGateFile(b *testing.B) {
	python, err := ResolvePython("")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			path := benchTable(b, dir, n)
			cfg := Config{Repo: dir, Python: python, Reruns: 5, Seed: 1, FreezesFile: filepath.Join(dir, "none.json")}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep, err := RunFile(context.Background(), cfg, path)
				if err != nil {
					b.Fatal(err)
				}
				if rep.Exit != 0 || len(rep.Rows) != n {
					b.Fatalf("exit %d with %d rows; want 0 with %d", rep.Exit, len(rep.Rows), n)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*n), "B/row")
		})
	}
}
