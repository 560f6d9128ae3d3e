package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The YAML codec walks yaml.Node trees itself rather than calling
// yaml.Unmarshal, for three reasons (issue 4): an unknown field must be
// refused with its line, every problem must be reported rather than the
// first, and `inp: null` must be told apart from no `inp` at all. Fields
// are found through their yaml struct tags, so a field added to Register,
// Item, Table or Row is read and written without touching this file.

// decoder collects problems while decoding one file.
type decoder struct {
	file      string
	probs     []Problem
	contracts []pendingContract
}

// pendingContract is a row's contract, compiled once the walk is done.
type pendingContract struct {
	expr string
	line int
	what string
}

func (d *decoder) errf(line int, format string, args ...any) {
	d.probs = append(d.probs, Problem{File: d.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// loadError returns the problems found, in file order.
func (d *decoder) loadError() *LoadError {
	sort.SliceStable(d.probs, func(i, j int) bool { return d.probs[i].Line < d.probs[j].Line })
	return &LoadError{File: d.file, Problems: d.probs}
}

// idOf returns the text of a mapping's id field, to name an item or row in
// problems found before its id is decoded.
func idOf(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "id" && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// parseDoc parses data into its single document's root node. It returns nil
// after recording a problem when there is nothing to decode.
func (d *decoder) parseDoc(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.errf(0, "the file is empty")
			return nil
		}
		d.errf(yamlErrLine(err), "not valid YAML: %s", yamlErrMsg(err))
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		d.errf(extra.Line, "a second YAML document; the file must hold one")
	} else if !errors.Is(err, io.EOF) {
		d.errf(yamlErrLine(err), "not valid YAML: %s", yamlErrMsg(err))
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			d.errf(0, "the file is empty")
			return nil
		}
		return doc.Content[0]
	}
	return &doc
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// yamlErrLine digs the line number out of a yaml.v3 syntax error.
func yamlErrLine(err error) int {
	m := yamlLineRe.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func yamlErrMsg(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	s = yamlLinePrefixRe.ReplaceAllString(s, "")
	return oneLine(s)
}

var yamlLinePrefixRe = regexp.MustCompile(`^line \d+: `)

// fieldInfo is one struct field as the YAML files spell it.
type fieldInfo struct {
	name      string
	index     int
	omitempty bool
}

var fieldCache sync.Map // reflect.Type -> []fieldInfo

func fieldsOf(t reflect.Type) []fieldInfo {
	if v, ok := fieldCache.Load(t); ok {
		return v.([]fieldInfo)
	}
	var out []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out = append(out, fieldInfo{name: name, index: i, omitempty: strings.Contains(opts, "omitempty")})
	}
	fieldCache.Store(t, out)
	return out
}

func fieldNames(fs []fieldInfo) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// where names the field a problem is about, built into text only when
// there is a problem: a table of 20,000 rows has 150,000 fields.
type where struct {
	base, field string
}

func (w where) String() string {
	if w.field == "" {
		return w.base
	}
	return w.base + "." + w.field
}

// keyLines maps each key present in a mapping to the line of its value.
type keyLines map[string]int

// decodeStruct decodes mapping n into struct v, refusing unknown and
// repeated keys. It returns where each present key's value is, or nil when
// n is not a mapping.
func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, what string) keyLines {
	if d.alias(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errf(n.Line, "%s: want a mapping of fields, got %s", what, describe(n))
		return nil
	}
	fs := fieldsOf(v.Type())
	seen := keyLines{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errf(k.Line, "%s: a field name must be a plain word, got %s", what, describe(k))
			continue
		}
		if _, dup := seen[k.Value]; dup {
			d.errf(k.Line, "%s: field %q given twice (first at line %d)", what, k.Value, seen[k.Value])
			continue
		}
		seen[k.Value] = val.Line
		var fi *fieldInfo
		for j := range fs {
			if fs[j].name == k.Value {
				fi = &fs[j]
				break
			}
		}
		if fi == nil {
			d.errf(k.Line, "%s: unknown field %q (known fields: %s)", what, k.Value, fieldNames(fs))
			continue
		}
		d.decodeValue(val, v.Field(fi.index), where{what, k.Value})
	}
	return seen
}

// decodeValue decodes n into v according to v's type.
func (d *decoder) decodeValue(n *yaml.Node, v reflect.Value, what where) {
	if d.alias(n) {
		return
	}
	if v.Kind() == reflect.Interface {
		if x, ok := d.value(n, what); ok && x != nil {
			v.Set(reflect.ValueOf(x))
		}
		return
	}
	if isNull(n) {
		return // the zero value; required fields are checked by the schema
	}
	switch v.Kind() {
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			d.errf(n.Line, "%s: want text, got %s", what, describe(n))
			return
		}
		if n.ShortTag() != "!!str" {
			// 5, true or 2026-01-01 is text only to premise: an editor
			// checking the file against its schema sees a number, a
			// boolean or a date, so premise refuses it too.
			d.errf(n.Line, "%s: want text, got %s; quote it: %q", what, describe(n), n.Value)
			return
		}
		v.SetString(n.Value)
	case reflect.Int, reflect.Int64, reflect.Int32:
		var i int64
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&i) != nil || v.OverflowInt(i) {
			d.errf(n.Line, "%s: want a whole number, got %s", what, describe(n))
			return
		}
		v.SetInt(i)
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			d.errf(n.Line, "%s: want true or false, got %s", what, describe(n))
			return
		}
		var b bool
		_ = n.Decode(&b)
		v.SetBool(b)
	case reflect.Float64:
		var f float64
		if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || n.Decode(&f) != nil {
			d.errf(n.Line, "%s: want a number, got %s", what, describe(n))
			return
		}
		v.SetFloat(f)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		d.decodeValue(n, p.Elem(), what)
		v.Set(p)
	case reflect.Struct:
		d.decodeStruct(n, v, what.String())
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.errf(n.Line, "%s: want a list, got %s", what, describe(n))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, e := range n.Content {
			d.decodeValue(e, s.Index(i), what)
		}
		v.Set(s)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			d.errf(n.Line, "%s: cannot decode into %s", what, v.Type())
			return
		}
		if n.Kind != yaml.MappingNode {
			d.errf(n.Line, "%s: want a mapping, got %s", what, describe(n))
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				d.errf(k.Line, "%s: keys must be text, got %s", what, describe(k))
				continue
			}
			if l, dup := seen[k.Value]; dup {
				d.errf(k.Line, "%s: key %q given twice (first at line %d)", what, k.Value, l)
				continue
			}
			seen[k.Value] = k.Line
			e := reflect.New(v.Type().Elem()).Elem()
			d.decodeValue(val, e, where{what.String(), k.Value})
			m.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), e)
		}
		v.Set(m)
	default:
		d.errf(n.Line, "%s: cannot decode into %s", what, v.Type())
	}
}

// alias refuses YAML aliases and merge keys: a partition table is plain
// data, and expanding aliases lets a small file grow without bound.
func (d *decoder) alias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		d.errf(n.Line, "YAML aliases (*%s) are not supported; write the value out", n.Value)
		return true
	}
	return false
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

var decimalRe = regexp.MustCompile(`^[-+]?[0-9]+$`)

// value converts n to a JSON-shaped Go value: nil, bool, int, json.Number
// (an integer beyond int64, kept exact), float64, string, []any and
// map[string]any. These are the values the runner protocol can carry, so
// anything else (a NaN, a non-text key) is a problem here rather than a
// surprise at run time.
func (d *decoder) value(n *yaml.Node, what where) (any, bool) {
	return d.valueAt(n, what, 0)
}

// maxDepth bounds how deeply an input may nest. It keeps every loaded row
// hashable (RFC 8785 canonicalisation refuses deeper documents) and the
// walk's stack small.
const maxDepth = 200

func (d *decoder) valueAt(n *yaml.Node, what where, depth int) (any, bool) {
	if d.alias(n) {
		return nil, false
	}
	if depth > maxDepth {
		d.errf(n.Line, "%s: nested deeper than %d levels", what, maxDepth)
		return nil, false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, true
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				d.errf(n.Line, "%s: %s", what, yamlErrMsg(err))
				return nil, false
			}
			return b, true
		case "!!int":
			var i int64
			if err := n.Decode(&i); err == nil && int64(int(i)) == i {
				return int(i), true
			}
			if s := strings.TrimPrefix(n.Value, "+"); decimalRe.MatchString(s) {
				return json.Number(s), true
			}
			d.errf(n.Line, "%s: integer %s does not fit in 64 bits", what, n.Value)
			return nil, false
		case "!!float":
			if s := strings.TrimPrefix(n.Value, "+"); decimalRe.MatchString(s) && n.Style&(yaml.TaggedStyle) == 0 {
				return json.Number(s), true // an integer beyond 64 bits, kept exact
			}
			var f float64
			if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				d.errf(n.Line, "%s: %s is not a number JSON can carry", what, n.Value)
				return nil, false
			}
			return f, true
		case "!!str", "!!timestamp", "!!binary":
			// A date-like or base64-like scalar stays the text it is: the
			// runner protocol has no date type.
			return n.Value, true
		default:
			d.errf(n.Line, "%s: unsupported YAML tag %s", what, n.Tag)
			return nil, false
		}
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		ok := true
		for _, e := range n.Content {
			x, eok := d.valueAt(e, what, depth+1)
			ok = ok && eok
			out = append(out, x)
		}
		return out, ok
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		seen := map[string]int{}
		ok := true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				d.errf(k.Line, "%s: keys must be text (JSON objects have text keys), got %s", what, describe(k))
				ok = false
				continue
			}
			if l, dup := seen[k.Value]; dup {
				d.errf(k.Line, "%s: key %q given twice (first at line %d)", what, k.Value, l)
				ok = false
				continue
			}
			seen[k.Value] = k.Line
			x, eok := d.valueAt(val, what, depth+1)
			ok = ok && eok
			out[k.Value] = x
		}
		return out, ok
	default:
		d.errf(n.Line, "%s: unexpected %s", what, describe(n))
		return nil, false
	}
}

// describe names a node's shape for a message.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		v := n.Value
		if len(v) > 40 {
			v = v[:37] + "..."
		}
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!str":
			return strconv.Quote(v)
		default:
			return v
		}
	}
	return "nothing"
}

// encodeStruct builds a mapping node from struct v in field order, leaving
// out empty omitempty fields. Values of interface type and lists of plain
// values are written in flow style ([[4, 6], [0, 1]]) so a row reads on one
// line.
func encodeStruct(v reflect.Value) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		if f.omitempty && isEmpty(fv) {
			continue
		}
		m.Content = append(m.Content, strNode(f.name), encodeValue(fv))
	}
	return m
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
		return v.IsNil()
	default:
		return v.IsZero()
	}
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: validUTF8(s)}
	if s == "<<" {
		// yaml.v3 writes it plain, and reads a plain << back as a merge
		// key: a witness's text "<<" made the register unreadable.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func encodeValue(v reflect.Value) *yaml.Node {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		}
		n := anyNode(v.Elem().Interface())
		flow(n)
		return n
	case reflect.Pointer:
		if v.IsNil() {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		}
		return encodeValue(v.Elem())
	case reflect.Struct:
		return encodeStruct(v)
	case reflect.Slice:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		plain := v.Type().Elem().Kind() != reflect.Struct && v.Type().Elem().Kind() != reflect.Pointer
		for i := 0; i < v.Len(); i++ {
			n.Content = append(n.Content, encodeValue(v.Index(i)))
		}
		if plain {
			flow(n)
		}
		return n
	case reflect.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			n.Content = append(n.Content, strNode(k.String()), encodeValue(v.MapIndex(k)))
		}
		flow(n)
		return n
	default:
		return anyNode(v.Interface())
	}
}

func flow(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
		n.Style = yaml.FlowStyle
	}
}

// anyNode converts a JSON-shaped value to a node. Floats keep a decimal
// point (1.0, not 1), so a float input reads back as a float.
func anyNode(x any) *yaml.Node {
	scalar := func(tag, val string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: val} }
	switch x := x.(type) {
	case nil:
		return scalar("!!null", "null")
	case bool:
		return scalar("!!bool", strconv.FormatBool(x))
	case string:
		return strNode(x)
	case json.Number:
		if decimalRe.MatchString(string(x)) {
			return scalar("!!int", string(x))
		}
		f, err := x.Float64()
		if err != nil {
			return scalar("!!str", string(x))
		}
		return anyNode(f)
	case float64:
		return scalar("!!float", formatFloat(x))
	case float32:
		return scalar("!!float", formatFloat(float64(x)))
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, anyNode(e))
		}
		return n
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, strNode(k), anyNode(x[k]))
		}
		return n
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return scalar("!!int", strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return scalar("!!int", strconv.FormatUint(rv.Uint(), 10))
	case reflect.Slice, reflect.Array:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := 0; i < rv.Len(); i++ {
			n.Content = append(n.Content, anyNode(rv.Index(i).Interface()))
		}
		return n
	}
	var n yaml.Node
	if err := n.Encode(x); err != nil {
		return scalar("!!str", fmt.Sprint(x))
	}
	return &n
}

func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// encodeDoc writes a node as a YAML document with two-space indentation.
func encodeDoc(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// validUTF8 is s with each byte that is not part of a UTF-8 character
// replaced by U+FFFD, as encoding/json carries it to a worker: YAML holds
// no such byte, and a register or table that could not be written would
// lose every decision in it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // an invalid byte ranges as utf8.RuneError
	}
	return b.String()
}
