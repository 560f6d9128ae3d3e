package validate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/premise-dev/premise/internal/filelock"
)

// registerOf is a register of n proposed items, A001 ... An.
func registerOf(n int) string {
	var b strings.Builder
	b.WriteString("version: 1\npatch_ref: main...HEAD\nitems:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - id: A%03d\n    symbol: m.f\n    precondition: precondition %d holds\n    evidence: \"x%d\"\n    status: proposed\n", i, i, i)
	}
	return b.String()
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentDecisionsAllKept: N reviewers accept N different ids of one
// register at once; every decision must be in the file afterwards. Without
// the lock each DecideFile reads the same old text and the last rename wins
// (issue 14: a decision lost in 18 of 20 trials).
func TestConcurrentDecisionsAllKept(t *testing.T) {
	const n, trials = 10, 15
	for trial := 0; trial < trials; trial++ {
		dir := t.TempDir()
		path := filepath.Join(dir, "assumptions.yaml")
		writeFile(t, path, registerOf(n))
		start := make(chan struct{})
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				id := fmt.Sprintf("A%03d", i+1)
				errs[i] = DecideFile(path, []Decision{{ID: id, Status: StatusAccepted, Note: "reviewer " + id}})
			}()
		}
		close(start)
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		r, err := LoadRegister(path)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		var lost []string
		for _, it := range r.Items {
			if it.Status != StatusAccepted || it.Note != "reviewer "+it.ID {
				lost = append(lost, it.ID)
			}
		}
		if len(lost) > 0 {
			t.Fatalf("trial %d: decisions on %s lost", trial, strings.Join(lost, ", "))
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Fatalf("trial %d: directory holds %d entries, want only the register (lock files removed)", trial, len(ents))
		}
	}
}

// TestUpdateRegisterKeepsDecisionMadeMeanwhile: a read-modify-write through
// UpdateRegister and accepts running at the same time lose nothing; the
// update sees every decision made before it took the lock.
func TestUpdateRegisterKeepsDecisionMadeMeanwhile(t *testing.T) {
	const n = 8
	for trial := 0; trial < 20; trial++ {
		path := filepath.Join(t.TempDir(), "assumptions.yaml")
		writeFile(t, path, registerOf(n))
		var wg sync.WaitGroup
		errs := make([]error, n+1)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = DecideFile(path, []Decision{{ID: fmt.Sprintf("A%03d", i+1), Status: StatusRejected, Note: "no"}})
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[n] = UpdateRegister(context.Background(), path, func(now *Register) (*Register, error) {
				add := []Item{{Symbol: "m.g", Precondition: "a new row", Evidence: "y"}}
				r, _ := Merge(now, append(now.Items, add...), Provenance{Model: "static"}, nil)
				return r, nil
			})
		}()
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		r, err := LoadRegister(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Items) != n+1 {
			t.Fatalf("trial %d: %d items, want %d: the update's new row lost", trial, len(r.Items), n+1)
		}
		for _, it := range r.Items[:n] {
			if it.Status != StatusRejected {
				t.Fatalf("trial %d: %s is %s, want the rejection kept", trial, it.ID, it.Status)
			}
		}
	}
}

// TestLockWaitIsBounded: a lock held elsewhere makes DecideFile fail after
// its wait with one line naming the register, and the file is untouched.
func TestLockWaitIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	writeFile(t, path, registerOf(1))
	held, err := filelock.Acquire(context.Background(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	err = DecideFileContext(ctx, path, []Decision{{ID: "A001", Status: StatusAccepted}})
	var te *filelock.TimeoutError
	if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), path+": ") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line naming %s: a lock timeout", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != registerOf(1) {
		t.Errorf("the register changed although its lock was never taken")
	}
	// A cancelled wait (Ctrl-C) is the context's error, for exit 130.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := DecideFileContext(ctx, path, []Decision{{ID: "A001", Status: StatusAccepted}}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	held.Unlock()
	if err := DecideFileContext(context.Background(), path, []Decision{{ID: "A001", Status: StatusAccepted}}); err != nil {
		t.Errorf("after the holder let go: %v", err)
	}
}

// TestSymlinkedRegisterWrittenThrough: a register that is a symbolic link
// stays a link; the file it points to (in another directory) holds the
// decision, and no temporary or lock file is left in either directory.
func TestSymlinkedRegisterWrittenThrough(t *testing.T) {
	// The link and its file in one repository: a link out of it is
	// refused (internal/atomicfile).
	repo := t.TempDir()
	shared := filepath.Join(repo, "shared")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(shared, "register.yaml")
	writeFile(t, target, registerOf(2))
	link := filepath.Join(repo, "assumptions.yaml")
	rel, _ := filepath.Rel(repo, target)
	if err := os.Symlink(rel, link); err != nil {
		t.Fatal(err)
	}
	if err := DecideFile(link, []Decision{{ID: "A002", Status: StatusAccepted}}); err != nil {
		t.Fatal(err)
	}
	if err := UpdateRegister(context.Background(), link, func(now *Register) (*Register, error) {
		now.PatchRef = "main...topic"
		return now, nil
	}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link (%v): it was replaced by a plain file", link, err)
	}
	r, err := LoadRegister(target)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lookup("A002").Status != StatusAccepted || r.PatchRef != "main...topic" {
		t.Errorf("the link's target does not hold the writes: %+v", r)
	}
	for d, want := range map[string]int{shared: 1, repo: 2} { // repo: the link and shared/
		if ents, _ := os.ReadDir(d); len(ents) != want {
			t.Errorf("%s holds %d entries, want %d", d, len(ents), want)
		}
	}
}

// TestSymlinkToNothingRefused: a link to a missing file is refused with a
// message naming both, and no file is created where it points.
func TestSymlinkToNothingRefused(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "assumptions.yaml")
	missing := filepath.Join(dir, "elsewhere", "register.yaml")
	if err := os.Symlink(missing, link); err != nil {
		t.Fatal(err)
	}
	err := SaveRegister(link, &Register{Version: 1, Items: []Item{}})
	if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v, want a refusal naming %s", err, link)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Errorf("the refused write created %s", filepath.Dir(missing))
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
}

// TestSymlinkedTableWrittenThrough: the partition table too is written
// through its link, by SaveTable and by UpdateTable.
func TestSymlinkedTableWrittenThrough(t *testing.T) {
	seed, err := os.ReadFile("testdata/seed004_partitions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The link and its file in one repository: a link out of it is
	// refused (internal/atomicfile).
	repo := t.TempDir()
	shared := filepath.Join(repo, "shared")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(shared, "table.yaml")
	writeFile(t, target, string(seed))
	link := filepath.Join(repo, "partitions.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	tb, err := LoadTable(link)
	if err != nil {
		t.Fatal(err)
	}
	tb.Rows = tb.Rows[:3]
	if err := SaveTable(link, tb); err != nil {
		t.Fatal(err)
	}
	if err := UpdateTable(context.Background(), link, func(now *Table) (*Table, error) {
		now.Rows = now.Rows[:2]
		return now, nil
	}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link (%v)", link, err)
	}
	got, err := LoadTable(target)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 2 {
		t.Errorf("target holds %d rows, want the 2 written through the link", len(got.Rows))
	}
}

// TestConcurrentTableUpdatesAllKept: UpdateTable calls that each add a row
// at once all land.
func TestConcurrentTableUpdatesAllKept(t *testing.T) {
	seed, err := os.ReadFile("testdata/seed004_partitions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const n = 10
	for trial := 0; trial < 10; trial++ {
		path := filepath.Join(t.TempDir(), "partitions.yaml")
		writeFile(t, path, string(seed))
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = UpdateTable(context.Background(), path, func(now *Table) (*Table, error) {
					r := now.Rows[0]
					r.ID = fmt.Sprintf("P%03d", 100+i)
					now.Rows = append(now.Rows, r)
					return now, nil
				})
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		got, err := LoadTable(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Rows) != 9+n {
			t.Fatalf("trial %d: %d rows, want %d: an update was lost", trial, len(got.Rows), 9+n)
		}
	}
}

// TestUpdateRegisterBrokenFileUntouched: a register that does not load is
// never overwritten by an update.
func TestUpdateRegisterBrokenFileUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	writeFile(t, path, "version: 1\nitems: [\n")
	called := false
	err := UpdateRegister(context.Background(), path, func(*Register) (*Register, error) {
		called = true
		return &Register{Version: 1}, nil
	})
	if err == nil || called {
		t.Fatalf("err = %v, called = %v; want the load error and fn not called", err, called)
	}
	if got, _ := os.ReadFile(path); string(got) != "version: 1\nitems: [\n" {
		t.Errorf("a broken register was overwritten")
	}
}
