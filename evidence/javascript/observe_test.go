package javascript

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence/jssource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// TestReturnedObjectsPartOnAMethod: two returned objects alike in their
// own fields are told apart by the first method probe whose answers
// differ, named with its arguments, and, when the two answers read alike
// in their first words, by where inside them they part.
func TestReturnedObjectsPartOnAMethod(t *testing.T) {
	long := strings.Repeat("x", 80)
	reply := func(expected any) *gate.Reply {
		return &gate.Reply{Outcome: gate.OutcomeReturned, Value: map[string]any{
			lang.ReturnedKey: map[string]any{"_": "parser"},
			lang.MethodsKey: []any{
				map[string]any{lang.MethodCallKey: "parse", "$value": map[string]any{"status": true}},
				map[string]any{lang.MethodCallKey: "parse", "$value": map[string]any{"a": long, "expected": []any{expected}}},
			},
		}}
	}
	probes := []any{[]any{2}, map[string]any{lang.MethodCallKey: "parse", lang.MethodArgsKey: []any{"1"}}, map[string]any{lang.MethodCallKey: "parse", lang.MethodArgsKey: []any{"x0"}}}
	b, h := (&jsLang{}).Outcomes(reply("a digit"), reply(nil), lang.Origin{Probes: probes})
	for _, want := range []string{`returned an object; .parse("x0") = `, ` where .expected[0] is "a digit"`} {
		if !strings.Contains(b, want) {
			t.Errorf("base: %s\nwant it to hold %s", b, want)
		}
	}
	if !strings.Contains(h, ` where .expected[0] is null`) {
		t.Errorf("head: %s\nwant where it parts from the base", h)
	}
}

// TestMethodProbesAreWhatTheObjectDoes: the tests' method calls on a
// returned object become its probes, each once, but for its machinery
// (constructor, __proto__ and the like), which says nothing of what it
// does.
func TestMethodProbesAreWhatTheObjectDoes(t *testing.T) {
	got := methodProbes([]jssource.Input{{Calls: []jssource.Step{
		{Method: "constructor", Args: []string{"1"}}, {Method: "__defineGetter__", Args: []string{"'x'"}},
		{Method: "parse", Args: []string{`"1"`}}, {Method: "parse", Args: []string{`"1"`}}, {Method: "parse", Args: []string{"x"}},
	}}})
	if len(got) != 1 || lang.Compact(got[0], 80) != `{"$args":["1"],"$call":"parse"}` {
		t.Errorf("probes %v, want parse(\"1\") alone", got)
	}
}
