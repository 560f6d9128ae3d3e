package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/validate"
)

// gateOptions are the flags of premise gate.
type gateOptions struct {
	Partitions  string
	Fn          string
	Lang        string
	Python      string
	Node        string
	Exec        string
	Repo        string
	Reruns      int
	Budget      int
	Freezes     string
	CallTimeout time.Duration
	TargetTime  time.Duration
	MemoryMiB   int64
	Seed        int64
	Base        string
	SelfCheck   bool
	AllowEmpty  bool
	Race        bool
	JSON        bool
	JSONFile    string
	JUnit       string
	Markdown    string
	SARIF       string
	Quiet       bool
	Verbose     bool
	// The layers after the rows (seed 001's gate): curated fixtures, then
	// the freeze registry's check; each runs only when given.
	Fixtures    string
	Registry    string
	Format      string // "github": workflow-command annotations on stdout too
	Out, ErrOut io.Writer
}

func newGateCmd(s Streams) *cobra.Command {
	opts := gateOptions{Out: s.Out, ErrOut: s.Err}
	c := &cobra.Command{
		Use:   "gate [--partitions FILE] [--reruns N] [--budget N] [--base REV] [--json-file FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]",
		Short: "Run partition rows with reruns, flake isolation and a flake budget",
		Long: `Run every row of the partition table against the code, in a separate worker
process, --reruns times each.

A representative or boundary row passes when its contract holds on the
result (and its metamorphic relations hold); an invalid row passes only when
the call raises (the class in "raises", if given): a value returned for an
invalid input is a failure. Every row runs every rerun; rows whose attempts
disagree are flakes, reported with what was seen. A row whose hash is in the
freezes file still runs and is reported FROZEN, but does not gate; frozen
plus flaking rows beyond --budget block the merge (exit 2). A test row
(test: 'FILE: NAME', a reviewer's decision on a change one of the base's
tests showed) runs that test of the merge-base on the code, the base's test
file laid over the code's own, and passes when the test passed or failed as
its expect says.

  premise gate                                  partitions.yaml, Python, 5 reruns
  premise gate --reruns 10 --budget 0           stricter
  premise gate --lang go --partitions p.yaml    a Go target: example.com/pkg.Func
  premise gate --lang ts                        TypeScript (or --lang js): src/lib/ranges.mergeRanges
  premise gate --lang exec --exec "node w.js"   any worker speaking the protocol
  premise gate --base origin/main               also run base; list changed rows
  premise gate --junit gate.xml --markdown pr.md --json-file gate.json --sarif gate.sarif
  premise gate --json                           the report as JSON on stdout, the summary on stderr
  premise gate --self-check                     are the contracts able to fail?
  premise gate freeze P004 --reason "clock-dependent" --replacement P012
  premise gate --fixtures fixtures.json --registry gate/frozen.json
                                                the three layers in order:
                                                rows (property rows first among
                                                them), fixtures, the freeze check

A row of kind property generates its inputs from a strategy with a fixed
seed and checks a property over each call (round_trip with an inverse,
never_raises, idempotent, permutation, or the row's CEL contract); a
failure is shrunk to a smallest input and reported with the seed:

  FAIL    P001 ...  round_trip fails on [""] (seed 20260828, input 3 of 200; shrunk from [...] in 9 steps): ...

The summary has one line per failing, flaking or frozen row:

  FAIL    P004 6f1c0e4b7d2a9e31  returned [[4,6]]; contract result == [[0, 1], [4, 6]] does not hold
  FLAKE   P010 0b5e...  seen [pass, fail, pass, pass, fail]: ...

Rows may name different targets (each row's target:, else the table's).

Go (--lang go): a target is the package's import path and the function,
example.com/queue.Reverse, a generic one instantiated (example.com/lo.Map[int,string]),
a method by its method expression, the receiver the first argument, built
by a constructor and, when its state needs them, the type's own methods
called in order and its exported fields set as a caller assigns them:

  target: example.com/queue.(*Queue[int]).Back
  args: [{"$new": "example.com/queue.NewQueue[int]", "$args": [4],
          "$then": [{"$call": "example.com/queue.(*Queue[int]).Enqueue", "$args": [1]},
                    {"$call": "example.com/queue.(*Queue[int]).Dequeue", "$args": []},
                    {"$field": "Limit", "$value": 2}]}]

JavaScript and TypeScript (--lang javascript or js, typescript or ts, or
language: typescript in the table) run in a Node worker (Node 18 or later);
TypeScript is transpiled by esbuild, inside premise, without type checking.
A target is the module's path from the repository's top without its
extension, then dotted names: src/lib/ranges.mergeRanges (an export),
src/lib/ranges.default, src/lib/ranges.Interval (constructed with new),
src/lib/ranges.Interval.of (a static method), src/lib/ranges.Interval.merge
(an instance method: the receiver is the first argument, built in the row):

  target: src/lib/ranges.Interval.merge
  args: [{"$new": "src/lib/ranges.Interval", "$args": [0, 3]},
         {"$new": "src/lib/ranges.Interval", "$args": [2, 5]}]

A returned promise is awaited; a rejection is a raise of the error's class
(raises: ValidationError). Values JSON cannot say are one-key objects, in
args and in results alike: {"$undefined": true}, {"$number": "NaN"} (also
"-0", "Infinity"), {"$bigint": "123"}, {"$map": [[k, v]]}, {"$set": [...]},
{"$date": "2024-01-01T00:00:00.000Z"}; a class instance comes back as
{"$class": "Interval", "$fields": {"start": 0, "end": 5}}, so a contract
reads result["$fields"].end == 5. kwargs, if any, are passed as one options
object after args.
The shuffles of the permutation relation use --seed (default 1, printed in
the summary), so a failure replays exactly. On a terminal premise shows the
rows run so far on stderr.

A worker that passes --call-timeout has its process group killed and the row
is a timeout; a worker that dies is a crash; either way a fresh worker, started
ahead, takes the next row. A timeout is a finding, not a pace: once a row's
call of a target timed out (failing the row), the target's later calls on that
side get a tenth of --call-timeout (at least 250ms), and a timeout under it
says "the limit was shortened". --target-time bounds the time one target's
calls take, head and base together: its rows past it are cut off (CUT_OFF,
not run), the other targets' rows run, and the gate cannot hold. When most
rows fail for one infrastructure reason (no interpreter, the module does not
import) premise reports that reason once and exits 3.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON, opts.Quiet, opts.Verbose = repoTop(c), jsonOn(c), quietOn(c), verboseOn(c)
			inTop(opts.Repo, &opts.Partitions, &opts.Freezes, &opts.JSONFile, &opts.JUnit, &opts.Markdown, &opts.SARIF, &opts.Fixtures, &opts.Registry)
			if err := checkFormat(c, opts.Format); err != nil {
				return err
			}
			if opts.Reruns < 1 {
				return fmt.Errorf("--reruns %d: want at least 1", opts.Reruns)
			}
			if opts.Budget < 0 {
				return fmt.Errorf("--budget %d: want 0 or more", opts.Budget)
			}
			if opts.Lang == "exec" && strings.TrimSpace(opts.Exec) == "" {
				return fmt.Errorf("--lang exec needs --exec COMMAND, the worker that speaks the protocol")
			}
			if opts.CallTimeout <= 0 {
				return fmt.Errorf("--call-timeout %s: want a positive duration", opts.CallTimeout)
			}
			if opts.TargetTime < 0 {
				return fmt.Errorf("--target-time %s: want 0 (no limit) or a positive duration", opts.TargetTime)
			}
			return runGate(c.Context(), opts)
		},
	}
	exits(c,
		"0 the gate holds",
		"1 the gate failed: a row failed, errored or flaked; a row's outcome changed from base; a judged file changed while the rows ran; --self-check: a contract accepts every wrong result",
		"2 blocked by policy: frozen plus flaking rows exceed the flake budget",
		"3 premise could not do its job: bad flags, an invalid table, one infrastructure cause (no interpreter, the module does not import)",
		"4 nothing was checked: the table has no rows (--allow-empty makes it 0)",
		"130 interrupted by a signal: the rows that finished are reported")
	f := c.Flags()
	f.StringVar(&opts.Partitions, "partitions", "partitions.yaml", "the partition table `FILE`")
	f.StringVar(&opts.Fn, "fn", "", "call `TARGET` for every row, whatever target the rows name")
	f.StringVar(&opts.Lang, "lang", "", "python, go, javascript (js), typescript (ts) or exec (default: the table's language, else python)")
	f.StringVar(&opts.Python, "python", "python3", "the Python interpreter")
	f.StringVar(&opts.Node, "node", "node", "the node binary, for --lang javascript and typescript")
	f.StringVar(&opts.Exec, "exec", "", "the worker `COMMAND` for --lang exec")
	f.IntVar(&opts.Reruns, "reruns", gate.DefaultReruns, "how many times every row runs")
	f.IntVar(&opts.Budget, "budget", gate.DefaultBudget, "how many frozen plus flaking rows are tolerated")
	f.StringVar(&opts.Freezes, "freezes", gate.DefaultFreezesPath, "the freezes `FILE`")
	f.DurationVar(&opts.CallTimeout, "call-timeout", gate.DefaultTimeout, "the time one call of the code under review may take")
	renamed(c, "timeout", timeoutRenamed)
	f.DurationVar(&opts.TargetTime, "target-time", 0, "the time one target's calls may take, head and base together; its rows past it are cut off (0: no limit)")
	f.Int64Var(&opts.MemoryMiB, "memory-limit", gate.DefaultMemoryLimit>>20, "the worker's address-space limit in MiB (0: none)")
	f.Int64Var(&opts.Seed, "seed", DefaultSeed, "the seed of the permutation relation's shuffles (printed in the summary)")
	f.StringVar(&opts.Base, "base", "", "also run the rows against base `REV` (a temporary git worktree)")
	f.BoolVar(&opts.AllowEmpty, "allow-empty", false, "exit 0, not 4, when the table has no rows")
	f.BoolVar(&opts.Race, "race", false, "build a Go target's harness with the race detector (go build -race)")
	f.BoolVar(&opts.SelfCheck, "self-check", false, "feed every contract deliberately wrong results and report those that accept them")
	f.StringVar(&opts.JSONFile, "json-file", "", "write the report as JSON to `FILE`")
	f.StringVar(&opts.JUnit, "junit", "", "write JUnit XML to `FILE` (- for stdout)")
	f.StringVar(&opts.Markdown, "markdown", "", "write a Markdown report for a pull request to `FILE` (- for stdout)")
	f.StringVar(&opts.SARIF, "sarif", "", "write SARIF 2.1.0 to `FILE` (- for stdout), within GitHub's limits")
	f.StringVar(&opts.Fixtures, "fixtures", "", "after the rows, run the curated fixtures of `FILE` (fixtures.json; the second layer)")
	f.StringVar(&opts.Registry, "registry", "", "last, check the freeze registry `FILE` (gate/frozen.json; the third layer)")
	f.StringVar(&opts.Format, "format", "", "github: also GitHub Actions annotations (::error file=...,line=...::) on stdout")
	c.AddCommand(newGateFreezeCmd(s))
	return c
}

// langName is the language a --lang flag names: js and ts are short for
// the names tables and the diff use.
func langName(l string) string {
	switch l {
	case "js":
		return validate.LangJavaScript
	case "ts":
		return validate.LangTypeScript
	}
	return l
}

// gateConfig is the gate's configuration from the flags.
func (o gateOptions) gateConfig() gate.Config {
	mem := o.MemoryMiB << 20
	if o.MemoryMiB == 0 {
		mem = -1
	}
	return gate.Config{Repo: o.Repo, Lang: langName(o.Lang), Python: o.Python, Node: o.Node, Exec: strings.Fields(o.Exec),
		Timeout: o.CallTimeout, MemoryLimit: mem, Reruns: o.Reruns, Budget: o.Budget, Seed: o.Seed,
		Base: o.Base, Target: o.Fn, FreezesFile: o.Freezes, AllowEmpty: o.AllowEmpty, Race: o.Race,
		TargetClock: gate.NewTargetClock(o.TargetTime)}
}

// runGate runs the gate stage and writes every report asked for.
func runGate(ctx context.Context, opts gateOptions) error {
	cfg := opts.gateConfig()
	if opts.SelfCheck {
		return runSelfCheck(ctx, opts, cfg)
	}
	prog := newProgress(opts.ErrOut, opts.Quiet, opts.Verbose)
	n := 0
	cfg.Progress = func(gate.RowResult) {
		n++
		prog.stage("gate", fmt.Sprintf("%d rows run", n))
	}
	rep, err := gate.RunFile(ctx, cfg, opts.Partitions)
	prog.done()
	if err != nil {
		if rep != nil && rep.Interrupted {
			// A signal: what finished is reported, then exit 130.
			_ = gate.WriteText(opts.ErrOut, rep)
		}
		return err
	}
	writers := []struct {
		dest  string
		write func(io.Writer, *gate.Report) error
	}{
		{opts.JSONFile, gate.WriteJSON}, {opts.JUnit, gate.WriteJUnit}, {opts.Markdown, gate.WriteMarkdown}, {opts.SARIF, gate.WriteSARIF},
	}
	if opts.JSON {
		writers = append(writers, struct {
			dest  string
			write func(io.Writer, *gate.Report) error
		}{"-", gate.WriteJSON})
	}
	toStdout := false
	for _, w := range writers {
		if w.dest == "" {
			continue
		}
		if w.dest == "-" {
			toStdout = true
		}
		if err := writeTo(opts.Out, w.dest, func(out io.Writer) error { return w.write(out, rep) }); err != nil {
			return err
		}
	}
	summary := opts.Out
	if toStdout {
		summary = opts.ErrOut
	}
	if opts.Format == formatGitHub {
		// Annotations name files as the repository does, from its top.
		gh := *rep
		if rel, err := filepath.Rel(opts.Repo, rep.Source); err == nil && !strings.HasPrefix(rel, "..") {
			gh.Source = rel
		}
		if err := gate.WriteGitHub(summary, &gh); err != nil {
			return err
		}
	}
	if err := gate.WriteText(summary, rep); err != nil {
		return err
	}
	code, err := runGateLayers(ctx, opts, rep.Exit, summary)
	if err != nil {
		return err
	}
	return verdict(code)
}

// writeTo writes a report to stdout (dest "-") or atomically to the file
// dest.
func writeTo(stdout io.Writer, dest string, write func(io.Writer) error) error {
	if dest == "-" {
		return write(stdout)
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(dest, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	return nil
}

func runSelfCheck(ctx context.Context, opts gateOptions, cfg gate.Config) error {
	tab, err := validate.LoadTable(opts.Partitions)
	if err != nil {
		return err
	}
	if opts.Fn != "" {
		tab.Retarget(opts.Fn)
	}
	a, err := gate.HeadAdapter(ctx, cfg, tab)
	if err != nil {
		return fmt.Errorf("gate %s: %w", opts.Partitions, err)
	}
	defer a.Close()
	sc, err := gate.SelfCheck(ctx, a, tab)
	if err != nil {
		return fmt.Errorf("gate --self-check %s: %w", opts.Partitions, err)
	}
	if opts.JSON {
		err = gate.WriteSelfCheckJSON(opts.Out, sc)
	} else {
		err = gate.WriteSelfCheckText(opts.Out, sc)
	}
	if err != nil {
		return err
	}
	return verdict(sc.Exit)
}

// gateFreezeOptions are the flags of premise gate freeze.
type gateFreezeOptions struct {
	Row         string
	Reason      string
	Replacement string
	Partitions  string
	Freezes     string
	Repo        string
	JSON        bool
	Out         io.Writer
	Now         func() time.Time
}

func newGateFreezeCmd(s Streams) *cobra.Command {
	opts := gateFreezeOptions{Out: s.Out, Now: time.Now}
	c := &cobra.Command{
		Use:   "freeze ROW --reason TEXT [--replacement ROW]",
		Short: "Record a flaky row's hash in the freezes file",
		Long: `Record a row's hash in .gate/frozen_rows.json: the row is frozen, not the
file.

A freeze is a debt record, not a skip: the row still runs on every gate and
is reported FROZEN with what it did, and it counts against the flake budget.
A row that fails on every attempt is broken, not flaky: the gate ignores a
freeze of it. Editing the row changes its hash, and the freeze stops
applying. --replacement names the deterministic row that replaces it; a
freeze still without one after an accepted patch cycle blocks the merge.

  premise gate freeze P004 --reason "order depends on dict iteration"
  premise gate freeze P004 --reason "clock" --replacement P012

The entry records the time and the repository's HEAD commit, so a check can
tell how many accepted cycles the freeze has lived through.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Row = args[0]
			opts.Repo, opts.JSON = repoTop(c), jsonOn(c)
			inTop(opts.Repo, &opts.Partitions, &opts.Freezes)
			if strings.TrimSpace(opts.Reason) == "" {
				return fmt.Errorf("--reason is required: say why the row is frozen")
			}
			return runGateFreeze(c.Context(), opts)
		},
	}
	exits(c, "0 the freeze was recorded", "3 premise could not do its job: bad flags, no such row, an invalid table or freezes file")
	f := c.Flags()
	f.StringVar(&opts.Reason, "reason", "", "why the row is frozen")
	f.StringVar(&opts.Replacement, "replacement", "", "the `ROW` that replaces the frozen one")
	f.StringVar(&opts.Partitions, "partitions", "partitions.yaml", "the partition table `FILE`")
	f.StringVar(&opts.Freezes, "freezes", gate.DefaultFreezesPath, "the freezes `FILE`")
	return c
}

func runGateFreeze(ctx context.Context, opts gateFreezeOptions) error {
	tab, err := validate.LoadTable(opts.Partitions)
	if err != nil {
		return err
	}
	row := tab.Lookup(opts.Row)
	if row == nil {
		return fmt.Errorf("%s: no row %s", opts.Partitions, opts.Row)
	}
	if opts.Replacement != "" {
		if opts.Replacement == opts.Row {
			return fmt.Errorf("--replacement %s: a row cannot replace itself", opts.Replacement)
		}
		if tab.Lookup(opts.Replacement) == nil {
			return fmt.Errorf("--replacement %s: %s has no such row; add it first", opts.Replacement, opts.Partitions)
		}
	}
	path := opts.Freezes
	fz, err := gate.LoadFreezes(path)
	if err != nil {
		return err
	}
	commit := ""
	if out, err := exec.CommandContext(ctx, "git", "-C", opts.Repo, "rev-parse", "HEAD").Output(); err == nil {
		commit = strings.TrimSpace(string(out))
	}
	h := row.Hash()
	z := gate.NewFreeze(row.ID, opts.Reason, opts.Replacement, opts.Now(), commit)
	z.Meaning = row.Meaning(tab.TargetOf(*row))
	fz[h] = z
	if err := fz.Save(path); err != nil {
		return err
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, map[string]gate.Freeze{h: z})
	}
	_, err = fmt.Fprintf(opts.Out, "froze %s %s in %s: %s\n", row.ID, h, path, opts.Reason)
	return err
}

// formatGitHub is --format github: GitHub Actions workflow commands,
// which the runner reads from stdout and stderr alike, on whichever of
// them does not carry a JSON report.
const formatGitHub = "github"

// checkFormat refuses a --format premise does not write.
func checkFormat(c *cobra.Command, format string) error {
	if format != "" && format != "text" && format != formatGitHub {
		return fmt.Errorf("%s: --format %q: want text or github", c.CommandPath(), format)
	}
	return nil
}
