package diffparse

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// regionMinLines is the size from which a Python file is parsed by regions
// (see regionDeclsWith); smaller files are parsed whole, which also reports a
// syntax error anywhere in them. From 30 lines up a file's changed
// statements are a fraction of it: at 100, files of 30 to 99 lines were a
// third of the Python parsed on a 300-commit range.
const regionMinLines = 30

// errRegion means the region parse could not be trusted; the caller parses
// the whole file instead.
var errRegion = errors.New("region parse failed")

// regionDeclsWith finds the declarations changedSymbols needs without
// parsing all of a large file: a top-level statement (a def, a class, an if
// block) parses on its own, so only the statements around the changed lines
// are parsed, and the statements whose text could define a name that
// decides a symbol's change (added or modified, deleted or moved). On a
// range of hundreds of commits over big modules this is what keeps premise
// near git diff's own time (issue 2, "Speed"). Any parse error returns
// errRegion and the file is parsed whole.
//
// The base is read by readBase (nil for a file with no base side) only when
// it is needed: keepsShape may spare it, and a nil read ends the parse with
// errRegion. With reuse set, a base statement is parsed from its head
// statement's tree when the changes inside it are all the difference
// (tree-sitter then reparses only the changed lines), and reused counts
// those statements.
func regionDeclsWith(head []byte, readBase func() []byte, hunks []Hunk, reuse bool) (hd, bd []Decl, reused int, err error) {
	hp := newPyRegions(head)
	if reuse {
		hp.keep = map[pieceKey]pieceTree{}
		defer hp.closeTrees()
	}
	var hLines, bLines []int
	for _, a := range anchors(hunks...) {
		hLines = append(hLines, a.line)
	}
	for _, h := range hunks {
		for _, l := range h.Lines {
			if l.Kind == '-' {
				bLines = append(bLines, l.Old)
			}
		}
	}
	if head != nil {
		if hd, err = hp.decls(hLines); err != nil {
			return nil, nil, 0, err
		}
	}
	if readBase == nil {
		return hd, nil, 0, nil
	}
	if head != nil {
		if gone, ok := hp.keepsShape(hunks, hd); ok {
			// The base declares what the head does but for what the
			// hunks added: names are all that changedSymbols asks of it.
			bd = make([]Decl, 0, len(hd))
			for j, d := range hd {
				if !slices.Contains(gone, j) {
					bd = append(bd, d)
				}
			}
			return hd, bd, 0, nil
		}
	}
	base := readBase()
	if base == nil {
		return nil, nil, 0, errRegion
	}
	bp := newPyRegions(base)
	if reuse {
		bp.head, bp.blocks = hp, blocks(hunks)
		defer func() { reused = bp.reused }()
	}
	// The base statements that could define a changed head symbol's name.
	for _, a := range anchors(hunks...) {
		if i := innermost(hd, a.line, !a.added); i >= 0 {
			bLines = append(bLines, bp.definitionsOf(hd[i].Local)...)
		}
	}
	if bd, err = bp.decls(bLines); err != nil {
		return nil, nil, 0, err
	}
	if head == nil {
		return nil, bd, 0, nil
	}
	// The head statements that could still define a base symbol that lost
	// lines (moved rather than deleted).
	var more []int
	for _, h := range hunks {
		for _, l := range h.Lines {
			if l.Kind == '-' {
				if i := innermost(bd, l.Old, false); i >= 0 {
					more = append(more, hp.definitionsOf(bd[i].Local)...)
				}
			}
		}
	}
	if hd, err = hp.decls(append(hLines, more...)); err != nil {
		return nil, nil, 0, err
	}
	return hd, bd, 0, nil
}

func lastName(local string) string {
	return local[strings.LastIndexByte(local, '.')+1:]
}

// pyRegions is a Python source cut at its top-level statements.
type pyRegions struct {
	// keep holds the syntax trees of the pieces parsed, for the other
	// side to reuse; nil when none are kept.
	keep map[pieceKey]pieceTree
	// head and blocks are, on the base side, the head's pieces and the
	// changes between the sides.
	head   *pyRegions
	blocks []block
	reused int // pieces parsed from the other side's tree

	src    []byte
	lines  int   // lines in src; a last line without a newline counts
	starts []int // 1-based lines where top-level statements begin
	offs   []int // the byte offset of each start
	cache  map[int][]Decl
	// classes reads each large class region once; nil for a region that
	// is not one.
	classes map[int]*pyClass
	sub     map[[2]int][]Decl // (region, statement of its class body) -> decls
	// unsplit means the source cannot be cut at its statements.
	unsplit bool
}

func newPyRegions(src []byte) *pyRegions {
	if src == nil {
		return &pyRegions{}
	}
	r := &pyRegions{src: src, lines: bytes.Count(src, []byte{'\n'}), cache: map[int][]Decl{}, classes: map[int]*pyClass{}, sub: map[[2]int][]Decl{}}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		r.lines++
	}
	r.starts, r.offs = pyStatementStarts(src)
	// Code before the first statement at column 0 belongs to no region
	// (Python rejects such an indent; tree-sitter may not): parse whole.
	before := src
	if len(r.offs) > 0 {
		before = src[:r.offs[0]]
	}
	for len(before) > 0 {
		line := before
		if j := bytes.IndexByte(before, '\n'); j >= 0 {
			line, before = before[:j], before[j+1:]
		} else {
			before = nil
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			r.unsplit = true
			break
		}
	}
	return r
}

// keepsShape reports whether the file before hunks declares what this one
// (the head) does, but for the declarations gone (indices into hd) that
// lines the hunks only added define. It holds when each change either
//   - lies inside the body of one of the functions hd found, below its def
//     line and within its last line of code, and the text taken out and
//     the text put in are each balanced Python (pyBalanced), every line of
//     code indented as deep as the body; or
//   - only adds lines, which hold whole statements (balanced, no line of
//     code less indented than their first) and whole declarations, inside
//     nothing but classes, whose names nothing else in the file defines.
//
// The text around the changes then reads the same on both sides.
func (r *pyRegions) keepsShape(hunks []Hunk, hd []Decl) (gone []int, ok bool) {
	for _, c := range changes(hunks) {
		if r.insideBody(hd, c) {
			continue
		}
		in, whole := addedDecls(hd, c.first, c.next)
		if len(c.took) > 0 || !whole || !pyBalanced(c.put, pyIndent(c.put)) {
			return nil, false
		}
		// An added declaration is new only if nothing else in the file
		// could define its name.
		for _, j := range in {
			for _, l := range r.definitionsOf(hd[j].Local) {
				if l < c.first || l >= c.next {
					return nil, false
				}
			}
		}
		gone = append(gone, in...)
	}
	return gone, true
}

// insideBody reports whether change c lies inside one function body of hd
// and keeps to it.
func (r *pyRegions) insideBody(hd []Decl, c change) bool {
	body := -1
	for j, d := range hd {
		if d.Body > 0 && d.Body <= c.first && c.next-1 <= d.End && (body < 0 || d.Body > hd[body].Body) {
			body = j
		}
	}
	if body < 0 {
		return false
	}
	indent := pyIndent([]string{string(r.line(hd[body].Body))})
	return len(indent) > 0 && pyBalanced(c.took, indent) && pyBalanced(c.put, indent)
}

// addedDecls returns the declarations of hd that start in head lines
// [first, next); whole reports whether they also end there and the only
// declarations around the lines are classes that hold them all.
func addedDecls(hd []Decl, first, next int) (in []int, whole bool) {
	for j, d := range hd {
		switch {
		case d.Start >= first && d.Start < next:
			if d.End >= next {
				return nil, false
			}
			in = append(in, j)
		case d.Start < first && d.End >= first:
			if d.Kind != "class" || d.End < next-1 {
				return nil, false
			}
		}
	}
	return in, true
}

// pyIndent returns the indentation of the first line of code in lines.
func pyIndent(lines []string) []byte {
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if t != "" && t[0] != '#' && t != "\r" {
			return []byte(l[:len(l)-len(t)])
		}
	}
	return nil
}

// line returns the text of 1-based line n, without its newline.
func (r *pyRegions) line(n int) []byte {
	j := sort.SearchInts(r.starts, n+1) - 1 // the last statement starting at or before n
	at, l := 0, 1
	if j >= 0 {
		at, l = r.offs[j], r.starts[j]
	}
	for ; l < n && at < len(r.src); l++ {
		k := bytes.IndexByte(r.src[at:], '\n')
		if k < 0 {
			at = len(r.src)
			break
		}
		at += k + 1
	}
	end := bytes.IndexByte(r.src[at:], '\n')
	if end < 0 {
		end = len(r.src) - at
	}
	return r.src[at : at+end]
}

// pyBalanced reports whether lines, as Python text inside a body indented
// by indent, close every bracket, string and continuation they open, close
// none they did not open, and start every line of code with indent.
func pyBalanced(lines []string, indent []byte) bool {
	text := []byte(strings.Join(lines, "\n"))
	depth, lineStart := 0, true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if lineStart {
			lineStart = false
			if depth == 0 {
				rest := bytes.TrimLeft(text[i:], " \t\f\r")
				if len(rest) > 0 && rest[0] != '\n' && rest[0] != '#' && !bytes.HasPrefix(text[i:], indent) {
					return false // code the body would not hold
				}
			}
		}
		switch c {
		case '\n':
			lineStart = true
		case '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i--
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth < 0 {
				return false
			}
		case '\\':
			return false // a continuation, or a backslash outside a string
		case '"', '\'':
			if i+2 < len(text) && text[i+1] == c && text[i+2] == c {
				j := i + 3
				for ; j < len(text); j++ {
					if text[j] == '\\' {
						j++
					} else if text[j] == c && j+2 < len(text) && text[j+1] == c && text[j+2] == c {
						break
					}
				}
				if j >= len(text) {
					return false
				}
				i = j + 2
				continue
			}
			j := i + 1
			for ; j < len(text) && text[j] != c; j++ {
				if text[j] == '\\' {
					j++
				} else if text[j] == '\n' {
					return false
				}
			}
			if j >= len(text) {
				return false
			}
			i = j
		}
	}
	return depth == 0
}

// pieceKey names a piece of a file parsed on its own, a top-level
// statement or, wrapped in a stand-in class, a statement of a large class's
// body: its first line and the line after its last.
type pieceKey struct {
	first, end int
	wrapped    bool
}

type pieceTree struct {
	tree *sitter.Tree
	text []byte
}

// parse parses a piece: from the other side's tree of the same piece when
// there is one, and keeps its tree when asked to.
func (r *pyRegions) parse(text []byte, key pieceKey) ([]Decl, error) {
	var old *sitter.Tree
	if r.head != nil {
		old = r.head.treeFor(key, text, r.blocks)
	}
	tree, ds, err := pyParse(text, old)
	if old != nil {
		old.Close()
		r.reused++
	}
	if tree != nil {
		if r.keep != nil && err == nil {
			r.keep[key] = pieceTree{tree: tree, text: text}
		} else {
			tree.Close()
		}
	}
	return ds, err
}

// closeTrees closes the trees kept.
func (r *pyRegions) closeTrees() {
	for _, p := range r.keep {
		p.tree.Close()
	}
	r.keep = nil
}

// treeFor returns a copy of the tree of the head piece that base piece key
// (text) was before bl's changes, edited to describe text; nil when no head
// piece spans exactly those lines with exactly the changes inside them.
func (r *pyRegions) treeFor(key pieceKey, text []byte, bl []block) *sitter.Tree {
	if len(r.keep) == 0 {
		return nil
	}
	starts, ok1 := headBounds(bl, key.first)
	ends, ok2 := headBounds(bl, key.end)
	if !ok1 || !ok2 {
		return nil
	}
	for si, h1 := range starts {
		for ei, h2 := range ends {
			hp, ok := r.keep[pieceKey{first: h1, end: h2, wrapped: key.wrapped}]
			if !ok {
				continue
			}
			w := 0
			if key.wrapped {
				w = 1
			}
			var rel []block
			lines := key.end - key.first // base lines, made head lines below
			for _, b := range bl {
				insertion := b.b1 == b.b2
				switch {
				case b.b2 < key.first || b.b1 > key.end:
					continue
				case insertion && b.b1 == key.first && si == 0, insertion && b.b1 == key.end && ei == 1:
					continue // lines inserted at an edge that the head gives the piece before or after
				case b.b1 == key.end && !insertion, b.b2 == key.first && !insertion:
					continue
				}
				rel = append(rel, block{
					h1: b.h1 - h1 + 1 + w, h2: b.h2 - h1 + 1 + w,
					b1: b.b1 - key.first + 1 + w, b2: b.b2 - key.first + 1 + w,
				})
				lines += (b.h2 - b.h1) - (b.b2 - b.b1)
			}
			if lines != h2-h1 {
				continue
			}
			t := hp.tree.Clone()
			if editToBase(t, hp.text, text, rel) {
				return t
			}
			t.Close()
		}
	}
	return nil
}

// headBounds maps base line l, where a piece starts (or the line after
// one ends), to the head: the line base line l moved to and, when lines
// were inserted right before it, the first of those (so a piece may begin
// or end at either side of them). ok is false when l is a deleted line
// other than the first of its change.
func headBounds(bl []block, l int) ([]int, bool) {
	shift := 0
	for _, b := range bl {
		switch {
		case b.b1 < l && l < b.b2:
			return nil, false
		case b.b1 == l && b.b2 == l:
			at := l + shift // the inserted lines start here
			return []int{at + (b.h2 - b.h1), at}, true
		case b.b2 <= l && b.b1 < l:
			shift += (b.h2 - b.h1) - (b.b2 - b.b1)
		}
	}
	return []int{l + shift}, true
}

// region returns the text of top-level statement i and its first and last
// lines.
func (r *pyRegions) region(i int) (text []byte, first, last int) {
	to, last := len(r.src), r.lines
	if i+1 < len(r.starts) {
		to, last = r.offs[i+1], r.starts[i+1]-1
	}
	return r.src[r.offs[i]:to], r.starts[i], last
}

// lineOf returns the 1-based line holding byte offset at.
func (r *pyRegions) lineOf(at int) int {
	j := sort.SearchInts(r.offs, at+1) - 1 // the last statement starting at or before at
	if j < 0 {
		return 1 + bytes.Count(r.src[:at], []byte{'\n'})
	}
	return r.starts[j] + bytes.Count(r.src[r.offs[j]:at], []byte{'\n'})
}

// decls parses the top-level statements holding the given lines and
// returns their declarations with the file's line numbers.
func (r *pyRegions) decls(lines []int) ([]Decl, error) {
	if r.unsplit {
		return nil, errRegion
	}
	seen := map[int]bool{}
	var idx []int
	for _, l := range lines {
		i := sort.SearchInts(r.starts, l+1) - 1 // last start <= l
		if i < 0 || seen[i] {
			continue
		}
		seen[i] = true
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := []Decl{}
	for _, i := range idx {
		if ds, ok := r.classDecls(i, lines); ok {
			out = append(out, ds...)
			continue
		}
		ds, ok := r.cache[i]
		if !ok {
			text, first, last := r.region(i)
			var err error
			ds, err = r.parse(text, pieceKey{first: first, end: last + 1})
			if err != nil {
				return nil, errRegion
			}
			for j := range ds {
				ds[j].Start += first - 1
				ds[j].End += first - 1
				if ds[j].Body > 0 {
					ds[j].Body += first - 1
				}
			}
			r.cache[i] = ds
		}
		out = append(out, ds...)
	}
	return out, nil
}

// definitionsOf returns the lines whose text could define the declaration
// local (Class.method, function): those of definitions(its last name) in a
// top-level statement that could hold it. A class holds only its own
// methods and nested classes, a function nothing (its nested functions are
// part of it), so a `def __init__` of every other class is not parsed to
// learn whether Foo.__init__ existed; any other statement (if, try, ...)
// may hold anything.
func (r *pyRegions) definitionsOf(local string) []int {
	lines := r.definitions(lastName(local))
	top, _, nested := strings.Cut(local, ".")
	out := lines[:0]
	for _, l := range lines {
		i := sort.SearchInts(r.starts, l+1) - 1 // the statement holding l
		if i >= 0 {
			switch kind, name := r.header(i); kind {
			case "class":
				if name != top {
					continue
				}
			case "def":
				if name != top || nested {
					continue
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// header reads what top-level statement i is: "class" or "def" and its
// name, past decorators on lines of their own; "" for anything else or
// anything it cannot read so simply.
func (r *pyRegions) header(i int) (kind, name string) {
	src := r.src[r.offs[i]:]
	for bytes.HasPrefix(src, []byte("@")) {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return "", ""
		}
		src = src[j+1:]
	}
	switch {
	case bytes.HasPrefix(src, []byte("class")):
		kind, src = "class", src[len("class"):]
	case bytes.HasPrefix(src, []byte("def")):
		kind, src = "def", src[len("def"):]
	case bytes.HasPrefix(src, []byte("async")):
		src = bytes.TrimLeft(src[len("async"):], " \t")
		if !bytes.HasPrefix(src, []byte("def")) {
			return "", ""
		}
		kind, src = "def", src[len("def"):]
	default:
		return "", ""
	}
	k := 0
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if k == 0 {
		return "", "" // classy = 1, define(x)
	}
	n := k
	for n < len(src) && isIdent(src[n]) {
		n++
	}
	if n == k {
		return "", ""
	}
	return kind, string(src[k:n])
}

// definitions returns the lines whose text could define name: `def name`
// or `class name`. A line in a string or a comment only costs a parse; a
// definition is never missed.
func (r *pyRegions) definitions(name string) []int {
	if r.src == nil || name == "" {
		return nil
	}
	var out []int
	for at := 0; ; {
		i := bytes.Index(r.src[at:], []byte(name))
		if i < 0 {
			return out
		}
		i += at
		at = i + len(name)
		if at < len(r.src) && isIdent(r.src[at]) {
			continue
		}
		j := i
		for j > 0 && (r.src[j-1] == ' ' || r.src[j-1] == '\t') {
			j--
		}
		if j == i {
			continue
		}
		before := r.src[:j]
		if !bytes.HasSuffix(before, []byte("def")) && !bytes.HasSuffix(before, []byte("class")) {
			continue
		}
		out = append(out, r.lineOf(i))
	}
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pyStatementStarts returns the 1-based lines where top-level statements
// begin, and their byte offsets: a line starting in column 0 outside any string, bracket or
// backslash continuation, other than a comment, a blank line, or a clause
// that continues a compound statement (else, elif, except, finally). A
// decorator and the definition under it are one statement. A line the
// scanner gets wrong only merges two statements or splits one so that the
// region does not parse; it never yields a wrong span.
func pyStatementStarts(src []byte) (lines, offs []int) {
	decorated := false
	pyLogicalLines(src, func(i, line int) {
		switch c := src[i]; c {
		case ' ', '\t', '\r', '\n', '#', '\f', '\\':
		default:
			if !decorated && !continuesCompound(src[i:]) {
				lines, offs = append(lines, line), append(offs, i)
			}
			decorated = c == '@'
		}
	})
	return lines, offs
}

// pyLogicalLines calls visit with the offset and 1-based number of every
// physical line that begins a logical line: outside any string, bracket or
// backslash continuation. The statement scanners below decide what such a
// line holds.
func pyLogicalLines(src []byte, visit func(i, line int)) {
	var (
		line  = 1
		depth int
		cont  bool
	)
	// lineStart is the visit at the first byte of a physical line: a
	// logical line begins there unless a bracket or a backslash carries
	// the one before over.
	lineStart := func(i int) {
		if i < len(src) && depth == 0 && !cont {
			visit(i, line)
		}
		cont = false
	}
	lineStart(0)
	for i := 0; i < len(src); {
		// Most bytes are none of the ones the scanner cares about.
		for i < len(src) && !pySpecial[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		switch c := src[i]; c {
		case '#':
			if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(src)
			}
		case '"', '\'':
			if bytes.HasPrefix(src[i:], []byte{c, c, c}) {
				i = pyTripleString(src, i+3, c, &line)
			} else {
				i = pyShortString(src, i+1, c, &line)
			}
		case '(', '[', '{':
			depth++
			i++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
			i++
		case '\\':
			if i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r') {
				cont = true
			}
			i++
		case '\n':
			line++
			i++
			lineStart(i)
		}
	}
}

// pySpecial marks the bytes pyLogicalLines stops at.
var pySpecial = func() (t [256]bool) {
	for _, c := range "#\"'()[]{}\\\n" {
		t[c] = true
	}
	return t
}()

// pyTripleString skips a triple-quoted string's body from i, counting its
// lines, and returns the offset after the closing quotes (or len(src)).
func pyTripleString(src []byte, i int, q byte, line *int) int {
	for i < len(src) {
		rest := src[i:]
		j := bytes.IndexByte(rest, q)
		if j < 0 {
			j = len(rest)
		}
		if k := bytes.IndexByte(rest[:j], '\\'); k >= 0 {
			*line += bytes.Count(rest[:k], []byte{'\n'})
			if k+1 < len(rest) && rest[k+1] == '\n' {
				*line++
			}
			i += k + 2
			continue
		}
		*line += bytes.Count(rest[:j], []byte{'\n'})
		i += j
		if i >= len(src) {
			return len(src)
		}
		if bytes.HasPrefix(src[i:], []byte{q, q, q}) {
			return i + 3
		}
		i++
	}
	return len(src)
}

// pyShortString skips a one-line string's body from i and returns the
// offset after its closing quote, or of the newline that ends it unclosed
// (the parse will tell), counting a backslash-newline's line.
func pyShortString(src []byte, i int, q byte, line *int) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				*line++
			}
			i += 2
			continue
		case q:
			return i + 1
		case '\n':
			return i
		}
		i++
	}
	return len(src)
}

// continuesCompound reports whether a column-0 line is a clause of the
// statement before it.
func continuesCompound(b []byte) bool {
	for _, kw := range []string{"else", "elif", "except", "finally"} {
		if bytes.HasPrefix(b, []byte(kw)) {
			if len(b) == len(kw) {
				return true
			}
			if !isIdent(b[len(kw)]) {
				return true
			}
		}
	}
	return false
}

// classMinLines is the size from which a top-level class is parsed by the
// statements of its body rather than whole.
const classMinLines = 60

// pyClass is a large top-level class read without a parse: its name, its
// last line of code, and where the statements of its body begin.
type pyClass struct {
	name string
	end  int
	subs []int // lines within the class's text, 1-based
	offs []int // byte offsets within the class's text
}

// class reads region i as a large class, once; nil when it is not one.
func (r *pyRegions) class(i int) *pyClass {
	if c, ok := r.classes[i]; ok {
		return c
	}
	c := r.readClass(i)
	r.classes[i] = c
	return c
}

func (r *pyRegions) readClass(i int) *pyClass {
	text, first, last := r.region(i)
	if last-first+1 < classMinLines {
		return nil
	}
	kind, name := r.header(i)
	if kind != "class" {
		return nil
	}
	indent, subs, offs := pyBodyStarts(text)
	if indent == "" || len(subs) == 0 {
		return nil
	}
	// The class ends at its last line of code: trailing blank and comment
	// lines are not part of it (as in Python's ast).
	end, rest := last, bytes.TrimSuffix(text, []byte{'\n'})
	for end > first {
		k := bytes.LastIndexByte(rest, '\n')
		if t := bytes.TrimSpace(rest[k+1:]); len(t) > 0 && t[0] != '#' {
			break
		}
		rest = rest[:max(k, 0)]
		end--
	}
	return &pyClass{name: name, end: end, subs: subs, offs: offs}
}

// classDecls handles a large top-level class: the class itself is read from
// its header and its extent, and only the statements of its body that hold
// one of lines are parsed, each wrapped in a stand-in class so that it
// parses at its own indentation. It reports false when region i is not such
// a class or a statement does not parse; the region is then parsed whole.
func (r *pyRegions) classDecls(i int, lines []int) ([]Decl, bool) {
	c := r.class(i)
	if c == nil {
		return nil, false
	}
	text, first, last := r.region(i)
	out := []Decl{{Local: c.name, Kind: "class", Start: first, End: c.end}}
	seen := map[int]bool{}
	for _, l := range lines {
		if l < first || l > last {
			continue
		}
		rel := l - first + 1 // line within text
		j := sort.SearchInts(c.subs, rel+1) - 1
		if j < 0 || seen[j] {
			continue
		}
		seen[j] = true
		ds, ok := r.sub[[2]int{i, j}]
		if !ok {
			b, end := len(text), last+1
			if j+1 < len(c.offs) {
				b, end = c.offs[j+1], first+c.subs[j+1]-1
			}
			const stand = "_premise_"
			wrapped := append([]byte("class "+stand+":\n"), text[c.offs[j]:b]...)
			got, err := r.parse(wrapped, pieceKey{first: first + c.subs[j] - 1, end: end, wrapped: true})
			if err != nil || len(got) == 0 || got[0].Local != stand {
				return nil, false
			}
			shift := first - 1 + c.subs[j] - 2
			for _, d := range got[1:] {
				d.Local = c.name + strings.TrimPrefix(d.Local, stand)
				d.Start += shift
				d.End += shift
				if d.Body > 0 {
					d.Body += shift
				}
				ds = append(ds, d)
			}
			r.sub[[2]int{i, j}] = ds
		}
		out = append(out, ds...)
	}
	return out, true
}

// pyBodyStarts finds the statements of a compound statement's body: the
// body's indentation (that of its first line of code after the header) and
// the 1-based lines and byte offsets, within text, where statements at
// that indentation begin. A decorator and the definition under it are one statement.
func pyBodyStarts(text []byte) (indent string, starts, offs []int) {
	var (
		have      bool
		decorated bool
	)
	pyLogicalLines(text, func(i, line int) {
		if line == 1 {
			return
		}
		w := i
		for w < len(text) && (text[w] == ' ' || text[w] == '\t') {
			w++
		}
		if w == len(text) || w == i {
			return
		}
		switch text[w] {
		case '\n', '\r', '#', '\f', '\\':
			return
		}
		ws := string(text[i:w])
		if !have {
			indent, have = ws, true
		}
		if ws == indent {
			if !decorated && !continuesCompound(text[w:]) {
				starts, offs = append(starts, line), append(offs, i)
			}
			decorated = text[w] == '@'
		}
	})
	return indent, starts, offs
}
