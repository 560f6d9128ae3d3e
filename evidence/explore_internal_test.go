package evidence

import (
	"testing"

	"github.com/premise-dev/premise/validate"
)

// TestSearchHandsBackOnlyData: what a search on the head's worker says it
// found becomes rows the base's worker runs too, so it may hold nothing
// the base would evaluate: an argument premise built (an expression) must
// come back exactly as sent, and no other argument may hold one, however
// deep (issue 26: the head's text never runs in the base's worker).
func TestSearchHandsBackOnlyData(t *testing.T) {
	recv := map[string]any{"$expr": "m.Reader('x')"}
	row := validate.Row{ID: "R1", Args: []any{recv, "[a]"}, Kwargs: map[string]any{"$observe": 3}}
	evil := map[string]any{"$expr": "__import__('os').system('true')"}
	for _, c := range []struct {
		name string
		args []any
		keep bool
	}{
		{"a changed text", []any{recv, "[a]\n[a]"}, true},
		{"a nested plain value", []any{recv, []any{map[string]any{"k": "v"}}}, true},
		{"another expression for the receiver", []any{evil, "[a]"}, false},
		{"an expression as the text", []any{recv, evil}, false},
		{"an expression deep in a list", []any{recv, []any{[]any{evil}}}, false},
		{"an expression as a map's value", []any{recv, map[string]any{"k": evil}}, false},
		{"plain data as one more argument", []any{recv, "[a]", "x"}, true},
		{"an expression as one more argument", []any{recv, "[a]", evil}, false},
		{"the receiver's expression as one more argument", []any{recv, "[a]", recv}, false},
	} {
		if got := builtAsSent([][]any{row.Args}, c.args); got != c.keep {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.keep)
		}
	}
}

// TestSearchChangesOnlyTheDataOfGoValues: a Go row's typed value and
// constructor call come back with their data changed (a []byte's text, a
// constructor's argument; the search draws from every row it was sent),
// never as another type, a constructor no row called, or with an
// expression inside.
func TestSearchChangesOnlyTheDataOfGoValues(t *testing.T) {
	bytes := func(v any) map[string]any { return map[string]any{"$go": "[]byte", "value": v} }
	ctor := func(name string, args ...any) map[string]any { return map[string]any{"$new": name, "$args": args} }
	zone := map[string]any{"$go": "*time.Location", "value": "+05:30"}
	row := validate.Row{ID: "R1", Args: []any{ctor("m.Parse", "1s", bytes("a")), bytes("{}"), zone}}
	other := []any{ctor("m.ParseString", "1h"), bytes("x"), zone}
	evil := map[string]any{"$expr": "__import__('os').system('true')"}
	for _, c := range []struct {
		name string
		args []any
		keep bool
	}{
		{"another seed's constructor, changed", []any{ctor("m.ParseString", "00s"), bytes("{}"), zone}, true},
		{"as sent", []any{ctor("m.Parse", "1s", bytes("a")), bytes("{}"), zone}, true},
		{"other text for the bytes", []any{ctor("m.Parse", "1s", bytes("a")), bytes("{\"a\":["), zone}, true},
		{"another argument for the constructor", []any{ctor("m.Parse", "364d", bytes("b")), bytes("{}"), zone}, true},
		{"another type", []any{ctor("m.Parse", "1s", bytes("a")), map[string]any{"$go": "string", "value": "{}"}, zone}, false},
		{"a list for the text", []any{ctor("m.Parse", "1s", bytes("a")), bytes([]any{"x"}), zone}, false},
		{"another constructor", []any{ctor("m.Evil", "1s", bytes("a")), bytes("{}"), zone}, false},
		{"an expression in the constructor", []any{ctor("m.Parse", evil, bytes("a")), bytes("{}"), zone}, false},
		{"a key more", []any{map[string]any{"$new": "m.Parse", "$args": []any{"1s", bytes("a")}, "$expr": "1"}, bytes("{}"), zone}, false},
		{"another zone", []any{ctor("m.Parse", "1s", bytes("a")), bytes("{}"), map[string]any{"$go": "*time.Location", "value": "Local"}}, false},
	} {
		if got := builtAsSent([][]any{row.Args, other}, c.args); got != c.keep {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.keep)
		}
	}
}

// TestFoundArgsReadsOnlyArgumentLists: a reply of another shape, or
// entries that are not argument lists, give nothing, and no more than
// exploreFound lists are taken.
func TestFoundArgsReadsOnlyArgumentLists(t *testing.T) {
	if got := foundArgs("found"); got != nil {
		t.Errorf("a string reply gave %v", got)
	}
	many := make([]any, 0, 40)
	for i := 0; i < 40; i++ {
		many = append(many, []any{"x"}, "not a list")
	}
	got := foundArgs(map[string]any{"found": many})
	if len(got) != exploreFound {
		t.Errorf("%d lists taken, want %d", len(got), exploreFound)
	}
}
