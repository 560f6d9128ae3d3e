package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/premise-dev/premise/batch"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/propose"
)

// batchOptions are the flags of premise batch.
type batchOptions struct {
	Repo, Refs, PRs, Base, Out string
	Jobs                       int
	Shard                      batch.Shard
	Check, JSON, Quiet         bool
	Python                     string
	Timeout                    time.Duration
	Seed                       int64
	// Model gives one PR's model settings (its merge-base's .premise.yaml,
	// the environment, the flags).
	Model func(ctx context.Context, base, head string) (propose.Config, error)

	Streams Streams
}

func newBatchCmd(s Streams) *cobra.Command {
	opts := batchOptions{Streams: s}
	model := modelFlags{}
	var shard string
	c := &cobra.Command{
		Use:   "batch [--refs PATTERN | --prs FILE] [--out DIR] [-j N] [--shard I/N]",
		Short: "premise run over every open pull request at once",
		Long: `Run premise over every open pull request at once: each PR's head against
its merge-base, through the stages of premise run (diff, guard, propose,
evidence), in its own checkouts, writing

  OUT/<pr>/assumptions.yaml   the drafted register
  OUT/<pr>/draft.md           the Markdown for the PR
  OUT/<pr>/run.json           premise run's summary and the batch's figures
  OUT/summary.json            every PR, riskiest first
  OUT/summary.md              the same as a dashboard to post as an issue

The PRs come from git refs matching --refs (GitHub's refs/pull/*/head by
default, GitLab's refs/merge-requests/*/head, any glob: * within one path
component, ** across them) or from the JSON of
gh pr list --json number,title,headRefOid,baseRefName (--prs). Fetch the
refs first: git fetch origin '+refs/pull/*/head:refs/pull/*/head'.

A PR that cannot run (a ref that names no commit, no merge-base, a model
error) is recorded with its error and the others go on. A rerun skips every
PR whose head already has output (resume) and retries those that failed.
Replies are cached per changed symbol across PRs, so a function changed the
same way in two PRs is asked about once. Model settings are each PR's
merge-base's, never the PR's own .premise.yaml.

--shard I/N takes a stable 1/N of the PRs (by PR, whatever else is open), so a
CI matrix spreads a batch over N machines; premise batch merge joins them.

Examples:
  git fetch origin '+refs/pull/*/head:refs/pull/*/head'
  premise batch --base origin/main -j 8
  premise batch --refs 'refs/merge-requests/*/head' --out mrs
  gh pr list --json number,title,headRefOid,baseRefName > prs.json
  premise batch --prs prs.json --check --json
  premise batch --shard 2/4 --out shard-2      # one job of a CI matrix
  premise batch merge --out all shard-*        # the matrix's last job
`,
		Annotations: map[string]string{exitsAnnotation: "0 every PR ran, whatever its verdict (the verdicts are in the summary)\n3 a PR could not run, or the batch could not start\n4 no PR matched"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			sh, err := batch.ParseShard(shard)
			if err != nil {
				return jsonFail(s.Out, opts.JSON, err)
			}
			opts.Shard = sh
			if c.Flags().Changed("refs") && opts.PRs != "" {
				return jsonFail(s.Out, opts.JSON, errors.New("--refs and --prs name the PRs two ways: give one"))
			}
			if opts.Jobs < 1 {
				return jsonFail(s.Out, opts.JSON, fmt.Errorf("-j %d: want at least 1 worker", opts.Jobs))
			}
			opts.Model = func(ctx context.Context, base, head string) (propose.Config, error) {
				return model.config(c, settingsFrom{repo: opts.Repo, base: base, head: head}, os.Getenv)
			}
			return runBatch(c.Context(), opts)
		},
	}
	model.bind(c)
	f := c.Flags()
	f.StringVar(&opts.Refs, "refs", batch.DefaultRefs, "the refs of the PRs, a glob")
	f.StringVar(&opts.PRs, "prs", "", "the PRs as gh pr list --json number,title,headRefOid,baseRefName wrote them (a `FILE`)")
	f.StringVar(&opts.Base, "base", "", "every PR's base `REV` (default the PR's base branch, else origin/HEAD, main or master)")
	f.StringVar(&opts.Out, "out", "premise-batch", "the output `DIR`")
	f.IntVarP(&opts.Jobs, "jobs", "j", 4, "PRs run at once")
	f.StringVar(&shard, "shard", "", "run shard `I/N` of the PRs")
	f.BoolVar(&opts.Check, "check", false, "also run the register check on the register each PR carries")
	f.StringVar(&opts.Python, "python", envOr("PREMISE_PYTHON", "python3"), "the Python `interpreter` for Python targets")
	f.DurationVar(&opts.Timeout, "call-timeout", 10*time.Second, "the time one call of the code under review may take")
	f.Int64Var(&opts.Seed, "seed", 1, "seed for the generated inputs")
	sharedFlags(c, &opts.Repo, &opts.JSON)
	f.BoolVar(&opts.Quiet, "quiet", false, "no progress and no summary; the exit status alone")
	c.AddCommand(newBatchMergeCmd(s))
	return c
}

func runBatch(ctx context.Context, opts batchOptions) error {
	var prs []batch.PR
	var err error
	if opts.PRs != "" {
		prs, err = batch.ReadPRs(opts.PRs)
	} else {
		prs, err = batch.ListRefs(ctx, opts.Repo, opts.Refs)
	}
	if err != nil {
		return jsonFail(opts.Streams.Out, opts.JSON, err)
	}
	if py, err := gate.ResolvePython(opts.Python); err == nil {
		opts.Python = py
	}
	prog := newBatchProgress(opts.Streams.Err, opts.Quiet || opts.JSON)
	sum, err := batch.Run(ctx, batch.Config{
		Repo: opts.Repo, PRs: prs, Shard: opts.Shard, Base: opts.Base, Out: opts.Out,
		Jobs: opts.Jobs, Check: opts.Check, Model: opts.Model, Getenv: os.Getenv, Log: opts.Streams.Err,
		Python: opts.Python, Timeout: opts.Timeout, Seed: opts.Seed,
		Progress: prog.pr,
	})
	prog.done()
	if errors.Is(err, batch.ErrNoPRs) {
		what := opts.Refs
		if opts.PRs != "" {
			what = opts.PRs
		}
		fmt.Fprintf(opts.Streams.Err, "premise batch: no pull request in %s%s: nothing was checked\n", what, shardNote(opts.Shard))
		if opts.JSON {
			writeIndentedJSON(opts.Streams.Out, map[string]any{"version": 1, "shard": opts.Shard.String(), "prs": []any{}, "totals": batch.Totals{}})
		}
		return verdict(exitNothing)
	}
	if err != nil {
		return jsonFail(opts.Streams.Out, opts.JSON, err)
	}
	return writeBatch(opts.Streams.Out, sum, opts.JSON, opts.Quiet)
}

func shardNote(s batch.Shard) string {
	if s.N == 0 {
		return ""
	}
	return " for shard " + s.String()
}

// writeBatch prints a batch's summary and returns its exit status: 3 when
// a PR could not run, else 0.
func writeBatch(w io.Writer, sum *batch.Summary, asJSON, quiet bool) error {
	switch {
	case asJSON:
		if err := writeIndentedJSON(w, sum); err != nil {
			return err
		}
	case !quiet:
		if err := batch.WriteText(w, sum); err != nil {
			return err
		}
	}
	if sum.Totals.Failed > 0 {
		return verdict(exitCouldNotRun)
	}
	return nil
}

func newBatchMergeCmd(s Streams) *cobra.Command {
	var out string
	var asJSON bool
	c := &cobra.Command{
		Use:   "merge --out DIR SHARD_DIR...",
		Short: "Join the outputs of a batch's shards",
		Long: `Join the output directories of premise batch --shard I/N runs (the jobs
of a CI matrix) into one: each PR's directory copied to --out, and
summary.json and summary.md written over all of them, as one unsharded
batch would have. A PR found in two shards is an error.

Examples:
  premise batch merge --out all shard-1 shard-2 shard-3
  premise batch merge --out all --json shard-*
`,
		Annotations: map[string]string{exitsAnnotation: "0 merged, and every PR ran\n3 a PR could not run, or a directory is not a batch's output"},
		Args:        cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			sum, err := batch.Merge(out, args)
			if err != nil {
				return jsonFail(s.Out, asJSON, err)
			}
			return writeBatch(s.Out, sum, asJSON, false)
		},
	}
	c.Flags().StringVar(&out, "out", "premise-batch", "the output `DIR`")
	sharedFlags(c, nil, &asJSON)
	return c
}

// jsonFail reports an error that stopped a command: with --json also as
// {"error": ..., "exit": 3} on stdout. The exit status is 3 either way.
func jsonFail(w io.Writer, asJSON bool, err error) error {
	if asJSON {
		b, _ := json.Marshal(map[string]any{"error": oneLine(err.Error()), "exit": exitCouldNotRun})
		fmt.Fprintf(w, "%s\n", b)
	}
	return err
}

// batchProgress shows a batch's progress: a bar redrawn in place on a
// terminal, a line per finished PR otherwise, nothing when quiet.
type batchProgress struct {
	w     io.Writer
	tty   bool
	off   bool
	start time.Time
	shown bool
}

func newBatchProgress(w io.Writer, off bool) *batchProgress {
	p := &batchProgress{w: w, off: off, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

func (p *batchProgress) pr(pg batch.Progress) {
	if p.off {
		return
	}
	r := pg.Record
	what := r.Verdict
	if r.Error != "" {
		what = "ERROR " + r.Error
	} else if r.Resumed {
		what += " (resumed)"
	}
	if p.tty {
		const width = 24
		n := pg.Done * width / pg.Total
		fmt.Fprintf(p.w, "\r\033[Kpremise batch [%s%s] %d/%d PRs, %d failed (%.1fs)", strings.Repeat("#", n), strings.Repeat(".", width-n),
			pg.Done, pg.Total, pg.Failed, time.Since(p.start).Seconds())
		p.shown = true
		return
	}
	fmt.Fprintf(p.w, "premise batch: %d/%d %s %s: %s (%.1fs)\n", pg.Done, pg.Total, r.ID, short(r.Head), what, r.Seconds)
}

func (p *batchProgress) done() {
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
