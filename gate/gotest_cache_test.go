package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestGoTestReusesTheBuildOfAnEarlierCopy: premise runs go test in a new
// copy of the tree on every run; the package and its tests, compiled once,
// are the build cache's on the next run (issue 28: samber/lo's tests under
// -cover compiled again on every run, 7 s of a 17 s run on each side).
func TestGoTestReusesTheBuildOfAnEarlierCopy(t *testing.T) {
	t.Parallel()
	// The user's build cache, and code it has never seen: the first copy
	// compiles the package, the second must not.
	env := append(os.Environ(), "GOFLAGS=")
	code := fmt.Sprintf("package p\n\nconst nonce = %d\n\nfunc Twice(n int) int { return 2 * n }\n", time.Now().UnixNano())
	compiled := regexp.MustCompile(`(?m)/compile .*-p example\.com/p `)
	for i, want := range []bool{true, false} {
		dir := writeTree(t, map[string]string{
			"go.mod":    "module example.com/p\n\ngo 1.21\n",
			"p.go":      code,
			"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal(Twice(2))\n\t}\n}\n",
		})
		scratch := t.TempDir()
		out, err := GoTest(context.Background(), GoConfig{Env: env}, dir, scratch, []string{"-x", "-count=1", "-coverprofile=" + filepath.Join(scratch, "c.out")}, 120*time.Second)
		if err != nil {
			t.Fatalf("copy %d: %v\n%s", i+1, err, out)
		}
		if got := compiled.Match(out); got != want {
			t.Errorf("copy %d: package compiled %v, want %v\n%s", i+1, got, want, out)
		}
	}
}
