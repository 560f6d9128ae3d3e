package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommentCommand: premise comment finds GitHub at $GITHUB_API_URL, the
// repository in $GITHUB_REPOSITORY and the token in $GITHUB_TOKEN, and
// under --json reports what it did, or the error as JSON with exit 3.
func TestCommentCommand(t *testing.T) {
	var posted []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v3/repos/acme/shop/issues/5/comments" || r.Header.Get("Authorization") != "Bearer ghs_cli" {
			t.Errorf("unexpected %s %s (%s)", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			posted = append(posted, string(b))
			w.Write([]byte(`{"id": 41, "html_url": "https://github.example/acme/shop/pull/5#issuecomment-41"}`))
			return
		}
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	t.Setenv("GITLAB_CI", "")
	t.Setenv("GITHUB_API_URL", srv.URL+"/api/v3")
	t.Setenv("GITHUB_REPOSITORY", "acme/shop")
	t.Setenv("GITHUB_TOKEN", "ghs_cli")
	dir := t.TempDir()
	draft := "## premise: what this patch assumes\n\n| id | status | symbol | precondition | evidence | behaviour seen |\n| --- | --- | --- | --- | --- | --- |\n| A001 | proposed | `calc.clamp` | x is below hi | `x` | no change on its rows |\n"
	os.WriteFile(filepath.Join(dir, "draft.md"), []byte(draft), 0o644)

	code, out, errOut := runPremise(t, "comment", "--pr", "5", "--repo", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Action string `json:"action"`
		ID     int64  `json:"id"`
		Items  int    `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Action != "created" || res.ID != 41 || res.Items != 1 || len(posted) != 1 {
		t.Errorf("--json: %s (%v); %d posted", out, err, len(posted))
	}
	code, out, _ = runPremise(t, "comment", "--pr", "5", "--draft", filepath.Join(dir, "missing.md"), "--json")
	var fail struct {
		Error string `json:"error"`
		Exit  int    `json:"exit"`
	}
	if code != 3 || json.Unmarshal([]byte(out), &fail) != nil || fail.Exit != 3 || !strings.Contains(fail.Error, "missing.md") {
		t.Errorf("a missing draft: exit %d, %s; want exit 3 and the error naming the file as JSON", code, out)
	}
}
