// Package sortedset keeps ascending slices of distinct ints.
package sortedset

// InsertPos returns the index at which x belongs in the ascending slice xs:
// the index of x if xs holds it, else the index of the first element greater
// than x, which is len(xs) when x is greater than every element.
func InsertPos(xs []int, x int) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if xs[mid] < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Insert returns xs with x added in order; xs is returned unchanged when it
// already holds x.
func Insert(xs []int, x int) []int {
	i := InsertPos(xs, x)
	if i < len(xs) && xs[i] == x {
		return xs
	}
	xs = append(xs, 0)
	copy(xs[i+1:], xs[i:])
	xs[i] = x
	return xs
}
