package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Streams are the standard streams a command reads and writes. Tests pass
// buffers; Main passes the process's own.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// version and commit are set with -ldflags "-X main.version=... -X main.commit=...";
// otherwise they come from the module's build information.
var (
	version = ""
	commit  = ""
)

// Main runs premise with args and returns the process exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, args, Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
}

// run is Main with its streams and context supplied, so tests can call it
// in-process.
func run(ctx context.Context, args []string, s Streams) (code int) {
	var ranErr error
	defer func() {
		// A panic is a bug in premise, never a verdict on the patch.
		if r := recover(); r != nil {
			fmt.Fprintf(s.Err, "premise: internal error: %v\n%s", r, debug.Stack())
			code, ranErr = exitCouldNotRun, fmt.Errorf("internal error: %v", r)
		}
	}()
	out, errw := &output{w: s.Out}, &output{w: s.Err}
	var ran *cobra.Command
	defer func() {
		// --json: the error is JSON on stdout too, unless the command
		// already printed its own.
		if code != exitHolds && !out.written && wantsJSON(ran, args) {
			writeErrorJSON(s.Out, ranErr, code)
		}
	}()
	root := newRootCmd(Streams{In: s.In, Out: out, Err: errw})
	root.SetArgs(args)
	ran, ranErr = root.ExecuteContextC(ctx)
	err := ranErr
	code = exitCode(err)
	if err != nil {
		if ee, ok := err.(*exitError); !ok || ee.err != nil {
			fmt.Fprintf(s.Err, "premise: %s\n", oneLine(err.Error()))
		}
	}
	if ctx.Err() != nil && code == exitCouldNotRun {
		code = exitInterrupted
	}
	return code
}

// oneLine folds an error onto one line: CI logs and humans both read the
// first line only.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func newRootCmd(s Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "premise",
		Short: "Name what an agent's patch assumes, and gate it on those assumptions",
		Long: `premise gates code patches written by coding agents.

A green suite the agent could read proves only that the patch matches the
agent's own model of the problem. premise reads the diff, proposes the
preconditions the patch silently relies on (sorted input, non-empty batch,
unique keys, naive datetimes), lets a human accept or reject each one, turns
accepted ones into partition rows, and runs those rows against the code in a
separate process with reruns, flake isolation and must-reject fixtures.

Typical flow:
  premise diff                 what the patch changed, symbol by symbol
  premise propose              draft assumptions.yaml from the diff
  premise accept A001 A002     record a reviewer's decisions
  premise partitions           partition rows for accepted assumptions
  premise check                CI: the register is reviewed and covered
  premise gate                 CI: run the rows, reruns and flake budget
  premise run                  all of the above in one command
  premise batch                premise run over every open pull request
  premise comment --pr N       the draft as one comment on the pull request
`,
		Version:       versionString(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetVersionTemplate("premise {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})
	exits(root, allExits...)
	addGlobalFlags(root)
	root.PersistentPreRun = func(c *cobra.Command, args []string) { applyQuiet(c, s) }
	for _, c := range []*cobra.Command{
		newDiffCmd(s),
		newProposeCmd(s),
		newAcceptCmd(s),
		newRejectCmd(s),
		newReviewCmd(s),
		newPartitionsCmd(s),
		newCheckCmd(s),
		newGateCmd(s),
		newGuardCmd(s),
		newRunCmd(s),
		newBatchCmd(s),
		newCommentCmd(s),
		newExampleCmd(s),
		newModelCmd(s),
		newRulesCmd(s),
		newFreezeCmd(s),
		newJUnitCmd(s),
		newLedgerCmd(s),
		newHoldoutCmd(s),
		newFixturesCmd(s),
		newVersionCmd(s),
		newSchemaCmd(s),
		newAssumeCmd(s),
	} {
		root.AddCommand(c)
	}
	finishHelp(root)
	return root
}

// versionString reports the version and the commit premise was built from.
func versionString() string {
	v, c := buildInfo()
	return fmt.Sprintf("%s (commit %s)", v, c)
}

// buildInfo is the version and the commit premise was built from.
func buildInfo() (string, string) {
	v, c, dirty := version, commit, false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, st := range bi.Settings {
			switch st.Key {
			case "vcs.revision":
				if c == "" {
					c = st.Value
				}
			case "vcs.modified":
				dirty = st.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if c == "" {
		c = "unknown (build with -buildvcs=true or -ldflags -X main.commit=SHA)"
	} else if dirty {
		c += "-dirty"
	}
	return v, c
}
