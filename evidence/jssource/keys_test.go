package jssource

import (
	"reflect"
	"testing"
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
