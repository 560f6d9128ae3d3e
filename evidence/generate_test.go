package evidence

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/evidence/python"
	"github.com/premise-dev/premise/validate"
)

func accepted(id, symbol, pre, ev string) validate.Item {
	return validate.Item{ID: id, Symbol: symbol, Precondition: pre, Evidence: ev, Status: validate.StatusAccepted}
}

// Issue 4's acceptance: on examples/intervals, the static proposer's
// assumption (the patch removed the sort), accepted, yields rows in seed
// 004's P004 (unsorted), P005 (touching) and P009 (inverted) classes, and
// the result passes premise check.
func TestIntervalsExample(t *testing.T) {
	src, err := os.ReadFile("../examples/intervals/head/intervals/__init__.py")
	if err != nil {
		t.Fatal(err)
	}
	sig, err := python.SignatureOf(src, "merge_ranges")
	if err != nil {
		t.Fatal(err)
	}
	a := accepted("A001", "intervals.merge_ranges", "ranges arrive already sorted by start", "for start, end in ranges:")
	rows, err := Templates{}.Generate(context.Background(), Request{Target: "intervals.merge_ranges", Sig: sig, Assumptions: []validate.Item{a}})
	if err != nil {
		t.Fatal(err)
	}
	tb := &validate.Table{Version: 1, Target: "intervals.merge_ranges", Language: "python"}
	Merge(tb, rows)
	byCls := map[string]validate.Row{}
	for _, r := range tb.Rows {
		byCls[r.Cls] = r
	}
	for _, want := range []struct {
		cls, kind string
		inp       any
		reason    string
	}{
		{"disjoint_unsorted", validate.KindBoundary, []any{[]any{4, 6}, []any{0, 1}}, "seed 004's P004"},
		{"touching", validate.KindBoundary, []any{[]any{0, 2}, []any{2, 5}}, "seed 004's P005"},
		{"invalid_inverted", validate.KindInvalid, []any{[]any{5, 1}}, "seed 004's P009"},
		{"invalid_none", validate.KindInvalid, nil, "seed 004's P008"},
		{"empty", validate.KindBoundary, []any{}, "seed 004's P001"},
	} {
		r, ok := byCls[want.cls]
		if !ok {
			t.Errorf("no %s row (%s); classes: %v", want.cls, want.reason, classes(tb.Rows))
			continue
		}
		if r.Kind != want.kind || !r.HasInp || !cmp.Equal(r.Inp, want.inp) || !r.SameAsBase || r.Todo != "" {
			t.Errorf("%s row = %+v, want kind %s, inp %v, same_as_base, no todo (%s)", want.cls, r, want.kind, want.inp, want.reason)
		}
		if d := cmp.Diff([]string{"A001"}, r.AssumptionIDs); d != "" {
			t.Errorf("%s cites (-want +got):\n%s", want.cls, d)
		}
	}
	// What premise writes, premise reads back and checks.
	out, err := tb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := validate.ParseTable("partitions.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	reg := &validate.Register{Version: 1, Items: []validate.Item{a}}
	if rep := validate.Check(&validate.CheckInput{Register: reg, RegisterFile: "assumptions.yaml", Table: back, TableFile: "partitions.yaml"}); !rep.OK() {
		t.Errorf("check fails on generated rows: %v", rep.Findings)
	}
}

func classes(rows []validate.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Cls)
	}
	return out
}

func TestCategoryOf(t *testing.T) {
	tests := map[string]string{
		"ranges arrive already sorted by start": "sorted",
		"`xs` arrives sorted":                   "sorted",
		"the keys `k` are unique in the input; a repeated key silently keeps its last value": "unique",
		"`items` is non-empty": "non-empty",
		"`ranges` is not None": "non-nil",
		"`d` is non-zero":      "non-zero",
		"all datetimes share one timezone convention (all naive or all aware, in one zone)": "timezone",
		"`s` is a numeric string":                                     "numeric-string",
		"the sequences zipped in `zip(a, b)` have the same length":    "same-length",
		"`n` is longer than `k`; when len(n) == k the range is empty": "length",
		"values equal at the boundary of `a <= b` take the other branch than before (was `a < b`); equal bounds, such as touching ranges, are meant to be treated this way": "boundary",
		"the cache is single-tenant": "general",
	}
	for pre, want := range tests {
		if got := CategoryOf(pre).Name; got != want {
			t.Errorf("CategoryOf(%q) = %s, want %s", pre, got, want)
		}
	}
}

func gen(t *testing.T, sig *Signature, items ...validate.Item) []validate.Row {
	t.Helper()
	rows, err := Templates{}.Generate(context.Background(), Request{Target: "m.f", Sig: sig, Assumptions: items})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestTodoNeverMadeUp(t *testing.T) {
	py := func(src, local string) *Signature {
		s, err := python.SignatureOf([]byte(src), local)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name   string
		sig    *Signature
		item   validate.Item
		todo   string
		reason string
	}{
		{name: "timezone of no time", sig: py("def f(count: int):\n pass\n", "f"),
			item: accepted("A001", "m.f", "all datetimes share one timezone convention (all naive or all aware, in one zone)", "a - b"),
			todo: "no timezone class fits parameter count (int)", reason: "no parameter holds a time"},
		{name: "unknown parameter type", sig: py("def f(rows):\n pass\n", "f"),
			item: accepted("A001", "m.f", "`rows` is non-empty", "rows[0]"),
			todo: "no boundary values for parameter rows (no annotation, and its name says nothing)"},
		{name: "no signature", sig: nil,
			item: accepted("A001", "m.f", "`xs` arrives sorted", "xs[i-1]"),
			todo: "the signature of m.f could not be read"},
		{name: "sibling of unknown type", sig: py("def f(xs: list[int], cfg):\n pass\n", "f"),
			item: accepted("A001", "m.f", "`xs` is non-empty", "xs[0]"),
			todo: "no value for parameter cfg (no annotation) while xs_empty varies"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := gen(t, tc.sig, tc.item)
			if len(rows) == 0 {
				t.Fatal("no rows: a todo row is expected")
			}
			r := rows[0]
			if !strings.Contains(r.Todo, tc.todo) || r.HasInp || r.Args != nil {
				t.Errorf("row = %+v, want a todo containing %q and no input (%s)", r, tc.todo, tc.reason)
			}
		})
	}
}

// TestTimezoneRowsAreBuilt: the seed's naive-datetime assumption gets
// rows where the language carries times (Python's datetime expressions,
// Go's RFC 3339 text), on the parameter holding them whichever the
// precondition names: naive and aware values alone where the assumption
// holds, lists mixing them or two zones where it does not.
func TestTimezoneRowsAreBuilt(t *testing.T) {
	py := func(src string) *Signature {
		s, err := python.SignatureOf([]byte(src), "f")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const pre = "all datetimes share one timezone convention (all naive or all aware, in one zone)"
	// class -> the value's text, on the side of the precondition where a
	// decision keeps its rows: where it holds for an accepted one, where
	// it is violated for a rejected one.
	type want map[string]map[string]string
	tests := []struct {
		name string
		sig  *Signature
		want want
	}{
		{"python datetime", py("def f(label: str, when: datetime.datetime):\n pass\n"), want{
			validate.StatusAccepted: {"naive": "datetime.datetime(2024, 3, 1, 12, 0)", "aware_utc": "tzinfo=datetime.timezone.utc"},
			validate.StatusRejected: {"aware_offset": "hours=5, minutes=30"}}},
		{"python list of datetimes", py("def f(events: list[datetime]):\n pass\n"), want{
			validate.StatusAccepted: {"naive_list": "datetime.datetime(2024, 3, 1, 13, 30) ", "aware_list": "13, 30, tzinfo=datetime.timezone.utc"},
			validate.StatusRejected: {"mixed_naive_aware": "datetime.datetime(2024, 3, 1, 12, 0) ", "two_zones": "hours=5, minutes=30"}}},
		{"go time.Time", &Signature{Language: "go", Params: []Param{{Name: "n", Type: "int"}, {Name: "t", Type: "time.Time"}}}, want{
			validate.StatusAccepted: {"aware_utc": "2024-03-01T12:00:00Z"},
			validate.StatusRejected: {"aware_offset": "2024-03-01T17:30:00+05:30"}}},
		{"go slice of times", &Signature{Language: "go", Params: []Param{{Name: "ts", Type: "[]time.Time"}}}, want{
			validate.StatusAccepted: {"aware_list": "2024-03-01T13:30:00Z"},
			validate.StatusRejected: {"two_zones": "+05:30"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for decided, classes := range tc.want {
				it := accepted("A001", "m.f", pre, "a - b")
				it.Status = decided
				rows, err := Templates{}.Generate(context.Background(), Request{Target: "m.f", Sig: tc.sig, Assumptions: []validate.Item{it}, Decided: true})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				for _, r := range rows {
					if r.Todo != "" {
						t.Errorf("%s: a todo row %q where the language builds times", decided, r.Todo)
					}
					got[r.Cls] = fmt.Sprint(r.Args, r.Inp)
				}
				for cls, text := range classes {
					found := false
					for c, args := range got {
						if (c == cls || strings.HasSuffix(c, "_"+cls)) && strings.Contains(args, text) {
							found = true
						}
					}
					if !found {
						t.Errorf("%s: no %s row holding %q; rows %v", decided, cls, text, got)
					}
				}
			}
		})
	}
}

// TestTimezoneRowsKeepTheirSide: a call of two times takes the other
// time in the same convention where the assumption holds (a naive start
// with an aware end would be violated, and fail an accepted assumption's
// row on a correct patch), and in UTC beside an offset where it does not.
func TestTimezoneRowsKeepTheirSide(t *testing.T) {
	sig, err := python.SignatureOf([]byte("def f(start: datetime, end: datetime):\n pass\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	for _, decided := range []string{validate.StatusAccepted, validate.StatusRejected} {
		it := accepted("A001", "m.f", "all datetimes are naive or share one time zone", "end - start")
		it.Status = decided
		rows, err := Templates{}.Generate(context.Background(), Request{Target: "m.f", Sig: sig, Assumptions: []validate.Item{it}, Decided: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 {
			t.Fatalf("%s: no rows", decided)
		}
		for _, r := range rows {
			if len(r.Args) != 2 {
				t.Fatalf("%s %s: args %v", decided, r.Cls, r.Args)
			}
			a, b := fmt.Sprint(r.Args[0]), fmt.Sprint(r.Args[1])
			zone := func(s string) string {
				switch {
				case strings.Contains(s, "timedelta(hours=5"):
					return "+05:30"
				case strings.Contains(s, "tzinfo"):
					return "UTC"
				}
				return "naive"
			}
			same := zone(a) == zone(b)
			if decided == validate.StatusAccepted && !same || decided == validate.StatusRejected && same {
				t.Errorf("%s %s: start %s, end %s", decided, r.Cls, zone(a), zone(b))
			}
		}
	}
}

func TestRaisesWhenTheAssumptionSaysSo(t *testing.T) {
	sig := &Signature{Language: "python", Params: []Param{{Name: "s", Type: "str"}}}
	rows := gen(t, sig, accepted("A001", "m.f", "`s` is a numeric string; anything else raises ValueError", "int(s)"))
	var inv, other int
	for _, r := range rows {
		if r.Kind == validate.KindInvalid {
			inv++
			if r.Raises != "ValueError" || r.SameAsBase {
				t.Errorf("%s: raises %q same_as_base %v, want raises ValueError", r.Cls, r.Raises, r.SameAsBase)
			}
		} else {
			other++
			if !r.SameAsBase || r.Raises != "" {
				t.Errorf("%s: want same_as_base", r.Cls)
			}
		}
	}
	if inv == 0 || other == 0 {
		t.Errorf("%d invalid and %d other rows; want both", inv, other)
	}
}

func TestCombinedAcrossParams(t *testing.T) {
	sig, err := python.SignatureOf([]byte("def take(items: list[int], n: int, *, strict: bool = False):\n pass\n"), "take")
	if err != nil {
		t.Fatal(err)
	}
	rows := gen(t, sig, accepted("A001", "m.take", "`n` is within len(items)", "items[n]"))
	got := map[string]validate.Row{}
	for _, r := range rows {
		got[r.Cls] = r
	}
	r, ok := got["n_len"]
	if !ok {
		t.Fatalf("no n_len row; classes %v", classes(rows))
	}
	want := validate.Row{Cls: "n_len", Kind: "boundary", Args: []any{[]any{1, 2, 3}, 3}, Kwargs: map[string]any{"strict": false},
		Relation:      "n equal to len(items)",
		AssumptionIDs: []string{"A001"}, SameAsBase: true}
	if d := cmp.Diff(want, r); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, ok := got["n_len_plus_one"]; !ok {
		t.Errorf("no one-past-the-length row; classes %v", classes(rows))
	}
}

func TestMergeKeepsRowsAndNumbersNewOnes(t *testing.T) {
	sig := &Signature{Language: "python", Params: []Param{{Name: "ranges"}}}
	a := accepted("A001", "m.f", "ranges arrive already sorted by start", "for")
	tb := &validate.Table{Version: 1, Target: "m.f", Rows: []validate.Row{
		{ID: "P007", Cls: "handmade", Kind: "boundary", Inp: []any{}, HasInp: true, Relation: "a human wrote this", AssumptionIDs: []string{"A001"}, Contract: "result == []"},
	}}
	added := Merge(tb, gen(t, sig, a))
	if len(added) == 0 || added[0].ID != "P008" {
		t.Fatalf("first new row %v, want P008 after the existing P007", added)
	}
	if d := cmp.Diff("result == []", tb.Rows[0].Contract); d != "" || tb.Rows[0].ID != "P007" {
		t.Errorf("the existing row changed: %+v", tb.Rows[0])
	}
	n := len(tb.Rows)
	if again := Merge(tb, gen(t, sig, a)); len(again) != 0 || len(tb.Rows) != n {
		t.Errorf("a second run added %d rows; generating twice must add nothing", len(again))
	}
}

// Every row a template writes loads under the table schema: relations are
// long enough, classes unique per assumption, values JSON.
func TestEveryGeneratedRowLoads(t *testing.T) {
	sigs := map[string]*Signature{
		"python": {Language: "python", Params: []Param{
			{Name: "ranges"}, {Name: "xs", Type: "list[int]"}, {Name: "names", Type: "list[str]"}, {Name: "ws", Type: "list[float]"},
			{Name: "n", Type: "int"}, {Name: "r", Type: "float"}, {Name: "s", Type: "str"}, {Name: "flag", Type: "bool"},
			{Name: "d", Type: "dict"}, {Name: "opt", Type: "Optional[list[int]]"}, {Name: "when", Type: "datetime"},
		}},
		"go": {Language: "go", Params: []Param{
			{Name: "ranges", Type: "[][2]int"}, {Name: "xs", Type: "[]int"}, {Name: "n", Type: "int"}, {Name: "s", Type: "string"},
			{Name: "m", Type: "map[string]int"}, {Name: "p", Type: "*int"}, {Name: "t", Type: "time.Time"},
		}},
	}
	for langName, sig := range sigs {
		var items []validate.Item
		for i, p := range sig.Params {
			for j, c := range Categories {
				items = append(items, accepted(fmt.Sprintf("A%03d", 100*i+j+1), "m.f", fmt.Sprintf("`%s`: %s", p.Name, c.Doc), p.Name))
			}
		}
		tb := &validate.Table{Version: 1, Target: "m.f", Language: langName}
		Merge(tb, gen(t, sig, items...))
		out, err := tb.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := validate.ParseTable(langName+".yaml", out); err != nil {
			t.Errorf("%s: generated rows do not load: %v", langName, err)
		}
		if len(tb.Rows) < 100 {
			t.Errorf("%s: only %d rows", langName, len(tb.Rows))
		}
	}
}

// Two assumptions about the same parameter that want the same input share
// one row, as seed 004's P003 cites A001 and A002.
func TestMergeSharesRows(t *testing.T) {
	sig := &Signature{Language: "python", Params: []Param{{Name: "ranges"}}}
	a1 := accepted("A001", "m.f", "ranges arrive already sorted by start", "for")
	a2 := accepted("A002", "m.f", "equal bounds, such as touching ranges, are meant to be treated this way", "<=")
	tb := &validate.Table{Version: 1, Target: "m.f"}
	Merge(tb, gen(t, sig, a1, a2))
	var touching []validate.Row
	for _, r := range tb.Rows {
		if r.Cls == "touching" {
			touching = append(touching, r)
		}
	}
	if len(touching) != 1 || !cmp.Equal(touching[0].AssumptionIDs, []string{"A001", "A002"}) {
		t.Errorf("touching rows %+v, want one citing A001 and A002", touching)
	}
	n := len(tb.Rows)
	if again := Merge(tb, gen(t, sig, a1, a2)); len(again) != 0 || len(tb.Rows) != n {
		t.Errorf("a second run added %d rows", len(again))
	}
}

// TestFindings: the changes of one run become one register item per cause
// and way of differing (issue 25): a helper reached through three callers
// is one item naming them, not three; another way of differing is another
// item; a shrunk witness is shown first; a change no row can replay (a
// crash on one side) is left to the summary.
func TestFindings(t *testing.T) {
	ret := func(v any) *validate.Outcome { return &validate.Outcome{Outcome: validate.OutcomeReturned, Value: v} }
	raised := &validate.Outcome{Outcome: validate.OutcomeRaised, Class: "ValueError"}
	call := &validate.Call{Language: "python", Target: "m.x"}
	cs := []Change{
		{Symbol: "m.api_a", Cause: []string{"m._norm"}, Input: "('ab')", Call: call, BaseOutcome: ret("ab"), HeadOutcome: ret("AB"), Assumptions: []string{"A001"}},
		{Symbol: "m.api_b", Cause: []string{"m._norm"}, Input: "('xy', 1)", Call: call, BaseOutcome: ret("xy"), HeadOutcome: ret("XY")},
		{Symbol: "m.api_c", Cause: []string{"m._norm"}, Input: "('q')", Call: call, BaseOutcome: ret("q"), HeadOutcome: ret("Q"), Witness: true},
		{Symbol: "m.api_c", Cause: []string{"m._norm"}, Input: "('')", Call: call, BaseOutcome: ret(""), HeadOutcome: raised},
		{Symbol: "m.solo", Row: "E7", Class: "xs_unsorted", Input: "([2, 1])", Call: call, BaseOutcome: ret(1), HeadOutcome: ret(2), Assumptions: []string{"A001", "A002"}},
		{Symbol: "m.solo", Row: "E7", Class: "witness", Witness: true, Input: "([])", Call: call, BaseOutcome: ret(1), HeadOutcome: raised, Assumptions: []string{"A001", "A002"}},
		{Symbol: "m.solo", Row: "E7", Class: "witness", Witness: true, Input: "([1, 0])", Call: call, BaseOutcome: ret(1), HeadOutcome: ret(3), Assumptions: []string{"A001", "A002"}},
		{Symbol: "m.sorted", Class: "sorted", Input: "([1, 2])", Call: call, BaseOutcome: ret(1), HeadOutcome: ret(2), Assumptions: []string{"A001"}},
		{Symbol: "m.crash", Input: "(1)", BaseOutcome: ret(1)},
	}
	var got []string
	reg := &validate.Register{Items: []validate.Item{
		{ID: "A001", Precondition: "`xs` arrives sorted"},
		{ID: "A002", Precondition: "`xs` is non-empty"},
	}}
	for _, f := range Findings(cs, reg) {
		var ins []string
		for _, w := range f.Witnesses {
			ins = append(ins, w.Input)
		}
		got = append(got, fmt.Sprintf("%s | %s | callers %v | %v | %v", f.Symbol, f.Way, f.Callers, f.Assumptions, ins))
	}
	want := []string{
		// Shrunk from an unsorted row, but differing another way: no class.
		"m.solo | returned -> raised ValueError | callers [] | [] | [solo([])]",
		// api_b's input came from no assumption's rows: not every input
		// violates A001, so accepting it explains nothing.
		"m._norm | returns another value | callers [m.api_c m.api_a m.api_b] | [] | [api_c('q') api_a('ab') api_b('xy', 1)]",
		// Every input (the shrunk witness is of the class of its row) is
		// unsorted: A001 explains it; A002 (non-empty) does not.
		"m.solo | returns another value | callers [] | [A001] | [solo([1, 0]) solo([2, 1])]",
		"m._norm | returned -> raised ValueError | callers [m.api_c] | [] | [api_c('')]",
		// A sorted input does not violate "sorted".
		"m.sorted | returns another value | callers [] | [] | [sorted([1, 2])]",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Findings (-want +got):\n%s", d)
	}
}
