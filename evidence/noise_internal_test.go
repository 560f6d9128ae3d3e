package evidence

import (
	"testing"

	"github.com/premise-dev/premise/gate"
)

// orderNeed asks more of a base the rarer its head's other order: a head
// that answered otherwise four times in thirty-two came from a map a base
// of the same code answers alike thirty-two times fourteen times in a
// thousand, so thirty-two alike answers are not enough.
func TestOrderNeedFollowsTheHeadsShare(t *testing.T) {
	row := func(other, n int) gate.RowResult {
		rr := gate.RowResult{BaseSeen: []string{`returned ["a","b"]`}}
		for i := 0; i < n; i++ {
			v := []any{"a", "b"}
			if i < other {
				v = []any{"b", "a"}
			}
			rr.Attempts = append(rr.Attempts, gate.Attempt{Reply: gate.Reply{Outcome: gate.OutcomeReturned, Value: v}})
		}
		return rr
	}
	if rr := row(4, 32); rr.Attempts[0].Reply.Key() == rr.BaseSeen[0] || rr.Attempts[5].Reply.Key() != rr.BaseSeen[0] {
		t.Fatalf("the test's answers are not keyed as the base's: %q %q", rr.Attempts[5].Reply.Key(), rr.BaseSeen[0])
	}
	if n := orderNeed(row(4, 32)); n < 150 {
		t.Errorf("a head that answered otherwise 4 times in 32 needs %d alike base answers; a shared map's order passes that in more than one row in a million", n)
	}
	if a, b := orderNeed(row(16, 32)), orderNeed(row(4, 32)); a >= b {
		t.Errorf("a head that answers otherwise half the time needs %d base answers, no fewer than one that does so an eighth of the time (%d)", a, b)
	}
	if n := orderNeed(row(1, 400)); n != maxOrderRuns {
		t.Errorf("a head's rare other order asks %d base answers, not the bound %d", n, maxOrderRuns)
	}
	if n := orderNeed(row(32, 32)); n != 0 {
		t.Errorf("a head that never answers the base's order needs no more base answers, yet asks %d", n)
	}
}
