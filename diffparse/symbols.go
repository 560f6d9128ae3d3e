package diffparse

import "sort"

// changedSymbols maps a file's hunks onto its declarations (issue 2):
//   - a head-side declaration is changed when an added line lies in its
//     span, or when a pure deletion (a run of deleted lines with no added
//     line beside it) is anchored at head line c with Start <= c < End;
//   - a pure deletion inside a base declaration whose name the head file
//     still has changes that declaration, wherever its anchor falls: the
//     last lines of a function removed leave the anchor after its head
//     span (on the blank line before the next one, or in its class);
//   - only the innermost declaration counts (the method, not its class);
//   - change is "added" when the name is absent from the base file,
//     "modified" otherwise, and "deleted" for a base declaration that lost
//     lines and whose name is absent from the head file (its lines then
//     refer to the base file).
//
// head is nil when the file does not exist at head, base when it does not
// exist at the base. qualify turns a local name into a qualified one for the
// head side; qualifyOld does so for the base side.
func changedSymbols(hunks []Hunk, head, base []Decl, qualify, qualifyOld func(string) string) []Symbol {
	headNames := names(head)
	baseNames := names(base)
	changed := map[int][]int{} // index into head -> lines
	var order []int
	mark := func(m map[int][]int, order *[]int, i, line int) {
		if i < 0 {
			return
		}
		if _, ok := m[i]; !ok {
			*order = append(*order, i)
		}
		if ls := m[i]; len(ls) == 0 || ls[len(ls)-1] != line {
			m[i] = append(ls, line)
		}
	}
	headAt := map[string]int{} // local name -> its first head declaration
	for i, d := range head {
		if _, ok := headAt[d.Local]; !ok {
			headAt[d.Local] = i
		}
	}
	for _, h := range hunks {
		for _, a := range anchors(h) {
			if a.added {
				mark(changed, &order, innermost(head, a.line, false), a.line)
				continue
			}
			if j := innermost(base, a.old, false); a.old > 0 && j >= 0 && headNames[base[j].Local] {
				i := headAt[base[j].Local]
				mark(changed, &order, i, min(max(a.line, head[i].Start), head[i].End))
				continue
			}
			mark(changed, &order, innermost(head, a.line, true), a.line)
		}
	}
	out := []Symbol{}
	for _, i := range order {
		d := head[i]
		change := "modified"
		if base == nil || !baseNames[d.Local] {
			change = "added"
		}
		lines := changed[i]
		sort.Ints(lines)
		lines = dedup(lines)
		out = append(out, Symbol{Name: qualify(d.Local), Local: d.Local, Kind: d.Kind, Change: change, Start: d.Start, End: d.End, ChangedLines: lines})
	}
	// Deleted declarations: the innermost base declaration of each deleted
	// line, when its name is gone from the head file.
	gone := map[int][]int{}
	var goneOrder []int
	for _, h := range hunks {
		for _, l := range h.Lines {
			if l.Kind != '-' {
				continue
			}
			i := innermost(base, l.Old, false)
			if i >= 0 && (head == nil || !headNames[base[i].Local]) {
				mark(gone, &goneOrder, i, l.Old)
			}
		}
	}
	for _, i := range goneOrder {
		d := base[i]
		lines := gone[i]
		sort.Ints(lines)
		out = append(out, Symbol{Name: qualifyOld(d.Local), Local: d.Local, Kind: d.Kind, Change: "deleted", Start: d.Start, End: d.End, ChangedLines: dedup(lines)})
	}
	sort.SliceStable(out, func(a, b int) bool {
		if (out[a].Change == "deleted") != (out[b].Change == "deleted") {
			return out[b].Change == "deleted"
		}
		return out[a].Start < out[b].Start
	})
	return out
}

// anchor is a head-side line a change is attributed to: an added line, or
// the head line after which a pure deletion sits.
type anchor struct {
	line  int
	added bool
	// old is, for a pure deletion, the base line of its first deleted
	// line.
	old int
}

// anchors lists the hunks' added lines and their pure deletions' anchors.
func anchors(hunks ...Hunk) []anchor {
	var out []anchor
	for _, h := range hunks {
		out = append(out, hunkAnchors(h)...)
	}
	return out
}

func hunkAnchors(h Hunk) []anchor {
	var out []anchor
	last := h.NewStart - 1 // the head line before the next one
	if h.NewLines == 0 {
		last = h.NewStart
	}
	for i := 0; i < len(h.Lines); {
		if h.Lines[i].Kind == ' ' {
			last = h.Lines[i].New
			i++
			continue
		}
		// A block of changed lines: [i, j).
		j, plus := i, false
		for j < len(h.Lines) && h.Lines[j].Kind != ' ' {
			if h.Lines[j].Kind == '+' {
				plus = true
				out = append(out, anchor{line: h.Lines[j].New, added: true})
				last = h.Lines[j].New
			}
			j++
		}
		if !plus {
			out = append(out, anchor{line: last, old: h.Lines[i].Old})
		}
		i = j
	}
	return out
}

// innermost returns the index of the smallest declaration containing line,
// or -1. With deletion set, the line is a pure deletion's anchor and must
// satisfy Start <= line < End.
func innermost(decls []Decl, line int, deletion bool) int {
	best := -1
	for i, d := range decls {
		in := d.Start <= line && line <= d.End
		if deletion {
			in = d.Start <= line && line < d.End
		}
		if !in {
			continue
		}
		if best < 0 || d.Start > decls[best].Start || d.Start == decls[best].Start && d.End < decls[best].End {
			best = i
		}
	}
	return best
}

func names(decls []Decl) map[string]bool {
	m := make(map[string]bool, len(decls))
	for _, d := range decls {
		m[d.Local] = true
	}
	return m
}

func dedup(s []int) []int {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}
