package lang

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/premise-dev/premise/gate"
)

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
	raised := &gate.Reply{Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "ValueError"}}
	if b, _ := whereApart(raised, head, "raised ValueError", Describe(head)); b != "raised ValueError" {
		t.Errorf("a raise was changed: %q", b)
	}
}
