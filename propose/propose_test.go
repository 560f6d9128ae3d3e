package propose

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/validate"
)

func TestTrojanSource(t *testing.T) {
	base := "def is_admin(user):\n    return False\n"
	head := "def is_admin(user):\n    access = \"user\u202e \u2066# admin\u2069 \u2066\"\n    return access == \"admin\"\n    zero = 1\u200b\n"
	res := diffOf(t, "m.py", base, head)
	got := TrojanSource(res)
	want := []Finding{
		{Rule: "trojan-source", File: "m.py", Line: 2, Message: "added line holds a bidirectional control character (U+202E): the text shown is not the text that runs"},
		{Rule: "trojan-source", File: "m.py", Line: 4, Message: "added line holds an invisible character (U+200B): the text shown is not the text that runs"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	r, err := Draft(context.Background(), NewStatic(), res)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 2 {
		t.Errorf("Draft reported %d findings, want the 2 Trojan Source ones", len(r.Findings))
	}
}

func TestTrojanSourceIgnoresDeletedAndPlainLines(t *testing.T) {
	base := "def f():\n    s = \"\u202e\"\n    return s\n"
	head := "def f():\n    s = \"caf\u00e9 \u4e2d\u6587\"\n    return s\n"
	if got := TrojanSource(diffOf(t, "m.py", base, head)); len(got) != 0 {
		t.Errorf("findings %+v, want none: the control character was deleted and accents are visible", got)
	}
}

func TestFitPrecondition(t *testing.T) {
	long := strings.Repeat("x", 200)
	got := fitPrecondition("inputs where `" + long + "` holds but `" + long + "` does not, which the base refused, are now accepted")
	if n := len([]rune(got)); n > validate.MaxPreconditionLen {
		t.Errorf("%d runes, want at most %d: the filter would drop the row as malformed", n, validate.MaxPreconditionLen)
	}
	if !strings.HasSuffix(got, "are now accepted") {
		t.Errorf("shortening cut the sentence, not the code: %q", got)
	}
	if short := "`xs` is non-empty"; fitPrecondition(short) != short {
		t.Errorf("a short precondition changed")
	}
}
