package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/pipeline"
	"github.com/premise-dev/premise/propose"
)

// Files a batch writes: in the output directory, and in each PR's.
const (
	SummaryJSON     = "summary.json"
	SummaryMarkdown = "summary.md"
	RunFile         = "run.json"
)

// ErrNoPRs means the listing found no pull request (exit 4: nothing was
// checked).
var ErrNoPRs = errors.New("no pull request to run")

// Config is one batch.
type Config struct {
	// Repo is the repository holding the PRs' commits.
	Repo string
	// PRs are the pull requests (ListRefs, ReadPRs); Shard picks the ones
	// this run takes.
	PRs   []PR
	Shard Shard
	// Base is every PR's base; "" takes each PR's own (gh's baseRefName,
	// or origin/ of it), else origin/HEAD, main or master.
	Base string
	// Out is the output directory: OUT/<pr>/ per PR and the summary.
	Out string
	// Jobs is the number of PRs run at once (at least 1).
	Jobs int
	// Check also runs the register check on the register each PR carries.
	Check bool
	// Model returns the model settings for one PR: those of the
	// merge-base of base and head (never the PR's own .premise.yaml),
	// overlaid with the environment and the user's flags.
	Model func(ctx context.Context, base, head string) (propose.Config, error)
	// Getenv reads the API key from the variable the settings name.
	Getenv func(string) string
	// Log receives the model client's retry lines; nil discards them.
	Log io.Writer
	// Python, Timeout and Seed are premise run's.
	Python  string
	Timeout time.Duration
	Seed    int64
	// Progress, when set, is told of each PR as it finishes, one call at
	// a time.
	Progress func(Progress)
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Progress is the state of a batch after one PR finished.
type Progress struct {
	Done, Total, Failed int
	Record              *Record
}

// Run runs the batch: every PR of cfg.PRs in cfg.Shard, cfg.Jobs at once,
// each through pipeline.Run in its own checkouts of its head and
// merge-base, writing OUT/<pr>/ whole or not at all. A PR that fails (a
// bad ref, no merge-base, a model error) is recorded with its error and
// the others go on; a PR whose head already has output in OUT is not run
// again (resume). Replies are shared across PRs: one request per changed
// symbol, so a function changed the same way in two PRs is asked about
// once. Run writes OUT/summary.json and OUT/summary.md. The error means
// the batch could not run at all.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Out == "" {
		return nil, errors.New("batch: no output directory")
	}
	if cfg.Jobs < 1 {
		cfg.Jobs = 1
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if _, err := git.Open(ctx, cfg.Repo); err != nil {
		return nil, err
	}
	var prs []PR
	for _, pr := range cfg.PRs {
		if cfg.Shard.Has(pr) {
			prs = append(prs, pr)
		}
	}
	if len(prs) == 0 {
		return nil, ErrNoPRs
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, fmt.Errorf("output directory %s: %w", cfg.Out, err)
	}
	if cfg.Log != nil {
		cfg.Log = &lockedWriter{w: cfg.Log}
	}
	b := &batcher{cfg: cfg, flight: propose.NewFlight()}
	recs := b.runAll(ctx, prs)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sum := newSummary(recs, cfg.Shard)
	if err := WriteSummaryFiles(cfg.Out, sum); err != nil {
		return nil, err
	}
	return sum, nil
}

type batcher struct {
	cfg    Config
	flight *propose.Flight

	mu           sync.Mutex
	done, failed int
}

// runAll runs prs on cfg.Jobs workers, in listing order, and returns their
// records in the same order.
func (b *batcher) runAll(ctx context.Context, prs []PR) []Record {
	recs := make([]Record, len(prs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(b.cfg.Jobs, len(prs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				recs[i] = b.one(ctx, prs[i])
				b.report(len(prs), &recs[i])
			}
		}()
	}
	for i := range prs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return recs
}

// report tells Config.Progress of a finished PR, one call at a time, so a
// progress bar needs no lock of its own.
func (b *batcher) report(total int, r *Record) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done++
	if r.Error != "" {
		b.failed++
	}
	if b.cfg.Progress != nil {
		b.cfg.Progress(Progress{Done: b.done, Total: total, Failed: b.failed, Record: r})
	}
}

// lockedWriter serialises the writes of the PRs' model clients.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// one runs one PR and returns its record; its error, if any, is in the
// record, and its directory is written whole or left as it was.
func (b *batcher) one(ctx context.Context, pr PR) Record {
	start := b.cfg.Now()
	rec := Record{ID: pr.ID, Number: pr.Number, Title: pr.Title, Ref: pr.Ref, ChangedSymbols: []string{}, Dropped: map[string]int{}}
	fail := func(err error) Record {
		rec.Error = oneLine(err.Error())
		rec.Verdict, rec.Exit = VerdictError, 3
		rec.Seconds = seconds(b.cfg.Now().Sub(start))
		if ctx.Err() == nil {
			// A failed PR's record is kept too, so summaries and merges
			// list it; a rerun tries it again.
			_ = writeRecordDir(b.cfg.Out, &rec, "")
		}
		return rec
	}
	repo := git.At(b.cfg.Repo)
	revs, err := repo.RevParse(ctx, pr.Head+"^{commit}")
	if err != nil || len(revs) == 0 {
		return fail(noHead(ctx, repo, pr))
	}
	rec.Head = revs[0]
	if old, ok := readRecord(filepath.Join(b.cfg.Out, pr.ID)); ok && old.Head == rec.Head && old.Error == "" && old.Check.matches(b.cfg.Check) {
		old.Resumed = true
		return *old
	}
	base, err := b.base(ctx, pr)
	if err != nil {
		return fail(err)
	}
	rec.Base = base
	mb, err := repo.MergeBase(ctx, base, rec.Head)
	if err != nil {
		return fail(err)
	}
	rec.MergeBase = mb
	mcfg, err := b.modelConfig(ctx, base, rec.Head)
	if err != nil {
		return fail(err)
	}
	p, err := b.proposer(mcfg)
	if err != nil {
		return fail(err)
	}
	tmp, err := os.MkdirTemp(b.cfg.Out, ".run-"+pr.ID+"-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	sum, err := pipeline.Run(ctx, pipeline.Config{
		Repo: b.cfg.Repo, Base: base, Head: rec.Head, Out: tmp, Proposer: p,
		Python: b.cfg.Python, Timeout: b.cfg.Timeout, Seed: b.cfg.Seed,
		// One traced run of the base's tests for every PR against the
		// same merge-base, and a PR's evidence again on the next batch
		// of the same commits.
		CacheDir: mcfg.CacheRoot(),
	})
	if err != nil {
		return fail(err)
	}
	rec.fill(sum)
	if b.cfg.Check {
		if rec.Check, err = checkCarried(ctx, b.cfg.Repo, rec.Head, mb); err != nil {
			return fail(fmt.Errorf("register check: %w", err))
		}
	}
	rec.Seconds = seconds(b.cfg.Now().Sub(start))
	if err := writeRecordDir(b.cfg.Out, &rec, tmp); err != nil {
		return fail(err)
	}
	return rec
}

// base is the PR's base revision: Config.Base, else the branch gh names
// (as a local branch or origin's), else the repository's default.
func (b *batcher) base(ctx context.Context, pr PR) (string, error) {
	repo := git.At(b.cfg.Repo)
	if b.cfg.Base != "" {
		return b.cfg.Base, nil
	}
	if pr.Base != "" {
		for _, rev := range []string{"origin/" + pr.Base, pr.Base} {
			if _, err := repo.RevParse(ctx, rev+"^{commit}"); err == nil {
				return rev, nil
			}
		}
		return "", fmt.Errorf("its base branch %s is not in the repository (fetch it, or pass --base)", pr.Base)
	}
	base, err := repo.DefaultBase(ctx)
	if err != nil {
		return "", err
	}
	return base, nil
}

// modelConfig is the PR's model settings, those of its merge-base.
func (b *batcher) modelConfig(ctx context.Context, base, head string) (propose.Config, error) {
	if b.cfg.Model == nil {
		// The static rules, and no cache: none was named.
		cfg := propose.DefaultConfig()
		cfg.NoCache = true
		return cfg, nil
	}
	return b.cfg.Model(ctx, base, head)
}

// proposer builds the PR's proposer from its settings: the static rules,
// or the model with replies shared across the batch.
func (b *batcher) proposer(cfg propose.Config) (propose.Proposer, error) {
	if cfg.Static() {
		return propose.NewStaticConfig(cfg), nil
	}
	cfg.PerSymbol = true
	o, err := propose.NewOpenAI(cfg, b.cfg.Getenv(cfg.APIKeyEnv))
	if err != nil {
		return nil, err
	}
	o.Flight, o.Log = b.flight, b.cfg.Log
	return o, nil
}

// noHead says why a PR's head names no commit.
func noHead(ctx context.Context, repo *git.Repo, pr PR) error {
	if kind, err := repo.Run(ctx, "cat-file", "-t", pr.Head); err == nil {
		return fmt.Errorf("%s names a %s, not a commit", pr.Head, strings.TrimSpace(string(kind)))
	}
	if pr.Ref != "" {
		return fmt.Errorf("ref %s does not name a commit", pr.Ref)
	}
	return fmt.Errorf("head %s is not in the repository (closed, force-pushed, or not fetched: git fetch origin '+refs/pull/*/head:refs/pull/*/head')", pr.Head)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }
