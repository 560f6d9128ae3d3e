package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/internal/markdown"
	"github.com/premise-dev/premise/propose"
	"github.com/premise-dev/premise/validate"
)

// proposeOptions are the flags of premise propose.
type proposeOptions struct {
	Repo, Base, Head string
	Patch            string
	Register         string // the register; "" is OUT/assumptions.yaml
	OutDir           string // where the register lives; "" is the top level
	Format           string // what stdout gets: "" (a summary), yaml, markdown, json
	JSON             bool

	Model propose.Config // after .premise.yaml, the environment and the flags

	Getenv func(string) string
	In     io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

func newProposeCmd(s Streams) *cobra.Command {
	opts := proposeOptions{Getenv: os.Getenv, In: s.In, Stdout: s.Out, Stderr: s.Err}
	var model modelFlags
	c := &cobra.Command{
		Use:   "propose [--base REV] [--head REV] [--model NAME|static] [--register FILE] [--format yaml|markdown|json]",
		Short: "Draft the assumption register (assumptions.yaml) from the diff",
		Long: `Draft the assumption register (assumptions.yaml) from the diff.

premise reads git diff BASE...HEAD, asks a proposer for the preconditions the
new code appears to assume, and keeps only the rows that name a changed
symbol of this diff and quote the diff verbatim. Every other row is dropped
and reported with its reason (unknown_symbol, evidence_not_in_diff,
empty_precondition, duplicate, malformed). New rows get the next free id
(A001, A002, ...) and status proposed, whatever the proposer wrote; a row
already in the register keeps its id, status and note, and a row the diff no
longer supports is marked stale, never deleted.

  premise propose                       static rules, no network; writes assumptions.yaml
  premise propose --format markdown     also print the table a reviewer pastes into the PR
  premise propose --endpoint http://localhost:11434/v1 --model qwen2.5-coder
                                        ask a local model (Ollama) instead
  OPENAI_API_KEY=... premise propose --endpoint https://api.openai.com/v1 --model gpt-4o-mini
  premise propose --json                the rows kept and dropped, findings and usage, as JSON

Proposers: the static rules (--model static, the default when no endpoint is
set) read the changed functions' syntax trees, Go and Python. A model behind
any OpenAI-compatible endpoint gets each changed symbol's whole source and its
hunks, split by symbol under --token-budget, at temperature 0 with a fixed
seed; rows it cites wrongly get one repair round (--no-repair to skip).
Replies are cached under the user cache dir (--cache-dir, --no-cache), so a
second run on the same diff sends no request.

Settings come from flags, then the environment (PREMISE_ENDPOINT,
PREMISE_MODEL, PREMISE_API_KEY_ENV, PREMISE_CACHE_DIR, PREMISE_TIMEOUT (the
model timeout),
PREMISE_MAX_ATTEMPTS, PREMISE_CONCURRENCY, PREMISE_TOKEN_BUDGET), then
top-level keys of .premise.yaml (endpoint, model, api_key_env, timeout,
max_attempts, concurrency, cache_dir, no_cache, no_repair, token_budget,
max_output_tokens, seed). The key itself is read from the variable that
--api-key-env names and is never written anywhere.

Added lines holding bidirectional-control or invisible characters (Trojan
Source) are reported as findings. An endpoint that cannot be reached, keeps
failing, or answers with something that is not JSON after one repair leaves
the existing register untouched and exits 3.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON = repoTop(c), jsonOn(c)
			if err := outDir(opts.OutDir, "name a file with --register FILE"); err != nil {
				return err
			}
			inTop(opts.Repo, &opts.Patch, &opts.Register)
			if opts.Register == "" {
				opts.Register = inDir(opts.Repo, opts.OutDir, "assumptions.yaml")
			}
			switch opts.Format {
			case "", "yaml", "markdown", "json":
			default:
				return fmt.Errorf("--format %q: want yaml, markdown or json", opts.Format)
			}
			cfg, err := model.config(c, settingsFrom{repo: opts.Repo, base: opts.Base, head: opts.Head, patch: opts.Patch != ""}, opts.Getenv)
			if err != nil {
				return err
			}
			opts.Model = cfg
			return runPropose(c.Context(), opts)
		},
	}
	exits(c, "0 the register was written", "3 premise could not do its job: bad flags, an invalid register (left untouched), a model endpoint unreachable after retries", "130 interrupted by a signal: the register is left as it was")
	f := c.Flags()
	f.StringVar(&opts.Base, "base", "", "the base revision (default origin/HEAD, else main, else master)")
	f.StringVar(&opts.Head, "head", "HEAD", "the head revision")
	f.StringVar(&opts.Patch, "patch", "", "read a unified diff from `FILE` (- for stdin) instead of running git diff")
	f.StringVar(&opts.Register, "register", "", "the register `FILE` to write or merge into (default assumptions.yaml in --out)")
	f.StringVar(&opts.OutDir, "out", "", "the `DIR` the register lives in (default the repository's top level)")
	f.StringVar(&opts.Format, "format", "", "also print the register to stdout as `FORMAT`: yaml, markdown (a PR table) or json")
	model.bind(c)
	return c
}

// proposeReport is the --json shape of a propose run (a wire type: stable
// while the code changes).
type proposeReport struct {
	Register string              `json:"register"`
	Model    string              `json:"model"`
	Prompt   string              `json:"prompt"`
	Kept     []validate.Item     `json:"kept"`
	Dropped  []validate.Dropped  `json:"dropped"`
	Findings []propose.Finding   `json:"findings"`
	Usage    propose.Usage       `json:"usage"`
	Merge    validate.MergeStats `json:"merge"`
	Items    []validate.Item     `json:"items"`
}

// runPropose reads the diff, runs the propose stage and reports.
func runPropose(ctx context.Context, opts proposeOptions) error {
	out := opts.Register
	// A broken register stops the run before any request is spent, and is
	// never overwritten.
	if _, err := propose.ReadRegister(out); err != nil {
		return err
	}
	res, err := loadDiff(ctx, opts)
	if err != nil {
		return err
	}
	p, err := newProposer(opts.Model, opts.Getenv, opts.Stderr)
	if err != nil {
		return err
	}
	up, err := propose.Update(ctx, propose.UpdateConfig{Register: out, Diff: res, Proposer: p,
		PatchRef: propose.PatchRef(ctx, opts.Repo, opts.Base, opts.Head, opts.Patch)})
	if err != nil {
		return err
	}
	reportDropped(opts.Stderr, up.Draft)
	return writeProposeOutput(opts, out, up)
}

// loadDiff reads the diff premise propose is asked about: git diff, or a
// unified diff from a file or stdin.
func loadDiff(ctx context.Context, opts proposeOptions) (*diffparse.Result, error) {
	dcfg := diffparse.Config{Repo: opts.Repo, Base: opts.Base, Head: opts.Head}
	switch opts.Patch {
	case "":
	case "-":
		dcfg.Patch, dcfg.PatchName = opts.In, "<stdin>"
	default:
		pf, err := os.Open(opts.Patch)
		if err != nil {
			return nil, fmt.Errorf("read patch: %w", err)
		}
		defer pf.Close()
		dcfg.Patch, dcfg.PatchName = pf, opts.Patch
	}
	return diffparse.Load(ctx, dcfg)
}

// reportDropped says on stderr which rows the filter dropped and why, and
// the findings.
func reportDropped(w io.Writer, draft *propose.Result) {
	for _, d := range draft.Dropped {
		fmt.Fprintf(w, "premise: dropped %s row (%s) for %q: %s\n", d.Reason, orUnknown(d.Source), d.Symbol, d.Detail)
	}
	for _, f := range draft.Findings {
		where := f.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if where != "" {
			where += ": "
		}
		fmt.Fprintf(w, "premise: finding %s: %s%s\n", f.Rule, where, f.Message)
	}
}

// writeProposeOutput prints the summary line and what --json or --format
// asked for.
func writeProposeOutput(opts proposeOptions, out string, up *propose.UpdateResult) error {
	draft, reg, prov := up.Draft, up.Register, up.Provenance
	summary := summaryLine(shown(out), up.Proposer, draft, up.Merge)
	if opts.JSON {
		rep := proposeReport{Register: out, Model: prov.Model, Prompt: prov.Prompt + "@" + prov.PromptSHA256,
			Kept: draft.Kept, Dropped: draft.Dropped, Findings: draft.Findings, Usage: draft.Usage, Merge: up.Merge, Items: reg.Items}
		fmt.Fprintln(opts.Stderr, summary)
		return writeJSONNoEscape(opts.Stdout, rep)
	}
	if opts.Format == "" {
		_, err := fmt.Fprintln(opts.Stdout, summary)
		return err
	}
	fmt.Fprintln(opts.Stderr, summary)
	switch opts.Format {
	case "yaml":
		data, err := reg.Marshal()
		if err != nil {
			return err
		}
		_, err = opts.Stdout.Write(data)
		return err
	case "json":
		return writeJSONNoEscape(opts.Stdout, reg)
	default: // markdown
		_, err := io.WriteString(opts.Stdout, registerMarkdown(reg))
		return err
	}
}

func writeJSONNoEscape(w io.Writer, v any) error {
	return writeIndentedJSON(w, v)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown source"
	}
	return s
}

// summaryLine is the one-line account of a run: what was written, what was
// kept and dropped, and what a model run cost.
func summaryLine(out, model string, d *propose.Result, st validate.MergeStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrote %s: %d new, %d kept, %d stale (proposer %s: %d rows kept, %d dropped",
		out, st.Added, st.Kept+st.Revived, st.Stale, model, len(d.Kept), len(d.Dropped))
	if len(d.Dropped) > 0 {
		by := map[string]int{}
		for _, x := range d.Dropped {
			by[x.Reason]++
		}
		var keys []string
		for k := range by {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, by[k]))
		}
		fmt.Fprintf(&b, ": %s", strings.Join(parts, ", "))
	}
	b.WriteString(")")
	u := d.Usage
	if u.Requests+u.CacheHits > 0 {
		fmt.Fprintf(&b, "; %d requests, %d cache hits, %d prompt + %d completion tokens, %d chunks", u.Requests, u.CacheHits, u.PromptTokens, u.CompletionTokens, u.Chunks)
		if u.RepairRounds > 0 {
			fmt.Fprintf(&b, ", %d repair rounds repaired %d rows", u.RepairRounds, u.Repaired)
		}
		if len(u.Truncated) > 0 {
			fmt.Fprintf(&b, ", truncated to fit: %s", strings.Join(u.Truncated, ", "))
		}
		if len(u.Fallbacks) > 0 {
			fmt.Fprintf(&b, ", response format %s", strings.Join(u.Fallbacks, ", "))
		}
	}
	if len(d.Findings) > 0 {
		fmt.Fprintf(&b, "; %d findings", len(d.Findings))
	}
	return b.String()
}

// registerMarkdown is the draft a reviewer pastes into the PR: one table row
// per assumption with its file:line.
func registerMarkdown(r *validate.Register) string {
	var b strings.Builder
	b.WriteString("### Assumptions this patch appears to rely on\n\n")
	if p := r.Provenance; p != nil {
		fmt.Fprintf(&b, "Drafted by premise from `%s` (%s", r.PatchRef, p.Model)
		if p.Head != "" {
			fmt.Fprintf(&b, ", head %.12s", p.Head)
		}
		b.WriteString("). Accept or reject each row; unreviewed rows fail the gate.\n\n")
	}
	if len(r.Items) == 0 {
		b.WriteString("No assumptions proposed.\n")
		return b.String()
	}
	b.WriteString("| ID | Status | Symbol | Precondition | Evidence | Where |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, it := range r.Items {
		status := it.Status
		if it.Stale {
			status += " (stale)"
		}
		where := it.File
		if it.Line > 0 {
			where = fmt.Sprintf("%s:%d", it.File, it.Line)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", it.ID, status, markdown.Code(it.Symbol), markdown.Cell(it.Precondition), markdown.Code(it.Evidence), markdown.Cell(where))
	}
	return b.String()
}
