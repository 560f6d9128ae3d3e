package batch

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/premise-dev/premise/internal/markdown"
)

// WriteText prints the summary for a human: the totals, then one line per
// PR, riskiest first.
func WriteText(w io.Writer, s *Summary) error {
	t := s.Totals
	shard := ""
	if s.Shard != "" {
		shard = " (shard " + s.Shard + ")"
	}
	fmt.Fprintf(w, "premise batch%s: %d PRs: %d ran, %d resumed, %d could not run; %d behaviour changes; %d requests, %d cache hits, %d tokens\n",
		shard, t.PRs, t.Ran, t.Resumed, t.Failed, t.BehaviorChanges, t.Requests, t.CacheHits, t.Tokens)
	for _, r := range s.PRs {
		if r.Error != "" {
			fmt.Fprintf(w, "  %-8s %-12s ERROR %s\n", r.label(), short(r.Head), r.Error)
			continue
		}
		fmt.Fprintf(w, "  %-8s %-12s risk %-3d %d symbols, %d rows kept of %d%s, %d behaviour changes: %s%s\n",
			r.label(), short(r.Head), r.Risk, len(r.ChangedSymbols), r.Kept, r.Proposed, droppedText(r.Dropped),
			r.BehaviorChanges+r.Unexplained, r.Verdict, checkText(r.Check))
	}
	_, err := fmt.Fprintln(w, "wrote summary.json, summary.md and one directory per PR")
	return err
}

// WriteMarkdown writes the summary as the dashboard a maintainer posts as
// an issue: one table row per PR, riskiest first, failures after.
func WriteMarkdown(w io.Writer, s *Summary) error {
	b, err := markdownBytes(s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func markdownBytes(s *Summary) ([]byte, error) {
	var b bytes.Buffer
	t := s.Totals
	b.WriteString("## premise: open pull requests\n\n")
	if s.Shard != "" {
		fmt.Fprintf(&b, "Shard %s of the batch.\n\n", s.Shard)
	}
	fmt.Fprintf(&b, "%d pull requests: %d ran, %d resumed from earlier output, %d could not run; %d behaviour changes; %d model requests, %d cache hits, %d tokens.\n\n",
		t.PRs, t.Ran, t.Resumed, t.Failed, t.BehaviorChanges, t.Requests, t.CacheHits, t.Tokens)
	b.WriteString("Ordered by risk: each behaviour change and a head that does not load weigh 10, a finding 3, a changed symbol 1.\n\n")
	b.WriteString("| PR | head | risk | changed symbols | rows kept / proposed | dropped | behaviour changes | verdict | tokens | time |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	var failed []Record
	for _, r := range s.PRs {
		if r.Error != "" {
			failed = append(failed, r)
			continue
		}
		verdict := markdown.Cell(r.Verdict) + markdown.Cell(checkText(r.Check))
		if r.BehaviorChanges+r.Unexplained > 0 {
			verdict = "**" + verdict + "**"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %d | %s | %d / %d | %s | %d | %s | %d | %.1fs |\n",
			markdown.Cell(prTitle(r)), short(r.Head), r.Risk, symbolsCell(r.ChangedSymbols), r.Kept, r.Proposed,
			orNone(markdown.Cell(strings.TrimPrefix(strings.TrimSuffix(droppedText(r.Dropped), ")"), " (dropped: "))),
			r.BehaviorChanges+r.Unexplained, verdict, r.PromptTokens+r.CompletionTokens, r.Seconds)
	}
	if len(failed) > 0 {
		b.WriteString("\n### Could not run\n\n")
		for _, r := range failed {
			fmt.Fprintf(&b, "- %s: %s\n", markdown.Cell(prTitle(r)), markdown.Cell(r.Error))
		}
	}
	b.WriteString("\nEach PR's draft for review is in `<pr>/draft.md`, its register in `<pr>/assumptions.yaml`.\n")
	return b.Bytes(), nil
}

func prTitle(r Record) string {
	s := r.label()
	if r.Title != "" {
		s += " " + r.Title
	}
	return s
}

func (r Record) label() string {
	if r.Number > 0 {
		return fmt.Sprintf("#%d", r.Number)
	}
	return r.ID
}

func symbolsCell(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	const show = 3
	var parts []string
	for i, n := range names {
		if i == show {
			parts = append(parts, fmt.Sprintf("and %d more", len(names)-show))
			break
		}
		parts = append(parts, markdown.Code(n))
	}
	return strings.Join(parts, ", ")
}

func droppedText(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return " (dropped: " + strings.Join(parts, ", ") + ")"
}

func checkText(c *CheckOutcome) string {
	switch {
	case c == nil:
		return ""
	case c.OK:
		return "; check holds"
	case len(c.Findings) > 0:
		return "; check fails: " + c.Findings[0]
	}
	return "; check fails"
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
