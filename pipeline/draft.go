package pipeline

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/markdown"
	"github.com/premise-dev/premise/validate"
)

// writeDraft writes draft.md, the Markdown a reviewer pastes into the PR:
// each assumption with where the diff shows it, its status, and what the
// differential rows saw (issue 7).
func (p *run) writeDraft() error {
	var b bytes.Buffer
	renderDraft(&b, p.reg, p.sum)
	if p.drafted {
		// Rewritten after the gate ran: its verdict reaches the reviewer
		// (issue 25), the file already listed as written.
		return atomicfile.WriteFile(p.path(DraftFile), b.Bytes(), 0o644)
	}
	p.drafted = true
	return p.writeFile(DraftFile, b.Bytes())
}

func renderDraft(b *bytes.Buffer, reg *validate.Register, sum *Summary) {
	fmt.Fprintf(b, "## premise: what this patch assumes\n\n")
	fmt.Fprintf(b, "Base `%s`, head `%s`; %d changed %s; proposer `%s`.\n\n",
		short(sum.MergeBase), short(sum.Head), sum.Symbols, plural(sum.Symbols, "symbol", "symbols"), sum.Proposer)
	renderVerdict(b, reg, sum)

	byAssumption := map[string][]BehaviorChange{}
	for _, c := range sum.BehaviorChanges {
		if len(c.Assumptions) == 0 {
			byAssumption[""] = append(byAssumption[""], c)
		}
		for _, id := range c.Assumptions {
			byAssumption[id] = append(byAssumption[id], c)
		}
	}
	if len(reg.Items) == 0 {
		b.WriteString("No assumptions were proposed.\n\n")
	} else {
		b.WriteString("| id | status | symbol | precondition | evidence | behaviour seen |\n")
		b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
		for _, it := range reg.Items {
			status := it.Status
			if it.Stale {
				status += " (stale)"
			}
			where := markdown.Code(it.Evidence)
			if it.File != "" {
				where = fmt.Sprintf("%s<br>%s:%d", where, markdown.Cell(it.File), it.Line)
			}
			seen := "no change on its rows"
			if validate.IsChange(it.ID) {
				seen = "**" + markdown.Cell(it.Evidence) + "**"
				if len(it.Callers) > 0 {
					seen += "<br>through " + markdown.Cell(strings.Join(it.Callers, ", "))
				}
				where = markdown.Cell(it.Way)
			} else if cs := byAssumption[it.ID]; len(cs) > 0 {
				var parts []string
				shown, more := Shown(cs)
				for _, c := range shown {
					parts = append(parts, changeText(c))
				}
				if n := total(more); n > 0 {
					parts = append(parts, fmt.Sprintf("and %d more", n))
				}
				seen = "**" + markdown.Cell(strings.Join(parts, "; ")) + "**"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", it.ID, status, markdown.Code(it.Symbol), markdown.Cell(it.Precondition), where, seen)
		}
		b.WriteString("\n")
	}
	if cs := byAssumption[""]; len(cs) > 0 {
		b.WriteString("### Other behaviour changes\n\n")
		b.WriteString("Signature-driven boundary rows found these on symbols the assumptions above cover; check that one of them explains each.\n\n")
		listChanges(b, cs, reg)
	}
	if len(sum.Unexplained) > 0 {
		b.WriteString("### Behaviour changes no assumption explains\n\n")
		b.WriteString("Signature-driven boundary rows found these; the proposer named nothing for them. Each is held by the change item named beside it.\n\n")
		listChanges(b, sum.Unexplained, reg)
	}
	if len(sum.NewFunctions) > 0 {
		b.WriteString("### New functions that raise\n\n")
		b.WriteString("Functions the patch adds have no base to compare with; their rows ran on the head alone and raised these, on inputs they take. Read each: a precondition to name, or a bug.\n\n")
		listChanges(b, sum.NewFunctions, reg)
	}
	if len(sum.OutsideType) > 0 {
		b.WriteString("### Differences on inputs no caller can pass\n\n")
		b.WriteString("Base and head differ here only on an argument outside its parameter's type as the code reads it; no decision waits on these.\n\n")
		for _, c := range sum.OutsideType {
			fmt.Fprintf(b, "- %s: %s: base %s, head %s (%s)\n", markdown.Code(c.Symbol), markdown.Code(c.Input), markdown.Cell(c.Base), markdown.Cell(c.Head), markdown.Cell(c.OutsideType))
		}
		b.WriteString("\n")
	}
	if len(sum.Findings) > 0 {
		b.WriteString("### Findings\n\n")
		for _, f := range sum.Findings {
			fmt.Fprintf(b, "- %s:%d (%s): %s\n", markdown.Cell(f.File), f.Line, f.Rule, markdown.Cell(f.Message))
		}
		b.WriteString("\n")
	}
	for _, e := range sum.HeadBroken {
		fmt.Fprintf(b, "**The head does not load where the base does**: %s\n\n", markdown.Cell(e))
	}
	for _, e := range sum.EvidenceSkipped {
		fmt.Fprintf(b, "Evidence rows could not run: %s\n\n", markdown.Cell(e))
	}
	for _, e := range sum.EvidenceNotes {
		fmt.Fprintf(b, "Evidence: %s\n\n", markdown.Cell(e))
	}
	fmt.Fprintf(b, "%d boundary rows ran against base and head; %d changed behaviour.\n",
		sum.EvidenceRows, len(sum.BehaviorChanges)+len(sum.Unexplained))
	renderReach(b, sum.EvidenceSymbols)
	renderNext(b, reg)
}

// renderNext ends the draft with what the reviewer does next: decide the
// items still awaiting a decision or, once every one is decided, how to
// change a decision (the draft once asked to decide items already
// decided, beside the gate's verdict on them).
func renderNext(b *bytes.Buffer, reg *validate.Register) {
	if reg == nil || len(reg.Items) == 0 {
		return
	}
	if ids := reg.Awaiting(); len(ids) > 0 {
		fmt.Fprintf(b, "\nDecide each item (%s): `premise accept C001` (the change is intended), `premise reject C001 --note \"why\"` (a regression); `premise accept A001` (the precondition is legitimate), `premise reject A001 --note \"why\"` (the patch must not rely on it); or `premise review`.\n",
			strings.Join(ids, ", "))
		return
	}
	b.WriteString("\nEvery item is decided. To change a decision: `premise accept ID` (the change is intended; the precondition is legitimate) or `premise reject ID --note \"why\"` (a regression; the patch must not rely on it), then `premise run` again.\n")
}

// renderVerdict says where the run stands: the gate's verdict and its
// failing rows once a gate ran (issue 25: after the gate failed, the draft
// still read "no change on its rows"), else how many items await a
// decision.
func renderVerdict(b *bytes.Buffer, reg *validate.Register, sum *Summary) {
	if g := sum.Gate; g != nil {
		fmt.Fprintf(b, "**Gate: %s (exit %d)**: %d rows, %d pass, %d fail, %d error, %d flaky, %d frozen.\n\n",
			sum.Verdict, sum.Exit, g.Rows, g.Pass, g.Fail, g.Error, g.Flakes, g.Frozen)
		if g.Report != nil {
			for _, r := range g.Report.Rows {
				if r.Gates() && r.Status != "pass" {
					fmt.Fprintf(b, "- %s `%s` %s `%s`: %s\n", strings.ToUpper(r.Status), r.ID, markdown.Cell(r.Cls), markdown.Cell(r.Target), markdown.Cell(r.Why))
				}
			}
			b.WriteString("\n")
		}
		return
	}
	if reg == nil {
		return
	}
	if ids := reg.Awaiting(); len(ids) > 0 {
		fmt.Fprintf(b, "**Awaiting review**: %d %s a decision (%s); the gate holds nothing until every one is decided.\n\n",
			len(ids), plural(len(ids), "item awaits", "items await"), strings.Join(ids, ", "))
	}
}

// changeText is one behaviour change in words, with the source that made
// its input: "E004 merge_ranges([[4, 6], [0, 1]]): base returned [[0, 1],
// [4, 6]], head returned [[4, 6]] [input: template]".
func changeText(c BehaviorChange) string {
	s := fmt.Sprintf("%s %s: base %s, head %s", c.Row, inputText(c.Symbol, c.Input), c.Base, c.Head)
	if c.SpecChange {
		s += " (an input base refused now succeeds)"
	}
	if c.Heuristic != "" {
		s += " [input: " + c.Heuristic + "]"
	}
	return s
}

// inputText is a change's input as a reviewer reads it: a call,
// merge(([1, 2])), or what else showed the change (the base's test ...).
func inputText(symbol, input string) string {
	if strings.HasPrefix(input, "(") {
		return shortSymbol(symbol) + input
	}
	return input
}

func shortSymbol(s string) string {
	if i := strings.LastIndexAny(s, "./"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// listChanges writes the changes a reviewer reads first, the smallest few
// of each symbol, and how many more each has; a change a change item
// holds names it and its decision.
func listChanges(b *bytes.Buffer, cs []BehaviorChange, reg *validate.Register) {
	shown, more := Shown(cs)
	for i, c := range shown {
		fmt.Fprintf(b, "- %s: %s%s\n", markdown.Code(c.Symbol), markdown.Cell(changeText(c)), itemNote(c, reg))
		if last := i == len(shown)-1 || shown[i+1].Symbol != c.Symbol; last && more[c.Symbol] > 0 {
			fmt.Fprintf(b, "- %s: and %d more (`premise run --json` lists every one)\n", markdown.Code(c.Symbol), more[c.Symbol])
		}
	}
	b.WriteString("\n")
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// renderReach says how many of the changed lines the rows (and the
// base's tests) ran, and names, per symbol, the changed lines none ran (issue 24: "rows ran" is not
// "the change was executed").
func renderReach(b *bytes.Buffer, syms []evidence.SymbolRows) {
	changed, reached, byTests := 0, 0, 0
	var missed []string
	for _, s := range syms {
		if s.Coverage == nil {
			continue
		}
		for _, side := range []struct {
			name string
			c    *evidence.SideCoverage
		}{{"head", s.Coverage.Head}, {"base", s.Coverage.Base}} {
			if side.c == nil {
				continue
			}
			changed += side.c.Changed
			reached += side.c.Reached
			byTests += side.c.ByTests
			for _, u := range side.c.Unreached {
				missed = append(missed, fmt.Sprintf("%s: line %d %s never ran on the %s", markdown.Code(s.Symbol), u.Line, markdown.Code(u.Text), side.name))
			}
		}
	}
	if changed == 0 {
		return
	}
	switch {
	case byTests == 0:
		fmt.Fprintf(b, "The rows ran %d of the %d changed lines (head and base).\n", reached, changed)
	case byTests == reached:
		fmt.Fprintf(b, "The base's tests ran %d of the %d changed lines (head and base), on both sides; no row ran one.\n", reached, changed)
	default:
		fmt.Fprintf(b, "The rows ran %d of the %d changed lines (head and base), and the base's tests %d more, on both sides.\n", reached-byTests, changed, byTests)
	}
	const most = 10
	for i, m := range missed {
		if i == most {
			fmt.Fprintf(b, "- and %d more\n", len(missed)-most)
			break
		}
		fmt.Fprintf(b, "- %s\n", m)
	}
}

// itemNote is " (C001, accepted)": the change item holding a change and
// its status; "" when none does.
func itemNote(c BehaviorChange, reg *validate.Register) string {
	if c.Item == "" || reg == nil {
		return ""
	}
	it := reg.Lookup(c.Item)
	if it == nil {
		return ""
	}
	return fmt.Sprintf(" (%s, %s)", it.ID, it.Status)
}
