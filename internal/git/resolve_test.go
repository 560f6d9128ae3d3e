package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitOut runs git in dir and returns its trimmed standard output.
func gitOut(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// TestResolve checks the one-process resolution against what RevParse
// and MergeBase answer one by one, and that anything unusual is left to
// them.
func TestResolve(t *testing.T) {
	ctx := context.Background()
	r, first, second := newRepo(t)
	gitOut(t, r.Dir, "", "checkout", "-q", "-b", "side", first)
	if err := os.WriteFile(filepath.Join(r.Dir, "b.txt"), []byte("side\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := r.CommitAll(ctx, "side", who)
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(r.Dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	got, ok := At(sub).Resolve(ctx, "main", "side")
	want := Resolved{Base: second, Head: third, MergeBase: first}
	if !ok || got != want {
		t.Errorf("Resolve(main, side) = %+v, %v; want %+v", got, ok, want)
	}
	if mb, err := r.MergeBase(ctx, "main", "side"); err != nil || mb != got.MergeBase {
		t.Errorf("MergeBase = %q, %v; Resolve said %q", mb, err, got.MergeBase)
	}
	bare := filepath.Join(t.TempDir(), "b.git")
	gitOut(t, r.Dir, "", "clone", "-q", "--bare", r.Dir, bare)
	// No work tree: a bare repository, the inside of a git directory.
	for _, dir := range []string{bare, filepath.Join(r.Dir, ".git")} {
		got, ok = At(dir).Resolve(ctx, "main", "side")
		if !ok || got != want {
			t.Errorf("Resolve in %s = %+v, %v; want %+v", dir, got, ok, want)
		}
	}
	if got, ok := At(t.TempDir()).Resolve(ctx, "main", "side"); ok {
		t.Errorf("Resolve outside a repository = %+v, true; want false", got)
	}
	// Unrelated histories, a bad name, an option.
	gitOut(t, r.Dir, "", "checkout", "-q", "--orphan", "lone")
	if _, err := r.CommitAll(ctx, "lone", who); err != nil {
		t.Fatal(err)
	}
	for _, names := range [][2]string{{"main", "lone"}, {"main", "nope"}, {"--all", "main"}, {"main", ""}} {
		if got, ok := r.Resolve(ctx, names[0], names[1]); ok {
			t.Errorf("Resolve(%q, %q) = %+v, true; want false", names[0], names[1], got)
		}
	}
}
