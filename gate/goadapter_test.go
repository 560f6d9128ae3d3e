package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestGoTwinEndToEnd: the Go twin of the intervals example behaves as the
// Python one does, through the Go adapter (issue 5, "done means").
func TestGoTwinEndToEnd(t *testing.T) {
	t.Parallel()
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
			Reply{ID: "x", Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.DecodeError", Message: "argument 1 does not decode into [][2]int: json: cannot unmarshal string into Go value of type [][2]int"}}},
		{"empty is [] not null", []any{[]any{}}, Reply{ID: "x", Outcome: OutcomeReturned, Value: []any{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), Call{ID: "x", Target: target, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			got.Elapsed = 0 // timing, not behaviour
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

const goSubject = `package subj

import (
	"fmt"
	"os"
	"time"
)

type codedErr struct{ c int }

func (e codedErr) Error() string { return fmt.Sprintf("coded %d", e.c) }
func (e codedErr) Code() int     { return e.c }

func Panic(n int) int        { panic(fmt.Sprintf("boom %d", n)) }
func Exit() int              { os.Exit(3); return 0 }
func Loop() int              { for { time.Sleep(time.Hour) } }
func Coded(n int) (int, error) { return 0, codedErr{n} }
func Flood() string {
	b := make([]byte, 8<<20)
	os.Stdout.Write(b)
	return "done"
}
func Pair(a int, b string) (int, string) { return a, b }
`

// TestGoAdapterFaults: a panic is a raise of class "panic"; os.Exit is a
// crash and an endless loop a timeout, each within the timeout plus a
// second, and a fresh worker answers the next call.
func TestGoAdapterFaults(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/subj\n\ngo 1.21\n", "subj.go": goSubject} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var targets []string
	for _, f := range []string{"Panic", "Exit", "Loop", "Coded", "Flood", "Pair"} {
		targets = append(targets, "example.com/subj."+f)
	}
	// Long enough for 8 MiB of flood to drain on a loaded machine; the
	// endless loop still has to end within it plus a second.
	const timeout = 5 * time.Second
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: targets, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tests := []struct {
		fn   string
		args []any
		want Reply
	}{
		{"Panic", []any{7}, Reply{Outcome: OutcomeRaised, Exc: &Exc{Class: "panic", Message: "boom 7"}}},
		{"Exit", nil, Reply{Outcome: OutcomeCrashed}},
		{"Loop", nil, Reply{Outcome: OutcomeTimeout}},
		{"Coded", []any{42}, Reply{Outcome: OutcomeRaised, Exc: &Exc{Class: "subj.codedErr", Code: num("42"), Message: "coded 42"}}},
		{"Flood", nil, Reply{Outcome: OutcomeReturned, Value: "done"}},
		{"Pair", []any{1, "a"}, Reply{Outcome: OutcomeReturned, Value: []any{num("1"), "a"}}},
	}
	for _, tc := range tests {
		t.Run(tc.fn, func(t *testing.T) {
			start := time.Now()
			got, err := a.Call(context.Background(), Call{ID: "x", Target: "example.com/subj." + tc.fn, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if el := time.Since(start); el > timeout+time.Second {
				t.Errorf("took %s", el)
			}
			got.ID, got.Detail, got.Elapsed = "", "", 0
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/subj.Missing"}}); err == nil || !strings.Contains(err.Error(), "Missing") {
		t.Errorf("a target that does not build: err = %v, want one naming it", err)
	}
}

// TestGoHarnessBuildsInOldModules: a module whose go.mod says go 1.15 (as
// many real ones do) builds the harness: it must not use language features
// the module's version forbids (any, generics).
func TestGoHarnessBuildsInOldModules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/old\n\ngo 1.15\n",
		"old.go": "package old\n\nfunc Double(n int) int { return 2 * n }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/old.Double"}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("harness for a go 1.15 module: %v", err)
	}
	defer a.Close()
	rep, err := a.Call(context.Background(), Call{ID: "c1", Target: "example.com/old.Double", Args: []any{21}})
	if err != nil || rep.Outcome != OutcomeReturned {
		t.Fatalf("Double(21) = %+v, %v", rep, err)
	}
}
