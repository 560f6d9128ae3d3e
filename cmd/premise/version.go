package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newVersionCmd is premise version, the same as premise --version.
func newVersionCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "Print premise's version and the commit it was built from",
		Long: `Print premise's version and the commit it was built from, as premise
--version does.

  premise version
  premise version --json     {"version": ..., "commit": ...}`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if jsonOn(c) {
				v, commit := buildInfo()
				return writeIndentedJSON(s.Out, map[string]string{"version": v, "commit": commit})
			}
			_, err := fmt.Fprintf(s.Out, "premise %s\n", versionString())
			return err
		},
	}
	return exits(c, "0 printed")
}
