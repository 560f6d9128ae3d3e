package lang

import (
	"slices"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// TestMutantsNegateANumberWrittenAsText: a string that starts as a number
// does is stepped to its negation (Fraction("44.3(12)") as "-44.3(12)",
// "-2" as "2"), where number code parts on the sign; other text is not.
func TestMutantsNegateANumberWrittenAsText(t *testing.T) {
	for _, tc := range []struct {
		arg, want string
		has       bool
	}{
		{"44.3(12)", "-44.3(12)", true},
		{"0.333", "-0.333", true},
		{".5", "-.5", true},
		{"+7", "-7", true},
		{"-2", "2", true},
		{"abc", "-abc", false},
	} {
		var got []any
		for _, m := range Mutants(validate.Row{Args: []any{tc.arg}}) {
			got = append(got, m.Args[0])
		}
		if slices.Contains(got, any(tc.want)) != tc.has {
			t.Errorf("Mutants(%q) = %q: holds %q is %v, want %v", tc.arg, got, tc.want, !tc.has, tc.has)
		}
	}
}
