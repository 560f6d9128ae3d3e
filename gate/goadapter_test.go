package gate

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestGoTwinEndToEnd: the Go twin of the intervals example behaves as the
// Python one does, through the Go adapter (issue 5, "done means").
func TestGoTwinEndToEnd(t *testing.T) {
	const pkg = "github.com/premise-dev/premise/examples/intervals_go"
	tests := []struct {
		name     string
		target   string
		wantFail []string
		wantExit int
	}{
		{"base", pkg + ".MergeRanges", nil, 0},
		{"agent patch", pkg + "/agentpatch.MergeRanges", []string{"P004:fail", "P005:fail"}, 1},
	}
	var targets []string
	for _, tc := range tests {
		targets = append(targets, tc.target)
	}
	ctx := context.Background()
	a, err := NewGoAdapter(ctx, GoConfig{Dir: "../examples/intervals_go", Targets: targets, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := loadTable(t, "../examples/intervals_go/partitions.yaml")
			tab.Target = tc.target
			rep, err := (&Runner{Adapter: a, Budget: DefaultBudget, Seed: 1}).Run(ctx, tab)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantFail, failing(rep)); diff != "" {
				t.Errorf("failing rows (-want +got):\n%s", diff)
				for _, r := range rep.Rows {
					t.Log(r.ID, r.Status, r.Why)
				}
			}
			if rep.Exit != tc.wantExit {
				t.Errorf("exit = %d, want %d", rep.Exit, tc.wantExit)
			}
		})
	}
}

func TestGoAdapterRaises(t *testing.T) {
	const target = "github.com/premise-dev/premise/examples/intervals_go.MergeRanges"
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: "../examples/intervals_go", Targets: []string{target}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tests := []struct {
		name string
		args []any
		want Reply
	}{
		{"error with a Code field", []any{[]any{[]any{5, 1}}},
			Reply{ID: "x", Outcome: OutcomeRaised, Exc: &Exc{Class: "*intervals.RangeError", Code: "inverted", Message: "end 1 < start 5"}}},
		{"an argument the type rejects", []any{"not ranges"},
			Reply{ID: "x", Outcome: OutcomeRaised, Exc: &Exc{Class: "premise.DecodeError", Message: "argument 1 does not decode into [][2]int: json: cannot unmarshal string into Go value of type [][2]int"}}},
		{"empty is [] not null", []any{[]any{}}, Reply{ID: "x", Outcome: OutcomeReturned, Value: []any{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), Call{ID: "x", Target: target, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
