package batch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func gitRepo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@premise.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@premise.invalid", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "base")
	return dir, git
}

// TestListRefs: the hosts' ref layouts and other globs, each PR named by
// what the wildcards matched, ordered by number.
func TestListRefs(t *testing.T) {
	dir, git := gitRepo(t)
	head := git("rev-parse", "HEAD")
	for _, ref := range []string{"refs/pull/10/head", "refs/pull/9/head", "refs/pull/9/merge", "refs/merge-requests/3/head",
		"refs/heads/agent/fix-1", "refs/heads/agent/deep/fix-2"} {
		git("update-ref", ref, head)
	}
	cases := []struct {
		name, pattern string
		want          []string // ID:number
		reason        string
	}{
		{"github", "refs/pull/*/head", []string{"9:9", "10:10"}, "refs/pull/9/merge is GitHub's merge commit, not the head; 9 sorts before 10 by number"},
		{"gitlab", "refs/merge-requests/*/head", []string{"3:3"}, ""},
		{"one component", "refs/heads/agent/*", []string{"fix-1:0"}, "* does not cross a slash"},
		{"any depth", "refs/heads/agent/**", []string{"deep_fix-2:0", "fix-1:0"}, "** does; the slash is no directory separator in the ID"},
		{"none", "refs/pull/*/nothing", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prs, err := ListRefs(context.Background(), dir, c.pattern)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range prs {
				got = append(got, p.ID+":"+strconv.Itoa(p.Number))
				if p.Head != p.Ref {
					t.Errorf("%s: head %q, want the ref itself, resolved when it runs", p.ID, p.Head)
				}
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got)\n%s\n%s", d, c.reason)
			}
		})
	}
	if _, err := ListRefs(context.Background(), dir, ""); err == nil {
		t.Error("an empty pattern was accepted")
	}
}

// TestReadPRs: gh's JSON, and one-line errors naming the file and entry.
func TestReadPRs(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "prs.json")
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	prs, err := ReadPRs(write(`[{"number": 12, "title": "b", "headRefOid": "abcdef1234567", "baseRefName": "main", "url": "x"},
	  {"number": 3, "title": "a", "headRefOid": "1234567abcdef", "baseRefName": "dev"}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []PR{{ID: "3", Number: 3, Title: "a", Head: "1234567abcdef", Base: "dev"}, {ID: "12", Number: 12, Title: "b", Head: "abcdef1234567", Base: "main"}}
	if d := cmp.Diff(want, prs); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	for _, c := range []struct{ text, want string }{
		{`{"number": 1}`, "not the JSON of gh pr list"},
		{`[{"number": 1, "headRefOid": "nope"}]`, `entry 1 (#1): headRefOid "nope" is not a commit id`},
		{`[{"headRefOid": "abcdef1"}]`, "entry 1: no number"},
		{`[{"number": 1, "headRefOid": "abcdef1"}, {"number": 1, "headRefOid": "abcdef2"}]`, "entry 2: #1 is listed twice"},
	} {
		_, err := ReadPRs(write(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "prs.json") {
			t.Errorf("%s: error %v, want one naming prs.json and %q", c.text, err, c.want)
		}
	}
}

// TestShard: every PR falls in exactly one shard, and which one depends on
// the PR alone, not on what else is open.
func TestShard(t *testing.T) {
	var all []PR
	for i := 1; i <= 200; i++ {
		all = append(all, PR{ID: strconv.Itoa(i), Number: i})
	}
	counts := make([]int, 4)
	for _, pr := range all {
		n := 0
		for i := 1; i <= 4; i++ {
			if (Shard{I: i, N: 4}).Has(pr) {
				n++
				counts[i-1]++
			}
		}
		if n != 1 {
			t.Fatalf("PR %s is in %d of 4 shards", pr.ID, n)
		}
	}
	for i, c := range counts {
		if c < 25 {
			t.Errorf("shard %d/4 took %d of 200 PRs: the split is lopsided", i+1, c)
		}
	}
	if !(Shard{}).Has(all[0]) {
		t.Error("no shard must take every PR")
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("--shard %s accepted", bad)
		}
	}
	if s, err := ParseShard("2/3"); err != nil || s != (Shard{I: 2, N: 3}) {
		t.Errorf("2/3: %v %v", s, err)
	}
}
