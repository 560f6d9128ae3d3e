package gate

import (
	"encoding/json"
	"testing"
)

// FuzzReturnedReply: the decoder-free reading of a returned reply
// (proc.returned) accepts only lines json.Unmarshal reads the same way.
func FuzzReturnedReply(f *testing.F) {
	f.Add([]byte(`{"id":"P0001#1","outcome":"returned","value":[[1,5],[7,9]]}` + "\n"))
	f.Add([]byte(`{"id":"P1","outcome":"returned","value":{"a":"}"}}`))
	f.Add([]byte(`{"id":"P1","outcome":"returned","value":1 2}`))
	f.Add([]byte(`{"id":"P\u00e9","outcome":"returned","value":null}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		for i, last := range [][]byte{nil, []byte(`[[1,5],[7,9]]`)} {
			p := &proc{lastRaw: last}
			got, ok := p.returned(line, []string{"P0001#1", "P1"}[i])
			if !ok {
				continue
			}
			var want wireReply
			if err := json.Unmarshal(line, &want); err != nil {
				t.Fatalf("returned read %q, json.Unmarshal refuses it: %v", line, err)
			}
			if got.ID != want.ID || got.Outcome != want.Outcome || string(got.Value) != string(want.Value) ||
				want.Exc != nil || want.Detail != "" {
				t.Fatalf("%q: returned %+v, json.Unmarshal %+v", line, got, want)
			}
		}
	})
}

// FuzzShortValue: a value shown from the worker's bytes (Reply.shortValue)
// reads as the decoded value encoded again (short).
func FuzzShortValue(f *testing.F) {
	for _, s := range []string{`[[1,5],[7,9]]`, `"a b"`, `1.50`, `1e+16`, `[true,null,"<"]`, `{"b":1,"a":2}`, `"\u00e9"`, `[1, 2]`, `-0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v any
		if decodeNumbers(raw, &v) != nil || !json.Valid(raw) {
			return
		}
		r := Reply{Value: v, Raw: raw}
		if got, want := r.shortValue(), short(v); got != want {
			t.Fatalf("%q: shown as %q, want %q", raw, got, want)
		}
	})
}
