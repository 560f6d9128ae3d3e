package gate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRunIsolated: a program premise runs outside a worker (the traced
// test run) gets the workers' environment, never a secret, and is killed
// with its children at its timeout.
func TestRunIsolated(t *testing.T) {
	out, err := RunIsolated(context.Background(), IsolatedCommand{Path: "/bin/sh", Args: []string{"-c", `echo "token=$PREMISE_TEST_TOKEN home=$HOME"`},
		Dir: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin", "PREMISE_TEST_TOKEN=s3cret", "HOME=/root"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "s3cret") || strings.Contains(string(out), "home=/root") {
		t.Errorf("output %q: a secret or the real HOME reached the program", out)
	}
	start := time.Now()
	_, err = RunIsolated(context.Background(), IsolatedCommand{Path: "/bin/sh", Args: []string{"-c", "sleep 30 & sleep 30"},
		Dir: t.TempDir(), Timeout: 300 * time.Millisecond})
	if !errors.Is(err, ErrTimedOut) || time.Since(start) > 10*time.Second {
		t.Errorf("err %v after %v, want ErrTimedOut at once", err, time.Since(start))
	}
}
