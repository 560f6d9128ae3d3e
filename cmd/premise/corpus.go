package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/gate/reject"
	"github.com/premise-dev/premise/validate"
)

// baseURLEnv names the environment variable that gives http entries their
// service when --base-url is not set.
const baseURLEnv = reject.BaseURLEnv

// addCorpusCmds adds the must-reject corpus commands of seed 000 (issue 6)
// under premise reject.
func addCorpusCmds(parent *cobra.Command, s Streams) {
	parent.AddCommand(newRejectAddCmd(s), newRejectRunCmd(s), newRejectGuardCmd(s))
}

// corpusPaths are the flags every corpus command shares; empty ones come
// from the reject: section of .premise.yaml, then from the default names.
// Repo is the repository's top level (--repo).
type corpusPaths struct {
	Repo   string
	Lock   string
	Corpus string
}

func (p *corpusPaths) flags(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&p.Lock, "lock", "", "the lockfile `FILE` (default must_reject.lock.json, or reject.lock in .premise.yaml)")
	f.StringVar(&p.Corpus, "corpus", "", "the fixture `DIR` (default corpus/must_reject, or reject.corpus in .premise.yaml)")
}

// options are the must-reject stage's paths from the flags.
func (p corpusPaths) options() reject.Options {
	return reject.Options{Repo: p.Repo, Lock: p.Lock, Corpus: p.Corpus}
}

// rejectAddOptions are the flags of premise reject add.
type rejectAddOptions struct {
	corpusPaths
	ID, Target  string
	Input, Text string
	MustClass   string
	MustStatus  int
	MustCode    string
	codeSet     bool
	FlakePolicy string
	JSON        bool
	In          io.Reader
	Out         io.Writer
}

func newRejectAddCmd(s Streams) *cobra.Command {
	opts := rejectAddOptions{In: s.In, Out: s.Out}
	c := &cobra.Command{
		Use:   "add --id ID --target TARGET (--input FILE | --fixture TEXT) (--must-class CLASS | --must-status N) [--must-code CODE]",
		Short: "Record a forbidden input: write its fixture, hash it, add the lockfile row",
		Long: `Record an input that production already rejects, and the failure it must
keep producing. premise writes the fixture as canonical
JSON under corpus/must_reject/ID.json, hashes it with sha256, and appends the
row to must_reject.lock.json. An id that is already in the lockfile is
refused: a human edits an existing row by hand.

  premise reject add --id user-email-reject-001 --target billing.api.create_user \
    --fixture '{"email": "not-an-email", "tenant": "t-1"}' \
    --must-class ValidationError --must-code email.invalid

  premise reject add --id invoice-status-reject-014 \
    --target "POST /invoices/transition" --input closed-invoice.json \
    --must-status 409 --must-code invoice.illegal_transition \
    --flake-policy freeze-class-only

Canonical JSON is exactly what Python writes with
json.dumps(value, sort_keys=True) plus one newline, so a Python one-liner
and premise produce the same bytes and the same hash. A fixture with a
repeated key is refused.

An exception entry's TARGET is what the adapter calls: a dotted Python path
(called with the fixture's keys as keyword arguments) or a Go import path and
function (called with the fixture as its one argument). An http entry's
TARGET is "METHOD /path", sent to the service premise reject run is given.

add prints one line, "added ID PATH SHA256" (--json: {"id", "input_path",
"input_sha256"}). --input FILE is read from the repository's top level.
`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 && jsonOn(c) {
				return fmt.Errorf("%s: --json no longer gives the fixture: it is the switch for JSON output; give the fixture with --fixture TEXT", c.CommandPath())
			}
			return cobra.NoArgs(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON = repoTop(c), jsonOn(c)
			inTop(opts.Repo, &opts.Input)
			switch {
			case opts.ID == "":
				return fmt.Errorf("%s: --id is required", c.CommandPath())
			case opts.Target == "":
				return fmt.Errorf("%s: --target is required", c.CommandPath())
			case (opts.Input == "") == (opts.Text == ""):
				return fmt.Errorf("%s: give the fixture with exactly one of --input FILE and --fixture TEXT", c.CommandPath())
			case (opts.MustClass == "") == (opts.MustStatus == 0):
				return fmt.Errorf("%s: give exactly one of --must-class CLASS (an exception) and --must-status N (an http answer)", c.CommandPath())
			case opts.FlakePolicy != reject.PolicyNeverSkip && opts.FlakePolicy != reject.PolicyFreezeClassOnly:
				return fmt.Errorf("%s: --flake-policy %q: want %s or %s", c.CommandPath(), opts.FlakePolicy, reject.PolicyNeverSkip, reject.PolicyFreezeClassOnly)
			}
			opts.codeSet = c.Flags().Changed("must-code")
			return runRejectAdd(c.Context(), opts)
		},
	}
	exits(c, "0 the entry was added", "3 premise could not do its job: bad flags, an id already in the lockfile, a fixture that is not JSON or repeats a key")
	opts.corpusPaths.flags(c)
	f := c.Flags()
	f.StringVar(&opts.ID, "id", "", "the entry's `ID`, one word (required)")
	f.StringVar(&opts.Target, "target", "", "what to call: a dotted Python path, a Go import path and function, or \"METHOD /path\" (required)")
	f.StringVar(&opts.Input, "input", "", "read the fixture from `FILE` (- for standard input)")
	f.StringVar(&opts.Text, "fixture", "", "the fixture as JSON `TEXT`")
	f.StringVar(&opts.MustClass, "must-class", "", "the exception `CLASS` the call must raise")
	f.IntVar(&opts.MustStatus, "must-status", 0, "the HTTP status `N` the endpoint must answer")
	f.StringVar(&opts.MustCode, "must-code", "", "the error `CODE` (exception's code attribute, or the body's \"code\") that must come with it")
	f.StringVar(&opts.FlakePolicy, "flake-policy", reject.PolicyNeverSkip, "never-skip (three consecutive holds) or freeze-class-only (retries; a success on any retry fails)")
	return c
}

func runRejectAdd(ctx context.Context, opts rejectAddOptions) error {
	_, lock, dir, err := opts.options().Paths()
	if err != nil {
		return err
	}
	var data []byte
	switch {
	case opts.Text != "":
		data = []byte(opts.Text)
	case opts.Input == "-":
		data, err = io.ReadAll(opts.In)
	default:
		data, err = os.ReadFile(opts.Input)
	}
	if err != nil {
		return fmt.Errorf("read fixture: %w", err)
	}
	must := reject.Must{Kind: reject.KindException, Class: opts.MustClass}
	if opts.MustStatus != 0 {
		must = reject.Must{Kind: reject.KindHTTP, Status: opts.MustStatus}
	}
	if opts.codeSet {
		must.Code = opts.MustCode
	}
	e, err := reject.Add(lock, dir, reject.NewEntry{ID: opts.ID, Target: opts.Target, Fixture: data, Must: must, FlakePolicy: opts.FlakePolicy})
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, map[string]string{"id": e.ID, "input_path": e.InputPath, "input_sha256": e.InputSHA256})
	}
	_, err = fmt.Fprintf(opts.Out, "added %s %s %s\n", e.ID, e.InputPath, e.InputSHA256)
	return err
}

// rejectRunOptions are the flags of premise reject run.
type rejectRunOptions struct {
	corpusPaths
	Environmental string
	Lang          string
	Python        string
	Exec          string
	BaseURL       string
	CallTimeout   time.Duration
	MemoryMiB     int64
	JSON          bool
	JSONFile      string
	JUnit         string
	AllowEmpty    bool
	Quiet         bool
	Verbose       bool
	Out           io.Writer
	ErrOut        io.Writer
}

func newRejectRunCmd(s Streams) *cobra.Command {
	opts := rejectRunOptions{Out: s.Out, ErrOut: s.Err}
	c := &cobra.Command{
		Use:   "run [--lock FILE] [--lang python|go|exec] [--base-url URL] [--json-file FILE] [--junit FILE]",
		Short: "Check that every forbidden input still fails, re-hashing every fixture",
		Long: `Run the must-reject corpus: re-hash every fixture, call
every target in a worker process outside premise, and check that the
declared failure still occurs. One line per entry, then a count:

  $ premise reject run
  HOLD user-email-reject-001 held: raised ValidationError code "email.invalid" (3 of 3 consecutive)
  BROKEN invoice-status-reject-014 forbidden success: status 200 (attempt 1 of 3, freeze-class-only)
  held=1 broken=1

An entry is BROKEN when its forbidden input now succeeds (forbidden
success), raises another class, or a subclass of a class named exactly (class
mismatch), answers another HTTP status (status mismatch), keeps the class or
status but changes the code (code mismatch), or when its fixture's bytes no
longer match input_sha256 (fixture hash drift). It is BROKEN, never trusted,
when its fixture is missing, is not JSON or repeats a key, when input_path
leaves the corpus (.., an absolute path, a symlink pointing outside), when
its hash is empty or not a sha256, and when an http endpoint refuses with
401, 403 or 404 before validating. A fixture in the corpus that no entry
locks is BROKEN too.

Flake policies: never-skip needs three consecutive holds; freeze-class-only
retries a call that timed out or crashed, but a success on any attempt fails.
Neither skips an entry. When a case is truly environmental (a staging
service that times out), a human may record it in the side file
must_reject.environmental.json; until its expires_on an entry listed there
that got no answer at all is excused, while a success, or a wrong class,
status or code, still fails:

  {"version": 1, "entries": {"invoice-status-reject-014":
    {"reason": "staging db times out", "last_held_at": "2026-11-20", "expires_on": "2026-12-15"}}}

Exception entries run through the same adapters as premise gate:
  premise reject run                       Python: target(**fixture)
  premise reject run --lang go             Go: Target(fixture), a Code field or method as the code
                                           (the default when every target is an import path)
  premise reject run --lang ts              JavaScript or TypeScript: target(fixture), the fixture's
                                           keys one options object (src/lib/ranges.mergeRanges)
  premise reject run --lang exec --exec "node worker.js"
http entries are sent to a service you start, on loopback in CI:
  premise reject run --base-url http://127.0.0.1:8080
  PREMISE_REJECT_BASE_URL=http://127.0.0.1:8080 premise reject run

Run it before the agent's tests, as its own step:
  premise reject guard && premise reject run && premise gate

Reports: --json prints the report as JSON on stdout (the lines go to
stderr); --json-file FILE and --junit FILE write it to files. On a terminal
premise shows the entries checked so far on stderr.
`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON, opts.Quiet, opts.Verbose = repoTop(c), jsonOn(c), quietOn(c), verboseOn(c)
			inTop(opts.Repo, &opts.JSONFile, &opts.JUnit)
			opts.Lang = langName(opts.Lang)
			switch opts.Lang {
			case "", "python", "go", validate.LangJavaScript, validate.LangTypeScript:
			case "exec":
				if strings.TrimSpace(opts.Exec) == "" {
					return fmt.Errorf("%s: --lang exec needs --exec COMMAND", c.CommandPath())
				}
			default:
				return fmt.Errorf("%s: --lang %q: want python, go, javascript (js), typescript (ts) or exec", c.CommandPath(), opts.Lang)
			}
			if opts.CallTimeout <= 0 {
				return fmt.Errorf("%s: --call-timeout %s: want a positive duration", c.CommandPath(), opts.CallTimeout)
			}
			if opts.BaseURL == "" {
				opts.BaseURL = os.Getenv(baseURLEnv)
			}
			return runRejectRun(c.Context(), opts)
		},
	}
	exits(c,
		"0 every entry held",
		"1 an entry is BROKEN: a forbidden input succeeded, a class, status or code changed, a fixture's hash drifted or its file is missing or unlocked",
		"3 premise could not do its job: bad flags, an invalid lockfile, no lockfile, http entries and no --base-url",
		"4 nothing was checked: the corpus holds no entry (--allow-empty makes it 0)",
		"130 interrupted by a signal")
	opts.corpusPaths.flags(c)
	f := c.Flags()
	f.StringVar(&opts.Lang, "lang", "", "the adapter for exception entries: python, go, javascript (js), typescript (ts) or exec (default: go when every target is an import path with a slash, else python)")
	f.StringVar(&opts.Python, "python", "python3", "the Python interpreter")
	f.StringVar(&opts.Exec, "exec", "", "the worker `COMMAND` for --lang exec")
	f.StringVar(&opts.Environmental, "environmental", "", "the side `FILE` of environmental excuses (default must_reject.environmental.json)")
	f.StringVar(&opts.BaseURL, "base-url", "", "the service http entries are sent to (default $"+baseURLEnv+")")
	f.DurationVar(&opts.CallTimeout, "call-timeout", reject.DefaultTimeout, "the time one call or request may take")
	renamed(c, "timeout", timeoutRenamed)
	f.Int64Var(&opts.MemoryMiB, "memory-limit", gate.DefaultMemoryLimit>>20, "the worker's address-space limit in MiB (0: none)")
	f.StringVar(&opts.JSONFile, "json-file", "", "write the report as JSON to `FILE`")
	f.StringVar(&opts.JUnit, "junit", "", "write JUnit XML to `FILE` (- for stdout)")
	f.BoolVar(&opts.AllowEmpty, "allow-empty", false, "exit 0, not 4, when the corpus holds no entry")
	return c
}

func runRejectRun(ctx context.Context, opts rejectRunOptions) error {
	mem := opts.MemoryMiB << 20
	if opts.MemoryMiB == 0 {
		mem = -1
	}
	prog := newProgress(opts.ErrOut, opts.Quiet, opts.Verbose)
	commit, dirty := gate.JudgedHead(ctx, opts.Repo)
	rep, _, err := reject.RunCorpus(ctx, reject.Options{
		Repo: opts.Repo, Lock: opts.Lock, Corpus: opts.Corpus, Environmental: opts.Environmental,
		Lang: opts.Lang, Python: opts.Python, Exec: strings.Fields(opts.Exec), BaseURL: opts.BaseURL,
		Timeout: opts.CallTimeout, MemoryLimit: mem, Progress: prog.entries,
	})
	prog.done()
	if errors.Is(err, reject.ErrNoLock) {
		return fmt.Errorf("%w (record the first forbidden input with premise reject add, or pass --lock)", err)
	}
	if err != nil {
		return err
	}
	toStdout := false
	for _, w := range []struct {
		dest  string
		write func(io.Writer) error
	}{{opts.JSONFile, rep.WriteJSON}, {opts.JUnit, rep.WriteJUnit}, {jsonDest(opts.JSON), rep.WriteJSON}} {
		if w.dest == "" {
			continue
		}
		toStdout = toStdout || w.dest == "-"
		if err := writeTo(opts.Out, w.dest, w.write); err != nil {
			return err
		}
	}
	lines := opts.Out
	if toStdout {
		lines = opts.ErrOut
	}
	for _, l := range gate.JudgedLines(commit, "", dirty) {
		fmt.Fprintln(lines, l)
	}
	if err := rep.WriteText(lines); err != nil {
		return err
	}
	if !rep.Holds() {
		return verdict(exitFailed)
	}
	if len(rep.Results) == 0 && !opts.AllowEmpty {
		fmt.Fprintln(lines, "nothing was checked: the corpus holds no entry (--allow-empty makes this exit 0)")
		return verdict(exitNothing)
	}
	return nil
}

// jsonDest is where --json sends a report: stdout, or nowhere.
func jsonDest(on bool) string {
	if on {
		return "-"
	}
	return ""
}

// entries shows the corpus entries checked so far.
func (p *progress) entries(done, total int) {
	p.stage("reject", fmt.Sprintf("%d/%d entries", done, total))
}

// rejectGuardOptions are the flags of premise reject guard.
type rejectGuardOptions struct {
	Repo, Base, Head string
	JSON             bool
	Out              io.Writer
}

// newGuardCmd is premise guard; premise reject guard is the same command.
func newGuardCmd(s Streams) *cobra.Command {
	return newRejectGuardCmd(s)
}

func newRejectGuardCmd(s Streams) *cobra.Command {
	opts := rejectGuardOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "guard [--base REV] [--head REV]",
		Short: "Block changes to the files premise judges by that no reviewer signed off",
		Long: `Enforce the protected-path rule on the net change: every file premise
judges a patch by whose content differs between the merge-base of base and
head and the head itself must be signed off, by a sign-off premise can
trust, on every commit in base..head that changed it against any of its
parents (merges included; a file only a merge is seen to change, or that
no commit is, falls to the head commit). A file changed and changed back
needs nothing. Otherwise the guard names the commits and exits 2.
premise run runs it first.

A sign-off is trusted when it is a Signed-off-by trailer from a signer
the merge-base's .premise.yaml lists (reject.signers; their own commits
included), or, with reject.require_signed, when the commit carries a
signature git verify-commit accepts against the merge-base's
reject.allowed_signers file (then that is required of every such
commit). A trailer from anyone else, the commit's author included, is
text the agent could have typed and does not count. A repository whose
merge-base configures neither blocks every protected change and says how
to configure one.

Always protected: .premise.yaml, assumptions.yaml, partitions.yaml, .gate/,
gate/frozen.json, flake_ledger.json and fixtures.json, so an agent cannot
commit an accepted register, a weak table or its own settings; and the
must-reject corpus, its lockfile and side file (or the paths listed below).

  $ premise guard --base origin/main
  UNSIGNED 3f2a9c1d0e4b relax email fixture: changes corpus/must_reject/user-email-reject-001.json; no Signed-off-by trailer
  commits=4 protected=1 unsigned=1

A listed reviewer signs a change off without becoming its author:
amending keeps the author and adds the reviewer's trailer,

  git commit --amend --no-edit --trailer "Signed-off-by: Rita Reviewer <rita@example.com>"

(or git commit --signoff when the reviewer commits the change). A trailer
from anyone the merge-base does not list, the author included, is not a
sign-off. The trailer must be in the message's trailer block; identities
are compared by email (and name, where the list gives one), without case.

The protected paths, the signers and the allowed signers live in the
merge-base's .premise.yaml; the head's is never read, since the patch could
empty the list or sign for itself:

  reject:
    lock: must_reject.lock.json
    corpus: corpus/must_reject
    environmental: must_reject.environmental.json
    protected: [corpus/must_reject/, must_reject.lock.json, must_reject.environmental.json, gate/frozen.json]
    signers: ["Lead Maintainer <lead@example.com>", "Rita Reviewer <rita@example.com>"]
    # require_signed: true
    # allowed_signers: .github/allowed_signers

--base defaults to origin/HEAD, else main, else master; --head to HEAD.
`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON = repoTop(c), jsonOn(c)
			return runRejectGuard(c.Context(), opts)
		},
	}
	exits(c, "0 every protected path the net change touches is signed off by a trusted signer, or none is touched",
		"2 blocked by policy: a protected path changed without a trusted sign-off, or no signer is configured",
		"3 premise could not do its job: bad flags, no base, an invalid .premise.yaml")
	f := c.Flags()
	f.StringVar(&opts.Base, "base", "", "the base `REV` (default origin/HEAD, main or master)")
	f.StringVar(&opts.Head, "head", "HEAD", "the head `REV`")
	return c
}

// guardJSON is the wire form of the guard's verdict.
type guardJSON struct {
	Base     string            `json:"base"`
	Head     string            `json:"head"`
	Commits  int               `json:"commits"`
	Blocked  bool              `json:"blocked"`
	Touching []guardCommitJSON `json:"touching"`
}

type guardCommitJSON struct {
	SHA      string   `json:"sha"`
	Subject  string   `json:"subject"`
	Author   string   `json:"author"`
	Paths    []string `json:"paths"`
	Signers  []string `json:"signed_off_by"`
	Signed   bool     `json:"signed"`
	Accepted string   `json:"accepted_signer,omitempty"`
}

func runRejectGuard(ctx context.Context, opts rejectGuardOptions) error {
	rep, base, err := reject.GuardRepo(ctx, reject.GuardOptions{Repo: opts.Repo, Base: opts.Base, Head: opts.Head})
	if err != nil {
		return err
	}
	if opts.JSON {
		out := guardJSON{Base: base, Head: opts.Head, Commits: rep.Commits, Blocked: len(rep.Blocked()) > 0, Touching: []guardCommitJSON{}}
		for _, c := range rep.Touching {
			out.Touching = append(out.Touching, guardCommitJSON{SHA: c.SHA, Subject: c.Subject, Author: c.Author,
				Paths: c.Paths, Signers: append([]string{}, c.Signers...), Signed: c.Signed(), Accepted: c.Accepted})
		}
		if err := writeIndentedJSON(opts.Out, out); err != nil {
			return err
		}
	} else if err := rep.WriteText(opts.Out); err != nil {
		return err
	}
	if len(rep.Blocked()) > 0 {
		return verdict(exitBlocked)
	}
	return nil
}
