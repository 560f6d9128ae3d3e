package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGoWorkerTells: a Go subject looks at how it was started and finds a
// test binary that go test started (issue 26, tells): argv[0] named
// PKG.test in a go-build directory, only go test's -test. flags after it,
// testing.Testing() true, no protocol fd at 3 or 4, PWD its directory.
func TestGoWorkerTells(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/tell\n\ngo 1.21\n",
		"tell.go": `package tell

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func Tells() []string {
	out := []string{}
	if !strings.HasSuffix(os.Args[0], "/b001/tell.test") || !strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(os.Args[0]))), "go-build") {
		out = append(out, "argv[0] "+os.Args[0])
	}
	for _, a := range os.Args[1:] {
		if !strings.HasPrefix(a, "-test.") {
			out = append(out, "arg "+a)
		}
	}
	if !testing.Testing() {
		out = append(out, "not testing")
	}
	for fd := 3; fd < 12; fd++ {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) == nil {
			out = append(out, "fd open")
		}
	}
	if wd, _ := os.Getwd(); os.Getenv("PWD") != wd {
		out = append(out, "PWD "+os.Getenv("PWD"))
	}
	return out
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/tell.Tells"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Call(context.Background(), Call{ID: "x", Target: "example.com/tell.Tells"})
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(got.Value, []any{}) {
		t.Errorf("tells: %+v", got)
	}
}
