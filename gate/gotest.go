package gate

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"time"
)

// GoTest runs `go test ARGS` in dir, a package of premise's private copy
// of a tree, in the sealed box the harness is built in (gobuild.go):
// offline, the repository's git directories empty, nothing writable but
// the copy, out (a directory of premise's for what the command writes:
// an -overlay's files, a -coverprofile) and the build cache. The tests
// are the tree's code acting, so they run there too. It returns the
// command's combined output (its last 256 KiB) and its error, ErrTimedOut
// when timeout passed first.
func GoTest(ctx context.Context, cfg GoConfig, dir, out string, args []string, timeout time.Duration) ([]byte, error) {
	root, _, err := findModule(dir)
	if err != nil {
		return nil, err
	}
	goPath := cfg.Go
	if goPath == "" {
		goPath = "go"
	}
	// boxGo lets the harness write its binary's directory: here, out.
	h := &harness{root: root, goPath: goPath, cfg: cfg, bin: filepath.Join(out, "go.test")}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goPath, append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.WaitDelay = 2 * time.Second
	done, err := h.boxGo(ctx, cmd)
	if err != nil {
		return nil, err
	}
	defer done()
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err = cmd.Run()
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = ErrTimedOut
	}
	data := b.Bytes()
	if len(data) > 256<<10 {
		data = data[len(data)-256<<10:]
	}
	return data, err
}
