package evidence

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// stubLang is a language whose functions are Go funcs of this test binary:
// it holds the seam to what it promises, a language is its implementation
// and two registration lines (TestStubLanguageEndToEnd). Its "source" is
// one line per function, `func name(param)`.
type stubLang struct{}

var stubFuncRe = regexp.MustCompile(`(?m)^func (\w+)\((\w+)\)`)

func (stubLang) Name() string             { return "stub" }
func (stubLang) Owns(path string) bool    { return strings.HasSuffix(path, ".stub") }
func (stubLang) Locals(s string) []string { return []string{s[strings.LastIndex(s, ".")+1:]} }
func (stubLang) Signatures(src []byte) map[string]*Signature {
	out := map[string]*Signature{}
	for _, m := range stubFuncRe.FindAllStringSubmatch(string(src), -1) {
		out[m[1]] = &Signature{Language: "stub", Params: []Param{{Name: m[2], Type: "int"}}}
	}
	return out
}
func (stubLang) Infer(p Param) Type                            { return Type{Kind: kindInt, From: "stub"} }
func (stubLang) ParamText(p Param) string                      { return p.Name }
func (stubLang) Typed() bool                                   { return true }
func (stubLang) DefaultValue(Param) (any, bool)                { return nil, false }
func (stubLang) Public(string) bool                            { return true }
func (stubLang) Fits(*Signature, []any, map[string]any) string { return "" }
func (stubLang) DataReaders(diffparse.File) ([]diffparse.Symbol, map[string][]string, []string) {
	return nil, nil, nil
}
func (stubLang) File(diffparse.File) any { return nil }
func (stubLang) Complete(*lang.Target, diffparse.File, any, map[string]*Signature) string {
	return ""
}
func (stubLang) Rows(_ context.Context, tg lang.Target, templates []validate.Row, _ *rand.Rand, _ int) ([]validate.Row, map[string]string) {
	rows := templates
	for _, n := range []int{3, -4} {
		rows = append(rows, lang.SignatureRow(tg.Sig, "stub_value", []any{n}))
	}
	return rows, nil
}
func (stubLang) ParamTypes(lang.Target) []Type               { return nil }
func (stubLang) Receiver(lang.Target) (any, bool)            { return nil, true }
func (stubLang) ModelRow([]any, map[string]any) validate.Row { return validate.Row{} }
func (stubLang) CallText(args []any, _ map[string]any) string {
	return fmt.Sprintf("%v", args)
}
func (stubLang) Outcomes(base, head *gate.Reply, _ lang.Origin) (string, string) {
	return lang.Describe(base), lang.Describe(head)
}
func (stubLang) Sources() []lang.Source { return nil }
func (stubLang) Bug(*gate.Exc) bool     { return false }
func (stubLang) Close()                 {}

// stubAdapter runs a stub function in this process: double on the base
// doubles, on the head it returns 0 for a negative number.
type stubAdapter struct{ head bool }

func (a stubAdapter) Call(_ context.Context, c gate.Call) (gate.Reply, error) {
	n, ok := c.Args[0].(int)
	if !ok {
		f, _ := c.Args[0].(float64)
		n = int(f)
	}
	v := 2 * n
	if a.head && n < 0 {
		v = 0
	}
	return gate.Reply{ID: c.ID, Outcome: gate.OutcomeReturned, Value: v}, nil
}

func (stubAdapter) Close() error { return nil }

// TestStubLanguageEndToEnd: a language the engine has never heard of runs
// through it end to end (targets from the diff, template and own rows,
// both sides, the comparison, shrinking, reporting) with nothing but its
// implementation and two registration lines: the evidence registry's and
// the gate's.
func TestStubLanguageEndToEnd(t *testing.T) {
	head, base := t.TempDir(), t.TempDir()
	// The two registration lines.
	unregister := lang.Register(func(lang.Checkouts, int, bool) lang.Language { return stubLang{} })
	gate.RegisterAdapter("stub", func(_ context.Context, _ gate.Config, dir string, _ *validate.Table) (gate.Adapter, error) {
		return stubAdapter{head: dir == head}, nil
	})
	defer unregister()
	rep := runStub(t, head, base)
	if len(rep.Symbols) != 1 || rep.Symbols[0].Rows == 0 {
		t.Fatalf("the stub's function got no rows: %+v", rep.Symbols)
	}
	var found bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol != "calc.double" {
			t.Errorf("a change on %s", c.Symbol)
		}
		if c.Heuristic == "" {
			t.Errorf("the change on %s names no source", c.Input)
		}
		if strings.HasPrefix(c.Input, "[-") && strings.HasPrefix(c.Base, "returned -") && c.Head == "returned 0" {
			found = true
		}
	}
	t.Logf("changes: %+v\nunexplained: %+v", rep.Changes, rep.Unexplained)
	if !found {
		t.Fatalf("no change on a negative number: changes %+v, unexplained %+v", rep.Changes, rep.Unexplained)
	}
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if strings.HasPrefix(c.Input, "[") && !strings.HasPrefix(c.Input, "[-") {
			t.Errorf("a change on a non-negative input %s: base %s, head %s", c.Input, c.Base, c.Head)
		}
	}
}

// slowOnceAdapter is double's head that times out on its first calls of
// 7, as a call on a busy machine does, then answers as the base does.
type slowOnceAdapter struct {
	calls *int
}

func (a slowOnceAdapter) Call(ctx context.Context, c gate.Call) (gate.Reply, error) {
	n, _ := c.Args[0].(int)
	if f, ok := c.Args[0].(float64); ok {
		n = int(f)
	}
	if n == 7 {
		*a.calls++
		if *a.calls <= 2 {
			return gate.Reply{ID: c.ID, Outcome: gate.OutcomeTimeout, Detail: "busy"}, nil
		}
	}
	return gate.Reply{ID: c.ID, Outcome: gate.OutcomeReturned, Value: 2 * n}, nil
}

func (slowOnceAdapter) Close() error { return nil }

// stubSeven is stubLang whose rows are 7 and 8 alone.
type stubSeven struct{ stubLang }

func (stubSeven) Rows(_ context.Context, tg lang.Target, _ []validate.Row, _ *rand.Rand, _ int) ([]validate.Row, map[string]string) {
	return []validate.Row{lang.SignatureRow(tg.Sig, "v", []any{7}), lang.SignatureRow(tg.Sig, "v", []any{8})}, nil
}

// TestOneSidedTimeoutIsRechecked: a row that timed out on the head only,
// on both of its runs, is rerun once with more time; answering as the base
// does then, it is unstable, not a behaviour change. A timeout the rerun
// sees again would have stayed one.
func TestOneSidedTimeoutIsRechecked(t *testing.T) {
	head, base := t.TempDir(), t.TempDir()
	calls := 0
	unregister := lang.Register(func(lang.Checkouts, int, bool) lang.Language { return stubSeven{} })
	gate.RegisterAdapter("stub", func(_ context.Context, _ gate.Config, dir string, _ *validate.Table) (gate.Adapter, error) {
		if dir == head {
			return slowOnceAdapter{calls: &calls}, nil
		}
		return stubAdapter{}, nil
	})
	defer unregister()
	rep := runStub(t, head, base)
	if n := len(rep.Changes) + len(rep.Unexplained); n != 0 {
		t.Errorf("%d changes, want none: %+v %+v", n, rep.Changes, rep.Unexplained)
	}
	if calls < 3 {
		t.Errorf("7 was called %d times on the head: it was not rerun", calls)
	}
	found := false
	for _, c := range rep.Unstable {
		found = found || c.Input == "[7]"
	}
	if !found {
		t.Errorf("the row of 7 is not listed unstable: %+v", rep.Unstable)
	}
}

// runStub runs the engine on a diff that changes the stub language's
// calc.double, as diffparse would hand it over.
func runStub(t *testing.T, head, base string) *Report {
	t.Helper()
	src := []byte("func double(n)\n")
	res := &diffparse.Result{Files: []diffparse.File{{
		Path: "calc.stub", Language: "stub", HeadSrc: src, BaseSrc: src,
		Symbols: []diffparse.Symbol{{Name: "calc.double", Local: "double", Kind: "function", Change: "modified", Start: 1, End: 1, ChangedLines: []int{1}}},
	}}}
	rep, err := Run(context.Background(), Config{Diff: res, HeadDir: head, BaseDir: base, TraceSeconds: -1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
