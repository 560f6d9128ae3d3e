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
		for _, last := range [][]byte{nil, []byte(`[[1,5],[7,9]]`)} {
			p := &proc{lastRaw: last}
			got, ok := p.returned(line)
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
