package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/propose"
)

// rulesOptions are the flags of premise rules.
type rulesOptions struct {
	Language string
	JSON     bool
	Out      io.Writer
}

func newRulesCmd(s Streams) *cobra.Command {
	opts := rulesOptions{Out: s.Out}
	c := &cobra.Command{
		Use:   "rules [--language go|python]",
		Short: "List the static proposer's rules, each with its doc and an example",
		Long: `List the rules the static proposer runs (--model static, the default with
no endpoint): each rule's name, language, what it looks for, and an example
of a changed line and the row it drafts.

Every row a rule drafts names it as its source ("static:NAME"). Test and
benchmark files (_test.go, test_*.py, *_test.py, conftest.py, files under
tests/, test/ or testdata/) get no rows.

Turn rules off for a repository in .premise.yaml (read at the merge-base,
so a patch cannot turn off the rules that would speak about it):

  rules:
    disable: [py-attribute-not-none, go-error-discarded]

or suppress one on a line (on the line itself or the line above):

  x = xs[0]  # premise: ignore[py-index-non-empty]
  //premise:ignore go-deref-non-nil

A suppression that names no rule ("# premise: ignore", "//premise:ignore")
suppresses every rule on that line. Only a suppression the merge-base
already has counts: one the patch adds (or a generated-code header it
adds) silences nothing and is itself drafted, as policy-marker-added.

  premise rules                  every rule
  premise rules --language go    Go's rules
  premise rules --language ts    the rules JavaScript and TypeScript files run
  premise rules --json           [{"name", "language", "doc", "example"}, ...]`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.JSON = jsonOn(c)
			switch opts.Language {
			case "", "go", "python", "javascript":
			case "js", "typescript", "ts":
				opts.Language = "javascript" // one rule set serves both
			default:
				return fmt.Errorf("--language: want go, python or javascript (js, typescript, ts), got %q", opts.Language)
			}
			return runRules(opts)
		},
	}
	c.Flags().StringVar(&opts.Language, "language", "", "only the rules of `LANG` (go, python, or javascript: typescript files run its rules)")
	return exits(c, "0 the rules were listed")
}

// jsonRule is a rule on the wire, apart from propose.Rule.
type jsonRule struct {
	Name     string `json:"name"`
	Language string `json:"language"`
	Doc      string `json:"doc"`
	Example  string `json:"example"`
}

// runRules prints the rules, as text or JSON.
func runRules(opts rulesOptions) error {
	rules := []jsonRule{}
	for _, r := range propose.AllRules() {
		if opts.Language == "" || r.Language == opts.Language {
			rules = append(rules, jsonRule{Name: r.Name, Language: r.Language, Doc: r.Doc, Example: r.Example})
		}
	}
	if opts.JSON {
		return writeJSONNoEscape(opts.Out, rules)
	}
	for _, r := range rules {
		if _, err := fmt.Fprintf(opts.Out, "%s (%s)\n  %s\n  example: %s\n\n", r.Name, r.Language, r.Doc, r.Example); err != nil {
			return err
		}
	}
	return nil
}
