// Package stats summarises request latencies in milliseconds.
package stats

import (
	"errors"
	"slices"
)

// ErrEmpty is returned for a summary of no samples.
var ErrEmpty = errors.New("stats: no samples")

// Median returns the middle sample, or the mean of the two middle samples
// when there is an even number of them. The caller's slice is not modified.
func Median(samples []int) (float64, error) {
	if len(samples) == 0 {
		return 0, ErrEmpty
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		return float64(sorted[mid]), nil
	}
	return float64(sorted[mid-1]+sorted[mid]) / 2, nil
}

// Mean returns the arithmetic mean of the samples.
func Mean(samples []int) (float64, error) {
	if len(samples) == 0 {
		return 0, ErrEmpty
	}
	sum := 0
	for _, s := range samples {
		sum += s
	}
	return float64(sum) / float64(len(samples)), nil
}
