package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/premise-dev/premise/batch"
	"github.com/premise-dev/premise/validate"
)

// fakeModel is a local Chat Completions endpoint that answers each request
// from what it was asked: for every symbol in the prompt, one row quoting
// the symbol's first changed line (kept by the filter) and one citing a
// symbol that does not exist (dropped as unknown_symbol). It counts every
// request and every distinct request body.
type fakeModel struct {
	srv *httptest.Server

	mu     sync.Mutex
	n      int
	bodies map[[32]byte]int
}

var (
	promptSymbol = regexp.MustCompile(`(?m)^=== (.+) ===$`)
	promptDiff   = regexp.MustCompile(`(?s)<<<DIFF\n(.*?)\nDIFF>>>`)
)

func newFakeModel(t *testing.T) *fakeModel {
	m := &fakeModel{bodies: map[[32]byte]int{}}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		m.n++
		m.bodies[sha256.Sum256(body)]++
		m.mu.Unlock()
		var req struct{ Messages []struct{ Content string } }
		json.Unmarshal(body, &req)
		last := req.Messages[len(req.Messages)-1].Content
		items := []map[string]string{}
		if !strings.Contains(last, "Some of your items were dropped") {
			syms, diffs := promptSymbol.FindAllStringSubmatch(last, -1), promptDiff.FindAllStringSubmatch(last, -1)
			for i, s := range syms {
				ev := ""
				if i < len(diffs) {
					for _, l := range strings.Split(diffs[i][1], "\n") {
						if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && strings.TrimSpace(l[1:]) != "" {
							ev = strings.TrimSpace(l[1:])
							break
						}
					}
				}
				items = append(items,
					map[string]string{"symbol": s[1], "precondition": "callers pass values the old code accepted", "evidence": ev},
					map[string]string{"symbol": "nowhere.invented", "precondition": "made up", "evidence": ev})
			}
		}
		content, _ := json.Marshal(map[string]any{"items": items})
		b, _ := json.Marshal(map[string]any{
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(content)}}},
			"usage":   map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": len(content) / 4},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// requests returns the requests so far and the most times one body was
// sent.
func (m *fakeModel) requests() (n, most int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.bodies {
		most = max(most, c)
	}
	return m.n, most
}

// prRepo is a repository with a base on main and pull requests of many
// shapes as refs/pull/N/head, and the gh pr list JSON of them, whose last
// entry names a head that no longer exists.
type prRepo struct {
	dir, prsFile string
	heads        map[int]string
}

const (
	moneyGo = `package money

import "errors"

// Cents converts whole units to cents.
func Cents(units int) (int, error) {
	if units < 0 {
		return 0, errors.New("negative amount")
	}
	return units * 100, nil
}

// Fee is the fee on an amount in cents.
func Fee(amount int) int {
	if amount <= 0 {
		return 0
	}
	return amount / 50
}
`
	calcPy = `def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def scale(x, k):
    return x * k
`
	textPy = `def slug(s):
    return "-".join(s.lower().split())
`
	legacyPy = `def old_total(xs):
    total = 0
    for x in xs:
        total += x
    return total
`
)

func newPRRepo(t *testing.T, endpoint string) *prRepo {
	t.Helper()
	dir := t.TempDir()
	r := &prRepo{dir: dir, heads: map[int]string{}}
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
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(name, from, to string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), from) {
			t.Fatalf("edit %s: %q not found (%v)", name, from, err)
		}
		write(name, strings.Replace(string(b), from, to, 1))
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/shop\n\ngo 1.21\n")
	write("money/money.go", moneyGo)
	write("calc.py", calcPy)
	write("text.py", textPy)
	write("legacy.py", legacyPy)
	write("logo.bin", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01")
	write("README.md", "# shop\n")
	// No time-bounded search: what a search finds in its time depends on
	// how busy the machine is, and the shards run at another time than
	// the whole batch they must equal. The rows alone are seeded. (The
	// environment's PREMISE_SEARCH_SECONDS is over this; TestMain sets
	// it to 0 as well.)
	write(".premise.yaml", "endpoint: "+endpoint+"\nmodel: fake\nevidence:\n  search_seconds: 0\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	// Each PR is a branch off main with one commit.
	prs := []struct {
		n      int
		title  string
		change func()
	}{
		{1, "go: narrow the check", func() { edit("money/money.go", "units < 0", "units < -1") }},
		{2, "go: drop the check", func() {
			edit("money/money.go", "if units < 0 {\n\t\treturn 0, errors.New(\"negative amount\")\n\t}\n", "")
			edit("money/money.go", "import \"errors\"\n\n", "")
		}},
		{3, "go: a larger fee", func() { edit("money/money.go", "amount / 50", "amount / 40") }},
		{4, "go: a new function", func() {
			write("money/tax.go", "package money\n\n// Tax is the tax on cents.\nfunc Tax(c int) int { return c / 5 }\n")
		}},
		{5, "go: does not build", func() { edit("money/money.go", "return units * 100, nil", "return units * hundred, nil") }},
		{6, "py: clamp off by one", func() { edit("calc.py", "if x > hi:", "if x > hi + 1:") }},
		{7, "py: scale by magnitude", func() { edit("calc.py", "return x * k", "return x * abs(k)") }},
		{8, "py: upper-case slugs", func() { edit("text.py", "s.lower()", "s.upper()") }},
		{9, "py: a new function", func() { write("calc.py", calcPy+"\n\ndef mid(a, b):\n    return (a + b) // 2\n") }},
		{10, "py: delete a function", func() { write("calc.py", strings.SplitN(calcPy, "\n\n\ndef scale", 2)[0]+"\n") }},
		{11, "py: delete a file", func() { git("rm", "-q", "legacy.py") }},
		{12, "rename a file", func() { git("mv", "legacy.py", "totals.py") }},
		{13, "rename and change", func() {
			git("mv", "legacy.py", "totals.py")
			edit("totals.py", "total = 0", "total = 1")
		}},
		{14, "binary only", func() { write("logo.bin", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x02\xff") }},
		{15, "binary and python", func() {
			write("logo.bin", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x03")
			edit("calc.py", "if x < lo:", "if x <= lo:")
		}},
		{16, "docs only", func() { write("README.md", "# shop\n\nNow with docs.\n") }},
		{17, "py: scale by magnitude, again", func() { edit("calc.py", "return x * k", "return x * abs(k)") }},
		{18, "py: scale by magnitude, a third time", func() { edit("calc.py", "return x * k", "return x * abs(k)") }},
		{19, "py: clamp off by one, and slugs", func() {
			edit("calc.py", "if x > hi:", "if x > hi + 1:")
			edit("text.py", "s.lower()", "s.casefold()")
		}},
		{20, "settings: another endpoint", func() { write(".premise.yaml", "endpoint: http://127.0.0.1:9/v1\nmodel: fake\n") }},
		{21, "py: two functions", func() {
			edit("calc.py", "return lo", "return lo - 0")
			edit("calc.py", "return x * k", "return k * x + 0")
		}},
		{22, "py: a class", func() {
			write("shapes.py", "class Box:\n    def __init__(self, w):\n        self.w = w\n\n    def area(self, h):\n        return self.w * h\n")
		}},
		{25, "py: hidden characters", func() { edit("text.py", "\"-\"", "\"-\u200b\"") }},
		{26, "go: both functions", func() {
			edit("money/money.go", "units < 0", "units <= 0")
			edit("money/money.go", "amount <= 0", "amount < 0")
		}},
		{27, "py: a new package", func() { write("pkg/util.py", "def pairs(xs):\n    return list(zip(xs, xs[1:]))\n") }},
		{29, "py: a comment only", func() { edit("calc.py", "def scale(x, k):\n", "def scale(x, k):\n    # multiply\n") }},
	}
	for _, pr := range prs {
		git("checkout", "-q", "-b", fmt.Sprintf("pr%d", pr.n), "main")
		pr.change()
		git("add", "-A")
		git("commit", "-q", "-m", pr.title)
		r.heads[pr.n] = git("rev-parse", "HEAD")
	}
	// 23: history of its own, no merge-base with main.
	git("checkout", "-q", "--orphan", "pr23")
	write("calc.py", calcPy+"\n# unrelated\n")
	git("add", "-A")
	git("commit", "-q", "-m", "unrelated history")
	r.heads[23] = git("rev-parse", "HEAD")
	// 28: no commit beyond main.
	git("checkout", "-q", "main")
	r.heads[28] = git("rev-parse", "HEAD")
	for n, h := range r.heads {
		git("update-ref", fmt.Sprintf("refs/pull/%d/head", n), h)
	}
	// 24: a ref to a blob, not a commit.
	blob := git("hash-object", "-w", "calc.py")
	git("update-ref", "refs/pull/24/head", blob)
	r.heads[24] = blob
	// 30: closed and collected: gh still lists it, the commit is gone.
	r.heads[30] = strings.Repeat("0123456789", 4)
	var list []map[string]any
	for n := 1; n <= 30; n++ {
		list = append(list, map[string]any{"number": n, "title": fmt.Sprintf("PR %d", n), "headRefOid": r.heads[n], "baseRefName": "main", "url": "ignored"})
	}
	data, _ := json.Marshal(list)
	r.prsFile = filepath.Join(t.TempDir(), "prs.json")
	if err := os.WriteFile(r.prsFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// readSummary reads OUT/summary.json.
func readSummary(t *testing.T, out string) *batch.Summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, batch.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var s batch.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", batch.SummaryJSON, err)
	}
	return &s
}

// TestBatchEndToEnd runs premise batch -j 4 over 30 pull requests of many
// shapes against a local model endpoint and checks every output; a second
// run sends no request; two shards merged equal the unsharded run.
func TestBatchEndToEnd(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("the Python PRs need python3, which premise requires (README, Set up)")
	}
	model := newFakeModel(t)
	r := newPRRepo(t, model.srv.URL+"/v1")
	cache := t.TempDir()
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"batch", "--repo", r.dir, "--prs", r.prsFile, "--out", out, "-j", "4", "--cache-dir", cache}

	code, stdout, stderr := runPremise(t, args...)
	if code != 3 {
		t.Fatalf("exit %d, want 3 (three PRs cannot run)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	sent, most := model.requests()
	if sent == 0 || most != 1 {
		t.Fatalf("the model got %d requests, one body up to %d times; want every request sent once", sent, most)
	}
	sum := readSummary(t, out)
	checkBatchOutputs(t, r, out, sum)
	if !strings.Contains(stdout, "premise batch: 30 PRs: 27 ran, 0 resumed, 3 could not run") {
		t.Errorf("the summary's first line is missing:\n%s", stdout)
	}
	if got := strings.Count(stderr, "premise batch: "); got != 30 {
		t.Errorf("progress: %d lines, want one per PR off a terminal:\n%s", got, stderr)
	}

	// Resume: nothing is run again, nothing is asked.
	if code, _, stderr := runPremise(t, args...); code != 3 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if again, _ := model.requests(); again != sent {
		t.Errorf("the rerun sent %d requests; want none", again-sent)
	}
	if s := readSummary(t, out); s.Totals.Resumed != 27 || s.Totals.Failed != 3 {
		t.Errorf("rerun totals %+v, want 27 resumed and the 3 failures tried again", s.Totals)
	}

	// Two shards, as two machines of a CI matrix, into fresh directories
	// with the cache the first run filled: every reply comes from it.
	var shards []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("shard-%d", i))
		shards = append(shards, dir)
		code, _, stderr := runPremise(t, "batch", "--repo", r.dir, "--prs", r.prsFile, "--out", dir, "-j", "4",
			"--cache-dir", cache, "--shard", fmt.Sprintf("%d/2", i))
		if code != 3 && code != 0 {
			t.Fatalf("shard %d: exit %d\n%s", i, code, stderr)
		}
		if n := readSummary(t, dir).Totals.PRs; n == 0 || n == 30 {
			t.Errorf("shard %d/2 took %d of 30 PRs", i, n)
		}
	}
	if again, _ := model.requests(); again != sent {
		t.Errorf("fresh runs over the same changes sent %d requests; want none (the cache)", again-sent)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if code, _, stderr := runPremise(t, append([]string{"batch", "merge", "--out", merged}, shards...)...); code != 3 {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	if d := diffBatches(t, out, merged); d != "" {
		t.Errorf("two shards merged differ from the unsharded batch:\n%s", d)
	}
	if code, _, stderr := runPremise(t, "batch", "merge", "--out", filepath.Join(t.TempDir(), "m"), shards[0], shards[0]); code != 3 || !strings.Contains(stderr, "is in both") {
		t.Errorf("merging a shard with itself: exit %d, %s; want 3 naming the PR in both", code, stderr)
	}
}

// checkBatchOutputs checks what a maintainer reads: every PR's directory
// and its files, the verdict each shape of PR must get, and the order.
func checkBatchOutputs(t *testing.T, r *prRepo, out string, sum *batch.Summary) {
	t.Helper()
	if len(sum.PRs) != 30 {
		t.Fatalf("summary holds %d PRs, want 30", len(sum.PRs))
	}
	byNum := map[int]batch.Record{}
	for i, rec := range sum.PRs {
		byNum[rec.Number] = rec
		if i > 0 {
			prev := sum.PRs[i-1]
			if prev.Error != "" && rec.Error == "" || prev.Error == "" && rec.Error == "" && prev.Risk < rec.Risk {
				t.Errorf("summary order: #%d (risk %d) before #%d (risk %d)", prev.Number, prev.Risk, rec.Number, rec.Risk)
			}
		}
		dir := filepath.Join(out, rec.ID)
		data, err := os.ReadFile(filepath.Join(dir, batch.RunFile))
		if err != nil {
			t.Errorf("#%d: %v", rec.Number, err)
			continue
		}
		var onDisk batch.Record
		if err := json.Unmarshal(data, &onDisk); err != nil {
			t.Errorf("#%d run.json: %v", rec.Number, err)
			continue
		}
		if onDisk.Head != rec.Head || onDisk.Verdict != rec.Verdict || onDisk.Error != rec.Error {
			t.Errorf("#%d: run.json says %s %q, the summary %s %q", rec.Number, onDisk.Head, onDisk.Verdict, rec.Head, rec.Verdict)
		}
		if rec.Error != "" {
			if _, err := os.Stat(filepath.Join(dir, "draft.md")); err == nil {
				t.Errorf("#%d failed (%s) but has a draft.md", rec.Number, rec.Error)
			}
			continue
		}
		if onDisk.Run == nil || onDisk.Run.Head != rec.Head {
			t.Errorf("#%d: run.json lacks premise run's summary for head %s", rec.Number, rec.Head)
		}
		if rec.Head != r.heads[rec.Number] {
			t.Errorf("#%d: head %s, want %s", rec.Number, rec.Head, r.heads[rec.Number])
		}
		if len(rec.ChangedSymbols) == 0 {
			continue
		}
		reg, err := validate.LoadRegister(filepath.Join(dir, "assumptions.yaml"))
		if err != nil {
			t.Errorf("#%d: %v", rec.Number, err)
			continue
		}
		if reg.Provenance.Head != rec.Head || reg.Provenance.MergeBase != rec.MergeBase {
			t.Errorf("#%d: the register was drafted for %s...%s, not its PR", rec.Number, reg.Provenance.MergeBase, reg.Provenance.Head)
		}
		for _, it := range reg.Items {
			if !contains(rec.ChangedSymbols, it.Symbol) {
				t.Errorf("#%d: register row %s cites %s, not a changed symbol %v", rec.Number, it.ID, it.Symbol, rec.ChangedSymbols)
			}
		}
		draft, err := os.ReadFile(filepath.Join(dir, "draft.md"))
		if err != nil || !strings.Contains(string(draft), "head `"+rec.Head[:12]+"`") {
			t.Errorf("#%d: draft.md does not name its head (%v)", rec.Number, err)
		}
	}
	want := []struct {
		n       int
		verdict string
		changes bool // at least one behaviour change
		reason  string
	}{
		{1, "awaiting review", true, "Cents(-1) refused on base, accepted on head"},
		{2, "awaiting review", true, "the check is gone"},
		{5, "the head does not load", false, "the head does not build where the base does"},
		{6, "awaiting review", true, "clamp(hi+1) returns hi+1"},
		{11, "awaiting review", false, "the row on the deleted function awaits review; nothing at head to run"},
		{12, "nothing was checked", false, "a pure rename changes no function"},
		{14, "nothing was checked", false, "a binary file is no symbol"},
		{16, "nothing was checked", false, "docs only"},
		{20, "blocked by policy", false, ".premise.yaml changed with no reviewer's sign-off"},
		{28, "nothing was checked", false, "an empty PR"},
	}
	for _, w := range want {
		rec := byNum[w.n]
		if rec.Verdict != w.verdict || (rec.BehaviorChanges+rec.Unexplained > 0) != w.changes {
			t.Errorf("#%d: %q with %d+%d changes; want %q, changes %v (%s)", w.n, rec.Verdict, rec.BehaviorChanges, rec.Unexplained, w.verdict, w.changes, w.reason)
		}
	}
	for n, why := range map[int]string{23: "no merge-base", 24: "names a blob, not a commit", 30: "is not in the repository"} {
		if rec := byNum[n]; !strings.Contains(rec.Error, why) || rec.Exit != 3 {
			t.Errorf("#%d: error %q exit %d; want one naming %q", n, rec.Error, rec.Exit, why)
		}
	}
	if rec := byNum[25]; rec.Findings == 0 {
		t.Errorf("#25: no finding for a zero-width space in an added line")
	}
	if rec := byNum[7]; rec.Kept == 0 || rec.Dropped[validate.ReasonUnknownSymbol] == 0 {
		t.Errorf("#7: kept %d, dropped %v; want the model's real row kept and the invented one dropped as %s", rec.Kept, rec.Dropped, validate.ReasonUnknownSymbol)
	}
	// #7, #17 and #18 make the same change: one of them asked, the others
	// answered by the first's reply.
	asked := byNum[7].Requests + byNum[17].Requests + byNum[18].Requests
	if one := max(byNum[7].Requests, byNum[17].Requests, byNum[18].Requests); asked != one || one == 0 {
		t.Errorf("the same change in #7, #17, #18 took %d, %d, %d requests; want it asked once", byNum[7].Requests, byNum[17].Requests, byNum[18].Requests)
	}
	md, err := os.ReadFile(filepath.Join(out, batch.SummaryMarkdown))
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 30; n++ {
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^(\| |- )#%d PR %d`, n, n)).Match(md) {
			t.Errorf("summary.md has no line for #%d", n)
		}
	}
}

// diffBatches compares two batches' outputs as a user reads them: each
// PR's files, and the summary without what costs differ by (time,
// requests, tokens, cache hits) and the shard.
func diffBatches(t *testing.T, a, b string) string {
	t.Helper()
	norm := func(dir string) map[string]string {
		files := map[string]string{}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			for _, name := range []string{"assumptions.yaml", "draft.md"} {
				if data, err := os.ReadFile(filepath.Join(dir, e.Name(), name)); err == nil {
					files[e.Name()+"/"+name] = string(data)
				}
			}
		}
		s := readSummary(t, dir)
		s.Shard, s.Totals.Seconds, s.Totals.Requests, s.Totals.CacheHits, s.Totals.Tokens, s.Totals.Resumed, s.Totals.Ran = "", 0, 0, 0, 0, 0, 0
		for i := range s.PRs {
			p := &s.PRs[i]
			p.Seconds, p.Requests, p.CacheHits, p.PromptTokens, p.CompletionTokens, p.Resumed = 0, 0, 0, 0, 0, false
		}
		js, _ := json.MarshalIndent(s, "", " ")
		files["summary.json"] = string(js)
		return files
	}
	x, y := norm(a), norm(b)
	var keys []string
	for k := range x {
		keys = append(keys, k)
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var d []string
	for _, k := range keys {
		if x[k] != y[k] {
			d = append(d, fmt.Sprintf("%s:\n--- unsharded\n%s\n+++ merged\n%s", k, x[k], y[k]))
		}
	}
	return strings.Join(d, "\n")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
