package markdown

import "testing"

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
