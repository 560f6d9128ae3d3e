package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// IsolatedCommand is one program premise runs on code it did not write
// outside a worker (a repository's test suite under a tracer): in Dir, with
// the worker's allow-listed environment, a private HOME, no network where
// the kernel allows, its processes capped, and killed with its whole
// process group at Timeout.
type IsolatedCommand struct {
	Path    string
	Args    []string
	Dir     string
	Env     []string // what the allow-list filters; nil is premise's own
	Timeout time.Duration
	// Writable are directories the command may write besides Dir and its
	// scratch directory, where the rest of the machine is read-only to it
	// (Sealed).
	Writable []string
}

// ErrTimedOut is RunIsolated's error when the command outlived its
// Timeout.
var ErrTimedOut = errors.New("timed out")

// RunIsolated runs c and returns its standard output and error, combined
// and cut to 64 KiB.
func RunIsolated(ctx context.Context, c IsolatedCommand) ([]byte, error) {
	home, err := os.MkdirTemp("", "") // no name of premise's: a subject reads its HOME and TMPDIR
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := sandbox(cmd, env, home, 0, c.Writable...); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	limitProcs(cmd.Process.Pid, 0)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(c.Timeout)
	defer timer.Stop()
	select {
	case err = <-done:
	case <-timer.C:
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		err = ErrTimedOut
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		err = ctx.Err()
	}
	b := out.Bytes()
	if len(b) > 64<<10 {
		b = b[len(b)-64<<10:]
	}
	if err != nil && !errors.Is(err, ErrTimedOut) && !errors.Is(err, ctx.Err()) {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return b, fmt.Errorf("run %s: %w", c.Path, err)
		}
	}
	return b, err
}
