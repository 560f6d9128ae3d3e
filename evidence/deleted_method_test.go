package evidence_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestDeletedSpecialMethodIsCompared: a class that drops its own __eq__
// answers with object's, and every comparison of its values changes; the
// deleted method is compared under its name, not passed over as gone. A
// deleted method of another name, which nothing answers for, is still
// "deleted".
func TestDeletedSpecialMethodIsCompared(t *testing.T) {
	t.Parallel()
	money := "class Money:\n    def __init__(self, cents: int):\n        self.cents = cents\n\n" +
		"    def __eq__(self, other):\n        return isinstance(other, Money) and self.cents == other.cents\n\n" +
		"    def total(self) -> int:\n        return self.cents\n"
	head := strings.Replace(money, "    def __eq__(self, other):\n        return isinstance(other, Money) and self.cents == other.cents\n\n", "", 1)
	rep := runCommits(t, map[string]string{"money.py": money}, map[string]string{"money.py": head}, nil)
	i := slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return s.Symbol == "money.Money.__eq__" })
	if i < 0 || rep.Symbols[i].Rows == 0 {
		t.Fatalf("Money.__eq__ deleted, object's answers now: want it compared; symbols %+v", rep.Symbols)
	}
	if !hasChange(rep, "money.Money.__eq__", nil) {
		t.Errorf("Money.__eq__ deleted: no change; symbols %+v", rep.Symbols)
	}

	rep = runCommits(t, map[string]string{"money.py": money}, map[string]string{"money.py": strings.Replace(money, "\n    def total(self) -> int:\n        return self.cents\n", "", 1)}, nil)
	i = slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return s.Symbol == "money.Money.total" })
	if i < 0 || !strings.HasPrefix(rep.Symbols[i].Why, "deleted") {
		t.Errorf("Money.total deleted: want it reported deleted; symbols %+v", rep.Symbols)
	}
}
