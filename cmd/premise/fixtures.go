package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/gate/fixtures"
)

// fixturesOptions are the flags of premise fixtures run.
type fixturesOptions struct {
	Fixtures string
	Fn       string
	Lang     string
	Python   string
	Repo     string
	Timeout  time.Duration
	JSON     bool
	Out      io.Writer
}

func newFixturesCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "fixtures run",
		Short: "Curated fixtures: the edge cases production taught you, run against the code",
		Long: `Run the curated fixtures, the gate's second layer: fixtures.json, written and
reviewed by humans, one fixture per production incident. The agent never
sees the incident; the fixture tests what it did not optimise for.

  {"target": "csvline.parse_csv_line",
   "fixtures": [{"name": "empty_field", "input": "a,,b", "expected": ["a", "", "b"]},
                {"name": "empty_line", "input": "", "expected": [""]}]}

premise adds "target" (or --fn), "args" for a target of several
parameters, and "raises" for an input that must raise that class.

  premise fixtures run
  premise fixtures run --fixtures ci/fixtures.json --fn csvline.parse_csv_line --json`,
	}
	c.AddCommand(newFixturesRunCmd(s))
	return c
}

func newFixturesRunCmd(s Streams) *cobra.Command {
	opts := fixturesOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "run [--fixtures FILE] [--fn TARGET] [--json]",
		Short: "Run every fixture once; each failure names its fixture",
		Long: `Run every fixture of the manifest once against the code, in a worker
process and a private copy of the tree, as the gate runs rows. A fixture
passes when the call returns its expected value (compared as JSON) or
raises its class; each failure names the fixture and what the call did.

  premise fixtures run
  premise fixtures run --lang go --fn example.com/csv.ParseLine

  FAIL  empty_field  returned ["a","b"]; want ["a","","b"]
  fixtures=4 passed=1 failed=3`,
		Annotations: map[string]string{exitsAnnotation: "0 every fixture passed\n1 a fixture failed, or its call timed out or crashed\n3 the manifest could not be read, no target, or the code could not be called (no interpreter, a module that does not import)\n4 the manifest holds no fixture"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runFixtures(c.Context(), opts)
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Fixtures, "fixtures", fixtures.DefaultFile, "the manifest `FILE`, relative to the repository's top level")
	f.StringVar(&opts.Fn, "fn", "", "the `TARGET` to call, overriding the manifest's")
	f.StringVar(&opts.Lang, "lang", "", "python, go, javascript (js), typescript (ts) or exec (default: the manifest's language, else python)")
	f.StringVar(&opts.Python, "python", "python3", "the Python interpreter")
	f.DurationVar(&opts.Timeout, "call-timeout", gate.DefaultTimeout, "the time one call of the code under review may take")
	sharedFlags(c, &opts.Repo, &opts.JSON)
	return c
}

func runFixtures(ctx context.Context, opts fixturesOptions) error {
	top := repoTopDir(ctx, opts.Repo)
	cfg := gate.Config{Repo: opts.Repo, Lang: langName(opts.Lang), Python: opts.Python, Timeout: opts.Timeout, MemoryLimit: gate.DefaultMemoryLimit}
	rep, err := fixtures.Run(ctx, fixtures.Options{Path: inRepo(top, opts.Fixtures), Target: opts.Fn, Config: cfg})
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		if err := writeJSONNoEscape(opts.Out, rep); err != nil {
			return err
		}
		return verdict(rep.Exit)
	}
	if err := writeFixtures(opts.Out, rep); err != nil {
		return err
	}
	return verdict(rep.Exit)
}

func writeFixtures(w io.Writer, rep *fixtures.Report) error {
	for _, r := range rep.Fixtures {
		switch r.Outcome {
		case "fail":
			fmt.Fprintf(w, "FAIL  %s  %s\n", r.Name, r.Detail)
		case "error":
			fmt.Fprintf(w, "ERROR %s  %s\n", r.Name, r.Detail)
		}
	}
	_, err := fmt.Fprintf(w, "fixtures=%d passed=%d failed=%d\n", len(rep.Fixtures), rep.Passed, rep.Failed)
	return err
}
