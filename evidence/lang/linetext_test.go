package lang

import (
	"strings"
	"testing"
)

// TestLineTextIsData: a line the patch wrote, quoted in a report, carries
// no escape sequence, bidirectional override or backtick to a terminal or
// a Markdown page, and stays one short line.
func TestLineTextIsData(t *testing.T) {
	got := LineText(3, "\tx.y = \"\x1b[2J\u202e`<img src=x>\" "+strings.Repeat("a", 200))
	if strings.ContainsAny(got[len("line 3 `"):len(got)-1], "\x1b\u202e`\t") {
		t.Errorf("LineText left a control character or a backtick: %q", got)
	}
	if !strings.HasPrefix(got, "line 3 `x.y = ") || !strings.HasSuffix(got, "...`") || len([]rune(got)) > 100 {
		t.Errorf("LineText = %q, want line 3, the text, cut to 80 characters", got)
	}
}
