package pipeline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/validate"
)

// After review the draft (and the PR comment made of it) says every item
// is decided, and names the decided item beside each change it lists: it
// once ended "Decide each item" under "the gate holds", and listed the
// accepted change as one "no assumption explains", with no word of its
// decision (bench/review, fresh6, every forwards case).
func TestDraftAfterReview(t *testing.T) {
	change := evidence.Change{Symbol: "glob.Match", Input: `("a**", "a")`, Base: "returned false", Head: "returned true", Item: "C001"}
	reg := &validate.Register{Items: []validate.Item{
		{ID: "C001", Symbol: "glob.Match", Precondition: "behaviour changed: returns another value", Evidence: `Match("a**", "a")`, Status: validate.StatusAccepted, Way: "returns another value"},
		{ID: "A001", Symbol: "glob.Match", Precondition: "the pattern is not empty", Evidence: "if p == \"\"", Status: validate.StatusRejected},
	}}
	sum := &Summary{Verdict: VerdictHolds, Symbols: 1, Unexplained: []BehaviorChange{change},
		Gate: &GateFigures{Rows: 1, Pass: 1}}

	var b bytes.Buffer
	renderDraft(&b, reg, sum)
	got := b.String()
	for _, want := range []string{
		"**Gate: the gate holds (exit 0)**",
		`Match("a**", "a"): base returned false, head returned true (C001, accepted)`,
		"Every item is decided. To change a decision:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the draft lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Decide each item") {
		t.Errorf("the draft asks to decide items already decided:\n%s", got)
	}

	// Before review the draft still asks, naming what awaits.
	reg.Items[0].Status = validate.StatusProposed
	sum.Gate, sum.Verdict = nil, VerdictAwaiting
	b.Reset()
	renderDraft(&b, reg, sum)
	if got := b.String(); !strings.Contains(got, "Decide each item (C001): `premise accept C001`") || !strings.Contains(got, "(C001, proposed)") {
		t.Errorf("before review the draft does not ask for C001's decision:\n%s", got)
	}
}
