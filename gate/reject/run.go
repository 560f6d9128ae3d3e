package reject

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/premise-dev/premise/gate"
)

// Defaults of a Runner.
const (
	DefaultAttempts = 3 // seed 000: never-skip needs three consecutive holds
	DefaultTimeout  = 10 * time.Second
	maxFixtureBytes = 64 << 20
	maxBodyBytes    = 1 << 20
)

// Corpus is a lockfile and the directory its fixtures must stay inside.
type Corpus struct {
	Lock *Lock
	// Root is the directory input_path is relative to: the lockfile's.
	Root string
	// Dir is the corpus directory, relative to Root or absolute.
	Dir string
}

// Runner runs a corpus. Its dependencies are fields so that tests and
// commands choose them.
type Runner struct {
	// Adapter calls exception entries' targets in a worker process; it may
	// be nil when the corpus has none.
	Adapter gate.Adapter
	// Positional passes the fixture as the target's one argument, for Go,
	// whose functions take no keyword arguments: a fixture object decodes
	// into a request struct. Otherwise the fixture's keys are keyword
	// arguments, as seed 000's runner calls fn(**payload).
	Positional bool
	// HTTP sends http entries' fixtures; nil means a client that does not
	// follow redirects.
	HTTP *http.Client
	// BaseURL is the service http entries are sent to.
	BaseURL string
	// Attempts is how many consecutive holds never-skip needs, and how many
	// tries freeze-class-only gets; 0 means DefaultAttempts.
	Attempts int
	// Environmental excuses entries that could not get an answer, until a
	// date (seed 000, Step 3); nil excuses nothing.
	Environmental Environmental
	// Now is the clock Environmental's dates are read against; nil means
	// time.Now.
	Now func() time.Time
	// Timeout bounds each HTTP request; 0 means DefaultTimeout. Calls
	// through the Adapter are bounded by the adapter's own timeout.
	Timeout time.Duration
	// Progress, if set, is told after each entry: how many are done of
	// how many.
	Progress func(done, total int)
}

// Attempt is one call or request and how the decision table read it.
type Attempt struct {
	Reason string
	Detail string
	// Reply is the adapter's reply (exception entries).
	Reply *gate.Reply
	// Status is the HTTP status (http entries).
	Status int
}

// Result is one entry's verdict, or one orphan fixture's.
type Result struct {
	ID       string
	Held     bool
	Reason   string
	Detail   string
	Policy   string
	Path     string // the fixture, relative to the corpus root
	Attempts []Attempt
}

// Report is a whole run.
type Report struct {
	Results []Result
	Held    int
	Broken  int
}

// Holds reports whether every entry held and nothing was broken: the only
// case in which the gate passes (exit 0).
func (r *Report) Holds() bool { return r.Broken == 0 }

// Run checks every entry of the corpus in lockfile order, then reports every
// fixture on disk that no entry locks. Run returns an error only when the run
// could not happen (ctx was cancelled, http entries and no base URL); every
// problem with an entry or fixture is a BROKEN result.
func (r *Runner) Run(ctx context.Context, c Corpus) (*Report, error) {
	if r.BaseURL == "" {
		for _, e := range c.Lock.Entries {
			if e.Must.Kind == KindHTTP {
				return nil, fmt.Errorf("entry %s is an http entry: give the service's base URL", e.ID)
			}
		}
	}
	corpusAbs := c.Dir
	if !filepath.IsAbs(corpusAbs) {
		corpusAbs = filepath.Join(c.Root, c.Dir)
	}
	corpusAbs = filepath.Clean(corpusAbs)
	root, err := os.OpenRoot(corpusAbs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open corpus %s: %w", c.Dir, err)
	}
	if root != nil {
		defer root.Close()
	}
	rep := &Report{}
	locked := map[string]bool{}
	// Every fixture is checked before any call: a subject that writes into
	// the corpus cannot change what a later entry reads.
	pend := make([]pending, len(c.Lock.Entries))
	for i, e := range c.Lock.Entries {
		var rel string
		pend[i], rel = r.prepare(root, corpusAbs, c, e)
		if rel != "" {
			locked[rel] = true
		}
	}
	for i, p := range pend {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := r.Environmental.excuse(r.decideEntry(ctx, p), r.now())
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rep.add(res)
		if r.Progress != nil {
			r.Progress(i+1, len(pend))
		}
	}
	if root != nil {
		orphans, err := orphans(root, locked)
		if err != nil {
			return nil, fmt.Errorf("list corpus %s: %w", c.Dir, err)
		}
		for _, rel := range orphans {
			p := path.Join(filepath.ToSlash(c.Dir), rel)
			rep.add(Result{ID: p, Path: p, Reason: ReasonNoEntry,
				Detail: ReasonNoEntry + ": nothing in the lockfile locks this fixture; add its entry or remove it"})
		}
	}
	return rep, nil
}

func (rep *Report) add(res Result) {
	rep.Results = append(rep.Results, res)
	if res.Held {
		rep.Held++
	} else {
		rep.Broken++
	}
}

// pending is an entry after the checks of its fixture: either decided
// already (done: BROKEN before any call) or ready for its attempts.
type pending struct {
	e    Entry
	res  Result
	done bool
	call gate.Call // exception entries
	body []byte    // http entries
}

// prepare checks one entry's fixture and returns it pending and, when
// input_path is inside the corpus, its path relative to the corpus
// directory.
func (r *Runner) prepare(root *os.Root, corpusAbs string, c Corpus, e Entry) (pending, string) {
	p := pending{e: e, res: Result{ID: e.ID, Policy: e.Policy(), Path: e.InputPath}}
	broken := func(reason, format string, args ...any) pending {
		p.res.Reason = reason
		p.res.Detail = reason + ": " + fmt.Sprintf(format, args...)
		p.done = true
		return p
	}
	// Containment first, so that a path outside the corpus is never read
	// (issue 6, item 5).
	rel, ok := corpusRel(c.Root, corpusAbs, e.InputPath)
	if !ok {
		return broken(ReasonOutsideCorpus, "input_path %s leaves %s", e.InputPath, filepath.ToSlash(c.Dir)), ""
	}
	want := strings.ToLower(e.InputSHA256)
	data, err := readFixture(root, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return broken(ReasonMissingFixture, "%s does not exist", e.InputPath), rel
	case err != nil && isEscape(err):
		return broken(ReasonOutsideCorpus, "input_path %s leads outside %s through a symlink", e.InputPath, filepath.ToSlash(c.Dir)), rel
	case err != nil:
		return broken(ReasonMissingFixture, "read %s: %v", e.InputPath, err), rel
	}
	switch {
	case want == "":
		return broken(ReasonBadHash, "input_sha256 is empty; lock the fixture with its sha256"), rel
	case len(want) != sha256.Size*2:
		return broken(ReasonBadHash, "input_sha256 has %d hex digits, a sha256 has 64", len(want)), rel
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return broken(ReasonHashDrift, "%s (lockfile has %s); treat as corpus tampering", got, want), rel
	}
	payload, err := parseFixture(data)
	if err != nil {
		return broken(ReasonUntrustedFixture, "%s %v", e.InputPath, err), rel
	}
	switch e.Must.Kind {
	case KindException:
		p.call = gate.Call{ID: e.ID, Target: e.Target, Args: []any{payload}}
		if !r.Positional {
			kwargs, ok := payload.(map[string]any)
			if !ok {
				return broken(ReasonUntrustedFixture, "%s is not a JSON object; an exception entry calls its target with the fixture's keys as keyword arguments", e.InputPath), rel
			}
			p.call.Args, p.call.Kwargs = []any{}, kwargs
		}
		if r.Adapter == nil {
			return broken(ReasonCouldNotCall, "no adapter to call %s", e.Target), rel
		}
	case KindHTTP:
		p.body = data
	}
	return p, rel
}

// attemptID names attempt i (1-based) of an entry on the wire.
func attemptID(id string, i int) string { return id + "#" + strconv.Itoa(i) }

// decideEntry makes an entry's attempts. Calls go one at a time: pipelining
// them (gate's CallBatch) measured slower here, and a flake policy decides
// each retry from the attempt before it.
func (r *Runner) decideEntry(ctx context.Context, p pending) Result {
	if p.done {
		return p.res
	}
	var attempt func(ctx context.Context, i int) Attempt
	switch p.e.Must.Kind {
	case KindException:
		attempt = func(ctx context.Context, i int) Attempt {
			c := p.call
			c.ID = attemptID(p.e.ID, i)
			reply, err := r.Adapter.Call(ctx, c)
			return r.judge(p.e, reply, err)
		}
	default:
		attempt = func(ctx context.Context, i int) Attempt { return r.request(ctx, p.e, p.body) }
	}
	return r.attempts(ctx, p.e, p.res, attempt)
}

// attempts applies the entry's flake policy (seed 000, Step 3).
func (r *Runner) attempts(ctx context.Context, e Entry, res Result, attempt func(ctx context.Context, i int) Attempt) Result {
	n := r.Attempts
	if n <= 0 {
		n = DefaultAttempts
	}
	for i := 1; i <= n; i++ {
		a := attempt(ctx, i)
		res.Attempts = append(res.Attempts, a)
		if ctx.Err() != nil {
			res.Reason, res.Detail = ReasonNoReject, "interrupted"
			return res
		}
		retry := a.Reason == ReasonNoReject
		switch {
		case a.Reason == ReasonHeld && e.Policy() == PolicyFreezeClassOnly:
			res.Held, res.Reason = true, ReasonHeld
			res.Detail = fmt.Sprintf("%s (attempt %d of %d)", a.Detail, i, n)
			return res
		case a.Reason == ReasonHeld:
			continue // never-skip: every attempt must hold
		case retry && e.Policy() == PolicyFreezeClassOnly && i < n:
			continue // freeze-class-only may retry a call that gave no answer
		}
		res.Reason = a.Reason
		res.Detail = fmt.Sprintf("%s (attempt %d of %d, %s)", a.Detail, i, n, e.Policy())
		return res
	}
	last := res.Attempts[len(res.Attempts)-1]
	res.Held, res.Reason = true, ReasonHeld
	res.Detail = fmt.Sprintf("%s (%d of %d consecutive)", last.Detail, n, n)
	return res
}

// judge reads one attempt of an exception entry. The adapter enforces its
// own per-call timeout and reports it as a timeout reply; an error means
// the call could not be attempted.
func (r *Runner) judge(e Entry, reply gate.Reply, err error) Attempt {
	if err != nil {
		return Attempt{Reason: ReasonCouldNotCall, Detail: fmt.Sprintf("%s: %v", ReasonCouldNotCall, err)}
	}
	o := observation{Outcome: reply.Outcome, Value: reply.Value, Detail: reply.Detail}
	if reply.Exc != nil {
		o.Class, o.Code = reply.Exc.Class, reply.Exc.Code
	}
	switch reply.Outcome {
	case gate.OutcomeReturned, gate.OutcomeRaised, gate.OutcomeTimeout, gate.OutcomeCrashed, gate.OutcomeUnencodable:
	default:
		o.Outcome, o.Detail = gate.OutcomeCrashed, fmt.Sprintf("unknown outcome %q", reply.Outcome)
	}
	reason, detail, _ := decide(e.Must, o)
	return Attempt{Reason: reason, Detail: detail, Reply: &reply}
}

// request runs one attempt of an http entry: the fixture's bytes are the
// request body.
func (r *Runner) request(ctx context.Context, e Entry, body []byte) Attempt {
	ctx, cancel := context.WithTimeout(ctx, r.timeout())
	defer cancel()
	method, p, _ := ParseHTTPTarget(e.Target) // checked when the lockfile was read
	url := strings.TrimRight(r.BaseURL, "/") + p
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return Attempt{Reason: ReasonCouldNotCall, Detail: fmt.Sprintf("%s: %v", ReasonCouldNotCall, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	client := r.HTTP
	if client == nil {
		client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	resp, err := client.Do(req)
	if err != nil {
		o := observation{Outcome: outcomeUnreachable, Detail: err.Error()}
		reason, detail, _ := decide(e.Must, o)
		return Attempt{Reason: reason, Detail: detail}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	o := observation{Outcome: outcomeResponded, Status: resp.StatusCode}
	var doc map[string]any
	if json.Unmarshal(raw, &doc) == nil {
		o.Code = doc["code"]
	}
	reason, detail, _ := decide(e.Must, o)
	return Attempt{Reason: reason, Detail: detail, Status: resp.StatusCode}
}

func (r *Runner) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

func (r *Runner) timeout() time.Duration {
	if r.Timeout <= 0 {
		return DefaultTimeout
	}
	return r.Timeout
}

// corpusRel returns input_path relative to the corpus directory, and false
// when it is absolute or leaves the corpus by "..".
func corpusRel(root, corpusAbs, inputPath string) (string, bool) {
	if inputPath == "" || filepath.IsAbs(inputPath) || path.IsAbs(inputPath) || strings.Contains(inputPath, `\`) {
		return "", false
	}
	abs := filepath.Join(root, filepath.FromSlash(inputPath))
	rel, err := filepath.Rel(corpusAbs, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// readFixture reads a fixture through root, so that a symlink cannot lead
// outside the corpus.
func readFixture(root *os.Root, rel string) ([]byte, error) {
	if root == nil {
		return nil, fs.ErrNotExist
	}
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFixtureBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFixtureBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxFixtureBytes)
	}
	return data, nil
}

// isEscape reports whether err is os.Root refusing a path that leaves it.
// The standard library does not export that error, so its text is matched.
func isEscape(err error) bool {
	return strings.Contains(err.Error(), "path escapes from parent")
}

// orphans lists the files under root that no entry locks. Fixtures are
// files of any name; only .gitkeep, which keeps an empty corpus in git, is
// exempt.
func orphans(root *os.Root, locked map[string]bool) ([]string, error) {
	var out []string
	err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() == ".gitkeep" {
			return nil
		}
		if !locked[p] {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
