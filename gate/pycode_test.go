package gate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWorkerStartsFromCompiledCode: a worker is handed the code the
// interpreter compiled once, not the source to compile again, and answers
// as a worker started from its source does: a return, and a raise with its
// class and the line in the subject's file.
func TestWorkerStartsFromCompiledCode(t *testing.T) {
	t.Parallel()
	python, err := ResolvePython("")
	if err != nil {
		t.Fatalf("python3: %v (premise needs it, and CI installs it)", err)
	}
	boot, code := workerBoot(python)
	if boot != pythonCompiledBoot || strings.Contains(code, "def main") || len(code) > maxCompiledArg {
		t.Fatalf("the worker boots from its source (%d bytes), not its compiled code", len(code))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte("def f(x):\n    return 10 // x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewPythonAdapter(PythonConfig{Interpreter: python, Dir: dir, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r, err := a.Call(context.Background(), Call{ID: "1", Target: "m.f", Args: []any{2}})
	if err != nil || r.Outcome != OutcomeReturned || fmt.Sprint(r.Value) != "5" {
		t.Errorf("f(2): %+v %v, want 5 returned", r, err)
	}
	r, err = a.Call(context.Background(), Call{ID: "2", Target: "m.f", Args: []any{0}})
	if err != nil || r.Outcome != OutcomeRaised || r.Exc == nil || r.Exc.Class != "ZeroDivisionError" {
		t.Errorf("f(0): %+v %v, want ZeroDivisionError raised", r, err)
	}
}

// TestWorkerFallsBackToItsSource: an interpreter that cannot compile the
// worker's code for premise still gets a worker: its source, as before.
func TestWorkerFallsBackToItsSource(t *testing.T) {
	t.Parallel()
	boot, code := workerBoot("/bin/false")
	if boot != pythonBoot || code != pythonWorker {
		t.Errorf("boot %q with %d bytes, want the source boot with the worker's source", boot[:min(40, len(boot))], len(code))
	}
}

// BenchmarkPythonWorkerStart measures a worker's start to its first
// answer, from its compiled code (the fast path, pycode.go) and from its
// source (what an interpreter that cannot compile it gets).
func BenchmarkPythonWorkerStart(b *testing.B) {
	python, err := ResolvePython("")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte("def f(x):\n    return x\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	start := func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			a, err := NewPythonAdapter(PythonConfig{Interpreter: python, Dir: dir, Timeout: 10 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			if r, err := a.Call(context.Background(), Call{ID: "1", Target: "m.f", Args: []any{1}}); err != nil || r.Outcome != OutcomeReturned {
				b.Fatalf("%+v %v", r, err)
			}
			a.Close()
		}
	}
	b.Run("compiled", start)
	b.Run("source", func(b *testing.B) {
		// This interpreter's compile, set aside for the benchmark.
		prev, _ := compiledWorkers.Load(python)
		none := &compiledWorker{}
		none.once.Do(func() {})
		compiledWorkers.Store(python, none)
		defer compiledWorkers.Store(python, prev)
		start(b)
	})
}

// A version manager's shim (pyenv's costs hundreds of milliseconds a
// start) is asked for the interpreter behind it once a process, however
// many workers and test runs start: each start after the first runs the
// real interpreter directly.
func TestPythonShimIsResolvedOnce(t *testing.T) {
	real, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("no python3, which premise requires (README, Set up)")
	}
	dir := t.TempDir()
	count := filepath.Join(dir, "starts")
	shim := filepath.Join(dir, "python3-shim")
	script := "#!/bin/sh\necho x >> " + count + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(shim, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := 0; i < 3; i++ {
		p, err := ResolvePython(shim)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	b, _ := os.ReadFile(count)
	if n := strings.Count(string(b), "x"); n != 1 || got[0] == shim || got[1] != got[0] || got[2] != got[0] {
		t.Errorf("three resolutions started the shim %d times and gave %q; want once, the real interpreter each time", n, got)
	}
}
