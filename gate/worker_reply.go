package gate

import (
	"bytes"
	"encoding/json"
)

// The common reply read without a JSON decoder, beside proc.reply's
// json.Unmarshal (worker.go), which reads every other line.
//
// It stays under issue 12's guard, not on its own 20%: dropping it costs
// bench/gate_vs_pytest.sh 1000 5-9% (0.068 s -> 0.074 s wall, 21
// interleaved runs), and together with the other fast paths under 20%
// it took premise past 3x its floor.

// returned reads the reply almost every line is, exactly as the Python
// worker writes it, without a JSON decoder:
//
//	{"id":"P0001#1","outcome":"returned","value":VALUE}
//
// ok is false for any other line, which then goes through json.Unmarshal.
// A value is checked to be one JSON value, unless it is the last one's.
// An id equal to want (the call's) is want itself, not a copy.
// FuzzReturnedReply holds this equal to json.Unmarshal.
func (p *proc) returned(line []byte, want string) (w wireReply, ok bool) {
	const head, mid = `{"id":"`, `","outcome":"returned","value":`
	line = bytes.TrimSuffix(line, []byte("\n"))
	rest, found := bytes.CutPrefix(line, []byte(head))
	if !found {
		return w, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return w, false
	}
	for _, b := range rest[:end] {
		if b < 0x20 || b >= 0x7f || b == '\\' {
			return w, false
		}
	}
	id := rest[:end]
	raw, found := bytes.CutPrefix(rest[end:], []byte(mid))
	if !found || len(raw) < 2 || raw[len(raw)-1] != '}' {
		return w, false
	}
	raw = raw[:len(raw)-1]
	if isSpace(raw[0]) || isSpace(raw[len(raw)-1]) {
		return w, false // json.Unmarshal trims it: the raw bytes would differ
	}
	if bytes.Equal(raw, p.lastRaw) {
		raw = p.lastRaw
	} else {
		if !json.Valid(raw) {
			return w, false
		}
		raw = bytes.Clone(raw)
	}
	sid := want
	if string(id) != want {
		sid = string(id)
	}
	return wireReply{ID: sid, Outcome: OutcomeReturned, Value: raw}, true
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
