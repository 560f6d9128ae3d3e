package python

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/evidence/lang"
)

// TestPyStrings: changed module data gives its strings as Python reads
// them, a raw pattern with its backslashes whole, so the words built from
// it (patternSamples) are words the pattern matches.
func TestPyStrings(t *testing.T) {
	got := pyStrings(`MAC_MC = re.compile(r"^([Mm]c)(\w+)")` + "\n" + `TABLE = {'k': "a\tb", "long": "` + strings.Repeat("x", 30) + `"}` + "\n" + `B = b"raw"`)
	want := []string{`^([Mm]c)(\w+)`, "k", "a\tb", "long", strings.Repeat("x", 30)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pyStrings (-want +got):\n%s", diff)
	}
}

func TestPythonSignature(t *testing.T) {
	src := `import x

class Box:
    def merge(self, ranges: list[tuple[int, int]], *, strict: bool = False):
        pass

def merge(a, b):
    pass

async def window(
    items: Sequence[int],  # the items, (commas) in a comment
    n: int = 3,
    sep: str = ", ",
    *rest,
    when: datetime | None = None,
    **kw,
) -> list:
    pass
`
	tests := []struct {
		local string
		want  []lang.Param
	}{
		{"Box.merge", []lang.Param{{Name: "ranges", Type: "list[tuple[int, int]]"}, {Name: "strict", Type: "bool", Default: "False", KeywordOnly: true}}},
		{"merge", []lang.Param{{Name: "a"}, {Name: "b"}}},
		{"window", []lang.Param{{Name: "items", Type: "Sequence[int]"}, {Name: "n", Type: "int", Default: "3"}, {Name: "sep", Type: "str", Default: `", "`},
			{Name: "when", Type: "datetime | None", Default: "None", KeywordOnly: true}}},
	}
	for _, tc := range tests {
		sig, err := SignatureOf([]byte(src), tc.local)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, sig.Params); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.local, d)
		}
	}
	if _, err := SignatureOf([]byte(src), "missing"); err == nil {
		t.Error("want an error for a def that is not there")
	}
}

func TestInferPython(t *testing.T) {
	tests := []struct {
		p      lang.Param
		want   string // kind, with elem after a colon
		reason string
	}{
		{lang.Param{Name: "ranges"}, "intervals", "seed 004's ranges, by name"},
		{lang.Param{Name: "x", Type: "list[tuple[int, int]]"}, "intervals", "pairs of ints"},
		{lang.Param{Name: "xs", Type: "Optional[list[int]]"}, "list:int", ""},
		{lang.Param{Name: "names"}, "list:str", "a plural of a text name"},
		{lang.Param{Name: "n", Default: "3"}, "int", "the default says int"},
		{lang.Param{Name: "sep", Default: `","`}, "str", ""},
		{lang.Param{Name: "when", Type: "datetime"}, "time", ""},
		{lang.Param{Name: "rows"}, "", "nothing says what a row is: a todo, not a guess"},
		{lang.Param{Name: "len_", Default: "None"}, "int", "a length by name (boltons' Bits(val, len_)), None its default"},
		{lang.Param{Name: "ndigits"}, "int", "a count of digits"},
		{lang.Param{Name: "records", Type: "list[Record]"}, "list", "a list of an unknown class has no elements to build"},
	}
	for _, tc := range tests {
		got := inferPython(tc.p)
		s := got.Kind
		if got.Elem != nil {
			s += ":" + got.Elem.Kind
		}
		if s != tc.want {
			t.Errorf("%+v -> %q, want %q (%s)", tc.p, s, tc.want, tc.reason)
		}
	}
}

func TestGuessPoolNeverCancels(t *testing.T) {
	// A parameter nothing speaks for still gets values, and the other
	// parameters' rows with it (issue 13, part 2).
	sig := &lang.Signature{Language: "python", Params: []lang.Param{{Name: "widget"}, {Name: "n"}}}
	rows := pyValueRows(sig, &pyInfo{}, nil, newTestRand(), 80)
	if len(rows) < 20 {
		t.Fatalf("pyValueRows gave %d rows for an unknown and an int parameter, want at least 20", len(rows))
	}
	pairs := 0
	for _, r := range rows {
		if !lang.MadeUp(r.Source) || r.Source == lang.SourceMutation {
			t.Errorf("row %v has source %q, want a generated one", r.Row.Args, r.Source)
		}
		if len(r.Row.Args) == 2 {
			pairs++
		}
	}
	if pairs != len(rows) {
		t.Errorf("%d of %d rows carry both arguments", pairs, len(rows))
	}
}

func newTestRand() *rand.Rand { return rand.New(rand.NewSource(1)) }
