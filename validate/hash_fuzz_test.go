package validate

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gowebpki/jcs"
)

// slowCanonical is the reference CanonicalJSON's direct path must match:
// json.Marshal, then the jcs library's transform.
func slowCanonical(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(raw)
}

// FuzzCanonicalJSON: the direct canonical encoder (row hashes, freezes)
// writes exactly what json.Marshal plus jcs.Transform write, for every
// JSON value in each of the shapes rows hold, and for text that is not
// UTF-8.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{
		`{"id":"P001","inp":[[1,5],[2,3]]}`, `[1.0, 1e21, 1e-7, -0, 0.1, 9007199254740993, 123456789012345678901234567890]`,
		`{"b":1,"a":{"\u20ac":1,"\ud83d\ude00":2,"\uffff":3}}`, `"<&>\u2028\u0001\"\\\b\f\n\r\t"`, `[true,false,null,{}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var values []any
		if json.Valid(data) {
			var plain any
			if err := json.Unmarshal(data, &plain); err == nil {
				values = append(values, plain, Normalize(plain)) // integers as int64, as tables hold them
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			var num any
			if err := dec.Decode(&num); err == nil {
				values = append(values, num)
			}
		}
		values = append(values, map[string]any{string(data): string(data), "inp": []any{string(data)}})
		for _, v := range values {
			want, wantErr := slowCanonical(v)
			got, gotErr := CanonicalJSON(v)
			if (wantErr != nil) != (gotErr != nil) {
				t.Fatalf("%#v: error %v, reference error %v", v, gotErr, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%#v:\n got %s\nwant %s", v, got, want)
			}
		}
	})
}
