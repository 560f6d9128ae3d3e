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

// A parameter that is a reflect.Type (a converter's from and to types, a
// decoder's field type) is given Go's basic and container types: before,
// no value could be built for it and the function was left unchecked.
func TestGoReflectTypeParameters(t *testing.T) {
	t.Parallel()
	mod := "module example.com/conv\n\ngo 1.21\n"
	base := `package conv

import "reflect"

// Convertible says a value of from converts to to without loss of kind.
func Convertible(from, to reflect.Type) bool {
	switch {
	case from.Kind() == to.Kind():
		return true
	case from.Kind() == reflect.Int && to.Kind() == reflect.Int64:
		return true
	}
	return false
}
`
	head := strings.Replace(base, "from.Kind() == reflect.Int && to.Kind() == reflect.Int64", "from.Kind() == reflect.Int && (to.Kind() == reflect.Int64 || to.Kind() == reflect.String)", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "conv.go": base}, map[string]string{"conv.go": head}, nil)
	if c, ok := changeOn(t, rep, "example.com/conv.Convertible", "int now converts to string"); ok && !strings.Contains(c.Input, "string") {
		t.Errorf("the change's input %q does not name the types", c.Input)
	}
}
