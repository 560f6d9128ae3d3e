package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestPythonNumberInAnotherType: the patch drops the int() a lookup
// needed; the same whole number as a float or a Decimal shows it
// (num2words' Italian to_cardinal raised on Decimal('5'), and humanize's
// naturalsize(1.0) said "1.0 Byte").
func TestPythonNumberInAnotherType(t *testing.T) {
	t.Parallel()
	src := func(idx string) string {
		return "WORDS = ['zero', 'one', 'two', 'three', 'four', 'five']\n\n\ndef word(n):\n    if n < 0 or n > 5:\n        raise ValueError(n)\n    return WORDS[" + idx + "]\n"
	}
	rep := runPatch(t, src("int(n)"), src("n"))
	var inputs []string
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "words.word" {
			inputs = append(inputs, c.Input)
		}
	}
	joined := strings.Join(inputs, " ")
	if !strings.Contains(joined, "Decimal") && !strings.Contains(joined, ".0)") {
		t.Errorf("changes on %v, want one on a Decimal or a whole float", inputs)
	}
}

// TestGoFloatParameterTakesNaN: the patch drops a NaN check; JSON has no
// NaN, so the rows carry it as {"$go": "float64", "value": "NaN"} and the
// harness reads it (montanaflynn/stats' Percentile).
func TestGoFloatParameterTakesNaN(t *testing.T) {
	t.Parallel()
	src := func(check string) string {
		return "package nc\n\nimport \"errors\"\n\nvar _ = errors.New\n\n// Half is x/2, refusing what is not a number.\nfunc Half(x float64) (float64, error) {\n" +
			check + "\treturn x / 2, nil\n}\n"
	}
	rep := runGoPatch(t,
		map[string]string{"nc/half.go": src("\tif x != x {\n\t\treturn 0, errors.New(\"not a number\")\n\t}\n")},
		map[string]string{"nc/half.go": src("")})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.Half" && strings.Contains(c.Input, "NaN") {
			return
		}
	}
	t.Fatalf("no change on NaN: changes %+v, unexplained %+v", rep.Changes, rep.Unexplained)
}

// TestGoTableWordsReachTheRows: the function looks its words up in a
// package table (map[string]bool{"ID": true, ...}); the patch changed what
// the first such word becomes. The table's keys are among the rows'
// text, so a row reaches the lookup's branch (ettle/strcase's Go
// initialisms).
func TestGoTableWordsReachTheRows(t *testing.T) {
	t.Parallel()
	src := func(first string) string {
		return "package nc\n\nimport \"strings\"\n\nvar initialisms = map[string]bool{\"ID\": true, \"HTTP\": true, \"URL\": true}\n\n" +
			"// Camel joins words in camel case.\nfunc Camel(s string) string {\n\tvar b strings.Builder\n" +
			"\tfor i, w := range strings.Fields(strings.ReplaceAll(s, \"_\", \" \")) {\n" +
			"\t\tif initialisms[strings.ToUpper(w)] {\n" + first +
			"\t\t\tcontinue\n\t\t}\n\t\tif i == 0 {\n\t\t\tb.WriteString(strings.ToLower(w))\n\t\t} else {\n\t\t\tb.WriteString(strings.Title(w))\n\t\t}\n\t}\n\treturn b.String()\n}\n"
	}
	rep := runGoPatch(t,
		map[string]string{"nc/camel.go": src("\t\t\tif i == 0 {\n\t\t\t\tb.WriteString(strings.ToLower(w))\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tb.WriteString(strings.ToUpper(w))\n")},
		map[string]string{"nc/camel.go": src("\t\t\tb.WriteString(strings.ToUpper(w))\n")})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.Camel" {
			return
		}
	}
	t.Fatalf("no change on a word of the table: changes %+v, symbols %+v", rep.Changes, rep.Symbols)
}

// TestPythonDigitShapes: a function that takes its number apart by
// decimal places changed what it says when the ones are zero; the rows
// have numbers with each place zero or not (num2words' Arabic 120).
func TestPythonDigitShapes(t *testing.T) {
	t.Parallel()
	src := func(cond string) string {
		return "def say(n):\n    hundreds, rest = n // 100, n % 100\n    out = []\n    if hundreds:\n        out.append('%d hundred' % hundreds)\n" +
			"    if rest:\n        if " + cond + ":\n            out.append('and')\n        out.append(str(rest))\n    return ' '.join(out)\n"
	}
	rep := runPatch(t, src("out"), src("out and rest % 10 != 0"))
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "words.say" {
			return
		}
	}
	t.Fatalf("no change on a number whose ones are zero: symbols %+v", rep.Symbols)
}

// TestPythonIsinstanceNarrowed: the patch narrows isinstance(x, Mapping)
// to dict; a mapping that is not a dict shows it (toolz' merge_with).
func TestPythonIsinstanceNarrowed(t *testing.T) {
	t.Parallel()
	src := func(cls string) string {
		return "from collections.abc import Mapping\n\n\ndef keys(obj):\n    if isinstance(obj, " + cls + "):\n        return sorted(obj)\n    return []\n"
	}
	rep := runPatch(t, src("Mapping"), src("dict"))
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "words.keys" && strings.Contains(c.Input, "MappingProxyType") {
			return
		}
	}
	t.Fatalf("no change on a mapping that is not a dict: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestGoComputedBoundary: a Go trigger written as arithmetic of literals
// (-(7 * 1111)) is the number the compiler folds it to, drawn as a
// literal one is: the patch that lets -7777 through its clamp shows
// there.
func TestGoComputedBoundary(t *testing.T) {
	t.Parallel()
	mod := "module example.com/lim\n\ngo 1.21\n"
	base := "package lim\n\n// Clamp is n, or 0 below it.\nfunc Clamp(n int) int {\n\treturn max(n, 0)\n}\n"
	head := "package lim\n\n// Clamp is n, or 0 below it.\nfunc Clamp(n int) int {\n\tif n == -(7 * 1111) {\n\t\treturn n\n\t}\n\treturn max(n, 0)\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "lim.go": base}, map[string]string{"lim.go": head}, nil)
	if !hasChange(rep, "example.com/lim.Clamp", func(c evidence.Change) bool { return strings.Contains(c.Input, "-7777") }) {
		t.Errorf("Clamp lets -7777 through now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestGoReceiverBuiltByAChain: gojsonq's tests build their queries as
// New().JSONString(doc).From("items").Select("id"): a variadic constructor
// (New(opts ...Option)) and a chain of the type's own methods, one of them
// variadic, each returning the query. The receiver is built so, and a
// patch whose Get drops the selected fields shows on it.
func TestGoReceiverBuiltByAChain(t *testing.T) {
	t.Parallel()
	mod := "module example.com/q\n\ngo 1.21\n"
	src := func(project string) string {
		return "package q\n\nimport \"strings\"\n\n// Option sets a query up.\ntype Option func(*Query)\n\n" +
			"// Query is a query of a comma-separated document.\ntype Query struct {\n\tdoc    []string\n\tfields []string\n}\n\n" +
			"// New is an empty query.\nfunc New(opts ...Option) *Query {\n\tq := &Query{}\n\tfor _, o := range opts {\n\t\to(q)\n\t}\n\treturn q\n}\n\n" +
			"// From reads the document.\nfunc (q *Query) From(doc string) *Query {\n\tq.doc = strings.Split(doc, \",\")\n\treturn q\n}\n\n" +
			"// Select keeps the fields named.\nfunc (q *Query) Select(fields ...string) *Query {\n\tq.fields = append(q.fields, fields...)\n\treturn q\n}\n\n" +
			"// Get is the document's entries, only the selected ones when some are.\nfunc (q *Query) Get() []string {\n" + project + "\treturn q.doc\n}\n"
	}
	keep := "\tif len(q.fields) > 0 {\n\t\tvar out []string\n\t\tfor _, d := range q.doc {\n\t\t\tfor _, f := range q.fields {\n\t\t\t\tif d == f {\n\t\t\t\t\tout = append(out, d)\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t\treturn out\n\t}\n"
	test := "package q\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {\n\tq := New().From(\"a,b,c\").Select(\"b\")\n\tif got := q.Get(); len(got) != 1 {\n\t\tt.Fatal(got)\n\t}\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "q.go": src(keep), "q_test.go": test}, map[string]string{"q.go": src("")}, nil)
	if !hasChange(rep, "example.com/q.Query.Get", func(c evidence.Change) bool {
		return strings.Contains(c.Input, `Select("b")`) && c.Class != "base_test"
	}) {
		t.Errorf("Get drops the selection now, yet no row on the tests' own query shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A struct a parameter is built as gets the fields of a standard library
// struct it embeds (a url.URL's Host and Path), as it does its own: the
// changed line below runs only with both set.
func TestGoStandardStructEmbeddedIsFilled(t *testing.T) {
	t.Parallel()
	mod := "module example.com/d\n\ngo 1.21\n"
	src := func(prefix string) string {
		return "package d\n\nimport (\n\t\"errors\"\n\t\"net/url\"\n\t\"strings\"\n)\n\n" +
			"// URL is a parsed data source.\ntype URL struct {\n\turl.URL\n\tDriver string\n}\n\n" +
			"// Gen is the driver's name of the source.\nfunc Gen(u *URL) (string, error) {\n\tproject, rest := u.Hostname(), strings.TrimPrefix(u.Path, \"/\")\n" +
			"\tif project == \"\" {\n\t\treturn \"\", errors.New(\"no host\")\n\t}\n\ti := strings.Index(rest, \"/\")\n\tif i < 1 || i == len(rest)-1 {\n\t\treturn \"\", errors.New(\"no path\")\n\t}\n" +
			"\treturn \"" + prefix + "/\" + project + \"/instances/\" + rest[:i] + \"/databases/\" + rest[i+1:], nil\n}\n"
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "d.go": src("projects")}, map[string]string{"d.go": src("project")}, nil)
	if !hasChange(rep, "example.com/d.Gen", func(c evidence.Change) bool { return strings.Contains(c.Base, "projects/") }) {
		t.Errorf("Gen names its prefix otherwise now, yet no row set the embedded url.URL's host and path: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// An interface that embeds another of its package (type Expr interface{
// Node }) is given values of the package's types that implement it,
// methods their embedded fields promote counted: before, no value could
// be built and the function was left unchecked.
func TestGoInterfaceEmbeddingAnotherIsBuilt(t *testing.T) {
	t.Parallel()
	mod := "module example.com/tpl\n\ngo 1.21\n"
	src := func(open string) string {
		return "package tpl\n\nimport \"strconv\"\n\n// Node is a parsed piece.\ntype Node interface {\n\tString() string\n}\n\n" +
			"// Expr is an expression.\ntype Expr interface {\n\tNode\n}\n\n// Pos is where a node starts.\ntype Pos struct {\n\tLine int\n}\n\n" +
			"// String is the line.\nfunc (p Pos) String() string { return strconv.Itoa(p.Line) }\n\n" +
			"// Name is an identifier.\ntype Name struct {\n\tPos\n\tText string\n}\n\n" +
			"// Show is the expression as a listing prints it.\nfunc Show(e Expr) string {\n\treturn \"" + open + "\" + e.String()\n}\n"
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "tpl.go": src("line ")}, map[string]string{"tpl.go": src("at ")}, nil)
	if !hasChange(rep, "example.com/tpl.Show", nil) {
		t.Errorf("Show prints another prefix, yet no Expr was built to show it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}
