package evidence

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
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
			name: "a flag flipped under every other value",
			sig: Signature{Language: "go", Params: []Param{
				{Name: "elem", Type: "string"}, {Name: "fileName", Type: "bool"}}},
			lits:   []string{"~"},
			want:   []string{`["a~~b",false]`, `["",false]`, `["a~~b",true]`},
			reason: "a bool that switches a check off hides a change to the check from every row that keeps it typical",
		},
		{
			name:   "a suffix after a name and a number",
			sig:    Signature{Language: "python", Params: []Param{{Name: "filename", Type: "str"}}},
			lits:   []string{".tar.gz", "-"},
			want:   []string{`["-1.0.tar.gz"]`, `["a-1.0.tar.gz"]`},
			reason: "a file-name parser's empty name is the suffix after a separator and a version alone",
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
			for _, r := range lang.ValueRows(&tc.sig, tc.lits) {
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
	if rows := lang.ValueRows(&sig, nil); len(rows) != 0 {
		t.Errorf("got %d rows for a Widget parameter, want none", len(rows))
	}
}

func TestLiterals(t *testing.T) {
	got := lang.Literals(`k, v = line.split("=", 1)`, `if ':' not in s: raise ValueError("no colon")`)
	want := []string{"=", ":", "no colon"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("literals = %q, want %q", got, want)
	}
}

// TestComposedText: text is built from the pieces of the patterns a
// function reads, as markup and query parsers meet it: a tag around a
// word, a newline inside a tag, a comment inside a tag, a tag left open.
func TestComposedText(t *testing.T) {
	lits := lang.WithSeparators([]string{`<!--.*?-->`, `(<[^>]*>)`})
	for _, want := range []string{"<!--", "-->", "<", ">"} {
		if !contains(lits, want) {
			t.Errorf("withSeparators: %q missing from %q: a pattern's literal pieces are text it matches", want, lits)
		}
	}
	strs := map[string]bool{}
	for _, v := range lang.Pool(Type{Kind: "str"}, lits) {
		if s, ok := v.(string); ok {
			strs[s] = true
		}
	}
	for _, want := range []string{"a <b> c", "<a\nb>c", "<a <!-- b --> c>d", "<!--a < b > c-->d", "<a"} {
		if !strs[want] {
			t.Errorf("no string %q in the pool of %q", want, lits)
		}
	}
	if !lang.ClosesPair("#(", ")#") || lang.ClosesPair("(", "]") || lang.ClosesPair("-", "-") {
		t.Error("closesPair: #( is closed by )#, ( not by ], and a separator closes nothing")
	}
	if got := lang.PatternPieces(`(`); got != nil {
		t.Errorf("patternPieces of a pattern that does not parse = %q, want nil", got)
	}
}

// TestPatternSamples: a pattern gives words it accepts, the shortest first,
// so a function that tests each word against a rule is reached (d'a for a
// rule about apostrophes, Mca for Mc-names); one that does not parse, such
// as a lookahead, gives none.
func TestPatternSamples(t *testing.T) {
	for pattern, want := range map[string]string{
		`^[dol]{1}['‘]{1}[a-z]+$`: "d'a",
		`^([Mm]c|MC)(\w+)`:        "Mca",
		`[\t ]+`:                  "\t",
		`(?i)^v?\d+(\.\d+)*$`:     "0",
	} {
		got := lang.PatternSamples(pattern)
		if len(got) == 0 || got[0] != want {
			t.Errorf("patternSamples(%q) = %q, want %q first", pattern, got, want)
		}
		re := regexp.MustCompile(pattern)
		for _, s := range got {
			if !re.MatchString(s) {
				t.Errorf("patternSamples(%q) gave %q, which it does not match", pattern, s)
			}
		}
	}
	if got := lang.PatternSamples(`a(?=b)`); got != nil {
		t.Errorf("a lookahead gave %q", got)
	}
}

// TestDistinguishing: of a pattern's two versions, the words they treat
// apart: o'a's for a possessive the fix let through, text before an anchor
// dropped, and, where both match, another capture ("quest 3" is a Quest 3
// to one version of ua-parser-js' table and a Quest to the other).
func TestDistinguishing(t *testing.T) {
	apart := func(a, b, s string) bool {
		x := regexp.MustCompile(a).FindStringSubmatchIndex(s)
		y := regexp.MustCompile(b).FindStringSubmatchIndex(s)
		return fmt.Sprint(x) != fmt.Sprint(y)
	}
	for _, c := range [][2]string{
		{`^[dol]{1}['‘]{1}[a-z]+(?:['s]{2})?$`, `^[dol]{1}['‘]{1}[a-z]+$`},
		// An anchor dropped: every match of either is a match of both, and
		// only text before the match ("00s", "a0s") tells them apart.
		{`^-?0s$`, `0s$`},
		{`(?i)(quest( \d| pro)?)`, `(?i)(quest( 2| pro)?)`},
	} {
		got := lang.Distinguishing(c[0], c[1])
		if len(got) == 0 {
			t.Fatalf("no word tells %q from %q", c[0], c[1])
		}
		for _, s := range got {
			if !apart(c[0], c[1], s) {
				t.Errorf("%q: %q and %q match it alike", s, c[0], c[1])
			}
		}
	}
	if got := lang.Distinguishing(`a+`, `a(?=b)`); got != nil {
		t.Errorf("a lookahead gave %q", got)
	}
}

// TestOneAtATimeSwitchesOptional: a parameter whose typical value is None
// (an optional callback) is a switch as a flag is: every value of the
// other parameters runs with it set too, so clone_with(["ab"], f) is
// tried, not only clone_with(["ab"], None); a flag is flipped for each
// value too.
func TestOneAtATimeSwitchesOptional(t *testing.T) {
	sig := &Signature{Language: "python", Params: []Param{{Name: "value"}, {Name: "customizer", Default: "None"}, {Name: "deep", Default: "False"}}}
	pools := [][]any{{1, []any{"ab"}}, {nil, "f"}, {false, true}}
	seen := map[string]bool{}
	lang.OneAtATime(sig, pools, func(_ string, vals []any) { seen[fmt.Sprint(vals)] = true })
	for _, want := range []string{"[[ab] f false]", "[[ab] <nil> true]", "[[ab] <nil> false]", "[1 <nil> true]", "[1 f false]"} {
		if !seen[want] {
			t.Errorf("no row %s among %v", want, seen)
		}
	}
}
