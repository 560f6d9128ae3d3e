package reject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonical returns the canonical bytes of the JSON fixture in data: exactly
// what Python writes with json.dumps(value, sort_keys=True) followed by one
// newline, the encoding seed 000 uses in its Step 1 snippet. Keeping to
// Python's default encoder (", " and ": " separators, ASCII-only output with
// \uXXXX escapes, floats as repr) means a fixture written by that snippet and
// one written by premise reject add hash to the same sha256, on every runner
// (seed 000, Limitations: "Freeze encoding rules in the same repo").
//
// Canonical refuses invalid JSON, invalid UTF-8, a repeated key and a number
// Python would read as infinity.
func Canonical(data []byte) ([]byte, error) {
	v, err := parseFixture(data)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := writePython(&b, v); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// parseFixture decodes a fixture strictly: valid UTF-8, one JSON value, no
// repeated key. Numbers stay json.Number so integers keep every digit.
func parseFixture(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, &SyntaxError{Line: 1 + bytes.Count(data[:firstInvalid(data)], []byte{'\n'}), Msg: "invalid UTF-8"}
	}
	if _, err := scanJSON(data); err != nil {
		return nil, err
	}
	if i := loneSurrogate(data); i >= 0 {
		// encoding/json would replace it with U+FFFD: the subject would be
		// called with another string than the fixture's bytes say.
		return nil, &SyntaxError{Line: 1 + bytes.Count(data[:i], []byte{'\n'}), Msg: "a lone surrogate escape (\\ud800-\\udfff without its pair): write the character itself or a valid pair"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &SyntaxError{Line: 1, Msg: err.Error()}
	}
	return v, nil
}

// loneSurrogate returns the offset of the first \u escape inside a JSON
// string that is half of a surrogate pair without its other half, or -1.
func loneSurrogate(data []byte) int {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
		return rune(n), err == nil
	}
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\':
			r, ok := hex4(i)
			switch {
			case !ok:
				i++ // an escape of one character
			case r >= 0xD800 && r <= 0xDBFF:
				if lo, ok := hex4(i + 6); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 11
					continue
				}
				return i
			case r >= 0xDC00 && r <= 0xDFFF:
				return i
			default:
				i += 5
			}
		}
	}
	return -1
}

func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// writePython writes v as Python's json.dumps(v, sort_keys=True) does.
func writePython(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writePythonString(b, v)
	case json.Number:
		s, err := pythonNumber(string(v))
		if err != nil {
			return err
		}
		b.WriteString(s)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := writePython(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// Go compares strings by UTF-8 bytes, which orders them by code
		// point, as Python's sorted() does for str.
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writePythonString(b, k)
			b.WriteString(": ")
			if err := writePython(b, v[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("canonical json: unexpected %T", v)
	}
	return nil
}

// writePythonString escapes s as json.dumps does with ensure_ascii=True:
// everything outside ' '..'~' is escaped, astral characters as surrogate
// pairs, hex digits in lower case.
func writePythonString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	u := func(r rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[r>>12&0xf])
		b.WriteByte(hex[r>>8&0xf])
		b.WriteByte(hex[r>>4&0xf])
		b.WriteByte(hex[r&0xf])
	}
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= ' ' && r <= '~':
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			u(r1)
			u(r2)
		default:
			u(r)
		}
	}
	b.WriteByte('"')
}

// pythonNumber renders a JSON number literal as Python would after
// json.loads: an integer keeps its digits (Python ints are unbounded), any
// literal with a fraction or exponent becomes a float printed by repr.
func pythonNumber(lit string) (string, error) {
	if !strings.ContainsAny(lit, ".eE") {
		if lit == "-0" {
			return "0", nil
		}
		return lit, nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return "", fmt.Errorf("number %s is out of range for a float", lit)
	}
	return pythonFloatRepr(f), nil
}

// pythonFloatRepr is Python's repr(float): the shortest digits that round
// trip, fixed notation when the decimal point falls within 16 digits,
// otherwise d.ddde±XX with at least two exponent digits.
func pythonFloatRepr(f float64) string {
	sign := ""
	if math.Signbit(f) {
		sign = "-"
		f = -f
	}
	if f == 0 {
		return sign + "0.0"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(sci, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	decpt := e + 1 // value = 0.digits × 10^decpt
	if decpt <= -4 || decpt > 16 {
		s := digits[:1]
		if len(digits) > 1 {
			s += "." + digits[1:]
		}
		es := "+"
		if e < 0 {
			es = "-"
			e = -e
		}
		return fmt.Sprintf("%s%se%s%02d", sign, s, es, e)
	}
	switch {
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	default:
		return sign + digits[:decpt] + "." + digits[decpt:]
	}
}
