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
