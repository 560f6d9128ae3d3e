package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// memoModule writes a module of two functions to a fresh directory.
func memoModule(t testing.TB, double string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/memo\n\ngo 1.21\n",
		"memo.go": "package memo\n\nimport \"strings\"\n\nfunc Double(n int) int { return " + double + " }\n\n" +
			"func Shout(s string) string { return strings.ToUpper(s) }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func callDouble(t *testing.T, a *GoAdapter) any {
	t.Helper()
	rep, err := a.Call(context.Background(), Call{ID: "c", Target: "example.com/memo.Double", Args: []any{21}})
	if err != nil || rep.Outcome != OutcomeReturned {
		t.Fatalf("Double(21) = %+v, %v", rep, err)
	}
	return rep.Value
}

// TestGoHarnessIsBuiltOnceForItsTree: a second adapter of a run, for the
// same targets or fewer of them on the same tree, runs the harness the
// first one built. What a subject wrote into its copy in between (here,
// a new Double) is not built into the later rows' harness; a tree of
// its own gets its own build.
func TestGoHarnessIsBuiltOnceForItsTree(t *testing.T) {
	t.Parallel()
	dir := memoModule(t, "2 * n")
	cfg := GoConfig{Dir: dir, Targets: []string{"example.com/memo.Double", "example.com/memo.Shout"}, Timeout: 5 * time.Second}
	first, err := NewGoAdapter(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := callDouble(t, first); got != num("42") {
		t.Fatalf("Double(21) = %v on the tree as it was", got)
	}
	first.Close()
	if err := os.WriteFile(filepath.Join(dir, "memo.go"), []byte("package memo\n\nfunc Double(n int) int { return 3 * n }\n\nfunc Shout(s string) string { return s }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, targets := range [][]string{cfg.Targets, {"example.com/memo.Double"}} {
		c := cfg
		c.Targets = targets
		again, err := NewGoAdapter(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if got := callDouble(t, again); got != num("42") {
			t.Errorf("targets %v: Double(21) = %v, want the first build's 42", targets, got)
		}
		again.Close()
	}
	other, err := NewGoAdapter(context.Background(), GoConfig{Dir: memoModule(t, "3 * n"), Targets: cfg.Targets, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if got := callDouble(t, other); got != num("63") {
		t.Errorf("another tree's Double(21) = %v, want its own 63", got)
	}
}

// BenchmarkGoAdapterAgain is the fast path of goharness_memo.go: an
// adapter for targets a harness of this process was built for.
func BenchmarkGoAdapterAgain(b *testing.B) {
	dir := memoModule(b, "2 * n")
	cfg := GoConfig{Dir: dir, Targets: []string{"example.com/memo.Double", "example.com/memo.Shout"}, Timeout: 5 * time.Second}
	for b.Loop() {
		a, err := NewGoAdapter(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}
