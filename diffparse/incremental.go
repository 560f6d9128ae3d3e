package diffparse

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// pairParser is a front end that parses both sides of a changed file
// together, cheaper than twice. The Python front end reuses the head's
// syntax tree for the base: tree-sitter reparses only the regions the
// hunks changed.
type pairParser interface {
	declsPair(head, base []byte, hunks []Hunk) (headDecls, baseDecls []Decl, headErr, baseErr error)
}

// block is one change of a diff: head lines [h1, h2) stand where base lines
// [b1, b2) stood (1-based; an empty range is an insertion point).
type block struct{ h1, h2, b1, b2 int }

// blocks lists the changes of the hunks in order.
func blocks(hunks []Hunk) []block {
	var out []block
	for _, h := range hunks {
		lastOld, lastNew := h.OldStart-1, h.NewStart-1
		if h.OldLines == 0 {
			lastOld = h.OldStart
		}
		if h.NewLines == 0 {
			lastNew = h.NewStart
		}
		for i := 0; i < len(h.Lines); {
			if h.Lines[i].Kind == ' ' {
				lastOld, lastNew = h.Lines[i].Old, h.Lines[i].New
				i++
				continue
			}
			b := block{h1: lastNew + 1, b1: lastOld + 1}
			b.h2, b.b2 = b.h1, b.b1
			for ; i < len(h.Lines) && h.Lines[i].Kind != ' '; i++ {
				switch h.Lines[i].Kind {
				case '+':
					b.h2++
					lastNew = h.Lines[i].New
				case '-':
					b.b2++
					lastOld = h.Lines[i].Old
				}
			}
			out = append(out, b)
		}
	}
	return out
}

// change is one change of a diff with its text: head lines [first, next)
// stand where the lines took stood in the base, and hold put.
type change struct {
	first, next int
	took, put   []string
}

// changes lists the changes of hunks in order, with their text.
func changes(hunks []Hunk) []change {
	var out []change
	for _, h := range hunks {
		for i := 0; i < len(h.Lines); {
			if h.Lines[i].Kind == ' ' {
				i++
				continue
			}
			// The head line the change starts at (with nothing added, the
			// head line after the lines it took out).
			c := change{first: h.NewStart}
			if i > 0 {
				c.first = h.Lines[i-1].New + 1
			}
			if h.NewLines == 0 {
				c.first = h.NewStart + 1
			}
			c.next = c.first
			for ; i < len(h.Lines) && h.Lines[i].Kind != ' '; i++ {
				if h.Lines[i].Kind == '-' {
					c.took = append(c.took, h.Lines[i].Text)
				} else {
					c.put = append(c.put, h.Lines[i].Text)
					c.next = h.Lines[i].New + 1
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// lineStarts returns the byte offset of each line's start, plus len(src).
func lineStarts(src []byte) []uint {
	starts := make([]uint, 1, bytes.Count(src, []byte{'\n'})+2)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, uint(i))
	}
	if starts[len(starts)-1] != uint(len(src)) {
		starts = append(starts, uint(len(src)))
	}
	return starts
}

// offset is the byte offset of the start of 1-based line n.
func offset(starts []uint, n int) (uint, bool) {
	if n < 1 || n-1 >= len(starts) {
		return 0, false
	}
	return starts[n-1], true
}

// editToBase edits tree, parsed from head, so that it describes base: each
// change block (in order, lines of head and base), applied from the last to the first so that the offsets
// before it stay those of head. It reports false when the hunks do not fit
// the sources.
func editToBase(tree *sitter.Tree, head, base []byte, bl []block) bool {
	hs, bs := lineStarts(head), lineStarts(base)
	for i := len(bl) - 1; i >= 0; i-- {
		b := bl[i]
		hStart, ok1 := offset(hs, b.h1)
		hEnd, ok2 := offset(hs, b.h2)
		bStart, ok3 := offset(bs, b.b1)
		bEnd, ok4 := offset(bs, b.b2)
		if !ok1 || !ok2 || !ok3 || !ok4 || hEnd < hStart || bEnd < bStart {
			return false
		}
		tree.Edit(&sitter.InputEdit{
			StartByte:      hStart,
			OldEndByte:     hEnd,
			NewEndByte:     hStart + (bEnd - bStart),
			StartPosition:  sitter.Point{Row: uint(b.h1 - 1)},
			OldEndPosition: sitter.Point{Row: uint(b.h2 - 1)},
			NewEndPosition: sitter.Point{Row: uint(b.h1 - 1 + b.b2 - b.b1)},
		})
	}
	return true
}
