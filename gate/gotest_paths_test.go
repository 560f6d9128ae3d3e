package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGoTestFailureNamesFilesFromTheTop: a failing test whose message
// names its file by its full path (testify's "Error Trace") is reported
// with the path from the top of the tree, never premise's temporary copy:
// the same text on every run.
func TestGoTestFailureNamesFilesFromTheTop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.21\n",
		"p.go":      "package p\n",
		"p_test.go": "package p\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n\nfunc TestWhere(t *testing.T) {\n\t_, file, _, _ := runtime.Caller(0)\n\tt.Fatalf(\"failed at %s\", file)\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := GoTests(context.Background(), dir, t.TempDir(), []string{"-count=1"}, 60*time.Second)
	got, ok := run.Failed["TestWhere"]
	if !ok {
		t.Fatalf("TestWhere did not fail: %+v", run)
	}
	if strings.Contains(got, dir) || !strings.Contains(got, "failed at p_test.go") {
		t.Errorf("the failure reads %q, want the file named from the top of the tree", got)
	}
}

// TestGoTestBinaryIsNamedAsGoTestNamesIt: a command-line library's tests
// compare the help they print, which names the program by its binary
// (filepath.Base(os.Args[0])); under go test that is the package's last
// import path element with ".test". They pass under premise as they do
// under go test: a base's test that failed only here for its binary's name
// was left out, with the change it would have shown.
func TestGoTestBinaryIsNamedAsGoTestNamesIt(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"go.mod":          "module example.com/tool/v2\n\ngo 1.21\n",
		"cli/cli.go":      "package cli\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\n\nfunc Usage() string { return \"usage: \" + filepath.Base(os.Args[0]) }\n",
		"cli/cli_test.go": "package cli\n\nimport \"testing\"\n\nfunc TestUsage(t *testing.T) {\n\tif got := Usage(); got != \"usage: cli.test\" {\n\t\tt.Fatalf(\"got %q\", got)\n\t}\n}\n",
		"tool.go":         "package tool\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\n\nfunc Name() string { return filepath.Base(os.Args[0]) }\n",
		"tool_test.go":    "package tool\n\nimport \"testing\"\n\nfunc TestName(t *testing.T) {\n\tif got := Name(); got != \"tool.test\" {\n\t\tt.Fatalf(\"got %q\", got)\n\t}\n}\n",
	})
	for _, pkg := range []string{"cli", "."} {
		run := GoTests(context.Background(), filepath.Join(dir, pkg), t.TempDir(), []string{"-count=1", "-v"}, 120*time.Second)
		if len(run.Failed) > 0 || len(run.Passed) != 1 {
			t.Errorf("%s: the test of the program's name: failed %v, passed %v, want it passed as under go test", pkg, run.Failed, run.Passed)
		}
	}
}

// GoTestsAgain runs the test binary GoTests built, with other tests
// selected, and builds nothing: the variants' later rounds (a panic ended
// the binary before the variants after it) cost a run, not a build.
func TestGoTestsAgainRunsTheBinaryBuilt(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.21\n",
		"p.go":      "package p\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n",
	})
	out := t.TempDir()
	if first := GoTests(context.Background(), dir, out, []string{"-count=1", "-v", "-run=^TestA$"}, 120*time.Second); !first.Passed["TestA"] || first.Passed["TestB"] {
		t.Fatalf("the first run: %+v, want TestA alone passed", first)
	}
	// Were it built again, TestB would fail.
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { t.Fatal(\"rebuilt\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := GoTestsAgain(context.Background(), dir, out, []string{"-count=1", "-v", "-run=^TestB$"}, 120*time.Second)
	if !again.Passed["TestB"] || len(again.Failed) > 0 {
		t.Errorf("the second run: %+v, want TestB of the binary built first passed", again)
	}
}
