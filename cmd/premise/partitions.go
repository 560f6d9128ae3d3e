package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/propose/partition"
	"github.com/premise-dev/premise/validate"
)

// partitionsOptions are the flags of premise partitions.
type partitionsOptions struct {
	Register string
	Target   string
	OutFile  string
	JSON     bool
	// Generator drafts the rows; the offline templates unless a model back
	// end is plugged in.
	Generator partition.Generator
	Out       io.Writer
}

func newPartitionsCmd(s Streams) *cobra.Command {
	opts := partitionsOptions{Generator: partition.Templates{}, Out: s.Out}
	c := &cobra.Command{
		Use:   "partitions [--register FILE] [--target SYMBOL] [--out FILE] [--json]",
		Short: "Generate partition rows for accepted assumptions",
		Long: `Generate partition-table rows (seed 004, Step 3) for the accepted assumptions
of the register, offline, from templates.

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
  premise partitions --out ci/partitions.yaml --json

Rows already in the file are kept as they are; new rows get the next free
ids; running it again adds nothing new. The file is written atomically.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runPartitions(c.Context(), opts)
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register")
	f.StringVar(&opts.Target, "target", "", "only the assumptions about this `SYMBOL`")
	f.StringVar(&opts.OutFile, "out", "partitions.yaml", "the partition table to create or extend")
	f.BoolVar(&opts.JSON, "json", false, "print JSON")
	return c
}

// partitionsReport is what premise partitions prints with --json.
type partitionsReport struct {
	Out     string         `json:"out"`
	Added   []jsonRowBrief `json:"added"`
	Kept    int            `json:"kept"`
	Todo    []string       `json:"todo"`
	Targets []jsonTarget   `json:"targets"`
}

type jsonRowBrief struct {
	ID            string   `json:"id"`
	Target        string   `json:"target"`
	Cls           string   `json:"cls"`
	Kind          string   `json:"kind"`
	AssumptionIDs []string `json:"assumption_ids"`
	Todo          string   `json:"todo,omitempty"`
}

type jsonTarget struct {
	Target    string               `json:"target"`
	Source    string               `json:"source,omitempty"` // the file the signature was read from
	Signature *partition.Signature `json:"signature,omitempty"`
	SigError  string               `json:"signature_error,omitempty"`
}

// runPartitions generates rows per target and merges them into the table.
func runPartitions(ctx context.Context, opts partitionsOptions) error {
	reg, err := validate.LoadRegister(opts.Register)
	if err != nil {
		return err
	}
	var order []string
	bySymbol := map[string][]validate.Item{}
	known := false
	for _, it := range reg.Items {
		if opts.Target != "" && it.Symbol != opts.Target {
			continue
		}
		known = true
		if it.Status != validate.StatusAccepted {
			continue
		}
		if _, ok := bySymbol[it.Symbol]; !ok {
			order = append(order, it.Symbol)
		}
		bySymbol[it.Symbol] = append(bySymbol[it.Symbol], it)
	}
	if opts.Target != "" && !known {
		return fmt.Errorf("%s holds no assumption about %s (see the symbols in the file)", opts.Register, opts.Target)
	}

	tb := &validate.Table{Version: validate.FormatVersion, Rows: []validate.Row{}}
	if _, err := os.Stat(opts.OutFile); err == nil {
		if tb, err = validate.LoadTable(opts.OutFile); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read partition table: %w", err)
	}
	kept := len(tb.Rows)

	rep := partitionsReport{Out: opts.OutFile, Added: []jsonRowBrief{}, Kept: kept, Todo: []string{}, Targets: []jsonTarget{}}
	for _, sym := range order {
		items := bySymbol[sym]
		sig, lang, src, sigErr := signatureOf(ctx, filepath.Dir(opts.Register), reg.Provenance, sym, items)
		jt := jsonTarget{Target: sym, Source: src, Signature: sig}
		if sigErr != nil {
			jt.SigError = sigErr.Error()
		}
		rep.Targets = append(rep.Targets, jt)
		if tb.Target == "" {
			tb.Target = sym
		}
		if tb.Language == "" && lang != "" && tb.Target == sym {
			tb.Language = lang
		}
		rows, err := opts.Generator.Generate(ctx, partition.Request{Target: sym, Sig: sig, Assumptions: items})
		if err != nil {
			return fmt.Errorf("generate rows for %s: %w", sym, err)
		}
		for i := range rows {
			if sym != tb.Target {
				rows[i].Target = sym
			}
		}
		for _, r := range partition.Merge(tb, rows) {
			rep.Added = append(rep.Added, jsonRowBrief{ID: r.ID, Target: tb.TargetOf(r), Cls: r.Cls, Kind: r.Kind, AssumptionIDs: r.AssumptionIDs, Todo: r.Todo})
			if r.Todo != "" {
				rep.Todo = append(rep.Todo, r.ID)
			}
		}
	}
	if len(rep.Added) > 0 || kept == 0 {
		if err := validate.SaveTable(opts.OutFile, tb); err != nil {
			return err
		}
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, rep)
	}
	if len(order) == 0 {
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
	fmt.Fprintf(opts.Out, "%s: %d rows added, %d kept", opts.OutFile, len(rep.Added), kept)
	if len(rep.Todo) > 0 {
		fmt.Fprintf(opts.Out, "; %d todo rows to fill in by hand before premise check passes", len(rep.Todo))
	}
	fmt.Fprintln(opts.Out)
	return nil
}

// headSource reads file (relative to the repository's top) at the
// provenance's head commit.
func headSource(ctx context.Context, dir string, prov *validate.Provenance, file string) ([]byte, error) {
	if prov == nil || prov.Head == "" {
		return nil, errors.New("no head commit in the register")
	}
	repo, err := git.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	return repo.Run(ctx, "show", prov.Head+":"+filepath.ToSlash(file))
}

// signatureOf reads a symbol's signature from the file its assumptions
// cite: at the head commit the register was proposed for when git has it
// (the work tree may be on another branch), else beside the register, else
// from the working directory. A nil signature with an error makes every
// row a todo.
func signatureOf(ctx context.Context, dir string, prov *validate.Provenance, symbol string, items []validate.Item) (*partition.Signature, string, string, error) {
	file := ""
	for _, it := range items {
		if it.File != "" {
			file = it.File
			break
		}
	}
	if file == "" {
		return nil, "", "", fmt.Errorf("no assumption about it names its file")
	}
	lang := ""
	switch filepath.Ext(file) {
	case ".py":
		lang = validate.LangPython
	case ".go":
		lang = validate.LangGo
	default:
		return nil, "", file, fmt.Errorf("%s is neither Go nor Python", file)
	}
	src, err := headSource(ctx, dir, prov, file)
	if err != nil {
		path := file
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, file)
		}
		src, err = os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			src, err = os.ReadFile(file)
		}
	}
	if err != nil {
		return nil, lang, file, fmt.Errorf("read %s: %w", file, err)
	}
	var sig *partition.Signature
	if lang == validate.LangGo {
		// example.com/m/pkg.Type.Method -> Type.Method
		local := symbol[strings.LastIndex(symbol, "/")+1:]
		if _, rest, ok := strings.Cut(local, "."); ok {
			local = rest
		}
		sig, err = partition.GoSignature(src, local)
	} else {
		// pkg.mod.Class.method: the longest suffix that names a function.
		sig, err = partition.PythonSignature(src, symbol)
	}
	if err != nil {
		return nil, lang, file, err
	}
	return sig, lang, file, nil
}
