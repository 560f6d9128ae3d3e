package evidence

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// TestBaseArityRows: where the base gives a trailing parameter a default
// the head requires, rows are made again without it (values kept, not
// receivers, telling them apart); where the two agree, none are.
func TestBaseArityRows(t *testing.T) {
	head := &lang.Signature{Language: "python", Params: []lang.Param{{Name: "key"}, {Name: "value"}}}
	base := &lang.Signature{Language: "python", Params: []lang.Param{{Name: "key"}, {Name: "value", Default: "None"}}}
	rows := []validate.Row{{Args: []any{"a", 1}}, {Args: []any{"b", 2}}, {Args: []any{"a", 3}}, {Args: []any{"c"}, Kwargs: map[string]any{"value": 1}}}
	tg := lang.Target{Sym: diffparse.Symbol{Kind: "function"}, Sig: head, BaseSig: base}
	var got [][]any
	for _, r := range baseArityRows(tg, rows, 10) {
		got = append(got, r.Args)
	}
	if diff := cmp.Diff([][]any{{"a"}, {"b"}}, got); diff != "" {
		t.Errorf("short rows (-want +got):\n%s", diff)
	}
	method := lang.Target{Sym: diffparse.Symbol{Kind: "method"}, Sig: head, BaseSig: base}
	recv := map[string]any{lang.ExprKey: "Config()"}
	other := map[string]any{lang.ExprKey: "Config(x=1)"}
	got = nil
	for _, r := range baseArityRows(method, []validate.Row{{Args: []any{recv, "a", 1}}, {Args: []any{other, "a", 2}}, {Args: []any{other, "b", 2}}}, 10) {
		got = append(got, r.Args)
	}
	if diff := cmp.Diff([][]any{{recv, "a"}, {other, "b"}}, got); diff != "" {
		t.Errorf("a method's short rows keep the receiver (-want +got):\n%s", diff)
	}
	if short := baseArityRows(lang.Target{Sig: head, BaseSig: head}, rows, 10); short != nil {
		t.Errorf("the same signature on both sides made %v", short)
	}
	if short := baseArityRows(lang.Target{Sig: base, BaseSig: head}, rows, 10); short != nil {
		t.Errorf("a default the head adds made %v", short)
	}
}

// TestTargetReadsBaseSignature: a modified function's target carries the
// base's signature beside the head's, so its rows can call it as the
// base's callers do.
func TestTargetReadsBaseSignature(t *testing.T) {
	l := lang.StaticLanguages()["python"]
	if l == nil {
		t.Fatal("python is not registered")
	}
	f := diffparse.File{Path: "m.py", Language: "python",
		BaseSrc: []byte("def setdefault(d, key, value=None):\n    return d.setdefault(key, value)\n"),
		HeadSrc: []byte("def setdefault(d, key, value):\n    return d.setdefault(key, value)\n")}
	fr := &fileReader{f: f, l: l}
	tg, skip := fr.target(diffparse.Symbol{Name: "m.setdefault", Local: "setdefault", Kind: "function", Change: "modified", Start: 1, End: 2})
	if skip != nil {
		t.Fatalf("no target: %+v", skip)
	}
	if tg.BaseSig == nil || len(tg.BaseSig.Params) != 3 || tg.BaseSig.Params[2].Default != "None" {
		t.Fatalf("BaseSig = %+v, want the base's value=None", tg.BaseSig)
	}
	if tg.Sig.Params[2].Default != "" {
		t.Errorf("Sig is not the head's: %+v", tg.Sig)
	}
}
