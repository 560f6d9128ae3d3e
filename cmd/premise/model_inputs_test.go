package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// discountRepo is a repository whose patch changes behaviour only for
// lower-case codes: no literal of the function and no value premise
// generates is one, so only an input a model chooses shows it.
func discountRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := gitIn(t, dir)
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, "shop.py"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("def discount(code):\n    table = {\"SUMMER\": 10, \"WINTER\": 15}\n    return table.get(code.upper(), 0)\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "agent")
	write("def discount(code):\n    table = {\"SUMMER\": 10, \"WINTER\": 15}\n    return table.get(code, 0)\n")
	git("commit", "-q", "-am", "shop: no upper")
	return dir
}

// inputsModel answers the assumptions prompt with no items and the inputs
// prompt with inputs, or with status for the inputs prompt alone.
func inputsModel(t *testing.T, inputsStatus int, inputs string) (*httptest.Server, *atomic.Int32, *strings.Builder) {
	return chatModel(t, "choosing inputs", inputsStatus, inputs, `{"items": []}`)
}

// chatModel is a Chat Completions endpoint that answers a request whose
// body holds match with reply (or fails it with status), counting those
// requests and keeping their bodies; any other request gets other, or a
// 400 when other is empty.
func chatModel(t *testing.T, match string, status int, reply, other string) (*httptest.Server, *atomic.Int32, *strings.Builder) {
	var asked atomic.Int32
	var seen strings.Builder
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		content := other
		if strings.Contains(string(body), match) {
			asked.Add(1)
			seen.Write(body)
			if status != 200 {
				w.WriteHeader(status)
				fmt.Fprint(w, `{"error":{"message":"the model exploded"}}`)
				return
			}
			content = reply
		} else if other == "" {
			http.Error(w, `{"error":{"message":"unexpected prompt"}}`, http.StatusBadRequest)
			return
		}
		b, _ := json.Marshal(map[string]any{
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, &asked, &seen
}

type modelRun struct {
	Exit            int `json:"exit"`
	EvidenceSymbols []struct {
		Symbol  string
		Sources map[string]int
	} `json:"evidence_symbols"`
	Changes []struct{ Input, Base, Head, Source string } `json:"unexplained_changes"`
	Notes   []string                                     `json:"evidence_notes"`
}

// TestRunAsksModelForInputs: with a model configured, premise run asks it
// for calls of each changed function, given both versions of its source;
// the calls run on both sides like any row, marked "model", and one of them
// shows the change no generated value reaches. A call carrying a key of the
// row protocol ($expr) is not run.
func TestRunAsksModelForInputs(t *testing.T) {
	t.Parallel()
	repo := discountRepo(t)
	srv, asked, seen := inputsModel(t, 200, `{"inputs": [{"args": ["summer"]}, {"args": ["Winter"]}, {"args": [{"$expr": "__import__('os').getcwd()"}]}]}`)
	code, out, errOut := runPremise(t, "run", "--repo", repo, "--base", "main", "--endpoint", srv.URL+"/v1", "--model", "m",
		"--no-cache", "--json", "--quiet")
	var rep modelRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
	}
	if asked.Load() != 1 || !strings.Contains(seen.String(), "code.upper()") || !strings.Contains(seen.String(), "Source before the patch") {
		t.Errorf("%d inputs requests; the request must show both versions:\n%s", asked.Load(), seen.String())
	}
	if len(rep.EvidenceSymbols) != 1 || rep.EvidenceSymbols[0].Sources["model"] != 2 {
		t.Errorf("evidence symbols %+v, want two rows from the model (the $expr call dropped)", rep.EvidenceSymbols)
	}
	found := false
	for _, c := range rep.Changes {
		found = found || (c.Input == "('summer')" && c.Base == "returned 10" && c.Head == "returned 0" && c.Source == "model")
	}
	if code != 1 || !found {
		t.Errorf("exit %d, changes %+v: want discount('summer') from the model, base 10, head 0", code, rep.Changes)
	}
}

// TestRunModelInputsFail: an endpoint that fails the inputs request leaves
// a note and the other rows; it is not asked again, and the run goes on.
func TestRunModelInputsFail(t *testing.T) {
	t.Parallel()
	repo := discountRepo(t)
	srv, asked, _ := inputsModel(t, 500, "")
	code, out, errOut := runPremise(t, "run", "--repo", repo, "--base", "main", "--endpoint", srv.URL+"/v1", "--model", "m",
		"--no-cache", "--max-attempts", "1", "--json", "--quiet")
	var rep modelRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "no model inputs for shop.discount") || !strings.Contains(rep.Notes[0], "500") {
		t.Errorf("notes %q, want one naming the function and the endpoint's failure", rep.Notes)
	}
	if asked.Load() != 1 || len(rep.EvidenceSymbols) != 1 || rep.EvidenceSymbols[0].Sources["one_at_a_time"] == 0 {
		t.Errorf("%d inputs requests, symbols %+v: the generated rows must still run", asked.Load(), rep.EvidenceSymbols)
	}
}
