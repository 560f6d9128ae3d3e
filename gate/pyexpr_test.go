package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPythonExprGrammar: the expressions premise and the repositories'
// tests write pass; those that reach the interpreter's internals do not.
func TestPythonExprGrammar(t *testing.T) {
	ok := []string{
		"iter([3, 1, 2])", "(1, 2)", "float('nan')", "b'\\xe4'", "datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)",
		"m.Money(5, currency='EUR')", "lambda x: x + 1", "[i * 2 for i in range(3)]", "{'a': [1, 2]}",
		"'__class__'", "Decimal('1.5')", "-1", "not True", "Path('a') / 'b'", "m.list.append", "type(None)", "[1, type(None)]",
		// A builtin type's operator, as doctests pass one (jaraco.functools'
		// compose(round_three, int.__truediv__)).
		"(lambda x: round(x, ndigits=3), int.__truediv__)", "str.__add__", "functools.reduce(int.__mul__, [1, 2])",
	}
	for _, src := range ok {
		if err := CheckPythonExpr(src); err != nil {
			t.Errorf("CheckPythonExpr(%q) = %v, want nil", src, err)
		}
	}
	bad := map[string]string{
		"().__class__.__base__.__subclasses__()": "dunder",
		"print.__self__":                         "dunder through a builtin",
		"type.mro(int)":                          "attribute of a builtin",
		"getattr(m, '__dict' + '__')":            "a string reaches a dunder",
		"vars(m).update(f=None)":                 "rebinds a module",
		"(f := 1)":                               "assignment expression",
		"f'{m.__dict__}'":                        "f-string braces are code",
		"ＡＡ.__class__":                           "non-ASCII names normalise",
		"_\uff3fclass\uff3f_":                    "fullwidth underscores normalise to a dunder",
		"eval('1')":                              "eval",
		"str.join":                               "attribute of a builtin",
		"int.__truediv__.__objclass__":           "an attribute after the operator",
		"int.__truediv__.x":                      "an attribute after the operator",
		"int.__init_subclass__":                  "a dunder that is no operator",
		"m.int.__add__":                          "an operator of a name that is no builtin type",
		"object.__subclasses__()":                "not an operator type",
		"1; import os":                           "statement",
		"m.x  # comment":                         "comment",
		"'unterminated":                          "bad literal",
	}
	for src, why := range bad {
		if err := CheckPythonExpr(src); err == nil {
			t.Errorf("CheckPythonExpr(%q) = nil, want refused (%s)", src, why)
		}
	}
	for im, want := range map[string]bool{"import datetime": true, "from m import Money": true, "from .x import (a, b as c)": true,
		"import os; os.system('x')": false, "from m import __dict__": false, "exec('x')": false,
		`globals().update(vars(__import__("shop", fromlist=['_'])))`:          true,
		`globals().update(vars(__import__("os", fromlist=['_']))); exec('x')`: false,
		`globals().update(vars(__import__("m.__x", fromlist=['_'])))`:         false} {
		if got := CheckPythonImport(im) == nil; got != want {
			t.Errorf("CheckPythonImport(%q) ok = %v, want %v", im, got, want)
		}
	}
}

// TestExpressionReachesNoWorker is the attack of issue 26's second class:
// a harvested argument that rebinds the target in the worker's module, so
// that the base answers like the head. Control: a plain argument runs.
func TestExpressionReachesNoWorker(t *testing.T) {
	dir := t.TempDir()
	src := "def clamp(n):\n    if n < 0:\n        raise ValueError(n)\n    return n\n"
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewPythonAdapter(PythonConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	control, err := a.Call(ctx, Call{ID: "P1", Target: "m.clamp", Args: []any{map[string]any{"$expr": "-1"}}, Kwargs: map[string]any{"$observe": 5}})
	if err != nil || control.Outcome != OutcomeRaised {
		t.Fatalf("control: %+v %v; want the base's raise", control, err)
	}
	attack := map[string]any{"$expr": "[__import__('m').__dict__.__setitem__('clamp', lambda n: max(0, n)), -1][1]"}
	r, err := a.Call(ctx, Call{ID: "P2", Target: "m.clamp", Args: []any{attack}, Kwargs: map[string]any{"$observe": 5}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != OutcomeUnencodable {
		t.Errorf("attack: %s %v (%s); want premise to refuse the expression", r.Outcome, r.Value, r.Detail)
	}
	after, err := a.Call(ctx, Call{ID: "P3", Target: "m.clamp", Args: []any{map[string]any{"$expr": "-1"}}, Kwargs: map[string]any{"$observe": 5}})
	if err != nil || after.Outcome != OutcomeRaised {
		t.Errorf("after the attack the base answers %+v %v; want its own raise", after, err)
	}
}

// FuzzCheckPythonExpr: the grammar check never panics, and whatever it
// lets through names no double-underscore attribute but a builtin type's
// operator.
func FuzzCheckPythonExpr(f *testing.F) {
	for _, s := range []string{"int.__truediv__", "().__class__", "m.f(1, x=[2])", "lambda x: x", "b'\\x00'", "'''a'''", "f'{x}'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if CheckPythonExpr(src) != nil {
			return
		}
		toks, err := pyTokens(src)
		if err != nil {
			t.Fatalf("%q passed the check but does not tokenize: %v", src, err)
		}
		for i, tk := range toks {
			if tk.kind == 'n' && strings.Contains(tk.text, "__") && !operatorMethod(toks, i-2) {
				t.Fatalf("%q passed with the dunder %s", src, tk.text)
			}
		}
	})
}
