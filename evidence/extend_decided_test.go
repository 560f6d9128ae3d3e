package evidence

import (
	"context"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/python"
	"github.com/premise-dev/premise/validate"
)

// Issue 25, item 2: what an assumption's decision writes. Accepted, the
// precondition is legitimate: rows test where it still holds. Rejected,
// the patch must not rely on it: rows violate it and pin the base.
func TestDecidedRows(t *testing.T) {
	src, err := os.ReadFile("../examples/intervals/head/intervals/__init__.py")
	if err != nil {
		t.Fatal(err)
	}
	sig, err := python.SignatureOf(src, "merge_ranges")
	if err != nil {
		t.Fatal(err)
	}
	sorted := func(status, note string) validate.Item {
		return validate.Item{ID: "A001", Symbol: "intervals.merge_ranges", Precondition: "ranges arrive already sorted by start",
			Evidence: "for start, end in ranges:", Status: status, Note: note}
	}
	for _, tc := range []struct {
		name    string
		item    validate.Item
		want    []string // classes
		raises  string
		reason  string
		notSame bool
	}{
		{name: "accepted", item: sorted(validate.StatusAccepted, ""),
			want:   []string{"disjoint_sorted", "empty", "same_start", "single", "touching"},
			reason: "the edge where the ranges are still sorted; an unsorted input is the callers' to avoid"},
		{name: "rejected", item: sorted(validate.StatusRejected, "callers pass ranges in any order"),
			want:   []string{"disjoint_unsorted", "invalid_mixed_types", "nested_unsorted", "overlap_unsorted", "reversed", "touching_unsorted"},
			reason: "inputs that violate it, where a patch relying on it differs from the base"},
		{name: "accepted naming an exception", item: sorted(validate.StatusAccepted, "an unsorted list raises ValueError"),
			want: []string{"disjoint_sorted", "disjoint_unsorted", "empty", "invalid_mixed_types", "nested_unsorted", "overlap_unsorted",
				"reversed", "same_start", "single", "touching", "touching_unsorted"},
			raises: "ValueError", reason: "the reviewer named the exception: the violating rows must raise it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := Templates{}.Generate(context.Background(), Request{Target: "intervals.merge_ranges", Sig: sig,
				Assumptions: []validate.Item{tc.item}, Decided: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, r.Cls)
				if r.Decision != tc.item.Status || r.Todo != "" {
					t.Errorf("%s: decision %q todo %q, want %s and no todo", r.Cls, r.Decision, r.Todo, tc.item.Status)
				}
				violates := Violates(tc.item.Precondition, r.Cls)
				switch {
				case violates && tc.raises != "":
					if r.Raises != tc.raises || r.SameAsBase || r.Kind != validate.KindInvalid {
						t.Errorf("%s: raises %q same_as_base %v kind %s, want an invalid row raising %s", r.Cls, r.Raises, r.SameAsBase, r.Kind, tc.raises)
					}
				case !r.SameAsBase || r.Raises != "" || r.Kind == validate.KindRepresentative:
					t.Errorf("%s: same_as_base %v raises %q kind %s, want a boundary or invalid row pinning the base", r.Cls, r.SameAsBase, r.Raises, r.Kind)
				}
			}
			sort.Strings(got)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("classes (-want +got) (%s):\n%s", tc.reason, d)
			}
			// What premise writes, premise reads back and checks.
			tb := &validate.Table{Version: 1, Target: "intervals.merge_ranges", Language: "python"}
			Merge(tb, rows)
			out, err := tb.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := validate.ParseTable("partitions.yaml", out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			reg := &validate.Register{Version: 1, Items: []validate.Item{tc.item}}
			if rep := validate.Check(&validate.CheckInput{Register: reg, RegisterFile: "assumptions.yaml", Table: back, TableFile: "partitions.yaml"}); !rep.OK() {
				t.Errorf("check fails on the rows: %v", rep.Findings)
			}
		})
	}
}

// A string is a sequence: "s arrives sorted", rejected on a function of
// a string, is kept by rows of strings out of order (once, no class of a
// string lay on either side, and the decision stayed a todo no row kept).
func TestDecidedRowsOfAString(t *testing.T) {
	sig, err := python.SignatureOf([]byte("def codex(s: str) -> str:\n    return s\n"), "codex")
	if err != nil {
		t.Fatal(err)
	}
	it := validate.Item{ID: "A001", Symbol: "m.codex", Precondition: "`s` arrives sorted", Status: validate.StatusRejected}
	rows, err := Templates{}.Generate(context.Background(), Request{Target: "m.codex", Sig: sig, Assumptions: []validate.Item{it}, Decided: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		if r.Todo != "" {
			t.Fatalf("a todo row: %s", r.Todo)
		}
		if !r.SameAsBase {
			t.Errorf("%s: does not pin the base", r.Cls)
		}
		got = append(got, r.Cls)
	}
	sort.Strings(got)
	if d := cmp.Diff([]string{"text_reversed", "text_unsorted"}, got); d != "" {
		t.Errorf("classes (-want +got): strings out of order violate it:\n%s", d)
	}
}

func TestViolates(t *testing.T) {
	for _, tc := range []struct {
		pre, cls string
		want     bool
		reason   string
	}{
		{"ranges arrive already sorted by start", "disjoint_unsorted", true, ""},
		{"ranges arrive already sorted by start", "ranges_touching_unsorted", true, "a class named after its parameter"},
		{"ranges arrive already sorted by start", "touching", false, "touching ranges in order are sorted"},
		{"`xs` is not None", "invalid_none", true, "seed 004's invalid_none is null"},
		{"`xs` is not None", "xs_none", true, ""},
		{"`xs` is non-empty", "single", false, ""},
		{"`n` is non-zero", "n_zero", true, ""},
		{"values where `start` == `out[-1][1]` now take the other branch than before; the patch means equality to be treated the new way", "touching", true, "the boundary the patch moved"},
		{"the result is cached", "invalid_none", false, "a category that names no sides violates nothing it can tell"},
	} {
		if got := Violates(tc.pre, tc.cls); got != tc.want {
			t.Errorf("Violates(%q, %q) = %v, want %v %s", tc.pre, tc.cls, got, tc.want, tc.reason)
		}
	}
}

// A decision changed later replaces the rows premise wrote for it; rows a
// human wrote are kept.
func TestRedecidedDropsOldRows(t *testing.T) {
	tb := &validate.Table{Rows: []validate.Row{
		{ID: "P001", AssumptionIDs: []string{"A001"}, Decision: validate.StatusAccepted},
		{ID: "P002", AssumptionIDs: []string{"A001"}},
		{ID: "P003", AssumptionIDs: []string{"C001"}, Decision: validate.StatusAccepted},
		{ID: "P004", AssumptionIDs: []string{"A002"}, Decision: validate.StatusAccepted},
		{ID: "P005", AssumptionIDs: []string{"A002", "A003"}, Decision: validate.StatusAccepted},
		{ID: "P006", AssumptionIDs: []string{"A002", "A004"}, Decision: validate.StatusAccepted},
	}}
	redecided(tb, map[string][]validate.Item{"m.f": {
		{ID: "A001", Status: validate.StatusRejected},
		{ID: "A002", Status: validate.StatusAccepted},
		{ID: "A003", Status: validate.StatusRejected},
		{ID: "A004", Status: validate.StatusAccepted},
	}})
	var ids []string
	for _, r := range tb.Rows {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"P002", "P003", "P004", "P006"}) {
		t.Errorf("rows kept %v, want P002 (a human's), P003 (a change's), P004 and P006 (still accepted); P005, two assumptions' row, one of them now rejected, goes", ids)
	}
}

// TestDecidedRowsTakeTheWitnessValues: a parameter no template types
// (seq, unannotated) takes the value the evidence's witness ran it with
// while the other varies, instead of a todo the register check refuses
// (more-itertools' sliced).
func TestDecidedRowsTakeTheWitnessValues(t *testing.T) {
	sig := &Signature{Language: "python", Params: []Param{{Name: "seq"}, {Name: "n", Type: "int"}}}
	it := validate.Item{ID: "A001", Symbol: "m.sliced", Precondition: "`n >= 0` (other inputs now raise ValueError)",
		Evidence: "if n < 0:", Status: validate.StatusRejected}
	for _, tc := range []struct {
		typical []any
		todo    bool
	}{{nil, true}, {[]any{"abc", 2}, false}} {
		rows, err := Templates{}.Generate(context.Background(), Request{Target: "m.sliced", Sig: sig,
			Assumptions: []validate.Item{it}, Decided: true, Typical: tc.typical})
		if err != nil {
			t.Fatal(err)
		}
		todos := 0
		for _, r := range rows {
			if r.Todo != "" {
				todos++
				continue
			}
			if args, _ := r.CallArgs(); len(args) != 2 || args[0] != "abc" {
				t.Errorf("typical %v: row %s args %v, want seq = \"abc\"", tc.typical, r.Cls, args)
			}
		}
		if (todos > 0) != tc.todo || len(rows) == 0 {
			t.Errorf("typical %v: %d rows, %d todo; want todo %v", tc.typical, len(rows), todos, tc.todo)
		}
	}
}

// Issue 25: a rejected "error-accepted" assumption writes rows from the
// inputs the evidence saw the base refuse, but an input whose change the
// reviewer accepted as intended is the reviewer's decision on that very
// input: no row demands the base's refusal there (it would fail the head
// the reviewer just accepted), and when every such input is decided so the
// todo names the changes the decision disagrees with.
func TestRefusedRowsLeaveDecidedInputsToTheirChange(t *testing.T) {
	const sym = "lib.roman_range"
	witness := func(args []any, head *validate.Outcome) validate.Witness {
		return validate.Witness{Input: "roman_range(...)", Call: validate.Call{Target: sym, Args: args},
			Base: &validate.Outcome{Outcome: validate.OutcomeRaised, Class: "ValueError"}, Head: head}
	}
	returned := &validate.Outcome{Outcome: validate.OutcomeReturned, Value: []any{"VIII", "VII"}}
	overflow := &validate.Outcome{Outcome: validate.OutcomeRaised, Class: "OverflowError"}
	a := validate.Item{ID: "A001", Symbol: sym, Status: validate.StatusRejected,
		Precondition: "inputs where `stop < 1`, which the base refused, are now accepted"}
	reg := &validate.Register{Items: []validate.Item{
		a,
		{ID: "C001", Symbol: sym, Status: validate.StatusAccepted, Witnesses: []validate.Witness{witness([]any{7, 8, -1}, returned)}},
		{ID: "C002", Symbol: sym, Status: validate.StatusAccepted, Witnesses: []validate.Witness{witness([]any{7, 1, -1}, overflow)}},
		{ID: "C003", Symbol: sym, Status: validate.StatusProposed, Witnesses: []validate.Witness{witness([]any{9, 8, -1}, returned)}},
		{ID: "C004", Symbol: sym, Status: validate.StatusRejected, Witnesses: []validate.Witness{witness([]any{2, 8, -1}, returned)}},
	}}
	rows, conflicts := refusedRows(reg, sym, a)
	var got [][]any
	for _, r := range rows {
		got = append(got, r.Args)
		if r.Expect == nil || r.Expect.Outcome != validate.OutcomeRaised || r.Expect.Class != "ValueError" {
			t.Errorf("row on %v pins %v, want the base's refusal", r.Args, r.Expect)
		}
	}
	if want := [][]any{{9, 8, -1}, {2, 8, -1}}; !cmp.Equal(got, want) {
		t.Errorf("rows on %v, want %v (the undecided change's input and the one rejected alike)", got, want)
	}
	if want := []string{"C001", "C002"}; !cmp.Equal(conflicts, want) {
		t.Errorf("conflicts %v, want %v", conflicts, want)
	}

	reg.Items = reg.Items[:3]
	rows, conflicts = refusedRows(reg, sym, a)
	if len(rows) != 0 {
		t.Errorf("rows %v on inputs the reviewer accepted the head's outcome on", rows)
	}
	todo := conflictTodo(a, conflicts)
	for _, want := range []string{"A001 is rejected", "accepted as intended (C001, C002)", "decide A001 again"} {
		if !strings.Contains(todo, want) {
			t.Errorf("todo %q does not say %q", todo, want)
		}
	}
}

// Issue 25: a decided assumption about a function the head adds has no
// base to defer to. Its same_as_base rows would error on the base on every
// run (the gate failed, naming rows that "pass on base"); they become one
// todo that says what to write, and its other rows stay.
func TestDecidedRowsOfAFunctionTheHeadAdds(t *testing.T) {
	const sym = "example.com/j.newInvalidCharacterError"
	d := &diffparse.Result{Files: []diffparse.File{{Path: "j.go", Symbols: []diffparse.Symbol{
		{Name: sym, Change: "added"}, {Name: "example.com/j.parse", Change: "modified"}}}}}
	added := AddedSymbols(d)
	if !added[sym] || added["example.com/j.parse"] || len(AddedSymbols(nil)) != 0 {
		t.Fatalf("addedSymbols = %v, want only %s", added, sym)
	}
	items := []validate.Item{
		{ID: "A001", Symbol: sym, Status: validate.StatusRejected, Precondition: "`prefix` is non-empty"},
		{ID: "A002", Symbol: sym, Status: validate.StatusAccepted, Precondition: "`n` is at least 0"},
	}
	rows := []validate.Row{
		{Cls: "prefix_empty", Kind: validate.KindBoundary, Args: []any{"", "abc"}, SameAsBase: true, AssumptionIDs: []string{"A001"}, Decision: validate.StatusRejected},
		{Cls: "prefix_blank", Kind: validate.KindBoundary, Args: []any{" ", "abc"}, SameAsBase: true, AssumptionIDs: []string{"A001"}, Decision: validate.StatusRejected},
		{Cls: "n_negative", Kind: validate.KindInvalid, Args: []any{"a", -1}, Raises: "ValueError", AssumptionIDs: []string{"A002"}, Decision: validate.StatusAccepted},
	}
	got := newOnHead(sym, items, rows)
	if len(got) != 2 {
		t.Fatalf("got %d rows, want the todo of A001 and A002's invalid row: %+v", len(got), got)
	}
	todo := got[0]
	if todo.Todo == "" || todo.SameAsBase || len(todo.Args) != 0 || !slices.Equal(todo.AssumptionIDs, []string{"A001"}) || todo.Decision != validate.StatusRejected || todo.Target != sym {
		t.Errorf("A001's row = %+v, want one todo carrying its decision", todo)
	}
	for _, want := range []string{sym + " is new on the head", "violates A001", "what the head must do"} {
		if !strings.Contains(todo.Todo, want) {
			t.Errorf("todo %q does not say %q", todo.Todo, want)
		}
	}
	if got[1].Raises != "ValueError" || got[1].Todo != "" {
		t.Errorf("A002's row = %+v, want it kept", got[1])
	}
	// check tells the reviewer to pin the head's own outcome: deferring to
	// the base is what cannot work here.
	todo.ID = "P001"
	rep := validate.Check(&validate.CheckInput{Register: &validate.Register{Items: items},
		Table: &validate.Table{Version: 1, Language: "go", Rows: []validate.Row{todo}}})
	var msg string
	for _, f := range rep.Findings {
		if f.ID == "P001" {
			msg = f.Msg
		}
	}
	if !strings.Contains(msg, "expect: what the head must do there") || strings.Contains(msg, "same_as_base: true") {
		t.Errorf("check says %q, want it to ask for expect, not same_as_base", msg)
	}
}
