package propose

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// gitEnv keeps the user's git configuration out of tests.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=premise test", "GIT_AUTHOR_EMAIL=test@premise.invalid",
	"GIT_COMMITTER_NAME=premise test", "GIT_COMMITTER_EMAIL=test@premise.invalid",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
}

func git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), gitEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// repoWith makes a real git repository with two commits, base and head,
// each a map of path -> contents, and returns its directory.
func repoWith(t testing.TB, base, head map[string]string) string {
	t.Helper()
	return repoIn(t, t.TempDir(), base, head)
}

// repoIn is repoWith in a directory of the caller's.
func repoIn(t testing.TB, dir string, base, head map[string]string) string {
	t.Helper()
	git(t, dir, "init", "-q", "-b", "main")
	write := func(files map[string]string) {
		for p, c := range files {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(base)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	for p := range base {
		if _, ok := head[p]; !ok {
			os.Remove(filepath.Join(dir, p))
		}
	}
	write(head)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "head")
	return dir
}

// loadRepo reads the diff HEAD~1...HEAD of dir.
func loadRepo(t testing.TB, dir string) *diffparse.Result {
	t.Helper()
	res, err := diffparse.Load(context.Background(), diffparse.Config{Repo: dir, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// diffOf is loadRepo(repoWith(one file)).
func diffOf(t testing.TB, path, base, head string) *diffparse.Result {
	t.Helper()
	b := map[string]string{}
	if base != "" {
		b[path] = base
	}
	return loadRepo(t, repoWith(t, b, map[string]string{path: head}))
}

// readTree reads every file under dir into a map of slash paths.
func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
