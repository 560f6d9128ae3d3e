package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/validate"
)

// checkOptions are the flags of premise check.
type checkOptions struct {
	Register   string
	Partitions string
	Freezes    string
	// Head is the commit being checked; "" asks git for HEAD of the
	// register's repository.
	Head string
	// Base names the change's base (default origin/HEAD, main or master),
	// so a register drafted for another change fails.
	Base string
	JSON bool
	// Format "github" also prints GitHub Actions annotations.
	Format string
	Out    io.Writer
	Err    io.Writer
}

func newCheckCmd(s Streams) *cobra.Command {
	opts := checkOptions{Out: s.Out, Err: s.Err}
	c := &cobra.Command{
		Use:   "check [--register FILE] [--partitions FILE] [--freezes FILE]",
		Short: "CI register check: reviewed, covered, no todo rows",
		Long: `The CI register check. It fails when

  - an assumption is still proposed: silence is not assent;
  - an accepted assumption appears in no boundary or invalid row: the
    register is decorative;
  - a row cites an assumption the register does not hold;
  - a frozen row (.gate/frozen_rows.json) still has replacement_row null
    after the cycle it was frozen in.

A row premise could not write (a template's todo: a value no template can
build, such as a datetime) does not make the register invalid: it is listed
as TODO with how to fill it in (the input in the table's syntax and the
check its decision asks for), and until it is filled in the decision it is
for is not checked: the check exits 4, and premise run says "not every
decision was checked" once the gate has run the other rows.

Only the change's own assumptions need a decision: one the current diff no
longer supports (stale) is listed for cleanup instead, and an accepted one
keeps its rows, which keep running as the regression suite of its
function.

Both files must load under their schemas first; every problem is listed with
its file and line, and exits 3. The report ends with the classes the rows hit
per target and the rows that cover each accepted assumption: coverage of the
table is classes, not lines.

  premise check
  premise check --register api/assumptions.yaml --partitions api/partitions.yaml
  premise check --json                  for CI annotations

Each finding reads file:line: what is wrong and what to do:

  FAIL reviewed   assumptions.yaml:14: A003 is still proposed (...); accept or reject it: premise review
  TODO no-todo    partitions.yaml:40: P007 (timezone) is a row premise could not write: ...; Fill it in: ...`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.JSON = jsonOn(c)
			inTop(repoTop(c), &opts.Register, &opts.Partitions, &opts.Freezes)
			if err := checkFormat(c, opts.Format); err != nil {
				return err
			}
			return runCheck(c.Context(), opts)
		},
	}
	exits(c, "0 the check holds",
		"1 the check failed: an assumption is still proposed or uncovered, a row cites an unknown assumption, a freeze outlived its cycle, the register belongs to another change",
		"3 premise could not do its job: bad flags, a file that does not load (every problem is listed)",
		"4 nothing else failed, but a decision is not checked: a row premise could not write is still a todo (each listed with how to fill it in)")
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register `FILE`")
	f.StringVar(&opts.Partitions, "partitions", "partitions.yaml", "the partition table `FILE`")
	f.StringVar(&opts.Freezes, "freezes", gate.DefaultFreezesPath, "the frozen rows `FILE` (a missing file is none)")
	f.StringVar(&opts.Head, "head", "", "the commit being checked, for freezes (default: git rev-parse HEAD)")
	f.StringVar(&opts.Base, "base", "", "the change's base `REV`, to check that the register was drafted for this change (default origin/HEAD, else main, else master)")
	f.StringVar(&opts.Format, "format", "", "github: also GitHub Actions annotations (::error file=...,line=...::) at each finding")
	return c
}

// jsonCheck is premise check's JSON report.
type jsonCheck struct {
	OK         bool                     `json:"ok"`
	Register   string                   `json:"register"`
	Partitions string                   `json:"partitions"`
	Freezes    string                   `json:"freezes"`
	Problems   []validate.Problem       `json:"problems,omitempty"` // files that did not load (exit 3)
	Findings   []validate.Finding       `json:"findings"`
	Targets    []validate.TargetClasses `json:"targets"`
	Coverage   []validate.Coverage      `json:"coverage"`
	Stale      []validate.StaleItem     `json:"stale"`
	Counts     map[string]int           `json:"counts"`
	Rows       int                      `json:"rows"`
}

// runCheck runs the register-check stage and reports it.
func runCheck(ctx context.Context, opts checkOptions) error {
	files := validate.CheckFiles{
		Register: opts.Register, Partitions: opts.Partitions, Freezes: opts.Freezes, Head: opts.Head,
		HeadOf: func() string { return currentHead(ctx, filepath.Dir(opts.Register)) },
	}
	files.MergeBase, files.DescendsFrom, files.ChangeUnknown = changeOf(ctx, filepath.Dir(opts.Register), opts.Base, opts.Head)
	res, err := validate.CheckPaths(files)
	var le *validate.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			fmt.Fprintf(opts.Err, "premise check: %s\n", p)
		}
		if opts.JSON {
			if err := writeIndentedJSON(opts.Out, jsonCheck{Register: opts.Register, Partitions: opts.Partitions, Freezes: opts.Freezes,
				Problems: le.Problems, Findings: []validate.Finding{}, Targets: []validate.TargetClasses{}, Coverage: []validate.Coverage{}, Stale: []validate.StaleItem{}, Counts: map[string]int{}}); err != nil {
				return err
			}
		}
		return verdict(exitCouldNotRun)
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		if err := writeIndentedJSON(opts.Out, jsonCheck{OK: res.OK(), Register: opts.Register, Partitions: opts.Partitions, Freezes: opts.Freezes,
			Findings: res.Findings, Targets: res.Targets, Coverage: res.Coverage, Stale: res.Stale, Counts: res.Counts, Rows: len(res.Table.Rows)}); err != nil {
			return err
		}
	} else {
		printCheck(opts.Out, opts, res.CheckReport, len(res.Table.Rows))
	}
	if opts.Format == formatGitHub {
		if err := validate.WriteGitHub(pick(opts.JSON, opts.Err, opts.Out), res.CheckReport); err != nil {
			return err
		}
	}
	switch {
	case len(res.Failing()) > 0:
		return verdict(exitFailed)
	case !res.OK():
		return verdict(exitNothing)
	}
	return nil
}

// changeOf identifies the change being checked in the repository holding
// dir: its merge-base, and whether a commit is its head or an ancestor of
// it. Outside a repository nothing is asked of a register; in one whose
// change cannot be found (no base), the third result says why, and a
// register that names its change does not pass.
func changeOf(ctx context.Context, dir, base, head string) (string, func(string) bool, string) {
	repo, err := git.Open(ctx, dir)
	if err != nil {
		return "", nil, ""
	}
	if head == "" {
		head = "HEAD"
	}
	if base == "" {
		if base, err = repo.DefaultBase(ctx); err != nil {
			return "", nil, oneLine(err.Error())
		}
	}
	mb, err := repo.MergeBase(ctx, base, head)
	if err != nil {
		return "", nil, oneLine(err.Error())
	}
	return mb, func(c string) bool {
		_, err := repo.Run(ctx, "merge-base", "--is-ancestor", c, head)
		return err == nil
	}, ""
}

// currentHead is HEAD of the repository holding dir, or "" outside one.
func currentHead(ctx context.Context, dir string) string {
	r, err := git.Open(ctx, dir)
	if err != nil {
		return ""
	}
	revs, err := r.RevParse(ctx, "HEAD")
	if err != nil || len(revs) == 0 {
		return ""
	}
	return revs[0]
}

func printCheck(w io.Writer, opts checkOptions, rep *validate.CheckReport, rows int) {
	var counts []string
	for _, st := range []string{validate.StatusAccepted, validate.StatusRejected, validate.StatusProposed} {
		if n := rep.Counts[st]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(counts) == 0 {
		counts = []string{"empty"}
	}
	fmt.Fprintf(w, "%s: %s; %s: %d rows\n", opts.Register, strings.Join(counts, ", "), opts.Partitions, rows)
	for _, f := range rep.Failing() {
		fmt.Fprintf(w, "FAIL %-15s %s\n", f.Check, f)
	}
	for _, f := range rep.Unfilled() {
		fmt.Fprintf(w, "TODO %-15s %s\n", f.Check, f)
	}
	if len(rep.Targets) > 0 {
		fmt.Fprintln(w, "classes hit:")
		for _, t := range rep.Targets {
			fmt.Fprintf(w, "  %s  %d rows, %d classes: %s\n", t.Target, t.Rows, len(t.Classes), strings.Join(t.Classes, " "))
		}
	}
	if len(rep.Coverage) > 0 {
		fmt.Fprintln(w, "coverage of accepted assumptions:")
		for _, c := range rep.Coverage {
			edge := "none"
			if len(c.EdgeRows) > 0 {
				edge = strings.Join(c.EdgeRows, " ")
			}
			fmt.Fprintf(w, "  %s  %d rows; boundary/invalid: %s\n", c.ID, len(c.Rows), edge)
		}
	}
	if len(rep.Stale) > 0 {
		fmt.Fprintln(w, "stale, for cleanup (the current diff no longer supports them):")
		for _, s := range rep.Stale {
			fmt.Fprintf(w, "  %s  %s %s: %s\n", s.ID, s.Status, s.Symbol, s.Advice)
		}
	}
	failing, todo := len(rep.Failing()), len(rep.Unfilled())
	switch {
	case rep.OK():
		fmt.Fprintln(w, "check holds")
	case failing > 0 && todo > 0:
		fmt.Fprintf(w, "check failed: %d finding(s); and %s premise could not write, to fill in\n", failing, plural(todo, "row"))
	case failing > 0:
		fmt.Fprintf(w, "check failed: %d finding(s)\n", failing)
	default:
		fmt.Fprintf(w, "not every decision is checked: %s premise could not write, still a todo; fill each in as its TODO line says\n", plural(todo, "row"))
	}
}
