package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate/ledger"
)

// ledgerOptions are the flags of premise ledger's verbs.
type ledgerOptions struct {
	Repo   string
	Ledger string
	Base   string
	JUnit  []string
	Seed   int64
	Diff   string
	Node   string
	By     string
	JSON   bool
	Out    io.Writer
	Now    func() time.Time
}

func newLedgerCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "ledger record|unfreeze|gate",
		Short: "The flake ledger: evidence per test, and its watch, frozen and active states",
		Long: `Keep the flake ledger (flake_ledger.json): a JSON object keyed by
test node id with the seed, runs, fails, last diff and state of each test,
and its latest runs. It is evidence, not a calendar: nothing in it expires.

  watch   a fail rate in (0, 0.10]: keep running, do not skip
  frozen  a fail rate above 0.10, or identical seed and diff giving both
          results: the test does not gate a merge, but still runs and
          records
  active  the default; a frozen test is active again only after a human's
          premise ledger unfreeze and N clean identical-seed reruns
  broken  it failed every run: broken, not flaky; never frozen, it gates

Nothing moves on fewer than ledger.min_runs runs (5); a watched test
returns to active only after that many clean runs in a row. A run where
ledger.infra_rate (80%) of the tests fail at once is recorded as an
infrastructure failure and feeds no test. Failures on a diff where a test
failed every run are a regression, not a flake: they never freeze it.

Settings (.premise.yaml):

  ledger:
    file: flake_ledger.json
    min_runs: 5
    watch_rate: 0.10
    window: 50
    unfreeze_runs: 5
    infra_rate: 0.80

  premise ledger record --junit report.xml --seed 20260907 --diff "sha256:$(git diff main... | sha256sum | cut -c1-64)"
  premise ledger gate --junit report.xml
  premise ledger unfreeze tests/properties/test_x.py::test_y --by "Rita Reviewer"`,
	}
	c.AddCommand(newLedgerRecordCmd(s), newLedgerUnfreezeCmd(s), newLedgerGateCmd(s))
	return c
}

func (o *ledgerOptions) bind(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.Ledger, "ledger", "", "the ledger `FILE` (default: ledger.file, else "+ledger.DefaultFile+")")
	f.StringVar(&o.Base, "base", "", "read .premise.yaml from the merge-base with `REV`")
	sharedFlags(c, &o.Repo, &o.JSON)
}

// config reads the ledger: settings and resolves the ledger's path.
func (o ledgerOptions) config(ctx context.Context) (ledger.Config, string, error) {
	top := repoTopDir(ctx, o.Repo)
	cfg, err := ledger.LoadConfig(ctx, top, o.Base)
	if err != nil {
		return cfg, "", err
	}
	if o.Ledger != "" {
		cfg.File = o.Ledger
	}
	return cfg, inRepo(top, cfg.File), nil
}

func newLedgerRecordCmd(s Streams) *cobra.Command {
	opts := ledgerOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "record --junit FILE --seed N --diff SHA [--ledger FILE]",
		Short: "Add one run of the suite to the ledger and move the tests' states",
		Long: `Add one run of the suite (its JUnit XML or go test -json) to the flake
ledger, under its lock, and print every test whose state changed. --seed
is the seed the run used and --diff identifies the patch: a test whose
results differ on identical seed and diff is non-deterministic. Every
attempt of a rerun test counts as a run.

  premise ledger record --junit report.xml --seed 20260907 --diff sha256:3f2a...
  premise ledger record --junit go.json --seed 1 --diff "$(git rev-parse HEAD)" --json

  frozen  tests/p.py::test_x  (was active): seed 20260907 and diff 3f2a... gave both passes and failures: non-deterministic
  INFRA   9 of 10 tests failed at once: recorded as an infrastructure failure; no test was fed
  tests=10 failing=2 active=8 watch=0 frozen=1 broken=1`,
		Annotations: map[string]string{exitsAnnotation: "0 recorded (whatever the states: premise ledger gate judges)\n3 a results file or the ledger could not be read, or bad flags"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(opts.JUnit) != 1 || !c.Flags().Changed("seed") || opts.Diff == "" {
				return failJSON(opts.Out, opts.JSON, exitCouldNotRun, errors.New("--junit FILE, --seed N and --diff SHA are required: a run without identity is an anecdote"))
			}
			return runLedgerRecord(c.Context(), opts)
		},
	}
	opts.bind(c)
	f := c.Flags()
	f.StringArrayVar(&opts.JUnit, "junit", nil, "the run's results `FILE` (JUnit XML or go test -json)")
	f.Int64Var(&opts.Seed, "seed", 0, "the seed the run used")
	f.StringVar(&opts.Diff, "diff", "", "the diff the run tested (a commit or a sha256 of the patch)")
	return c
}

func runLedgerRecord(ctx context.Context, opts ledgerOptions) error {
	cfg, path, err := opts.config(ctx)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	reports, err := readResults(ctx, opts.Repo, opts.JUnit)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	rep, err := ledger.Record(ctx, ledger.RecordOptions{Path: path, Config: cfg, Report: reports[0], Seed: opts.Seed, Diff: opts.Diff})
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		return writeJSONNoEscape(opts.Out, rep)
	}
	w := opts.Out
	for _, t := range rep.Transitions {
		fmt.Fprintf(w, "%-7s %s  (was %s): %s\n", t.To, t.ID, t.From, t.Why)
	}
	if rep.Infrastructure {
		fmt.Fprintf(w, "INFRA   %d of %d tests failed at once: recorded as an infrastructure failure; no test was fed\n", rep.Failing, rep.Tests)
	}
	st := rep.States
	_, err = fmt.Fprintf(w, "tests=%d failing=%d active=%d watch=%d frozen=%d broken=%d\n", rep.Tests, rep.Failing,
		st[ledger.Active], st[ledger.Watch], st[ledger.Frozen], st[ledger.Broken])
	return err
}

func newLedgerUnfreezeCmd(s Streams) *cobra.Command {
	opts := ledgerOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "unfreeze NODE --by NAME",
		Short: "A human's unfreeze of a frozen test",
		Long: `Record that a human unfroze a frozen test, and who. The test stays frozen
(it does not gate) until ledger.unfreeze_runs clean reruns on one seed make
it active; a failure among them spends the unfreeze. Never let the agent
unfreeze: the ledger is a protected path (premise guard), so a patch's
commit that changes it needs a reviewer's sign-off.

  premise ledger unfreeze tests/properties/test_x.py::test_y --by "Rita Reviewer"`,
		Annotations: map[string]string{exitsAnnotation: "0 recorded\n3 no such test, the test is not frozen, no --by, or an unreadable ledger"},
		Args:        cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Node = args[0]
			return runLedgerUnfreeze(c.Context(), opts)
		},
	}
	opts.bind(c)
	c.Flags().StringVar(&opts.By, "by", "", "the `NAME` of the human who unfreezes (required)")
	return c
}

func runLedgerUnfreeze(ctx context.Context, opts ledgerOptions) error {
	_, path, err := opts.config(ctx)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	row, err := ledger.Unfreeze(ctx, ledger.UnfreezeOptions{Path: path, ID: opts.Node, By: opts.By, Now: opts.Now()})
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		return writeJSONNoEscape(opts.Out, map[string]*ledger.Row{opts.Node: row})
	}
	_, err = fmt.Fprintf(opts.Out, "unfroze %s (by %s): it stays frozen until its clean reruns\n", opts.Node, row.Unfreeze.By)
	return err
}

func newLedgerGateCmd(s Streams) *cobra.Command {
	opts := ledgerOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "gate --junit FILE... [--ledger FILE]",
		Short: "Fail only for failures of tests that are not frozen",
		Long: `Judge the suite's results by the flake ledger : a
failure of a frozen test does not gate; every other failure, error or
flake does, whatever the test's state (watch, active, broken, or not in
the ledger). The frozen count is printed as its own figure.

  premise ledger gate --junit report.xml
  premise ledger gate --junit holdout.xml --junit properties.xml --json

  BLOCK   tests/holdout/test_rows.py::test_row[h-2]  failed (active): ...
  FROZEN  tests/properties/test_x.py::test_y  failed
  tests=40 blocking=1 frozen=3 frozen_failed=1`,
		Annotations: map[string]string{exitsAnnotation: "0 no failure outside the frozen tests\n1 a test that is not frozen failed, errored or flaked\n3 a results file or the ledger could not be read"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(opts.JUnit) == 0 {
				return failJSON(opts.Out, opts.JSON, exitCouldNotRun, errors.New("--junit FILE is required: the suite's results"))
			}
			return runLedgerGate(c.Context(), opts)
		},
	}
	opts.bind(c)
	c.Flags().StringArrayVar(&opts.JUnit, "junit", nil, "a results `FILE` (JUnit XML or go test -json); repeat for several")
	return c
}

func runLedgerGate(ctx context.Context, opts ledgerOptions) error {
	_, path, err := opts.config(ctx)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	reports, err := readResults(ctx, opts.Repo, opts.JUnit)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	rep, err := ledger.Gate(path, reports)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		if err := writeJSONNoEscape(opts.Out, rep); err != nil {
			return err
		}
		return verdict(rep.Exit)
	}
	for _, b := range rep.Blocking {
		fmt.Fprintf(opts.Out, "BLOCK   %s  %s (%s): %s\n", b.ID, b.Outcome, b.State, orDash(b.Message))
	}
	for _, f := range rep.Frozen {
		fmt.Fprintf(opts.Out, "FROZEN  %s  %s\n", f.ID, f.Outcome)
	}
	if _, err := fmt.Fprintf(opts.Out, "tests=%d blocking=%d frozen=%d frozen_failed=%d\n", rep.Tests, len(rep.Blocking), rep.FrozenRan, len(rep.Frozen)); err != nil {
		return err
	}
	return verdict(rep.Exit)
}
