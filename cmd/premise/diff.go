package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/diffparse"
)

// diffOptions are the flags of premise diff.
type diffOptions struct {
	Repo  string
	Base  string
	Head  string
	Patch string // a file, "-" for stdin, "" for git diff
	JSON  bool
	Out   io.Writer
	In    io.Reader
}

func newDiffCmd(s Streams) *cobra.Command {
	opts := diffOptions{Out: s.Out, In: s.In}
	c := &cobra.Command{
		Use:   "diff [--base REV] [--head REV] [--patch FILE|-]",
		Short: "List the functions, methods and types a patch changed",
		Long: `List the functions, methods and types a patch changed.

premise reads git diff BASE...HEAD (against the merge-base, as a pull request
shows it) and maps every hunk onto the Go and Python declarations around it.
Everything premise proposes later cites one of these symbols. File contents
come from git objects, so a dirty work tree or a bare repository gives the
same answer.

  premise diff                          HEAD against origin/HEAD, main or master
  premise diff --base v1.2.0 --head fix what the branch fix changed since v1.2.0
  premise diff --json                   machine-readable, for other tools
  git format-patch -1 --stdout | premise diff --patch -
                                        a patch from stdin; symbols are read
                                        from --repo at --head

Each line names the change (added, modified, deleted), the qualified symbol,
its span, its kind and the changed lines (a deleted symbol's lines are those
of the base file):

  modified  intervals.merge_ranges  intervals/__init__.py:4-16  (function lines 5 7 9 12-15)

Files in vendor/, third_party/ and node_modules/, files marked
linguist-generated or linguist-vendored in .gitattributes, Go files with a
"Code generated ... DO NOT EDIT." header, and paths matching an "exclude"
glob in .premise.yaml are listed as excluded and get no symbols. The
.gitattributes and .premise.yaml files are read at the merge-base, so the
patch cannot hide its own files (with --patch, at --head). --repo may be a
work tree or a bare repository.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON = repoTop(c), jsonOn(c)
			inTop(opts.Repo, &opts.Patch)
			return runDiff(c.Context(), opts)
		},
	}
	exits(c, "0 the diff was read and listed")
	f := c.Flags()
	f.StringVar(&opts.Base, "base", "", "the base revision (default origin/HEAD, else main, else master)")
	f.StringVar(&opts.Head, "head", "HEAD", "the head revision")
	f.StringVar(&opts.Patch, "patch", "", "read a unified diff from `FILE` (- for stdin) instead of running git diff")
	return c
}

// runDiff loads the diff and prints it.
func runDiff(ctx context.Context, opts diffOptions) error {
	cfg := diffparse.Config{Repo: opts.Repo, Base: opts.Base, Head: opts.Head, NoSources: true}
	switch opts.Patch {
	case "":
	case "-":
		cfg.Patch, cfg.PatchName = opts.In, "<stdin>"
	default:
		f, err := os.Open(opts.Patch)
		if err != nil {
			return fmt.Errorf("read patch: %w", err)
		}
		defer f.Close()
		cfg.Patch, cfg.PatchName = f, opts.Patch
	}
	res, err := diffparse.Load(ctx, cfg)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeDiffJSON(opts.Out, res)
	}
	return writeDiffText(opts.Out, res)
}

// writeDiffJSON prints the Result in the shape of issue 2.
func writeDiffJSON(w io.Writer, res *diffparse.Result) error {
	return writeIndentedJSON(w, res)
}

// writeDiffText prints one line per changed symbol, and one line per file
// that has none worth saying why (excluded, unparsable).
func writeDiffText(w io.Writer, res *diffparse.Result) error {
	var b strings.Builder
	n := 0
	for _, f := range res.Files {
		switch {
		case f.Excluded != "":
			fmt.Fprintf(&b, "excluded  %s  (%s)\n", f.Path, f.Excluded)
		case f.ParseError != "":
			fmt.Fprintf(&b, "unparsed  %s  (%s)\n", f.Path, f.ParseError)
		}
		for _, s := range f.Symbols {
			p := f.Path
			if s.Change == "deleted" {
				p = f.OldPath
			}
			fmt.Fprintf(&b, "%-8s  %s  %s:%d-%d  (%s %s)\n", s.Change, s.Name, p, s.Start, s.End, s.Kind, linesText(s.ChangedLines))
			n++
		}
	}
	fmt.Fprintf(&b, "%s in %s (%s)\n", plural(n, "changed symbol"), plural(len(res.Files), "file"), rangeText(res))
	_, err := io.WriteString(w, b.String())
	return err
}

// linesText prints changed lines as runs: "lines 9-12 15".
func linesText(ls []int) string {
	var parts []string
	for i := 0; i < len(ls); {
		j := i
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ls[i], ls[j]))
		} else {
			parts = append(parts, fmt.Sprint(ls[i]))
		}
		i = j + 1
	}
	word := "lines"
	if len(ls) == 1 {
		word = "line"
	}
	return word + " " + strings.Join(parts, " ")
}

func rangeText(res *diffparse.Result) string {
	if res.MergeBase == "" {
		return fmt.Sprintf("patch against %.12s", res.Head)
	}
	return fmt.Sprintf("%.12s...%.12s, merge-base %.12s", res.Base, res.Head, res.MergeBase)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
