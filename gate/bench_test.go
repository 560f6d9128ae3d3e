package gate

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// BenchmarkGatePython1000 runs 1,000 rows x 5 reruns of seed 004's range
// merger through the Python adapter, table parsing included: what
// bench/gate_vs_pytest.sh times from the command line, without the process
// start.
//
//	go test ./gate -run '^$' -bench GatePython1000 -benchtime 10x
func BenchmarkGatePython1000(b *testing.B) {
	rng := rand.New(rand.NewSource(4))
	var sb strings.Builder
	sb.WriteString("version: 1\ntarget: intervals.merge_ranges\nrows:\n")
	for i := 1; i <= 1000; i++ {
		var pairs []string
		for range rng.Intn(9) {
			s := rng.Intn(51)
			pairs = append(pairs, fmt.Sprintf("[%d, %d]", s, s+rng.Intn(11)))
		}
		fmt.Fprintf(&sb, "  - id: P%04d\n    cls: random\n    kind: representative\n    inp: [%s]\n"+
			"    relation: merges into a sorted disjoint cover\n    contract: result.size() <= %d\n    assumption_ids: [A001]\n",
			i, strings.Join(pairs, ", "), len(pairs))
	}
	data := []byte(sb.String())
	python, err := ResolvePython("") // once, as premise run does: a pyenv shim costs 0.3 s
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tab, err := validate.ParseTable("bench.yaml", data)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := Run(context.Background(), Config{Repo: "testdata/intervals/base", Python: python, Reruns: 5, Seed: 1}, tab)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Exit != 0 || len(rep.Rows) != 1000 {
			b.Fatalf("exit %d with %d rows; want 0 with 1000", rep.Exit, len(rep.Rows))
		}
	}
}
