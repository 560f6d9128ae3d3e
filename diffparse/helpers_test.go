package diffparse

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites the golden files under testdata/ instead of comparing.
var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// testRepo is a real git repository in a temporary directory.
type testRepo struct {
	t   testing.TB
	dir string
}

func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	r := &testRepo{t: t, dir: t.TempDir()}
	r.git("init", "--quiet", "--initial-branch=main")
	return r
}

// git runs git in the repository with a fixed identity and no user
// configuration, and returns its standard output.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=premise test", "GIT_AUTHOR_EMAIL=test@premise.invalid",
		"GIT_COMMITTER_NAME=premise test", "GIT_COMMITTER_EMAIL=test@premise.invalid",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_ALLOW_PROTOCOL=file",
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// write writes files (path -> contents); a nil-valued entry "" with
// deleteMark removes the file.
func (r *testRepo) write(files map[string]string) {
	r.t.Helper()
	for p, s := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if s == deleteMark {
			if err := os.Remove(full); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// deleteMark as a file's contents in write deletes the file.
const deleteMark = "\x00delete\x00"

// commit stages everything and commits; it returns the sha.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "--all")
	r.git("commit", "--quiet", "--allow-empty", "--no-verify", "-m", msg)
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

// load runs Load on base...head.
func (r *testRepo) load(base, head string) *Result {
	r.t.Helper()
	res, err := Load(context.Background(), Config{Repo: r.dir, Base: base, Head: head})
	if err != nil {
		r.t.Fatalf("Load: %v", err)
	}
	return res
}

// golden compares v, as indented JSON with the shas replaced by names,
// against testdata/golden/<name>.json.
func golden(t *testing.T, name string, res *Result) {
	t.Helper()
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := string(b) + "\n"
	for _, r := range [][2]string{{res.Head, "<head>"}, {res.Base, "<base>"}, {res.MergeBase, "<merge-base>"}} {
		if r[0] != "" {
			got = strings.ReplaceAll(got, r[0], r[1])
		}
	}
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./diffparse -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// jsonOf is res as indented JSON.
func jsonOf(t *testing.T, res *Result) string {
	t.Helper()
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pythonStdlib returns the directory of the installed Python's standard
// library, whose modules several tests parse.
func pythonStdlib(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Fatalf("python3 is required: %v", err)
	}
	return strings.TrimSpace(string(out))
}
