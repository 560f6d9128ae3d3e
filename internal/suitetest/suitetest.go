// Package suitetest runs real test runners for premise's tests: go test
// -json over a small generated module with a deliberately flaky test, and
// pytest writing JUnit XML. The JUnit ingestion, the freeze registry and
// the flake ledger are tested on what these runners really write, never on
// hand-written imitations alone.
package suitetest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// GoModule is the import path of the module WriteGoModule writes.
const GoModule = "example.com/suite"

// goFiles are a small Go suite: a pass, a failure, subtests (one
// failing), a skip, and TestFlaky, which fails on every third run it
// counts in the file named by $SUITE_COUNTER (the first, fourth, ...).
var goFiles = map[string]string{
	"go.mod": "module " + GoModule + "\n\ngo 1.21\n",
	"calc/calc.go": `package calc

func Add(a, b int) int { return a + b }
`,
	"calc/calc_test.go": `package calc

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("1+2 != 3")
	}
}

func TestWrong(t *testing.T) {
	if os.Getenv("SUITE_FIXED") == "" {
		t.Fatalf("Add(2, 2) = %d, want 5", Add(2, 2))
	}
}

func TestTable(t *testing.T) {
	t.Run("zero", func(t *testing.T) {})
	t.Run("neg one", func(t *testing.T) {
		if os.Getenv("SUITE_FIXED") == "" {
			t.Error("negative")
		}
	})
}

func TestSkipped(t *testing.T) { t.Skip("not on this platform") }

func TestFlaky(t *testing.T) {
	path := os.Getenv("SUITE_COUNTER")
	if path == "" {
		return
	}
	b, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	n++
	if err := os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	if n%3 == 1 {
		t.Fatalf("run %d: the clock moved", n)
	}
}
`,
}

// WriteGoModule writes the Go suite into dir.
func WriteGoModule(t testing.TB, dir string) {
	t.Helper()
	WriteFiles(t, dir, goFiles)
}

// WriteFiles writes files (path relative to dir -> text) into dir,
// making their directories.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// GoTestJSON runs go test -json -count=count over the module in dir with
// the counter file counter and returns the stream. A failing test is the
// point, so go test's exit status is not an error; a stream with no
// events is.
func GoTestJSON(t testing.TB, dir, counter string, count int, env ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", "test", "-json", "-count="+strconv.Itoa(count), "./...")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SUITE_COUNTER="+counter, "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("go test -json: %v", err)
	}
	if !bytes.Contains(out, []byte(`"Action"`)) {
		t.Fatalf("go test -json wrote no events: %s\n%s", out, stderr.Bytes())
	}
	return out
}

var (
	pytestOnce sync.Once
	pytestPath string
)

// Pytest returns an interpreter that can import pytest: python3 on PATH
// (often a pyenv shim without it), else /usr/bin/python3, where Debian's
// python3-pytest installs it (.ci/run installs that package). It skips
// the test only when no interpreter has pytest.
func Pytest(t testing.TB) string {
	t.Helper()
	pytestOnce.Do(func() {
		for _, c := range []string{"python3", "/usr/bin/python3", "python"} {
			p, err := exec.LookPath(c)
			if err != nil {
				continue
			}
			if exec.Command(p, "-c", "import pytest").Run() == nil {
				pytestPath = p
				return
			}
		}
	})
	if pytestPath == "" {
		t.Skip("no Python interpreter here can import pytest (apt-get install python3-pytest)")
	}
	return pytestPath
}

// pyFiles are a small pytest suite: a class, parameters (one failing,
// one with spaces and colons in its id), an error in a fixture, a skip,
// and test_flaky, which fails on every third run counted in
// $SUITE_COUNTER.
var pyFiles = map[string]string{
	"tests/__init__.py": "",
	"tests/test_calc.py": `import os
import pytest


class TestAdd:
    def test_small(self):
        assert 1 + 2 == 3


@pytest.mark.parametrize("v", [1, "a b", "x::y"])
def test_param(v):
    if not os.environ.get("SUITE_FIXED"):
        assert v != 1


@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")


def test_uses_broken(broken):
    pass


@pytest.mark.skip(reason="not on this platform")
def test_skipped():
    pass


def test_flaky():
    path = os.environ.get("SUITE_COUNTER")
    if not path:
        return
    try:
        n = int(open(path).read().strip() or 0)
    except FileNotFoundError:
        n = 0
    n += 1
    open(path, "w").write(str(n))
    assert n % 3 != 1, "run %d: the clock moved" % n
`,
}

// WritePytestSuite writes the pytest suite into dir.
func WritePytestSuite(t testing.TB, dir string) {
	t.Helper()
	for name, text := range pyFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// RunPytest runs pytest over dir with python, writing JUnit XML to
// junit. pytest exiting 1 (tests failed) is the point, not an error.
func RunPytest(t testing.TB, python, dir, junit, counter string, env ...string) {
	t.Helper()
	cmd := exec.Command(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml="+junit, "tests")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SUITE_COUNTER="+counter, "PYTHONDONTWRITEBYTECODE=1"), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("pytest: %v\n%s", err, out)
	}
}

// PytestIDs returns the node ids pytest collects in dir.
func PytestIDs(t testing.TB, python, dir string) []string {
	t.Helper()
	cmd := exec.Command(python, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pytest --collect-only: %v\n%s", err, out)
	}
	var ids []string
	for _, l := range bytes.Split(out, []byte("\n")) {
		if bytes.Contains(l, []byte("::")) {
			ids = append(ids, string(bytes.TrimSpace(l)))
		}
	}
	return ids
}
