package reject

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/gate"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// billing is the Python subject: one function per row of seed 000's
// decision table, each written to produce exactly that outcome. The tenant
// argument names a counter file, so every entry's attempts are counted
// apart even across the fresh workers a timeout starts.
const billing = `
import os, time

class ValidationError(Exception):
    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code

class EmailError(ValidationError):
    pass

def _count(key):
    path = "count_" + key
    n = int(open(path).read()) if os.path.exists(path) else 0
    open(path, "w").write(str(n + 1))
    return n + 1

def reject_email(email, tenant):
    raise ValidationError("invalid email " + email, code="email.invalid")

def accept_email(email, tenant):
    return {"email": email, "tenant": tenant}

def accept_as_object(email, tenant):
    return object()

def generic_error(email, tenant):
    raise Exception("invalid email")

def subclass_error(email, tenant):
    raise EmailError("invalid email", code="email.invalid")

def recoded(email, tenant):
    raise ValidationError("invalid email", code="email.malformed")

def no_code(email, tenant):
    raise ValidationError("invalid email")

def numeric_code(email, tenant):
    raise ValidationError("invalid email", code=422)

def accept_third_time(email, tenant):
    if _count(tenant) >= 3:
        return {"ok": True}
    raise ValidationError("invalid email", code="email.invalid")

def slow_first(email, tenant):
    if _count(tenant) == 1:
        time.sleep(60)
    raise ValidationError("invalid email", code="email.invalid")

def slow_then_accept(email, tenant):
    if _count(tenant) == 1:
        time.sleep(60)
    return {"ok": True}

def always_slow(email, tenant):
    time.sleep(60)

def crash(email, tenant):
    os._exit(3)
`

// corpusBuilder writes a repository with a lockfile and fixtures.
type corpusBuilder struct {
	t    *testing.T
	dir  string
	lock Lock
}

func newCorpus(t *testing.T) *corpusBuilder {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, DefaultCorpusDir), 0o755); err != nil {
		t.Fatal(err)
	}
	return &corpusBuilder{t: t, dir: dir, lock: Lock{Version: 1}}
}

func (b *corpusBuilder) file(rel, data string) {
	b.t.Helper()
	p := filepath.Join(b.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// entry writes fixture (unless empty) at corpus/must_reject/<id>.json and
// locks it with its true sha256.
func (b *corpusBuilder) entry(id, target, fixture string, must Must, policy string) *Entry {
	b.t.Helper()
	rel := DefaultCorpusDir + "/" + id + ".json"
	sum := sha256.Sum256([]byte(fixture))
	if fixture != "" {
		b.file(rel, fixture)
	}
	b.lock.Entries = append(b.lock.Entries, Entry{ID: id, Target: target, InputSHA256: hex.EncodeToString(sum[:]),
		InputPath: rel, Must: must, FlakePolicy: policy})
	return &b.lock.Entries[len(b.lock.Entries)-1]
}

// load writes the lockfile and reads it back strictly, as premise reject run does.
func (b *corpusBuilder) load() Corpus {
	b.t.Helper()
	path := filepath.Join(b.dir, DefaultLockPath)
	if err := b.lock.Save(path); err != nil {
		b.t.Fatal(err)
	}
	lock, err := LoadLock(path)
	if err != nil {
		b.t.Fatal(err)
	}
	return Corpus{Lock: lock, Root: b.dir, Dir: DefaultCorpusDir}
}

// snapshot returns the lockfile's bytes and every file of the corpus.
func (b *corpusBuilder) snapshot() map[string]string {
	b.t.Helper()
	files := map[string]string{}
	root := filepath.Join(b.dir, DefaultCorpusDir)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p) // a dangling link reads as empty
		files[p] = string(data)
		return nil
	})
	if err != nil {
		b.t.Fatal(err)
	}
	lock, err := os.ReadFile(filepath.Join(b.dir, DefaultLockPath))
	if err != nil {
		b.t.Fatal(err)
	}
	files[DefaultLockPath] = string(lock)
	return files
}

// unchanged checks seed 000's last row: a run never edits the lockfile or
// the corpus, and never adds an entry ("New reject on extra input: not in
// corpus: allow; do not auto-add").
func (b *corpusBuilder) unchanged(before map[string]string) {
	b.t.Helper()
	if diff := cmp.Diff(before, b.snapshot()); diff != "" {
		b.t.Errorf("the run changed the lockfile or the corpus (-before +after):\n%s", diff)
	}
}

func fixtureFor(tenant string) string {
	return `{"email": "not-an-email", "tenant": "` + tenant + `"}` + "\n"
}

type row struct {
	ID       string
	Held     bool
	Reason   string
	Attempts int
}

func rows(rep *Report) []row {
	var out []row
	for _, r := range rep.Results {
		out = append(out, row{r.ID, r.Held, r.Reason, len(r.Attempts)})
	}
	return out
}

var exc = func(class string, code any) Must { return Must{Kind: KindException, Class: class, Code: code} }

// TestRunDecisionTable runs every row of seed 000's decision table and the
// fail-closed cases of issue 6 against a real Python subject through
// premise's Python adapter, and an httptest service for http entries.
func TestRunDecisionTable(t *testing.T) {
	b := newCorpus(t)
	b.file("billing.py", billing)
	vErr := exc("ValidationError", "email.invalid")
	ns, fz := PolicyNeverSkip, PolicyFreezeClassOnly

	// Decision table rows, exception entries.
	b.entry("held-never-skip", "billing.reject_email", fixtureFor("a"), vErr, ns)
	b.entry("held-freeze", "billing.reject_email", fixtureFor("b"), vErr, fz)
	b.entry("held-class-only", "billing.recoded", fixtureFor("c"), exc("ValidationError", nil), "")
	b.entry("held-numeric-code", "billing.numeric_code", fixtureFor("d"), Must{Kind: KindException, Class: "ValidationError", Code: jsonNumber("422")}, "")
	b.entry("forbidden-success", "billing.accept_email", fixtureFor("e"), vErr, ns)
	b.entry("forbidden-object", "billing.accept_as_object", fixtureFor("f"), vErr, ns)
	b.entry("class-changed", "billing.generic_error", fixtureFor("g"), vErr, ns)
	b.entry("class-subclass", "billing.subclass_error", fixtureFor("h"), vErr, ns)
	b.entry("code-changed", "billing.recoded", fixtureFor("i"), vErr, ns)
	b.entry("code-dropped", "billing.no_code", fixtureFor("j"), vErr, ns)
	b.entry("code-string-vs-number", "billing.numeric_code", fixtureFor("k"), exc("ValidationError", "422"), ns)
	// Flake policies.
	b.entry("flaky-never-skip", "billing.accept_third_time", fixtureFor("l"), vErr, ns)
	b.entry("slow-never-skip", "billing.slow_first", fixtureFor("m"), vErr, ns)
	b.entry("slow-freeze", "billing.slow_first", fixtureFor("n"), vErr, fz)
	b.entry("retry-success-freeze", "billing.slow_then_accept", fixtureFor("o"), vErr, fz)
	b.entry("always-slow-freeze", "billing.always_slow", fixtureFor("p"), vErr, fz)
	b.entry("crash", "billing.crash", fixtureFor("q"), vErr, ns)
	b.entry("no-module", "no_such_module.fn", fixtureFor("r"), vErr, ns)
	// Fail closed: the fixture itself.
	drift := b.entry("hash-drift", "billing.accept_email", fixtureFor("s"), vErr, ns)
	_ = drift
	b.file(DefaultCorpusDir+"/hash-drift.json", `{"email": "ok@example.com", "tenant": "s"}`+"\n")
	b.entry("missing-fixture", "billing.reject_email", "", vErr, ns)
	b.entry("empty-hash", "billing.reject_email", fixtureFor("t"), vErr, ns).InputSHA256 = ""
	b.entry("placeholder-hash", "billing.reject_email", fixtureFor("u"), vErr, ns).InputSHA256 = "c0ffee01"
	b.entry("not-json", "billing.reject_email", `{email: "x"}`, vErr, ns)
	b.entry("repeated-key", "billing.accept_email", `{"email": "x@y", "email": "not-an-email", "tenant": "v"}`, vErr, ns)
	b.entry("not-an-object", "billing.reject_email", `["not-an-email"]`, vErr, ns)
	// Containment.
	b.file("outside.json", fixtureFor("w"))
	b.entry("dotdot", "billing.accept_email", "", vErr, ns).InputPath = DefaultCorpusDir + "/../../outside.json"
	b.entry("absolute", "billing.accept_email", "", vErr, ns).InputPath = filepath.Join(b.dir, "outside.json")
	if err := os.Symlink(filepath.Join(b.dir, "outside.json"), filepath.Join(b.dir, DefaultCorpusDir, "link.json")); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(fixtureFor("w")))
	b.entry("symlink-out", "billing.accept_email", "", vErr, ns).InputPath = DefaultCorpusDir + "/link.json"
	b.lock.Entries[len(b.lock.Entries)-1].InputSHA256 = hex.EncodeToString(sum[:])
	// A fixture no entry locks.
	b.file(DefaultCorpusDir+"/nested/orphan.json", fixtureFor("x"))
	b.file(DefaultCorpusDir+"/.gitkeep", "")

	// http entries against a loopback service.
	srv := httptest.NewServer(invoiceService(t))
	defer srv.Close()
	conflict := Must{Kind: KindHTTP, Status: 409, Code: "invoice.illegal_transition"}
	inv := `{"invoice": "inv-1", "to": "paid"}` + "\n"
	b.entry("http-held", "POST /held", inv, conflict, ns)
	b.entry("http-held-put", "PUT /held", inv, conflict, fz)
	b.entry("http-forbidden-success", "POST /accept", inv, conflict, ns)
	b.entry("http-redirect", "POST /redirect", inv, conflict, ns)
	b.entry("http-status-changed", "POST /bad-request", inv, conflict, ns)
	b.entry("http-code-changed", "POST /recoded", inv, conflict, ns)
	b.entry("http-401", "POST /login", inv, conflict, ns)
	b.entry("http-403", "POST /forbidden", inv, conflict, ns)
	b.entry("http-404", "POST /nowhere", inv, conflict, ns)
	b.entry("http-404-expected", "POST /nowhere", inv, Must{Kind: KindHTTP, Status: 404}, ns)

	c := b.load()
	before := b.snapshot()
	ad, err := gate.NewPythonAdapter(gate.PythonConfig{Interpreter: realPython(t), Dir: b.dir, Timeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ad.Close()
	r := &Runner{Adapter: ad, BaseURL: srv.URL}
	rep, err := r.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{"held-never-skip", true, ReasonHeld, 3},
		{"held-freeze", true, ReasonHeld, 1},
		{"held-class-only", true, ReasonHeld, 3},
		{"held-numeric-code", true, ReasonHeld, 3},
		{"forbidden-success", false, ReasonForbiddenSuccess, 1},
		{"forbidden-object", false, ReasonForbiddenSuccess, 1},
		{"class-changed", false, ReasonClassMismatch, 1},
		{"class-subclass", false, ReasonClassMismatch, 1},
		{"code-changed", false, ReasonCodeMismatch, 1},
		{"code-dropped", false, ReasonCodeMismatch, 1},
		{"code-string-vs-number", false, ReasonCodeMismatch, 1},
		{"flaky-never-skip", false, ReasonForbiddenSuccess, 3},
		{"slow-never-skip", false, ReasonNoReject, 1},
		{"slow-freeze", true, ReasonHeld, 2},
		{"retry-success-freeze", false, ReasonForbiddenSuccess, 2},
		{"always-slow-freeze", false, ReasonNoReject, 3},
		{"crash", false, ReasonNoReject, 1},
		{"no-module", false, ReasonCouldNotCall, 1},
		{"hash-drift", false, ReasonHashDrift, 0},
		{"missing-fixture", false, ReasonMissingFixture, 0},
		{"empty-hash", false, ReasonBadHash, 0},
		{"placeholder-hash", false, ReasonBadHash, 0},
		{"not-json", false, ReasonUntrustedFixture, 0},
		{"repeated-key", false, ReasonUntrustedFixture, 0},
		{"not-an-object", false, ReasonUntrustedFixture, 0},
		{"dotdot", false, ReasonOutsideCorpus, 0},
		{"absolute", false, ReasonOutsideCorpus, 0},
		{"symlink-out", false, ReasonOutsideCorpus, 0},
		{"http-held", true, ReasonHeld, 3},
		{"http-held-put", true, ReasonHeld, 1},
		{"http-forbidden-success", false, ReasonForbiddenSuccess, 1},
		{"http-redirect", false, ReasonForbiddenSuccess, 1},
		{"http-status-changed", false, ReasonStatusMismatch, 1},
		{"http-code-changed", false, ReasonCodeMismatch, 1},
		{"http-401", false, ReasonBeforeValidation, 1},
		{"http-403", false, ReasonBeforeValidation, 1},
		{"http-404", false, ReasonBeforeValidation, 1},
		{"http-404-expected", true, ReasonHeld, 3},
		{"corpus/must_reject/nested/orphan.json", false, ReasonNoEntry, 0},
	}
	if diff := cmp.Diff(want, rows(rep)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if rep.Holds() {
		t.Error("Holds() = true with broken entries")
	}
	b.unchanged(before)
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	golden(t, "decision_table.txt", normalize(text.String(), b.dir, srv.URL))
}

var (
	pythonOnce sync.Once
	pythonPath string
)

// realPython is the interpreter python3 runs, resolved once: through a
// pyenv shim every worker start (and the decision table restarts several
// after timeouts and crashes) costs seconds.
func realPython(t testing.TB) string {
	pythonOnce.Do(func() {
		out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if err == nil {
			pythonPath = strings.TrimSpace(string(out))
		}
	})
	if pythonPath == "" {
		t.Fatal("python3 is required")
	}
	return pythonPath
}

func jsonNumber(s string) any { return jsonNum(s) }

// invoiceService is the http subject: each path answers as one row of the
// table. It checks that the request carries the fixture's bytes.
func invoiceService(t *testing.T) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if string(body) != `{"invoice": "inv-1", "to": "paid"}`+"\n" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: body %q, content type %q; want the fixture's bytes as JSON", r.Method, r.URL.Path, body, r.Header.Get("Content-Type"))
		}
		answer := func(status int, code string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"code": "`+code+`"}`)
		}
		switch r.URL.Path {
		case "/held":
			answer(409, "invoice.illegal_transition")
		case "/accept":
			answer(200, "ok")
		case "/redirect":
			http.Redirect(w, r, "/accept", http.StatusFound)
		case "/bad-request":
			answer(400, "invoice.illegal_transition")
		case "/recoded":
			answer(409, "invoice.conflict")
		case "/login":
			answer(401, "auth.required")
		case "/forbidden":
			answer(403, "auth.forbidden")
		default:
			answer(404, "not_found")
		}
	})
}

var (
	durations = regexp.MustCompile(`[0-9.]+m?s\b`)
	// How a dead worker is noticed (its pipe's EOF or its exit status)
	// depends on which the adapter sees first.
	crashes = regexp.MustCompile(`crashed: [^(]*\(`)
)

// normalize removes what differs between runs: temp paths, ports, timings,
// the adapter's wording of a crash.
func normalize(s, dir, url string) string {
	s = strings.ReplaceAll(s, dir, "$DIR")
	s = strings.ReplaceAll(s, url, "$URL")
	s = crashes.ReplaceAllString(s, "crashed: $$CRASH (")
	return durations.ReplaceAllString(s, "$$DURATION")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

type jsonNum = json.Number
