package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/validate"
)

// subjects is a Python module with a function for every way a subject can
// behave badly (issue 5, "Isolation and faults").
const subjects = `
import os, sys, time, random

class CodedError(ValueError):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code

def echo(*args, **kwargs):
    return {"args": list(args), "kwargs": kwargs}

def pair(a, b):
    return (a, b)

def unique(xs):
    return set(xs)

def coded():
    raise CodedError("bad range", "E_RANGE")

def obj():
    return object()

def nan():
    return float("nan")

def sleep_forever():
    while True:
        time.sleep(60)

def segfault():
    import ctypes
    ctypes.string_at(0)

def exit_now():
    os._exit(7)

def flood():
    sys.stdout.write("x" * (8 << 20))
    sys.stdout.flush()
    sys.stderr.write("y" * (8 << 20))
    return "done"

def fork_child():
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
    return "parent"

def big():
    return "z" * (2 << 20)

def exit_code():
    sys.exit(4)

def exit_later():
    import threading
    threading.Timer(0.3, os._exit, [9]).start()
    return "armed"

def nap():
    time.sleep(1)
    return "woke"

def rand():
    return random.random() < 0.5

def hog():
    x = []
    while True:
        x.append(bytearray(1 << 24))

def hashed(s):
    return [os.environ.get("PYTHONHASHSEED"), hash(s)]

class Box:
    @staticmethod
    def size(xs):
        return len(xs)
`

func writeSubject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "subj.py"), []byte(subjects), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func num(s string) json.Number { return json.Number(s) }

func TestPythonAdapterOutcomes(t *testing.T) {
	dir := writeSubject(t)
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 2 * time.Second, MaxFrame: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tests := []struct {
		name   string
		call   Call
		want   Reply
		reason string
	}{
		{"returns", Call{ID: "P1", Target: "subj.echo", Args: []any{1, "a"}, Kwargs: map[string]any{"k": true}},
			Reply{ID: "P1", Outcome: OutcomeReturned, Value: map[string]any{"args": []any{num("1"), "a"}, "kwargs": map[string]any{"k": true}}}, ""},
		{"tuple becomes list", Call{ID: "P2", Target: "subj.pair", Args: []any{1, 2}},
			Reply{ID: "P2", Outcome: OutcomeReturned, Value: []any{num("1"), num("2")}}, "JSON has no tuples"},
		{"set becomes sorted list", Call{ID: "P3", Target: "subj.unique", Args: []any{[]any{3, 1, 3}}},
			Reply{ID: "P3", Outcome: OutcomeReturned, Value: []any{num("1"), num("3")}}, "sorted so that reruns agree"},
		{"raise with code", Call{ID: "P4", Target: "subj.coded"},
			Reply{ID: "P4", Outcome: OutcomeRaised, Exc: &Exc{Class: "CodedError", Code: "E_RANGE", Message: "bad range"}}, "seed 000 matches class and code"},
		{"sys.exit is a raise", Call{ID: "P5", Target: "subj.exit_code"},
			Reply{ID: "P5", Outcome: OutcomeRaised, Exc: &Exc{Class: "SystemExit", Code: num("4"), Message: "4"}}, ""},
		{"object is unencodable", Call{ID: "P6", Target: "subj.obj"},
			Reply{ID: "P6", Outcome: OutcomeUnencodable}, "a clear error, not a crash"},
		{"nan is unencodable", Call{ID: "P7", Target: "subj.nan"},
			Reply{ID: "P7", Outcome: OutcomeUnencodable}, ""},
		{"over the frame limit", Call{ID: "P8", Target: "subj.big"},
			Reply{ID: "P8", Outcome: OutcomeUnencodable}, "frames are size-bounded"},
		{"class method", Call{ID: "P9", Target: "subj.Box.size", Args: []any{[]any{1, 2}}},
			Reply{ID: "P9", Outcome: OutcomeReturned, Value: num("2")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), tc.call)
			if err != nil {
				t.Fatal(err)
			}
			got.Detail, got.Elapsed = "", 0
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestPythonAdapterFaults: each misbehaving subject gives its row outcome
// within the timeout plus a second, and the next call gets a fresh worker.
func TestPythonAdapterFaults(t *testing.T) {
	dir := writeSubject(t)
	const timeout = 2 * time.Second
	tests := []struct {
		target string
		want   string
	}{
		{"subj.sleep_forever", OutcomeTimeout},
		{"subj.exit_now", OutcomeCrashed},
		{"subj.flood", OutcomeReturned},
		{"subj.fork_child", OutcomeReturned},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			// Warm the worker: the bound is on the call, not on the start.
			if r, err := a.Call(context.Background(), Call{ID: "P0", Target: "subj.pair", Args: []any{1, 2}}); err != nil || r.Outcome != OutcomeReturned {
				t.Fatalf("warm-up: %+v, %v", r, err)
			}
			start := time.Now()
			got, err := a.Call(context.Background(), Call{ID: "P1", Target: tc.target})
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != tc.want {
				t.Errorf("outcome = %q (%s), want %q", got.Outcome, got.Detail, tc.want)
			}
			if el := time.Since(start); el > timeout+time.Second {
				t.Errorf("took %s, want under %s", el, timeout+time.Second)
			}
			next, err := a.Call(context.Background(), Call{ID: "P2", Target: "subj.pair", Args: []any{1, 2}})
			if err != nil || next.Outcome != OutcomeReturned {
				t.Errorf("the next call: %+v, %v; want a fresh worker to answer", next, err)
			}
		})
	}
}

// TestPythonAdapterBatchBlame: the worker sends its replies in batches, so
// when a call hangs or kills the worker, replies to the calls before it
// may be unsent. Each fault must still land on its own call, within the
// timeout plus a second, and every other call must get its own reply.
func TestPythonAdapterBatchBlame(t *testing.T) {
	dir := writeSubject(t)
	const timeout = 2 * time.Second
	for _, tc := range []struct {
		target, want string
		page         bool
	}{
		{"subj.sleep_forever", OutcomeTimeout, true},
		{"subj.exit_now", OutcomeCrashed, true},
		{"subj.segfault", OutcomeCrashed, true},
		// Without a progress page (no memfd, no temporary file) the
		// worker answers each call at once: the same outcomes.
		{"subj.sleep_forever", OutcomeTimeout, false},
		{"subj.segfault", OutcomeCrashed, false},
	} {
		t.Run(fmt.Sprintf("%s/page=%v", tc.target, tc.page), func(t *testing.T) {
			a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if !tc.page {
				pa := a.(*procAdapter)
				pa.spec.progress = false
				pa.spec.args = append([]string{}, pa.spec.args...)
				pa.spec.args[pa.spec.pageArg] = "-1"
			}
			if r, err := a.Call(context.Background(), Call{ID: "warm", Target: "subj.pair", Args: []any{0, 0}}); err != nil || r.Outcome != OutcomeReturned {
				t.Fatalf("warm-up: %+v, %v", r, err)
			}
			var calls []Call
			for i := range 200 {
				c := Call{ID: fmt.Sprintf("P%d", i), Target: "subj.pair", Args: []any{i, -i}}
				if i == 120 {
					c = Call{ID: "FAULT", Target: tc.target}
				}
				calls = append(calls, c)
			}
			start := time.Now()
			replies, errs := make([]Reply, len(calls)), make([]error, len(calls))
			delivered := make([]int, len(calls))
			a.(*procAdapter).CallBatch(context.Background(), calls, func(i int, r Reply, err error) {
				replies[i], errs[i] = r, err
				delivered[i]++
			})
			for i, n := range delivered {
				if n != 1 {
					t.Errorf("%s: delivered %d times, want once", calls[i].ID, n)
				}
			}
			if el := time.Since(start); el > timeout+time.Second {
				t.Errorf("took %s, want under %s", el, timeout+time.Second)
			}
			for i, r := range replies {
				if errs[i] != nil {
					t.Fatalf("%s: %v", calls[i].ID, errs[i])
				}
				if r.ID != calls[i].ID {
					t.Errorf("reply %d is for %q, want %q", i, r.ID, calls[i].ID)
				}
				want := OutcomeReturned
				if calls[i].ID == "FAULT" {
					want = tc.want
				}
				if r.Outcome != want {
					t.Errorf("%s: %s (%s), want %s", calls[i].ID, r.Outcome, r.Detail, want)
				}
			}
		})
	}
}

// A worker killed by what an earlier call left running (a thread, a
// goroutine, a timer) is not the running call's crash: that call answers
// as it does in a fresh worker, in a batch and alone; a call that crashes
// there too still crashes.
func TestACrashAnEarlierCallLeftIsNotTheNextCalls(t *testing.T) {
	dir := writeSubject(t)
	a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	calls := []Call{
		{ID: "ARM", Target: "subj.exit_later"},
		{ID: "NAP", Target: "subj.nap"},
		{ID: "EXIT", Target: "subj.exit_now"},
		{ID: "PAIR", Target: "subj.pair", Args: []any{1, 2}},
	}
	got := map[string]Reply{}
	a.(*procAdapter).CallBatch(context.Background(), calls, func(i int, r Reply, err error) {
		if err != nil {
			t.Fatalf("%s: %v", calls[i].ID, err)
		}
		got[calls[i].ID] = r
	})
	for id, want := range map[string]string{"ARM": OutcomeReturned, "NAP": OutcomeReturned, "EXIT": OutcomeCrashed, "PAIR": OutcomeReturned} {
		if got[id].Outcome != want {
			t.Errorf("batch: %s %s (%s), want %s", id, got[id].Outcome, got[id].Detail, want)
		}
	}
	if v, _ := got["NAP"].Value.(string); v != "woke" {
		t.Errorf("batch: NAP returned %#v, want \"woke\"", got["NAP"].Value)
	}
	for _, c := range calls[:3] {
		r, err := a.Call(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		got[c.ID] = r
	}
	if got["NAP"].Outcome != OutcomeReturned || got["EXIT"].Outcome != OutcomeCrashed {
		t.Errorf("one by one: NAP %s (%s), EXIT %s; want returned and crashed", got["NAP"].Outcome, got["NAP"].Detail, got["EXIT"].Outcome)
	}
}

func TestPythonAdapterInfra(t *testing.T) {
	dir := writeSubject(t)
	if _, err := NewPythonAdapter(PythonConfig{Interpreter: "no-such-python-9"}); err == nil {
		t.Error("a missing interpreter: no error")
	}
	a, err := NewPythonAdapter(PythonConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, target := range []string{"nosuchmod.f", "subj.nosuchfn"} {
		_, err = a.Call(context.Background(), Call{ID: "P1", Target: target})
		var ie *InfraError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want an InfraError", target, err)
		} else if !strings.Contains(ie.Reason, "Error") {
			t.Errorf("%s: reason %q does not say why", target, ie.Reason)
		}
	}
}

// TestHashSeedReachesTheWorker: a worker started with Config.HashSeed N
// runs under PYTHONHASHSEED=N, so a string's hash is the same for the same
// seed in another worker and differs between seeds; zero is the pinned 0
// every other caller gets (issue 13, part 5).
func TestHashSeedReachesTheWorker(t *testing.T) {
	t.Parallel()
	dir := writeSubject(t)
	ctx := context.Background()
	hashed := func(seed uint32) (string, any) {
		t.Helper()
		a, err := NewAdapter(ctx, Config{HashSeed: seed}, dir, &validate.Table{Language: "python"})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		r, err := a.Call(ctx, Call{ID: "H1", Target: "subj.hashed", Args: []any{"a"}})
		if err != nil {
			t.Fatal(err)
		}
		v, ok := r.Value.([]any)
		if r.Outcome != OutcomeReturned || !ok || len(v) != 2 {
			t.Fatalf("seed %d: hashed('a') gave %s %v %s", seed, r.Outcome, r.Value, r.Detail)
		}
		env, _ := v[0].(string)
		return env, v[1]
	}
	env0, h0 := hashed(0)
	env1, h1 := hashed(1)
	env2, h2 := hashed(2)
	_, again := hashed(1)
	for _, c := range []struct {
		seed      uint32
		env, want string
	}{{0, env0, "0"}, {1, env1, "1"}, {2, env2, "2"}} {
		if c.env != c.want {
			t.Errorf("HashSeed %d: the worker sees PYTHONHASHSEED=%q, want %q", c.seed, c.env, c.want)
		}
	}
	if h1 == h2 || h0 == h1 {
		t.Errorf("hash('a') is %v under seed 0, %v under 1, %v under 2: want three values", h0, h1, h2)
	}
	if again != h1 {
		t.Errorf("hash('a') under seed 1 is %v in one worker and %v in another", h1, again)
	}
}

// TestPythonAdapterMemoryLimit: a subject that allocates without bound hits
// the worker's address-space limit and raises MemoryError; the gate goes on.
func TestPythonAdapterMemoryLimit(t *testing.T) {
	a, err := NewPythonAdapter(PythonConfig{Dir: writeSubject(t), MemoryLimit: 256 << 20, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Call(context.Background(), Call{ID: "P1", Target: "subj.hog"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != OutcomeRaised || got.Exc.Class != "MemoryError" {
		t.Errorf("got %s %+v (%s), want a MemoryError raise", got.Outcome, got.Exc, got.Detail)
	}
}

// replyDiff compares two replies as the runner sees them. Raw is the
// worker's own encoding of Value, so it must decode to Value; beyond that
// its spelling ("[1, 3]" or "[1,3]") is the worker's business.
func replyDiff(t *testing.T, want, got Reply) string {
	t.Helper()
	if got.Raw != nil {
		var v any
		if err := decodeNumbers(got.Raw, &v); err != nil || !cmp.Equal(v, got.Value) {
			t.Errorf("Raw %s does not decode to Value %#v (%v)", got.Raw, got.Value, err)
		}
	}
	got.Raw = nil
	return cmp.Diff(want, got)
}

// TestPythonAdapterCancel: a run whose context is cancelled (Ctrl-C) stops
// waiting at once, not at the call's timeout, and every call not answered
// gets the context's error.
func TestPythonAdapterCancel(t *testing.T) {
	a, err := NewPythonAdapter(PythonConfig{Dir: writeSubject(t), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	calls := []Call{{ID: "P1", Target: "subj.pair", Args: []any{1, 2}}, {ID: "P2", Target: "subj.sleep_forever"}, {ID: "P3", Target: "subj.pair", Args: []any{3, 4}}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	errs := make([]error, len(calls))
	a.(*procAdapter).CallBatch(ctx, calls, func(i int, r Reply, err error) { errs[i] = err })
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %s after the cancel, want it to stop at once", el)
	}
	for i, c := range calls[1:] {
		if !errors.Is(errs[i+1], context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", c.ID, errs[i+1])
		}
	}
}

// TestPythonResolveApartFromImport: a module that imports but lacks the
// name is told apart ("resolve ...") from a module whose own code fails
// while it imports, even with an AttributeError ("import ..."): the
// evidence leaves out one target's rows for the first and its whole
// module's for the second.
func TestPythonResolveApartFromImport(t *testing.T) {
	dir := writeSubject(t)
	if err := os.WriteFile(filepath.Join(dir, "broken.py"), []byte("import os\nos.no_such_thing\n\ndef f():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewPythonAdapter(PythonConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for target, want := range map[string]string{"subj.nosuchfn": "resolve subj.nosuchfn: AttributeError", "broken.f": "import broken.f: AttributeError"} {
		_, err := a.Call(context.Background(), Call{ID: "P1", Target: target})
		var ie *InfraError
		if !errors.As(err, &ie) || !strings.HasPrefix(ie.Reason, want) {
			t.Errorf("%s: err %v, want a reason starting %q", target, err, want)
		}
	}
}
