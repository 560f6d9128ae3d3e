package pipeline

import (
	"fmt"
	"io"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/annotate"
)

// WriteGitHub writes a run's findings as GitHub Actions workflow commands,
// at the evidence lines: each behaviour change at the line its assumption
// quotes (a warning: a human decides), each change no assumption explains
// and each head that does not load as an error, each finding (Trojan
// Source) at its line, each failing gate row at its line of the table.
func WriteGitHub(w io.Writer, s *Summary) error {
	where := map[string][2]any{}
	if s.reg != nil {
		for _, it := range s.reg.Items {
			where[it.ID] = [2]any{it.File, it.Line}
		}
	}
	symbolAt := map[string][2]any{}
	if s.diff != nil {
		for _, f := range s.diff.Files {
			for _, sym := range f.Symbols {
				symbolAt[sym.Name] = [2]any{f.Path, sym.Start}
			}
		}
	}
	// at is where a change shows: the line its assumption quotes, else the
	// changed symbol's first line at head.
	at := func(c BehaviorChange) (string, int) {
		for _, id := range c.Assumptions {
			if a, ok := where[id]; ok && a[0] != "" {
				return a[0].(string), a[1].(int)
			}
		}
		if a, ok := symbolAt[c.Symbol]; ok {
			return a[0].(string), a[1].(int)
		}
		return "", 0
	}
	aw := func(level, file string, line int, title, msg string) {
		_ = annotate.Write(w, level, file, line, title, msg)
	}
	for _, c := range s.BehaviorChanges {
		file, line := at(c)
		aw(annotate.Warning, file, line, "premise behaviour change "+c.Row, changeText(c))
	}
	for _, c := range s.Unexplained {
		file, line := at(c)
		if c.Item != "" {
			aw(annotate.Warning, file, line, "premise behaviour change "+c.Item, changeText(c)+": "+c.Item+" decides it (premise accept: intended; premise reject: a regression)")
			continue
		}
		aw(annotate.Error, file, line, "premise unexplained behaviour change", changeText(c)+": no assumption names it")
	}
	for _, f := range s.Findings {
		aw(annotate.Error, f.File, f.Line, "premise "+f.Rule, f.Message)
	}
	for _, e := range s.HeadBroken {
		aw(annotate.Error, "", 0, "premise the head does not load", e)
	}
	for _, u := range s.Unsigned {
		aw(annotate.Error, "", 0, "premise blocked by policy", u)
	}
	if g := s.Gate; g != nil && g.Report != nil {
		for _, r := range g.Report.Rows {
			if r.Gates() && r.Status != gate.StatusPass {
				aw(annotate.Error, g.Report.Source, r.Line, fmt.Sprintf("premise gate %s %s", r.ID, r.Status), r.Why)
			}
		}
	}
	if s.Exit != 0 {
		aw(annotate.Error, "", 0, "premise run "+s.Verdict, s.Next)
	}
	return nil
}
