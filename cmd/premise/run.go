package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/gate/reject"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/pipeline"
	"github.com/premise-dev/premise/propose"
)

// runOptions are the flags of premise run.
type runOptions struct {
	Repo, Base, Head string
	Out              string
	Python           string
	Reruns, Budget   int
	CallTimeout      time.Duration
	Seed             int64
	JSON, Quiet      bool
	Verbose          bool
	AllowEmpty       bool
	Format           string // "github": annotations too
	Staged           bool   // the index against HEAD
	Model            propose.Config

	Streams Streams
}

func newRunCmd(s Streams) *cobra.Command {
	opts := runOptions{Streams: s}
	var model modelFlags
	c := &cobra.Command{
		Use:   "run",
		Short: "The whole pipeline in one command: diff, propose, evidence, check, gate",
		Long: `Run premise's whole pipeline on a patch and say what to do next.

  diff        the changed Python, Go, JavaScript and TypeScript functions, methods and types
  propose     draft assumptions.yaml (merged into an existing one: every
              accepted or rejected decision is kept)
  evidence    boundary rows for every assumption not rejected, and
              signature-driven rows for every changed function, run against
              base and head: each input on which they differ is attached to
              its assumption in draft.md, the Markdown for the PR
  review      stops here while assumptions await a decision
  partitions  rows for accepted assumptions, added to partitions.yaml
  check       the register check of premise check
  reject      the must-reject corpus, when must_reject.lock.json exists
  gate        the rows on head, with reruns and the flake budget

Examples:
  premise run                           # HEAD against origin/HEAD, main or master
  premise run --base v1.2 --json        # the summary as JSON for a bot
  premise run --out "$(mktemp -d)"      # leave the repository's files alone
  repo=$(premise example intervals --dir "$(mktemp -d)")
  premise run --repo "$repo"            # the bundled example, offline
  premise run --endpoint http://localhost:11434/v1 --model qwen2.5-coder
                                        # a local model proposes instead
  premise run --staged                  # what is about to be committed (into .git/premise)
  premise run --format github           # GitHub Actions annotations too

Model settings are those of premise propose (flags, PREMISE_* variables,
.premise.yaml). A model endpoint that cannot be reached exits 3 before any
file is written. Run from any directory of the work tree, the files are
read and written at its top level (or in --out DIR).

While it runs, premise shows the stage it is in on stderr when stderr is a
terminal (--verbose: as plain lines otherwise too); --quiet prints nothing
but errors.
`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON, opts.Quiet, opts.Verbose = repoTop(c), jsonOn(c), quietOn(c), verboseOn(c)
			if err := outDir(opts.Out, "give the directory assumptions.yaml, partitions.yaml and draft.md are to live in"); err != nil {
				return err
			}
			inTop(opts.Repo, &opts.Out)
			if opts.CallTimeout <= 0 {
				return fmt.Errorf("--call-timeout %s: want a positive duration", opts.CallTimeout)
			}
			if err := checkFormat(c, opts.Format); err != nil {
				return err
			}
			if opts.Staged {
				if opts.Head != "" || opts.Base != "" {
					return fmt.Errorf("%s: --staged is the index against HEAD: no --base or --head with it", c.CommandPath())
				}
				head, err := git.At(opts.Repo).StagedCommit(c.Context())
				if err != nil {
					return err
				}
				opts.Base, opts.Head = "HEAD", head
				if opts.Out == "" {
					// A hook must not change the work tree it checks.
					if opts.Out, err = git.At(opts.Repo).GitPath(c.Context(), "premise"); err != nil {
						return err
					}
				}
			}
			if opts.Reruns < 0 || opts.Budget < 0 {
				return fmt.Errorf("%s: --reruns and --budget must not be negative", c.CommandPath())
			}
			cfg, err := model.config(c, settingsFrom{repo: opts.Repo, base: opts.Base, head: opts.Head}, os.Getenv)
			if err != nil {
				return err
			}
			opts.Model = cfg
			return runRun(c.Context(), opts)
		},
	}
	exits(c,
		"0 the gate holds",
		"1 the gate failed, assumptions await review, the register check failed, a behaviour change no assumption explains, a must-reject fixture broke, or the head does not load where the base does",
		"2 blocked by policy: a protected path changed without a trusted sign-off; the flake budget is exceeded",
		"3 premise could not do its job: bad flags, invalid input, a model endpoint unreachable",
		"4 nothing was checked: no row ran (--allow-empty makes it 0); or a changed symbol got no evidence row (the budget, no value, its module not importing), not all of its rows (its head slower than its base, cut off) or none that ran its changed lines, whatever --allow-empty says",
		"130 interrupted by a signal")
	model.bind(c)
	f := c.Flags()
	f.StringVar(&opts.Base, "base", "", "the base `REV` (default origin/HEAD, else main, else master)")
	f.StringVar(&opts.Head, "head", "", "the head `REV` (default HEAD)")
	f.StringVar(&opts.Out, "out", "", "the `DIR` where assumptions.yaml, partitions.yaml and draft.md live (default the repository's top level)")
	f.StringVar(&opts.Python, "python", envOr("PREMISE_PYTHON", "python3"), "the Python `interpreter` for Python targets")
	f.IntVar(&opts.Reruns, "reruns", 0, "gate reruns per row (default 5)")
	f.IntVar(&opts.Budget, "budget", 0, "flake budget: frozen plus flaking rows allowed (default 2)")
	f.DurationVar(&opts.CallTimeout, "call-timeout", gate.DefaultTimeout, "the time one call of the code under review may take")
	f.Int64Var(&opts.Seed, "seed", DefaultSeed, "the seed of the metamorphic shuffles (printed in the summary)")
	f.BoolVar(&opts.AllowEmpty, "allow-empty", false, "exit 0, not 4, when nothing was checked (no row ran)")
	f.StringVar(&opts.Format, "format", "", "github: also GitHub Actions annotations (::error file=...,line=...::) at the evidence lines")
	f.BoolVar(&opts.Staged, "staged", false, "the staged changes against HEAD (a pre-commit hook); --out defaults to .git/premise")
	return c
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func runRun(ctx context.Context, opts runOptions) error {
	p, err := newProposer(opts.Model, os.Getenv, opts.Streams.Err)
	if err != nil {
		return err
	}
	prog := newProgress(opts.Streams.Err, opts.Quiet, opts.Verbose)
	defer prog.done()
	sum, err := pipeline.Run(ctx, pipeline.Config{
		Proposer: p,
		Repo:     opts.Repo, Base: opts.Base, Head: opts.Head, Out: opts.Out,
		Python: opts.Python, Reruns: opts.Reruns, Budget: opts.Budget,
		Timeout: opts.CallTimeout, Seed: opts.Seed, AllowEmpty: opts.AllowEmpty,
		RejectBaseURL: os.Getenv(reject.BaseURLEnv),
		Progress:      prog.stage,
		RowProgress:   prog.rows,
		CacheDir:      opts.Model.CacheRoot(),
	})
	prog.done()
	if err != nil {
		return err
	}
	switch {
	case opts.JSON:
		if err := writeIndentedJSON(opts.Streams.Out, sum); err != nil {
			return err
		}
	case !opts.Quiet:
		writeRunSummary(opts.Streams.Out, sum)
	}
	if opts.Format == formatGitHub {
		if err := pipeline.WriteGitHub(pick(opts.JSON, opts.Streams.Err, opts.Streams.Out), sum); err != nil {
			return err
		}
	}
	return verdict(sum.Exit)
}

// writeRunSummary prints the run for a human: the verdict first, then the
// figures, the evidence, and what to do next.
func writeRunSummary(w io.Writer, s *pipeline.Summary) {
	fmt.Fprintf(w, "premise run: %s (exit %d)\n", s.Verdict, s.Exit)
	if s.Seed != 0 {
		fmt.Fprintf(w, "  seed       %d (--seed %d replays the shuffles)\n", s.Seed, s.Seed)
	}
	fmt.Fprintf(w, "  diff       %s...%s: %d files, %d changed symbols\n", short(s.MergeBase), short(s.Head), s.Files, s.Symbols)
	if s.Proposer != "" {
		fmt.Fprintf(w, "  propose    %s: %d rows proposed, %d kept%s; register: %s\n",
			s.Proposer, s.Proposed, s.Proposed-sum(s.Dropped), dropped(s.Dropped), statuses(s.Statuses))
		if u := s.Usage; u.Requests+u.CacheHits > 0 {
			fmt.Fprintf(w, "             %d requests, %d cache hits, %d prompt + %d completion tokens\n",
				u.Requests, u.CacheHits, u.PromptTokens, u.CompletionTokens)
		}
	}
	for _, u := range s.Unsigned {
		fmt.Fprintf(w, "  UNSIGNED   %s\n", u)
	}
	for _, f := range s.Findings {
		fmt.Fprintf(w, "  FINDING    %s:%d %s: %s\n", f.File, f.Line, f.Rule, f.Message)
	}
	if s.EvidenceRows > 0 {
		writeEvidenceChanges(w, s)
	}
	if len(s.Unstable) > 0 {
		fmt.Fprintf(w, "  evidence   %d %s whose output varies between reruns or hash seeds on one side (not counted as changes), e.g. %s%s\n",
			len(s.Unstable), map[bool]string{true: "input", false: "inputs"}[len(s.Unstable) == 1], s.Unstable[0].Symbol, s.Unstable[0].Input)
	}
	for _, e := range s.HeadBroken {
		fmt.Fprintf(w, "  HEAD       does not load where the base does: %s\n", e)
	}
	for _, e := range s.EvidenceSkipped {
		fmt.Fprintf(w, "  evidence   skipped %s\n", e)
	}
	for _, e := range s.EvidenceNotes {
		fmt.Fprintf(w, "  evidence   %s\n", e)
	}
	if s.EvidenceCached {
		fmt.Fprintf(w, "  evidence   from an earlier run of the same commits, premise, settings and tools (--no-cache runs its rows again)\n")
	}
	if s.Check != nil && !s.Check.OK() {
		for _, f := range s.Check.Findings {
			fmt.Fprintf(w, "  CHECK      %s\n", f.String())
		}
	}
	if s.Reject != "" {
		fmt.Fprintf(w, "  reject     must-reject corpus: %s\n", s.Reject)
	}
	if g := s.Gate; g != nil {
		todo := ""
		if g.Todo > 0 {
			todo = fmt.Sprintf(", %d unfinished", g.Todo)
		}
		fmt.Fprintf(w, "  gate       %d rows: %d pass, %d fail, %d error, %d flaky, %d frozen%s\n",
			g.Rows, g.Pass, g.Fail, g.Error, g.Flakes, g.Frozen, todo)
		onBase := fmt.Sprintf("on base the same rows: %d of %d pass", g.BasePass, g.Rows)
		if n := len(g.BaseDiffers); n > 0 {
			onBase += fmt.Sprintf("; %d pin an accepted change, which the base does not make", n)
		}
		fmt.Fprintf(w, "             %s\n", onBase)
		for _, r := range g.Report.Rows {
			if r.Frozen || r.Status != gate.StatusPass {
				fmt.Fprintf(w, "    %-6s %s %s hash=%s: %s\n", strings.ToUpper(r.Status), r.ID, r.Cls, r.Hash, r.Why)
			}
		}
	}
	for _, f := range s.Written {
		fmt.Fprintf(w, "  wrote      %s\n", f)
	}
	if t := timings(s.Timings); t != "" {
		fmt.Fprintf(w, "  time       %s\n", t)
	}
	switch {
	case len(s.Steps) > 1:
		for _, st := range s.Steps {
			fmt.Fprintf(w, "next: %s\n", st)
		}
	case s.Next != "":
		fmt.Fprintf(w, "next: %s\n", s.Next)
	}
}

// timings writes the stages' times in a line: "4.2 s: diff 0.1 s,
// evidence 3.9 s (traced tests 2.8 s), gate 0.2 s"; stages under a
// tenth of a second are left out.
func timings(ts []pipeline.StageTime) string {
	var total float64
	var parts []string
	for _, t := range ts {
		if part, ok := strings.CutPrefix(t.Stage, pipeline.StageEvidence+": "); ok {
			if len(parts) > 0 && t.Seconds >= 0.05 {
				parts[len(parts)-1] += fmt.Sprintf(" (%s %.1f s)", part, t.Seconds)
			}
			continue
		}
		total += t.Seconds
		if t.Seconds >= 0.05 {
			parts = append(parts, fmt.Sprintf("%s %.1f s", t.Stage, t.Seconds))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%.1f s: %s", total, strings.Join(parts, ", "))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func dropped(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return " (dropped: " + strings.Join(parts, ", ") + ")"
}

func statuses(m map[string]int) string {
	var parts []string
	for _, k := range []string{"proposed", "accepted", "rejected", "stale"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// printMore counts the changes the summary left out, per symbol.
func printMore(w io.Writer, more map[string]int) {
	syms := make([]string, 0, len(more))
	for s := range more {
		syms = append(syms, s)
	}
	sort.Strings(syms)
	for _, s := range syms {
		fmt.Fprintf(w, "    ...   %s: %d more (--json lists every one)\n", s, more[s])
	}
}

// itemOf is the change item a behaviour change is filed under, if any.
func itemOf(c pipeline.BehaviorChange) []string {
	if c.Item == "" {
		return nil
	}
	return []string{c.Item}
}

// writeEvidenceChanges lists the behaviour changes a reviewer reads first,
// each under the change item (C001) that decides it and the assumptions
// whose rows found it; MISSED marks one no item holds.
func writeEvidenceChanges(w io.Writer, s *pipeline.Summary) {
	fmt.Fprintf(w, "  evidence   %d boundary rows against base and head: %d behaviour changes\n",
		s.EvidenceRows, len(s.BehaviorChanges)+len(s.Unexplained))
	shown, more := pipeline.Shown(s.BehaviorChanges)
	for _, c := range shown {
		fmt.Fprintf(w, "    %-5s %s %s%s: base %s, head %s\n", orDash(strings.Join(append(itemOf(c), c.Assumptions...), ",")), c.Row, c.Symbol, inputAfter(c.Input), c.Base, c.Head)
	}
	printMore(w, more)
	shown, more = pipeline.Shown(s.Unexplained)
	for _, c := range shown {
		if c.Item != "" {
			fmt.Fprintf(w, "    %-5s %s %s%s: base %s, head %s\n", c.Item, c.Row, c.Symbol, inputAfter(c.Input), c.Base, c.Head)
			continue
		}
		fmt.Fprintf(w, "    MISSED %s %s%s: base %s, head %s (no assumption names this)\n", c.Row, c.Symbol, inputAfter(c.Input), c.Base, c.Head)
	}
	printMore(w, more)
}

// inputAfter is a change's input as it follows its symbol: a call's
// arguments, (1, 2), at once; what else showed the change after a space.
func inputAfter(input string) string {
	if strings.HasPrefix(input, "(") {
		return input
	}
	return " (" + input + ")"
}
