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
