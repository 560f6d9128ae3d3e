package gate

import (
	"encoding/json"
	"testing"
)

// FuzzCallEncoding: a call with its shared body encoded (the runner's
// reruns) becomes the same protocol line as the whole call marshalled,
// whatever the id and arguments hold.
func FuzzCallEncoding(f *testing.F) {
	f.Add("P0001#1", "intervals.merge_ranges", `[[[1,5],[2,3]]]`)
	f.Add("P<1>&\"\\\u2028é", "m.f", `[null, "x\u0000"]`)
	f.Fuzz(func(t *testing.T, id, target, argsJSON string) {
		var args []any
		if json.Unmarshal([]byte(argsJSON), &args) != nil {
			args = []any{argsJSON}
		}
		plain := Call{ID: id, Target: target, Args: args}
		want, err := json.Marshal(plain)
		if err != nil {
			t.Skip("encoding/json refuses this call: there is no reference encoding to compare with")
		}
		body, err := encodeBody(target, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		shared := Call{ID: id, Target: target, Args: args, body: body}
		got, err := shared.encode()
		if err != nil || string(got) != string(want) {
			t.Fatalf("encode = %s (%v), want %s", got, err, want)
		}
		if got := shared.appendTo(nil); string(got) != string(want) {
			t.Fatalf("appendTo = %s, want %s", got, want)
		}
	})
}
