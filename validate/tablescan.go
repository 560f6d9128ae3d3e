package validate

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A partition table read without a YAML node tree, beside ParseTable's
// decoder over yaml.v3's nodes (tablefile.go, yamlcodec.go), which reads
// every other table and reports every problem.
//
// Issue 28: on a table of 10,000 rows the node tree was most of what the
// gate allocated and a quarter of its CPU. scanTable reads the shape
// premise writes (Table.Marshal) and people copy: top-level `key: value`
// lines, then rows as a block list of mappings, one `key: value` a line,
// each value a plain or quoted scalar or a flow list or mapping on that
// line. Anything else (a block scalar, a value on the next line, a
// comment after a value, an escape in a quoted string, a tab, a number
// YAML reads in more than one way) makes it give up, and so does any
// problem the row schema finds: the table is then read again by the
// node decoder, so every message a bad table gets, with its file and
// line, comes from one place. FuzzScanTable holds the two equal on what
// scanTable reads.
//
// Measured with BenchmarkParseTable (validate) and BenchmarkGateFile
// (gate): see bench/README.md, "gate near its floor".

// scanTable returns the table in data, or ok false when data is not in
// the shape it reads or holds a problem.
func scanTable(name string, data []byte) (t *Table, ok bool) {
	return scanTableString(name, string(data))
}

// scanTableString is scanTable of the table's text.
func scanTableString(name, src string) (t *Table, ok bool) {
	if !utf8.ValidString(src) {
		return nil, false // the node decoder refuses it, with the file named
	}
	s := &scanner{src: src}
	t = &Table{}
	if !s.table(t) {
		return nil, false
	}
	d := &decoder{file: name, contracts: make([]pendingContract, 0, len(t.Rows))}
	if t.Version != FormatVersion || s.rowsLine == 0 || len(t.Rows) == 0 {
		return nil, false
	}
	switch t.Language {
	case "", LangPython, LangGo, LangExec:
	default:
		return nil, false
	}
	ids := make(map[string]bool, len(t.Rows))
	for i := range t.Rows {
		r := &t.Rows[i]
		k := s.keys[i]
		_, r.HasInp = k["inp"]
		d.checkRow(t, r, k, r.ID, r.SrcLine)
		if len(d.probs) > 0 || ids[r.ID] {
			return nil, false
		}
		ids[r.ID] = true
	}
	if !d.compileContracts(t) {
		return nil, false
	}
	return t, true
}

// scanner walks a table's text line by line.
type scanner struct {
	src      string
	line     int        // 1-based number of the line being read
	rowsLine int        // the line of `rows:`, 0 before it
	keys     []keyLines // each row's keys and their lines
}

// table reads the whole document into t.
func (s *scanner) table(t *Table) bool {
	if strings.ContainsAny(s.src, "\t\r") || strings.HasPrefix(s.src, "\ufeff") {
		return false
	}
	// Room for every row at once: "- " starts each (and may stand in a
	// value too, which only leaves some room unused).
	t.Rows = make([]Row, 0, strings.Count(s.src, "- "))
	s.keys = make([]keyLines, 0, cap(t.Rows))
	top := map[string]bool{}
	rowIndent := -1 // the column of the rows' dashes, once seen
	inRows := false
	var row *Row
	var k keyLines
	for rest := s.src; rest != ""; {
		var text string
		text, rest, _ = strings.Cut(rest, "\n")
		s.line++
		body := strings.TrimLeft(text, " ")
		if body == "" || body[0] == '#' {
			continue
		}
		indent := len(text) - len(body)
		switch {
		case inRows && strings.HasPrefix(body, "- ") && (rowIndent < 0 || indent == rowIndent):
			rowIndent = indent
			t.Rows = append(t.Rows, Row{SrcLine: s.line})
			row = &t.Rows[len(t.Rows)-1]
			k = make(keyLines, 8)
			s.keys = append(s.keys, k)
			if !s.rowField(row, k, body[2:]) {
				return false
			}
		case inRows && row != nil && indent == rowIndent+2:
			if !s.rowField(row, k, body) {
				return false
			}
		case indent == 0:
			key, val, ok := splitKey(body)
			if !ok || top[key] {
				return false
			}
			top[key] = true
			inRows, row = false, nil
			if !s.topField(t, key, val) {
				return false
			}
			inRows = key == "rows"
		default:
			return false
		}
	}
	return true
}

// topField reads one top-level field.
func (s *scanner) topField(t *Table, key, val string) bool {
	switch key {
	case "rows":
		if val != "" {
			return false // rows: [] and the like: the node decoder's
		}
		s.rowsLine = s.line
		return true
	case "version":
		v, ok := scanValue(val)
		i, isInt := v.(int)
		if !ok || !isInt {
			return false
		}
		t.Version = i
		return true
	case "target":
		return scanString(val, &t.Target)
	case "language":
		return scanString(val, &t.Language)
	}
	return false
}

// rowField reads one `key: value` of a row into r, noting its line in k.
func (s *scanner) rowField(r *Row, k keyLines, body string) bool {
	key, val, ok := splitKey(body)
	if !ok || val == "" {
		return false
	}
	if _, dup := k[key]; dup {
		return false
	}
	k[key] = s.line
	switch key {
	case "id":
		return scanString(val, &r.ID)
	case "cls":
		return scanString(val, &r.Cls)
	case "kind":
		return scanString(val, &r.Kind)
	case "relation":
		return scanString(val, &r.Relation)
	case "target":
		return scanString(val, &r.Target)
	case "contract":
		return scanString(val, &r.Contract)
	case "raises":
		return scanString(val, &r.Raises)
	case "todo":
		return scanString(val, &r.Todo)
	case "decision":
		return scanString(val, &r.Decision)
	case "test":
		return scanString(val, &r.Test)
	case "assumption_ids":
		return scanStrings(val, &r.AssumptionIDs)
	case "metamorphic":
		return scanStrings(val, &r.Metamorphic)
	case "same_as_base":
		v, ok := scanValue(val)
		if b, isBool := v.(bool); ok && isBool {
			r.SameAsBase = b
			return true
		}
		return ok && v == nil
	case "inp":
		v, ok := scanValue(val)
		r.Inp = v
		return ok
	case "args":
		v, ok := scanValue(val)
		if l, isList := v.([]any); ok && isList {
			r.Args = l
			return true
		}
		return ok && v == nil
	case "kwargs":
		v, ok := scanValue(val)
		if m, isMap := v.(map[string]any); ok && isMap {
			r.Kwargs = m
			return true
		}
		return ok && v == nil
	}
	return false // property, expect and unknown fields: the node decoder's
}

// splitKey splits `key: value` (or `key:` alone) where key is a plain
// word.
func splitKey(body string) (key, val string, ok bool) {
	i := 0
	for i < len(body) && (body[i] >= 'a' && body[i] <= 'z' || body[i] == '_') {
		i++
	}
	if i == 0 || i == len(body) || body[i] != ':' {
		return "", "", false
	}
	key, val = body[:i], body[i+1:]
	if val == "" {
		return key, "", true
	}
	if val[0] != ' ' {
		return "", "", false
	}
	return key, strings.Trim(val, " "), true
}

// scanString reads a text field: a string, or null for none.
func scanString(val string, dst *string) bool {
	v, ok := scanValue(val)
	if str, isStr := v.(string); ok && isStr {
		*dst = str
		return true
	}
	return ok && v == nil
}

// scanStrings reads a list of text: null elements are "", as the node
// decoder reads them.
func scanStrings(val string, dst *[]string) bool {
	v, ok := scanValue(val)
	if !ok {
		return false
	}
	if v == nil {
		return true
	}
	l, isList := v.([]any)
	if !isList {
		return false
	}
	out := make([]string, len(l))
	for i, e := range l {
		switch e := e.(type) {
		case string:
			out[i] = e
		case nil:
		default:
			return false
		}
	}
	*dst = out
	return true
}

// scanValue reads a whole value in block context: a flow list or mapping,
// a quoted scalar, or a plain one.
func scanValue(val string) (any, bool) {
	if val == "" {
		return nil, false
	}
	switch val[0] {
	case '[', '{':
		f := flowLine{s: val}
		v, ok := f.value(0)
		return v, ok && f.i == len(val)
	case '"', '\'':
		str, n, ok := quoted(val)
		return str, ok && n == len(val)
	}
	if strings.Contains(val, ": ") || strings.Contains(val, " #") || strings.HasSuffix(val, ":") {
		return nil, false
	}
	return plain(val)
}

// plain resolves a plain scalar as yaml.v3 does, for the scalars whose
// reading is not in doubt: null, true and false in their spellings,
// decimal integers that fit in int64, decimals with a fraction, and text
// starting with a letter, "_" or "(". Anything else is the node
// decoder's.
func plain(s string) (any, bool) {
	switch s {
	case "~", "null", "Null", "NULL":
		return nil, true
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	c := s[0]
	switch {
	case c >= '0' && c <= '9' || c == '-':
		return number(s)
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '(':
		if !printable(s) {
			return nil, false
		}
		return s, true
	}
	return nil, false
}

// number reads -?(0|[1-9][0-9]*) of at most 18 digits as an int, and the
// same with a fraction of at most 17 digits as a float64.
func number(s string) (any, bool) {
	digits := strings.TrimPrefix(s, "-")
	whole, frac, isFloat := strings.Cut(digits, ".")
	if !allDigits(whole) || len(whole) > 18 || (len(whole) > 1 && whole[0] == '0') {
		return nil, false
	}
	if !isFloat {
		i, err := strconv.Atoi(s)
		return i, err == nil
	}
	if !allDigits(frac) || len(frac) > 17 {
		return nil, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// printable reports whether s holds only characters YAML reads as
// themselves in a scalar: no control characters, and none of the
// characters it takes for line breaks or a byte order mark.
func printable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe {
			return false
		}
		i += n
	}
	return true
}

// quoted reads a quoted scalar at the start of s, without escapes (two
// quotes in a single-quoted one stand for one), and returns its text and
// its length.
func quoted(s string) (string, int, bool) {
	q := s[0]
	if q == '"' {
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return "", 0, false
		}
		str := s[1 : 1+end]
		if strings.IndexByte(str, '\\') >= 0 || !printable(str) {
			return "", 0, false
		}
		return str, end + 2, true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		str := b.String()
		if !printable(str) {
			return "", 0, false
		}
		return str, i + 1, true
	}
	return "", 0, false
}

// flowLine reads a flow list or mapping on one line.
type flowLine struct {
	s string
	i int
}

func (f *flowLine) space() {
	for f.i < len(f.s) && f.s[f.i] == ' ' {
		f.i++
	}
}

// value reads one value inside flow context at depth.
func (f *flowLine) value(depth int) (any, bool) {
	if depth > maxDepth || f.i >= len(f.s) {
		return nil, false
	}
	switch f.s[f.i] {
	case '[':
		f.i++
		f.space()
		if f.i < len(f.s) && f.s[f.i] == ']' {
			f.i++
			return []any{}, true
		}
		// The elements are gathered on the stack and the list made once,
		// of their number.
		var room [8]any
		elems := room[:0]
		for {
			f.space()
			v, ok := f.value(depth + 1)
			if !ok {
				return nil, false
			}
			elems = append(elems, v)
			f.space()
			if f.i >= len(f.s) {
				return nil, false
			}
			switch f.s[f.i] {
			case ',':
				f.i++
			case ']':
				f.i++
				return slices.Clone(elems), true
			default:
				return nil, false
			}
		}
	case '{':
		f.i++
		out := map[string]any{}
		f.space()
		if f.i < len(f.s) && f.s[f.i] == '}' {
			f.i++
			return out, true
		}
		for {
			f.space()
			k, ok := f.key()
			key, isStr := k.(string)
			if !ok || !isStr || !strings.HasPrefix(f.s[f.i:], ": ") {
				return nil, false
			}
			if _, dup := out[key]; dup {
				return nil, false
			}
			f.i += 2
			f.space()
			v, ok := f.value(depth + 1)
			if !ok {
				return nil, false
			}
			out[key] = v
			f.space()
			if f.i >= len(f.s) {
				return nil, false
			}
			switch f.s[f.i] {
			case ',':
				f.i++
			case '}':
				f.i++
				return out, true
			default:
				return nil, false
			}
		}
	case '"', '\'':
		str, n, ok := quoted(f.s[f.i:])
		f.i += n
		return str, ok
	}
	v, ok, end := f.plain()
	return v, ok && end != ':'
}

// key reads a flow mapping's key: a quoted or plain scalar, followed by
// its ':'.
func (f *flowLine) key() (any, bool) {
	if f.i < len(f.s) && (f.s[f.i] == '"' || f.s[f.i] == '\'') {
		str, n, ok := quoted(f.s[f.i:])
		f.i += n
		return str, ok
	}
	v, ok, end := f.plain()
	return v, ok && end == ':'
}

// plain reads a plain scalar in flow context, which ends at a flow
// indicator or ':', and returns the byte it ended at (0 at the end of
// the line). One that meets '#' reads otherwise.
func (f *flowLine) plain() (any, bool, byte) {
	start := f.i
	for f.i < len(f.s) && strings.IndexByte(",[]{}:#", f.s[f.i]) < 0 {
		f.i++
	}
	var end byte
	if f.i < len(f.s) {
		end = f.s[f.i]
	}
	text := strings.TrimRight(f.s[start:f.i], " ")
	if end == '#' || text == "" {
		return nil, false, end
	}
	v, ok := plain(text)
	return v, ok, end
}
