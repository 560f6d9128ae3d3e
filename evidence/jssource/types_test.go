package jssource

import (
	"testing"
)

// TestInferTypes reads TypeScript annotations, JSDoc tags and defaults
// into guesses a row builder can use.
func TestInferTypes(t *testing.T) {
	ts := parse(t, "src/m.ts", `type Order = "asc" | "desc";
export function sortBy(
  xs: readonly number[],
  key?: string | null,
  order: Order = "asc",
  limit = 10,
  pairs: Array<[string, number]> = [],
  byName: Record<string, boolean> = {},
  when: Date | undefined = undefined,
  seen: Set<bigint>,
  idx: { [k: string]: number },
  ...rest: string[]
) {}
`)
	got, err := InferTypes(ts, "src/m.sortBy")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		s, from  string
		optional bool
	}{
		"xs":     {"array[number]", FromAnnotation, false},
		"key":    {"string?", FromAnnotation, true},
		"order":  {`string("asc"|"desc")`, FromAnnotation, true},
		"limit":  {"number", FromDefault, true},
		"pairs":  {"array[tuple[string, number]]", FromAnnotation, true},
		"byName": {"record[string, boolean]", FromAnnotation, true},
		"when":   {"Date?", FromAnnotation, true},
		"seen":   {"set[bigint]", FromAnnotation, false},
		"idx":    {"record[string, number]", FromAnnotation, false},
		"rest":   {"array[string]", FromAnnotation, false},
	}
	for name, w := range want {
		g := got[name]
		if g.String() != w.s || g.From != w.from || g.Optional != w.optional {
			t.Errorf("%s: got %s from %q optional %v, want %s from %q optional %v", name, g, g.From, g.Optional, w.s, w.from, w.optional)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d parameters, want %d: %v", len(got), len(want), got)
	}
	if !got["rest"].Rest {
		t.Error("rest is a rest parameter")
	}

	js := parse(t, "src/m.js", `/**
 * Splits text.
 * @param {string} text the text
 * @param {?number=} max at most this many
 * @param {Array.<string>} seps
 * @param {Object.<string, number>} weights
 * @param {*} anything
 * @param {{a: number}} opts
 * @param {number} opts.a a field, not a parameter
 * @param [flag]
 * @param {string|number} id
 */
export const split = (text, max, seps, weights, anything, opts, flag = false, id, untyped) => text;
`)
	got, err = InferTypes(js, "split")
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string]string{
		"text": "string", "max": "number?", "seps": "array[string]", "weights": "record[string, number]",
		"anything": "any", "opts": "object", "flag": "boolean", "id": "string | number", "untyped": "?",
	} {
		if g := got[name]; g.String() != w {
			t.Errorf("%s: got %s (from %q), want %s", name, g, g.From, w)
		}
	}
	if g := got["max"]; !g.Optional || g.From != FromJSDoc {
		t.Errorf("max: %+v, want optional from jsdoc", g)
	}
	if g := got["flag"]; g.From != FromDefault {
		t.Errorf("flag: %+v: a tag with no type leaves the default to speak", g)
	}
	if _, err := InferTypes(js, "nope"); err == nil {
		t.Error("a missing function is an error")
	}
}

// TestInferTypesJSDocRest: a JSDoc rest tag ({...number}) is an array of
// its element, which must not be the array itself (the guess was its own
// element, and printing it overflowed the stack: FuzzDocType's
// testdata/fuzz/FuzzDocType/9dc130b126338e07).
func TestInferTypesJSDocRest(t *testing.T) {
	f := parse(t, "m.js", "/**\n * @param {string} sep\n * @param {...number} nums\n */\nfunction join(sep, ...nums) {}\n")
	got, err := InferTypes(f, "join")
	if err != nil {
		t.Fatal(err)
	}
	g := got["nums"]
	if g.Elem == nil || g.Elem.Elem != nil {
		t.Fatalf("nums: element %+v, want number with no element of its own", g.Elem)
	}
	if g.String() != "array[number]" || !g.Rest || g.From != FromJSDoc {
		t.Errorf("nums: %s rest %v from %q, want array[number] rest true from %q", g, g.Rest, g.From, FromJSDoc)
	}
}

// TestInferTypesJSDocNumberNames: JSDoc's own names of a number ({Int},
// {Integer}, {float}) are numbers, unless the file declares a class of the
// name.
func TestInferTypesJSDocNumberNames(t *testing.T) {
	f := parse(t, "m.js", "/**\n * @param {string} text\n * @param {Int} pos\n * @param {Integer} n\n * @param {float} x\n */\nfunction at(text, pos, n, x) {}\n")
	got, err := InferTypes(f, "at")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"pos", "n", "x"} {
		if got[p].Kind != KindNumber {
			t.Errorf("%s: kind %q, want a number (JSDoc's spelling)", p, got[p].Kind)
		}
	}
	own, err := InferTypes(parse(t, "int.js", "class Int {}\n/**\n * @param {Int} v\n */\nfunction wrap(v) {}\n"), "wrap")
	if err != nil {
		t.Fatal(err)
	}
	if own["v"].Kind != KindObject || own["v"].Class != "Int" {
		t.Errorf("v: %+v, want the file's own class Int", own["v"])
	}
}
