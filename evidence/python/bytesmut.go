package python

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// bytesMutants are the small steps of a bytes literal a test passes
// ({"$expr": "b'\x40\x0acustom-key'"}), which the generic steps leave
// alone as an expression: its last byte replaced by 0xff, a byte no text
// encoding agrees on and the largest a length or a flag byte takes; its
// first byte so replaced; and one byte short. A binary decoder's handling
// of undecodable text, a flag it never saw and a truncated frame is
// reached by these and by nothing a test wrote. nil for anything else.
func bytesMutants(v any) []any {
	m, ok := v.(map[string]any)
	if !ok || len(m) > 2 {
		return nil
	}
	src, ok := m[lang.ExprKey].(string)
	if !ok {
		return nil
	}
	if _, other := m[lang.ImportsKey]; len(m) == 2 && !other {
		return nil
	}
	data, ok := bytesLiteral(strings.TrimSpace(src))
	if !ok || len(data) == 0 {
		return nil
	}
	last := append(append([]byte{}, data[:len(data)-1]...), 0xff)
	first := append([]byte{0xff}, data[1:]...)
	var out []any
	seen := map[string]bool{string(data): true}
	for _, d := range [][]byte{last, first, data[:len(data)-1]} {
		if !seen[string(d)] {
			seen[string(d)] = true
			out = append(out, map[string]any{lang.ExprKey: bytesSource(d)})
		}
	}
	return out
}

// bytesLiteral decodes one Python bytes literal (b'...', b"...", with the
// escapes bytes literals take); ok is false for anything else, a raw or
// triple-quoted one, or a concatenation.
func bytesLiteral(src string) ([]byte, bool) {
	if len(src) < 3 || (src[0] != 'b' && src[0] != 'B') {
		return nil, false
	}
	q := src[1]
	if (q != '\'' && q != '"') || src[len(src)-1] != q || strings.HasPrefix(src[1:], strings.Repeat(string(q), 3)) {
		return nil, false
	}
	body := src[2 : len(src)-1]
	var out []byte
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == q || c >= 0x80 || c == '\n' {
			return nil, false
		}
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(body) {
			return nil, false
		}
		switch e := body[i]; e {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(body) && j < i+3 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
			n, err := strconv.ParseUint(body[i:j], 8, 16)
			if err != nil || n > 0xff {
				return nil, false
			}
			out = append(out, byte(n))
			i = j - 1
		case 'x':
			if i+3 > len(body) {
				return nil, false
			}
			n, err := strconv.ParseUint(body[i+1:i+3], 16, 8)
			if err != nil {
				return nil, false
			}
			out = append(out, byte(n))
			i += 2
		case '\\', '\'', '"':
			out = append(out, e)
		case 'a':
			out = append(out, 7)
		case 'b':
			out = append(out, 8)
		case 'f':
			out = append(out, 12)
		case 'v':
			out = append(out, 11)
		default:
			return nil, false
		}
	}
	return out, true
}

// bytesSource writes data as a Python bytes literal, every byte escaped
// that is not printable ASCII.
func bytesSource(data []byte) string {
	var b strings.Builder
	b.WriteString("b'")
	for _, c := range data {
		switch {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
