package examples

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIntervals checks the bundled example: the same commits on every
// machine, the agent's patch touching only the library, and the base's
// suite passing on both sides (the patch is green, which is the point).
func TestIntervals(t *testing.T) {
	e, ok := Lookup("intervals")
	if !ok {
		t.Fatal("no intervals example")
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	var shas []string
	for i := 0; i < 2; i++ {
		repo, err := e.Materialize(context.Background(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(repo) != "intervals" || !filepath.IsAbs(repo) {
			t.Errorf("repo path %q, want an absolute path ending in intervals", repo)
		}
		shas = append(shas, git(repo, "rev-parse", "main", "HEAD"))
		if got := git(repo, "rev-parse", "--abbrev-ref", "HEAD"); got != e.Branch {
			t.Errorf("checked out %q, want %q", got, e.Branch)
		}
		if diff := cmp.Diff("intervals/__init__.py", git(repo, "diff", "--name-only", "main...HEAD")); diff != "" {
			t.Errorf("the patch changes other files (-want +got):\n%s", diff)
		}
		for _, rev := range []string{"main", e.Branch} {
			git(repo, "checkout", "-q", rev)
			cmd := exec.Command("python3", "-m", "unittest", "discover", "-s", "tests")
			cmd.Dir = repo
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: the example's suite fails: %v\n%s", rev, err, out)
			}
		}
	}
	if shas[0] != shas[1] {
		t.Errorf("commits differ between runs: %q vs %q", shas[0], shas[1])
	}
	dir := t.TempDir()
	if _, err := e.Materialize(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Materialize(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("writing over an existing example: err %v, want a refusal", err)
	}
}
