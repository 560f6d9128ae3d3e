package evidence

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/validate"
)

func TestFilterRows(t *testing.T) {
	reg := &validate.Register{Version: 1, Items: []validate.Item{
		accepted("A001", "m.f", "`xs` arrives sorted", "xs[i-1]"),
		{ID: "A002", Symbol: "m.f", Precondition: "p", Evidence: "e", Status: validate.StatusRejected},
	}}
	base := validate.Row{Cls: "unsorted", Kind: "boundary", Inp: []any{3, 1, 2}, HasInp: true, Relation: "items out of order", AssumptionIDs: []string{"A001"}, Contract: "result == [1, 2, 3]"}
	mod := func(f func(*validate.Row)) validate.Row { r := base; f(&r); return r }
	tests := []struct {
		name string
		row  validate.Row
		want string // "" kept
	}{
		{name: "good", row: base},
		{name: "rejected assumption", row: mod(func(r *validate.Row) { r.AssumptionIDs = []string{"A001", "A002"} }), want: "cites A002, not an accepted assumption"},
		{name: "unknown assumption", row: mod(func(r *validate.Row) { r.AssumptionIDs = []string{"A009"} }), want: "cites A009, not an accepted assumption"},
		{name: "contract typo", row: mod(func(r *validate.Row) { r.Contract = "reslt == 1" }),
			want: "P001: contract \"reslt == 1\": ERROR: <input>:1:1: undeclared reference to 'reslt' (did you mean 'result'?) | reslt == 1 | ^"},
		{name: "short relation", row: mod(func(r *validate.Row) { r.Relation = "ok" }), want: `P001: relation "ok" is shorter than 8 characters; say what must hold`},
		{name: "bad kind", row: mod(func(r *validate.Row) { r.Kind = "edge" }), want: `P001: kind "edge" must be representative, boundary, invalid or property`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kept, dropped := FilterRows("m.f", []validate.Row{tc.row}, reg)
			got := ""
			if len(dropped) > 0 {
				got = dropped[0].Reason
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if (len(kept) == 1) != (tc.want == "") {
				t.Errorf("kept %d rows", len(kept))
			}
		})
	}
}
