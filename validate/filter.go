package validate

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/premise-dev/premise/diffparse"
)

// Candidate is one row a proposer drafted, before the filter has looked at
// it. Nothing in it is trusted: a model may name any symbol and quote any
// text (seed 004, Step 2: "a proposer, not an authority").
type Candidate struct {
	Symbol       string `json:"symbol"`
	Precondition string `json:"precondition"`
	Evidence     string `json:"evidence"`
	// Source names who drafted the row: "model:NAME" or "static:RULE".
	Source string `json:"source,omitempty"`
}

// Reasons a candidate is dropped (issue 3). Every dropped row carries one.
const (
	ReasonUnknownSymbol     = "unknown_symbol"
	ReasonEvidenceNotInDiff = "evidence_not_in_diff"
	ReasonEmptyPrecondition = "empty_precondition"
	ReasonDuplicate         = "duplicate"
	ReasonMalformed         = "malformed"
)

// Limits on a candidate's text. A precondition longer than a paragraph is an
// essay, not a precondition a reviewer can accept or reject; evidence shorter
// than a few characters ("(", "x") would match any diff and so proves nothing.
const (
	MaxPreconditionLen = 300
	MinEvidenceLen     = 4
)

// Dropped is a candidate the filter refused, with the check that refused it.
type Dropped struct {
	Candidate
	Reason string `json:"reason"` // one of the Reason constants
	Detail string `json:"detail"` // a sentence a reviewer (or a model, in the repair round) can act on
}

// FilterResult is what survives the filter and what does not, each in the
// order the candidates came.
type FilterResult struct {
	// Kept rows have their symbol normalised to the qualified name and the
	// file and head-side line of their evidence filled in. ID and Status are
	// left empty: Merge assigns them, whatever a proposer said.
	Kept    []Item    `json:"kept"`
	Dropped []Dropped `json:"dropped"`
}

// Index answers the filter's questions about one diff in constant time per
// symbol: which changed symbol a name means, and where a quotation sits in
// that symbol's file's hunks. Build it once per diff with NewIndex.
type Index struct {
	bySymbol map[string]*indexedSymbol   // qualified name -> symbol
	byName   map[string][]*indexedSymbol // every dotted suffix of a qualified name, and the local name
	files    []*indexedFile
	names    []string // qualified names, sorted, for messages
}

type indexedSymbol struct {
	sym  diffparse.Symbol
	file *indexedFile
}

type indexedFile struct {
	path string
	// text is every hunk line of the file, whitespace folded, joined by a
	// single space; hunks are separated by "\x00" so no quotation spans two
	// hunks. The head side (context and added lines) and the base side
	// (context and deleted lines) are separate streams, so a quotation can
	// not stitch a deleted line to the added line that replaced it.
	sides [2]stream
	lines map[string][]int // a whole folded line -> its head-side lines, for the common case
}

type stream struct {
	text   string
	starts []int // byte offset in text where each line starts
	lineNo []int // head-side line number of each line
}

// NewIndex indexes the changed symbols and hunks of res.
func NewIndex(res *diffparse.Result) *Index {
	ix := &Index{
		bySymbol: map[string]*indexedSymbol{},
		byName:   map[string][]*indexedSymbol{},
	}
	if res == nil {
		return ix
	}
	for i := range res.Files {
		f := &res.Files[i]
		xf := indexFile(f)
		ix.files = append(ix.files, xf)
		for _, s := range f.Symbols {
			if _, dup := ix.bySymbol[s.Name]; dup || s.Name == "" {
				continue
			}
			xs := &indexedSymbol{sym: s, file: xf}
			ix.bySymbol[s.Name] = xs
			ix.names = append(ix.names, s.Name)
			seen := map[string]bool{}
			for _, n := range append(suffixes(s.Name), s.Local) {
				if n == "" || n == s.Name || seen[n] {
					continue
				}
				seen[n] = true
				ix.byName[n] = append(ix.byName[n], xs)
			}
		}
	}
	sort.Strings(ix.names)
	return ix
}

// suffixes returns the names a model may reasonably use for a qualified
// name: each tail that starts after a '.' or '/', so "pkg.intervals.merge_ranges"
// is also "intervals.merge_ranges" and "merge_ranges", and
// "example.com/m/pkg.T.M" is also "pkg.T.M", "T.M" and "M".
func suffixes(name string) []string {
	var out []string
	for i := 0; i < len(name); i++ {
		if name[i] == '.' || name[i] == '/' {
			out = append(out, name[i+1:])
		}
	}
	return out
}

func indexFile(f *diffparse.File) *indexedFile {
	path := f.Path
	if path == "" {
		path = f.OldPath
	}
	xf := &indexedFile{path: path, lines: map[string][]int{}}
	var head, base strings.Builder
	for hi, h := range f.Hunks {
		if hi > 0 {
			head.WriteString("\x00")
			base.WriteString("\x00")
		}
		next := h.NewStart // head-side line a deleted line sits before
		for _, l := range h.Lines {
			folded := Fold(l.Text)
			at := l.New
			if l.Kind == '-' {
				at = next
			} else {
				next = l.New + 1
			}
			if at <= 0 {
				at = 1
			}
			if folded != "" {
				xf.lines[folded] = append(xf.lines[folded], at)
			}
			if l.Kind != '-' {
				xf.sides[0].add(&head, folded, at)
			}
			if l.Kind != '+' {
				xf.sides[1].add(&base, folded, at)
			}
		}
	}
	xf.sides[0].text = head.String()
	xf.sides[1].text = base.String()
	return xf
}

func (s *stream) add(b *strings.Builder, folded string, line int) {
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	s.starts = append(s.starts, b.Len())
	s.lineNo = append(s.lineNo, line)
	b.WriteString(folded)
}

// lineAt returns the head-side line of the stream's byte offset off.
func (s *stream) lineAt(off int) int {
	i := sort.SearchInts(s.starts, off+1) - 1
	if i < 0 {
		i = 0
	}
	return s.lineNo[i]
}

// find returns the head-side lines where the folded quotation q occurs.
func (xf *indexedFile) find(q string) []int {
	if ls, ok := xf.lines[q]; ok {
		return ls
	}
	var out []int
	for i := range xf.sides {
		s := &xf.sides[i]
		for off := 0; off < len(s.text); {
			j := strings.Index(s.text[off:], q)
			if j < 0 {
				break
			}
			out = append(out, s.lineAt(off+j))
			off += j + 1
		}
	}
	return out
}

// Fold collapses every run of white space in s to one space and trims both
// ends, so a quotation survives re-indentation and re-wrapping but not a
// changed character.
func Fold(s string) string {
	if folded(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// folded reports whether s is already folded, so the common case costs no
// allocation.
func folded(s string) bool {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || (c == ' ' && prev == ' ') {
			return false
		}
		prev = c
	}
	return prev != ' ' || len(s) == 0
}

// Key is the identity of a register row: its symbol and its precondition,
// folded and case-insensitive. Two rows with the same key are the same
// assumption, whoever proposed them and whatever evidence they quote.
func Key(symbol, precondition string) string {
	return symbol + "\x00" + strings.ToLower(Fold(precondition))
}

// Resolve returns the qualified name of the changed symbol that name means,
// or a reason it means none.
func (ix *Index) Resolve(name string) (string, error) {
	name = strings.TrimSpace(name)
	if s, ok := ix.bySymbol[name]; ok {
		return s.sym.Name, nil
	}
	switch c := ix.byName[name]; len(c) {
	case 1:
		return c[0].sym.Name, nil
	case 0:
		return "", fmt.Errorf("%q is not a changed symbol of this diff; the changed symbols are %s", name, ix.symbolList())
	default:
		var names []string
		for _, s := range c {
			names = append(names, s.sym.Name)
		}
		sort.Strings(names)
		return "", fmt.Errorf("%q is ambiguous: it may mean %s; use the qualified name", name, strings.Join(names, ", "))
	}
}

// Symbols returns the qualified names of the diff's changed symbols, sorted.
func (ix *Index) Symbols() []string { return ix.names }

func (ix *Index) symbolList() string {
	const max = 20
	if len(ix.names) == 0 {
		return "none"
	}
	if len(ix.names) > max {
		return strings.Join(ix.names[:max], ", ") + fmt.Sprintf(" and %d more", len(ix.names)-max)
	}
	return strings.Join(ix.names, ", ")
}

// Locate returns the file and head-side line where evidence, quoted from the
// hunks of the file that holds symbol (a qualified name), sits. ok is false
// when the quotation is not in those hunks. Among several occurrences the
// first inside the symbol's own span wins.
func (ix *Index) Locate(symbol, evidence string) (file string, line int, ok bool) {
	s, found := ix.bySymbol[symbol]
	if !found {
		return "", 0, false
	}
	q := Fold(evidence)
	if q == "" {
		return "", 0, false
	}
	lines := s.file.find(q)
	if len(lines) == 0 {
		return "", 0, false
	}
	for _, l := range lines {
		if l >= s.sym.Start && l <= s.sym.End {
			return s.file.path, l, true
		}
	}
	return s.file.path, lines[0], true
}

// Supports reports whether the current diff still supports a register row:
// its symbol is a changed symbol and its evidence is in that file's hunks.
func (ix *Index) Supports(it Item) bool {
	name, err := ix.Resolve(it.Symbol)
	if err != nil {
		return false
	}
	_, _, ok := ix.Locate(name, it.Evidence)
	return ok
}

// check is one of the filter's checks, a value like a static rule, so every
// dropped row names the check that dropped it. Run returns a non-empty
// detail when the candidate fails; it may normalise c.Symbol.
type check struct {
	Name string // the Reason a failing candidate gets
	Doc  string
	Run  func(ix *Index, c *row) (detail string)
}

// row is a candidate on its way through the checks.
type row struct {
	Candidate
	file string
	line int
}

// checks run in order; the first that fails names the reason.
var checks = []check{
	{
		Name: ReasonMalformed,
		Doc:  "a row names a symbol, quotes evidence long enough to locate, and keeps its precondition to one short statement",
		Run: func(ix *Index, c *row) string {
			switch {
			case strings.TrimSpace(c.Symbol) == "":
				return "the row names no symbol"
			case Fold(c.Evidence) == "":
				return "the row quotes no evidence from the diff"
			case len([]rune(Fold(c.Evidence))) < MinEvidenceLen:
				return fmt.Sprintf("the evidence %q is too short to locate in the diff; quote a whole line", c.Evidence)
			case len([]rune(Fold(c.Precondition))) > MaxPreconditionLen:
				return fmt.Sprintf("the precondition is longer than %d characters; state one precondition", MaxPreconditionLen)
			}
			return ""
		},
	},
	{
		Name: ReasonEmptyPrecondition,
		Doc:  "a row states a precondition",
		Run: func(ix *Index, c *row) string {
			if Fold(c.Precondition) == "" {
				return "the row states no precondition"
			}
			return ""
		},
	},
	{
		Name: ReasonUnknownSymbol,
		Doc:  "a row's symbol is a changed symbol of this diff (qualified, or an unambiguous local name)",
		Run: func(ix *Index, c *row) string {
			name, err := ix.Resolve(c.Symbol)
			if err != nil {
				return err.Error()
			}
			c.Symbol = name
			return ""
		},
	},
	{
		Name: ReasonEvidenceNotInDiff,
		Doc:  "a row's evidence appears verbatim (white space folded) in the hunks of its symbol's file",
		Run: func(ix *Index, c *row) string {
			var ok bool
			if c.file, c.line, ok = ix.Locate(c.Symbol, c.Evidence); !ok {
				return fmt.Sprintf("the evidence %q is not in the diff of %s; quote a line of the diff exactly", Fold(c.Evidence), ix.bySymbol[c.Symbol].file.path)
			}
			return ""
		},
	},
}

// Filter keeps the candidates that cite a changed symbol of the diff and
// quote its hunks, and reports every other one with its reason (seed 004,
// Step 2: "Discard any row that cannot cite both").
func Filter(cands []Candidate, res *diffparse.Result) FilterResult {
	return NewIndex(res).Filter(cands)
}

// Filter is the package-level Filter over an index already built.
func (ix *Index) Filter(cands []Candidate) FilterResult {
	out := FilterResult{Kept: []Item{}, Dropped: []Dropped{}}
	seen := map[string]int{} // key -> index in out.Kept
next:
	for _, orig := range cands {
		c := row{Candidate: orig}
		for _, ch := range checks {
			if d := ch.Run(ix, &c); d != "" {
				out.Dropped = append(out.Dropped, Dropped{Candidate: orig, Reason: ch.Name, Detail: d})
				continue next
			}
		}
		k := Key(c.Symbol, c.Precondition)
		if i, dup := seen[k]; dup {
			out.Dropped = append(out.Dropped, Dropped{Candidate: orig, Reason: ReasonDuplicate,
				Detail: fmt.Sprintf("the same precondition of %s is already proposed (%s)", c.Symbol, out.Kept[i].Source)})
			continue
		}
		seen[k] = len(out.Kept)
		out.Kept = append(out.Kept, Item{
			Symbol:       c.Symbol,
			Precondition: Fold(c.Precondition),
			Evidence:     strings.TrimSpace(c.Evidence),
			Source:       c.Source,
			File:         c.file,
			Line:         c.line,
		})
	}
	return out
}
