// Package filelock serialises the read-modify-write cycles on one file
// between goroutines and processes: an exclusive flock(2) on a lock file
// beside it (".assumptions.yaml.lock" for "assumptions.yaml"), never on the
// file itself, which every save replaces by a rename (issue 14, part 6: two
// concurrent accepts lost a decision in 18 of 20 trials).
//
// The lock file is removed when the lock is released, so a directory holds
// only the files premise keeps. A waiter that wins the lock on a lock file
// its holder has just removed sees that the path no longer names the file
// it locked, and tries again.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/premise-dev/premise/internal/atomicfile"
)

// DefaultTimeout bounds how long Acquire waits for another holder. Holders
// keep the lock for one read, merge and write (never while a model is
// asked), so a wait this long means a stuck process.
const DefaultTimeout = 30 * time.Second

// TimeoutError is a lock that another process kept for the whole wait.
type TimeoutError struct {
	File string        // the file the lock guards
	Lock string        // the lock file
	Wait time.Duration // how long Acquire waited
}

func (e *TimeoutError) Error() string {
	// A flock dies with its process, so a wait that runs out means a live
	// holder: removing the lock file would let two writers in, and is not
	// suggested.
	return fmt.Sprintf("%s: another process has held its lock (%s) for %v; let it finish, then run premise again", e.File, e.Lock, e.Wait.Round(time.Millisecond))
}

// Lock is a held lock; Unlock releases it.
type Lock struct {
	f    *os.File
	path string
}

// Path returns the lock file's path for a file: beside the file a write
// through path replaces (the existing target of a symbolic link), so two
// links to one register share one lock. A link to nothing is an error, as
// atomicfile.WriteFile refuses to write through it.
func Path(path string) (string, error) {
	target, err := atomicfile.Target(path)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".lock"), nil
}

// Acquire takes the exclusive lock guarding path, waiting up to timeout
// (DefaultTimeout when zero) or until ctx is done, whichever comes first.
// A wait that runs out is a *TimeoutError naming the file; a cancelled ctx
// returns ctx.Err().
func Acquire(ctx context.Context, path string, timeout time.Duration) (*Lock, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	lp, err := Path(path)
	if err != nil {
		return nil, fmt.Errorf("lock %w", err)
	}
	// The file may be new, in a directory not made yet (premise propose
	// --out dir/assumptions.yaml); the write would make it anyway.
	if err := os.MkdirAll(filepath.Dir(lp), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	start := time.Now()
	deadline := start.Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	pause := time.Millisecond
	for {
		l, err := try(lp)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if l != nil {
			return l, nil
		}
		if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		now := time.Now()
		if !now.Before(deadline) {
			return nil, &TimeoutError{File: path, Lock: lp, Wait: now.Sub(start)}
		}
		wait := min(pause, deadline.Sub(now))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, &TimeoutError{File: path, Lock: lp, Wait: time.Since(start)}
			}
			return nil, ctx.Err()
		case <-t.C:
		}
		pause = min(2*pause, 10*time.Millisecond)
	}
}

// try makes one attempt: the lock, or nil when another holder has it.
func try(lp string) (*Lock, error) {
	f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			break
		}
	}
	if err == unix.EWOULDBLOCK {
		f.Close()
		return nil, nil
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("flock %s: %w", lp, err)
	}
	// The holder before us removes the lock file before it lets go: a lock
	// on a removed (or replaced) file guards nothing.
	var held, now unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &held); err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", lp, err)
	}
	if err := unix.Stat(lp, &now); err != nil || now.Dev != held.Dev || now.Ino != held.Ino {
		f.Close()
		return nil, nil
	}
	return &Lock{f: f, path: lp}, nil
}

// Unlock removes the lock file and releases the lock. It is safe to call
// more than once.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	rmErr := os.Remove(l.path)
	err := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	if rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
		return fmt.Errorf("unlock %s: %w", l.path, rmErr)
	}
	if err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}
