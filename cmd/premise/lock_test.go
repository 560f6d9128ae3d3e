package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/premise-dev/premise/internal/filelock"
	"github.com/premise-dev/premise/validate"
)

// TestAcceptLockTimeoutExits3: an accept that cannot get the register's
// lock in time fails with one line naming the register, and exits 3
// (premise could not do its job); the register is untouched.
func TestAcceptLockTimeoutExits3(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	if err := os.WriteFile(path, []byte(reviewRegister), 0o644); err != nil {
		t.Fatal(err)
	}
	held, err := filelock.Acquire(context.Background(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	err = runDecide(ctx, decideOptions{Register: path, IDs: []string{"A001"}, Status: validate.StatusAccepted, Out: &out})
	if code := exitCode(err); code != exitCouldNotRun {
		t.Errorf("exit %d (%v), want %d", code, err, exitCouldNotRun)
	}
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "lock") || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v, want one line naming %s and its lock", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != reviewRegister {
		t.Error("the register changed without its lock")
	}
	// Interrupted while waiting: 130, not 3.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	err = runDecide(ctx, decideOptions{Register: path, IDs: []string{"A001"}, Status: validate.StatusAccepted, Out: &out})
	if code := exitCode(err); code != exitInterrupted {
		t.Errorf("interrupted wait: exit %d (%v), want %d", code, err, exitInterrupted)
	}
}
