package gate

import (
	"encoding/json"
)

// Calls encoded for the pipeline: a row's reruns share one encoding of
// their arguments (Call.body, which the runner sets), and proc.pipeline
// streams the requests to the worker as they are encoded, beside the
// plain json.Marshal of a call (encode without a body, proc.call).
// FuzzCallEncoding holds the encodings equal.
//
// It stays under issue 12's guard, not on its own 20%: dropping it costs
// bench/gate_vs_pytest.sh 1000 5-10% (31 interleaved runs, twice: the
// fastest run 0.074 s -> 0.081 s, CPU 0.105 s -> 0.114 s), and together
// with the other fast paths under 20% it took premise past 3x its floor
// (2.80x on main, 3.25x without them, in one pair of runs of the script).

// encode is c as one protocol line, without its newline.
func (c Call) encode() ([]byte, error) {
	if c.body == nil {
		return json.Marshal(c)
	}
	return c.appendTo(nil), nil
}

// appendTo appends c, which has its body, as a protocol line without its
// newline.
func (c Call) appendTo(b []byte) []byte {
	b = append(b, `{"id":`...)
	if plainID(c.ID) {
		b = append(append(append(b, '"'), c.ID...), '"')
	} else {
		id, _ := json.Marshal(c.ID) // a string always encodes
		b = append(b, id...)
	}
	if c.Unwatched {
		b = append(b, `,"unwatched":true`...)
	}
	return append(b, c.body...)
}

// plainID reports whether id needs no JSON escaping (and json.Marshal's
// HTML escaping leaves it alone).
func plainID(id string) bool {
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// encodeBody encodes what follows the id in a call to target with args
// and kwargs (Call.body), for calls that differ only in their id.
func encodeBody(target string, args []any, kwargs map[string]any) ([]byte, error) {
	// Call's fields after the id, as Call encodes them: the object's
	// opening brace becomes the comma after the id.
	b, err := json.Marshal(callBody{Target: target, Args: args, Kwargs: kwargs})
	if err != nil {
		return nil, err
	}
	b[0] = ','
	return b, nil
}

// callBody is what follows a Call's id on the wire (Unwatched, false
// here, is omitted).
type callBody struct {
	Target string         `json:"target"`
	Args   []any          `json:"args"`
	Kwargs map[string]any `json:"kwargs"`
}
