package gosource

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	semverOnce sync.Once
	semverPkg  *Package
	semverErr  error
)

// loadSemver loads testdata/semver once: the fixture in the styles real
// packages test in.
func loadSemver(t *testing.T) *Package {
	t.Helper()
	semverOnce.Do(func() { semverPkg, semverErr = Load("testdata/semver") })
	if semverErr != nil {
		t.Fatal(semverErr)
	}
	return semverPkg
}

func TestCalls(t *testing.T) {
	p := loadSemver(t)
	mustParse := func(s string) *Ctor { return &Ctor{Type: "Version", Func: "MustParse", Args: []Value{s}} }
	tests := []struct {
		name   string
		fn     string
		want   []Call
		reason string
	}{
		{
			name: "direct calls, tables, helpers, fuzz seeds, external tests",
			fn:   "Compare",
			want: []Call{
				{Args: []Value{"1.0.0", "1.0.1"}, Pos: "semver_test.go:10", Kind: KindTest},
				{Args: []Value{"1.2", `{"a":1}`}, Pos: "semver_test.go:11", Kind: KindTest},
				{Args: []Value{"local", "local"}, Pos: "semver_test.go:21", Kind: KindTest},
				{Args: []Value{"ababab", "b"}, Pos: "semver_test.go:24", Kind: KindTest},
				{Args: []Value{"1.0", "2.0"}, Pos: "semver_test.go:36", Kind: KindTable},
				{Args: []Value{"3.0", "3.0"}, Pos: "semver_test.go:37", Kind: KindTable},
				{Args: []Value{"after", "sequential"}, Pos: "semver_test.go:106", Kind: KindTest},
				{Args: []Value{"9.9", "0"}, Pos: "semver_test.go:129", Kind: KindTest},
				{Args: []Value{"s1", "s2"}, Pos: "semver_test.go:135", Kind: KindFuzzSeed},
				{Args: []Value{"s3", "s3"}, Pos: "semver_test.go:136", Kind: KindFuzzSeed},
				{Args: []Value{"ext", "pre"}, Pos: "ext_test.go:11", Kind: KindTest},
				{Args: []Value{"ex1", "ex2"}, Pos: "ext_test.go:16", Kind: KindExample},
			},
			reason: "Compare(runtimeValue(), ...) and Compare(x, ...) with x changed in a loop are dropped; a table row's position is the row's",
		},
		{
			name: "slices, a map table, a closure, the corpus",
			fn:   "Sum",
			want: []Call{
				{Args: []Value{[]any{int64(1), int64(-2), int64(3)}}, Pos: "semver_test.go:12", Kind: KindTest},
				{Args: []Value{[]any{int64(2147483647), int64(3)}}, Pos: "semver_test.go:23", Kind: KindTest},
				{Args: []Value{[]any{int64(1)}}, Pos: "semver_test.go:50", Kind: KindTable},
				{Args: []Value{[]any{int64(1), int64(2)}}, Pos: "semver_test.go:51", Kind: KindTable},
				{Args: []Value{[]any{int64(4), int64(4)}}, Pos: "semver_test.go:131", Kind: KindTest},
				{Args: []Value{[]any{int64(5)}}, Pos: "testdata/fuzz/FuzzHash/seed1", Kind: KindFuzzCorpus},
			},
		},
		{
			name: "[]byte arguments",
			fn:   "Hash",
			want: []Call{
				{Args: []Value{[]byte("xy")}, Pos: "semver_test.go:15", Kind: KindTest},
				{Args: []Value{[]byte("abc")}, Pos: "testdata/fuzz/FuzzHash/seed1", Kind: KindFuzzCorpus},
			},
			reason: "seed2 holds a NaN, seed3 is not a corpus file",
		},
		{
			name: "variadic arguments fold into a list",
			fn:   "Join",
			want: []Call{
				{Args: []Value{",", []any{"a", "b"}}, Pos: "semver_test.go:16", Kind: KindTest},
				{Args: []Value{";", []any{}}, Pos: "semver_test.go:17", Kind: KindTest},
			},
		},
		{
			name: "iota constants of a named type, in a named positional table",
			fn:   "Kind",
			want: []Call{
				{Args: []Value{int64(1)}, Pos: "semver_test.go:18", Kind: KindTest},
				{Args: []Value{int64(3)}, Pos: "semver_test.go:72", Kind: KindTable},
				{Args: []Value{int64(16)}, Pos: "semver_test.go:72", Kind: KindTable},
				{Args: []Value{int64(0)}, Pos: "ext_test.go:12", Kind: KindTest},
			},
		},
		{
			name: "untyped constants take the parameter's type",
			fn:   "Scale",
			want: []Call{
				{Args: []Value{float64(2)}, Pos: "semver_test.go:14", Kind: KindTest},
				{Args: []Value{1.5}, Pos: "semver_test.go:26", Kind: KindTest},
				{Args: []Value{float64(1)}, Pos: "shared_test.go:9", Kind: KindTable},
			},
			reason: "the table is a var of another test file; its second row repeats Scale(2)",
		},
		{
			name: "structs and maps",
			fn:   "Apply",
			want: []Call{{Args: []Value{map[string]any{"Strict": true, "Depth": int64(2)}, `raw\n`}, Pos: "semver_test.go:19", Kind: KindTest}},
		},
		{
			name: "a map argument",
			fn:   "Lookup",
			want: []Call{{Args: []Value{map[string]any{"a": int64(1)}, "a"}, Pos: "semver_test.go:13", Kind: KindTest}},
		},
		{
			name: "a generic function",
			fn:   "First",
			want: []Call{{Args: []Value{[]any{int64(7)}}, Pos: "semver_test.go:25", Kind: KindTest}},
		},
		{
			name: "a known condition skips its row",
			fn:   "Never",
			want: []Call{
				{Args: []Value{"taken"}, Pos: "semver_test.go:113", Kind: KindTable},
				{Args: []Value{"fv1"}, Pos: "semver_test.go:162", Kind: KindTable},
				{Args: []Value{"fv2"}, Pos: "semver_test.go:162", Kind: KindTable},
			},
			reason: "the row with skip true continues before the call; runAll calls Never passed as a value",
		},
		{
			name: "a method on constructor-built values",
			fn:   "(*Version).LessThan",
			want: []Call{{
				Args:     []Value{mustParse("1.3.0")},
				Receiver: &Ctor{Type: "Version", Func: "NewVersion", Args: []Value{"1.2.3"}},
				Pos:      "semver_test.go:85", Kind: KindTest,
			}},
		},
		{
			name: "chained, literal and table receivers",
			fn:   "Version.String",
			want: []Call{
				{Args: []Value{}, Receiver: mustParse("2.0.0"), Pos: "semver_test.go:86", Kind: KindTest},
				{Args: []Value{}, Receiver: &Ctor{Type: "Version", Literal: map[string]Value{"Major": int64(1)}}, Pos: "semver_test.go:87", Kind: KindTest},
				{Args: []Value{}, Receiver: mustParse("0.1.0"), Pos: "semver_test.go:92", Kind: KindTable},
				{Args: []Value{}, Receiver: &Ctor{Type: "Version", Literal: map[string]Value{"Major": int64(2)}}, Pos: "semver_test.go:152", Kind: KindTest},
			},
			reason: "a receiver's field that is not known (Pre: runtimeValue()) is left out",
		},
		{
			name: "a method of a named integer type",
			fn:   "pathKind.String",
			want: []Call{
				{Args: []Value{}, Receiver: &Ctor{Type: "pathKind", Value: int64(3)}, Pos: "semver_test.go:72", Kind: KindTable},
				{Args: []Value{}, Receiver: &Ctor{Type: "pathKind", Value: int64(16)}, Pos: "semver_test.go:72", Kind: KindTable},
			},
		},
		{name: "a function no test calls", fn: "Never2", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := p.Calls(tt.fn)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Calls(%q) (-want +got):\n%s\n%s", tt.fn, diff, tt.reason)
			}
		})
	}
}

func TestCtorCalls(t *testing.T) {
	p := loadSemver(t)
	want := []Ctor{
		{Type: "Version", Func: "NewVersion", Args: []Value{"1.2.3"}},
		{Type: "Version", Func: "MustParse", Args: []Value{"1.3.0"}},
		{Type: "Version", Func: "MustParse", Args: []Value{"2.0.0"}},
		{Type: "Version", Literal: map[string]Value{"Major": int64(1)}},
		{Type: "Version", Func: "MustParse", Args: []Value{"0.1.0"}},
		{Type: "Version", Literal: map[string]Value{"Major": int64(2)}},
	}
	if diff := cmp.Diff(want, p.CtorCalls("Version")); diff != "" {
		t.Errorf("CtorCalls(Version) (-want +got):\n%s", diff)
	}
	if got := p.CtorCalls("namedCase"); len(got) != 0 {
		t.Errorf("CtorCalls(namedCase) = %v, want none: the type is a test file's", got)
	}
}

func TestDeclarations(t *testing.T) {
	p := loadSemver(t)
	if diff := cmp.Diff([]Constructor{
		{Name: "MustParse", Params: []Param{{Name: "s", Type: "string"}}},
		{Name: "NewVersion", Params: []Param{{Name: "s", Type: "string"}}},
	}, p.Constructors("Version")); diff != "" {
		t.Errorf("Constructors(Version) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Value{int64(0), int64(1), int64(3), int64(16)}, p.Consts("pathKind")); diff != "" {
		t.Errorf("Consts(pathKind) (-want +got):\n%s", diff)
	}
	for typ, want := range map[string]string{"pathKind": "int", "level": "int", "Options": "struct{...}", "Missing": ""} {
		if got := p.Underlying(typ); got != want {
			t.Errorf("Underlying(%s) = %q, want %q", typ, got, want)
		}
	}
	if diff := cmp.Diff([]Field{
		{Name: "Major", Type: "int", Exported: true},
		{Name: "Minor", Type: "int", Exported: true},
		{Name: "Patch", Type: "int", Exported: true},
		{Name: "Pre", Type: "string", Exported: true},
		{Name: "raw", Type: "string"},
	}, p.Fields("Version")); diff != "" {
		t.Errorf("Fields(Version) (-want +got):\n%s", diff)
	}
	if p.Name != "semver" || p.ImportPath != "example.com/semver" {
		t.Errorf("Name, ImportPath = %q, %q; want semver, example.com/semver", p.Name, p.ImportPath)
	}
}

func TestLiterals(t *testing.T) {
	p := loadSemver(t)
	lits := p.Literals()
	has := func(kind string, v Value) bool {
		for _, x := range lits[kind] {
			if x == v {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		kind string
		v    Value
	}{{"string", "1.0.0"}, {"string", `{"a":1}`}, {"string", `raw\n`}, {"int", int64(-2)}, {"int", int64(7)}, {"float", 1.5}} {
		if !has(c.kind, c.v) {
			t.Errorf("Literals()[%s] lacks %#v: %v", c.kind, c.v, lits[c.kind])
		}
	}
	if has("string", "semver") {
		t.Error(`Literals()["string"] holds an import path`)
	}
	seen := map[Value]bool{}
	for _, v := range lits["string"] {
		if seen[v] {
			t.Errorf("Literals()[string] repeats %q", v)
		}
		seen[v] = true
	}
}

// TestExternalOnly loads a package whose tests are all external and import
// it by a path that is not its directory's (no go.mod above it), with one
// file that does not parse.
func TestExternalOnly(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"humanize.go", "comma_test.go", "dot_test.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "humanize", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package humanize\n\nfunc ( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Call{
		{Args: []Value{int64(-1000)}, Pos: "comma_test.go:13", Kind: KindTable},
		{Args: []Value{int64(1 << 40)}, Pos: "comma_test.go:13", Kind: KindTable},
	}, p.Calls("Comma")); diff != "" {
		t.Errorf("Calls(Comma) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Call{
		{Args: []Value{uint64(18446744073709551615)}, Pos: "dot_test.go:10", Kind: KindTest},
	}, p.Calls("Bytes")); diff != "" {
		t.Errorf("Calls(Bytes) through a dot import (-want +got):\n%s", diff)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Load of a missing directory: no error")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\nfunc ("), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("Load of a directory of unparseable files: no error")
	}
}

// TestConcurrentQueries asks one Package from many goroutines, as the
// evidence stage may for several changed functions at once (go test -race
// holds the lock to its word).
func TestConcurrentQueries(t *testing.T) {
	p, err := Load("testdata/semver")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(p.Calls("Compare")) == 0 || len(p.Consts("pathKind")) != 4 || len(p.CtorCalls("Version")) == 0 || len(p.Literals()["string"]) == 0 || p.Underlying("level") != "int" {
				t.Error("a concurrent query lost its answer")
			}
		}()
	}
	wg.Wait()
}

// TestTableExtendedInInit: a table an init function appends to still
// holds the rows its literal lists, which the tests do pass; a table an
// init function replaces holds none that can be trusted.
func TestTableExtendedInInit(t *testing.T) {
	p, err := Load("testdata/tables")
	if err != nil {
		t.Fatal(err)
	}
	var got []Value
	for _, c := range p.Calls("Plural") {
		got = append(got, c.Args...)
	}
	if diff := cmp.Diff([]Value{"car", "boy"}, got); diff != "" {
		t.Errorf("Calls(Plural) arguments (-want +got):\n%s", diff)
	}
}
