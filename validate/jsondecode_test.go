package validate

import (
	"encoding/json"
	"reflect"
	"testing"
)

var jsonSamples = []string{
	`[]`, `{}`, `[[1, 3], [4, 9]]`, `{"a":[1,{"b":null}],"c":true,"a":false}`,
	`-0`, `0.5e-3`, `1E+2`, `12345678901234567890123`, `"héllo"`, `"a\"b"`,
	`"\u00e9"`, "\"\xff\"", "\"\x01\"", `01`, `1.`, `-`, `[1,]`, `[1 2]`, `{"a"}`,
	`{"a":1,}`, ` [ 1 , 2 ] `, `tru`, `nul`, `[1]x`, `1 2`, `""`, `[true,false,null]`,
	`{"k":{"k":{"k":[]}}}`, `[1, -0, 2.0, 1e3, 9007199254740993, 123456789012345678, 1234567890123456789, 99999999999999999999, 1e400, "s"]`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
}

// TestFastJSONReadsTheCommonShape: the values replies and literal
// contracts mostly are take the fast path, or it buys nothing.
func TestFastJSONReadsTheCommonShape(t *testing.T) {
	for _, s := range []string{`[]`, `[[1, 3], [4, 9]]`, `{"a":[1.5,"x"],"b":null}`, `"héllo"`, `-12e3`, `true`} {
		if _, ok := fastJSON([]byte(s)); !ok {
			t.Errorf("fastJSON(%s) gave up", s)
		}
	}
}

// FuzzFastJSON holds fastJSON equal to json.Decoder with UseNumber: a
// value it reads is exactly one JSON value, decoded to the same thing; and
// fastLiteral equal to a literal contract's plain reading (literalValue).
func FuzzFastJSON(f *testing.F) {
	for _, s := range jsonSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if lit, ok := fastLiteral(data); ok {
			want, wok := literalValue(string(data))
			if !wok || !reflect.DeepEqual(lit, want) {
				t.Fatalf("fastLiteral(%q) = %#v; literalValue %#v, %v", data, lit, want, wok)
			}
		}
		got, ok := fastJSON(data)
		if !ok {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("fastJSON read %q, which is not one JSON value", data)
		}
		want, err := decodeJSONPlain(data)
		if err != nil {
			t.Fatalf("fastJSON read %q; encoding/json: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fastJSON(%q) = %#v; encoding/json %#v", data, got, want)
		}
		if dv, err := DecodeJSON(data); err != nil || !reflect.DeepEqual(dv, want) {
			t.Fatalf("DecodeJSON(%q) = %#v, %v; want %#v", data, dv, err, want)
		}
	})
}
