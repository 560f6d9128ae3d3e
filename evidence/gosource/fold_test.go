package gosource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGoFoldedNumbers: a boundary written as arithmetic of literals is the
// number the compiler folds it to, first among the function's numbers, a
// negative literal with its sign; what holds a name folds to nothing.
func TestGoFoldedNumbers(t *testing.T) {
	got := WithFolded([]float64{7}, `func Clamp(n int) int {
	if n == -(7 * 1111) || n > 24*60*60 || n < -3 {
		return n &^ (1<<20 - 1)
	}
	return n*7 + 10/4 + 1<<300
}`)
	want := []float64{-7777, 7777, 86400, 1440, -3, 1048575, 1048576, 2}
	if diff := cmp.Diff(append(want, 7), got); diff != "" {
		t.Errorf("(-want +got):\n%s\nreason: -(7 * 1111) is -7777, 24*60*60 is 86400 (and its 24*60 1440), 10/4 is 2 (integer division), a shift past 256 and n*7 fold to nothing", diff)
	}
}
