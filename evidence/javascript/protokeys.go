package javascript

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// An object used as a map reads Object.prototype's members as keys it
// holds: `key in {}` is true for "constructor", obj["__proto__"] is its
// prototype. A function that guards against that (set-cookie-parser's
// isForbiddenKey, URI.js' parseQuery) changes behaviour on those names
// alone, which no test writes and no step of a test's text reaches. So
// where a function's text, or the patch's lines, show the guard, the
// names are inputs: each in place of the first word of the tests' string
// arguments (a cookie's name in "foo=bar; Path=/"), and in a string
// parameter's pool.

// jsProtoTellRe is text that treats an object as a map whose keys may be
// Object.prototype's members: `in {}`, a test of an own key, the
// prototype itself or an object made without one.
var jsProtoTellRe = regexp.MustCompile(`\bin\s*\{\s*\}|\bObject\s*\.\s*prototype\b|\bhasOwnProperty\b|\bObject\s*\.\s*hasOwn\s*\(|__proto__|\bObject\s*\.\s*create\s*\(\s*null\s*\)|['"](constructor|prototype)['"]`)

// jsProtoWords are the keys every object reads from Object.prototype, and
// one of them capitalised: a guard that lower-cases the key first (or
// stops doing so) parts there.
var jsProtoWords = []string{"__proto__", "constructor", "Constructor", "prototype", "toString", "hasOwnProperty", "valueOf"}

// jsKeyWordRe is the first word of a text: a name as a key is written.
var jsKeyWordRe = regexp.MustCompile(`[A-Za-z_$][\w$-]*`)

// maxProtoRows bounds the rows a function gets from putting the names
// into its tests' strings.
const maxProtoRows = 48

// protoKeyed says whether a function's text, or the lines its patch
// changed in its file, treat an object's keys as the tell says.
func protoKeyed(span string, f diffparse.File) bool {
	return jsProtoTellRe.MatchString(span) || jsProtoTellRe.MatchString(changedText(f))
}

// protoArgs are args with one argument's first name replaced by each of
// jsProtoWords: a string's first word (a cookie's name in
// "foo=bar; Path=/"), or a plain object's first key, its value kept (an
// operation named as a key, json-logic-js' {"+": [1, 2]}); nil when no
// argument has one.
func protoArgs(args []any) [][]any {
	var out [][]any
	for i, a := range args {
		for _, v := range protoSteps(a) {
			m := append([]any(nil), args...)
			m[i] = v
			out = append(out, m)
		}
	}
	return out
}

// protoSteps are a's first name replaced by each of jsProtoWords.
func protoSteps(a any) []any {
	var out []any
	switch x := a.(type) {
	case string:
		at := jsKeyWordRe.FindStringIndex(x)
		if at == nil {
			return nil
		}
		for _, w := range jsProtoWords {
			if v := x[:at[0]] + w + x[at[1]:]; v != x {
				out = append(out, v)
			}
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		if len(keys) == 0 || strings.HasPrefix(keys[0], "$") {
			return nil // empty, or a value premise builds ($new, $map)
		}
		for _, w := range jsProtoWords {
			if _, taken := x[w]; taken {
				continue
			}
			m := maps.Clone(x)
			delete(m, keys[0])
			m[w] = x[keys[0]]
			out = append(out, m)
		}
	}
	return out
}

// changedText is the text of every line the patch changed in f, removed
// and added.
func changedText(f diffparse.File) string { return hunkText(f, "-+") }
