package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// ErrNotFound means the object asked of a Catter does not exist (for
// example, the path is absent at that commit).
var ErrNotFound = errors.New("object not found")

// Catter reads objects through one long-lived `git cat-file --batch`
// process, so reading a thousand files costs one process start, not a
// thousand (issue 2: read the diff plus the changed files once, no more).
// A Catter is safe for concurrent use; requests are served one at a time.
// Close it when done.
type Catter struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer // what git wrote to stderr, read after it exits
	cancel context.CancelFunc
	closed bool
}

// Catter starts the repository's `git cat-file --batch` process. It stops
// when ctx is done or Close is called.
func (r *Repo) Catter(ctx context.Context) (*Catter, error) {
	ctx, cancel := context.WithCancel(ctx)
	cmd := r.command(ctx, "cat-file", "--batch")
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	return &Catter{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<16), stderr: stderr, cancel: cancel}, nil
}

// Object returns the type and contents of the object named by spec, any
// expression `git cat-file` accepts: a sha, or "<commit>:<path>". It wraps
// ErrNotFound when the object does not exist.
func (c *Catter) Object(spec string) (typ string, data []byte, err error) {
	if strings.ContainsAny(spec, "\n") {
		return "", nil, fmt.Errorf("cat-file %q: newline in object name: %w", spec, ErrNotFound)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", nil, fmt.Errorf("cat-file %q: catter closed", spec)
	}
	if _, err := io.WriteString(c.stdin, spec+"\n"); err != nil {
		return "", nil, fmt.Errorf("cat-file %q: %w", spec, err)
	}
	return c.reply(spec)
}

// reply reads the answer to one request.
func (c *Catter) reply(spec string) (typ string, data []byte, err error) {
	header, err := c.stdout.ReadString('\n')
	if err != nil {
		return "", nil, fmt.Errorf("cat-file %q: %w", spec, err)
	}
	header = strings.TrimSuffix(header, "\n")
	if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
		return "", nil, fmt.Errorf("cat-file %q: %w", spec, ErrNotFound)
	}
	fields := strings.Fields(header)
	if len(fields) != 3 {
		return "", nil, fmt.Errorf("cat-file %q: unexpected header %q", spec, header)
	}
	size, err := strconv.Atoi(fields[2])
	if err != nil || size < 0 {
		return "", nil, fmt.Errorf("cat-file %q: unexpected header %q", spec, header)
	}
	data = make([]byte, size+1) // contents plus git's trailing newline
	if _, err := io.ReadFull(c.stdout, data); err != nil {
		return "", nil, fmt.Errorf("cat-file %q: %w", spec, err)
	}
	return fields[1], data[:size], nil
}

// Blob returns the contents of path at commit rev. A path that is not a
// file there (absent, a directory, a submodule) wraps ErrNotFound.
func (c *Catter) Blob(rev, path string) ([]byte, error) {
	typ, data, err := c.Object(rev + ":" + path)
	if err != nil {
		return nil, err
	}
	if typ != "blob" {
		return nil, fmt.Errorf("cat-file %s:%s is a %s: %w", rev, path, typ, ErrNotFound)
	}
	return data, nil
}

// Close stops the cat-file process.
func (c *Catter) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.stdin.Close()
	err := c.cmd.Wait()
	c.cancel()
	if err != nil && !bytes.Contains([]byte(err.Error()), []byte("signal")) {
		return fmt.Errorf("git cat-file: %s", firstLine(c.stderr.String(), err))
	}
	return nil
}
