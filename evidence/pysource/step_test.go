package pysource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStepLiterals(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{`Buf(binascii.unhexlify(b"0001c0a8"))`, []string{
			`Buf(binascii.unhexlify(b"0001"))`, `Buf(binascii.unhexlify(b"0001c0"))`, `Buf(binascii.unhexlify(b""))`}},
		{`f("a\n", 7)`, []string{`f("a\n", 6)`, `f("a\n", 8)`}},
		{`f("éé")`, []string{`f("é")`, `f("")`}},
		{`f(`, nil},
	} {
		if diff := cmp.Diff(tc.want, StepLiterals(tc.expr)); diff != "" {
			t.Errorf("StepLiterals(%s) (-want +got):\n%s", tc.expr, diff)
		}
	}
}

// FuzzStepLiterals: whatever a harvested argument's source is, stepping
// it neither panics nor turns an expression that parses into one that
// does not.
func FuzzStepLiterals(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzStepLiterals.
	f.Fuzz(func(t *testing.T, expr string) {
		in, err := Parse("", []byte(expr))
		if err != nil {
			t.Fatal(err)
		}
		clean := in.SyntaxError() == nil
		in.Close()
		for _, e := range StepLiterals(expr) {
			out, err := Parse("", []byte(e))
			if err != nil {
				t.Fatal(err)
			}
			if clean && out.SyntaxError() != nil {
				t.Errorf("StepLiterals(%q) gave %q, which does not parse: %v", expr, e, out.SyntaxError())
			}
			out.Close()
		}
	})
}
