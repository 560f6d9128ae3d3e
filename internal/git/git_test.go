package git

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var who = Identity{Name: "premise test", Email: "test@premise.invalid", When: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}

func newRepo(t *testing.T) (*Repo, string, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	r, err := Init(ctx, dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := r.CommitAll(ctx, "one", who)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := r.CommitAll(ctx, "two", who)
	if err != nil {
		t.Fatal(err)
	}
	return r, first, second
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	r, _, _ := newRepo(t)
	sub := filepath.Join(r.Dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Open(ctx, sub); err != nil || got.Bare {
		t.Errorf("Open(subdirectory) = %+v, %v; want a work tree", got, err)
	}
	bare := filepath.Join(t.TempDir(), "b.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", r.Dir, bare).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, err := Open(ctx, bare); err != nil || !got.Bare {
		t.Errorf("Open(bare) = %+v, %v; want a bare repository", got, err)
	}
	if _, err := Open(ctx, t.TempDir()); !errors.Is(err, ErrNotRepo) {
		t.Errorf("Open(empty dir) err = %v, want ErrNotRepo", err)
	}
	if _, err := Open(ctx, filepath.Join(r.Dir, "a.txt")); !errors.Is(err, ErrNotRepo) {
		t.Errorf("Open(file) err = %v, want ErrNotRepo", err)
	}
}

func TestRevParseMergeBaseDiff(t *testing.T) {
	ctx := context.Background()
	r, first, second := newRepo(t)
	got, err := r.RevParse(ctx, "main~1", "main")
	if err != nil || got[0] != first || got[1] != second {
		t.Errorf("RevParse = %v, %v; want [%s %s]", got, err, first, second)
	}
	for _, bad := range []string{"nope", "--all", ""} {
		if _, err := r.RevParse(ctx, bad); !errors.Is(err, ErrBadRev) {
			t.Errorf("RevParse(%q) err = %v, want ErrBadRev", bad, err)
		}
		if _, err := r.RevParse(ctx, "main", bad); !errors.Is(err, ErrBadRev) {
			t.Errorf("RevParse(main, %q) err = %v, want ErrBadRev", bad, err)
		}
	}
	if mb, err := r.MergeBase(ctx, first, second); err != nil || mb != first {
		t.Errorf("MergeBase = %q, %v; want %s", mb, err, first)
	}
	if base, err := r.DefaultBase(ctx); err != nil || base != "main" {
		t.Errorf("DefaultBase = %q, %v; want main", base, err)
	}
	diff := func(revs ...string) []byte {
		d, err := r.Diff(ctx, revs...)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := diff(first, second)
	want := "diff --git a/a.txt b/a.txt\n"
	if len(d) < len(want) || string(d[:len(want)]) != want {
		t.Errorf("Diff starts %q, want %q", d, want)
	}
	// git finds the merge-base of a symmetric range itself.
	if sym := diff(second + "..." + second); len(sym) != 0 {
		t.Errorf("Diff(X...X) = %q, want no diff", sym)
	}
	if sym := diff(first + "..." + second); string(sym) != string(d) {
		t.Errorf("Diff(first...second) = %q, want the diff from the merge-base %q", sym, d)
	}
	// A bad revision is git's error, named.
	if _, err := r.Diff(ctx, first, "0000000000000000000000000000000000000000"); err == nil || !strings.Contains(err.Error(), "git diff") {
		t.Errorf("Diff to a missing commit: %v, want git's error", err)
	}
}

func TestCatter(t *testing.T) {
	ctx := context.Background()
	r, first, second := newRepo(t)
	c, err := r.Catter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tt := range []struct{ rev, want string }{{first, "one\n"}, {second, "two\n"}, {first, "one\n"}} {
		got, err := c.Blob(tt.rev, "a.txt")
		if err != nil || string(got) != tt.want {
			t.Errorf("Blob(%.7s, a.txt) = %q, %v; want %q", tt.rev, got, err, tt.want)
		}
	}
	if _, err := c.Blob(second, "missing.txt"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Blob(missing) err = %v, want ErrNotFound", err)
	}
	if _, err := c.Blob(second, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Blob(tree) err = %v, want ErrNotFound", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := c.Blob(second, "a.txt"); err == nil {
		t.Error("Blob after Close succeeded")
	}
}

// TestExportIsSealed: the export of a commit holds its files byte for
// byte, executable bits and links, and nothing that leads back to the
// repository (issue 26, item 3).
func TestExportIsSealed(t *testing.T) {
	ctx := context.Background()
	r, _, second := newRepo(t)
	if err := os.WriteFile(filepath.Join(r.Dir, "run.sh"), []byte("#!/bin/sh\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(r.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	head, err := r.CommitAll(ctx, "three", who)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := r.Export(ctx, head, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "a.txt")); string(b) != "two\n" {
		t.Errorf("a.txt = %q", b)
	}
	if fi, err := os.Stat(filepath.Join(dst, "run.sh")); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "run.sh")); string(b) != "#!/bin/sh\r\n" {
		t.Errorf("run.sh = %q, want the blob's bytes", b)
	}
	if to, err := os.Readlink(filepath.Join(dst, "link")); err != nil || to != "a.txt" {
		t.Errorf("link = %q, %v", to, err)
	}
	if _, err := os.Lstat(filepath.Join(dst, ".git")); !os.IsNotExist(err) {
		t.Errorf(".git in the export: %v", err)
	}
	cmd := exec.Command("git", "rev-parse", "--git-dir")
	cmd.Dir = dst
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dst))
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("git finds a repository from the export: %s", out)
	}
	_ = second
}

// TestSafeTreePath: paths git itself refuses to check out are refused.
func TestSafeTreePath(t *testing.T) {
	for p, want := range map[string]bool{
		"a/b.py": true, ".github/x": true, ".gitattributes": true,
		"../x": false, "/etc/passwd": false, ".git/hooks/pre-commit": false, "sub/.GIT/config": false,
		"sub/.git./config": false, "a/./b": false, "": false,
	} {
		if got := safeTreePath(p); got != want {
			t.Errorf("safeTreePath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestGitRunsNoRepositoryProgram: a hook and an fsmonitor command planted
// in a repository's config do not run when premise runs git there.
func TestGitRunsNoRepositoryProgram(t *testing.T) {
	ctx := context.Background()
	r, _, _ := newRepo(t)
	marker := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(r.Dir, ".git", "hooks", "post-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"core.fsmonitor", "touch " + marker + "; true"}, {"core.pager", "touch " + marker}} {
		if out, err := exec.Command("git", "-C", r.Dir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	// Control: plain git runs the fsmonitor command.
	if out, err := exec.Command("git", "-C", r.Dir, "status", "--short").CombinedOutput(); err != nil {
		t.Logf("control git status: %v %s", err, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("control: plain git did not run the planted command (%v); the attack is not real here", err)
	}
	os.Remove(marker)
	if err := os.WriteFile(filepath.Join(r.Dir, "a.txt"), []byte("three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(ctx, "status", "--short"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Diff(ctx, "HEAD"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.CommitAll(ctx, "three", who); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("attack: premise's git ran a program the repository's config or hooks name")
	}
}

// TestErrorsCarryGitsWords: when git fails for another reason than the one
// a sentinel names, the error says what git said (issue 25: "exit status
// 128" alone tells a user nothing), and two unrelated histories are still
// ErrNoMergeBase.
func TestErrorsCarryGitsWords(t *testing.T) {
	ctx := context.Background()
	r, _, second := newRepo(t)
	_, err := r.MergeBase(ctx, strings.Repeat("ab", 20), second)
	if err == nil || strings.Contains(err.Error(), "exit status") || !strings.Contains(err.Error(), "fatal:") {
		t.Errorf("MergeBase(missing commit) err = %v; want git's fatal: line, not an exit status", err)
	}
	if errors.Is(err, ErrNoMergeBase) {
		t.Errorf("MergeBase(missing commit) err = %v; a missing object is not ErrNoMergeBase", err)
	}
	other, err := Init(ctx, t.TempDir(), "main")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other.Dir, "b.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lone, err := other.CommitAll(ctx, "lone", who)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(ctx, "fetch", "-q", other.Dir, "main"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.MergeBase(ctx, lone, second); !errors.Is(err, ErrNoMergeBase) {
		t.Errorf("MergeBase(unrelated histories) err = %v; want ErrNoMergeBase", err)
	}
	if _, err := Open(ctx, t.TempDir()); err == nil || !strings.Contains(err.Error(), "fatal:") {
		t.Errorf("Open(empty dir) err = %v; want git's own words", err)
	}
}

// TestUncommitted: a tracked file edited or staged but not committed is
// listed, an untracked one is not (premise's own drafts are untracked).
func TestUncommitted(t *testing.T) {
	ctx := context.Background()
	r, _, _ := newRepo(t)
	if got, err := r.Uncommitted(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Uncommitted(clean) = %v, %v; want none", got, err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, "a.txt"), []byte("three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, "draft.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := r.Uncommitted(ctx)
	if err != nil || strings.Join(got, ",") != "a.txt" {
		t.Errorf("Uncommitted = %v, %v; want [a.txt]", got, err)
	}
}
