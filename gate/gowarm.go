package gate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// harnessStd are the standard packages every Go harness imports
// (harness/go_worker.go.tmpl), with those of the HTTP handler's.
var harnessStd = []string{
	"bufio", "bytes", "context", "encoding/json", "errors", "flag", "fmt", "hash/crc32", "io", "io/fs",
	"net/http", "net/http/httptest", "os", "reflect", "sort", "strconv", "strings",
	"syscall", "testing", "time",
}

// warmGoTime bounds WarmGo: on a fresh build cache the standard packages
// take about twenty seconds on two cores.
const warmGoTime = 3 * time.Minute

// WarmGo compiles the standard packages a Go harness imports into the
// user's build cache, with the flags and settings a harness build uses,
// so that a first run on a fresh machine does not spend its evidence time
// compiling the standard library: the evidence's clock starts after it.
// Nothing of the tree under review is built, and the go command runs in
// the sealed box all the same. On a warm cache it takes a fraction of a
// second. An error is only a cold cache left as it was.
func WarmGo(ctx context.Context, race bool) error {
	goPath, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, warmGoTime)
	defer cancel()
	args := []string{"build", "-trimpath"}
	if race {
		args = append(args, "-race")
	}
	// A harness of no module: its box, settings and cache are a real
	// harness build's, its directory an empty one of premise's.
	h := &harness{root: dir, goPath: goPath, bin: filepath.Join(dir, "bin")}
	cmd := exec.CommandContext(ctx, goPath, append(args, harnessStd...)...)
	cmd.Dir = dir
	done, err := h.boxGo(ctx, cmd)
	if err != nil {
		return err
	}
	defer done()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build of the harness's standard packages: %v: %s", err, oneLine(string(out), 300))
	}
	return nil
}
