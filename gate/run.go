package gate

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
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	igit "github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/validate"
)

// Config is one gate run's settings beyond the table: what premise gate's
// flags set, and what premise run passes for a differential run.
type Config struct {
	// Repo is the work tree under review (head); "." when empty. Python
	// targets import from it; Go targets are found in its module.
	Repo string
	// Lang is python, go, javascript, typescript or exec; when empty, the
	// table's language, else python.
	Lang string
	// Python is the interpreter for Lang python ("python3" when empty).
	Python string
	// Node is the node binary for Lang javascript and typescript ("node"
	// when empty).
	Node string
	// Exec is the worker command for Lang exec.
	Exec []string
	// Timeout, Grace and MemoryLimit are per worker, as in PythonConfig.
	Timeout     time.Duration
	Grace       time.Duration
	MemoryLimit int64
	// HashSeed is a Python worker's string hash seed, on both sides, as in
	// PythonConfig (zero: the pinned 0). Go and exec workers ignore it.
	HashSeed uint32
	// Reruns, Budget, Seed and Freezes are as in Runner. Budget zero
	// tolerates no frozen or flaking row; premise gate defaults it to
	// DefaultBudget.
	Reruns  int
	Budget  int
	Seed    int64
	Freezes Freezes
	// Base is a git revision of Repo to run the same rows against
	// (differential mode), checked out in a temporary git worktree.
	Base string
	// BaseDir, when set, is a checkout of the base already made by the
	// caller (premise run makes one per run and shares it); Base is then
	// not checked out again.
	BaseDir string
	// Race builds a Go target's harness with the race detector.
	Race bool
	// Private says Repo is already a private copy of the code under review
	// (premise run's checkouts); otherwise RunFile runs the rows in one
	// (PrivateTree).
	Private bool
	// AllowEmpty makes RunFile's verdict on a table without rows exit 0;
	// otherwise it is 4, nothing was checked.
	AllowEmpty bool
	// BaseTargets are the base's names for targets it knows by another
	// name (Runner.BaseTargets).
	BaseTargets map[string]string
	// Target, when set, overrides the table's target (premise gate --fn).
	Target string
	// FreezesFile is the freezes file RunFile reads when Freezes is nil; a
	// missing file is no freezes.
	FreezesFile string
	// Progress, if set, is called after each row.
	Progress func(RowResult)
	// Watch and BaseWatch are the lines the head's and the base's workers
	// report each call ran (watch.go); none when nil.
	Watch, BaseWatch Watch
	// TargetClock, when set, bounds the time each target's calls take on
	// the workers, both sides together (Runner.Clock); several runs handed
	// one clock spend a target's time once.
	TargetClock *TargetClock
	// FullTimeouts gives every call the whole Timeout, after a timeout of
	// its target too: a rerun that checks timeouts must not be cut short.
	// Otherwise a row's calls on a side where its target already timed out
	// get ShortTimeout(Timeout) (Runner.Short).
	FullTimeouts bool
}

func (cfg Config) lang(t *validate.Table) string {
	switch {
	case cfg.Lang != "":
		return cfg.Lang
	case t.Language != "":
		return t.Language
	}
	return "python"
}

// NewAdapter starts the adapter cfg asks for, rooted at dir, for the
// targets of t: the one registered for the table's language
// (adapters.go).
func NewAdapter(ctx context.Context, cfg Config, dir string, t *validate.Table) (Adapter, error) {
	l := cfg.lang(t)
	start := adapterFor(l)
	if start == nil {
		return nil, fmt.Errorf("language %q: want %s", l, strings.Join(AdapterLanguages(), ", "))
	}
	a, err := start(ctx, cfg, dir, t)
	if err != nil {
		// A constructor's nil *GoAdapter is not a nil Adapter: a caller
		// that closes what it got would close a nil pointer.
		return nil, err
	}
	return a, nil
}

// goAdapter starts the Go harness for t's targets, the constructors its
// rows build receivers with, and the package variables they set.
func goAdapter(ctx context.Context, cfg Config, dir string, t *validate.Table) (Adapter, error) {
	seen := map[string]bool{}
	var targets, vars []string
	for _, r := range t.Rows {
		if tg := t.TargetOf(r); !seen[tg] {
			seen[tg] = true
			targets = append(targets, tg)
		}
		// Constructors the row builds receivers with are targets too.
		args, kwargs := r.CallArgs()
		for _, c := range constructorsIn(args) {
			if !seen[c] {
				seen[c] = true
				targets = append(targets, c)
			}
		}
		// A Go row's keyword arguments are the package variables it sets
		// (GoConfig.Vars).
		for k := range kwargs {
			if !seen[k] && !strings.HasPrefix(k, "$") {
				seen[k] = true
				vars = append(vars, k)
			}
		}
	}
	sort.Strings(vars)
	return NewGoAdapter(ctx, GoConfig{Dir: dir, Targets: targets, Vars: vars, Timeout: cfg.Timeout, Grace: cfg.Grace, MemoryLimit: cfg.MemoryLimit, Race: cfg.Race, Private: cfg.Private, Watch: cfg.Watch,
		HTTP: namesHTTP(t), ModulesFrom: cfg.BaseDir})
}

// namesHTTP says whether a row of t holds a net/http value, which the Go
// harness then builds in (it imports net/http only then).
func namesHTTP(t *validate.Table) bool {
	for _, r := range t.Rows {
		b, _ := json.Marshal(r.Args)
		if bytes.Contains(b, []byte(`"$go":"*http.Request"`)) || bytes.Contains(b, []byte(`"$go":"http.ResponseWriter"`)) || bytes.Contains(b, []byte(`"$go":"http.Handler"`)) {
			return true
		}
	}
	return false
}

func (cfg Config) pythonAdapter(dir string) (Adapter, error) {
	if cfg.Private {
		// premise's own copy: it may hold what an install would.
		from := cfg.BaseDir
		if from == "" {
			from = dir
		}
		if err := installPythonMeta(dir, from); err != nil {
			return nil, &InfraError{Reason: err.Error()}
		}
	}
	return NewPythonAdapter(PythonConfig{Interpreter: cfg.Python, Dir: dir, Timeout: cfg.Timeout, Grace: cfg.Grace, MemoryLimit: cfg.MemoryLimit, HashSeed: cfg.HashSeed, Watch: cfg.Watch})
}

func (cfg Config) repo() string {
	if cfg.Repo == "" {
		return "."
	}
	return cfg.Repo
}

// HeadAdapter returns the adapter for the code under review.
func HeadAdapter(ctx context.Context, cfg Config, t *validate.Table) (Adapter, error) {
	return NewAdapter(ctx, cfg, cfg.repo(), t)
}

// Run runs t against cfg.Repo (and, with cfg.Base, against the base
// revision too) and returns the report. The error means the run could not
// happen: an input error, or one infrastructure cause (*InfraError).
func Run(ctx context.Context, cfg Config, t *validate.Table) (*Report, error) {
	repo := cfg.repo()
	wt := ""
	if cfg.Base != "" || cfg.BaseDir != "" {
		wt = cfg.BaseDir
		if wt == "" {
			dir, cleanup, err := Checkout(ctx, repo, cfg.Base)
			if err != nil {
				return nil, err
			}
			defer cleanup()
			wt = dir
		}
		// The merge-base's modules are what a worker's build may fetch
		// (GoConfig.ModulesFrom), on either side.
		cfg.BaseDir = wt
	}
	// The two sides' workers start at once: a Go harness is a build each,
	// and the builds share the machine's cores and the build cache.
	var base Adapter
	var baseErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if wt == "" {
			return
		}
		bcfg := cfg
		bcfg.Private = true // a worktree premise made, or the caller's own checkout
		bcfg.Watch = cfg.BaseWatch
		base, baseErr = NewAdapter(ctx, bcfg, wt, baseTable(t, cfg.BaseTargets))
	}()
	head, err := HeadAdapter(ctx, cfg, t)
	<-done
	if base != nil && baseErr == nil {
		defer base.Close()
	}
	if err != nil {
		return nil, err
	}
	defer head.Close()
	if baseErr != nil {
		return nil, fmt.Errorf("base %s: %w", cfg.Base, baseErr)
	}
	rn := &Runner{Adapter: head, Reruns: cfg.Reruns, Budget: cfg.Budget, Seed: cfg.Seed, Freezes: cfg.Freezes, Progress: cfg.Progress, BaseTargets: cfg.BaseTargets,
		Clock: cfg.TargetClock}
	if !cfg.FullTimeouts {
		rn.Short = ShortTimeout(cfg.Timeout)
	}
	if wt != "" {
		rn.Base = base
		rn.Tests = baseTestRunner(cfg, t.Language, repo, wt)
	}
	return rn.Run(ctx, t)
}

// baseTable is t as the base's adapter builds for it: rows call a target
// the base knows by another name (BaseTargets) by the base's name, as the
// runner calls it there.
func baseTable(t *validate.Table, names map[string]string) *validate.Table {
	if len(names) == 0 {
		return t
	}
	bt := *t
	bt.Rows = make([]validate.Row, len(t.Rows))
	for i, r := range t.Rows {
		if n, ok := names[t.TargetOf(r)]; ok {
			r.Target = n
		}
		bt.Rows[i] = r
	}
	return &bt
}

// ExitNothing is the exit status of a gate that checked nothing: a table
// without rows (DESIGN.md, "Exit codes"; pytest's 5 for no tests collected).
const ExitNothing = 4

// ExitInterrupted is the exit status of a run a signal cut short.
const ExitInterrupted = 130

// RunFile is the gate stage: it reads the partition table at path and the
// freezes (cfg.Freezes, else the file cfg.FreezesFile) before any code
// under review runs, runs the table as Run does in a private copy of
// cfg.Repo (unless cfg.Private), and returns the report with its Source
// set. premise gate and premise run both call it, so the two cannot read
// different files, and a subject cannot rewrite the table it is judged by.
func RunFile(ctx context.Context, cfg Config, path string) (*Report, error) {
	judged := []string{path}
	if cfg.Freezes == nil && cfg.FreezesFile != "" {
		judged = append(judged, cfg.FreezesFile)
	}
	// The judged files' repository is the one holding the table, which is
	// not the subject's copy when the caller made that (cfg.Private).
	top := RepoTop(ctx, filepath.Dir(path))
	for _, f := range judged {
		if err := Inside(f, top); err != nil {
			return nil, err
		}
	}
	before := digests(judged)
	t, err := validate.LoadTable(path)
	if err != nil {
		return nil, err
	}
	if cfg.Target != "" {
		t.Retarget(cfg.Target)
	}
	if cfg.Freezes == nil && cfg.FreezesFile != "" {
		if cfg.Freezes, err = LoadFreezes(cfg.FreezesFile); err != nil {
			return nil, err
		}
	}
	var found judgedHead
	if !cfg.Private {
		found = headOf(ctx, cfg.repo())
	}
	if cfg.Base == "" && cfg.BaseDir == "" && needsBase(t) {
		// Tables premise run wrote compare rows with the base
		// (same_as_base); find it as run does, so gate needs no --base.
		base, err := defaultMergeBase(ctx, cfg.repo())
		if err != nil {
			return nil, fmt.Errorf("gate %s: rows compare with the base (same_as_base) and %w: pass --base REV", path, err)
		}
		cfg.Base, found.base = base, base
	}
	if !cfg.Private {
		// The base is checked out from the repository itself: the private
		// copy of the head has no .git to check it out from.
		if cfg.Base != "" && cfg.BaseDir == "" {
			dir, cleanup, err := Checkout(ctx, cfg.repo(), cfg.Base)
			if err != nil {
				return nil, err
			}
			defer cleanup()
			cfg.BaseDir = dir
		}
		dir, cleanup, err := PrivateTree(ctx, cfg.repo())
		if err != nil {
			return nil, err
		}
		defer cleanup()
		cfg.Repo, cfg.Private = dir, true
	}
	rep, err := Run(ctx, cfg, t)
	if rep != nil {
		rep.Source = path
		rep.Commit, rep.Uncommitted, rep.BaseCommit = found.commit, found.uncommitted, found.base
	}
	if err != nil {
		return rep, fmt.Errorf("gate %s: %w", path, err)
	}
	after := digests(judged)
	for i, f := range judged {
		if before[i] != after[i] {
			rep.Tampered = append(rep.Tampered, f)
		}
	}
	if len(rep.Tampered) > 0 && rep.Exit == 0 {
		rep.Exit = 1
	}
	if len(t.Rows) == 0 && !cfg.AllowEmpty && rep.Exit == 0 {
		rep.Exit = ExitNothing
	}
	return rep, nil
}

// digests are the sha256 of each file's bytes ("" for a file that cannot
// be read).
func digests(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = digest(p)
	}
	return out
}

// digest is the SHA-256 of the file at path, streamed (a large table is
// not held a second time to be hashed); "" when it cannot be read.
func digest(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Differential runs t against both cfg.Base and cfg.Repo (premise run
// calls it with template rows before review). Every row's report carries
// the base's outcome; Report.Changed lists rows whose outcome changed,
// invalid inputs that used to raise and now return first.
func Differential(ctx context.Context, cfg Config, t *validate.Table) (*Report, error) {
	if cfg.Base == "" && cfg.BaseDir == "" {
		return nil, errors.New("differential run: no base revision")
	}
	return Run(ctx, cfg, t)
}

// Checkout writes the tree of rev, from the repository that holds dir, into
// a fresh temporary directory, and returns the directory in the copy that
// corresponds to dir and a cleanup that removes the copy. The copy is
// sealed (issue 26, item 3): plain files with no .git, no worktree entry in
// the repository and no file pointing back at it, so what the code under
// review writes there can never reach a git command premise runs later.
// Its directory is named after the repository's, as an ordinary clone's.
func Checkout(ctx context.Context, dir, rev string) (string, func(), error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	repo, err := igit.Open(ctx, abs)
	if err != nil {
		return "", nil, fmt.Errorf("checkout of %s: %w", rev, err)
	}
	shas, err := repo.RevParse(ctx, rev)
	if err != nil {
		return "", nil, fmt.Errorf("checkout of %s: no such revision in %s", rev, repo.Dir)
	}
	// The directory in the copy that corresponds to dir; a bare
	// repository has no work tree, so the copy's top is the answer.
	rel, name, workTop := ".", "src", ""
	if !repo.Bare {
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		top, err := repo.Top(ctx)
		if err != nil {
			return "", nil, fmt.Errorf("checkout of %s: %w", rev, err)
		}
		if t, err := filepath.EvalSymlinks(top); err == nil {
			top = t
		}
		if rel, err = filepath.Rel(top, real); err != nil || strings.HasPrefix(rel, "..") {
			return "", nil, fmt.Errorf("checkout of %s: %s is outside %s", rev, dir, top)
		}
		name, workTop = filepath.Base(top), top
	} else {
		name = strings.TrimSuffix(filepath.Base(repo.Dir), ".git")
	}
	tmp, err := os.MkdirTemp("", "")
	if err != nil {
		return "", nil, fmt.Errorf("checkout of %s: %w", rev, err)
	}
	sources.add(ctx, tmp, repo)
	cleanup := func() { sources.forget(tmp); removeAll(tmp) }
	top := filepath.Join(tmp, name)
	if err := repo.Export(ctx, shas[0], top); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("checkout of %s: %w", rev, err)
	}
	if workTop != "" {
		// node_modules files the work tree's commit tracks are a patch's
		// words, not an install: none is lent then.
		tracked, err := repo.Run(ctx, "ls-files", "-z", "--", "node_modules")
		if err == nil && len(tracked) == 0 {
			linkNodeModules(top, workTop)
		}
	}
	return filepath.Join(top, rel), cleanup, nil
}

// AddWorktree is Checkout, under the name callers knew it by; the copy is
// no longer a git worktree.
func AddWorktree(ctx context.Context, dir, rev string) (string, func(), error) {
	return Checkout(ctx, dir, rev)
}

// removeAll removes a copy a subject may have made read-only in part.
func removeAll(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}
