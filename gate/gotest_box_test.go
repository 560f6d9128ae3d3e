package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGoTestsCannotWriteTheBuildCache: the base's tests run on the head
// run the head's code in a test binary. The build cache is the user's, and
// what premise's next builds link from unchecked (a base package compiled
// on one run is a cache hit on the next), so a test binary that could
// write it could plant a base that answers like the head, or code the
// user's own next build links. The go command writes the cache while it
// builds the tests; the tests it built run where they cannot.
func TestGoTestsCannotWriteTheBuildCache(t *testing.T) {
	needBox(t, Sealed(), "sealed mount namespace")
	vars, err := goEnv(context.Background(), "go", nil)
	if err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(vars["GOCACHE"], fmt.Sprintf("planted-%d", time.Now().UnixNano()))
	t.Cleanup(func() { os.Remove(planted) })
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.21\n",
		// The head's code: plants where the user's cache is, and where
		// the environment says it is.
		"p.go": "package p\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\n\n" +
			"func Plant() []error {\n" +
			"\treturn []error{os.WriteFile(" + strconv.Quote(planted) + ", []byte(\"x\"), 0o644), " +
			"os.WriteFile(filepath.Join(os.Getenv(\"GOCACHE\"), filepath.Base(" + strconv.Quote(planted) + ")), []byte(\"x\"), 0o644)}\n}\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestPlant(t *testing.T) { t.Log(Plant()) }\n",
	})
	run := GoTests(context.Background(), dir, t.TempDir(), []string{"-count=1", "-v", "-run=^TestPlant$"}, 120*time.Second)
	if !run.Passed["TestPlant"] {
		t.Fatalf("the test did not run: %+v", run)
	}
	if _, err := os.Stat(planted); err == nil {
		t.Errorf("attack: the tests wrote %s into the build cache", filepath.Base(planted))
	}
}

// TestGoTestsReadTheirOwnRun: tests built apart from their run still say
// what go test would: which failed and how, which passed, the lines a
// -coverprofile counted, a test still running at the -timeout, and a
// package that does not build.
func TestGoTestsReadTheirOwnRun(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.21\n",
		"p.go":   "package p\n\nimport \"time\"\n\nfunc Twice(n int) int { return 2 * n }\n\nfunc Nap() { time.Sleep(time.Minute) }\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\n" +
			"func TestTwice(t *testing.T) { t.Run(\"two\", func(t *testing.T) { if Twice(2) != 4 { t.Fatal(Twice(2)) } }) }\n\n" +
			"func TestWrong(t *testing.T) { t.Errorf(\"want %d\", Twice(2)+1) }\n\n" +
			"func TestNap(t *testing.T) { Nap() }\n",
	})
	out := t.TempDir()
	prof := filepath.Join(out, "cover.out")
	run := GoTests(context.Background(), dir, out, []string{"-count=1", "-v", "-timeout=3s", "-run=^(TestTwice|TestWrong)$", "-coverprofile=" + prof}, 120*time.Second)
	if run.Stopped != "" || !run.Passed["TestTwice"] || !run.Passed["TestTwice/two"] || run.Failed["TestWrong"] != "p_test.go:7: want 5" {
		t.Errorf("run = %+v, want TestTwice passed and TestWrong failed with its message", run)
	}
	if b, err := os.ReadFile(prof); err != nil || !containsLine(string(b), "example.com/p/p.go:5.23,5.39 1 1") {
		t.Errorf("profile = %q (%v), want Twice's line counted", b, err)
	}
	slow := GoTests(context.Background(), dir, t.TempDir(), []string{"-count=1", "-timeout=1s", "-run=^TestNap$"}, 120*time.Second)
	if slow.Failed["TestNap"] != TimedOut || slow.Stopped != "the tests ran out of time" {
		t.Errorf("a test past -timeout: %+v", slow)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package p\n\nvar _ = undefined\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := GoTests(context.Background(), dir, t.TempDir(), []string{"-count=1"}, 120*time.Second)
	if broken.Stopped != "the tests did not build" {
		t.Errorf("a package that does not build: %+v", broken)
	}
}

func containsLine(text, line string) bool {
	return slices.Contains(strings.Split(text, "\n"), line)
}

// TestGoTestsRunNoEarlierBinary: a package without tests, run with the
// directory another package's tests were built in, runs nothing: the
// binary left there is not its tests.
func TestGoTestsRunNoEarlierBinary(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.21\n",
		"p.go":      "package p\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {}\n",
		"q/q.go":    "package q\n",
	})
	out := t.TempDir()
	if first := GoTests(context.Background(), dir, out, []string{"-count=1", "-v"}, 120*time.Second); !first.Passed["TestOld"] {
		t.Fatalf("the first package's test did not run: %+v", first)
	}
	if again := GoTests(context.Background(), filepath.Join(dir, "q"), out, []string{"-count=1", "-v"}, 120*time.Second); len(again.Passed) != 0 {
		t.Errorf("a package without tests ran %v", again.Passed)
	}
}
