// Package pricing adjusts price lists held in integer cents.
package pricing

import "fmt"

// Scale returns every price multiplied by pct percent, rounded down, in the
// order given. An empty list gives an empty, non-nil list.
func Scale(prices []int, pct int) ([]int, error) {
	if pct < 0 {
		return nil, fmt.Errorf("scale by %d%%: percentage is negative", pct)
	}
	// One allocation instead of one per doubling of the slice.
	out := make([]int, len(prices))
	for i, p := range prices {
		if p < 0 {
			return nil, fmt.Errorf("price %d is negative", p)
		}
		out[i] = p * pct / 100
	}
	return out, nil
}
