package validate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Decision is a reviewer's choice on one assumption (seed 004, Step 2: a
// reviewer marks accepted or rejected).
type Decision struct {
	ID     string `json:"id"`
	Status string `json:"status"`         // accepted or rejected
	Note   string `json:"note,omitempty"` // kept as it was when empty
}

// UnknownIDError reports decisions on ids the register does not hold.
type UnknownIDError struct {
	File string
	IDs  []string
	// Known are the ids the register holds, so the reviewer sees what
	// could be decided.
	Known []string
}

func (e *UnknownIDError) Error() string {
	what := "no assumption or change item"
	switch {
	case allOf(e.IDs, IsChange):
		what = "no change item"
	case !anyOf(e.IDs, IsChange):
		what = "no assumption"
	}
	known := "it holds none"
	if len(e.Known) > 0 {
		known = "it holds " + strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("%s: %s %s; %s", e.File, what, strings.Join(e.IDs, ", "), known)
}

func allOf(ids []string, f func(string) bool) bool {
	for _, id := range ids {
		if !f(id) {
			return false
		}
	}
	return true
}

func anyOf(ids []string, f func(string) bool) bool {
	for _, id := range ids {
		if f(id) {
			return true
		}
	}
	return false
}

// DecideFile records decisions in the register at path and writes it back
// atomically, holding the register's lock from the read to the write: two
// reviewers deciding at once, or a decision made while premise propose waits
// on the model, are both kept.
func DecideFile(path string, ds []Decision) error {
	return DecideFileContext(context.Background(), path, ds)
}

// DecideFileContext is DecideFile whose wait for the register's lock also
// ends when ctx is done: a cancelled ctx returns its error, a deadline that
// passes a *filelock.TimeoutError naming the file.
func DecideFileContext(ctx context.Context, path string, ds []Decision) error {
	l, err := lockFile(ctx, path)
	if err != nil {
		return err
	}
	defer l.Unlock()
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read register: %w", err)
	}
	out, err := Decide(path, data, ds)
	if err != nil {
		return err
	}
	return writeRegister(path, out)
}

// Decide returns the register text data with each decision's status (and
// note, when given) recorded, and every other byte as it was: comments,
// quoting, order, fields premise does not know about. The register must
// load; a decision on an id it does not hold is an *UnknownIDError and
// nothing is changed. Where the text cannot be edited in place (an item
// written in flow style, a multi-line note), the file is re-encoded from
// its YAML tree, which keeps comments and order but may respace them.
func Decide(name string, data []byte, ds []Decision) ([]byte, error) {
	reg, err := ParseRegister(name, data)
	if err != nil {
		return nil, err
	}
	var unknown []string
	for _, d := range ds {
		if d.Status != StatusAccepted && d.Status != StatusRejected && d.Status != StatusProposed {
			return nil, fmt.Errorf("decide %s: status %q must be accepted, rejected or proposed", d.ID, d.Status)
		}
		if reg.Lookup(d.ID) == nil {
			unknown = append(unknown, d.ID)
		}
	}
	if len(unknown) > 0 {
		known := make([]string, 0, len(reg.Items))
		for _, it := range reg.Items {
			if !it.Stale {
				known = append(known, it.ID)
			}
		}
		return nil, &UnknownIDError{File: name, IDs: unknown, Known: known}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("parse register %s: %w", name, err)
	}
	items := itemNodes(&doc)
	out, ok := decideInPlace(data, items, ds)
	if ok && decided(name, out, ds) {
		return out, nil
	}
	for _, d := range ds {
		setNode(items[d.ID], d)
	}
	out, err = encodeDoc(&doc)
	if err != nil {
		return nil, fmt.Errorf("encode register %s: %w", name, err)
	}
	if !decided(name, out, ds) {
		return nil, fmt.Errorf("decide %s: the rewritten register does not hold the decisions; the file is unchanged", name)
	}
	return out, nil
}

// decided reports whether the register text out loads and holds ds.
func decided(name string, out []byte, ds []Decision) bool {
	r, err := ParseRegister(name, out)
	if err != nil {
		return false
	}
	for _, d := range ds {
		it := r.Lookup(d.ID)
		if it == nil || it.Status != d.Status || (d.Note != "" && it.Note != d.Note) {
			return false
		}
	}
	return true
}

// itemNodes maps each item id to its mapping node.
func itemNodes(doc *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	items := mapValue(root, "items")
	if items == nil {
		return out
	}
	for _, it := range items.Content {
		if id := idOf(it); id != "" {
			out[id] = it
		}
	}
	return out
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func mapKey(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// setNode records d in an item's node, for the re-encoding fallback.
func setNode(it *yaml.Node, d Decision) {
	if sv := mapValue(it, "status"); sv != nil {
		sv.Value, sv.Tag = d.Status, "!!str"
	}
	if d.Note == "" {
		return
	}
	if nv := mapValue(it, "note"); nv != nil {
		nv.Value, nv.Tag, nv.Style = d.Note, "!!str", 0
		return
	}
	// Put the note right after the status, where a reader looks for it.
	at := len(it.Content)
	for i := 0; i+1 < len(it.Content); i += 2 {
		if it.Content[i].Value == "status" {
			at = i + 2
		}
	}
	add := []*yaml.Node{strNode("note"), strNode(d.Note)}
	it.Content = append(it.Content[:at], append(add, it.Content[at:]...)...)
}

// edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// decideInPlace edits the register text byte for byte: the status word is
// replaced where it stands, a note is replaced or added on the line after
// the status. It reports false where that is not possible.
func decideInPlace(data []byte, items map[string]*yaml.Node, ds []Decision) ([]byte, bool) {
	lines := lineStarts(data)
	var edits []edit
	for _, d := range ds {
		it := items[d.ID]
		if it == nil || it.Style&yaml.FlowStyle != 0 {
			return nil, false
		}
		sv := mapValue(it, "status")
		if sv == nil {
			return nil, false
		}
		e, ok := scalarEdit(data, lines, sv, d.Status)
		if !ok {
			return nil, false
		}
		edits = append(edits, e)
		if d.Note == "" {
			continue
		}
		text, ok := renderScalar(d.Note)
		if !ok {
			return nil, false
		}
		if nv := mapValue(it, "note"); nv != nil {
			e, ok := scalarEdit(data, lines, nv, text)
			if !ok {
				return nil, false
			}
			e.text = text
			edits = append(edits, e)
			continue
		}
		sk := mapKey(it, "status")
		if sv.Line != sk.Line || sv.Line+1 >= len(lines) {
			return nil, false // the status is the file's last, unterminated line
		}
		// After the whole status line, with the status key's indentation.
		end := lines[sv.Line+1]
		indent := strings.Repeat(" ", sk.Column-1)
		edits = append(edits, edit{start: end, end: end, text: indent + "note: " + text + "\n"})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), data...)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out, true
}

// lineStarts returns the byte offset of each 1-based line; the entry past
// the last line is len(data) (when data ends with a newline).
func lineStarts(data []byte) []int {
	starts := []int{0, 0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// scalarEdit finds a one-line scalar's bytes in data and returns the edit
// that replaces them with text (a plain word for a status: it never needs
// quoting).
func scalarEdit(data []byte, lines []int, n *yaml.Node, text string) (edit, bool) {
	if n.Kind != yaml.ScalarNode || n.Line < 1 || n.Line >= len(lines) {
		return edit{}, false
	}
	lineEnd := len(data)
	if n.Line+1 < len(lines) {
		lineEnd = lines[n.Line+1]
	}
	line := data[lines[n.Line]:lineEnd]
	// Column counts characters, not bytes.
	off := 0
	for c := 1; c < n.Column; c++ {
		_, size := utf8.DecodeRune(line[off:])
		if size == 0 {
			return edit{}, false
		}
		off += size
	}
	rest := line[off:]
	var tok int
	switch n.Style {
	case 0:
		if !bytes.HasPrefix(rest, []byte(n.Value)) {
			return edit{}, false
		}
		tok = len(n.Value)
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		q := rest[0]
		i := 1
		for ; i < len(rest); i++ {
			if q == '"' && rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == q {
				if q == '\'' && i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				break
			}
		}
		if i >= len(rest) || rest[i] != q {
			return edit{}, false
		}
		tok = i + 1
	default:
		return edit{}, false
	}
	start := lines[n.Line] + off
	return edit{start: start, end: start + tok, text: text}, true
}

// renderScalar writes s as a one-line YAML scalar, quoted where needed.
func renderScalar(s string) (string, bool) {
	b, err := yaml.Marshal(map[string]string{"k": s})
	if err != nil {
		return "", false
	}
	out := strings.TrimSuffix(strings.TrimPrefix(string(b), "k: "), "\n")
	if strings.Contains(out, "\n") {
		return "", false
	}
	return out, true
}
