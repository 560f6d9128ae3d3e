package pipeline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestRenderReach: the draft says how many changed lines ran and by what,
// rows or the base's tests, so a reviewer does not read lines only a
// test ran as lines a row compared; lines nothing ran are named.
func TestRenderReach(t *testing.T) {
	side := func(changed, reached, byTests int, unreached ...evidence.UnreachedLine) *evidence.SideCoverage {
		return &evidence.SideCoverage{Changed: changed, Reached: reached, ByTests: byTests, Unreached: unreached}
	}
	for _, tc := range []struct {
		name string
		cov  evidence.Coverage
		want []string
	}{
		{"rows", evidence.Coverage{Head: side(3, 2, 0, evidence.UnreachedLine{Line: 7, Text: "if n > 0 {"}), Base: side(1, 1, 0)},
			[]string{"The rows ran 3 of the 4 changed lines (head and base).", "`m.f`: line 7 `if n > 0 {` never ran on the head"}},
		{"tests alone", evidence.Coverage{Head: side(2, 2, 2), Base: side(1, 1, 1)},
			[]string{"The base's tests ran 3 of the 3 changed lines (head and base), on both sides; no row ran one."}},
		{"both", evidence.Coverage{Head: side(2, 2, 1), Base: side(2, 1, 0, evidence.UnreachedLine{Line: 9, Text: "return x"})},
			[]string{"The rows ran 2 of the 4 changed lines (head and base), and the base's tests 1 more, on both sides.", "line 9 `return x` never ran on the base"}},
	} {
		var b bytes.Buffer
		renderReach(&b, []evidence.SymbolRows{{Symbol: "m.f", Coverage: &tc.cov}})
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: the draft says\n%s\nwant it to say %q", tc.name, b.String(), w)
			}
		}
	}
}
