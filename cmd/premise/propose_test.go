package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

const proposeTestKey = "sk-premise-test-KEY-42"

// gitIn runs git in dir as a test's own user, away from the machine's git
// configuration; a failure fails the test.
func gitIn(t *testing.T, dir string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@premise.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@premise.invalid", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// intervalsRepo makes a real repository holding examples/intervals: the
// base on main, the agent's patch on the current branch.
func intervalsRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := gitIn(t, dir)
	copyTree := func(from string) {
		t.Helper()
		err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(from, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
			return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	copyTree("../../examples/intervals/base")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "agent/single-pass")
	copyTree("../../examples/intervals/head")
	git("add", "-A")
	git("commit", "-q", "-m", "agent patch")
	return dir
}

// scriptedModel is a local Chat Completions server that answers every
// request with content and reports usage as a real server would count it
// (about four characters a token, the estimate premise itself uses).
func scriptedModel(t *testing.T, status int, content string) (*httptest.Server, *atomic.Int32, *bytes.Buffer) {
	var n atomic.Int32
	var seen bytes.Buffer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		body, _ := io.ReadAll(r.Body)
		seen.Write(body)
		if status != 200 {
			w.WriteHeader(status)
			fmt.Fprint(w, `{"error":{"message":"upstream exploded"}}`)
			return
		}
		var req struct{ Messages []struct{ Content string } }
		json.Unmarshal(body, &req)
		chars := 0
		for _, m := range req.Messages {
			chars += len(m.Content)
		}
		b, _ := json.Marshal(map[string]any{
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": (chars + 3) / 4, "completion_tokens": (len(content) + 3) / 4},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &seen
}

const modelReply = `{"items": [
 {"symbol": "merge_ranges", "precondition": "ranges arrive already sorted by start", "evidence": "for start, end in ranges:", "status": "accepted", "id": "A042"},
 {"symbol": "intervals.merge_ranges", "precondition": "touching ranges are meant to merge", "evidence": "if out and start <= out[-1][1]:"},
 {"symbol": "intervals.split_ranges", "precondition": "ranges are short", "evidence": "for start, end in ranges:"},
 {"symbol": "intervals.merge_ranges", "precondition": "end >= start", "evidence": "the loop checks end < start"}]}`

// TestProposeWithModel runs premise propose end to end against a scripted
// endpoint: rows the filter drops are reported on stderr and in --json with
// their reasons, the run still succeeds with what survives, the key reaches
// only the Authorization header, and a second run is served by the cache.
func TestProposeWithModel(t *testing.T) {
	repo := intervalsRepo(t)
	srv, n, seen := scriptedModel(t, 200, modelReply)
	cache := t.TempDir()
	t.Setenv("PREMISE_TEST_KEY", proposeTestKey)
	args := []string{"propose", "--repo", repo, "--base", "main", "--endpoint", srv.URL + "/v1", "--model", "scripted",
		"--api-key-env", "PREMISE_TEST_KEY", "--cache-dir", cache, "--no-repair", "--json"}
	code, out, errOut := runPremise(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Kept    []struct{ Symbol, Precondition, Status string }
		Dropped []struct{ Symbol, Reason, Detail string }
		Items   []struct{ ID, Status, Source string }
		Usage   struct {
			Requests         int `json:"requests"`
			CacheHits        int `json:"cache_hits"`
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(rep.Kept) != 2 || len(rep.Dropped) != 2 {
		t.Errorf("kept %d dropped %d, want 2 and 2: %+v", len(rep.Kept), len(rep.Dropped), rep)
	}
	for _, want := range []string{
		`premise: dropped unknown_symbol row (model:scripted) for "intervals.split_ranges": "intervals.split_ranges" is not a changed symbol of this diff`,
		`premise: dropped evidence_not_in_diff row (model:scripted) for "intervals.merge_ranges": the evidence "the loop checks end < start" is not in the diff`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, it := range rep.Items {
		if it.Status != "proposed" || !regexp.MustCompile(`^A00[12]$`).MatchString(it.ID) {
			t.Errorf("item %+v: the model's id and status must not be taken", it)
		}
	}
	if rep.Usage.Requests != 1 || n.Load() != 1 || rep.Usage.PromptTokens == 0 || rep.Usage.CompletionTokens == 0 {
		t.Errorf("usage %+v, %d requests served", rep.Usage, n.Load())
	}
	t.Logf("first run: %d requests, %d prompt + %d completion tokens", rep.Usage.Requests, rep.Usage.PromptTokens, rep.Usage.CompletionTokens)

	// Second run: the same diff, zero requests.
	code, _, errOut = runPremise(t, append(args[:len(args)-1], "--format", "markdown")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n.Load() != 1 || !strings.Contains(errOut, "; 0 requests, 1 cache hits") {
		t.Errorf("second run sent %d requests in all; stderr:\n%s", n.Load(), errOut)
	}

	// The key: in no request body, no file of the cache or the repository,
	// no line of output.
	if strings.Contains(seen.String(), proposeTestKey) || strings.Contains(out+errOut, proposeTestKey) {
		t.Errorf("the key leaked into a request body or the output")
	}
	for _, dir := range []string{cache, repo} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(proposeTestKey)) {
					t.Errorf("the key is in %s", p)
				}
			}
			return nil
		})
	}
}

// TestProposeEndpointFailsLeavesRegister: a 5xx after the last attempt is
// one line naming the endpoint, exit 3, and the existing register is
// byte-for-byte what it was.
func TestProposeEndpointFailsLeavesRegister(t *testing.T) {
	t.Parallel()
	repo := intervalsRepo(t)
	if code, _, errOut := runPremise(t, "propose", "--repo", repo, "--base", "main"); code != 0 {
		t.Fatalf("static run: exit %d: %s", code, errOut)
	}
	before, err := os.ReadFile(filepath.Join(repo, "assumptions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv, n, _ := scriptedModel(t, 503, "")
	code, out, errOut := runPremise(t, "propose", "--repo", repo, "--base", "main", "--endpoint", srv.URL+"/v1", "--model", "m",
		"--max-attempts", "2", "--no-cache")
	if code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	last := lines[len(lines)-1]
	if want := "premise: endpoint " + srv.URL + "/v1: HTTP 503"; !strings.HasPrefix(last, want) || !strings.Contains(last, "(after 2 attempts)") {
		t.Errorf("last stderr line = %q, want it to start %q and count the attempts", last, want)
	}
	if n.Load() != 2 || out != "" {
		t.Errorf("%d requests, stdout %q", n.Load(), out)
	}
	after, _ := os.ReadFile(filepath.Join(repo, "assumptions.yaml"))
	if !bytes.Equal(before, after) {
		t.Errorf("the register changed on a failed run")
	}
}
