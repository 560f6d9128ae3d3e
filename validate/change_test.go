package validate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func finding(symbol, way, input string) ChangeFinding {
	return ChangeFinding{Symbol: symbol, Way: way, Source: "evidence", Witnesses: []Witness{{
		Input: input, Call: Call{Target: symbol, Args: []any{1}},
		Base: &Outcome{Outcome: OutcomeReturned, Value: 1}, Head: &Outcome{Outcome: OutcomeRaised, Class: "ValueError"},
	}}}
}

// TestMergeChanges: change items survive re-proposing as assumptions do
// (issue 25): a decision is never lost, a decided item keeps the witness
// it was decided on, a change no longer seen is stale and comes back when
// seen again, new ones get the next C-id, and assumptions are untouched.
func TestMergeChanges(t *testing.T) {
	reg := &Register{Version: 1, Items: []Item{{ID: "A001", Symbol: "m.f", Precondition: "x > 0", Evidence: "if x:", Status: StatusAccepted}}}
	reg, st := MergeChanges(reg, []ChangeFinding{finding("m.f", "returned -> raised ValueError", "f(1)"), finding("m.g", "returns another value", "g(2)")})
	if st.Added != 2 || reg.Items[1].ID != "C001" || reg.Items[2].ID != "C002" || reg.Items[1].Status != StatusProposed {
		t.Fatalf("first merge: %+v %+v", st, reg.Items)
	}
	reg.Items[1].Status, reg.Items[1].Note = StatusRejected, "a regression"
	// The next run shrinks f's witness further and no longer sees g.
	reg, st = MergeChanges(reg, []ChangeFinding{finding("m.f", "returned -> raised ValueError", "f(0)"), finding("m.h", "returns another value", "h(3)")})
	got := []string{}
	for _, it := range reg.Items {
		got = append(got, strings.Join([]string{it.ID, it.Symbol, it.Status, it.Note, map[bool]string{true: "stale"}[it.Stale], witnessText(it.Witnesses)}, "|"))
	}
	want := []string{
		"A001|m.f|accepted|||no witness",
		"C001|m.f|rejected|a regression||f(1): base returned 1, head raised ValueError",
		"C002|m.g|proposed||stale|g(2): base returned 1, head raised ValueError",
		"C003|m.h|proposed|||h(3): base returned 1, head raised ValueError",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("second merge (-want +got):\n%s", d)
	}
	if st != (MergeStats{Kept: 1, Added: 1, Stale: 1}) {
		t.Errorf("stats = %+v", st)
	}
	reg, st = MergeChanges(reg, []ChangeFinding{finding("m.g", "returns another value", "g(2)")})
	if !reg.Items[1].Stale || reg.Items[2].Stale || st.Revived != 1 {
		t.Errorf("third merge: C001 stale %v, C002 stale %v, %+v", reg.Items[1].Stale, reg.Items[2].Stale, st)
	}
	if reg.Items[1].Status != StatusRejected || reg.Items[1].Note != "a regression" {
		t.Errorf("a stale item lost its decision: %+v", reg.Items[1])
	}
}

// TestAwaiting: a proposed change a rejected or unreviewed assumption's
// rows found awaits a decision; one an accepted assumption's rows found is
// explained by it; stale and decided items await nothing.
func TestAwaiting(t *testing.T) {
	reg := &Register{Items: []Item{
		{ID: "A001", Status: StatusAccepted},
		{ID: "A002", Status: StatusRejected},
		{ID: "A003", Status: StatusProposed},
		{ID: "C001", Status: StatusProposed, Assumptions: []string{"A001"}},
		{ID: "C002", Status: StatusProposed, Assumptions: []string{"A002"}},
		{ID: "C003", Status: StatusProposed},
		{ID: "C004", Status: StatusProposed, Stale: true},
		{ID: "C005", Status: StatusAccepted},
	}}
	if d := cmp.Diff([]string{"A003", "C002", "C003"}, reg.Awaiting()); d != "" {
		t.Errorf("Awaiting (-want +got):\n%s", d)
	}
}

// TestChangeItemsRoundTrip: a register with a change item is written and
// read back the same; a change item without witnesses, or an assumption
// carrying a change's fields, is refused with its line.
func TestChangeItemsRoundTrip(t *testing.T) {
	reg, _ := MergeChanges(&Register{Version: 1, PatchRef: "main...HEAD"}, []ChangeFinding{finding("m.f", "returned -> raised ValueError", "f(1)")})
	data, err := reg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseRegister("a.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if d := cmp.Diff(reg.Items[0].Witnesses, back.Items[0].Witnesses); d != "" {
		t.Errorf("witnesses after a round trip (-want +got):\n%s", d)
	}
	// A real witness (markupsafe's striptags) carried the text "<<", which
	// YAML reads as a merge key unless it is quoted.
	merge, _ := MergeChanges(&Register{Version: 1}, []ChangeFinding{finding("m.f", "w", "f('<<')")})
	merge.Items[0].Witnesses[0].Call.Kwargs = map[string]any{"<<": "<<", "$probes": []any{[]any{"<<"}}}
	if data, err = merge.Marshal(); err != nil {
		t.Fatal(err)
	}
	if back, err = ParseRegister("a.yaml", data); err != nil {
		t.Fatalf("a witness holding << does not read back: %v\n%s", err, data)
	}
	if d := cmp.Diff(merge.Items[0].Witnesses, back.Items[0].Witnesses); d != "" {
		t.Errorf("<< after a round trip (-want +got):\n%s", d)
	}
	for _, bad := range []struct{ text, want string }{
		{"version: 1\nitems:\n  - {id: C001, symbol: m.f, precondition: p, evidence: e, status: proposed, way: w}\n", "a.yaml:3: C001: a change item needs at least one witness"},
		{"version: 1\nitems:\n  - {id: A001, symbol: m.f, precondition: p, evidence: e, status: proposed, way: w}\n", "a.yaml:3: A001: way, callers and witnesses belong to change items"},
		{"version: 1\nitems:\n  - {id: B001, symbol: m.f, precondition: p, evidence: e, status: proposed}\n", `id "B001" must be A (an assumption) or C (a change)`},
	} {
		if _, err := ParseRegister("a.yaml", []byte(bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseRegister(%q) = %v, want %q", bad.text, err, bad.want)
		}
	}
}

// TestOutcomeMatchesAVaryingValue: an outcome that varies from run to run
// matches any returned value, and nothing else; a pinned one matches its
// value alone (issue 25: an accepted random draw holds on the next draw).
func TestOutcomeMatchesAVaryingValue(t *testing.T) {
	varies := &Outcome{Outcome: OutcomeReturned, Varies: true}
	pinned := &Outcome{Outcome: OutcomeReturned, Value: 0.25}
	for _, c := range []struct {
		o       *Outcome
		outcome string
		value   any
		class   string
		want    bool
	}{
		{varies, OutcomeReturned, 0.25, "", true},
		{varies, OutcomeReturned, 0.75, "", true},
		{varies, OutcomeReturned, nil, "", true},
		{varies, OutcomeRaised, nil, "ValueError", false},
		{varies, OutcomeTimeout, nil, "", false},
		{pinned, OutcomeReturned, 0.25, "", true},
		{pinned, OutcomeReturned, 0.75, "", false},
	} {
		if got := c.o.Matches(c.outcome, c.value, c.class); got != c.want {
			t.Errorf("%s matches %s %v %s: got %v, want %v", c.o, c.outcome, c.value, c.class, got, c.want)
		}
	}
	if got, want := varies.String(), "returned a value that varies from run to run"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
