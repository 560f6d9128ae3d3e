package evidence_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestManyTrivialEditsLeaveRowsForTheRealChange: a patch that touches
// many functions trivially cannot spend the run's row budget before its
// real change gets rows (issue 26): every changed function gets a share,
// and the real change, last in the file, is found.
func TestManyTrivialEditsLeaveRowsForTheRealChange(t *testing.T) {
	t.Parallel()
	var base, head strings.Builder
	for i := range 30 {
		fmt.Fprintf(&base, "def f%d(x: int) -> int:\n    return x + %d\n\n\n", i, i)
		fmt.Fprintf(&head, "def f%d(x: int) -> int:\n    return %d + x\n\n\n", i, i)
	}
	base.WriteString("def clamp(x: int) -> int:\n    return min(x, 10)\n")
	head.WriteString("def clamp(x: int) -> int:\n    return min(x, 9)\n")
	rep := runCommits(t, map[string]string{"m.py": base.String()}, map[string]string{"m.py": head.String()}, func(c *evidence.Config) {
		c.MaxRows = 100 // 31 functions: 40 each would leave most with none
	})
	for _, s := range rep.Symbols {
		if s.Rows == 0 {
			t.Errorf("%s got no rows: %s", s.Symbol, s.Why)
		}
	}
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.clamp" {
			return
		}
	}
	t.Errorf("m.clamp's change was not found among %d symbols' rows", len(rep.Symbols))
}
