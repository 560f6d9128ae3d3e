package lang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLengthPairs: a number parameter compared with another's length
// (len(x), JavaScript's x.length rewritten so), on either side of the
// operator, === among them; a comparison with a local or a literal, or of
// two lengths, is none.
func TestLengthPairs(t *testing.T) {
	params := []Param{{Name: "text1"}, {Name: "text2"}, {Name: "cursor_pos"}}
	js := `if (cursor_pos < 0 || len(text1) < cursor_pos) {}
if (len(text2) > 3) {}
if (n >= len(text2)) {}
if (len(text1) === len(text2)) {}`
	if got, want := LengthPairs(js, params), []LengthPair{{Of: 0, Num: 2}}; !cmp.Equal(got, want) {
		t.Errorf("javascript: %v, want %v", got, want)
	}
	py := `if cursor_pos >= len(text2):`
	if got, want := LengthPairs(py, params), []LengthPair{{Of: 1, Num: 2}}; !cmp.Equal(got, want) {
		t.Errorf("python: %v, want %v", got, want)
	}
}

// TestLengthRows: the number at the measured value's length and a step
// either side, for its first non-empty values, on the typical call and
// with another parameter at its second value (two texts that differ).
func TestLengthRows(t *testing.T) {
	pools := [][]any{{"", "abc", "ab"}, {"", "x"}, {0, 1}}
	var got [][]any
	LengthRows([]LengthPair{{Of: 0, Num: 2}}, pools, UTF16Length, func(vals []any) { got = append(got, vals) })
	want := [][]any{
		{"abc", "", 2}, {"abc", "", 3}, {"abc", "", 4},
		{"abc", "x", 2}, {"abc", "x", 3}, {"abc", "x", 4},
		{"ab", "", 1}, {"ab", "", 2}, {"ab", "", 3},
		{"ab", "x", 1}, {"ab", "x", 2}, {"ab", "x", 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var units []any
	LengthRows([]LengthPair{{Of: 0, Num: 1}}, [][]any{{"\U0001F436"}, {0}}, UTF16Length, func(vals []any) { units = append(units, vals[1]) })
	if want := []any{1, 2, 3}; !cmp.Equal(units, want) {
		t.Errorf("an emoji's length: %v, want %v (JavaScript counts UTF-16 code units)", units, want)
	}
}
