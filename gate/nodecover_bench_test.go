package gate

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// rangesJS is seed 004's range merger in JavaScript, on both sides of a
// patch that changed its comparison.
const rangesJS = `import { helpers } from "./dep.js";

export function mergeRanges(ranges) {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s %s last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return helpers.length > 0 ? out : [];
}
`

// depJS is a dependency of n functions the merger loads: V8's coverage is
// taken over every script loaded, so its cost grows with the code a
// subject imports, not with what a call runs.
func depJS(n int) string {
	var sb strings.Builder
	sb.WriteString("export const helpers = [\n")
	for i := range n {
		fmt.Fprintf(&sb, "  function h%d(x) { if (x > %d) { return x - %d; } return x + %d; },\n", i, i, i, i)
	}
	sb.WriteString("];\n")
	return sb.String()
}

// BenchmarkGateNodeWatch is a differential gate run of 500 rows, two
// reruns each (evidence's), on both sides of the merger, without a watch
// and with one on the merger's lines: the cost of coverage in the Node
// worker. dep is the functions of the code the merger imports.
//
//	go test ./gate -run '^$' -bench GateNodeWatch -benchtime 5x -count 5
func BenchmarkGateNodeWatch(b *testing.B) {
	rng := rand.New(rand.NewSource(4))
	tab := &validate.Table{Version: 1, Language: validate.LangJavaScript, Target: "src/ranges.mergeRanges"}
	for i := 1; i <= 500; i++ {
		var inp []any
		for range rng.Intn(9) {
			s := rng.Intn(51)
			inp = append(inp, []any{s, s + rng.Intn(11)})
		}
		if inp == nil {
			inp = []any{}
		}
		tab.Rows = append(tab.Rows, validate.Row{ID: fmt.Sprintf("P%04d", i), Cls: "random", Kind: validate.KindBoundary,
			Relation: "the head must behave as the base does", AssumptionIDs: []string{"S000"}, Inp: inp, HasInp: true})
	}
	for _, dep := range []int{0, 20000} {
		files := func(op string) map[string]string {
			return map[string]string{"package.json": `{"type": "module"}`, "src/ranges.js": fmt.Sprintf(rangesJS, op), "src/dep.js": depJS(dep)}
		}
		head, base := writeTree(b, files("<=")), writeTree(b, files("<"))
		watch := func(dir string) Watch { return Watch{filepath.Join(dir, "src/ranges.js"): {{From: 3, To: 12}}} }
		for _, watched := range []bool{false, true} {
			cfg := Config{Repo: head, BaseDir: base, Reruns: 2, Seed: 1, Budget: len(tab.Rows), Private: true}
			if watched {
				cfg.Watch, cfg.BaseWatch = watch(head), watch(base)
			}
			b.Run(fmt.Sprintf("dep=%d/watch=%v", dep, watched), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					rep, err := Differential(context.Background(), cfg, tab)
					if err != nil {
						b.Fatal(err)
					}
					lines, replies := 0, 0
					for _, r := range rep.Rows {
						for _, a := range r.Attempts {
							replies += 2
							for _, rp := range []*Reply{&a.Reply, a.Base} {
								if rp != nil && rp.Lines != nil {
									lines++
								}
							}
						}
					}
					b.ReportMetric(float64(lines)/float64(replies), "lined/reply")
					if len(rep.Rows) != len(tab.Rows) || watched != (lines > 0) {
						b.Fatalf("%d rows, %d with lines; want %d, lines only when watched", len(rep.Rows), lines, len(tab.Rows))
					}
				}
			})
		}
	}
}
