package validate

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// A JSON value read without encoding/json, beside decodeJSONPlain's
// json.Decoder with UseNumber (jsondecode.go), which reads every value
// this one gives up on.
//
// Issue 28: every row's reply value and every `result == LITERAL`
// contract is one small JSON value, and encoding/json's decoder (its
// buffer, its scanner's state stack, a value decoded into an interface
// through reflection) was a fifth of what BenchmarkGateFile
// (go test ./gate -run '^$' -bench GateFile -benchtime 5x) allocated a
// row. fastJSON reads the common shape and allocates only the values it
// returns (fastLiteral a literal's values normalised, without the
// json.Number detour); any string with an escape, a control character or a byte that
// is not UTF-8, nesting deeper than maxFastDepth, or anything that is not
// one JSON value makes it give up. FuzzFastJSON holds it equal to
// json.Decoder with UseNumber, and fastLiteral to literalValue.

// maxFastDepth is the nesting fastJSON reads; deeper values go to
// encoding/json, which has its own limit and message.
const maxFastDepth = 200

// fastJSON decodes data, exactly one JSON value with optional white space
// around it, as json.Decoder with UseNumber does (numbers as json.Number,
// arrays as []any, objects as map[string]any); ok is false when it does
// not read data, which the caller then decodes the plain way.
func fastJSON(data []byte) (v any, ok bool) {
	return readOne(jsonReader{s: data})
}

// readOne reads the one JSON value d holds, white space around it.
func readOne(d jsonReader) (v any, ok bool) {
	d.space()
	v, ok = d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	if d.i != len(d.s) {
		return nil, false
	}
	return v, true
}

type jsonReader struct {
	s []byte
	i int
	// norm gives each number as Normalize gives it (an int64 where it
	// is whole), and refuses one CEL would not take (celLiteral).
	norm bool
}

// fastLiteral is Normalize of `result == LITERAL`'s literal as
// parseLiteralContract's plain path decodes and checks it (json.Decoder
// with UseNumber, then celLiteral); ok is false when fastJSON would not
// read it or celLiteral would refuse one of its numbers.
func fastLiteral(data []byte) (v any, ok bool) {
	if bytes.ContainsAny(data, "{\\") {
		return nil, false // celLiteral leaves objects and escapes to CEL, even inside a string
	}
	return readOne(jsonReader{s: data, norm: true})
}

func (d *jsonReader) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// sep reads what follows an element of a list or an object: a comma
// (more to come) or the closing bracket (done); ok is false for anything
// else.
func (d *jsonReader) sep(close byte) (done, ok bool) {
	d.space()
	if d.i >= len(d.s) {
		return false, false
	}
	switch d.s[d.i] {
	case ',':
		d.i++
		return false, true
	case close:
		d.i++
		return true, true
	}
	return false, false
}

func (d *jsonReader) value(depth int) (any, bool) {
	if d.i >= len(d.s) || depth > maxFastDepth {
		return nil, false
	}
	switch c := d.s[d.i]; {
	case c == '[':
		d.i++
		d.space()
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return []any{}, true
		}
		// The elements are gathered on the stack and the list made once,
		// of their number.
		var room [8]any
		elems := room[:0]
		for {
			d.space()
			e, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			elems = append(elems, e)
			if done, ok := d.sep(']'); !ok {
				return nil, false
			} else if done {
				return slices.Clone(elems), true
			}
		}
	case c == '{':
		if d.norm {
			return nil, false // objects in a literal are left to CEL (celLiteral)
		}
		d.i++
		out := map[string]any{}
		d.space()
		if d.i < len(d.s) && d.s[d.i] == '}' {
			d.i++
			return out, true
		}
		for {
			d.space()
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			if d.i >= len(d.s) || d.s[d.i] != ':' {
				return nil, false
			}
			d.i++
			d.space()
			e, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			out[k] = e
			if done, ok := d.sep('}'); !ok {
				return nil, false
			} else if done {
				return out, true
			}
		}
	case c == '"':
		s, ok := d.str()
		if !ok {
			return nil, false
		}
		return s, true
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return true, d.word("true")
	case c == 'f':
		return false, d.word("false")
	case c == 'n':
		return nil, d.word("null")
	}
	return nil, false
}

func (d *jsonReader) word(w string) bool {
	if len(d.s)-d.i < len(w) || string(d.s[d.i:d.i+len(w)]) != w {
		return false
	}
	d.i += len(w)
	return true
}

// str reads a string without escapes or control characters, in UTF-8.
func (d *jsonReader) str() (string, bool) {
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.s); j++ {
		switch c := d.s[j]; {
		case c == '"':
			b := d.s[start:j]
			if !ascii && !utf8.Valid(b) {
				return "", false // encoding/json writes U+FFFD for each bad byte
			}
			d.i = j + 1
			return string(b), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *jsonReader) number() (any, bool) {
	s, start := d.s, d.i
	i := start
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return nil, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return nil, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	d.i = i
	if !d.norm {
		return json.Number(s[start:i]), true
	}
	if v, ok := smallInt(s[start:i]); ok {
		return v, true // what Normalize makes of it, without the detour
	}
	n := json.Number(s[start:i])
	if !celLiteral(string(n), n) {
		return nil, false
	}
	return Normalize(n), true
}

// smallInt reads an integer of at most 18 digits, which int64 always
// holds; ok is false for anything else.
func smallInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
