package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRejectRunHTTP sends http entries to a real loopback service: the
// base URL comes from --base-url or from PREMISE_REJECT_BASE_URL.
func TestRejectRunHTTP(t *testing.T) {
	closed := true // the invoice service's behaviour; the "patch" flips it
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != "POST" || r.URL.Path != "/invoices/transition" || string(body) != `{"invoice": "inv-9", "to": "draft"}`+"\n" {
			http.NotFound(w, r)
			return
		}
		if closed {
			w.WriteHeader(http.StatusConflict)
			io.WriteString(w, `{"code": "invoice.illegal_transition"}`)
			return
		}
		io.WriteString(w, `{"id": "inv-9", "status": "draft"}`)
	}))
	defer srv.Close()

	dir := t.TempDir()
	add := []string{"reject", "add", "--repo", dir, "--id", "invoice-status-reject-014", "--target", "POST /invoices/transition",
		"--fixture", `{"to": "draft", "invoice": "inv-9"}`, "--must-status", "409", "--must-code", "invoice.illegal_transition",
		"--flake-policy", "freeze-class-only"}
	if code, out, errOut := runPremise(t, add...); code != 0 {
		t.Fatalf("reject add: exit %d\n%s%s", code, out, errOut)
	}
	fixture, err := os.ReadFile(filepath.Join(dir, "corpus/must_reject/invoice-status-reject-014.json"))
	if err != nil || string(fixture) != `{"invoice": "inv-9", "to": "draft"}`+"\n" {
		t.Fatalf("fixture = %q, %v; want canonical JSON", fixture, err)
	}

	tests := []struct {
		name     string
		args     []string
		env      string
		closed   bool
		wantCode int
		wantOut  string
	}{
		{"held by flag", []string{"--base-url", srv.URL}, "", true, 0,
			"HOLD invoice-status-reject-014 held: status 409 code \"invoice.illegal_transition\" (attempt 1 of 3)\nheld=1 broken=0\n"},
		{"held by env", nil, srv.URL, true, 0,
			"HOLD invoice-status-reject-014 held: status 409 code \"invoice.illegal_transition\" (attempt 1 of 3)\nheld=1 broken=0\n"},
		{"forbidden success", []string{"--base-url", srv.URL + "/"}, "", false, 1,
			"BROKEN invoice-status-reject-014 forbidden success: status 200 (attempt 1 of 3, freeze-class-only)\nheld=0 broken=1\n"},
		{"no base URL", nil, "", true, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(baseURLEnv, tt.env)
			closed = tt.closed
			code, out, errOut := runPremise(t, append([]string{"reject", "run", "--repo", dir}, tt.args...)...)
			if code != tt.wantCode || out != tt.wantOut {
				t.Errorf("exit %d, stdout:\n%s\nwant exit %d, stdout:\n%s\nstderr: %s", code, out, tt.wantCode, tt.wantOut, errOut)
			}
			if tt.wantCode == 3 && !strings.Contains(errOut, "give the service's base URL") {
				t.Errorf("stderr = %q, want it to ask for the base URL", errOut)
			}
		})
	}
}

func runPremise(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

// TestRejectRunGo: a corpus whose targets are Go import paths runs through
// the Go adapter without --lang, the fixture decoded into the function's one
// argument.
func TestRejectRunGo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/billing\n\ngo 1.22\n",
		"billing.go": `package billing

type Request struct {
	Email string ` + "`json:\"email\"`" + `
}

type ValidationError struct{ Code string }

func (e *ValidationError) Error() string { return "invalid email" }

func CreateUser(r Request) (string, error) {
	if r.Email == "not-an-email" {
		return "", &ValidationError{Code: "email.invalid"}
	}
	return r.Email, nil
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"--id", "held", "--fixture", `{"email": "not-an-email"}`},
		{"--id", "accepted", "--fixture", `{"email": "a@example.com"}`},
	} {
		add := append([]string{"reject", "add", "--repo", dir, "--target", "example.com/billing.CreateUser",
			"--must-class", "ValidationError", "--must-code", "email.invalid"}, args...)
		if code, out, errOut := runPremise(t, add...); code != 0 {
			t.Fatalf("reject add: exit %d\n%s%s", code, out, errOut)
		}
	}
	code, out, errOut := runPremise(t, "reject", "run", "--repo", dir)
	want := `HOLD held held: raised *billing.ValidationError code "email.invalid" (3 of 3 consecutive)
BROKEN accepted forbidden success: call returned "a@example.com" (attempt 1 of 3, never-skip)
held=1 broken=1
`
	if code != 1 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1, stdout:\n%s\nstderr: %s", code, out, want, errOut)
	}
}
