package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/examples"
)

// exampleOptions are the flags of premise example.
type exampleOptions struct {
	Name string
	Dir  string
	JSON bool
	Out  io.Writer
}

func newExampleCmd(s Streams) *cobra.Command {
	opts := exampleOptions{Out: s.Out}
	var names []string
	for _, e := range examples.All() {
		names = append(names, fmt.Sprintf("  %-10s %s", e.Name, e.Doc))
	}
	c := &cobra.Command{
		Use:   "example NAME --dir DIR",
		Short: "Write a bundled example patch as a git repository",
		Long: `Write a bundled example as a git repository in DIR/NAME and print its path.

The repository's main branch holds the good code; a second branch, checked
out, holds a coding agent's patch whose tests still pass. Run premise on it:

  repo=$(premise example intervals --dir "$(mktemp -d)")
  premise diff --repo "$repo"
  premise example intervals --dir /tmp/x --json
                     {"name": ..., "repo": ..., "base": "main", "head": BRANCH}

Examples:
` + strings.Join(names, "\n"),
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Name, opts.JSON = args[0], jsonOn(c)
			if opts.Dir == "" {
				return fmt.Errorf("%s: --dir is required", c.CommandPath())
			}
			return runExample(c.Context(), opts)
		},
	}
	exits(c, "0 the example was written", "3 premise could not do its job: bad flags, no such example, DIR/NAME cannot be written")
	c.Flags().StringVar(&opts.Dir, "dir", "", "write the repository under `DIR` (required; relative to the working directory, as it makes a repository rather than reading one)")
	return c
}

// runExample materialises the example and prints where.
func runExample(ctx context.Context, opts exampleOptions) error {
	e, ok := examples.Lookup(opts.Name)
	if !ok {
		var all []string
		for _, e := range examples.All() {
			all = append(all, e.Name)
		}
		return fmt.Errorf("no example %q (have: %s)", opts.Name, strings.Join(all, ", "))
	}
	repo, err := e.Materialize(ctx, opts.Dir)
	if err != nil {
		return err
	}
	if opts.JSON {
		return json.NewEncoder(opts.Out).Encode(map[string]string{"name": e.Name, "repo": repo, "base": "main", "head": e.Branch})
	}
	_, err = fmt.Fprintln(opts.Out, repo)
	return err
}
