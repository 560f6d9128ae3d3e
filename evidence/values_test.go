package evidence

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestValueRows checks that the evidence rows of a signature reach the
// boundaries the agent-patch corpus moves, for each kind of parameter.
func TestValueRows(t *testing.T) {
	tests := []struct {
		name   string
		sig    Signature
		lits   []string
		want   []string // calls (JSON args) that must be among the rows
		reason string
	}{
		{
			name:   "duplicate keys from a separator literal",
			sig:    Signature{Language: "python", Params: []Param{{Name: "lines", Type: "list[str]"}}},
			lits:   []string{"="},
			want:   []string{`[["a=1","a=2"]]`, `[[]]`, `[null]`, `[["a=1","A=2"]]`},
			reason: "a parser that splits on a literal must see two lines with one key",
		},
		{
			name: "negative numeric string",
			sig:  Signature{Language: "python", Params: []Param{{Name: "text", Type: "str"}}},
			want: []string{`["-1"]`, `[""]`, `["   "]`, `["65536"]`},
		},
		{
			name:   "intervals from a Go type",
			sig:    Signature{Language: "go", Params: []Param{{Name: "slots", Type: "[][2]int"}}},
			want:   []string{`[[[0,2],[2,5]]]`, `[[[4,6],[0,1]]]`, `[[[5,1]]]`},
			reason: "touching, unsorted and inverted ranges are the seed 004 classes",
		},
		{
			name: "naive against aware timestamps",
			sig: Signature{Language: "python", Params: []Param{
				{Name: "start", Type: "str"}, {Name: "end", Type: "str"}}},
			want: []string{`["2024-03-01T00:00:00","2024-03-01T01:30:00+00:00"]`},
		},
		{
			name: "an int beside a list keeps the list typical",
			sig: Signature{Language: "python", Params: []Param{
				{Name: "xs", Type: "list[int]"}, {Name: "size", Type: "int"}}},
			want: []string{`[[3],0]`, `[[3],-1]`, `[[],3]`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]bool{}
			for _, r := range valueRows(&tc.sig, tc.lits) {
				args, _ := r.CallArgs()
				b, err := json.Marshal(args)
				if err != nil {
					t.Fatal(err)
				}
				got[string(b)] = true
			}
			for _, w := range tc.want {
				if !got[w] {
					var all []string
					for k := range got {
						all = append(all, k)
					}
					t.Errorf("no row calls %s (%s); rows: %s", w, tc.reason, strings.Join(all, " "))
				}
			}
		})
	}
}

// TestValueRowsUnknownType: a parameter no value can be built for gives no
// rows at all, rather than rows with made-up values.
func TestValueRowsUnknownType(t *testing.T) {
	sig := Signature{Language: "python", Params: []Param{{Name: "x", Type: "int"}, {Name: "thing", Type: "Widget"}}}
	if rows := valueRows(&sig, nil); len(rows) != 0 {
		t.Errorf("got %d rows for a Widget parameter, want none", len(rows))
	}
}

func TestLiterals(t *testing.T) {
	got := literals(`k, v = line.split("=", 1)`, `if ':' not in s: raise ValueError("no colon")`)
	want := []string{"=", ":", "no colon"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("literals = %q, want %q", got, want)
	}
}
