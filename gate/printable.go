package gate

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Printable is s with what a terminal or a reviewer's screen would act on
// escaped: C0 and C1 control characters (but newline and tab), DEL, and
// the bidirectional overrides that reorder what a line seems to say, each
// as \xNN or \uNNNN; invalid UTF-8 as U+FFFD. The worker's replies are
// made printable once, where they are decoded (issue 26, item 6): what a
// subject puts in an exception message or prints before it crashes is
// data, never an escape sequence on the reviewer's terminal.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if unprintable(r) {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case !unprintable(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func unprintable(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
		return true
	}
	return false
}

// FailureText is how a test failed as a report shows it: one line of the
// head's output, escaped (Printable), at most 200 bytes.
func FailureText(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = Printable(s)
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "..."
	}
	return s
}
