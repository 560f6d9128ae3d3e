package evidence_test

import (
	"strings"
	"testing"
	"time"

	"github.com/premise-dev/premise/evidence"
)

// TestSlowFunctionIsCutOffAndSaysSo: a changed function that sleeps on
// its large inputs cannot hold the run: the rows stop at row_seconds, the
// run says how many ran, and a change found before the clock ran out is
// still reported.
func TestSlowFunctionIsCutOffAndSaysSo(t *testing.T) {
	base := "import time\n\n\ndef slow(n):\n    if n > 5000:\n        time.sleep(3)\n    return n * 2\n"
	head := "import time\n\n\ndef slow(n):\n    if n > 5000:\n        time.sleep(3)\n    return n * 3\n"
	start := time.Now()
	rep := runPatchWith(t, base, head, func(c *evidence.Config) { c.RowSeconds = 8; c.TraceSeconds = -1 })
	took := time.Since(start)
	if took > 40*time.Second {
		t.Errorf("the run took %s with row_seconds 8", took)
	}
	var note string
	for _, n := range rep.Notes {
		if strings.Contains(n, "ran out after") {
			note = n
		}
	}
	if note == "" {
		t.Fatalf("no note says the time ran out; notes %q, symbols %+v", rep.Notes, rep.Symbols)
	}
	if len(rep.Changes)+len(rep.Unexplained) == 0 {
		t.Errorf("the rows that ran before the clock stopped show no change (%s)", note)
	}
}
