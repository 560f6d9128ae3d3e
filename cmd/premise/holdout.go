package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate/holdout"
	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/gate/ledger"
)

// holdoutOptions are the flags of premise holdout's verbs.
type holdoutOptions struct {
	Repo    string
	Base    string
	Head    string
	Public  string
	Holdout string
	Ledger  string
	JSON    bool
	Out     io.Writer
}

func newHoldoutCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "holdout check|sparse|classify",
		Short: "The blind holdout split: public tests, a holdout the agent never reads, properties",
		Long: `Enforce the public / holdout split. Public tests live in tests/public/ (humans and
agents may read them); holdout fixtures in tests/holdout/, which the
generate job never checks out; properties in tests/properties/. The
directories are settings, read from the merge-base:

  holdout:
    dir: tests/holdout/
    public: tests/public/
    properties: tests/properties/

  premise holdout sparse            the generate job's sparse-checkout patterns
  premise holdout check --base origin/main
  premise holdout classify --public public.xml --holdout blind.xml --ledger flake_ledger.json`,
	}
	c.AddCommand(newHoldoutCheckCmd(s), newHoldoutSparseCmd(s), newHoldoutClassifyCmd(s))
	return c
}

func (o *holdoutOptions) bind(c *cobra.Command) {
	sharedFlags(c, &o.Repo, &o.JSON)
}

func newHoldoutCheckCmd(s Streams) *cobra.Command {
	opts := holdoutOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "check [--base REV] [--head REV]",
		Short: "Block a patch that touches the holdout; list the public tests it rewrote",
		Long: `Compare the patch (head against its merge-base with base) with the split. A
patch that adds, changes, deletes or renames anything under the holdout
tree is blocked: the holdout changes in a human review, never in the agent
loop. The public tests the patch modified, deleted or renamed are listed:
a patch that rewrites the tests it is judged by is how contamination
starts. The holdout directory is read from the merge-base's .premise.yaml,
so a patch cannot move it out of its own way.

  premise holdout check                       HEAD against origin/HEAD, main or master
  premise holdout check --base origin/main --head agent/fix --json

  HOLDOUT    modified  tests/holdout/rows.jsonl
  REWRITTEN  modified  tests/public/test_reserve_examples.py
  holdout=1 rewritten=1`,
		Annotations: map[string]string{exitsAnnotation: "0 the patch leaves the holdout alone (rewritten public tests are listed)\n2 the patch touches the holdout tree\n3 git could not answer: no such revision, not a repository"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runHoldoutCheck(c.Context(), opts)
		},
	}
	opts.bind(c)
	c.Flags().StringVar(&opts.Base, "base", "", "the base `REV` (default origin/HEAD, else main, else master)")
	c.Flags().StringVar(&opts.Head, "head", "", "the patch's `REV` (default HEAD)")
	return c
}

func runHoldoutCheck(ctx context.Context, opts holdoutOptions) error {
	rep, err := holdout.Check(ctx, holdout.CheckOptions{Repo: opts.Repo, Base: opts.Base, Head: opts.Head})
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		if err := writeJSONNoEscape(opts.Out, rep); err != nil {
			return err
		}
		return verdict(rep.Exit)
	}
	for _, c := range rep.Touched {
		fmt.Fprintf(opts.Out, "HOLDOUT    %-8s  %s\n", c.Status, changePath(c))
	}
	for _, c := range rep.Rewritten {
		fmt.Fprintf(opts.Out, "REWRITTEN  %-8s  %s\n", c.Status, changePath(c))
	}
	if _, err := fmt.Fprintf(opts.Out, "holdout=%d rewritten=%d\n", len(rep.Touched), len(rep.Rewritten)); err != nil {
		return err
	}
	return verdict(rep.Exit)
}

func changePath(c holdout.Change) string {
	if c.From != "" {
		return c.From + " -> " + c.Path
	}
	return c.Path
}

func newHoldoutSparseCmd(s Streams) *cobra.Command {
	opts := holdoutOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "sparse",
		Short: "The sparse-checkout patterns that keep the holdout out of the generate job",
		Long: `Print the sparse-checkout patterns (one a line; non-cone mode) that check
out everything but the holdout tree, for the job where the agent writes
the patch:

  premise holdout sparse | git sparse-checkout set --no-cone --stdin

  # .github/workflows/agent-gate.yml
  - uses: actions/checkout@v4
    with:
      sparse-checkout-cone-mode: false
      sparse-checkout: |
        /*
        !/tests/holdout/

Sparse checkout is not cryptography: it keeps the files out of the
prompt, not out of the company. An agent with git grep or a repository-wide
index reads through it; use a second checkout where that matters.`,
		Annotations: map[string]string{exitsAnnotation: "0 printed\n3 the settings could not be read"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runHoldoutSparse(c.Context(), opts)
		},
	}
	opts.bind(c)
	c.Flags().StringVar(&opts.Base, "base", "", "read .premise.yaml from the merge-base with `REV` (default: origin/HEAD, main or master, else the work tree)")
	return c
}

func runHoldoutSparse(ctx context.Context, opts holdoutOptions) error {
	cfg, err := holdout.LoadConfig(ctx, repoTopDir(ctx, opts.Repo), opts.Base, "")
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	patterns := holdout.Sparse(cfg)
	if opts.JSON {
		return writeJSONNoEscape(opts.Out, map[string]any{"holdout_dir": cfg.Dir, "patterns": patterns})
	}
	_, err = fmt.Fprintln(opts.Out, strings.Join(patterns, "\n"))
	return err
}

func newHoldoutClassifyCmd(s Streams) *cobra.Command {
	opts := holdoutOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "classify --public FILE --holdout FILE [--ledger FILE] [--base REV]",
		Short: "Sort holdout failures into contamination, real regression, spec drift and flake",
		Long: `Classify every failing holdout relation before anything is frozen:

  bucket           signal                                        action
  contamination    the patch rewrote a public test; the holdout   reject the patch; restore the public test
                   still fails
  real_regression  the holdout and the properties fail            reject; file the row that shrunk the failure
  spec_drift       only the holdout fails                         update the holdout in a human review, never
                                                                  in the agent loop
  flake            same seed, same diff, pass and fail across     do not skip; record it
                   reruns (or the ledger holds it frozen)

--holdout is the blind job's results (the holdout and the properties, as
pytest -m "holdout or property" writes them); --public the public suite's.
With --base, the public tests the patch rewrote are read from git
(premise holdout check); without it contamination is not looked for.

A failure is named by its relation (the test, without the row's
parameter) and a count of rows, never by the row or its message, so the
report can go back to the agent: paste the relation, not the row.

  premise holdout classify --public public.xml --holdout blind.xml --ledger flake_ledger.json --base origin/main

  real_regression  tests/holdout/test_blind_rows.py::test_holdout_row  1 row: reject; file the row that shrunk the failure`,
		Annotations: map[string]string{exitsAnnotation: "0 no holdout relation and no property failed\n1 a holdout relation or a property failed (each classified)\n3 a results file, the ledger or git could not be read"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.Holdout == "" {
				return failJSON(opts.Out, opts.JSON, exitCouldNotRun, fmt.Errorf("--holdout FILE is required: the blind job's results"))
			}
			return runHoldoutClassify(c.Context(), opts)
		},
	}
	opts.bind(c)
	f := c.Flags()
	f.StringVar(&opts.Public, "public", "", "the public suite's results `FILE`")
	f.StringVar(&opts.Holdout, "holdout", "", "the holdout and properties' results `FILE` (required)")
	f.StringVar(&opts.Ledger, "ledger", "", "the flake ledger `FILE`")
	f.StringVar(&opts.Base, "base", "", "list the public tests the patch rewrote against `REV`")
	return c
}

func runHoldoutClassify(ctx context.Context, opts holdoutOptions) error {
	co, err := classifyInputs(ctx, opts)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	rep := holdout.Classify(co)
	if opts.JSON {
		if err := writeJSONNoEscape(opts.Out, rep); err != nil {
			return err
		}
		return verdict(rep.Exit)
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(opts.Out, "%-16s %s  %d row(s): %s (%s)\n", f.Bucket, f.Relation, f.Rows, f.Action, f.Signal)
	}
	for _, p := range rep.PropertiesFailing {
		fmt.Fprintf(opts.Out, "property         %s  failed\n", p)
	}
	n := rep.Counts
	if _, err := fmt.Fprintf(opts.Out, "contamination=%d real_regression=%d spec_drift=%d flake=%d public_failing=%d\n",
		n[holdout.Contamination], n[holdout.RealRegression], n[holdout.SpecDrift], n[holdout.Flake], rep.PublicFailing); err != nil {
		return err
	}
	return verdict(rep.Exit)
}

// classifyInputs reads what classify judges by: the results, the ledger,
// the settings and, with --base, the public tests the patch rewrote.
func classifyInputs(ctx context.Context, opts holdoutOptions) (holdout.ClassifyOptions, error) {
	var co holdout.ClassifyOptions
	top := repoTopDir(ctx, opts.Repo)
	cfg, err := holdout.LoadConfig(ctx, top, opts.Base, "")
	if err != nil {
		return co, err
	}
	co.Config = cfg
	files := []string{opts.Holdout}
	if opts.Public != "" {
		files = append(files, opts.Public)
	}
	reports, err := readResults(ctx, opts.Repo, files)
	if err != nil {
		return co, err
	}
	co.Holdout = reports[0]
	if len(reports) > 1 {
		co.Public = reports[1]
	} else {
		co.Public = &junit.Report{}
	}
	if opts.Ledger != "" {
		if co.Ledger, err = ledger.Load(inRepo(top, opts.Ledger)); err != nil {
			return co, err
		}
	}
	if opts.Base != "" {
		ch, err := holdout.Check(ctx, holdout.CheckOptions{Repo: opts.Repo, Base: opts.Base})
		if err != nil {
			return co, err
		}
		co.Rewritten = ch.Rewritten
	}
	return co, nil
}
