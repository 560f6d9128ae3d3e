package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// Hash returns the row's hash: the first 16 hex digits of sha256 over the
// RFC 8785 (JCS) canonical JSON of {"id": ..., "inp": ...} (seed 004,
// Step 5's row_hash; DESIGN.md). A row called with args/kwargs hashes
// {"id": ..., "inp": {"args": [...], "kwargs": {...}}}, with [] and {} for
// absent parts, so that a Python tool can compute the same value.
//
// JCS, not Python's json.dumps, is the reference: they agree on integers
// below 2^53, text (with ensure_ascii=False) and sorted keys, and differ
// where json.dumps differs from JCS: 1.0 canonicalises to 1, and 2^53+1 to
// 9007199254740992, as an IEEE double. Every row that loads from a file has
// a hash; for a row built in memory with a value JSON cannot carry (NaN),
// Hash falls back to hashing the value's Go formatting, so it never panics.
func (r Row) Hash() string {
	h, err := r.hash()
	if err != nil {
		sum := sha256.Sum256([]byte(fmt.Sprintf("unhashable %q %#v %#v %#v", r.ID, r.Inp, r.Args, r.Kwargs)))
		return hex.EncodeToString(sum[:])[:16]
	}
	return h
}

// hashInput is what Hash canonicalises under "inp".
func (r Row) hashInput() any {
	if r.HasInp || (r.Args == nil && r.Kwargs == nil) {
		return r.Inp
	}
	args := r.Args
	if args == nil {
		args = []any{}
	}
	kwargs := r.Kwargs
	if kwargs == nil {
		kwargs = map[string]any{}
	}
	return map[string]any{"args": args, "kwargs": kwargs}
}

func (r Row) hash() (string, error) {
	canon, err := CanonicalJSON(map[string]any{"id": r.ID, "inp": r.hashInput()})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])[:16], nil
}

// CanonicalJSON encodes v as RFC 8785 canonical JSON: sorted keys, no
// spaces, numbers as ECMAScript prints them, text unescaped except where
// JSON requires it.
//
// The JSON shapes rows are made of (nil, bool, string, numbers, []any,
// map[string]any) are written directly: a gate hashes every row before
// its first verdict, and encoding then re-parsing each (json.Marshal,
// jcs.Transform) was most of that. Anything else, or a value the direct
// path has doubts about, goes through json.Marshal and jcs.Transform;
// FuzzCanonicalJSON holds the two equal.
func CanonicalJSON(v any) ([]byte, error) {
	if out, ok := appendCanonical(nil, v); ok {
		return out, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	return out, nil
}

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
