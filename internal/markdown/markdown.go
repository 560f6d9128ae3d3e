// Package markdown escapes text for the Markdown premise writes for pull
// requests: the register table of premise propose, draft.md, and the gate's
// report.
package markdown

import "strings"

// Cell makes s safe inside a table cell, and as Markdown text anywhere:
// whitespace, newlines included, is folded to single spaces and pipes are
// escaped; outside code spans (text between matching backtick runs, where
// HTML is inert) HTML is escaped as entities and brackets with a
// backslash, so text a subject or a model wrote cannot open a tag, a
// comment (premise's own comment marker), a link or an image (issue 26,
// item 6). Code spans are kept: premise writes `n >= 0` in preconditions.
func Cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := run(s, i)
			if end := closing(s, i+n, n); end >= 0 {
				b.WriteString(strings.ReplaceAll(s[i:end+n], "|", `\|`))
				i = end + n
				continue
			}
			b.WriteString(strings.Repeat("\\`", n))
			i += n
			continue
		}
		switch c {
		case '|':
			b.WriteString(`\|`)
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '[', ']', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// run is the length of the run of backticks at s[i].
func run(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closing is the index of the next run of exactly n backticks from i, or
// -1: CommonMark's rule for where a code span ends.
func closing(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		m := run(s, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// Code quotes s as inline code inside a table cell, with a fence longer
// than any run of backticks in it, so quoted source never breaks the table.
func Code(s string) string {
	s = strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
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
