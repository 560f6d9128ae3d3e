package evidence_test

import (
	"strings"
	"testing"
)

// TestBaseCrashInAPrivateFunctionIsApart: both functions now answer an
// empty list where the base indexed past its end. The private helper's
// callers never pass one (they would crash), so what the head answers
// there waits on no decision and is listed apart with the reason; the
// public function's callers are anyone, and its new answer is a change.
func TestBaseCrashInAPrivateFunctionIsApart(t *testing.T) {
	t.Parallel()
	base := `def _head(xs):
    return xs[0]


def first(xs):
    return xs[0]


def total(xs):
    return sum(xs) + _head(xs) * 0 if xs else 0
`
	head := strings.ReplaceAll(base, "    return xs[0]\n", "    return xs[0] if len(xs) > 0 else None\n")
	rep := runCommits(t, map[string]string{"lists.py": base}, map[string]string{"lists.py": head}, nil)
	var public bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "lists._head" {
			t.Errorf("a change on the private helper where the base crashed: %+v", c)
		}
		public = public || (c.Symbol == "lists.first" && strings.Contains(c.Base, "IndexError"))
	}
	if !public {
		t.Errorf("no change on the public first where the base raised IndexError: %+v", append(rep.Changes, rep.Unexplained...))
	}
	var apart bool
	for _, c := range rep.OutsideType {
		apart = apart || (c.Symbol == "lists._head" && strings.Contains(c.OutsideType, "the base crashed on it (IndexError)"))
	}
	if !apart {
		t.Errorf("the private helper's difference is not listed apart with its reason: %+v", rep.OutsideType)
	}
}
