package validate

import (
	"bytes"
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"
)

// splitMin is the size from which a file's main list is parsed in pieces:
// a gate on a thousand rows (230 KB) waits for its table before its first
// call. Below it the plain parse is fast enough and simpler to reason about.
const splitMin = 32 << 10

// parseDocSplit is parseDoc for a register or table whose bulk is one
// top-level block list (items, rows). yaml.v3 parses about 5 MB a second,
// and issue 4 asks for 20,000 rows checked in well under a second, so a
// large file's list is cut at its items' first lines and the pieces are
// parsed on every CPU. The cut is only made where YAML's indentation rules
// guarantee an item starts; anything unusual (a key after the list, a tab,
// a document marker, a piece that does not parse) falls back to the plain
// parse, which also produces every error message.
func (d *decoder) parseDocSplit(data []byte, key string) *yaml.Node {
	if len(data) >= splitMin {
		if root, ok := splitParse(data, key); ok {
			return root
		}
	}
	return d.parseDoc(data)
}

func splitParse(data []byte, key string) (*yaml.Node, bool) {
	if bytes.IndexByte(data, '\t') >= 0 || bytes.Contains(data, []byte("\n---")) || bytes.Contains(data, []byte("\n...")) {
		return nil, false
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	keyLine := -1
	for i, l := range lines {
		t := bytes.TrimRight(l, " \r\n")
		if string(t) == key+":" {
			if keyLine >= 0 {
				return nil, false
			}
			keyLine = i
		}
	}
	if keyLine < 0 {
		return nil, false
	}
	// The list's indentation is that of its first item.
	var ind []byte
	found := false
	var starts []int // 0-based line indexes of items
	for i := keyLine + 1; i < len(lines); i++ {
		l := bytes.TrimRight(lines[i], "\r\n")
		t := bytes.TrimLeft(l, " ")
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		n := len(l) - len(t)
		if !found {
			if !bytes.HasPrefix(t, []byte("- ")) && !bytes.Equal(t, []byte("-")) {
				return nil, false
			}
			ind, found = l[:n], true
		}
		switch {
		case n == len(ind) && (bytes.HasPrefix(t, []byte("- ")) || bytes.Equal(t, []byte("-"))):
			starts = append(starts, i)
		case n > len(ind):
			// inside an item
		default:
			return nil, false // a key after the list, or a list at another indent
		}
	}
	if len(starts) < 2 {
		return nil, false
	}

	var header yaml.Node
	if err := yaml.Unmarshal(bytes.Join(lines[:keyLine], nil), &header); err != nil {
		return nil, false
	}
	var root *yaml.Node
	switch {
	case header.Kind == 0:
		root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: keyLine + 1, Column: 1}
	case header.Kind == yaml.DocumentNode && len(header.Content) == 1 && header.Content[0].Kind == yaml.MappingNode:
		root = header.Content[0]
	default:
		return nil, false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			return nil, false
		}
	}

	pieces := runtime.GOMAXPROCS(0) * 2
	if pieces > len(starts) {
		pieces = len(starts)
	}
	parts := make([][]*yaml.Node, pieces)
	oks := make([]bool, pieces)
	var wg sync.WaitGroup
	for p := 0; p < pieces; p++ {
		from := starts[p*len(starts)/pieces]
		to := len(lines)
		if p+1 < pieces {
			to = starts[(p+1)*len(starts)/pieces]
		}
		wg.Add(1)
		go func(p, from, to int) {
			defer wg.Done()
			// The piece is parsed alone, its items from its second line;
			// shift then puts every node on its line in the whole file.
			var buf bytes.Buffer
			buf.Grow(len(key) + 2 + len(data)/pieces)
			buf.WriteString(key + ":\n")
			for _, l := range lines[from:to] {
				buf.Write(l)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(buf.Bytes(), &doc); err != nil {
				return
			}
			if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
				return
			}
			m := doc.Content[0]
			if m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[1].Kind != yaml.SequenceNode {
				return
			}
			for _, n := range m.Content[1].Content {
				shift(n, from-1)
			}
			parts[p], oks[p] = m.Content[1].Content, true
		}(p, from, to)
	}
	wg.Wait()
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: starts[0] + 1, Column: len(ind) + 1}
	for p := range parts {
		if !oks[p] {
			return nil, false
		}
		seq.Content = append(seq.Content, parts[p]...)
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: keyLine + 1, Column: 1}
	root.Content = append(root.Content, k, seq)
	return root, true
}

// shift moves n and everything under it down by lines.
func shift(n *yaml.Node, lines int) {
	n.Line += lines
	for _, c := range n.Content {
		shift(c, lines)
	}
}
