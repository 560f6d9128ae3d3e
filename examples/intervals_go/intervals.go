// Package intervals is the Go twin of premise's intervals example (seed 004,
// Step 3): a merger of half-open [start, end) ranges, the reviewed version.
// agentpatch holds the agent's patch of the same function.
package intervals

import (
	"fmt"
	"sort"
)

// RangeError is why MergeRanges rejects its input. Code is machine-readable
// (seed 000 matches a raise by class and code).
type RangeError struct {
	Code string
	Msg  string
}

func (e *RangeError) Error() string { return e.Msg }

// MergeRanges merges overlapping [start, end) pairs into a sorted, disjoint
// cover. Touching pairs ([0, 2] and [2, 5]) stay apart: they share no point.
// A nil slice is rejected (seed 004's P008: None is not coerced to empty);
// an empty one gives an empty cover.
func MergeRanges(ranges [][2]int) ([][2]int, error) {
	if ranges == nil {
		return nil, &RangeError{Code: "nil", Msg: "ranges is required"}
	}
	ordered := append([][2]int(nil), ranges...)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i][0] < ordered[j][0] })
	out := [][2]int{}
	for _, r := range ordered {
		if r[1] < r[0] {
			return nil, &RangeError{Code: "inverted", Msg: fmt.Sprintf("end %d < start %d", r[1], r[0])}
		}
		if len(out) == 0 || r[0] >= out[len(out)-1][1] {
			out = append(out, r)
		} else if r[1] > out[len(out)-1][1] {
			out[len(out)-1][1] = r[1]
		}
	}
	return out, nil
}
