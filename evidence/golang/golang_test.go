package golang

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/evidence/lang"
)

// TestGoLiterals: a function's literals are the values its rows take; a
// rune literal is both the text a string parameter takes and the number a
// rune one does (pathOK(r) compares r with '+'), and a literal inside an
// error message is not an input.
func TestGoLiterals(t *testing.T) {
	strs, nums := goLiterals(`func pathOK(r rune) bool {
	if r == 0 { return false }
	if r == '+' || r == '~' { return true }
	return errors.New("never") != nil && strings.HasPrefix("x", "ab")
}`)
	for _, want := range []string{"+", "~", "ab", "x"} {
		if !slices.Contains(strs, want) {
			t.Errorf("strings %q lack %q", strs, want)
		}
	}
	if slices.Contains(strs, "never") {
		t.Errorf("strings %q hold an error message", strs)
	}
	for _, want := range []float64{0, '+', '~'} {
		found := false
		for _, n := range nums {
			found = found || n == want
		}
		if !found {
			t.Errorf("numbers %v lack %v", nums, want)
		}
	}
}

// TestGoMethodRows: a Go method's receivers all take its typical call,
// and with no other call (a method of no parameters, whose receiver is its
// whole input) they take the whole budget; argument rows still get half.
func TestGoMethodRows(t *testing.T) {
	var recvs []any
	for i := 0; i < 40; i++ {
		recvs = append(recvs, map[string]any{"$new": "p.New", "$args": []any{strings.Repeat("a", i)}})
	}
	rows := goMethodRows(recvs, [][]any{nil}, []string{"no_arguments"}, []string{lang.SourceOneAtATime}, 120)
	if len(rows) != 40 {
		t.Errorf("no parameters: %d rows, want one per receiver (40)", len(rows))
	}
	calls := [][]any{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}}
	classes := make([]string, len(calls))
	sources := make([]string, len(calls))
	for i := range sources {
		sources[i] = lang.SourceOneAtATime
	}
	rows = goMethodRows(recvs, calls, classes, sources, 60)
	if len(rows) != 60 {
		t.Fatalf("%d rows, want the budget of 60", len(rows))
	}
	swept, varied := 0, 0
	for _, r := range rows {
		switch {
		case r.Row.Args[1] == 1 && r.Source == lang.SourceReceiver:
			swept++
		case r.Source == lang.SourceOneAtATime:
			varied++
		}
	}
	if swept != 30 || varied != 30 {
		t.Errorf("typical call on %d receivers and %d argument rows, want 30 and 30", swept, varied)
	}
}

func TestGoSignature(t *testing.T) {
	src, err := os.ReadFile("../../examples/intervals_go/intervals.go")
	if err != nil {
		t.Fatal(err)
	}
	sig, err := SignatureOf(src, "MergeRanges")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]lang.Param{{Name: "ranges", Type: "[][2]int"}}, sig.Params); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := inferGo(sig.Params[0]).Kind; got != lang.KindIntervals {
		t.Errorf("[][2]int is %q, want intervals", got)
	}
	m, err := SignatureOf([]byte("package p\ntype T struct{}\nfunc (t *T) Scale(xs []float64, by float64, names ...string) {}\n"), "p.T.Scale")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]lang.Param{{Name: "xs", Type: "[]float64"}, {Name: "by", Type: "float64"}, {Name: "names", Type: "...string"}}, m.Params); d != "" {
		t.Errorf("method (-want +got):\n%s", d)
	}
	// A generic receiver is named as diffparse names the method.
	generic := []byte("package p\ntype Set[K comparable] struct{}\nfunc (s *Set[K]) Add(k K) {}\nfunc (o Other) Add(n int) {}\n")
	g, err := SignatureOf(generic, "p.Set.Add")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]lang.Param{{Name: "k", Type: "K"}}, g.Params); d != "" {
		t.Errorf("generic method (-want +got):\n%s", d)
	}
	if _, err := SignatureOf(generic, "p.Missing.Add"); err == nil {
		t.Error("p.Missing.Add: found a method of another type")
	}
}

// TestStandardLibraryValues: parameters of math/big's Int, regexp's
// Regexp and time's Location get values (they got none, so their
// functions ran no rows): numbers, patterns as text, and zones as
// {"$go": "*time.Location"} values the harness builds.
func TestStandardLibraryValues(t *testing.T) {
	for typ, kind := range map[string]string{"*big.Int": lang.KindInt, "*regexp.Regexp": lang.KindStr, "*time.Location": lang.KindStr} {
		if got := inferGo(lang.Param{Name: "x", Type: typ}); got.Kind != kind || !got.Nullable {
			t.Errorf("%s: %+v, want a nullable %s", typ, got, kind)
		}
	}
	zones := goLocations()
	if len(zones) < 3 || zones[len(zones)-1] != nil {
		t.Fatalf("zones %v: want several and nil", zones)
	}
	for _, z := range zones[:len(zones)-1] {
		m, ok := z.(map[string]any)
		if !ok || m["$go"] != "*time.Location" {
			t.Errorf("zone %v is not a $go *time.Location value", z)
		}
	}
}

// TestDecoderTargetIsAPointer: a harvested object or nil given to an
// interface parameter also runs as a pointer to it, a decoder's target;
// other arguments and typed values stay as they are, and a call with
// nothing to fill has no twin.
func TestDecoderTargetIsAPointer(t *testing.T) {
	params := []lang.Param{{Name: "data", Type: "string"}, {Name: "v", Type: "any"}}
	got := filledThrough([]any{"a = 1", map[string]any{}}, params, false)
	want := []any{"a = 1", map[string]any{"$go": "*any", "value": map[string]any{}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode(doc, {}): twin %v, want %v", got, want)
	}
	if got := filledThrough([]any{map[string]any{"$new": "x.New", "$args": []any{}}, "a", nil}, []lang.Param{{Name: "s", Type: "string"}, {Name: "v", Type: "interface{}"}}, true); !reflect.DeepEqual(got[2], map[string]any{"$go": "*any", "value": nil}) || !reflect.DeepEqual(got[0], map[string]any{"$new": "x.New", "$args": []any{}}) {
		t.Errorf("a method's nil target: twin %v", got)
	}
	for _, args := range [][]any{{"a = 1", "text"}, {"a = 1", map[string]any{"$go": "int", "value": 1}}} {
		if got := filledThrough(args, params, false); got != nil {
			t.Errorf("%v: twin %v, want none", args, got)
		}
	}
}
