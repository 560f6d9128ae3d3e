package reject

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/internal/git"
)

// gitRepo is a real temporary repository with a fixed identity.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.commit("Agent Bot <agent@bots.invalid>", "base", map[string]string{"README": "x\n"})
	r.git("branch", "base")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_COMMITTER_NAME=CI", "GIT_COMMITTER_EMAIL=ci@premise.invalid")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (an empty value deletes one) and commits them as
// author with message.
func (r *gitRepo) commit(author, message string, files map[string]string) string {
	r.t.Helper()
	for name, data := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if data == "" {
			r.git("rm", "-q", name)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.git("add", name)
	}
	r.git("commit", "-q", "--allow-empty", "--author", author, "-m", message)
	return r.git("rev-parse", "HEAD")
}

func (r *gitRepo) repo() *git.Repo {
	r.t.Helper()
	repo, err := git.Open(context.Background(), r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	return repo
}

const agent = "Agent Bot <agent@bots.invalid>"

func TestGuard(t *testing.T) {
	tests := []struct {
		name    string
		author  string
		message string
		files   map[string]string
		signers []string
		want    []string // protected commits: "subject signed|unsigned"
		reason  string
	}{
		{"unprotected change needs nothing", agent, "touch code", map[string]string{"billing.py": "x = 1\n"}, nil, nil, ""},
		{"fixture without trailer", agent, "relax fixture", map[string]string{"corpus/must_reject/a.json": "{}\n"}, nil,
			[]string{"relax fixture unsigned"}, "seed 000: any diff under corpus/must_reject/ needs a reviewer's sign-off"},
		{"lockfile without trailer", agent, "edit lock", map[string]string{"must_reject.lock.json": "{}\n"}, nil,
			[]string{"edit lock unsigned"}, ""},
		{"reviewer's trailer", agent, "add case\n\nSigned-off-by: Rita Reviewer <rita@example.com>", map[string]string{"corpus/must_reject/a.json": "{}\n"}, nil,
			[]string{"add case signed"}, "Rita is a signer the merge-base lists"},
		{"someone else's trailer the agent typed", agent, "add case\n\nSigned-off-by: Random Person <random@example.com>", map[string]string{"corpus/must_reject/a.json": "{}\n"}, nil,
			[]string{"add case unsigned"}, "issue 26: a trailer is text; only a configured signer's counts"},
		{"unconfigured repository", agent, "add case\n\nSigned-off-by: Rita Reviewer <rita@example.com>", map[string]string{"corpus/must_reject/a.json": "{}\n"}, []string{},
			[]string{"add case unsigned"}, "issue 26: with no signer configured every protected change is blocked"},
		{"author signs own commit", agent, "add case\n\nSigned-off-by: Agent Bot <agent@bots.invalid>", map[string]string{"must_reject.lock.json": "{}\n"}, nil,
			[]string{"add case unsigned"}, "the agent's commit template signing as itself is not a reviewer"},
		{"same email other name", agent, "add case\n\nSigned-off-by: Someone Else <AGENT@bots.invalid>", map[string]string{"must_reject.lock.json": "{}\n"}, nil,
			[]string{"add case unsigned"}, "identity is the email, compared without case"},
		{"trailer in prose does not count", agent, "add case\n\nSigned-off-by: Rita Reviewer <rita@example.com> was asked but\nnever replied.", map[string]string{"must_reject.lock.json": "{}\n"}, nil,
			[]string{"add case unsigned"}, "a Signed-off-by that is not a clean Name <email> identity names nobody who can be asked"},
		{"allow-listed author", "Lead Human <lead@example.com>", "add case\n\nSigned-off-by: Lead Human <lead@example.com>", map[string]string{"corpus/must_reject/b.json": "{}\n"}, []string{"lead@example.com"},
			[]string{"add case signed"}, "a maintainer on the allow-list may sign their own change"},
		{"not allow-listed author", "Lead Human <lead@example.com>", "add case\n\nSigned-off-by: Lead Human <lead@example.com>", map[string]string{"corpus/must_reject/b.json": "{}\n"}, nil,
			[]string{"add case unsigned"}, ""},
		{"nested fixture", agent, "nested", map[string]string{"corpus/must_reject/deep/x.json": "{}\n"}, nil, []string{"nested unsigned"}, ""},
		{"lookalike path", agent, "lookalike", map[string]string{"corpus/must_reject_old/x.json": "{}\n", "must_reject.lock.json.bak": "x\n"}, nil, nil,
			"only the corpus directory and the lockfile itself are protected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newGitRepo(t)
			r.commit(tt.author, tt.message, tt.files)
			r.commit(agent, "unrelated", map[string]string{"other.py": "y = 2\n"})
			signers := tt.signers
			if signers == nil {
				signers = []string{"Rita Reviewer <rita@example.com>"}
			}
			g := &Guard{Repo: r.repo(), Protected: []string{"corpus/must_reject/", "must_reject.lock.json"}, Signers: signers}
			rep, err := g.Check(context.Background(), "base", "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range rep.Touching {
				state := "unsigned"
				if c.Signed() {
					state = "signed"
				}
				got = append(got, c.Subject+" "+state)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("protected commits (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
			if rep.Commits != 2 {
				t.Errorf("Commits = %d, want 2", rep.Commits)
			}
		})
	}
}

// TestGuardRenameOut: moving a fixture out of the corpus changes the corpus.
func TestGuardRenameOut(t *testing.T) {
	r := newGitRepo(t)
	r.commit("Lead <lead@example.com>", "add\n\nSigned-off-by: Rita <rita@example.com>", map[string]string{"corpus/must_reject/a.json": "{\"email\": \"x\"}\n"})
	r.git("branch", "-f", "base")
	r.git("mv", "corpus/must_reject/a.json", "attic.json")
	r.commit(agent, "tidy", nil)
	g := &Guard{Repo: r.repo(), Protected: []string{"corpus/must_reject/"}, Signers: []string{"rita@example.com"}}
	rep, err := g.Check(context.Background(), "base", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Blocked(); len(b) != 1 || b[0].Subject != "tidy" {
		t.Errorf("Blocked() = %+v, want the rename commit", b)
	}
}

func TestGuardBadRevision(t *testing.T) {
	r := newGitRepo(t)
	_, err := (&Guard{Repo: r.repo()}).Check(context.Background(), "no-such-branch", "HEAD")
	if err == nil || !strings.Contains(err.Error(), "git rev-list") {
		t.Errorf("Check with an unknown base: err = %v, want a git rev-list error", err)
	}
}

// TestGuardJudgesTheNetChange is the adversary suite's guard class (issue
// 26, item 5): each attack reaches a protected file by a route the
// per-commit check did not see, beside a control the guard catches.
func TestGuardJudgesTheNetChange(t *testing.T) {
	const lock = "must_reject.lock.json"
	protected := []string{lock, "corpus/must_reject/"}
	signers := []string{"Rita Reviewer <rita@example.com>"}
	check := func(t *testing.T, r *gitRepo) *GuardReport {
		t.Helper()
		rep, err := (&Guard{Repo: r.repo(), Protected: protected, Signers: signers}).Check(context.Background(), "base", "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	t.Run("control: a plain commit", func(t *testing.T) {
		r := newGitRepo(t)
		r.commit(agent, "weaken", map[string]string{lock: "{}\n"})
		if b := check(t, r).Blocked(); len(b) != 1 {
			t.Errorf("Blocked() = %+v, want the commit", b)
		}
	})
	t.Run("merge restores an older protected file", func(t *testing.T) {
		// The lock had a weak version once; the reviewed strong one is at
		// the base. The agent merges the old commit back with the weak
		// file, signing the merge as itself: against its first parent the
		// merge changes nothing the per-commit check listed.
		r := newGitRepo(t)
		r.commit(agent, "weak lock", map[string]string{lock: "weak\n"})
		old := r.git("rev-parse", "HEAD")
		r.commit("Rita Reviewer <rita@example.com>", "strong lock\n\nSigned-off-by: Rita Reviewer <rita@example.com>", map[string]string{lock: "strong\n"})
		r.git("branch", "-f", "base")
		r.git("checkout", "-q", "-b", "agent", old)
		r.commit(agent, "code", map[string]string{"a.py": "x = 1\n"})
		r.git("-c", "user.name=Agent Bot", "-c", "user.email=agent@bots.invalid", "merge", "-q", "-s", "ours", "--no-edit", "base")
		rep := check(t, r)
		b := rep.Blocked()
		if len(b) != 1 || len(b[0].Paths) != 1 || b[0].Paths[0] != lock {
			t.Errorf("Blocked() = %+v, want the merge that restores %s", b, lock)
		}
	})
	t.Run("changed and restored nets nothing", func(t *testing.T) {
		r := newGitRepo(t)
		r.commit(agent, "touch", map[string]string{lock: "x\n"})
		r.commit(agent, "untouch", map[string]string{lock: ""})
		if b := check(t, r).Blocked(); len(b) != 0 {
			t.Errorf("Blocked() = %+v, want nothing: the net change leaves the lock as the merge-base had it", b)
		}
	})
	t.Run("signed commit then an unsigned one on the same file", func(t *testing.T) {
		r := newGitRepo(t)
		r.commit(agent, "reviewed\n\nSigned-off-by: Rita Reviewer <rita@example.com>", map[string]string{lock: "a\n"})
		r.commit(agent, "after review", map[string]string{lock: "b\n"})
		b := check(t, r).Blocked()
		if len(b) != 1 || b[0].Subject != "after review" {
			t.Errorf("Blocked() = %+v, want the unreviewed commit", b)
		}
	})
}
