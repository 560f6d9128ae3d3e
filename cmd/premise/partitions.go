package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence"
	// Every language the engine judges, registered with the seam.
	_ "github.com/premise-dev/premise/evidence/languages"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/pipeline"
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
	// Repo is the repository's top level; ModelRows, when set, asks a
	// model for rows beyond the templates, each checked on a checkout of
	// the register's merge-base made in Repo.
	Repo      string
	ModelRows evidence.RowsFunc
	Out       io.Writer
	Err       io.Writer
	mergeBase string
	baseDir   string
	notes     []string // what the stage did without, before it ran
}

func newPartitionsCmd(s Streams) *cobra.Command {
	opts := partitionsOptions{Generator: evidence.Templates{}, Out: s.Out, Err: s.Err}
	var model modelFlags
	c := &cobra.Command{
		Use:   "partitions [--register FILE] [--partitions FILE] [--target SYMBOL] [--out DIR] [--model NAME]",
		Short: "Write partition rows for the decided items of the register",
		Long: `Write partition-table rows for the decided items of the register, offline,
from templates. Each row carries the decision it keeps (decision:):

  accepted C001  its witnesses, pinning the head's outcome (expect:)
  rejected C001  its witnesses, pinning the base's outcome (expect:)
  accepted A001  inputs where the precondition still holds, on which the
                 head must do what the base did (same_as_base); when the
                 precondition or the note names an exception, inputs that
                 violate it must raise it
  rejected A001  inputs that violate the precondition, on which the head
                 must do what the base did: they fail a patch relying on it

Witness rows come first; an assumption's row on an input a decided
change's witness already pins is left to that row.

Each assumption's precondition is read for its category (sorted, unique,
non-empty, not None, non-zero, numeric string, same length, a boundary, ...)
and the target's signature for its parameters (Go types; Python annotations,
defaults and names, read from the file the assumption cites). Each class of
the category (empty, one, many, duplicate, unordered, touching, nested, None,
mixed types, inverted) is built from boundary values of those types, combined
across parameters, and kept on the side of the precondition its decision
asks for. A row no template can fill (a datetime, a parameter of unknown
type, a category that cannot tell which inputs violate it) is written with
a todo that premise check refuses: fill it in by hand.

  premise partitions                          every decided item
  premise partitions --target intervals.merge_ranges
  premise partitions --partitions ci/partitions.yaml --json

Each new row names its target, so one table holds the rows of every
function the register has accepted assumptions about, across changes.
Rows already in the file are kept as they are; new rows get the next free
ids; running it again adds nothing new. The file is written atomically.

With a model configured (--endpoint and --model, PREMISE_* variables, or
the merge-base's .premise.yaml), the model is also asked for rows of each
target, given its source and the template rows. A model row is kept only
if it is well formed, cites the target's accepted assumptions, and holds
on the register's merge-base: its contract holds there, or for
same_as_base the base runs it. Each row not kept is reported with its
reason; a model that does not answer leaves the template rows alone.

  premise partitions --endpoint http://localhost:11434/v1 --model qwen2.5-coder:7b`,
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
			opts.Repo = top
			if err := opts.modelFrom(c, &model); err != nil {
				return err
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
	model.bind(c)
	return c
}

// modelFrom sets opts.ModelRows when a model is configured. The settings
// are the register's merge-base's, as premise run reads them: the patch's
// own .premise.yaml could point the key at another endpoint. A register
// that names no merge-base asks no model, since its rows could not be
// checked on the base.
func (opts *partitionsOptions) modelFrom(c *cobra.Command, model *modelFlags) error {
	reg, err := validate.LoadRegister(opts.Register)
	if err != nil {
		return nil // runPartitions reports it
	}
	mb := ""
	if reg.Provenance != nil {
		mb = reg.Provenance.MergeBase
	}
	flagged := c.Flags().Changed("model") || c.Flags().Changed("endpoint")
	if mb == "" {
		if flagged {
			return fmt.Errorf("%s names no merge-base, so rows a model writes could not be checked on the base; draft the register with premise propose, or leave out --model", opts.Register)
		}
		if os.Getenv("PREMISE_MODEL") != "" && os.Getenv("PREMISE_MODEL") != "static" {
			// A model the environment names is not asked, and the user
			// is told so rather than left to think it was.
			opts.notes = append(opts.notes, fmt.Sprintf("no model rows: %s names no merge-base to check them on", opts.Register))
		}
		return nil
	}
	cfg, err := model.config(c, settingsFrom{repo: opts.Repo, base: mb, head: mb}, os.Getenv)
	if err != nil {
		return err
	}
	if cfg.Static() {
		return nil
	}
	pr, err := newProposer(cfg, os.Getenv, opts.Err)
	if err != nil {
		return err
	}
	opts.ModelRows = pipeline.ModelRows(pr)
	opts.mergeBase = mb
	return nil
}

// partitionsReport is what premise partitions prints with --json.
type partitionsReport struct {
	Partitions string                     `json:"partitions"`
	Added      []jsonRowBrief             `json:"added"`
	Kept       int                        `json:"kept"`
	Todo       []string                   `json:"todo"`
	Targets    []evidence.TargetSignature `json:"targets"`
	// Dropped are the model's rows not kept, each with why; Notes what
	// the stage did without (a model that did not answer).
	Dropped []evidence.DroppedRow `json:"dropped"`
	Notes   []string              `json:"notes"`
}

type jsonRowBrief struct {
	ID            string   `json:"id"`
	Target        string   `json:"target"`
	Cls           string   `json:"cls"`
	Kind          string   `json:"kind"`
	AssumptionIDs []string `json:"assumption_ids"`
	Todo          string   `json:"todo,omitempty"`
	// From says who wrote the row: template or model.
	From string `json:"from"`
}

// runPartitions runs the partitions stage and reports what it added.
func runPartitions(ctx context.Context, opts partitionsOptions) error {
	cfg := evidence.ExtendConfig{
		Register: opts.Register, Partitions: opts.OutFile, Target: opts.Target, Generator: opts.Generator,
		ModelRows: opts.ModelRows,
	}
	if opts.ModelRows != nil {
		// The base is checked out once, when the first model rows need it.
		var cleanup func()
		defer func() {
			if cleanup != nil {
				cleanup()
			}
		}()
		cfg.CheckOnBase = func(ctx context.Context, t *validate.Table) (map[string]string, error) {
			if cleanup == nil {
				dir, done, err := gate.Checkout(ctx, opts.Repo, opts.mergeBase)
				if err != nil {
					return nil, err
				}
				cleanup = done
				opts.baseDir = dir
			}
			return evidence.CheckOnBase(gate.Config{}, opts.baseDir)(ctx, t)
		}
	}
	cfg.Added = addedOnHead(ctx, opts.Repo, opts.Register)
	ext, err := evidence.Extend(ctx, cfg)
	if err != nil {
		return err
	}
	rep := partitionsReport{Partitions: opts.OutFile, Added: []jsonRowBrief{}, Kept: ext.Kept, Todo: []string{}, Targets: ext.Targets,
		Dropped: ext.Dropped, Notes: append(append([]string{}, opts.notes...), ext.Notes...)}
	fromModel := map[string]bool{}
	for _, id := range ext.FromModel {
		fromModel[id] = true
	}
	for _, r := range ext.Added {
		from := "template"
		if fromModel[r.ID] {
			from = "model"
		}
		rep.Added = append(rep.Added, jsonRowBrief{ID: r.ID, Target: ext.Table.TargetOf(r), Cls: r.Cls, Kind: r.Kind, AssumptionIDs: r.AssumptionIDs, Todo: r.Todo, From: from})
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
	decided := false
	for _, it := range ext.Register.Items {
		if (it.Status == validate.StatusAccepted || it.Status == validate.StatusRejected) && (opts.Target == "" || it.Symbol == opts.Target) {
			decided = true
		}
	}
	if !decided {
		fmt.Fprintf(opts.Out, "%s: no decided items; decide some first (premise review)\n", opts.Register)
	}
	for _, jt := range rep.Targets {
		if jt.SigError != "" {
			fmt.Fprintf(opts.Out, "%s: %s; its rows are todo\n", jt.Target, jt.SigError)
		}
	}
	for _, r := range rep.Added {
		line := fmt.Sprintf("%s  %-14s %-22s %s", r.ID, r.Kind, r.Cls, strings.Join(r.AssumptionIDs, ","))
		if r.From == "model" {
			line += "  (model)"
		}
		if r.Todo != "" {
			line += "  TODO: " + r.Todo
		}
		fmt.Fprintln(opts.Out, line)
	}
	for _, d := range rep.Dropped {
		fmt.Fprintf(opts.Out, "dropped model row %s for %s: %s\n", d.Input, d.Target, d.Reason)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(opts.Out, n)
	}
	fmt.Fprintf(opts.Out, "%s: %d rows added, %d kept", opts.OutFile, len(rep.Added), rep.Kept)
	if len(rep.Todo) > 0 {
		fmt.Fprintf(opts.Out, "; %d todo rows to fill in by hand before premise check passes", len(rep.Todo))
	}
	fmt.Fprintln(opts.Out)
}

// addedOnHead are the symbols the register's patch adds (its merge-base
// against its head, as premise run reads them): a decided row about one
// has no base to defer to. Nil when the register names no commits or the
// diff cannot be read, and the rows are written as before.
func addedOnHead(ctx context.Context, repo, register string) map[string]bool {
	reg, err := validate.LoadRegister(register)
	if err != nil || reg.Provenance == nil || reg.Provenance.MergeBase == "" || reg.Provenance.Head == "" {
		return nil
	}
	res, err := diffparse.Load(ctx, diffparse.Config{Repo: repo, Base: reg.Provenance.MergeBase, Head: reg.Provenance.Head, NoSources: true})
	if err != nil {
		return nil
	}
	return evidence.AddedSymbols(res)
}
