package evidence_test

import (
	"strings"
	"testing"
)

// A Go function over iterators (iter.Seq, Go 1.23) takes a sequence built
// from a list of its element's values and returns one read back as a
// list: before, no value could be built for an iter.Seq parameter, and a
// returned one had no JSON form on either side, so nothing was compared.
func TestGoIteratorsAreBuiltAndRead(t *testing.T) {
	t.Parallel()
	mod := "module example.com/seqs\n\ngo 1.23\n"
	base := `package seqs

import "iter"

// Evens yields the even values of in, in order.
func Evens(in iter.Seq[int]) iter.Seq[int] {
	return func(yield func(int) bool) {
		for v := range in {
			if v%2 == 0 && !yield(v) {
				return
			}
		}
	}
}

// Count is how many values in yields.
func Count[T any](in iter.Seq[T]) int {
	n := 0
	for range in {
		n++
	}
	return n
}

// Indexed pairs each value of in with its position.
func Indexed(in []string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i, s := range in {
			if !yield(i, s) {
				return
			}
		}
	}
}
`
	head := strings.Replace(base, "v%2 == 0 && !yield(v)", "v%2 == 0 && v > 0 && !yield(v)", 1)
	head = strings.Replace(head, "\t\tn++\n", "\t\tn++\n\t\tif n == 3 {\n\t\t\tbreak\n\t\t}\n", 1)
	head = strings.Replace(head, "if !yield(i, s) {", "if !yield(i+1, s) {", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "seqs.go": base}, map[string]string{"seqs.go": head}, nil)
	changeOn(t, rep, "example.com/seqs.Evens", "Evens no longer yields zero and the negative evens")
	changeOn(t, rep, "example.com/seqs.Count", "Count stops at three")
	if c, ok := changeOn(t, rep, "example.com/seqs.Indexed", "Indexed counts from one"); ok && !strings.Contains(c.Base, "[0,") {
		t.Errorf("Indexed's base is shown as %q, not as its pairs", c.Base)
	}
}
