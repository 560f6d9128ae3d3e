package evidence_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestAddedEncoderMethodIsUnchecked: premise compares a Go value by its
// JSON, so a MarshalJSON the patch adds to a type the base has decides
// what is compared: a head that stores one cent less and adds it back
// when encoding answered like the base on every row, and the gate held.
// Such a method is not checked, and says so; one on a type the patch
// adds is new code like any other.
func TestAddedEncoderMethodIsUnchecked(t *testing.T) {
	t.Parallel()
	mod := "module example.com/pay\n\ngo 1.22\n"
	base := "package pay\n\nimport \"strconv\"\n\n// Amount is a sum in cents.\ntype Amount struct{ Cents int }\n\n" +
		"// Parse reads a sum in cents.\nfunc Parse(s string) Amount {\n\tn, _ := strconv.Atoi(s)\n\treturn Amount{Cents: n}\n}\n"
	head := strings.Replace(base, "Amount{Cents: n}", "Amount{Cents: n - 1}", 1) +
		"\n// MarshalJSON encodes the sum.\nfunc (a Amount) MarshalJSON() ([]byte, error) {\n\treturn []byte(`{\"Cents\":` + strconv.Itoa(a.Cents+1) + `}`), nil\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "pay/pay.go": base}, map[string]string{"pay/pay.go": head}, nil)
	i := slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool {
		return strings.Contains(s.Symbol, "Amount.MarshalJSON") && s.Unchecked
	})
	if i < 0 && !hasChange(rep, "example.com/pay/pay.Parse", nil) {
		t.Errorf("an added MarshalJSON decides what Parse's results are compared by: want it unchecked; symbols %+v", rep.Symbols)
	}

	fresh := base + "\n// Note is new.\ntype Note struct{ Text string }\n\n// MarshalJSON encodes the note.\nfunc (n Note) MarshalJSON() ([]byte, error) {\n\treturn []byte(strconv.Quote(n.Text)), nil\n}\n"
	rep = runCommits(t, map[string]string{"go.mod": mod, "pay/pay.go": base}, map[string]string{"pay/pay.go": fresh}, nil)
	for _, s := range rep.Symbols {
		if s.Unchecked {
			t.Errorf("a MarshalJSON of a type the patch adds: %s unchecked (%s)", s.Symbol, s.Why)
		}
	}
}
