package lang

import (
	"fmt"
	"slices"
	"testing"
)

// TestPositionRows: the position walks every place of the short texts
// holding each of the function's characters, a few texts a character, so
// that "\n"'s many texts leave room for "\r"'s; the other parameters keep
// their typical values, and a function of no such character gets none.
func TestPositionRows(t *testing.T) {
	pools := [][]any{{"abc", "\n", "\n\n", "a\n", "a\nb", "x\r", "a very long text\r"}, {0, 5}, {true, false}}
	var got []string
	PositionRows(0, 1, pools, []string{"\n", "\r", "ab"}, UTF16Length, func(vals []any) {
		got = append(got, fmt.Sprintf("%q %v %v", vals[0], vals[1], vals[2]))
	})
	want := []string{
		`"\n" 0 true`, `"\n" 1 true`,
		`"\n\n" 0 true`, `"\n\n" 1 true`, `"\n\n" 2 true`,
		`"x\r" 0 true`, `"x\r" 1 true`, `"x\r" 2 true`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows\n%v\nwant\n%v", got, want)
	}
	got = nil
	PositionRows(0, 1, pools, []string{"ab"}, UTF16Length, func(vals []any) { got = append(got, fmt.Sprint(vals)) })
	if len(got) != 0 {
		t.Errorf("a function of letters alone got position rows: %v", got)
	}
}
