package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A worker in another language: here a shell-free Python script that speaks
// the protocol on stdin/stdout, as any exec worker would.
const execWorker = `import sys, json
for line in sys.stdin:
    c = json.loads(line)
    xs = c["args"][0]
    if xs is None:
        r = {"id": c["id"], "outcome": "raised", "exc": {"class": "TypeError", "code": None, "message": "none"}}
    else:
        r = {"id": c["id"], "outcome": "returned", "value": sorted(xs)}
    sys.stdout.write(json.dumps(r) + "\n")
    sys.stdout.flush()
`

func TestExecAdapter(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "worker.py")
	if err := os.WriteFile(script, []byte(execWorker), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewExecAdapter(ExecConfig{Command: []string{"python3", script}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Call(context.Background(), Call{ID: "P1", Target: "sort", Args: []any{[]any{3, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	want := Reply{ID: "P1", Outcome: OutcomeReturned, Value: []any{num("1"), num("3")}}
	got.Elapsed = 0 // timing, not behaviour
	if diff := replyDiff(t, want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got, err = a.Call(context.Background(), Call{ID: "P2", Target: "sort", Args: []any{nil}})
	if err != nil || got.Outcome != OutcomeRaised || got.Exc.Class != "TypeError" {
		t.Errorf("got %+v, %v; want a TypeError raise", got, err)
	}
}
