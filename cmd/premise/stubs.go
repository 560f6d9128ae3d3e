package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// notYet builds a placeholder for a command whose issue is still open. Each
// is replaced by the command's own file.
func notYet(use, short string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		RunE: func(c *cobra.Command, args []string) error {
			return fmt.Errorf("%s is not built yet", c.CommandPath())
		},
	}
}

func newProposeCmd(s Streams) *cobra.Command {
	return notYet("propose", "Draft the assumption register (assumptions.yaml) from the diff")
}

func newAcceptCmd(s Streams) *cobra.Command {
	return notYet("accept ID...", "Accept proposed assumptions")
}

// newRejectCmd is both "premise reject ID --note TEXT" (an assumption) and the
// parent of the must-reject corpus commands (add, run, guard).
func newRejectCmd(s Streams) *cobra.Command {
	c := notYet("reject ID... --note TEXT", "Reject proposed assumptions; manage the must-reject corpus")
	addCorpusCmds(c, s)
	return c
}

func addCorpusCmds(reject *cobra.Command, s Streams) {}

func newReviewCmd(s Streams) *cobra.Command {
	return notYet("review", "Walk the proposed assumptions one at a time and record decisions")
}

func newPartitionsCmd(s Streams) *cobra.Command {
	return notYet("partitions", "Generate partition rows for accepted assumptions")
}

func newCheckCmd(s Streams) *cobra.Command {
	return notYet("check", "CI register check: reviewed, covered, no todo rows")
}

func newGateCmd(s Streams) *cobra.Command {
	return notYet("gate", "Run partition rows with reruns, flake isolation and a flake budget")
}

func newRunCmd(s Streams) *cobra.Command {
	return notYet("run", "The whole pipeline in one command")
}
