package evidence

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// TestBaseCrashedKinds: a private function's base that hung, took its
// process down or crashed with a bug of its own, where the head answered,
// is on an input no caller passes; a refusal the base raised on purpose,
// a head that crashes, and a public function are changes.
func TestBaseCrashedKinds(t *testing.T) {
	l := lang.StaticLanguages()["go"]
	if l == nil {
		t.Fatal("no Go language registered in this test binary")
	}
	private := lang.Target{Sym: diffparse.Symbol{Local: "lexStart"}}
	public := lang.Target{Sym: diffparse.Symbol{Local: "Lex"}}
	out := func(o string) *validate.Outcome { return &validate.Outcome{Outcome: o} }
	for _, c := range []struct {
		name       string
		tg         lang.Target
		base, head *validate.Outcome
		exc        *gate.Exc
		want       string
	}{
		{"hung", private, out(validate.OutcomeTimeout), out(validate.OutcomeReturned), nil, "never returned"},
		{"process died", private, out(validate.OutcomeCrashed), out(validate.OutcomeUnencodable), nil, "crashed its process"},
		{"runtime panic", private, out(validate.OutcomeRaised), out(validate.OutcomeReturned), &gate.Exc{Class: "panic", Message: "runtime error: index out of range [3] with length 3"}, "crashed on it (panic)"},
		{"a refusal", private, out(validate.OutcomeRaised), out(validate.OutcomeReturned), &gate.Exc{Class: "*errors.errorString", Message: "bad input"}, ""},
		{"the head hangs", private, out(validate.OutcomeReturned), out(validate.OutcomeTimeout), nil, ""},
		{"public", public, out(validate.OutcomeTimeout), out(validate.OutcomeReturned), nil, ""},
	} {
		ch := &Change{BaseOutcome: c.base, HeadOutcome: c.head, baseExc: c.exc}
		got := baseCrashed(l, c.tg, ch)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
