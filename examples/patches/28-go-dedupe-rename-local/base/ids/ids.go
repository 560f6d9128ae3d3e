// Package ids handles the record ids a batch job works on.
package ids

import "fmt"

// Unique returns ids without repeats, in first-seen order. An id below 1 is
// an error: ids start at 1, and 0 is what a missing id decodes to.
func Unique(ids []int) ([]int, error) {
	s := make(map[int]bool, len(ids))
	r := make([]int, 0, len(ids))
	for i, x := range ids {
		if x < 1 {
			return nil, fmt.Errorf("id %d at index %d: ids start at 1", x, i)
		}
		if s[x] {
			continue
		}
		s[x] = true
		r = append(r, x)
	}
	return r, nil
}
