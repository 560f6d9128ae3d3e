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

// TestIsBlob checks IsBlob against git's own object ids, SHA-1 and SHA-256:
// the check that lets premise take a file's bytes from anywhere other than
// cat-file.
func TestIsBlob(t *testing.T) {
	sha1Dir, sha256Dir := t.TempDir(), t.TempDir()
	gitOut(t, sha1Dir, "", "init", "-q")
	gitOut(t, sha256Dir, "", "init", "-q", "--object-format=sha256")
	for _, data := range []string{"", "x", "def f():\n    return 1\n", "crlf\r\nno newline", "\x00\xff binary", strings.Repeat("line\n", 20000)} {
		for _, dir := range []string{sha1Dir, sha256Dir} {
			id := gitOut(t, dir, data, "hash-object", "--stdin")
			if !IsBlob([]byte(data), id) {
				t.Errorf("IsBlob(%.20q, %s) = false, want true", data, id)
			}
			if !IsBlob([]byte(data), strings.ToUpper(id)) {
				t.Errorf("IsBlob(%.20q, upper-case %s) = false, want true", data, id)
			}
			if IsBlob([]byte(data+"\n"), id) {
				t.Errorf("IsBlob(%.20q + newline, %s) = true, want false", data, id)
			}
			if IsBlob([]byte(data), id[:len(id)-1]) {
				t.Errorf("IsBlob with a shortened id = true, want false")
			}
		}
	}
}

// TestWorkTreeBlob checks that a work-tree file is read only when it holds
// exactly the blob asked for.
func TestWorkTreeBlob(t *testing.T) {
	r, _, _ := newRepo(t)
	id := gitOut(t, r.Dir, "", "rev-parse", "HEAD:a.txt")
	if data, ok := WorkTreeBlob(r.Dir, "a.txt", id); !ok || string(data) != "two\n" {
		t.Fatalf("WorkTreeBlob(clean a.txt) = %q, %v; want its contents", data, ok)
	}
	if err := os.MkdirAll(filepath.Join(r.Dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, "d", "b.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, ok := WorkTreeBlob(r.Dir, "d/b.txt", id); !ok || string(data) != "two\n" {
		t.Errorf("WorkTreeBlob(d/b.txt with the same bytes) = %q, %v; want its contents", data, ok)
	}
	if err := os.Symlink("a.txt", filepath.Join(r.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, "edited.txt"), []byte("two\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link", "edited.txt", "absent.txt", "d", "../" + filepath.Base(r.Dir) + "/a.txt", "/etc/passwd"} {
		if data, ok := WorkTreeBlob(r.Dir, p, id); ok {
			t.Errorf("WorkTreeBlob(%s) = %q, true; want false", p, data)
		}
	}
	if _, ok := WorkTreeBlob("", "a.txt", id); ok {
		t.Error("WorkTreeBlob with no work tree = true, want false")
	}
}

// TestResolve checks the one-process resolution against what RevParse,
// MergeBase and CheckedOut answer one by one, and that anything unusual is
// left to them.
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
	want := Resolved{Base: second, Head: third, MergeBase: first, Top: r.Dir, CheckedOut: third}
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
		if want := (Resolved{Base: second, Head: third, MergeBase: first}); !ok || got != want {
			t.Errorf("Resolve in %s = %+v, %v; want %+v", dir, got, ok, want)
		}
	}
	if got, ok := At(t.TempDir()).Resolve(ctx, "main", "side"); ok {
		t.Errorf("Resolve outside a repository = %+v, true; want false", got)
	}
	// Unrelated histories, a bad name, an option, no commit checked out.
	gitOut(t, r.Dir, "", "checkout", "-q", "--orphan", "lone")
	if _, err := r.CommitAll(ctx, "lone", who); err != nil {
		t.Fatal(err)
	}
	for _, names := range [][2]string{{"main", "lone"}, {"main", "nope"}, {"--all", "main"}, {"main", ""}} {
		if got, ok := r.Resolve(ctx, names[0], names[1]); ok {
			t.Errorf("Resolve(%q, %q) = %+v, true; want false", names[0], names[1], got)
		}
	}
	gitOut(t, r.Dir, "", "checkout", "-q", "--orphan", "unborn")
	if got, ok := r.Resolve(ctx, "main", "side"); ok {
		t.Errorf("Resolve with no commit checked out = %+v, true; want false", got)
	}
}
