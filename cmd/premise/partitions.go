package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/validate"
)

// partitionsOptions are the flags of premise partitions.
type partitionsOptions struct {
	Register string
	Target   string
	OutFile  string // the table
	OutDir   string // where the register and the table live; "" is the top level
	JSON     bool
	// Generator drafts the rows; the offline templates unless a model back
	// end is plugged in.
	Generator evidence.Generator
	Out       io.Writer
}

func newPartitionsCmd(s Streams) *cobra.Command {
	opts := partitionsOptions{Generator: evidence.Templates{}, Out: s.Out}
	c := &cobra.Command{
		Use:   "partitions [--register FILE] [--partitions FILE] [--target SYMBOL] [--out DIR]",
		Short: "Generate partition rows for accepted assumptions",
		Long: `Generate partition-table rows for the accepted assumptions of the register,
offline, from templates.

Each assumption's precondition is read for its category (sorted, unique,
non-empty, not None, non-zero, numeric string, same length, a boundary, ...)
and the target's signature for its parameters (Go types; Python annotations,
defaults and names, read from the file the assumption cites). Each class of
the category (empty, one, many, duplicate, unordered, touching, nested, None,
mixed types, inverted) is built from boundary values of those types, combined
across parameters. A row says same_as_base: the head must do on that input
exactly what the base revision does; an invalid row says raises when the
assumption names the exception. A row no template can fill (a datetime, a
parameter of unknown type) is written with a todo that premise check refuses:
fill it in by hand.

  premise partitions                          every accepted assumption
  premise partitions --target intervals.merge_ranges
  premise partitions --partitions ci/partitions.yaml --json

Each new row names its target, so one table holds the rows of every
function the register has accepted assumptions about, across changes.
Rows already in the file are kept as they are; new rows get the next free
ids; running it again adds nothing new. The file is written atomically.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.JSON = jsonOn(c)
			if err := outDir(opts.OutDir, "name a file with --partitions FILE"); err != nil {
				return err
			}
			top := repoTop(c)
			inTop(top, &opts.Register, &opts.OutFile)
			if opts.Register == "" {
				opts.Register = inDir(top, opts.OutDir, "assumptions.yaml")
			}
			if opts.OutFile == "" {
				opts.OutFile = inDir(top, opts.OutDir, "partitions.yaml")
			}
			return runPartitions(c.Context(), opts)
		},
	}
	exits(c, "0 the table was written or already held every row", "3 premise could not do its job: bad flags, an invalid register or table, assumptions of two languages")
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "", "the assumption register `FILE` (default assumptions.yaml in --out)")
	f.StringVar(&opts.Target, "target", "", "only the assumptions about this `SYMBOL`")
	f.StringVar(&opts.OutFile, "partitions", "", "the partition table `FILE` to create or extend (default partitions.yaml in --out)")
	f.StringVar(&opts.OutDir, "out", "", "the `DIR` the register and the table live in (default the repository's top level)")
	return c
}

// partitionsReport is what premise partitions prints with --json.
type partitionsReport struct {
	Partitions string                     `json:"partitions"`
	Added      []jsonRowBrief             `json:"added"`
	Kept       int                        `json:"kept"`
	Todo       []string                   `json:"todo"`
	Targets    []evidence.TargetSignature `json:"targets"`
}

type jsonRowBrief struct {
	ID            string   `json:"id"`
	Target        string   `json:"target"`
	Cls           string   `json:"cls"`
	Kind          string   `json:"kind"`
	AssumptionIDs []string `json:"assumption_ids"`
	Todo          string   `json:"todo,omitempty"`
}

// runPartitions runs the partitions stage and reports what it added.
func runPartitions(ctx context.Context, opts partitionsOptions) error {
	ext, err := evidence.Extend(ctx, evidence.ExtendConfig{
		Register: opts.Register, Partitions: opts.OutFile, Target: opts.Target, Generator: opts.Generator,
	})
	if err != nil {
		return err
	}
	rep := partitionsReport{Partitions: opts.OutFile, Added: []jsonRowBrief{}, Kept: ext.Kept, Todo: []string{}, Targets: ext.Targets}
	for _, r := range ext.Added {
		rep.Added = append(rep.Added, jsonRowBrief{ID: r.ID, Target: ext.Table.TargetOf(r), Cls: r.Cls, Kind: r.Kind, AssumptionIDs: r.AssumptionIDs, Todo: r.Todo})
		if r.Todo != "" {
			rep.Todo = append(rep.Todo, r.ID)
		}
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, rep)
	}
	writePartitions(opts, ext, rep)
	return nil
}

func writePartitions(opts partitionsOptions, ext *evidence.ExtendResult, rep partitionsReport) {
	accepted := false
	for _, it := range ext.Register.Items {
		if it.Status == validate.StatusAccepted && (opts.Target == "" || it.Symbol == opts.Target) {
			accepted = true
		}
	}
	if !accepted {
		fmt.Fprintf(opts.Out, "%s: no accepted assumptions; accept some first (premise review)\n", opts.Register)
	}
	for _, jt := range rep.Targets {
		if jt.SigError != "" {
			fmt.Fprintf(opts.Out, "%s: %s; its rows are todo\n", jt.Target, jt.SigError)
		}
	}
	for _, r := range rep.Added {
		line := fmt.Sprintf("%s  %-14s %-22s %s", r.ID, r.Kind, r.Cls, strings.Join(r.AssumptionIDs, ","))
		if r.Todo != "" {
			line += "  TODO: " + r.Todo
		}
		fmt.Fprintln(opts.Out, line)
	}
	fmt.Fprintf(opts.Out, "%s: %d rows added, %d kept", opts.OutFile, len(rep.Added), rep.Kept)
	if len(rep.Todo) > 0 {
		fmt.Fprintf(opts.Out, "; %d todo rows to fill in by hand before premise check passes", len(rep.Todo))
	}
	fmt.Fprintln(opts.Out)
}
