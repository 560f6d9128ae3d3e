package propose

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestEchoedSecretsScrubbed: an endpoint that echoes the Authorization
// header (or another token) into its error body must not get the key
// printed, logged or wrapped into the error (issue 14, part 9).
func TestEchoedSecretsScrubbed(t *testing.T) {
	const other = "sk-proj-OTHERtoken987654321"
	tests := []struct {
		name   string
		status int
		body   func(auth string) string
		reqs   int
	}{
		{name: "401 JSON echoing the header", status: 401, reqs: 1,
			body: func(auth string) string {
				return fmt.Sprintf(`{"error":{"message":"invalid credentials in header Authorization: %s"}}`, auth)
			}},
		{name: "401 plain text echoing the header", status: 401, reqs: 1,
			body: func(auth string) string { return "unauthorized: got " + auth + " want something else" }},
		{name: "403 naming another token", status: 403, reqs: 1,
			body: func(string) string {
				return `{"error":{"message":"key ` + other + ` lacks scope; Bearer ghp_abcdefABCDEF0123456789 neither; api_key=hunter2hunter2"}}`
			}},
		{name: "502 echoing the key into every retry's log", status: 502, reqs: 3,
			body: func(auth string) string { return "<html>proxy saw " + auth + " and " + testKey + "</html>" }},
		{name: "key far into a long body", status: 401, reqs: 1,
			body: func(auth string) string { return strings.Repeat("x", 190) + " " + auth }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(n int, r wireRequest) reply {
				return reply{status: tc.status, body: tc.body(r.Auth)}
			})
			o, log := newTestProposer(t, f.url())
			_, err := propose(t, o, intervals(t))
			var ee *EndpointError
			if !errors.As(err, &ee) {
				t.Fatalf("err = %v, want an EndpointError", err)
			}
			if got := len(f.requests()); got != tc.reqs {
				t.Errorf("%d requests, want %d", got, tc.reqs)
			}
			out := err.Error() + "\n" + log.String()
			for _, secret := range []string{testKey, "SECRET-0123", other, "OTHERtoken", "ghp_abcdef", "hunter2"} {
				if strings.Contains(out, secret) {
					t.Errorf("%q printed:\n%s", secret, out)
				}
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("HTTP %d", tc.status)) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %q, want one line with the status", err)
			}
			if tc.name != "key far into a long body" && !strings.Contains(out, "[redacted]") {
				t.Errorf("nothing marked [redacted]:\n%s", out)
			}
			assertNoKey(t, o.Config.CacheDir, out)
		})
	}
}

// TestEndpointPasswordNotPrinted: a user and password in the endpoint URL
// stay out of the error.
func TestEndpointPasswordNotPrinted(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply { return reply{status: 401, body: `{"error":{"message":"no"}}`} })
	u := strings.Replace(f.url(), "http://", "http://user:pa55word@", 1)
	o, log := newTestProposer(t, u)
	_, err := propose(t, o, intervals(t))
	if err == nil || strings.Contains(err.Error()+log.String(), "pa55word") {
		t.Errorf("err = %v; want an error without the password", err)
	}
}

// TestOversizedReplyRefused: a body over the cap is an error after reading
// at most the cap, not retried, with or without a Content-Length.
func TestOversizedReplyRefused(t *testing.T) {
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprintf("chunked=%v", chunked), func(t *testing.T) {
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				big := `{"id":"x","choices":[{"message":{"role":"assistant","content":"` + strings.Repeat("A", 64<<10) + `"}}]}`
				w.Header().Set("Content-Type", "application/json")
				if !chunked {
					w.Header().Set("Content-Length", fmt.Sprint(len(big)))
				}
				for i := 0; i < len(big); i += 4096 {
					if _, err := w.Write([]byte(big[i:min(i+4096, len(big))])); err != nil {
						return
					}
					w.(http.Flusher).Flush()
				}
			}))
			defer srv.Close()
			o, _ := newTestProposer(t, srv.URL+"/v1")
			o.MaxReply = 16 << 10
			_, err := propose(t, o, intervals(t))
			if err == nil || !strings.Contains(err.Error(), "over the cap of 16384") {
				t.Fatalf("err = %v, want the reply refused over the cap", err)
			}
			if n := requests.Load(); n != 1 {
				t.Errorf("%d requests, want 1: a flood is not asked for again", n)
			}
		})
	}
}

func TestScrub(t *testing.T) {
	o := &OpenAI{apiKey: "local-key-1234567"}
	tests := []struct {
		name, in, want, reason string
	}{
		{"key value anywhere", "bad key local-key-1234567 sent", "bad key [redacted] sent", "the key need not look like a token"},
		{"bearer header", "Authorization: Bearer abc.def-123", "Authorization: Bearer [redacted]", "a 401 that quotes the header"},
		{"sk key", "Incorrect API key provided: sk-proj-abc***wxyz.", "Incorrect API key provided: sk-[redacted].", "OpenAI's own message masks only the middle"},
		{"URL password", "Post \"https://u:pw@host/v1\": refused", "Post \"https://[redacted]@host/v1\": refused", ""},
		{"query field", "GET /v1?api_key=abc123&x=1", "GET /v1?api_key=[redacted]&x=1", ""},
		{"JSON field", `{"api_key": "zzz999"}`, `{"api_key": "[redacted]"}`, ""},
		{"plain words kept", "invalid api key; model not found", "invalid api key; model not found", "the reason a request failed must stay readable"},
	}
	for _, tc := range tests {
		if got := o.scrub(tc.in); got != tc.want {
			t.Errorf("%s: scrub(%q) = %q, want %q (%s)", tc.name, tc.in, got, tc.want, tc.reason)
		}
	}
}
