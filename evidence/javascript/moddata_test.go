package javascript

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
)

// TestDataReadersThroughModuleData: a changed module-level const that only
// other module-level declarations read (a pattern inside a table of
// parsers) reaches the functions reading those: parse reads parseFlags,
// built from twoDigitsOptional, which the patch changed.
func TestDataReadersThroughModuleData(t *testing.T) {
	base := `const twoDigitsOptional = "\\d\\d?";
const twoDigits = "\\d\\d";
const emptyDigits = [null, twoDigitsOptional];
const parseFlags = {
  D: ["day", twoDigitsOptional],
  M: ["month", twoDigits],
};
export function parse(s, format) {
  return parseFlags[format] ? s : null;
}
export function pad(s) {
  return twoDigits + s;
}
`
	head := strings.Replace(base, `"\\d\\d?"`, `"[1-9]\\d?"`, 1)
	f := diffparse.File{
		Path: "src/fecha.js", Language: "javascript", Status: "modified",
		BaseSrc: []byte(base), HeadSrc: []byte(head),
		Hunks: []diffparse.Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []diffparse.Line{
			{Kind: '-', Old: 1, Text: strings.SplitN(base, "\n", 2)[0]},
			{Kind: '+', New: 1, Text: strings.SplitN(head, "\n", 2)[0]},
		}}},
	}
	l := &jsLang{lang: "javascript"}
	got, _ := readers(l, f)
	if diff := cmp.Diff([]string{"src/fecha.parse parseFlags"}, got); diff != "" {
		t.Errorf("readers (-want +got):\n%s", diff)
	}
}

// TestDataReadersOfAFunctionTable: a changed function kept in a
// module-level object (fecha's formatFlags.YYYY, inside a UMD factory) is
// called through the table by index; the functions reading the table are
// its readers.
func TestDataReadersOfAFunctionTable(t *testing.T) {
	base := `(function (main) {
  var fecha = {};
  var formatFlags = {
    YYYY: function (d) {
      return pad(d.getFullYear(), 4);
    },
    MM: function (d) {
      return d.getMonth() + 1;
    }
  };
  fecha.format = function (d, mask) {
    return mask.replace(/Y+|M+/g, function (t) { return formatFlags[t](d); });
  };
  fecha.parse = function (s) {
    return s;
  };
  module.exports = fecha;
})(this);
`
	head := strings.Replace(base, "pad(d.getFullYear(), 4)", "d.getFullYear()", 1)
	f := diffparse.File{
		Path: "fecha.js", Language: "javascript", Status: "modified",
		BaseSrc: []byte(base), HeadSrc: []byte(head),
		Symbols: []diffparse.Symbol{{Name: "fecha.formatFlags.YYYY", Local: "formatFlags.YYYY", Kind: "method", Change: "modified", Start: 4, End: 6, ChangedLines: []int{5}}},
		Hunks: []diffparse.Hunk{{OldStart: 5, OldLines: 1, NewStart: 5, NewLines: 1, Lines: []diffparse.Line{
			{Kind: '-', Old: 5, Text: "      return pad(d.getFullYear(), 4);"},
			{Kind: '+', New: 5, Text: "      return d.getFullYear();"},
		}}},
	}
	l := &jsLang{lang: "javascript"}
	got, _ := readers(l, f)
	if diff := cmp.Diff([]string{"fecha.fecha.format fecha.formatFlags.YYYY"}, got); diff != "" {
		t.Errorf("readers (-want +got):\n%s", diff)
	}
}

// TestDataLitsOfARegexTable: a changed regular expression literal in a
// table a UMD factory holds (ua-parser-js' defaultRegexes, hundreds of
// lines long) gives its readers the texts its two versions treat apart,
// its source among the changed data's words, its flags kept.
func TestDataLitsOfARegexTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("(function (window) {\n    var defaultRegexes = {\n        device : [[\n")
	for i := 0; i < 400; i++ {
		b.WriteString("            /(vendor" + strings.Repeat("x", i%7) + ")/i\n            ], [MODEL], [\n")
	}
	b.WriteString("            /(quest( \\d| pro)?)/i                // Oculus Quest\n            ], [MODEL]]\n    };\n")
	b.WriteString("    var UAParser = function (ua) {\n        return defaultRegexes.device.length + ua;\n    };\n    module.exports = UAParser;\n})(this);\n")
	base := b.String()
	head := strings.Replace(base, `( \d| pro)`, `( 2| pro)`, 1)
	line := strings.Count(base[:strings.Index(base, "/(quest")], "\n") + 1
	f := diffparse.File{
		Path: "src/ua-parser.js", Language: "javascript", Status: "modified",
		BaseSrc: []byte(base), HeadSrc: []byte(head),
		Hunks: []diffparse.Hunk{{OldStart: line, OldLines: 1, NewStart: line, NewLines: 1, Lines: []diffparse.Line{
			{Kind: '-', Old: line, Text: strings.Split(base, "\n")[line-1]},
			{Kind: '+', New: line, Text: strings.Split(head, "\n")[line-1]},
		}}},
	}
	l := &jsLang{lang: "javascript"}
	got, lits := readers(l, f)
	if diff := cmp.Diff([]string{"src/ua-parser.UAParser defaultRegexes"}, got); diff != "" {
		t.Errorf("readers (-want +got):\n%s", diff)
	}
	for _, want := range []string{`(?i)(quest( \d| pro)?)`, `(?i)(quest( 2| pro)?)`} {
		if !slices.Contains(lits, want) {
			t.Errorf("the changed data's words %q lack the pattern %q", lits, want)
		}
	}
}

// TestDataValuesOfAStrippedPattern: a removed pattern a function strips
// from its text (URI.js' ascii_tab_whitespace, /[\u0009\u000A\u000D]+/g,
// written with JavaScript's \u escapes) gives texts it matches, alone and
// amid other text: the function trims the ends first, so only a tab
// inside a URL shows the change.
func TestDataValuesOfAStrippedPattern(t *testing.T) {
	lits := jsDataLits([]string{`  URI.ascii_tab_whitespace = /[\u0009\u000A\u000D]+/g`})
	if len(lits) == 0 || lits[0] != `[\x{0009}\x{000A}\x{000D}]+` {
		t.Fatalf("lits %q, want the pattern in Go's syntax first", lits)
	}
	amid := false
	for _, v := range dataValues(lits) {
		if s, ok := v.(string); ok && len(s) > 2 && strings.ContainsAny(s[1:len(s)-1], "\t\n\r") && !strings.ContainsAny(s[:1]+s[len(s)-1:], "\t\n\r") {
			amid = true
		}
	}
	if !amid {
		t.Errorf("dataValues(%q) = %q: no tab or newline amid other text", lits, dataValues(lits))
	}
}

// readers are what DataReaders says of f, a reader a line ("NAME READS"),
// and the changed data's words.
func readers(l *jsLang, f diffparse.File) ([]string, []string) {
	syms, reads, lits := l.DataReaders(f)
	var got []string
	for _, s := range syms {
		got = append(got, s.Name+" "+strings.Join(reads[s.Name], ","))
	}
	return got, lits
}
