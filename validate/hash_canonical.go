package validate

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// RFC 8785 written directly for the shapes rows are made of, beside
// CanonicalJSON's json.Marshal and jcs.Transform (hash.go), which take
// everything else; FuzzCanonicalJSON holds the two byte-identical.
//
// It stays under issue 12's guard, not on its own 20%: it hashes a
// 1,000-row table in 1.4 ms instead of 7 ms, 4-8% of bench/gate_vs_pytest.sh
// 1000's CPU, and together with the other fast paths under 20% it took
// premise past 3x its floor.

// appendCanonical appends v's canonical JSON to b; ok is false when v holds
// something it does not write (the caller then takes the slow path).
func appendCanonical(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		if x {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case string:
		if !utf8.ValidString(x) {
			return b, false // json.Marshal's replacement, on the slow path
		}
		return appendCanonicalString(b, x), true
	case int:
		return appendCanonicalNumber(b, float64(x))
	case int64:
		return appendCanonicalNumber(b, float64(x))
	case float64:
		return appendCanonicalNumber(b, x)
	case json.Number:
		s := string(x)
		if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') || !json.Valid([]byte(s)) {
			return b, false
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return b, false // out of range: jcs decides
		}
		return appendCanonicalNumber(b, f)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendCanonical(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if !utf8.ValidString(k) {
				return b, false
			}
			keys = append(keys, k)
		}
		// RFC 8785 orders members by their names' UTF-16 code units;
		// byte order is the same unless a name leaves the BMP.
		slices.SortFunc(keys, compareUTF16)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendCanonical(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendHashed appends the canonical JSON of {"id": r.ID, "inp":
// r.hashInput()}, what Row.Hash hashes, without building that map: its
// two members in their canonical order; ok is false as for
// appendCanonical.
func (r Row) appendHashed(b []byte) ([]byte, bool) {
	if !utf8.ValidString(r.ID) {
		return b, false
	}
	b = appendCanonicalString(append(b, `{"id":`...), r.ID)
	b, ok := appendCanonical(append(b, `,"inp":`...), r.hashInput())
	return append(b, '}'), ok
}

func appendCanonicalNumber(b []byte, f float64) ([]byte, bool) {
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return b, false
	}
	return append(b, s...), true
}

// appendCanonicalString quotes valid UTF-8 s as RFC 8785 does: \b \f \n
// \r \t \" \\ and \u00xx for other controls; everything else as is.
func appendCanonicalString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

func compareUTF16(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] >= 0x80 || b[i] >= 0x80 {
			return slices.Compare(utf16.Encode([]rune(a[i:])), utf16.Encode([]rune(b[i:])))
		}
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}
