package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate/freeze"
)

// freezeOptions are the flags shared by premise freeze's verbs.
type freezeOptions struct {
	Repo          string
	Registry      string
	Base          string
	Today         string
	ExpiredAction string
	JSON          bool
	Entry         freeze.Entry
	Out           io.Writer
	Now           func() time.Time
}

func newFreezeCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "freeze add|list|check",
		Short: "The registry of frozen tests of your own suite, each with a reason and an expiry",
		Long: `Keep the registry of frozen tests (the gate's third layer): a test that flakes is
taken out of the signal with a recorded reason, its flake count and an
expiry date, until it is fixed or the date passes. The registry is
gate/frozen.json:

  {"frozen": [{"test": "tests/test_csv.py::test_fixture_crlf",
               "reason": "CI converts CRLF to LF in the fixture",
               "owner": "rita", "flakes": 4, "runs": 60, "expires": "2026-09-14"}]}

A frozen test still runs: premise junit gate reads the suite's results,
prints and counts a frozen test's failure, and fails only on the others.
This registry is apart from the partition rows' .gate/frozen_rows.json
(premise gate freeze).

Settings (.premise.yaml):

  freeze:
    registry: gate/frozen.json
    max_entries: 20      # the cap: an add past it is refused (exit 2)
    warn_days: 7         # warn this many days before an expiry
    max_days: 90         # no expiry further ahead
    expired_action: fail # or warn

  premise freeze add tests/test_csv.py::test_crlf --reason "CRLF" --expires 2026-09-14 --owner rita
  premise freeze list
  premise freeze check --registry gate/frozen.json --expired-action=fail`,
	}
	c.AddCommand(newFreezeAddCmd(s), newFreezeListCmd(s), newFreezeCheckCmd(s))
	return c
}

func (o *freezeOptions) bind(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.Registry, "registry", "", "the registry `FILE` (default: freeze.registry, else "+freeze.DefaultRegistry+")")
	sharedFlags(c, &o.Repo, &o.JSON)
}

// config reads the freeze: settings and resolves the registry's path.
func (o freezeOptions) config(ctx context.Context) (freeze.Config, string, error) {
	top := repoTopDir(ctx, o.Repo)
	cfg, err := freeze.LoadConfig(ctx, top, o.Base)
	if err != nil {
		return cfg, "", err
	}
	if o.Registry != "" {
		cfg.Registry = o.Registry
	}
	if o.ExpiredAction != "" {
		cfg.ExpiredAction = o.ExpiredAction
	}
	return cfg, inRepo(top, cfg.Registry), nil
}

func newFreezeAddCmd(s Streams) *cobra.Command {
	opts := freezeOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "add TEST --reason TEXT --expires DATE [--owner NAME] [--flakes N --runs M]",
		Short: "Freeze a test until a date, with the reason and the evidence",
		Long: `Add a test to the freeze registry. TEST is a node id as the results name it
(tests/x.py::test_y, tests/x.py::test_y[param], example.com/m/pkg::TestA/sub;
premise junit gate --json lists them) or a bare test name, which freezes
every test of that name. Without a [param], every parameter is frozen.

No entry without a reason and an expiry; the expiry may not be past, nor
further ahead than freeze.max_days (90). An entry for a test already
frozen is refused: edit the file to change a reviewer's entry. The
registry is written under a lock and atomically.

  premise freeze add tests/test_csv.py::test_crlf --reason "CI converts CRLF" --expires 2026-09-14
  premise freeze add TestClock --reason "wall clock" --expires 2026-10-01 --owner rita --flakes 4 --runs 60`,
		Annotations: map[string]string{exitsAnnotation: "0 added\n2 the registry is at its cap (freeze.max_entries)\n3 bad input: no reason, a bad or past date, already frozen, an unreadable registry"},
		Args:        cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Entry.Test = args[0]
			fl := c.Flags()
			if fl.Changed("flakes") != fl.Changed("runs") {
				return failJSON(opts.Out, opts.JSON, exitCouldNotRun, errors.New("--flakes and --runs go together: N flakes in M runs"))
			}
			return runFreezeAdd(c.Context(), opts)
		},
	}
	opts.bind(c)
	f := c.Flags()
	f.StringVar(&opts.Entry.Reason, "reason", "", "why the test is frozen (required)")
	f.StringVar(&opts.Entry.Expires, "expires", "", "the last `DATE` the freeze holds, YYYY-MM-DD (required)")
	f.StringVar(&opts.Entry.Owner, "owner", "", "who fixes the test")
	f.IntVar(&opts.Entry.Flakes, "flakes", 0, "`N` flaky runs seen")
	f.IntVar(&opts.Entry.Runs, "runs", 0, "of `M` runs")
	f.StringVar(&opts.Today, "today", "", "add as of `DATE` (default: today)")
	return c
}

func runFreezeAdd(ctx context.Context, opts freezeOptions) error {
	cfg, path, err := opts.config(ctx)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	now, err := today(opts.Today, opts.Now)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	e, err := freeze.Add(ctx, freeze.AddOptions{Path: path, Config: cfg, Entry: opts.Entry, Now: now})
	var ce *freeze.CapError
	if errors.As(err, &ce) {
		return failJSON(opts.Out, opts.JSON, exitBlocked, err)
	}
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if opts.JSON {
		return writeJSONNoEscape(opts.Out, e)
	}
	_, err = fmt.Fprintf(opts.Out, "froze %s until %s in %s: %s\n", e.Test, e.Expires, path, e.Reason)
	return err
}

func newFreezeListCmd(s Streams) *cobra.Command {
	opts := freezeOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "list [--registry FILE] [--json]",
		Short: "List the frozen tests and where each stands",
		Long: `List every entry of the freeze registry with its standing today: frozen,
expiring (inside freeze.warn_days), or expired.

  premise freeze list
  premise freeze list --json        {"registry", "entries": [{"test", "status", "days_left", ...}]}`,
		Annotations: map[string]string{exitsAnnotation: "0 listed, whatever the entries' standing (premise freeze check judges)\n3 the registry or the settings could not be read"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runFreezeCheck(c.Context(), opts, true)
		},
	}
	opts.bind(c)
	c.Flags().StringVar(&opts.Today, "today", "", "list as of `DATE` (default: today)")
	return c
}

func newFreezeCheckCmd(s Streams) *cobra.Command {
	opts := freezeOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "check [--registry FILE] [--expired-action fail|warn] [--base REV]",
		Short: "CI: fail when a freeze has expired, warn before",
		Long: `Check the freeze registry. A freeze holds through
its expiry date; inside freeze.warn_days before it the check warns; from
the day after, it fails naming the test and its owner, until the test is
fixed and its entry removed, or a reviewer sets a new date. A registry
with more entries than freeze.max_entries blocks.

With --base, the settings (cap, window, action) are read from the
merge-base, so a patch cannot loosen them for itself; the registry is a
protected path (premise guard).

  premise freeze check
  premise freeze check --registry gate/frozen.json --expired-action=fail
  premise freeze check --today 2026-09-08     what will warn next week?

The report has one line per entry:

  EXPIRED  tests/test_csv.py::test_crlf  expired 2026-09-14, owner rita: CRLF ...
  WARN     TestClock  expires 2026-09-20 (6 days left), owner -: wall clock`,
		Annotations: map[string]string{exitsAnnotation: "0 the registry holds (warnings only)\n1 a freeze expired and the action is fail\n2 the registry is over its cap\n3 an unreadable or invalid registry or settings"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if a := opts.ExpiredAction; a != "" && a != "fail" && a != "warn" {
				return failJSON(opts.Out, opts.JSON, exitCouldNotRun, fmt.Errorf("--expired-action %q: want fail or warn", a))
			}
			return runFreezeCheck(c.Context(), opts, false)
		},
	}
	opts.bind(c)
	f := c.Flags()
	f.StringVar(&opts.ExpiredAction, "expired-action", "", "fail or warn on an expired freeze (default: freeze.expired_action, else fail)")
	f.StringVar(&opts.Base, "base", "", "read .premise.yaml from the merge-base with `REV`")
	f.StringVar(&opts.Today, "today", "", "check as of `DATE` (default: today)")
	return c
}

// runFreezeCheck checks the registry; list is the same report without a
// verdict.
func runFreezeCheck(ctx context.Context, opts freezeOptions, list bool) error {
	cfg, path, err := opts.config(ctx)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	now, err := today(opts.Today, opts.Now)
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	rep, err := freeze.Check(freeze.CheckOptions{Path: path, Config: cfg, Now: now})
	if err != nil {
		return failJSON(opts.Out, opts.JSON, exitCouldNotRun, err)
	}
	if list {
		rep.Exit = 0
	}
	if opts.JSON {
		if err := writeJSONNoEscape(opts.Out, rep); err != nil {
			return err
		}
	} else if err := printFreezeCheck(opts.Out, rep, list); err != nil {
		return err
	}
	return verdict(rep.Exit)
}

func printFreezeCheck(w io.Writer, rep *freeze.CheckReport, list bool) error {
	for _, e := range rep.Entries {
		var err error
		switch e.Status {
		case freeze.Expired:
			_, err = fmt.Fprintf(w, "EXPIRED  %s  expired %s, owner %s: %s\n", e.Test, e.Expires, orDash(e.Owner), e.Reason)
		case freeze.Expiring:
			_, err = fmt.Fprintf(w, "WARN     %s  expires %s (%d days left), owner %s: %s\n", e.Test, e.Expires, e.DaysLeft, orDash(e.Owner), e.Reason)
		default:
			if list {
				_, err = fmt.Fprintf(w, "FROZEN   %s  until %s (%d days left), owner %s: %s\n", e.Test, e.Expires, e.DaysLeft, orDash(e.Owner), e.Reason)
			}
		}
		if err != nil {
			return err
		}
	}
	if rep.OverCap {
		fmt.Fprintf(w, "OVERCAP  %s holds %d frozen tests, more than the cap of %d (freeze.max_entries)\n", rep.Registry, len(rep.Entries), rep.Max)
	}
	_, err := fmt.Fprintf(w, "frozen=%d expiring=%d expired=%d cap=%d expired_action=%s\n", len(rep.Entries), rep.Expiring, rep.Expired, rep.Max, rep.Action)
	return err
}
