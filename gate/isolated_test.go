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

// TestBoxHasItsOwnLoopback: a test that serves on 127.0.0.1 and calls
// itself (Go's httptest, a Python test server) runs in the box, as on a
// machine; a listener on the host's own loopback stays out of reach.
func TestBoxHasItsOwnLoopback(t *testing.T) {
	needBox(t, Isolated(), "network namespace")
	port := hostListener(t)
	script := `import socket, sys
own = socket.socket(); own.bind(("127.0.0.1", 0)); own.listen(1)
c = socket.create_connection(own.getsockname(), timeout=2); c.close()
print("own loopback: ok")
try:
    h = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    print("host:", h.recv(100))
except OSError as e:
    print("host: unreachable")
`
	out, err := RunIsolated(context.Background(), IsolatedCommand{Path: "python3", Args: []string{"-c", script, port},
		Dir: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(string(out), "own loopback: ok") {
		t.Errorf("a server on the box's own loopback could not be reached: %s", out)
	}
	if strings.Contains(string(out), "secret") || !strings.Contains(string(out), "host: unreachable") {
		t.Errorf("the host's loopback listener was reached from the box: %s", out)
	}
}
