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

func newPartitionsCmd(s Streams) *cobra.Command {
	return notYet("partitions", "Generate partition rows for accepted assumptions")
}

func newCheckCmd(s Streams) *cobra.Command {
	return notYet("check", "CI register check: reviewed, covered, no todo rows")
}

func newRunCmd(s Streams) *cobra.Command {
	return notYet("run", "The whole pipeline in one command")
}
