package evidence_test

import (
	"strings"
	"testing"
)

// TestPythonNumberInAnotherType: the patch drops the int() a lookup
// needed; the same whole number as a float or a Decimal shows it
// (num2words' Italian to_cardinal raised on Decimal('5'), and humanize's
// naturalsize(1.0) said "1.0 Byte").
func TestPythonNumberInAnotherType(t *testing.T) {
	src := func(idx string) string {
		return "WORDS = ['zero', 'one', 'two', 'three', 'four', 'five']\n\n\ndef word(n):\n    if n < 0 or n > 5:\n        raise ValueError(n)\n    return WORDS[" + idx + "]\n"
	}
	rep := runPatch(t, src("int(n)"), src("n"))
	var inputs []string
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "words.word" {
			inputs = append(inputs, c.Input)
		}
	}
	joined := strings.Join(inputs, " ")
	if !strings.Contains(joined, "Decimal") && !strings.Contains(joined, ".0)") {
		t.Errorf("changes on %v, want one on a Decimal or a whole float", inputs)
	}
}
