package lang

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/gate"
)

// Rows are told apart by their whole arguments: two calls that read the
// same in a reviewer's short text (they differ past its width) are two
// rows, never one deduplicated away.
func TestCallKeyTellsLongArgumentsApart(t *testing.T) {
	long := strings.Repeat("x", 80)
	a, b := []any{long + "a"}, []any{long + "b"}
	if CallText(a, nil) != CallText(b, nil) {
		t.Fatalf("the short texts differ already: %s %s", CallText(a, nil), CallText(b, nil))
	}
	if CallKey(a, nil) == CallKey(b, nil) {
		t.Errorf("two calls differing at character 81 share a key: %s", CallKey(a, nil))
	}
	if CallKey(a, map[string]any{"k": 1}) == CallKey(a, nil) {
		t.Errorf("keyword arguments are not part of the key")
	}
}

// The building sequences are the same for every language: per adder one
// put, two, two then each taker, the same twice, three; each taker alone
// when nothing puts.
func TestSequences(t *testing.T) {
	got := Sequences(1, 1)
	want := [][]Step{{{K: 0}}, {{K: 0}, {K: 1}}, {{K: 0}, {K: 1}, {Take: true}}, {{K: 0}, {K: 0}}, {{K: 0}, {K: 1}, {K: 2}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sequences(1, 1) = %v, want %v", got, want)
	}
	if got := Sequences(0, 2); fmt.Sprint(got) != fmt.Sprint([][]Step{{{Take: true}}, {{Take: true, Method: 1}}}) {
		t.Errorf("Sequences(0, 2) = %v, want each taker once", got)
	}
	if got := Sequences(0, 0); len(got) != 0 {
		t.Errorf("Sequences(0, 0) = %v, want none", got)
	}
}

// A building step's verb is a word of the method's name: push, Push,
// push_back, pushAll and _add put; include, online, settings do not, nor
// do decode, offset and populate take.
func TestPutsAndTakes(t *testing.T) {
	for _, n := range []string{"push", "Push", "push_back", "pushAll", "_add", "Set", "appendleft", "Enqueue", "add2"} {
		if !Puts(n) {
			t.Errorf("Puts(%q) = false", n)
		}
	}
	for _, n := range []string{"include", "online", "settings", "setup", "increment", "Adder", "ok"} {
		if Puts(n) {
			t.Errorf("Puts(%q) = true", n)
		}
	}
	for _, n := range []string{"pop", "Dequeue", "remove_at", "deleteKey", "popleft", "Clear"} {
		if !Takes(n) {
			t.Errorf("Takes(%q) = false", n)
		}
	}
	for _, n := range []string{"decode", "offset", "populate", "delta", "taken", "Decimal"} {
		if Takes(n) {
			t.Errorf("Takes(%q) = true", n)
		}
	}
}

// TestWhereApartNamesTheDifference: two long results cut short alike
// (a user-agent parser's object whose device model changed) say where
// they differ, through encoded objects' fields and lists; short results
// that already differ in their words, and raises, are left as they are.
func TestWhereApartNamesTheDifference(t *testing.T) {
	decode := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	long := `{"$class":"IData","$fields":{"browser":{"$class":"IData","$fields":{"major":"17","name":"Safari","version":"17.4.1"}},"device":{"$class":"IData","$fields":{"model":%q,"tags":["a","b"]}}}}`
	base := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(strings.Replace(long, "%q", `"Quest 3"`, 1))}
	head := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(strings.Replace(long, "%q", `"Quest"`, 1))}
	b, h := whereApart(base, head, Describe(base), Describe(head))
	if !strings.HasSuffix(b, ` where .device.model is "Quest 3"`) || !strings.HasSuffix(h, ` where .device.model is "Quest"`) {
		t.Errorf("base %q, head %q: want each to end with where they differ", b, h)
	}

	list := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(`[1, 2, [3, 4]]`)}
	other := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(`[1, 2, [3, 5]]`)}
	if at, x, y, ok := FirstDifference(list.Value, other.Value, ""); !ok || at != "[2][1]" || Compact(x, 9) != "4" || Compact(y, 9) != "5" {
		t.Errorf("FirstDifference = %q %v %v %v, want [2][1] 4 5", at, x, y, ok)
	}
	if b, h := whereApart(list, other, Describe(list), Describe(other)); b != Describe(list) || h != Describe(other) {
		t.Errorf("short results that differ in their words were changed: %q, %q", b, h)
	}
	// A JavaScript object whose state only its getters show: its fields
	// alike, the getter where they differ.
	span := `{"$class":"Span","$fields":{},"$getters":{"hi":3,"lo":%s,"width":"` + strings.Repeat("w", 80) + `"}}`
	sb := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(strings.Replace(span, "%s", "0", 1))}
	sh := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(strings.Replace(span, "%s", "-8", 1))}
	if b, h := whereApart(sb, sh, Describe(sb), Describe(sh)); !strings.HasSuffix(b, " where .lo is 0") || !strings.HasSuffix(h, " where .lo is -8") {
		t.Errorf("getters: base %q, head %q: want each to end with the getter that differs", b, h)
	}

	// An object without a prototype against a plain one (nunjucks'
	// Frame): the field's two values, not the tag's key against nothing.
	frame := `{"$class":"Frame","$fields":{"parent":"` + strings.Repeat("p", 60) + `","variables":%s}}`
	fb := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(strings.Replace(frame, "%s", `{"$nullproto":{}}`, 1))}
	fh := &gate.Reply{Outcome: gate.OutcomeReturned, Value: decode(strings.Replace(frame, "%s", `{}`, 1))}
	if b, h := whereApart(fb, fh, Describe(fb), Describe(fh)); !strings.HasSuffix(b, ` where .variables is {"$nullproto":{}}`) || !strings.HasSuffix(h, " where .variables is {}") {
		t.Errorf("a tagged value against a plain one: base %q, head %q", b, h)
	}

	raised := &gate.Reply{Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "ValueError"}}
	if b, _ := whereApart(raised, head, "raised ValueError", Describe(head)); b != "raised ValueError" {
		t.Errorf("a raise was changed: %q", b)
	}
}
