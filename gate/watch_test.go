package gate

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

const watchedPy = `def clamp(x, hi):
    if x >= hi:
        return hi
    y = x * 2
    return y // 2


def other(x):
    return clamp(x, 10)
`

// TestPythonWatchReportsLinesRun: a watched call's reply says which of the
// watched lines ran, so evidence can tell a row that executed the changed
// line from one that did not; lines outside the ranges and unwatched
// files are not reported, and a call with nothing watched carries none.
func TestPythonWatchReportsLinesRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "watched.py")
	if err := os.WriteFile(file, []byte(watchedPy), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 5 * time.Second,
		Watch: Watch{file: {{From: 1, To: 5}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		call Call
		want []int
	}{
		{Call{ID: "W1", Target: "watched.clamp", Args: []any{12, 10}}, []int{2, 3}},
		{Call{ID: "W2", Target: "watched.clamp", Args: []any{3, 10}}, []int{2, 4, 5}},
		// other's own line 9 is outside the ranges: only clamp's show.
		{Call{ID: "W3", Target: "watched.other", Args: []any{1}}, []int{2, 4, 5}},
	} {
		r, err := a.Call(ctx, tc.call)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != OutcomeReturned {
			t.Fatalf("%s: %s %s", tc.call.ID, r.Outcome, r.Detail)
		}
		if got := r.Lines[file]; !reflect.DeepEqual(got, tc.want) || len(r.Lines) != 1 {
			t.Errorf("%s: lines %v, want %v in %s alone", tc.call.ID, r.Lines, tc.want, file)
		}
	}
	plain, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	r, err := plain.Call(ctx, Call{ID: "U1", Target: "watched.clamp", Args: []any{12, 10}})
	if err != nil || r.Lines != nil {
		t.Errorf("unwatched call: lines %v, err %v; want none", r.Lines, err)
	}
}

const watchedGo = `package clamp

// Clamp is the watched function.
func Clamp(x, hi int) int {
	if x >= hi {
		return hi
	}
	y := x * 2
	return y / 2
}

func Other(x int) int {
	return Clamp(x, 10)
}
`

// TestGoWatchReportsLinesRun: the Go harness compiles a watched file
// through go tool cover and reports the watched lines of the blocks each
// call ran; the tree itself is left as it was.
func TestGoWatchReportsLinesRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "clamp", "clamp.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/w\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(watchedGo), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := NewGoAdapter(ctx, GoConfig{Dir: dir, Timeout: 5 * time.Second, Private: true,
		Targets: []string{"example.com/w/clamp.Clamp", "example.com/w/clamp.Other"},
		Watch:   Watch{file: {{From: 4, To: 10}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, tc := range []struct {
		call Call
		want []int
	}{
		// The function's first block runs from its brace to the if's.
		{Call{ID: "G1", Target: "example.com/w/clamp.Clamp", Args: []any{12, 10}}, []int{4, 5, 6, 7}},
		{Call{ID: "G2", Target: "example.com/w/clamp.Clamp", Args: []any{3, 10}}, []int{4, 5, 8, 9}},
		{Call{ID: "G3", Target: "example.com/w/clamp.Other", Args: []any{3}}, []int{4, 5, 8, 9}},
	} {
		r, err := a.Call(ctx, tc.call)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != OutcomeReturned {
			t.Fatalf("%s: %s %s", tc.call.ID, r.Outcome, r.Detail)
		}
		if got := r.Lines[file]; !reflect.DeepEqual(got, tc.want) || len(r.Lines) != 1 {
			t.Errorf("%s: lines %v, want %v in %s alone", tc.call.ID, r.Lines, tc.want, file)
		}
	}
	if src, err := os.ReadFile(file); err != nil || string(src) != watchedGo {
		t.Errorf("the watched file was changed in the tree: %v", err)
	}
}
