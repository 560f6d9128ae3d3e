package gate

import (
	"context"
	"fmt"
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

// TestStraysEndWithTheCall: a subject that leaves a process running
// (here a sleeper; in the attack, processes burning the machine's CPU so
// that the base's calls slow and their time cuts off the rows that would
// reveal the change) finds it gone by its next call: what a call leaves
// in the box dies with it (issue 26, load). Python, Go and Node.
func TestStraysEndWithTheCall(t *testing.T) {
	// Where the kernel refuses PID namespaces, strays are not killed (a
	// developer's machine skips; CI fails).
	needBox(t, Isolated(), "PID namespace")
	dir := t.TempDir()
	files := map[string]string{
		"stray.py": `import os, subprocess, time
def leave():
    p = subprocess.Popen(["sleep", "60"], start_new_session=True)
    return p.pid
def alive(pid: int):
    for _ in range(50):
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split(") ")[1].startswith("Z"):
                    return False
        except OSError:
            return False
        time.sleep(0.01)
    return True
`,
		"go.mod": "module example.com/stray\n\ngo 1.21\n",
		"stray.js": `const { spawn } = require("node:child_process");
const fs = require("node:fs");
exports.leave = () => spawn("sleep", ["60"], { detached: true, stdio: "ignore" }).pid;
exports.alive = (pid) => {
  const until = Date.now() + 500;
  while (Date.now() < until) {
    let stat;
    try {
      stat = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
    } catch {
      return false;
    }
    if (stat.split(") ")[1].startsWith("Z")) return false;
  }
  return true;
};
`,
		"stray.go": `package stray

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func Leave() int {
	c := exec.Command("sleep", "60")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if c.Start() != nil {
		return -1
	}
	return c.Process.Pid
}

func Alive(pid int) bool {
	for i := 0; i < 50; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		if f := strings.SplitN(string(b), ") ", 2); len(f) == 2 && strings.HasPrefix(f[1], "Z") {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	py, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer py.Close()
	gw, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/stray.Leave", "example.com/stray.Alive"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close()
	needNode(t)
	js, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close()
	for _, c := range []struct {
		name         string
		a            Adapter
		leave, alive string
	}{{"python", py, "stray.leave", "stray.alive"}, {"go", gw, "example.com/stray.Leave", "example.com/stray.Alive"}, {"node", js, "stray.leave", "stray.alive"}} {
		left, err := c.a.Call(context.Background(), Call{ID: "1", Target: c.leave})
		if err != nil {
			t.Fatal(err)
		}
		pid := left.Value
		if left.Outcome != OutcomeReturned || pid == nil || fmt.Sprint(pid) == "-1" {
			t.Fatalf("%s: leave: %+v", c.name, left)
		}
		got, err := c.a.Call(context.Background(), Call{ID: "2", Target: c.alive, Args: []any{pid}})
		if err != nil {
			t.Fatal(err)
		}
		if got.Value != false {
			t.Errorf("%s: the process the first call left is alive in the second: %+v", c.name, got)
		}
	}
}
