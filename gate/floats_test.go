package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/premise-dev/premise/validate"
)

// TestWholeFloatsReachPythonAsFloats: a row's 1.0 is a float in the
// Python worker, by a single call and through the runner's pipelined
// batch alike. encoding/json writes float64(1) as 1, which Python reads
// as an int: "naturalsize(1.0)" ran naturalsize(1), and a patch that
// dropped int() around it (humanize's "1.0 Byte") was never seen.
func TestWholeFloatsReachPythonAsFloats(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kinds.py"), []byte("def kind(x, *rest, **kw):\n    return [type(v).__name__ for v in (x,) + rest + tuple(kw.values())]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Call(context.Background(), Call{ID: "P1", Target: "kinds.kind", Args: []any{1.0, 2, []any{-0.0, 1.5}}, Kwargs: map[string]any{"k": 3.0}})
	if err != nil {
		t.Fatal(err)
	}
	got.Detail, got.Elapsed = "", 0
	want := []any{"float", "int", "list", "float"}
	if diff := replyDiff(t, Reply{ID: "P1", Outcome: OutcomeReturned, Value: want}, got); diff != "" {
		t.Errorf("one call (-want +got):\n%s", diff)
	}
	tab := &validate.Table{Version: 1, Target: "kinds.kind", Language: "python", Rows: []validate.Row{
		{ID: "P001", Cls: "whole", Kind: validate.KindBoundary, Relation: "a whole float stays a float", AssumptionIDs: []string{"A001"},
			Args: []any{100.0}, Contract: "result == ['float']"},
	}}
	rep, err := (&Runner{Adapter: a, Reruns: 2}).Run(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	if f := failing(rep); len(f) > 0 {
		t.Errorf("the table's 100.0 did not reach the worker as a float: %v %+v", f, rep.Rows)
	}
}
