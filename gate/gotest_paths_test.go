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
