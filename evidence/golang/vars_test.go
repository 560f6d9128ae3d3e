package golang

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// writeGoPkg writes one Go file into a fresh package directory and reads it
// as evidence reads a package.
func writeGoPkg(t *testing.T, src string) *goPkg {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return loadGoPkg((&goPkgs{}).source(dir))
}

const settingsPkg = `package p

import "time"

type Mode int

const (
	Fast Mode = iota
	Slow
)

var (
	MaxLength           int
	EnableSmartTruncate = true
	Sep                 = "-"
	Ratio               = 0.5
	Level               Mode
	lower               = true
	Timeout             = 5 * time.Second
	Names               = []string{"a"}
	computed            = len(Sep)
	width               = 3
)

type opts struct{ MaxLength int }

func helper(s string) string {
	if lower {
		return s
	}
	return s[:MaxLength]
}

func deeper(s string) string { return helper(s) + Sep }

type box struct{ width struct{ n int } }

func nested(b box) int { return b.width.n }
`

// TestVarsRead: the variables a Go target's rows set are those of a basic
// type it reads, the changed lines' first, then its own text's, then its
// callees' (two calls deep), none a parameter shadows, none a selector
// names, none declared by an expression whose value is unknown.
func TestVarsRead(t *testing.T) {
	p := writeGoPkg(t, settingsPkg)
	tests := []struct {
		name       string
		params     []lang.Param
		base, head string
		want       []string
		reason     string
	}{
		{"changed lines first", nil,
			"func F(s string) string {\n\tif Level == Slow { return s }\n\tif !EnableSmartTruncate && len(s) >= MaxLength {\n\t\treturn s[:MaxLength]\n\t}\n\treturn s\n}",
			"func F(s string) string {\n\tif Level == Slow { return s }\n\tif !EnableSmartTruncate {\n\t\treturn s[:MaxLength]\n\t}\n\treturn s\n}",
			[]string{"EnableSmartTruncate", "MaxLength", "Level"}, "the removed condition names both; Level is read but unchanged"},
		{"through callees", nil,
			"func G(s string) string { return deeper(s) }", "func G(s string) string { return deeper(s) + \"\" }",
			[]string{"Sep", "MaxLength", "lower"}, "deeper reads Sep and calls helper, which reads MaxLength and lower (a callee's names in sorted order)"},
		{"shadowed by a parameter", []lang.Param{{Name: "width", Type: "int"}},
			"func H(width int) int { return width + 1 }", "func H(width int) int { return width + 2 }",
			nil, "width is the parameter, not the package's"},
		{"a selector is a field", nil,
			"func K(o opts) int { return o.MaxLength }", "func K(o opts) int { return o.MaxLength + 1 }",
			nil, "o.MaxLength is opts' field"},
		{"a callee's nested selector", nil,
			"func N(b box) int { return nested(b) }", "func N(b box) int { return nested(b) + 1 }",
			nil, "b.width.n in nested names box's field width, not the package's width"},
		{"not basic or not known", nil,
			"func L() int { return int(Timeout) + len(Names) + computed }", "func L() int { return int(Timeout) + len(Names) - computed }",
			nil, "a Duration built by an expression, a slice, a value computed at init"},
		{"a float", nil,
			"func M() float64 { return Ratio }", "func M() float64 { return Ratio * 2 }",
			[]string{"Ratio"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tg := &lang.Target{Sig: &lang.Signature{Params: tc.params}, BaseText: tc.base, HeadText: tc.head}
			var got []string
			for _, v := range p.varsRead(tg) {
				got = append(got, v.name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("vars read (-want +got) (%s):\n%s", tc.reason, diff)
			}
		})
	}
	if v := p.vars["Level"]; v.kind != lang.KindInt || v.typ != "Mode" {
		t.Errorf("Level = %+v, want an int of type Mode", v)
	}
	if v := p.vars["EnableSmartTruncate"]; v.def != true {
		t.Errorf("EnableSmartTruncate's declared value = %v, want true", v.def)
	}
	// A variable the patch added has no base to set.
	base := writeGoPkg(t, "package p\n\nvar MaxLength int\nvar Sep = 1\n")
	p.keepVarsOf(base)
	var kept []string
	for n := range p.vars {
		kept = append(kept, n)
	}
	if diff := cmp.Diff([]string{"MaxLength"}, kept); diff != "" {
		t.Errorf("vars kept with the base (-want +got) (Sep is an int there):\n%s", diff)
	}
}

// TestSettingValues: a bool flipped, an int near the lengths of the call's
// strings, then the type's constants, small values and the function's
// numbers, the declared value left out.
func TestSettingValues(t *testing.T) {
	tests := []struct {
		name   string
		v      goVar
		args   []any
		nums   []float64
		strs   []string
		consts []any
		want   []any
	}{
		{"bool flipped", goVar{kind: lang.KindBool, def: true}, nil, nil, nil, nil, []any{false}},
		{"bool of no initializer", goVar{kind: lang.KindBool}, nil, nil, nil, nil, []any{true}},
		{"int near the string", goVar{kind: lang.KindInt}, []any{"abc", 7}, []float64{40, -3, 1.5}, nil, nil,
			[]any{2, 4, 3, 1, 10, 40}},
		{"int of a named type", goVar{kind: lang.KindInt, def: 0, typ: "Mode"}, nil, nil, nil, []any{0, 1}, []any{1, 2, 10}},
		{"int beside its declared value", goVar{kind: lang.KindInt, def: 10}, []any{""}, nil, nil, nil, []any{1, 0, 2}},
		{"string", goVar{kind: lang.KindStr, def: "-"}, nil, nil, []string{"_", "-", "/", "."}, nil, []any{"_", "/", "", "x"}},
		{"float", goVar{kind: lang.KindFloat, def: 0.5}, nil, []float64{100}, nil, nil, []any{0.0, 1.0, 2.0, 100.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := settingValues(tc.v, tc.args, tc.nums, tc.strs, tc.consts)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoSettingRows: rows set the target's variables under their package
// path, every variable together and each alone, the calls taking turns,
// never more than the limit; arguments stay positional, since a row's
// inp carries no kwargs.
func TestGoSettingRows(t *testing.T) {
	tg := lang.Target{Data: &goTarget{pkgPath: "example.com/slug", vars: []goVar{{name: "EnableSmartTruncate", kind: lang.KindBool, def: true}, {name: "MaxLength", kind: lang.KindInt}}}}
	rows := goSettingRows(tg, [][]any{{"abc"}, {"a-b c"}}, nil, nil, 5)
	var got []string
	for _, r := range rows {
		if r.Row.HasInp || r.Source != lang.SourceSetting {
			t.Errorf("row %+v: want positional arguments, source %q", r.Row, lang.SourceSetting)
		}
		got = append(got, goCallText(r.Row.Args)+goSettingsText(r.Row.Kwargs))
	}
	want := []string{
		`("abc") with EnableSmartTruncate=false, MaxLength=2`,
		`("a-b c") with EnableSmartTruncate=false, MaxLength=4`,
		`("abc") with EnableSmartTruncate=false`,
		`("a-b c") with EnableSmartTruncate=false`,
		`("abc") with MaxLength=2`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, ok := rows[0].Row.Kwargs["example.com/slug.MaxLength"]; !ok {
		t.Errorf("kwargs %v: want the variable named under its package path", rows[0].Row.Kwargs)
	}
	if rows := goSettingRows(lang.Target{Data: &goTarget{}}, [][]any{{"abc"}}, nil, nil, 5); rows != nil {
		t.Errorf("a target reading no variable: %d rows, want none", len(rows))
	}
}

// TestTableNumbers: the tables the changed lines name give their ranges'
// bounds, the smallest table first and the tables in turn, up to
// maxTableNumbers; code points also give text for string parameters.
func TestTableNumbers(t *testing.T) {
	var big string
	for i := 0; i < 40; i++ {
		big += "{" + string(rune('0'+i%10)) + ", 9},"
	}
	p := writeGoPkg(t, `package p

type table []struct{ lo, hi rune }

var narrow = table{{0x27E6, 0x27ED}, {0x2985, 0x2986}}
var combining = table{`+big+`}
var unused = table{{0x10, 0x20}}

const limit = 70
`)
	tg := &lang.Target{
		BaseText: "func W(r rune) int {\n\tif inTables(r, combining) {\n\t\treturn 0\n\t}\n\tif inTables(r, narrow) {\n\t\treturn 1\n\t}\n\treturn 1\n}",
		HeadText: "func W(r rune) int {\n\tif inTables(r, combining, narrow) || r > limit {\n\t\treturn 0\n\t}\n\treturn 1\n}",
	}
	nums, strs := p.tableNumbers(tg)
	want := []float64{70, 0x27E6, 0x27ED, 0, 9, 0x2985, 0x2986, 1, 2, 3, 4, 5, 6, 7, 8}
	if diff := cmp.Diff(want, nums); diff != "" {
		t.Errorf("numbers (-want +got):\n%s", diff)
	}
	if len(nums) > maxTableNumbers {
		t.Errorf("%d numbers, over %d", len(nums), maxTableNumbers)
	}
	wantStrs := []string{"\u27e6", "\u27e6x", "\u27ed", "\u27edx", "\u2985", "\u2985x", "\u2986", "\u2986x", "\u27e6\u27ed\u2985\u2986"}
	if diff := cmp.Diff(wantStrs, strs); diff != "" {
		t.Errorf("strings (-want +got) (the combining table is written in decimal: no code points):\n%s", diff)
	}
	if nums, _ := p.tableNumbers(&lang.Target{BaseText: "func X() {}", HeadText: "func X() { _ = 1 }"}); nums != nil {
		t.Errorf("changed lines naming no table: %v, want none", nums)
	}
}

// TestMiddlewareNextIsBuilt: a middleware's `next http.Handler` gets the
// harness's counting handler, not "no value could be built": the type
// reads as one premise builds, and its pool is {"$go": "http.Handler"}.
func TestMiddlewareNextIsBuilt(t *testing.T) {
	ty := goType("http.Handler", "next")
	if ty.Kind != lang.KindStr || ty.Text != "http.Handler" {
		t.Fatalf("goType(http.Handler) = %+v", ty)
	}
	pool := goPool(ty, nil)
	want := []any{map[string]any{"$go": "http.Handler", "value": nil}}
	if !reflect.DeepEqual(pool, want) {
		t.Errorf("goPool(http.Handler) = %v, want %v", pool, want)
	}
}

// TestReceiverFieldTakesTheConstantsItsMethodNames: a struct receiver is
// built from a few constants of each field's named type, in declaration
// order; the constants the changed method compares a field with come
// first, so a method that handles one kind more (IntegerToken beside
// DecimalToken) is called on a receiver of that kind.
func TestReceiverFieldTakesTheConstantsItsMethodNames(t *testing.T) {
	src := `package p

type Kind int

const (
	ErrorKind Kind = iota
	SpaceKind
	CommentKind
	StringKind
	DecimalKind
	IntegerKind
	RegexpKind
)

type Lit struct {
	Kind Kind
	Data string
}

func (n Lit) JSON() string {
	if n.Kind == DecimalKind || n.Kind == IntegerKind {
		return n.Data
	}
	return ""
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	head := src[strings.Index(src, "func (n Lit)"):]
	base := strings.Replace(head, " || n.Kind == IntegerKind", "", 1)
	tg := &lang.Target{Sym: diffparse.Symbol{Name: "example.com/p.Lit.JSON", Local: "Lit.JSON", Kind: "method"},
		Sig: &lang.Signature{Language: "go"}, HeadText: head, BaseText: base}
	if why := goPlan(tg, &goPkgs{headDir: dir}, diffparse.File{Path: "p.go"}); why != "" {
		t.Fatalf("goPlan: %s", why)
	}
	for _, r := range tg.Receivers {
		if m, ok := r.(map[string]any); ok && m["Kind"] == 5 {
			return
		}
	}
	t.Errorf("no receiver of IntegerKind (5), the constant the changed line names: %v", tg.Receivers)
}

// TestEmbeddedFieldIsBuilt: a struct embedding a named type (a token's
// kind, as an AST's literal node embeds TokenType) is built with that
// field, named by its type as encoding/json names it; an embedded struct's
// fields are promoted.
func TestEmbeddedFieldIsBuilt(t *testing.T) {
	p := writeGoPkg(t, `package p

type Kind uint32

const (
	A Kind = iota
	B
)

type Pos struct {
	Line int
}

type Lit struct {
	Kind
	*Pos
	Data string
}
`)
	got := p.resolve("Lit", "", 0)
	var names []string
	for _, f := range got.Fields {
		names = append(names, f.Name)
	}
	if want := []string{"Kind", "Line", "Data"}; !reflect.DeepEqual(names, want) {
		t.Errorf("fields of Lit = %v, want %v", names, want)
	}
	if len(got.Fields) > 0 && !reflect.DeepEqual(got.Fields[0].Type.Consts, []any{0, 1}) {
		t.Errorf("the embedded Kind's constants = %v, want [0 1]", got.Fields[0].Type.Consts)
	}
}
