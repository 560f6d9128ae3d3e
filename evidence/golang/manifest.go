package golang

import (
	"path"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// ManifestChanges names the replace directives a patch adds, changes or
// removes in a go.mod: each swaps the code behind a module's import path
// (a fork in the tree, another version), so every function calling into
// it may answer otherwise, and premise compares none of them for it.
func (*goLang) ManifestChanges(f diffparse.File) []string {
	if path.Base(f.Path) != "go.mod" {
		return nil
	}
	var added, removed []string
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind != '+' && l.Kind != '-' || !strings.Contains(stripModComment(l.Text), "=>") {
				continue
			}
			if l.Kind == '+' {
				added = append(added, lang.LineText(l.New, strings.TrimSpace(l.Text)))
			} else {
				removed = append(removed, lang.LineText(l.Old, strings.TrimSpace(l.Text))+" (removed)")
			}
		}
	}
	if len(added) > 0 {
		// A directive changed is its new line; one only removed is
		// its old.
		return added
	}
	return removed
}

// stripModComment is a go.mod line without its // comment.
func stripModComment(s string) string {
	s, _, _ = strings.Cut(s, "//")
	return s
}
