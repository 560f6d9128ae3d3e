package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "assumptions.yaml")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new\n" {
		t.Fatalf("contents = %q, %v; want %q", got, err, "new\n")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the file's own 0600 kept", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file: no temporary left behind", len(entries))
	}
}

func TestWriteFileCreatesDirectories(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".gate", "frozen_rows.json")
	if err := WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{}\n" {
		t.Errorf("contents = %q", got)
	}
}

// TestWriteFileFailureLeavesOld: when the write cannot finish, the old file
// is untouched and no temporary is left: a human's decisions are never half
// written.
func TestWriteFileFailureLeavesOld(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores directory permissions; make the rename itself fail
		// instead, by putting a directory where the file should go.
		dir := t.TempDir()
		path := filepath.Join(dir, "register")
		if err := os.MkdirAll(filepath.Join(path, "child"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("new"), 0o644); err == nil {
			t.Fatal("WriteFile over a non-empty directory succeeded")
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("directory holds %d entries after a failed write, want 1", len(entries))
		}
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "assumptions.yaml")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if err := WriteFile(path, []byte("new\n"), 0o644); err == nil {
		t.Fatal("WriteFile in a read-only directory succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("contents = %q after a failed write, want the old ones", got)
	}
}

// TestWriteFileThroughSymlink: a link stays a link and its target, in its
// own directory, gets the new contents and keeps its mode (issue 14, part 6).
func TestWriteFileThroughSymlink(t *testing.T) {
	repo := t.TempDir()
	shared := filepath.Join(repo, "shared")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(shared, "register.yaml")
	if err := os.WriteFile(target, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(repo, "mid.yaml")
	link := filepath.Join(repo, "assumptions.yaml")
	if err := os.Symlink(target, mid); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("mid.yaml", link); err != nil { // a relative link to a link
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s was replaced by a plain file", link)
	}
	if got, _ := os.ReadFile(target); string(got) != "new\n" {
		t.Errorf("target = %q, want the new contents", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(shared); len(ents) != 1 {
		t.Errorf("target's directory holds %d entries, want 1", len(ents))
	}
}

// TestWriteFileRefusesLinkToNothing: writing through a dangling link would
// create a file wherever it points; it is refused.
func TestWriteFileRefusesLinkToNothing(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "assumptions.yaml")
	if err := os.Symlink(filepath.Join(dir, "gone", "x"), link); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(link, []byte("new\n"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone")); err == nil {
		t.Error("the refused write made the link's directory")
	}
}

// TestWriteFileStaysInTheRepository: a link, or a directory that is one,
// among a repository's files is the patch's to commit; premise's write
// through it to a file outside the work tree (a shell's start-up file, a
// key) is refused, and the file is left as it was. Inside the work tree a
// link is followed as ever.
func TestWriteFileStaysInTheRepository(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	precious := filepath.Join(home, ".bashrc")
	if err := os.WriteFile(precious, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(repo, "draft.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, filepath.Join(repo, "gate")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(repo, "draft.md"), filepath.Join(repo, "gate", ".bashrc")} {
		err := WriteFile(p, []byte("premise's\n"), 0o644)
		if err == nil || !strings.Contains(err.Error(), "outside "+repo) {
			t.Errorf("WriteFile(%s) = %v, want a refusal naming the repository", p, err)
		}
	}
	if got, _ := os.ReadFile(precious); string(got) != "precious\n" {
		t.Errorf("the file outside the repository now holds %q", got)
	}
	sub := filepath.Join(repo, "reviews")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "r.yaml"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("reviews/r.yaml", filepath.Join(repo, "assumptions.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(repo, "assumptions.yaml"), []byte("new\n"), 0o644); err != nil {
		t.Errorf("a link inside the repository: %v", err)
	}
}
