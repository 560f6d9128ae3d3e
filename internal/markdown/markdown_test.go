package markdown

import (
	"strings"
	"testing"
)

func TestCellAndCode(t *testing.T) {
	tests := []struct {
		fn   func(string) string
		in   string
		want string
	}{
		{Cell, "a | b\nc\t d", `a \| b c d`},
		{Code, "for x in xs:", "`for x in xs:`"},
		{Code, "s = `raw` | t", "``s = `raw` \\| t``"},
		{Code, "``", "``` `` ```"},
		{Code, "", ""},
	}
	for _, tc := range tests {
		if got := tc.fn(tc.in); got != tc.want {
			t.Errorf("(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCellIsData: text a subject or a model wrote opens no tag, comment,
// link or image (issue 26, item 6); premise's own code spans stay code.
func TestCellIsData(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<img src=x onerror=alert(1)>`, `&lt;img src=x onerror=alert(1)&gt;`},
		{`<!-- premise:comment -->`, `&lt;!-- premise:comment --&gt;`},
		{`![x](https://evil.invalid/p.png)`, `!\[x\](https://evil.invalid/p.png)`},
		{"`n >= 0` (other inputs now raise)", "`n >= 0` (other inputs now raise)"},
		{"an ` unmatched <b>", "an \\` unmatched &lt;b&gt;"},
		{"a | b", `a \| b`},
	}
	for _, tc := range tests {
		if got := Cell(tc.in); got != tc.want {
			t.Errorf("Cell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// unescapedPipe says s holds a | no backslash escapes: it would end a
// table cell early.
func unescapedPipe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			return true
		}
	}
	return false
}

// FuzzCellAndCode: whatever a subject prints, a cell stays one cell on
// one line: no newline, no | that ends it, and a Code span is fenced.
func FuzzCellAndCode(f *testing.F) {
	for _, s := range []string{"a | b", "`x|y`", "``", "<b>&</b>", "[link](x)", "a\nb", "\\|", "```a``"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, fn := range map[string]func(string) string{"Cell": Cell, "Code": Code} {
			out := fn(s)
			if strings.ContainsAny(out, "\n\r") {
				t.Fatalf("%s(%q) = %q: a newline breaks the table", name, s, out)
			}
			if unescapedPipe(out) {
				t.Fatalf("%s(%q) = %q: an unescaped | ends the cell", name, s, out)
			}
		}
		if out := Code(s); out != "" && (!strings.HasPrefix(out, "`") || !strings.HasSuffix(out, "`")) {
			t.Fatalf("Code(%q) = %q: not fenced", s, out)
		}
	})
}
