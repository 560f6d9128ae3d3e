package propose

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func check(t *testing.T, o *OpenAI) *Support {
	t.Helper()
	s, err := o.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func statuses(s *Support) map[string]string {
	m := map[string]string{}
	for _, p := range s.Params {
		m[p.Name] = p.Status
	}
	return m
}

func TestCheckAllAccepted(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply { return chat(`{"items": []}`, "", promptChars(r)) })
	o, _ := newTestProposer(t, f.url())
	s := check(t, o)
	want := map[string]string{"temperature": "accepted", "seed": "accepted", "max_tokens": "accepted", "response_format": "accepted"}
	if diff := cmp.Diff(want, statuses(s)); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	if !s.Usable || !s.Reachable || s.Auth != "ok" || s.ModelFound != "yes" || !s.ReplyIsJSON || s.Requests != 1 {
		t.Errorf("support = %+v", s)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	// The check sends what a run sends.
	r := reqs[0].Raw
	temp, ok := r["temperature"].(float64)
	rf, _ := r["response_format"].(map[string]any)
	if !ok || temp > 1e-30 || r["seed"] != float64(7) || r["max_tokens"] != float64(2048) || rf["type"] != "json_schema" || r["model"] != "test-model" {
		t.Errorf("the check's request is not a run's: %s", reqs[0].Body)
	}
	if reqs[0].Auth != "Bearer "+testKey {
		t.Errorf("Authorization = %q", reqs[0].Auth)
	}
}

// TestCheckRefusals: the check drops what the endpoint refuses, says so,
// and remembers it: the next run sends only what is accepted.
func TestCheckRefusals(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply {
		if _, ok := r.Raw["max_tokens"]; ok {
			return reply{status: 400, body: openaiMaxTokens}
		}
		if _, ok := r.Raw["temperature"]; ok {
			return reply{status: 400, body: openaiTemp}
		}
		if rf, _ := r.Raw["response_format"].(map[string]any); rf["type"] == "json_schema" {
			return reply{status: 500, body: llamacppFormat}
		}
		return chat(goodItems, "", promptChars(r))
	})
	o, _ := newTestProposer(t, f.url())
	s := check(t, o)
	want := []ParamSupport{
		{Name: "temperature", Status: "refused", Detail: "not sent: the model samples at its default, so replies may vary between runs"},
		{Name: "seed", Status: "accepted", Detail: "sent"},
		{Name: "max_tokens", Status: "refused", Detail: "max_completion_tokens accepted instead"},
		{Name: "response_format", Status: "accepted", Detail: "json_object (json_schema refused)"},
	}
	if diff := cmp.Diff(want, s.Params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	if !s.Usable || s.Requests != 4 || s.Remembered == "" {
		t.Errorf("support = %+v, want usable after 4 requests, remembered", s)
	}
	if _, err := os.Stat(s.Remembered); err != nil {
		t.Errorf("memory: %v", err)
	}
	sent := len(f.requests())
	o2, _ := newTestProposer(t, f.url())
	o2.Config.CacheDir = o.Config.CacheDir
	if _, err := propose(t, o2, intervals(t)); err != nil {
		t.Fatal(err)
	}
	if got := len(f.requests()) - sent; got != 1 {
		t.Errorf("the run after the check sent %d requests, want 1", got)
	}
	var text bytes.Buffer
	WriteSupport(&text, s)
	for _, line := range []string{"max_tokens       refused   max_completion_tokens accepted instead", "usable: yes (4 requests); what it refused is remembered in "} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, text.String())
		}
	}
}

// refusedAddr is a local address that refuses connections for the whole
// test: a socket bound to it that never listens. A listener closed at once
// frees its port, and a parallel test's server may take it and answer.
func refusedAddr(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}

func TestCheckFailures(t *testing.T) {
	down := "http://" + refusedAddr(t) + "/v1"
	tests := []struct {
		name      string
		status    int
		body      string
		key       string
		noV1      bool   // point at the server without /v1
		endpoint  string // instead of the fake
		reachable bool
		auth      string
		found     string
		problem   []string
	}{
		{name: "bad key", status: 401, body: `{"error":{"message":"Incorrect API key provided: ` + testKey + `.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, key: testKey,
			reachable: true, auth: "refused", found: "unknown", problem: []string{"HTTP 401", "Incorrect API key provided: [redacted]"}},
		{name: "no key", status: 401, body: `{"error":{"message":"No auth credentials found","code":401}}`,
			reachable: true, auth: "refused", found: "unknown", problem: []string{"HTTP 401", "the environment variable OPENAI_API_KEY is empty"}},
		{name: "ollama model not pulled", status: 404, body: `{"error":{"message":"model \"qwen9\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`, key: testKey,
			reachable: true, auth: "ok", found: "no", problem: []string{"HTTP 404", "not found, try pulling it first"}},
		{name: "openai model does not exist", status: 404, body: `{"error":{"message":"The model 'gpt-9' does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`, key: testKey,
			reachable: true, auth: "ok", found: "no"},
		{name: "openrouter invalid model", status: 400, body: `{"error":{"message":"nosuch/model is not a valid model ID","code":400}}`, key: testKey,
			reachable: true, auth: "ok", found: "no"},
		{name: "base URL without /v1", noV1: true, key: testKey, reachable: true, auth: "ok", found: "unknown", problem: []string{"HTTP 404", "ends in /v1"}},
		{name: "unreachable", endpoint: down, reachable: false, auth: "unknown", found: "unknown", problem: []string{"unreachable", "is the server running"}},
		{name: "other 400", status: 400, body: `{"error":{"message":"context too long"}}`, key: testKey, reachable: true, auth: "ok", found: "unknown", problem: []string{"HTTP 400: context too long"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(int, wireRequest) reply { return reply{status: tc.status, body: tc.body} })
			url := f.url()
			if tc.noV1 {
				url = f.srv.URL
			}
			if tc.endpoint != "" {
				url = tc.endpoint
			}
			o, _ := newTestProposer(t, url)
			o.apiKey = tc.key
			o.Config.MaxAttempts = 1
			s := check(t, o)
			if s.Usable || s.Reachable != tc.reachable || s.Auth != tc.auth || s.ModelFound != tc.found {
				t.Errorf("usable %v reachable %v auth %s model %s, want false %v %s %s", s.Usable, s.Reachable, s.Auth, s.ModelFound, tc.reachable, tc.auth, tc.found)
			}
			for _, p := range tc.problem {
				if !strings.Contains(s.Problem, p) {
					t.Errorf("problem %q lacks %q", s.Problem, p)
				}
			}
			if strings.Contains(s.Problem, testKey) || strings.Contains(s.Problem, "\n") {
				t.Errorf("problem is not one scrubbed line: %q", s.Problem)
			}
			for _, p := range s.Params {
				if p.Status != "unknown" {
					t.Errorf("%s is %s after a failed request, want unknown", p.Name, p.Status)
				}
			}
			var j bytes.Buffer
			if err := WriteSupportJSON(&j, s); err != nil {
				t.Fatal(err)
			}
			var back map[string]any
			if err := json.Unmarshal(j.Bytes(), &back); err != nil || back["usable"] != false || back["parameters"] == nil {
				t.Errorf("json = %s (%v)", j.String(), err)
			}
			if tc.endpoint == "" {
				if m, _ := filepath.Glob(filepath.Join(o.Config.CacheDir, "endpoints", "*")); len(m) != 0 {
					t.Errorf("a failed check with nothing refused wrote %v", m)
				}
			}
		})
	}
}
