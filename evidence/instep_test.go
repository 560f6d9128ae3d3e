package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestPrivateHelperChangedInStepIsApart: a refactor makes a private
// helper answer its word alone where it answered a (word, rest) tuple,
// and changes its one caller to take the rest itself. Called directly,
// the helper answers in another kind on every input, which no caller
// reads any more: listed apart, with the caller named; the public
// caller answers as before and no change waits on a decision. A helper
// whose answer changed kind while a caller kept reading the old one is
// a change.
func TestPrivateHelperChangedInStepIsApart(t *testing.T) {
	t.Parallel()
	base := `def _word(s):
    i = s.find(" ")
    if i < 0:
        return s, ""
    return s[:i], s[i + 1:]


def words(s):
    out = []
    while s:
        w, s = _word(s)
        out.append(w)
    return out
`
	head := `def _word(s):
    i = s.find(" ")
    if i < 0:
        return s
    return s[:i]


def words(s):
    out = []
    while s:
        w = _word(s)
        s = s[len(w) + 1:]
        out.append(w)
    return out
`
	rep := runCommits(t, map[string]string{"text.py": base}, map[string]string{"text.py": head}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		t.Errorf("a change where the patch changed a private helper and its caller in step: %+v", c)
	}
	var apart bool
	for _, c := range rep.OutsideType {
		apart = apart || c.Symbol == "text._word" && strings.Contains(c.OutsideType, "a tuple on the base, a string on the head") && strings.Contains(c.OutsideType, "(words)")
	}
	if !apart {
		t.Errorf("the helper's answers of another kind are not listed apart, naming its caller: %+v", rep.OutsideType)
	}

	// A second caller still reads the tuple: the helper's new answer
	// reaches it, and the difference is a change.
	stale := "\n\ndef first_rest(s):\n    return _word(s)[1]\n"
	rep = runCommits(t, map[string]string{"text.py": base + stale}, map[string]string{"text.py": head + stale}, nil)
	var change bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		change = change || c.Symbol == "text._word"
	}
	if !change {
		t.Errorf("the helper answers another kind to a caller the patch left as it was, yet no change shows it: changes %+v, outside %+v", append(rep.Changes, rep.Unexplained...), rep.OutsideType)
	}

	// So does a caller the file's own function spans do not hold: a
	// module-level statement, another module of the same directory.
	for name, files := range map[string][2]map[string]string{
		"a module-level statement": {{"text.py": base + "\n\nFIRST = _word('a b')\n"}, {"text.py": head + "\n\nFIRST = _word('a b')\n"}},
		"another module":           {{"text.py": base, "other.py": "from text import _word\n\n\ndef rest(s):\n    return _word(s)[1]\n"}, {"text.py": head}},
	} {
		rep = runCommits(t, files[0], files[1], nil)
		change = false
		for _, c := range append(rep.Changes, rep.Unexplained...) {
			change = change || c.Symbol == "text._word"
		}
		if !change {
			t.Errorf("%s still reads the helper's old answer, yet no change shows the new one (%d differences listed apart)", name, len(rep.OutsideType))
		}
	}
}

// TestPythonChangedNewRunsThroughItsClass: a class of values of an
// immutable built-in type builds them in __new__ (quantiphy's Quantity,
// a float); a patch there (a scale of zero taken for no scale) runs by
// calling the class, as one to __init__ does, and shows on a scale of 0.
func TestPythonChangedNewRunsThroughItsClass(t *testing.T) {
	t.Parallel()
	src := func(test string) string {
		return "class Amount(float):\n    def __new__(cls, value, *, scale=None):\n        number = float(value)\n        if " + test + ":\n            number = number * scale\n        return float.__new__(cls, number)\n"
	}
	base := map[string]string{
		"amount.py":      src("scale is not None"),
		"test_amount.py": "from amount import Amount\n\n\ndef test_scaled():\n    assert Amount('2', scale=3) == 6\n",
	}
	rep := runCommits(t, base, map[string]string{"amount.py": src("scale")}, nil)
	if !hasChange(rep, "amount.Amount.__new__", func(c evidence.Change) bool { return strings.Contains(c.Input, "scale=0") }) {
		t.Errorf("Amount takes a scale of 0 for none now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestPrivateHelperNaNIsNoNewKind: a helper that answers nan where it
// answered 0.0 has changed its value, not its kind, though the worker
// writes nan apart ({"$repr": "nan"}): its caller changed in step does
// not set the difference apart.
func TestPrivateHelperNaNIsNoNewKind(t *testing.T) {
	t.Parallel()
	src := func(zero, scale string) string {
		return "def _ratio(a, b):\n    if b == 0:\n        return " + zero + "\n    return a / b\n\n\n" +
			"def percent(a, b):\n    return _ratio(a, b) * " + scale + "\n"
	}
	rep := runCommits(t, map[string]string{"calc.py": src("0.0", "100")}, map[string]string{"calc.py": src("float('nan')", "100.0")}, nil)
	if !hasChange(rep, "calc._ratio", func(c evidence.Change) bool { return strings.Contains(c.Head, "nan") }) {
		t.Errorf("_ratio answers nan for a zero divisor now, yet no change shows it (%d differences listed apart)", len(rep.OutsideType))
	}
}
