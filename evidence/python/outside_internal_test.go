package python

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/gate"
)

func expr(src string) map[string]any { return map[string]any{lang.ExprKey: src} }

// TestBuiltContainersAreJudged: a builtin container premise writes as an
// expression has a type premise knows, so an iterator where the base
// slices the parameter is outside its type as a list where it calls it
// is; an expression whose value premise cannot know is never judged.
func TestBuiltContainersAreJudged(t *testing.T) {
	seq := pysource.Guess{Kind: pysource.KindSequence, From: pysource.FromBody, Text: "x[::-1]"}
	str := pysource.Guess{Kind: pysource.KindStr, From: pysource.FromBody, Text: "x[:j] + x[i]"}
	iterable := pysource.Guess{Kind: pysource.KindIterable, From: pysource.FromBody, Text: "for ... in x"}
	list := pysource.Guess{Kind: pysource.KindList, From: pysource.FromAnnotation}
	cases := []struct {
		name    string
		g       pysource.Guess
		v       any
		outside bool
		reason  string
	}{
		{name: "iterator sliced", g: seq, v: expr("iter([1, 2, 3])"), outside: true, reason: "an iterator has no index"},
		{name: "iterator iterated", g: iterable, v: expr("iter([1, 2, 3])"), reason: "what the body only loops over takes an iterator"},
		{name: "tuple sliced", g: seq, v: expr("tuple([1])"), reason: "a tuple is a sequence"},
		{name: "tuple for a list", g: list, v: expr("(1, 2)"), reason: "a collection annotated list takes a tuple as often as not"},
		{name: "tuple for a str", g: str, v: expr("tuple([0])"), outside: true},
		{name: "set sliced", g: seq, v: expr("set([1])"), outside: true, reason: "a set has no index"},
		{name: "set iterated", g: iterable, v: expr("set([1])")},
		{name: "other expression", g: str, v: expr("datetime.date(2020, 1, 1)"), reason: "its type is not known without running it"},
		{name: "expression with imports", g: str, v: map[string]any{lang.ExprKey: "(1, 2)", lang.ImportsKey: []any{"import os"}}, reason: "only an expression alone is read"},
	}
	for _, c := range cases {
		why := outsideGuess("x", c.g, c.v)
		if (why != "") != c.outside {
			t.Errorf("%s: outsideGuess(%s, %v) = %q, want outside %v (%s)", c.name, c.g, c.v, why, c.outside, c.reason)
		}
		if c.outside && !strings.Contains(why, c.v.(map[string]any)[lang.ExprKey].(string)) {
			t.Errorf("%s: the reason %q does not show the expression", c.name, why)
		}
	}
}

// TestRefusedTypeOfABuiltContainer: the interpreter names an iterator
// premise built ('list_iterator' object is not subscriptable), and the
// refusal is of that argument's type.
func TestRefusedTypeOfABuiltContainer(t *testing.T) {
	exc := &gate.Exc{Class: "TypeError", Message: "'list_iterator' object is not subscriptable"}
	var l pythonLang
	if got := l.RefusedType(exc, []any{expr("iter([1, 2])"), []any{}}, nil); got != "list_iterator" {
		t.Errorf("RefusedType of iter([1, 2]) = %q, want list_iterator", got)
	}
	if got := l.RefusedType(exc, []any{expr("make_iter()")}, nil); got != "" {
		t.Errorf("RefusedType of a call of the code's own = %q, want none: its type is not known", got)
	}
}

// TestRefusedTypeOfVarsArgument: vars() refusing a value without a
// __dict__ names no type, but the row's one plain argument is the value
// it refused: the head's vars(other) and the base's other.__dict__ both
// refuse a list passed where an object is compared, and only the words
// differ. With plain arguments of two types, which one was refused is not
// known.
func TestRefusedTypeOfVarsArgument(t *testing.T) {
	var l pythonLang
	head := &gate.Exc{Class: "TypeError", Message: "vars() argument must have __dict__ attribute"}
	base := &gate.Exc{Class: "AttributeError", Message: "'list' object has no attribute '__dict__'"}
	args := []any{expr("Subtitle(1, 2, 3, 'a')"), []any{1.0, 2.0}}
	if got, want := l.RefusedType(head, args, nil), l.RefusedType(base, args, nil); got != "list" || want != "list" {
		t.Errorf("RefusedType of vars() = %q and of .__dict__ = %q, want list both", got, want)
	}
	it := []any{expr("Subtitle(1, 2, 3, 'a')"), expr("iter([3, 1, 2])")}
	itBase := &gate.Exc{Class: "AttributeError", Message: "'list_iterator' object has no attribute '__dict__'"}
	if got, want := l.RefusedType(head, it, nil), l.RefusedType(itBase, it, nil); got != "list_iterator" || want != "list_iterator" {
		t.Errorf("RefusedType of vars() = %q and of .__dict__ = %q on an iterator premise built, want list_iterator both", got, want)
	}
	if got := l.RefusedType(head, []any{[]any{}, "a"}, nil); got != "" {
		t.Errorf("RefusedType of vars() with a list and a str = %q, want none: which one it refused is not known", got)
	}
	if got := l.RefusedType(&gate.Exc{Class: "ValueError", Message: "vars() argument must have __dict__ attribute"}, args, nil); got != "" {
		t.Errorf("RefusedType of a ValueError the code raised = %q, want none", got)
	}
}

// TestRefusedTypeOfAGraphThatIsNot: a text, a list or a list's items
// read as the code reads a graph (G[node], for y in G[x], G._adj) are
// refused in the runtime's words, each naming the argument's type or its
// items'; a message of the code's own, or a type no argument has, is no
// refusal.
func TestRefusedTypeOfAGraphThatIsNot(t *testing.T) {
	var l pythonLang
	cases := []struct {
		class, message string
		args           []any
		want           string
	}{
		{"TypeError", "string indices must be integers, not 'str'", []any{"abc", nil}, "str"},
		{"TypeError", "list indices must be integers or slices, not str", []any{[]any{"a"}}, "list"},
		{"IndexError", "list index out of range", []any{[]any{1, 2}, nil}, "list"},
		{"TypeError", "'int' object is not iterable", []any{[]any{1, 2, 3}, nil, 0.5}, "int"},
		{"TypeError", "'int' object is not iterable", []any{map[string]any{"a": 1}}, "int"},
		{"TypeError", "'int' object is not iterable", []any{[]any{"a"}}, ""},
		{"IndexError", "pop from empty list", []any{[]any{}}, ""},
		{"ValueError", "list index out of range", []any{[]any{1}}, ""},
	}
	for _, c := range cases {
		if got := l.RefusedType(&gate.Exc{Class: c.class, Message: c.message}, c.args, nil); got != c.want {
			t.Errorf("RefusedType(%s: %s, %v) = %q, want %q", c.class, c.message, c.args, got, c.want)
		}
	}
}

// A value formatted as a number it is not (f'{value:x}', '%X' % value,
// format(value, 'd')) is refused in the interpreter's words, naming its
// type: pylatexenc's HexstrN moved from the one to the other, and ”
// raised a ValueError on the base and a TypeError on the head, no change
// a caller of an int formatter relies on.
func TestRefusedTypeOfAValueFormattedAsANumber(t *testing.T) {
	var l pythonLang
	cases := []struct {
		class, message string
		args           []any
		want           string
	}{
		{"ValueError", "Unknown format code 'x' for object of type 'str'", []any{"", 0}, "str"},
		{"TypeError", "%X format: an integer is required, not str", []any{"", 0}, "str"},
		{"TypeError", "%d format: a real number is required, not NoneType", []any{nil}, "NoneType"},
		{"TypeError", "unsupported format string passed to list.__format__", []any{[]any{}}, "list"},
		{"TypeError", "%X format: an integer is required, not float", []any{1.0, 0}, "float"},
		{"ValueError", "Unknown format code 'x' for object of type 'str'", []any{5}, ""},
	}
	for _, c := range cases {
		if got := l.RefusedType(&gate.Exc{Class: c.class, Message: c.message}, c.args, nil); got != c.want {
			t.Errorf("RefusedType(%s: %s, %v) = %q, want %q", c.class, c.message, c.args, got, c.want)
		}
	}
}
