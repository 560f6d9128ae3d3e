package pysource

import "testing"

// TestExprType: the containers premise writes as expressions have a kind
// and a type name the interpreter's refusals use; anything else is not
// known without running it.
func TestExprType(t *testing.T) {
	cases := []struct {
		src, kind, name string
		reason          string
	}{
		{src: "iter([3, 1, 2])", kind: KindIterator, name: "list_iterator"},
		{src: "iter((1, 2))", kind: KindIterator, name: "tuple_iterator"},
		{src: "iter(b'ab')", kind: KindIterator, name: "bytes_iterator"},
		{src: "iter('ab')", kind: KindIterator, name: "", reason: "a str's iterator is named by the interpreter's version"},
		{src: "tuple([1, 2])", kind: KindTuple, name: "tuple"},
		{src: "(1, 2)", kind: KindTuple, name: "tuple"},
		{src: "set([1])", kind: KindSet, name: "set"},
		{src: "frozenset([1])", kind: KindSet, name: "frozenset"},
		{src: "iter(x)", reason: "a name's value is not known here"},
		{src: "iter([1]) + iter([2])", reason: "one container, not an expression of them"},
		{src: "datetime.date(2020, 1, 1)", reason: "a call of anything but the builtin containers"},
		{src: "float('nan')", reason: "not a container"},
		{src: "iter([1", reason: "no expression"},
	}
	for _, c := range cases {
		kind, name := ExprType(c.src)
		if kind != c.kind || name != c.name {
			t.Errorf("ExprType(%q) = %q, %q, want %q, %q (%s)", c.src, kind, name, c.kind, c.name, c.reason)
		}
	}
}
