package javascript

import (
	"slices"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
)

// TestTestFiles: the paths read for test inputs, and those that are code.
func TestTestFiles(t *testing.T) {
	for path, want := range map[string]bool{
		"test/balanced.js":        true,
		"tests/parse.ts":          true,
		"src/__tests__/a.tsx":     true,
		"src/ranges.test.js":      true,
		"src/ranges.spec.mts":     true,
		"lib/ranges-test.js":      true,
		"lib/ranges_test.cjs":     true,
		"test-parse.js":           true,
		"tests.js":                true,
		"test.js":                 true,
		"packages/ms/spec.ts":     true,
		"spec/toOrdinalSpec.js":   true,
		"src/parserTest.ts":       true,
		"spec/helpers/setup.js":   true,
		"src/inspect.js":          false,
		"src/Respect.js":          false,
		"src/ranges.js":           false,
		"src/contest.js":          false,
		"src/attestation.js":      false,
		"lib/testing-library.txt": false,
		"src/latest.js":           false,
	} {
		if got := jsTestFileRe.MatchString(path); got != want {
			t.Errorf("%s: test file %v, want %v", path, got, want)
		}
	}
}

// TestInferReadonlyArrays: a TypeScript readonly array is a list of its
// element's kind, as its mutable form is, not any value.
func TestInferReadonlyArrays(t *testing.T) {
	l := &jsLang{lang: "typescript"}
	for _, c := range []struct {
		typ        string
		kind, elem string
		reason     string
	}{
		{"number[]", lang.KindList, lang.KindInt, "the mutable form, as before"},
		{"readonly number[]", lang.KindList, lang.KindInt, "readonly changes what the callee may do, not what it takes"},
		{"readonly T[]", lang.KindList, lang.KindAny, "a type parameter's elements are any value, the list still a list"},
		{"readonly string[] | undefined", lang.KindList, lang.KindStr, "nullable too"},
		{"ReadonlyArray<number>", lang.KindList, lang.KindInt, "the generic spelling, as before"},
	} {
		got := l.Infer(lang.Param{Name: "items", Type: c.typ})
		elem := ""
		if got.Elem != nil {
			elem = got.Elem.Kind
		}
		if got.Kind != c.kind || elem != c.elem {
			t.Errorf("%s: kind %q elem %q, want %q %q (%s)", c.typ, got.Kind, elem, c.kind, c.elem, c.reason)
		}
	}
}

// TestExportedThroughABoundName: a function the module binds to another
// name and exports under it (fast-diff: var diff = diff_main;
// module.exports = diff) is called as that export.
func TestExportedThroughABoundName(t *testing.T) {
	for _, c := range []struct {
		src, name, want string
	}{
		{"function diff_main(a, b) {}\nvar diff = diff_main;\ndiff.INSERT = 1;\nmodule.exports = diff;\n", "diff_main", "default"},
		{"function parseImpl(s) {}\nconst parse = parseImpl;\nexport default parse;\n", "parseImpl", "default"},
		{"function parseImpl(s) {}\nconst parse = parseImpl;\nexports.parse = parse;\n", "parseImpl", "parse"},
		{"function helper(s) {}\nvar h = helper;\nmodule.exports = other;\n", "helper", ""},
	} {
		if got := jsExportedAs([]byte(c.src), c.name); got != c.want {
			t.Errorf("%q in %q: exported as %q, want %q", c.name, c.src, got, c.want)
		}
	}
}

// TestLengthComparedAsTheSeamReadsIt: a JavaScript length (text1.length,
// $s.length) is read as the seam's len(x), so the index compared with it
// gets rows at that length; a field's length (opts.text1.length) is not
// the parameter's.
func TestLengthComparedAsTheSeamReadsIt(t *testing.T) {
	params := []lang.Param{{Name: "text1"}, {Name: "$s"}, {Name: "cursor_pos"}}
	text := "if (cursor_pos < 0 || text1.length < cursor_pos) {}\nif (cursor_pos !== $s.length) {}\nif (this.length > cursor_pos) {}\nif (opts.text1.length > cursor_pos) {}"
	got := lang.LengthPairs(jsLengths(text), params)
	if want := []lang.LengthPair{{Of: 0, Num: 2}, {Of: 1, Num: 2}}; !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
}

// TestOptionKeysLeaveOutWhatEveryValueHas: a parameter read as
// b.toString(16) (parsimmon's byte) or n.toFixed(2) is no options
// object: its rows were {toString: true} and the like, and the numbers
// the function compares it with never ran.
func TestOptionKeysLeaveOutWhatEveryValueHas(t *testing.T) {
	if got := optionKeys([]string{"toString"}); len(got) != 0 {
		t.Errorf("toString alone: %v, want no options keys", got)
	}
	if got := optionKeys([]string{"toFixed", "valueOf", "hasOwnProperty"}); len(got) != 0 {
		t.Errorf("a number's methods: %v, want no options keys", got)
	}
	if got := optionKeys([]string{"maxAge", "toString", "sameSite"}); !slices.Equal(got, []string{"maxAge", "sameSite"}) {
		t.Errorf("an options object read with toString too: %v, want [maxAge sameSite]", got)
	}
}
