package gate

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/validate"
)

// TestIntendedWayExcusesRejectedAssumption: a reviewer accepted C001 (the
// head raises TypeError where the base raised KeyError) and rejected A001;
// A001's same_as_base row on another input that differs the very same way
// is the accepted change showing again and passes, saying so, while a row
// differing another way still fails, an accepted change of value (C002:
// "7" gives 8) excuses no rejected assumption's row that returns another
// value ("9" gives 10), and without the accepted witness row nothing is
// excused (issue 25: a reviewed intended change reaches "the gate holds").
func TestIntendedWayExcusesRejectedAssumption(t *testing.T) {
	t.Parallel()
	base := pyModule(t, "def parse(x):\n    if not isinstance(x, str):\n        raise KeyError(x)\n    return int(x)\n")
	head := pyModule(t, "def parse(x):\n    if not isinstance(x, str):\n        raise TypeError(x)\n    if x in ('7', '9'):\n        return int(x) + 1\n    return int(x) if x.isdigit() else 0\n")
	witness := validate.Row{ID: "P001", Cls: "witness", Kind: validate.KindBoundary, Target: "m.parse", Args: []any{0},
		Relation: "C001 is intended", AssumptionIDs: []string{"C001"},
		Expect: &validate.Outcome{Outcome: validate.OutcomeRaised, Class: "TypeError"}, Decision: validate.StatusAccepted}
	same := func(id string, arg any) validate.Row {
		return validate.Row{ID: id, Cls: "violated", Kind: validate.KindBoundary, Target: "m.parse", Args: []any{arg},
			Relation: "A001 is violated here: the head does what the base did", AssumptionIDs: []string{"A001"},
			SameAsBase: true, Decision: validate.StatusRejected}
	}
	run := func(rows ...validate.Row) *Report {
		rep, err := (&Runner{Adapter: head, Base: base, Reruns: 2, Budget: 2, Seed: 1}).Run(context.Background(), &validate.Table{Version: 1, Rows: rows})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	valued := validate.Row{ID: "P004", Cls: "witness", Kind: validate.KindBoundary, Target: "m.parse", Args: []any{"7"},
		Relation: "C002 is intended", AssumptionIDs: []string{"C002"},
		Expect: &validate.Outcome{Outcome: validate.OutcomeReturned, Value: 8}, Decision: validate.StatusAccepted}
	rep := run(witness, same("P002", nil), same("P003", "x"), valued, same("P005", "9"))
	if diff := cmp.Diff([]string{"P003:fail", "P005:fail"}, failing(rep)); diff != "" {
		t.Errorf("failing rows (-want +got):\n%s", diff)
	}
	for _, r := range rep.Rows {
		if (r.ID == "P003" || r.ID == "P005") && !strings.HasPrefix(r.Why, sameAsBaseWhy) {
			t.Errorf("%s failed for another reason than differing from the base: %s", r.ID, r.Why)
		}
	}
	if why := rep.Rows[1].Why; !strings.Contains(why, "as the accepted C001 does (raised KeyError -> raised TypeError)") {
		t.Errorf("P002's why = %q, want it to name the accepted change and its way", why)
	}
	if rep.Exit != 1 {
		t.Errorf("exit = %d, want 1 (P003 differs another way)", rep.Exit)
	}

	if diff := cmp.Diff([]string{"P002:fail"}, failing(run(same("P002", nil)))); diff != "" {
		t.Errorf("without the accepted witness row, failing rows (-want +got):\n%s", diff)
	}
}
