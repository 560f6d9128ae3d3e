// Package markdown escapes text for the Markdown premise writes for pull
// requests: the register table of premise propose, draft.md, and the gate's
// report.
package markdown

import "strings"

// Cell makes s safe inside a table cell: whitespace, newlines included, is
// folded to single spaces and pipes are escaped.
func Cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// Code quotes s as inline code inside a table cell, with a fence longer
// than any run of backticks in it, so quoted source never breaks the table.
func Code(s string) string {
	s = Cell(s)
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}
