package javascript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
)

// TestOutsideTypeByTheBasesAnnotation: a TypeScript row whose argument
// the merge-base's annotation rules out is outside its parameter's
// type; a well-typed one, an untyped parameter, a value premise encodes,
// JavaScript and an annotation only the head has are not judged.
func TestOutsideTypeByTheBasesAnnotation(t *testing.T) {
	meanBy := &lang.Signature{Params: []lang.Param{{Name: "items", Type: "readonly T[]"}, {Name: "getValue", Type: "(element: T) => number"}}}
	zlib := &lang.Signature{Params: []lang.Param{{Name: "data", Type: "Uint8Array"}, {Name: "when", Type: "Date | undefined"}, {Name: "seen", Type: "Map<string, number>"}}}
	pad := &lang.Signature{Params: []lang.Param{{Name: "s", Type: "string"}, {Name: "width", Type: "number"}, {Name: "fill"}}}
	for _, c := range []struct {
		name    string
		lang    string
		sig     *lang.Signature // the base's
		args    []any
		outside bool
		reason  string
	}{
		{"object for a readonly array", "typescript", meanBy, []any{map[string]any{}, json.Number("0")}, true,
			"a refactor reading items without .map differs from the base only here"},
		{"number for an array", "typescript", meanBy, []any{json.Number("3"), nil}, true, ""},
		{"an array", "typescript", meanBy, []any{[]any{json.Number("1")}, map[string]any{"$func": "identity"}}, false, ""},
		{"null", "typescript", meanBy, []any{nil, nil}, false, "null is what a nullable caller passes; never judged"},
		{"string for a number", "typescript", pad, []any{"a", "b"}, true, ""},
		{"NaN for a number", "typescript", pad, []any{"a", map[string]any{"$number": "NaN"}}, false, "an encoded value's kind is not read here"},
		{"untyped parameter", "typescript", pad, []any{"a", json.Number("2"), []any{}}, false, "fill has no annotation"},
		{"number for a Uint8Array", "typescript", zlib, []any{json.Number("2"), json.Number("2")}, true,
			"fflate's adler: a base looping on a number's undefined length, a head not; no typed caller passes one"},
		{"plain array for a Uint8Array", "typescript", zlib, []any{[]any{json.Number("1")}}, true, ""},
		{"a Uint8Array", "typescript", zlib, []any{map[string]any{"$class": "Uint8Array", "$items": []any{}}, nil, nil}, false, "an encoded object of the class"},
		{"string for a Date", "typescript", zlib, []any{nil, "2020-01-01"}, true, ""},
		{"plain object for a Map", "typescript", zlib, []any{nil, nil, map[string]any{"a": json.Number("1")}}, true, ""},
		{"javascript", "javascript", meanBy, []any{map[string]any{}, nil}, false, "JavaScript's types are not written"},
		{"no base signature", "typescript", nil, []any{map[string]any{}, nil}, false, "the head's annotation alone sets nothing apart"},
	} {
		var l lang.Language = &jsLang{lang: c.lang}
		ty, ok := l.(lang.Typer)
		if !ok {
			t.Fatal("the JavaScript language is not a lang.Typer")
		}
		tg := lang.Target{Sig: meanBy, BaseSig: c.sig}
		if got := ty.OutsideType(tg, c.args, nil) != ""; got != c.outside {
			t.Errorf("%s: outside %v, want %v (%s)", c.name, got, c.outside, c.reason)
		}
	}
}

// TestInterfaceMembersThroughAliasesAndParents: the members a parameter's
// interface requires are read through a type alias and the interfaces it
// extends, in its own file or one it imports them from (tailwind-merge's
// AnyConfig = Config<...>, Config extends ConfigStaticPart,
// ConfigGroupsPart<...>), the members of a nested object type left out.
// A plain object lacking one is outside the type: an object no typed
// caller passes, on which a refactor building its maps lazily raised
// nothing where the base raised. A part premise cannot read makes the
// whole unknown.
func TestInterfaceMembersThroughAliasesAndParents(t *testing.T) {
	base := t.TempDir()
	types := `export interface Config<ClassGroupIds extends string, ThemeGroupIds extends string>
    extends ConfigStaticPart,
        ConfigGroupsPart<ClassGroupIds, ThemeGroupIds> {}

interface ConfigStaticPart {
    /** the cache's size */
    cacheSize: number
    prefix?: string
    parse?(name: string): string
}

interface ConfigGroupsPart<ClassGroupIds extends string, ThemeGroupIds extends string> {
    theme: Record<ThemeGroupIds, string[]>
    classGroups: {
        nested: string
        other?: number
    }
    conflictingClassGroupModifiers: Record<ClassGroupIds, string>
}

export type AnyConfig = Config<string, string>

export interface Loose extends Partial<ConfigStaticPart> {
    extra: number
}
`
	if err := os.MkdirAll(filepath.Join(base, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "src/types.ts"), []byte(types), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []byte("import { AnyConfig, Loose } from './types'\nexport const make = (config: AnyConfig) => config\n")
	l := &jsLang{lang: "typescript", base: base}
	want := []string{"cacheSize", "theme", "classGroups", "conflictingClassGroupModifiers"}
	if got := l.interfaceMembers(src, "src/utils.ts", "AnyConfig"); !slices.Equal(got, want) {
		t.Errorf("AnyConfig requires %v, want %v", got, want)
	}
	if got := l.interfaceMembers(src, "src/utils.ts", "Loose"); got != nil {
		t.Errorf("Loose extends Partial<...>, whose members premise does not read: got %v, want nil (unknown)", got)
	}
	if m := lacks(map[string]any{"conflictingClassGroupModifiers": "x"}, want); m != "cacheSize" {
		t.Errorf("a plain object of one member lacks %q, want cacheSize", m)
	}
	full := map[string]any{"cacheSize": json.Number("1"), "theme": map[string]any{}, "classGroups": map[string]any{}, "conflictingClassGroupModifiers": map[string]any{}}
	if m := lacks(full, want); m != "" {
		t.Errorf("an object with every required member lacks %q", m)
	}
	if m := lacks(map[string]any{"$new": "src/x.Config", "$args": []any{}}, want); m != "" {
		t.Errorf("an object premise builds is not judged, and lacks %q", m)
	}
}

// TestUnreachedOnlyInTheWorkersOwnWords: a row's harness error says a
// target is unreached only in the form the worker writes for its own
// UnreachedError, on either side; a module whose import throws a message
// holding those words (the head's own text, which follows "import
// TARGET:") leaves the target's rows where they are.
func TestUnreachedOnlyInTheWorkersOwnWords(t *testing.T) {
	l := &jsLang{lang: "javascript"}
	for _, c := range []struct {
		detail string
		want   bool
	}{
		{"lib/m.build: unreached lib/m.build: no build in the module's exports, nor in the scope its exported functions close over", true},
		{"the harness could not call the target on the base: lib/m.build: unreached lib/m.build: no build in the module's exports", true},
		{"lib/m.build: import lib/m.build: Error: lib/m.build: unreached lib/m.build: nor in the scope its exported functions close over", false},
		{"lib/m.build: import lib/m.build: unreached lib/m.build: x", false},
	} {
		if _, got := l.Unreached(c.detail); got != c.want {
			t.Errorf("Unreached(%q) = %v, want %v", c.detail, got, c.want)
		}
	}
}
