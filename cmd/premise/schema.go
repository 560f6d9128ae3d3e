package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/schemas"
)

// schemaOptions are the flags of premise schema.
type schemaOptions struct {
	Name string
	JSON bool
	Out  io.Writer
}

func newSchemaCmd(s Streams) *cobra.Command {
	opts := schemaOptions{Out: s.Out}
	var names []string
	for _, sc := range schemas.All() {
		names = append(names, fmt.Sprintf("  %-12s %s (%s)", sc.Name, sc.File, sc.Doc))
	}
	c := &cobra.Command{
		Use:   "schema [NAME]",
		Short: "Print the JSON Schema of a file premise keeps, or list them",
		Long: `Print the JSON Schema (draft 2020-12) of a file premise keeps in your
repository, or, with no NAME, list them:

` + strings.Join(names, "\n") + `

  premise schema                          the names, one per line
  premise schema assumptions > assumptions.schema.json
  premise schema --json                   [{"name", "file", "url"}, ...]

The assumptions.yaml and partitions.yaml premise writes start with

  # yaml-language-server: $schema=` + schemas.URL("assumptions") + `

so editors with a YAML language server (VS Code's YAML extension, Neovim,
Helix, JetBrains) check the file as you type. Offline, print the schema to
a file and point that line at it. premise's own readers check more than a
schema can (ids unique across the file, contracts that compile), and
report every problem at once with its line.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Name = args[0]
			}
			opts.JSON = jsonOn(c)
			return runSchema(opts)
		},
	}
	return exits(c, "0 printed", "3 premise could not do its job: no schema of that name")
}

// runSchema prints one schema, or the list.
func runSchema(opts schemaOptions) error {
	if opts.Name == "" {
		type entry struct {
			Name string `json:"name"`
			File string `json:"file"`
			URL  string `json:"url"`
		}
		list := []entry{}
		for _, sc := range schemas.All() {
			list = append(list, entry{sc.Name, sc.File, schemas.URL(sc.Name)})
		}
		if opts.JSON {
			return writeIndentedJSON(opts.Out, list)
		}
		for _, e := range list {
			if _, err := fmt.Fprintf(opts.Out, "%-12s %s\n", e.Name, e.File); err != nil {
				return err
			}
		}
		return nil
	}
	b, ok := schemas.Lookup(opts.Name)
	if !ok {
		return fmt.Errorf("no schema %q (have: %s)", opts.Name, schemas.Names())
	}
	_, err := opts.Out.Write(b)
	return err
}
