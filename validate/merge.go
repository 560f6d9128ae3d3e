package validate

import (
	"fmt"
	"strconv"
	"strings"
)

// MergeStats counts what a Merge did, for the run summary.
type MergeStats struct {
	Kept    int `json:"kept"`    // existing rows proposed again; id, status and note unchanged
	Added   int `json:"added"`   // new rows, status proposed
	Stale   int `json:"stale"`   // existing rows the diff no longer supports, marked stale
	Revived int `json:"revived"` // stale rows the diff supports again
}

// Merge folds freshly filtered rows into an existing register (nil for
// none) and returns the new register; existing is not modified.
//
// A row with the same symbol and precondition (Key) as an existing row keeps
// that row's id, status and note: a human decision is never lost (DESIGN.md,
// "Principles"). A new row gets the next free A-id and status proposed,
// whatever its proposer wrote. An existing row that the diff no longer
// supports is marked Stale, never deleted. "Supports" is asked of ix when
// given (the row's symbol still changed and its evidence still quoted),
// because a model that does not repeat a row this run has not refuted it;
// with ix nil, only rows proposed again count as supported.
func Merge(existing *Register, kept []Item, prov Provenance, ix *Index) (*Register, MergeStats) {
	var st MergeStats
	out := &Register{Version: 1}
	if existing != nil {
		out.Version = existing.Version
		out.PatchRef = existing.PatchRef
		if out.Version == 0 {
			out.Version = 1
		}
	}
	p := prov
	out.Provenance = &p

	fresh := map[string]Item{}
	var order []string
	for _, it := range kept {
		k := Key(it.Symbol, it.Precondition)
		if _, dup := fresh[k]; dup {
			continue
		}
		fresh[k] = it
		order = append(order, k)
	}

	next := 1
	used := map[string]bool{}
	if existing != nil {
		for _, it := range existing.Items {
			if n, ok := aNumber(it.ID); ok && n >= next {
				next = n + 1
			}
		}
		for _, old := range existing.Items {
			it := old
			if IsChange(it.ID) {
				// Change items are the evidence stage's (MergeChanges).
				out.Items = append(out.Items, it)
				continue
			}
			k := Key(it.Symbol, it.Precondition)
			if nw, ok := fresh[k]; ok && !used[k] {
				used[k] = true
				it.Evidence, it.File, it.Line = nw.Evidence, nw.File, nw.Line
				if it.Source == "" {
					it.Source = nw.Source
				}
				if it.Stale {
					st.Revived++
				} else {
					st.Kept++
				}
				it.Stale = false
			} else if ix != nil && ix.Supports(it) {
				if name, err := ix.Resolve(it.Symbol); err == nil {
					if f, l, ok := ix.Locate(name, it.Evidence); ok {
						it.File, it.Line = f, l
					}
				}
				if it.Stale {
					st.Revived++
				} else {
					st.Kept++
				}
				it.Stale = false
			} else if it.Source != SourceHand {
				// A hand-written assumption cites no diff, so no diff
				// can stop supporting it.
				if !it.Stale {
					st.Stale++
				}
				it.Stale = true
			}
			out.Items = append(out.Items, it)
		}
	}
	for _, k := range order {
		if used[k] {
			continue
		}
		it := fresh[k]
		it.ID = formatA(next)
		next++
		it.Status = StatusProposed
		it.Note = ""
		it.Stale = false
		out.Items = append(out.Items, it)
		st.Added++
	}
	if out.Items == nil {
		out.Items = []Item{}
	}
	return out, st
}

// aNumber parses an assumption id "A012" into 12.
func aNumber(id string) (int, bool) {
	if len(id) < 2 || id[0] != 'A' || strings.TrimLeft(id[1:], "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(id[1:])
	return n, err == nil
}

// formatA formats an assumption id: A001 ... A999, then A1000.
func formatA(n int) string { return fmt.Sprintf("A%03d", n) }
