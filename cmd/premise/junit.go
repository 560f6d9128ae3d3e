package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate/freeze"
	"github.com/premise-dev/premise/gate/junit"
)

// junitGateOptions are the flags of premise junit gate.
type junitGateOptions struct {
	freezeOptions
	JUnit []string
}

func newJUnitCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "junit gate --junit FILE...",
		Short: "Gate on your own suite's results, with the freeze registry",
		Long: `Read your own test suite's results and gate on them. The results are JUnit
XML (pytest --junitxml, gotestsum --junitfile, Maven Surefire, most
runners) or the event stream of go test -json, as written; premise names
each test by its node id (tests/x.py::TestK::test_y[param],
example.com/m/pkg::TestA/sub, else classname::name).

  premise junit gate --junit report.xml
  go test -json ./... > go.json; premise junit gate --junit go.json`,
	}
	c.AddCommand(newJUnitGateCmd(s))
	return c
}

func newJUnitGateCmd(s Streams) *cobra.Command {
	opts := junitGateOptions{freezeOptions: freezeOptions{Out: s.Out, Now: time.Now}}
	c := &cobra.Command{
		Use:   "gate --junit FILE... [--registry FILE] [--base REV]",
		Short: "Fail on failures of tests not frozen; count frozen ones apart",
		Long: `Read the suite's results against the freeze registry (the gate's third layer): a
failure of a test frozen and unexpired is printed and counted, but does not
fail; every other failure, error or flake does. A test a runner reran
(gotestsum --rerun-fails, Surefire's flakyFailure, go test -count=N) is a
flake when its attempts disagree, never a pass. A frozen test still runs
and is reported with what it did; a freeze that no result matches is
reported NOTRUN: a frozen test must keep running.

  premise junit gate --junit report.xml
  premise junit gate --junit unit.xml --junit integration.xml --registry gate/frozen.json
  go test -json ./... > go.json; premise junit gate --junit go.json --json

One line per failing or frozen test, then the counts:

  FAIL    tests/test_csv.py::test_empty_field  AssertionError: assert ['a', 'b'] == ['a', '', 'b']
  FROZEN  tests/test_csv.py::test_crlf  failed; frozen until 2026-09-14 (owner rita): CRLF
  tests=12 failed=1 frozen=1 frozen_failed=1 not_run=0`,
		Annotations: map[string]string{exitsAnnotation: "0 no failure outside the freezes\n1 a test failed, errored or flaked\n3 a results file or the registry could not be read (a truncated or huge file is named with what is wrong)"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(opts.JUnit) == 0 {
				return failJSON(opts.Out, opts.JSON, exitCouldNotRun, errors.New("--junit FILE is required: the suite's results"))
			}
			return runJUnitGate(c.Context(), opts)
		},
	}
	opts.bind(c)
	f := c.Flags()
	f.StringArrayVar(&opts.JUnit, "junit", nil, "a results `FILE` (JUnit XML or go test -json); repeat for several")
	f.StringVar(&opts.Base, "base", "", "read .premise.yaml from the merge-base with `REV`")
	f.StringVar(&opts.Today, "today", "", "judge the freezes as of `DATE` (default: today)")
	return c
}

func runJUnitGate(ctx context.Context, opts junitGateOptions) error {
	cfg, path, err := opts.config(ctx)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	now, err := today(opts.Today, opts.Now)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	reports, err := readResults(ctx, opts.Repo, opts.JUnit)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	rep, err := freeze.Gate(freeze.GateOptions{Registry: path, Config: cfg, Reports: reports, Now: now})
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		if err := writeJSONNoEscape(opts.Out, rep); err != nil {
			return err
		}
	} else if err := printJUnitGate(opts.Out, rep); err != nil {
		return err
	}
	return verdict(rep.Exit)
}

// readResults reads every results file, relative to the repository's top
// level; pytest's module paths are resolved there too.
func readResults(ctx context.Context, repo string, files []string) ([]*junit.Report, error) {
	top := repoTopDir(ctx, repo)
	var out []*junit.Report
	for _, f := range files {
		r, err := junit.ParseFile(inRepo(top, f), junit.Options{Root: top})
		if err != nil {
			return nil, err
		}
		r.File = f
		out = append(out, r)
	}
	return out, nil
}

func printJUnitGate(w io.Writer, rep *freeze.GateReport) error {
	for _, r := range rep.Results {
		switch {
		case r.Verdict == freeze.Fail && r.Freeze != nil:
			fmt.Fprintf(w, "FAIL    %s  %s; its freeze expired %s (owner %s)\n", r.ID, orDash(r.Message), r.Freeze.Expires, orDash(r.Freeze.Owner))
		case r.Verdict == freeze.Fail:
			fmt.Fprintf(w, "FAIL    %s  %s  %s\n", r.ID, r.Outcome, orDash(r.Message))
		case r.Verdict == freeze.Frozen:
			fmt.Fprintf(w, "FROZEN  %s  %s; frozen until %s (owner %s): %s\n", r.ID, r.Outcome, r.Freeze.Expires, orDash(r.Freeze.Owner), r.Freeze.Reason)
		}
	}
	for _, e := range rep.NotRun {
		fmt.Fprintf(w, "NOTRUN  %s  frozen until %s, but no result names it: a frozen test must still run\n", e.Test, e.Expires)
	}
	_, err := fmt.Fprintf(w, "tests=%d failed=%d frozen=%d frozen_failed=%d not_run=%d\n", rep.Tests, rep.Failed, rep.FrozenRan, rep.FrozenFailed, len(rep.NotRun))
	return err
}
