// Package ids handles the record ids a batch job works on.
package ids

import "fmt"

// Unique returns ids without repeats, in first-seen order. An id below 1 is
// an error: ids start at 1, and 0 is what a missing id decodes to.
func Unique(ids []int) ([]int, error) {
	seen := make(map[int]bool, len(ids))
	unique := make([]int, 0, len(ids))
	for index, id := range ids {
		if id < 1 {
			return nil, fmt.Errorf("id %d at index %d: ids start at 1", id, index)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		unique = append(unique, id)
	}
	return unique, nil
}
