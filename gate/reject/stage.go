package reject

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// ErrNoLock is returned by RunCorpus when the repository has no lockfile:
// there is no corpus to run.
var ErrNoLock = errors.New("no must-reject lockfile")

// noLock is a missing lockfile's error: ErrNoLock, with what os said.
type noLock struct{ err error }

func (e noLock) Error() string        { return e.err.Error() }
func (e noLock) Is(target error) bool { return target == ErrNoLock }
func (e noLock) Unwrap() error        { return e.err }

// BaseURLEnv names the environment variable that gives http entries their
// service when Options.BaseURL is not set.
const BaseURLEnv = "PREMISE_REJECT_BASE_URL"

// Options are one run of the must-reject stage. Paths are relative to Repo
// unless absolute; empty ones come from the reject: section of
// .premise.yaml, then from seed 000's names.
type Options struct {
	Repo                        string
	Lock, Corpus, Environmental string
	// Lang is the adapter for exception entries: python, go or exec; when
	// empty, go if every target is an import path, else python.
	Lang   string
	Python string
	Exec   []string
	// BaseURL is the service http entries are sent to.
	BaseURL     string
	Timeout     time.Duration
	MemoryLimit int64 // bytes; -1 none, 0 the gate's default
	// Private says Repo is already a private copy of the code under review
	// (premise run's checkout); otherwise the targets run in one
	// (gate.PrivateTree), never in the checkout the corpus lives in.
	Private bool
	// Progress, if set, is told after each entry (Runner.Progress).
	Progress func(done, total int)
}

// Paths returns the settings with o's paths applied, the lockfile's path
// and the corpus directory relative to the lockfile's directory (what
// input_path is relative to).
func (o Options) Paths() (Config, string, string, error) {
	cfg, err := LoadConfig(filepath.Join(o.Repo, ".premise.yaml"))
	if err != nil {
		return Config{}, "", "", err
	}
	if o.Lock != "" {
		cfg.Lock = o.Lock
	}
	if o.Corpus != "" {
		cfg.Corpus = o.Corpus
	}
	if o.Environmental != "" {
		cfg.Environmental = o.Environmental
	}
	lock := o.join(cfg.Lock)
	absDir, err := filepath.Abs(o.join(cfg.Corpus))
	if err != nil {
		return Config{}, "", "", err
	}
	absLock, err := filepath.Abs(filepath.Dir(lock))
	if err != nil {
		return Config{}, "", "", err
	}
	dir, err := filepath.Rel(absLock, absDir)
	if err != nil {
		return Config{}, "", "", err
	}
	return cfg, lock, dir, nil
}

func (o Options) join(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(o.Repo, p)
}

// RunCorpus is the must-reject stage: it reads the lockfile, the
// environmental side file and the corpus, calls every target in a worker
// process and returns the report with the lockfile's path. A missing
// lockfile is ErrNoLock; a lockfile that does not load, http entries
// without a service, or a worker that cannot start are errors (premise
// cannot run the corpus); every problem with an entry is a BROKEN result.
func RunCorpus(ctx context.Context, o Options) (*Report, string, error) {
	cfg, lockPath, dir, err := o.Paths()
	if err != nil {
		return nil, "", err
	}
	if err := gate.Inside(lockPath, gate.RepoTop(ctx, o.Repo)); err != nil {
		return nil, lockPath, err
	}
	lock, err := LoadLock(lockPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, lockPath, noLock{err}
	}
	if err != nil {
		return nil, lockPath, err
	}
	if o.BaseURL == "" {
		o.BaseURL = os.Getenv(BaseURLEnv)
	}
	for _, e := range lock.Entries {
		if e.Must.Kind == KindHTTP && o.BaseURL == "" {
			return nil, lockPath, fmt.Errorf("%s: entry %s is an http entry (line %d): give the service's base URL with --base-url or $%s", lockPath, e.ID, e.Line, BaseURLEnv)
		}
	}
	var targets []string
	goLike := 0
	for _, e := range lock.Entries {
		if e.Must.Kind == KindException {
			targets = append(targets, e.Target)
			if strings.Contains(e.Target, "/") {
				goLike++
			}
		}
	}
	if o.Lang == "" {
		// A dotted Python path never holds a slash; a Go import path does.
		o.Lang = "python"
		if goLike > 0 && goLike == len(targets) {
			o.Lang = "go"
		}
	}
	env, err := LoadEnvironmental(o.join(cfg.Environmental), lock)
	if err != nil {
		return nil, lockPath, err
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	r := &Runner{BaseURL: o.BaseURL, Timeout: o.Timeout, Positional: o.Lang == "go", Environmental: env, Progress: o.Progress}
	if len(targets) > 0 {
		if !o.Private {
			dir, cleanup, err := gate.PrivateTree(ctx, o.Repo)
			if err != nil {
				return nil, lockPath, err
			}
			defer cleanup()
			o.Repo = dir
		}
		a, err := o.adapter(ctx, targets)
		if err != nil {
			return nil, lockPath, err
		}
		defer a.Close()
		r.Adapter = a
	}
	rep, err := r.Run(ctx, Corpus{Lock: lock, Root: filepath.Dir(lockPath), Dir: dir})
	if err != nil {
		return nil, lockPath, fmt.Errorf("reject run %s: %w", lockPath, err)
	}
	return rep, lockPath, nil
}

// adapter starts the worker for exception entries through the gate's
// registry of adapters, as premise gate does: one row a target.
func (o Options) adapter(ctx context.Context, targets []string) (gate.Adapter, error) {
	mem := o.MemoryLimit
	if mem == 0 {
		mem = gate.DefaultMemoryLimit
	}
	t := &validate.Table{Version: validate.FormatVersion, Language: o.Lang}
	for _, tg := range targets {
		t.Rows = append(t.Rows, validate.Row{Target: tg})
	}
	// RunCorpus made o.Repo a private copy, or was told it is one: an
	// adapter may write there (TypeScript transpiled beside its sources).
	cfg := gate.Config{Lang: o.Lang, Python: o.Python, Exec: o.Exec, Timeout: o.Timeout, MemoryLimit: mem, Private: true}
	return gate.NewAdapter(ctx, cfg, o.Repo, t)
}
