package jssource

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKeysRead: the keys a function reads of an options parameter, by
// member, by string subscript, by destructuring in the body or in the
// signature; not the keys of another name.
func TestKeysRead(t *testing.T) {
	src := `export function serialize(name, val, options) {
  const opt = options || {};
  const { encode, path } = options;
  if (options.maxAge != null) { x(options['sameSite']); }
  other.secure = 1;
  return name;
}
export const titleCase = (input, { sentenceCase, locale = 'en' } = {}) => input;
export function parse(str, options) {
  var opt = options || {};
  const { decode } = typeof options === "string" ? { locale: options } : options;
  return opt.strict ? str : decode(str);
}
`
	f, err := Parse("c.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := KeysRead(f, "serialize")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string][]string{"options": {"encode", "maxAge", "path", "sameSite"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("serialize: %v, want %v", got, want)
	}
	got, err = KeysRead(f, "titleCase")
	if err != nil {
		t.Fatal(err)
	}
	for _, ks := range got {
		if !reflect.DeepEqual(ks, []string{"locale", "sentenceCase"}) {
			t.Errorf("titleCase: %v, want the destructured keys locale, sentenceCase", got)
		}
	}
	if len(got) != 1 {
		t.Errorf("titleCase: %v, want one parameter's keys", got)
	}
	// Read through an alias (opt = options || {}) and a conditional.
	got, err = KeysRead(f, "parse")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string][]string{"options": {"decode", "strict"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("parse: %v, want %v", got, want)
	}
}

// TestKeysReadForms: each way a function reads an options parameter, one
// at a time, and the reads that are not of a parameter.
func TestKeysReadForms(t *testing.T) {
	deep := "function f(options) {\n  g(options.top);\n  return " + strings.Repeat("(", 300) + "options.deep" + strings.Repeat(")", 300) + ";\n}\n"
	for _, tc := range []struct {
		name, src string
		want      map[string][]string
		reason    string
	}{
		{name: "member", src: "function f(options) { return options.maxAge; }",
			want: map[string][]string{"options": {"maxAge"}}},
		{name: "each once, sorted", src: "function f(o) { o.b; o.a; o.b; }",
			want: map[string][]string{"o": {"a", "b"}}},
		{name: "string subscript", src: `function f(o) { return o["same-site"] + o['a\x62'] + o[k] + o[1]; }`,
			want:   map[string][]string{"o": {"ab", "same-site"}},
			reason: "a string subscript is read as the string it spells; any other index names no key"},
		{name: "several parameters", src: "function f(a, b) { return a.x + b.y; }",
			want: map[string][]string{"a": {"x"}, "b": {"y"}}},
		{name: "not a parameter", src: "function f(o) { other.secure = 1; o2.x; return o; }",
			want: map[string][]string{}},
		{name: "nested member", src: "function f(o) { return o.a.b; }",
			want: map[string][]string{"o": {"a"}}, reason: "only the parameter's own keys"},
		{name: "destructured in the body", src: "function f(o) { const { a, b: c, d = 1, 'e-f': g, ...rest } = o; }",
			want: map[string][]string{"o": {"a", "b", "d"}}, reason: "a quoted key and a rest name no key read"},
		{name: "destructured parameters only", src: "function f({ a, b: c, d = 1 }, [e]) { return c; }",
			want: map[string][]string{"{ a, b: c, d = 1 }": {"a", "b", "d"}}, reason: "a destructured parameter is named by its pattern"},
		{name: "destructured parameter and member", src: "function f({ a }, o) { return o.x; }",
			want: map[string][]string{"{ a }": {"a"}, "o": {"x"}}},
		{name: "no parameters", src: "function f() { return this.a; }", want: map[string][]string{}},
		{name: "alias or", src: "function f(o) { var opt = o || {}; return opt.a; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "alias nullish", src: "function f(o) { const opt = o ?? {}; return opt.a; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "alias parenthesised", src: "function f(o) { const opt = (o); return opt.a; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "alias of an alias", src: "function f(o) { const p = o || {}; const q = p; return q.a; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "alias conditional alternative", src: "function f(o) { const opt = c ? {} : o; return opt.a; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "alias conditional consequence", src: "function f(o) { const opt = c ? o : {}; return opt.a; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "not an alias", src: "function f(o) { const opt = o.inner; const s = o + 1; return opt.a + s.b; }",
			want: map[string][]string{"o": {"inner"}}, reason: "a member or a sum of the parameter is another value"},
		{name: "alias too deep", src: "function f(o) { const opt = " + strings.Repeat("(", 9) + "o" + strings.Repeat(")", 9) + "; return opt.a; }",
			want: map[string][]string{}, reason: "an alias is followed through 8 parentheses"},
		{name: "alias destructured", src: "function f(o) { const opt = o || {}; const { a } = opt; }",
			want: map[string][]string{"o": {"a"}}},
		{name: "in a callback", src: "const f = (o) => xs.map((x) => x[o.key]);",
			want: map[string][]string{"o": {"key"}}},
		{name: "deep body", src: deep,
			want: map[string][]string{"options": {"top"}}, reason: "the body is walked 256 levels deep: a hostile file must not exhaust the stack"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := KeysRead(parse(t, "m.js", tc.src), "f")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("KeysRead (-want +got):\n%s%s", diff, tc.reason)
			}
		})
	}
	if _, err := KeysRead(parse(t, "m.js", "function g(o) {}"), "f"); !errors.Is(err, ErrNoFunction) {
		t.Errorf("a missing function: %v, want ErrNoFunction", err)
	}
}

// TestNumericKeys: the keys a function computes with (a point's x and y,
// through arithmetic, a minus sign or Math) are told from those it only
// reads (a flag, a name joined into text), in a module wrapped in a
// function called at once as in one at the top.
func TestNumericKeys(t *testing.T) {
	for _, tc := range []struct {
		name, src, fn string
		want          map[string][]string
	}{
		{name: "arithmetic", fn: "lerp", src: "function lerp(r, v1, v2) { const o = { x: v1.x + r * (v2.x - v1.x) }; if (v1.z !== undefined) { o.z = v1.z * 2; } return o; }",
			want: map[string][]string{"v1": {"x", "z"}, "v2": {"x"}}},
		{name: "negated and Math", fn: "f", src: "function f(p, opts) { return opts.round ? Math.round(p.a) : -p.b + ' ' + opts.label; }",
			want: map[string][]string{"p": {"a", "b"}}},
		{name: "in an IIFE's object", fn: "utils.angle", src: "(function () {\n  var utils = {\n    angle: function (o, v) { return Math.atan2(v.y - o.y, v.x - o.x); },\n  };\n  module.exports = utils;\n})();\n",
			want: map[string][]string{"o": {"x", "y"}, "v": {"x", "y"}}},
		{name: "in a UMD factory", fn: "dist", src: "(function (root, factory) {\n  module.exports = factory();\n}(this, function () {\n  function dist(p) { return Math.hypot(p.x, p.y); }\n  return { dist: dist };\n}));\n",
			want: map[string][]string{"p": {"x", "y"}}},
		{name: "negated call", fn: "g", src: "!function () {\n  function g(p) { return p.w * p.h; }\n  module.exports = g;\n}();\n",
			want: map[string][]string{"p": {"h", "w"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NumericKeys(parse(t, "m.js", tc.src), tc.fn)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("NumericKeys (-want +got):\n%s", diff)
			}
		})
	}
}
