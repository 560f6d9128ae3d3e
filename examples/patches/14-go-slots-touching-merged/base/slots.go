// Package calendar books meeting rooms in half-open minute slots [start, end).
package calendar

import (
	"fmt"
	"slices"
)

// MergeSlots merges overlapping busy slots into a sorted, disjoint list.
// Slots are half-open: [540, 600) and [600, 660) touch but do not overlap,
// and stay two slots so that each booking keeps its own boundaries.
func MergeSlots(slots [][2]int) ([][2]int, error) {
	out := make([][2]int, 0, len(slots))
	sorted := slices.Clone(slots)
	slices.SortFunc(sorted, func(a, b [2]int) int { return a[0] - b[0] })
	for _, s := range sorted {
		if s[1] < s[0] {
			return nil, fmt.Errorf("slot %v ends before it starts", s)
		}
		if n := len(out); n > 0 && s[0] < out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out, nil
}
