package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"

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
	JSON bool
	Out  io.Writer
	Err  io.Writer
}

func newCheckCmd(s Streams) *cobra.Command {
	opts := checkOptions{Out: s.Out, Err: s.Err}
	c := &cobra.Command{
		Use:   "check [--register FILE] [--partitions FILE] [--freezes FILE] [--json]",
		Short: "CI register check: reviewed, covered, no todo rows",
		Long: `The CI register check (seed 004, Steps 2-4 and 6). It fails when

  - an assumption is still proposed: silence is not assent;
  - an accepted assumption appears in no boundary or invalid row: the
    register is decorative;
  - a row cites an assumption the register does not hold;
  - a row is still a template's todo;
  - a frozen row (.gate/frozen_rows.json) still has replacement_row null
    after the cycle it was frozen in.

Both files must load under their schemas first; every problem is listed with
its file and line, and exits 3. The report ends with the classes the rows hit
per target and the rows that cover each accepted assumption: coverage of the
table is classes, not lines.

  premise check
  premise check --register api/assumptions.yaml --partitions api/partitions.yaml
  premise check --json                  for CI annotations

Each finding reads file:line: what is wrong and what to do:

  FAIL reviewed   assumptions.yaml:14: A003 is still proposed (...); accept or reject it: premise review`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runCheck(c.Context(), opts)
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register")
	f.StringVar(&opts.Partitions, "partitions", "partitions.yaml", "the partition table")
	f.StringVar(&opts.Freezes, "freezes", gate.DefaultFreezesPath, "the frozen rows (a missing file is none)")
	f.StringVar(&opts.Head, "head", "", "the commit being checked, for freezes (default: git rev-parse HEAD)")
	f.BoolVar(&opts.JSON, "json", false, "print JSON")
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
	Counts     map[string]int           `json:"counts"`
	Rows       int                      `json:"rows"`
}

// runCheck loads both files (at the same time: they are independent) and
// runs validate.Check.
func runCheck(ctx context.Context, opts checkOptions) error {
	var (
		reg        *validate.Register
		tb         *validate.Table
		rErr, tErr error
		wg         sync.WaitGroup
	)
	wg.Add(2)
	go func() { defer wg.Done(); reg, rErr = validate.LoadRegister(opts.Register) }()
	go func() { defer wg.Done(); tb, tErr = validate.LoadTable(opts.Partitions) }()
	wg.Wait()
	freezes, fErr := gate.LoadFreezes(opts.Freezes)
	if errors.Is(tErr, fs.ErrNotExist) && rErr == nil && !anyAccepted(reg) {
		// Nothing accepted, nothing to partition: a format-only patch
		// needs no table (seed 004: "skip the ritual").
		tb, tErr = &validate.Table{Version: validate.FormatVersion, Rows: []validate.Row{}}, nil
	}

	var problems []validate.Problem
	for _, err := range []error{rErr, tErr, fErr} {
		if err == nil {
			continue
		}
		var le *validate.LoadError
		if errors.As(err, &le) {
			problems = append(problems, le.Problems...)
		} else {
			problems = append(problems, validate.Problem{Msg: oneLine(err.Error())})
		}
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(opts.Err, "premise check: %s\n", p)
		}
		if opts.JSON {
			if err := writeIndentedJSON(opts.Out, jsonCheck{Register: opts.Register, Partitions: opts.Partitions, Freezes: opts.Freezes,
				Problems: problems, Findings: []validate.Finding{}, Targets: []validate.TargetClasses{}, Coverage: []validate.Coverage{}, Counts: map[string]int{}}); err != nil {
				return err
			}
		}
		return verdict(exitCouldNotRun)
	}

	head := opts.Head
	if head == "" && len(freezes) > 0 {
		head = currentHead(ctx, filepath.Dir(opts.Register))
	}
	in := &validate.CheckInput{Register: reg, RegisterFile: opts.Register, Table: tb, TableFile: opts.Partitions,
		FrozenFile: opts.Freezes, CurrentHead: head}
	hashes := make([]string, 0, len(freezes))
	for h := range freezes {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	for _, h := range hashes {
		f := freezes[h]
		in.Frozen = append(in.Frozen, validate.FrozenRow{Hash: h, RowID: f.RowID, Reason: f.Reason, Replacement: f.ReplacementRow, FrozenCommit: f.FrozenCommit})
	}
	rep := validate.Check(in)

	if opts.JSON {
		if err := writeIndentedJSON(opts.Out, jsonCheck{OK: rep.OK(), Register: opts.Register, Partitions: opts.Partitions, Freezes: opts.Freezes,
			Findings: rep.Findings, Targets: rep.Targets, Coverage: rep.Coverage, Counts: rep.Counts, Rows: len(tb.Rows)}); err != nil {
			return err
		}
	} else {
		printCheck(opts.Out, opts, rep, len(tb.Rows))
	}
	if !rep.OK() {
		return verdict(exitFailed)
	}
	return nil
}

func anyAccepted(r *validate.Register) bool {
	for _, it := range r.Items {
		if it.Status == validate.StatusAccepted {
			return true
		}
	}
	return false
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
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "FAIL %-15s %s\n", f.Check, f)
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
	if rep.OK() {
		fmt.Fprintln(w, "check holds")
	} else {
		fmt.Fprintf(w, "check failed: %d finding(s)\n", len(rep.Findings))
	}
}
