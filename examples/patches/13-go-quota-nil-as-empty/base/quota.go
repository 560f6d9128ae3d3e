// Package quota computes what a tenant may still use this month.
package quota

import "errors"

// ErrNotLoaded is returned when the usage records were never loaded. A
// tenant with no usage has an empty, non-nil slice of records.
var ErrNotLoaded = errors.New("quota: usage not loaded")

// ErrNegative is returned for a usage record below zero.
var ErrNegative = errors.New("quota: negative usage")

// Remaining returns limit minus the sum of used, never below zero. A nil
// used means the records failed to load, and granting the whole limit then
// would let a tenant past its quota, so it is an error.
func Remaining(used []int, limit int) (int, error) {
	if used == nil {
		return 0, ErrNotLoaded
	}
	total := 0
	for _, u := range used {
		if u < 0 {
			return 0, ErrNegative
		}
		total += u
	}
	return max(limit-total, 0), nil
}
