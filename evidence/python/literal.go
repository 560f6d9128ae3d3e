package python

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyLiteral converts a Python expression that is a plain literal to the
// value a JSON row carries: numbers, strings, None, True, False, and lists,
// tuples and dicts of those (a tuple travels as a list; a dict only with
// string keys). ok is false for anything else (a name, a call, a set,
// bytes, an int past 2^53, where JSON's numbers lose it): those reach the
// worker as expressions or not at all (issue 13, part 3).
func pyLiteral(src string) (v any, ok bool) {
	p := &litParser{s: src}
	p.space()
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	if p.i != len(p.s) {
		return nil, false
	}
	return v, true
}

// maxLiteralDepth bounds the nesting a literal may have.
const maxLiteralDepth = 20

type litParser struct {
	s string
	i int
}

func (p *litParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		case '\\':
			// A line continuation inside an expression.
			if p.i+1 < len(p.s) && p.s[p.i+1] == '\n' {
				p.i += 2
				continue
			}
			return
		case '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *litParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *litParser) value(depth int) (any, bool) {
	if depth > maxLiteralDepth {
		return nil, false
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '[':
		p.i++
		return p.seq(']', depth)
	case c == '(':
		p.i++
		if p.eat(')') {
			return []any{}, true
		}
		first, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		if p.eat(')') {
			return first, true // parentheses, not a tuple
		}
		if !p.eat(',') {
			return nil, false
		}
		rest, ok := p.seq(')', depth)
		if !ok {
			return nil, false
		}
		return append([]any{first}, rest.([]any)...), true
	case c == '{':
		p.i++
		return p.dict(depth)
	case c == '"' || c == '\'':
		return p.str()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case isIdentStart(c):
		j := p.i
		for j < len(p.s) && (isIdentStart(p.s[j]) || (p.s[j] >= '0' && p.s[j] <= '9')) {
			j++
		}
		word := p.s[p.i:j]
		if j < len(p.s) && (p.s[j] == '"' || p.s[j] == '\'') {
			// A string prefix: r and u keep a str; b, f and the rest do not.
			switch strings.ToLower(word) {
			case "u":
				p.i = j
				return p.str()
			case "r":
				p.i = j
				return p.raw()
			}
			return nil, false
		}
		p.i = j
		switch word {
		case "None":
			return nil, true
		case "True":
			return true, true
		case "False":
			return false, true
		}
		return nil, false
	}
	return nil, false
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// seq reads items up to end, a trailing comma allowed.
func (p *litParser) seq(end byte, depth int) (any, bool) {
	out := []any{}
	for {
		if p.eat(end) {
			return out, true
		}
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if p.eat(end) {
			return out, true
		}
		if !p.eat(',') {
			return nil, false
		}
	}
}

func (p *litParser) dict(depth int) (any, bool) {
	out := map[string]any{}
	for {
		if p.eat('}') {
			return out, true
		}
		k, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		ks, isStr := k.(string)
		if !isStr || !p.eat(':') {
			return nil, false // a set, or a key JSON cannot carry
		}
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		out[ks] = v
		if p.eat('}') {
			return out, true
		}
		if !p.eat(',') {
			return nil, false
		}
	}
}

// maxSafeInt is the largest integer a JSON number carries exactly in every
// reader (2^53).
const maxSafeInt = 1 << 53

func (p *litParser) number() (any, bool) {
	neg := false
	for p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		if p.s[p.i] == '-' {
			neg = !neg
		}
		p.i++
		p.space()
	}
	j := p.i
	for j < len(p.s) && (isIdentStart(p.s[j]) || (p.s[j] >= '0' && p.s[j] <= '9') || p.s[j] == '.' ||
		((p.s[j] == '-' || p.s[j] == '+') && j > p.i && (p.s[j-1] == 'e' || p.s[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(p.s[p.i:]), "0x"))) {
		j++
	}
	text := strings.ReplaceAll(p.s[p.i:j], "_", "")
	if text == "" || strings.HasSuffix(p.s[p.i:j], "_") {
		return nil, false
	}
	p.i = j
	if n, err := strconv.ParseInt(text, 0, 64); err == nil && (len(text) == 1 || text[0] != '0' || strings.ContainsAny(text[1:2], "xXoObB")) {
		if n > maxSafeInt || n < -maxSafeInt {
			return nil, false
		}
		if neg {
			n = -n
		}
		return int(n), true
	}
	if strings.ContainsAny(text, "xXoObBjJ") || strings.Count(text, ".") > 1 {
		return nil, false
	}
	if strings.Trim(text, "0") == "" { // 00, 000: Python's zero
		return 0, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || !strings.ContainsAny(text, ".eE") {
		return nil, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// str reads a quoted string with Python's escapes; adjacent literals join.
func (p *litParser) str() (any, bool) {
	var b strings.Builder
	for {
		s, ok := p.quoted(false)
		if !ok {
			return nil, false
		}
		b.WriteString(s)
		save := p.i
		p.space()
		if p.i < len(p.s) && (p.s[p.i] == '"' || p.s[p.i] == '\'') {
			continue
		}
		p.i = save
		return b.String(), true
	}
}

func (p *litParser) raw() (any, bool) {
	s, ok := p.quoted(true)
	if !ok {
		return nil, false
	}
	return s, true
}

// quoted reads one '...', "...", ”'...”' or """...""" literal.
func (p *litParser) quoted(raw bool) (string, bool) {
	q := p.s[p.i]
	delim := string(q)
	if strings.HasPrefix(p.s[p.i:], strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	p.i += len(delim)
	var b strings.Builder
	for p.i < len(p.s) {
		if strings.HasPrefix(p.s[p.i:], delim) {
			p.i += len(delim)
			return b.String(), true
		}
		c := p.s[p.i]
		if c == '\n' && len(delim) == 1 {
			return "", false
		}
		if c != '\\' {
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", false
		}
		if raw {
			// A raw string keeps its backslashes; one still protects a
			// quote or a backslash after it from ending the literal.
			b.WriteByte('\\')
			p.i++
			if c := p.s[p.i]; c == '\\' || c == q {
				b.WriteByte(c)
				p.i++
			}
			continue
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.i+n > len(p.s) {
				return "", false
			}
			code, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil || code > utf8.MaxRune || (code >= 0xD800 && code < 0xE000) {
				return "", false
			}
			b.WriteRune(rune(code))
			p.i += n
		default:
			return "", false // an escape this reader does not know: no guess
		}
	}
	return "", false
}
