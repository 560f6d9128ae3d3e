package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/validate"
)

// decideOptions are the flags of premise accept and premise reject.
type decideOptions struct {
	Register string
	IDs      []string
	Status   string // validate.StatusAccepted or validate.StatusRejected
	Note     string
	JSON     bool
	Out      io.Writer
}

func newAcceptCmd(s Streams) *cobra.Command {
	opts := decideOptions{Status: validate.StatusAccepted, Out: s.Out}
	c := &cobra.Command{
		Use:   "accept ID... [--note TEXT] [--register FILE]",
		Short: "Accept items of the register: a change is intended, an assumption legitimate",
		Long: `Accept items of the register. The word means one thing per kind of item:

  C001  a behaviour change the evidence found: the change is intended.
        premise partitions writes its witnesses as rows pinning the head's
        outcome, so a later patch that silently undoes it fails the gate.
  A001  an assumption the patch relies on: the precondition is legitimate
        (callers guarantee it), and the patch may rely on it. Changes seen
        only on inputs that violate it are explained by it and need no
        decision of their own (premise run no longer awaits them). Its
        rows test the edge where it still holds, where the head must do
        what the base did; when the precondition or --note names an
        exception ("an unsorted list raises ValueError"), the rows that
        violate it must raise it.

  premise accept C001                       the change is intended
  premise accept A001 A003                  accept two assumptions
  premise accept A002 --note "checked the caller sorts"
  premise accept A003 --note "an inverted range raises ValueError"
  premise accept A001 --register api/assumptions.yaml

Then premise partitions (or premise run) writes the rows that keep the
decision. Only the status (and the note, when given) changes; comments, order
and every other field of the file stay as they were, and the file is replaced
atomically. An id the register does not hold changes nothing and exits 3.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IDs, opts.JSON = args, jsonOn(c)
			inTop(repoTop(c), &opts.Register)
			return runDecide(c.Context(), opts)
		},
	}
	exits(c, "0 the decisions were recorded", "3 premise could not do its job: bad flags, an invalid register, an id it does not hold")
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register `FILE`")
	f.StringVar(&opts.Note, "note", "", "the reviewer's reason, kept in the register")
	return c
}

// newRejectCmd is both "premise reject ID --note TEXT" (an assumption) and the
// parent of the must-reject corpus commands (add, run, guard).
func newRejectCmd(s Streams) *cobra.Command {
	opts := decideOptions{Status: validate.StatusRejected, Out: s.Out}
	c := &cobra.Command{
		Use:   "reject ID... --note TEXT [--register FILE]",
		Short: "Reject items of the register (a change is a regression; the patch must not rely on an assumption); manage the must-reject corpus",
		Long: `Reject items of the register. A note saying why is required; it is kept in
the register. The word means one thing per kind of item:

  C001  a behaviour change the evidence found: the change is a regression.
        premise partitions writes its witnesses as rows pinning the base's
        outcome; the gate fails until the head does what the base did (or
        a person accepts the change).
  A001  an assumption the patch relies on: the patch must not rely on it.
        premise partitions writes rows with inputs that violate it, holding
        the base's outcome: a patch that relies on it behaves otherwise
        there and fails the gate. The changes the evidence found still
        await their own decision.

  premise reject C002 --note "callers pass ranges in any order; the merger must sort"
  premise reject A001 --note "callers pass ranges in any order"
  premise reject A003 A004 --note "no datetimes in this module"

Only the status and the note change; comments, order and every other field of
the file stay as they were, and the file is replaced atomically. An id the
register does not hold changes nothing and exits 3.

The subcommands add, run and guard manage the must-reject corpus (see
premise reject add --help).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if strings.TrimSpace(opts.Note) == "" {
				return fmt.Errorf("premise reject: --note is required: %s", noteWanted(args))
			}
			opts.IDs, opts.JSON = args, jsonOn(c)
			inTop(repoTop(c), &opts.Register)
			return runDecide(c.Context(), opts)
		},
	}
	exits(c, "0 the decisions were recorded", "3 premise could not do its job: bad flags, no --note, an invalid register, an id it does not hold")
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register `FILE`")
	f.StringVar(&opts.Note, "note", "", "why: the change is a regression, or the patch must not rely on the assumption (required)")
	addCorpusCmds(c, s)
	return c
}

// decideReport is what accept and reject print with --json.
type decideReport struct {
	Register  string              `json:"register"`
	Decisions []validate.Decision `json:"decisions"`
}

// runDecide records one status for every id.
func runDecide(ctx context.Context, opts decideOptions) error {
	ds := make([]validate.Decision, len(opts.IDs))
	for i, id := range opts.IDs {
		ds[i] = validate.Decision{ID: id, Status: opts.Status, Note: opts.Note}
	}
	if err := validate.DecideFileContext(ctx, opts.Register, ds); err != nil {
		return err
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, decideReport{Register: opts.Register, Decisions: ds})
	}
	for _, d := range ds {
		fmt.Fprintf(opts.Out, "%s %s\n", d.ID, d.Status)
	}
	return nil
}

// writeIndentedJSON writes v as indented JSON, with <, > and & as
// themselves: inputs like Text('a <b> c') are read by people too. Empty
// lists are [] and empty maps {}, never null (the README's promise for
// every --json).
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonvalue.EmptyLists(v))
}

// reviewOptions are the flags of premise review.
type reviewOptions struct {
	Register string
	Context  int // lines of source shown either side of the evidence
	JSON     bool
	In       io.Reader
	Out      io.Writer
	Err      io.Writer // the questions go here with --json, keeping Out pure JSON
}

func newReviewCmd(s Streams) *cobra.Command {
	opts := reviewOptions{In: s.In, Out: s.Out, Err: s.Err}
	c := &cobra.Command{
		Use:   "review [--register FILE]",
		Short: "Walk the proposed behaviour changes and assumptions one at a time and record decisions",
		Long: `Walk the register's proposed items one at a time. A behaviour change (C001)
shows how base and head differ and the witness inputs, with what each side
did; an assumption (A001) its precondition, and the evidence with its
file:line and the source around it. Answer each with a letter and Enter:

  a  accept: a change is intended (its rows pin the head's outcome); an
     assumption is legitimate: the patch may rely on it, and changes seen
     only on inputs that violate it need no decision
  r  reject: a change is a regression (its rows pin the base's outcome);
     the patch must not rely on an assumption (its rows violate it and
     pin the base's outcome); premise asks for a note
  s  skip: leave it proposed (premise check will still refuse it)
  q  quit: stop here; decisions made so far are kept

  premise review
  premise review --register api/assumptions.yaml

Each decision is written to the register at once, atomically, so an
interrupted review loses nothing. Comments and every other field stay as they
were. Unreviewed proposed rows fail premise check: silence is not assent.
With --json the questions go to stderr and the decisions made are printed
as JSON at the end.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.Context < 0 {
				return fmt.Errorf("premise review: --context %d must not be negative", opts.Context)
			}
			opts.JSON = jsonOn(c)
			inTop(repoTop(c), &opts.Register)
			return runReview(c.Context(), opts)
		},
	}
	exits(c, "0 the review ended: every decision given was recorded", "3 premise could not do its job: bad flags, an invalid register", "130 interrupted by a signal: the decisions made so far are kept")
	f := c.Flags()
	f.StringVar(&opts.Register, "register", "assumptions.yaml", "the assumption register `FILE`")
	f.IntVar(&opts.Context, "context", 3, "lines of source shown either side of the evidence")
	return c
}

// reviewReport is what review prints with --json.
type reviewReport struct {
	Register  string              `json:"register"`
	Decisions []validate.Decision `json:"decisions"`
	Skipped   []string            `json:"skipped"`
	Remaining []string            `json:"remaining"` // still proposed, not shown (quit or end of input)
}

// runReview asks about each proposed item in turn and records each answer
// as soon as it is given.
func runReview(ctx context.Context, opts reviewOptions) error {
	reg, err := validate.LoadRegister(opts.Register)
	if err != nil {
		return err
	}
	var todo []validate.Item
	for _, it := range reg.Items {
		if it.Status == validate.StatusProposed {
			todo = append(todo, it)
		}
	}
	rep := reviewReport{Register: opts.Register, Decisions: []validate.Decision{}, Skipped: []string{}, Remaining: []string{}}
	// With --json the questions go to the error stream, so that standard
	// output holds the JSON report alone.
	out := opts.Out
	if opts.JSON && opts.Err != nil {
		out = opts.Err
	}
	if len(todo) == 0 {
		if opts.JSON {
			return writeIndentedJSON(opts.Out, rep)
		}
		fmt.Fprintf(out, "%s: no proposed assumptions to review\n", opts.Register)
		return nil
	}
	in := bufio.NewScanner(opts.In)
	ask := func(prompt string) (string, bool) {
		fmt.Fprint(out, prompt)
		if !in.Scan() {
			fmt.Fprintln(out)
			return "", false
		}
		return strings.TrimSpace(in.Text()), true
	}
	srcDir := filepath.Dir(opts.Register)
	where := symbolsOfPatch(ctx, srcDir, reg.Provenance)
	ctxLines := func(it validate.Item) []string {
		file, line := it.File, it.Line
		if validate.IsChange(it.ID) {
			// A change item names its symbol: the hunk that changed it.
			file, line = where(it.Symbol)
		}
		if h := diffAround(ctx, srcDir, reg.Provenance, file, line); h != nil {
			return h
		}
		return sourceAround(srcDir, file, line, opts.Context)
	}
	i := 0
	for ; i < len(todo); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		showItem(out, todo[i], i+1, len(todo), ctxLines(todo[i]))
		more, err := decideOne(opts.Register, todo[i], out, ask, &rep)
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	for ; i < len(todo); i++ {
		rep.Remaining = append(rep.Remaining, todo[i].ID)
	}
	if opts.JSON {
		return writeIndentedJSON(opts.Out, rep)
	}
	left := len(rep.Skipped) + len(rep.Remaining)
	fmt.Fprintf(out, "%d decided, %d still proposed\n", len(rep.Decisions), left)
	return nil
}

// decideOne asks about one item until it gets an answer and records it at
// once; more is false when the reviewer quit or the input ended.
func decideOne(register string, it validate.Item, out io.Writer, ask func(string) (string, bool), rep *reviewReport) (more bool, err error) {
	for {
		ans, ok := ask("[a]ccept [r]eject [s]kip [q]uit? ")
		if !ok {
			return false, nil
		}
		var d validate.Decision
		switch strings.ToLower(ans) {
		case "a", "accept":
			d = validate.Decision{ID: it.ID, Status: validate.StatusAccepted}
		case "r", "reject":
			note := ""
			for note == "" {
				if note, ok = ask("note (why): "); !ok {
					return false, nil
				}
			}
			d = validate.Decision{ID: it.ID, Status: validate.StatusRejected, Note: note}
		case "s", "skip":
			rep.Skipped = append(rep.Skipped, it.ID)
			fmt.Fprintf(out, "%s left proposed\n\n", it.ID)
			return true, nil
		case "q", "quit":
			return false, nil
		default:
			fmt.Fprintf(out, "answer a, r, s or q\n")
			continue
		}
		if err := validate.DecideFile(register, []validate.Decision{d}); err != nil {
			return false, err
		}
		rep.Decisions = append(rep.Decisions, d)
		fmt.Fprintf(out, "%s %s\n\n", it.ID, d.Status)
		return true, nil
	}
}

// showItem prints one assumption for review: what it says and where the
// diff says it.
func showItem(w io.Writer, it validate.Item, n, total int, around []string) {
	fmt.Fprintf(w, "%s (%d of %d)  %s\n", it.ID, n, total, it.Symbol)
	if validate.IsChange(it.ID) {
		showChange(w, it, around)
		return
	}
	fmt.Fprintf(w, "  precondition: %s\n", it.Precondition)
	where := ""
	if it.File != "" {
		where = it.File
		if it.Line > 0 {
			where = fmt.Sprintf("%s:%d", it.File, it.Line)
		}
		where += "  "
	}
	fmt.Fprintf(w, "  evidence:     %s%s\n", where, it.Evidence)
	if it.Source != "" {
		fmt.Fprintf(w, "  proposed by:  %s\n", it.Source)
	}
	if it.Stale {
		fmt.Fprintf(w, "  stale:        the current diff no longer supports it\n")
	}
	for _, l := range around {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "  accept: legitimate, the patch may rely on it (changes seen only where it is violated need no decision); reject: the patch must not rely on it (rows violating it pin the base's outcome)\n")
	fmt.Fprintln(w)
}

// symbolsOfPatch returns where each changed symbol of the register's
// patch is: its file and its first changed line on the head, read from
// the diff of the merge-base and the head the register was proposed for
// (once, when first asked). It answers "", 0 for a symbol it cannot find.
func symbolsOfPatch(ctx context.Context, dir string, prov *validate.Provenance) func(symbol string) (string, int) {
	var at map[string]diffparse.Symbol
	var files map[string]string
	return func(symbol string) (string, int) {
		if at == nil {
			at, files = map[string]diffparse.Symbol{}, map[string]string{}
			base := ""
			if prov != nil {
				base = cmp.Or(prov.MergeBase, prov.Base)
			}
			if base == "" || prov.Head == "" {
				return "", 0
			}
			res, err := diffparse.Load(ctx, diffparse.Config{Repo: dir, Base: base, Head: prov.Head})
			if err != nil {
				return "", 0
			}
			for _, f := range res.Files {
				for _, s := range f.Symbols {
					if _, ok := at[s.Name]; !ok && s.Change != "deleted" {
						at[s.Name], files[s.Name] = s, f.Path
					}
				}
			}
		}
		s, ok := at[symbol]
		if !ok {
			return "", 0
		}
		line := s.Start
		if len(s.ChangedLines) > 0 {
			line = s.ChangedLines[0]
		}
		return files[symbol], line
	}
}

// diffAround returns the hunk of the patch that holds the evidence line,
// from the merge-base to the head the register was proposed for, each line
// marked as the diff marks it and the evidence line with ">". It returns
// nil when that cannot be had (no provenance, no repository, no such hunk):
// the reviewer then sees the source around the line instead.
func diffAround(ctx context.Context, dir string, prov *validate.Provenance, file string, line int) []string {
	if prov == nil || prov.Head == "" || file == "" || line <= 0 {
		return nil
	}
	base := prov.MergeBase
	if base == "" {
		base = prov.Base
	}
	if base == "" {
		return nil
	}
	repo, err := git.Open(ctx, dir)
	if err != nil {
		return nil
	}
	out, err := repo.Run(ctx, "diff", "--no-color", "--no-ext-diff", "-U3", base, prov.Head, "--", file)
	if err != nil {
		return nil
	}
	var hunk []string
	found := false
	newLine := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "@@") {
			if found {
				break
			}
			hunk = []string{""}
			var a, b, c, d int
			if n, _ := fmt.Sscanf(l, "@@ -%d,%d +%d,%d", &a, &b, &c, &d); n < 3 {
				if _, err := fmt.Sscanf(l, "@@ -%d +%d", &a, &c); err != nil {
					return nil
				}
			}
			newLine = c
			continue
		}
		if hunk == nil || l == "" || l[0] == '\\' {
			continue
		}
		switch l[0] {
		case '-':
			hunk = append(hunk, fmt.Sprintf("        - | %s", l[1:]))
		case '+', ' ':
			mark := "  "
			if newLine == line {
				mark, found = "> ", true
			}
			hunk = append(hunk, fmt.Sprintf("  %s%4d %c | %s", mark, newLine, l[0], l[1:]))
			newLine++
		}
	}
	if !found {
		return nil
	}
	return hunk
}

// sourceAround returns the lines around line of file, the evidence line
// marked, or nothing when the file cannot be read (a deleted file, a
// register reviewed away from its checkout).
func sourceAround(dir, file string, line, context int) []string {
	if file == "" || line <= 0 {
		return nil
	}
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, file)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil
	}
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		return nil
	}
	lo, hi := max(1, line-context), min(len(lines), line+context)
	out := []string{""}
	for i := lo; i <= hi; i++ {
		mark := "   "
		if i == line {
			mark = ">  "
		}
		out = append(out, fmt.Sprintf("  %s%4d | %s", mark, i, lines[i-1]))
	}
	return out
}

// showChange prints one behaviour change for review: how base and head
// differ, on which inputs, through which callers, and the hunk of the
// patch that changed its symbol.
func showChange(w io.Writer, it validate.Item, around []string) {
	fmt.Fprintf(w, "  change:       %s\n", it.Way)
	for i, wt := range it.Witnesses {
		label := "  witness:      "
		if i > 0 {
			label = "                "
		}
		fmt.Fprintf(w, "%s%s: base %s, head %s\n", label, wt.Input, wt.Base, wt.Head)
	}
	if len(it.Callers) > 0 {
		fmt.Fprintf(w, "  seen through: %s\n", strings.Join(it.Callers, ", "))
	}
	if len(it.Assumptions) > 0 {
		fmt.Fprintf(w, "  seen only on inputs that violate %s (accepting one explains it)\n", strings.Join(it.Assumptions, ", "))
	}
	for _, l := range around {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "  accept: the change is intended (rows pin the head's outcome); reject: a regression (rows pin the base's)\n")
}

// noteWanted says what a rejection's note says, in the word of each kind
// of item: a change is a regression, an assumption must not be relied on.
func noteWanted(ids []string) string {
	var changes, assumptions []string
	for _, id := range ids {
		if validate.IsChange(id) {
			changes = append(changes, id)
		} else {
			assumptions = append(assumptions, id)
		}
	}
	var parts []string
	if len(changes) > 0 {
		parts = append(parts, fmt.Sprintf("say why %s %s a regression", strings.Join(changes, ", "), pick(len(changes) == 1, "is", "are")))
	}
	if len(assumptions) > 0 {
		parts = append(parts, fmt.Sprintf("why the patch must not rely on %s", strings.Join(assumptions, ", ")))
	}
	if len(changes) == 0 {
		parts[0] = "say " + parts[0]
	}
	return strings.Join(parts, ", and ")
}
