package jssource

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nested is an object literal n levels deep whose innermost value is
// leaf: {k1: {k2: ... leaf}}, named a.k1.k2...kn.
func nested(n int, leaf string) (src, name string) {
	var b strings.Builder
	name = "a"
	for i := 1; i <= n; i++ {
		b.WriteString("{ k" + strconv.Itoa(i) + ": ")
		name += ".k" + strconv.Itoa(i)
	}
	b.WriteString(leaf)
	b.WriteString(strings.Repeat(" }", n))
	return "const a = " + b.String() + ";\n", name
}

// TestFunctionNames: every entry point finds a function by the name
// premise diff gives it (InferTypes, Harvest, KeysRead and Constants all
// look it up the same way); the function found is told by its
// parameters. want nil: no function of that name.
func TestFunctionNames(t *testing.T) {
	deep20, name20 := nested(20, "(x) => x")
	deep21, name21 := nested(21, "(x) => x")
	for _, tc := range []struct {
		name, path, src, fn string
		want                []string
		reason              string
	}{
		{name: "declaration", path: "m.js", src: "function f(a) {}\n", fn: "f", want: []string{"a"}},
		{name: "generator", path: "m.js", src: "function* g(a, b) {}\n", fn: "g", want: []string{"a", "b"}},
		{name: "qualified", path: "m.js", src: "function f(a) {}\n", fn: "src/lib/m.f", want: []string{"a"},
			reason: "a qualified name resolves to its longest suffix the file defines"},
		{name: "first wins", path: "m.js", src: "function f(a) {}\nfunction f(b) {}\n", fn: "f", want: []string{"a"}},
		{name: "const arrow", path: "m.js", src: "export const f = (a) => a;\n", fn: "f", want: []string{"a"}},
		{name: "var function", path: "m.js", src: "var f = function (a) {};\n", fn: "f", want: []string{"a"}},
		{name: "parenthesised and asserted", path: "m.ts", src: "export const f = ((a: number) => a) as Fn;\n", fn: "f", want: []string{"a"}},
		{name: "comment among declarators", path: "m.js", src: "let a = 1, /* c */ b = (x) => x;\n", fn: "b", want: []string{"x"}},
		{name: "not a function", path: "m.js", src: "const f = 1;\n", fn: "f"},
		{name: "destructured binding", path: "m.js", src: "const [f] = [(a) => a];\n", fn: "f",
			reason: "only a name bound by itself is a function's name"},
		{name: "class method", path: "m.js", src: "class C { m(a) {} static s(b) {} }\n", fn: "C.s", want: []string{"b"}},
		{name: "abstract class", path: "m.ts", src: "export abstract class A { m(a: number) {} }\n", fn: "A.m", want: []string{"a"}},
		{name: "class field", path: "m.js", src: "class C { h = (a) => a; }\n", fn: "C.h", want: []string{"a"}},
		{name: "class field TypeScript", path: "m.ts", src: "class C { h = (a: number) => a; static s = function (b) {}; }\n", fn: "C.s", want: []string{"b"}},
		{name: "class field quoted", path: "m.ts", src: "class C { 'q' = (c) => c; }\n", fn: "C.q", want: []string{"c"}},
		{name: "class field computed", path: "m.js", src: "class C { ['x'] = (b) => b; }\n", fn: "C.x"},
		{name: "class expression", path: "m.js", src: "const C = class { m(a) {} };\n", fn: "C.m", want: []string{"a"}},
		{name: "object method", path: "m.js", src: "const api = { split(s) {}, join: (xs) => xs };\n", fn: "api.split", want: []string{"s"}},
		{name: "object pair", path: "m.js", src: "const api = { split(s) {}, join: (xs) => xs };\n", fn: "api.join", want: []string{"xs"}},
		{name: "object nested", path: "m.js", src: "const api = { inner: { f(a) {}, 'g': (b) => b } };\n", fn: "api.inner.g", want: []string{"b"}},
		{name: "object computed key", path: "m.js", src: "const api = { [k]: (a) => a };\n", fn: "api.k"},
		{name: "object 20 deep", path: "m.js", src: deep20, fn: name20, want: []string{"x"}},
		{name: "object 21 deep", path: "m.js", src: deep21, fn: name21,
			reason: "objects are followed 20 levels deep: a hostile file must not exhaust the stack"},
		{name: "export default function", path: "m.js", src: "export default function (a) {}\n", fn: "default", want: []string{"a"}},
		{name: "export default arrow", path: "m.js", src: "export default (a, b) => a;\n", fn: "default", want: []string{"a", "b"}},
		{name: "export default object", path: "m.js", src: "export default { f(x) {} };\n", fn: "default.f", want: []string{"x"}},
		{name: "export default class", path: "m.ts", src: "export default class { m(a) {} }\n", fn: "default.m", want: []string{"a"}},
		{name: "exports member", path: "m.js", src: "exports.h = function (c) {};\n", fn: "h", want: []string{"c"}},
		{name: "module.exports member", path: "m.js", src: "module.exports.k = (d) => d;\n", fn: "k", want: []string{"d"}},
		{name: "module.exports object", path: "m.js", src: "module.exports = { f(a) {}, g: function (b) {} };\n", fn: "g", want: []string{"b"}},
		{name: "exports object", path: "m.js", src: "exports = { q(a) {} };\n", fn: "q", want: []string{"a"}},
		{name: "prototype", path: "m.js", src: "function Foo() {}\nFoo.prototype.bar = function (x) {};\n", fn: "Foo.bar", want: []string{"x"}},
		{name: "other member assignment", path: "m.js", src: "window.x = (a) => a;\n", fn: "x",
			reason: "only exports and prototypes name a function by assignment"},
		{name: "namespace", path: "m.ts", src: "namespace NS { export function f(a) {} }\n", fn: "NS.f", want: []string{"a"}},
		{name: "dotted namespace", path: "m.ts", src: "namespace A.B { export const z = (a) => a; }\n", fn: "A.B.z", want: []string{"a"}},
		{name: "module", path: "m.ts", src: "module M { export function g(a) {} }\n", fn: "M.g", want: []string{"a"}},
		{name: "ambient module", path: "m.ts", src: "declare module \"pkg\" { export function h(a) {} }\n", fn: "h",
			reason: "a quoted module declares another package's names"},
		{name: "if and else", path: "m.js", src: "if (x) { function i(a) {} } else { function e(b) {} }\n", fn: "e", want: []string{"b"}},
		{name: "try catch finally", path: "m.js", src: "try { function t(a) {} } catch (err) { function c(b) {} } finally { function fi(d) {} }\n", fn: "fi", want: []string{"d"}},
		{name: "inside a function", path: "m.js", src: "function outer() { function inner(a) {} }\n", fn: "inner",
			reason: "a function's own locals are not the file's functions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, tc.path, tc.src)
			got, err := InferTypes(f, tc.fn)
			if tc.want == nil {
				if !errors.Is(err, ErrNoFunction) {
					t.Fatalf("InferTypes(%s) = %v, %v; want ErrNoFunction (%s)", tc.fn, got, err, tc.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("InferTypes(%s): %v (%s)", tc.fn, err, tc.reason)
			}
			names := []string{}
			for p := range got {
				names = append(names, p)
			}
			sort.Strings(names)
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("parameters of %s (-want +got):\n%s%s", tc.fn, diff, tc.reason)
			}
		})
	}
}

// TestClosedFileHasNoFunctions: a closed file defines nothing, and says so
// as every missing function is said.
func TestClosedFileHasNoFunctions(t *testing.T) {
	f, err := Parse("m.js", []byte("function f(a) {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := InferTypes(f, "f"); !errors.Is(err, ErrNoFunction) {
		t.Errorf("InferTypes on a closed file: %v, want ErrNoFunction", err)
	}
}
