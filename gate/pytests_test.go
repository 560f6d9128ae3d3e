package gate

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// The base's Python tests run with one string hash seed on every side and
// every run: a test that depends on a set's order must not pass on the
// base and fail on the head by the seed alone (a false change).
func TestPythonTestsPinTheHashSeed(t *testing.T) {
	t.Parallel()
	names := "def names():\n    return list({'kumquat', 'apple', 'fig', 'pear', 'plum', 'lime', 'date'})\n"
	// The first name under the pinned seed; under another seed it is
	// most often another.
	first := exec.Command("python3", "-c", "exec(open(0).read()); print(names()[0])")
	first.Stdin = strings.NewReader(names)
	first.Env = append(first.Environ(), pinnedHashSeed)
	want, err := first.Output()
	if err != nil {
		t.Fatal(err)
	}
	test := "import m\n\n\ndef test_order():\n    assert m.names()[0] == '" + strings.TrimSpace(string(want)) + "'\n"
	dir := writeTree(t, map[string]string{"m.py": names, "tests/test_m.py": test})
	for i := 0; i < 4; i++ {
		run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_m.py"}, Seconds: 20})
		if got := run.Tests["tests/test_m.py::test_order"].Outcome; got != "passed" {
			t.Fatalf("run %d: test_order %q %s, want passed every time", i, got, run.Err)
		}
	}
}
