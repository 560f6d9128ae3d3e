package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// assumeOptions are the flags of premise assume.
type assumeOptions struct {
	Repo         string
	Register     string
	Head         string
	Symbol       string
	Precondition string
	Evidence     string
	Note         string
	Force        bool
	JSON         bool
	Out          io.Writer
}

func newAssumeCmd(s Streams) *cobra.Command {
	opts := assumeOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "assume SYMBOL --precondition TEXT [--evidence TEXT] [--note TEXT]",
		Short: "Add an assumption you reviewed by hand to the register",
		Long: `Add an assumption to the register that no proposer drafted: one you found
reviewing the patch, or one premise run asks for when the evidence shows a
behaviour change no assumption names.

  premise assume intervals.merge_ranges --precondition "ranges are closed intervals"
  premise assume example.com/m/pkg.Parse --precondition "input is UTF-8" \
    --evidence "for _, r := range s {" --note "callers read files as UTF-8"

SYMBOL is named as premise diff names symbols: a Python module path and
name (intervals.merge_ranges, pkg.mod.Class.method) or a Go import path and
name (example.com/m/pkg.Func, example.com/m/pkg.Type.Method). premise looks
for its declaration in the repository at --head (HEAD) and refuses a symbol
no source file premise reads declares, naming the nearest it found; --force adds it
anyway (a symbol premise cannot parse, say).

The assumption is accepted (you reviewed it) with source "hand", cites the
file and line of the declaration, and keeps --evidence, by default the
declaration's line. premise partitions then builds its rows; later
changes never mark it stale. The register is written atomically under its
lock, as accept and reject write it; an assumption it already holds is
refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Symbol, opts.JSON, opts.Repo = args[0], jsonOn(c), repoTop(c)
			if strings.TrimSpace(opts.Precondition) == "" {
				return fmt.Errorf("%s: --precondition is required: say what the code assumes of %s", c.CommandPath(), opts.Symbol)
			}
			inTop(opts.Repo, &opts.Register)
			return runAssume(c.Context(), opts)
		},
	}
	exits(c, "0 the assumption was added", "3 premise could not do its job: bad flags, no such symbol, an invalid register, an assumption it already holds")
	f := c.Flags()
	f.StringVar(&opts.Precondition, "precondition", "", "what the code assumes of its input, in words (required)")
	f.StringVar(&opts.Evidence, "evidence", "", "the code that shows it (default: the symbol's declaration line)")
	f.StringVar(&opts.Note, "note", "", "why, kept in the register")
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register `FILE`")
	f.StringVar(&opts.Head, "head", "", "the `REV` whose files declare the symbol (default HEAD)")
	f.BoolVar(&opts.Force, "force", false, "add it even when no source file premise reads declares the symbol")
	return c
}

// runAssume checks the symbol against the repository and adds the item.
func runAssume(ctx context.Context, opts assumeOptions) error {
	it := validate.Item{Symbol: opts.Symbol, Precondition: opts.Precondition, Evidence: opts.Evidence, Note: opts.Note}
	found, err := diffparse.FindSymbol(ctx, opts.Repo, opts.Head, opts.Symbol)
	switch {
	case err == nil:
		it.File, it.Line = found.File, found.Line
		if strings.TrimSpace(it.Evidence) == "" {
			it.Evidence = found.Text
		}
	case errors.Is(err, diffparse.ErrNoSymbol) && !opts.Force:
		return fmt.Errorf("%w (--force adds it anyway)", err)
	case !opts.Force:
		return fmt.Errorf("cannot look for %s: %w (--force adds it without looking)", opts.Symbol, err)
	case strings.TrimSpace(it.Evidence) == "":
		return fmt.Errorf("--force: premise did not find %s, so give --evidence TEXT", opts.Symbol)
	}
	it, err = validate.Assume(ctx, opts.Register, it)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, struct {
			Register string        `json:"register"`
			Item     validate.Item `json:"item"`
		}{opts.Register, it})
	}
	where := ""
	if it.File != "" {
		where = fmt.Sprintf(" (%s:%d)", it.File, it.Line)
	}
	_, err = fmt.Fprintf(opts.Out, "%s accepted: %s%s: %s\n", it.ID, it.Symbol, where, it.Precondition)
	return err
}
