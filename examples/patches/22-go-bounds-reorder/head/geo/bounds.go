// Package geo works with points on an integer grid.
package geo

import "errors"

// ErrNoPoints is returned for the bounds of no points.
var ErrNoPoints = errors.New("geo: no points")

// Bounds returns the smallest box holding every point, as
// [minX, minY, maxX, maxY].
func Bounds(points [][2]int) ([4]int, error) {
	if len(points) == 0 {
		return [4]int{}, ErrNoPoints
	}
	maxX, maxY := points[0][0], points[0][1]
	minX, minY := maxX, maxY
	for _, p := range points[1:] {
		minX = min(minX, p[0])
		minY = min(minY, p[1])
		maxX = max(maxX, p[0])
		maxY = max(maxY, p[1])
	}
	return [4]int{minX, minY, maxX, maxY}, nil
}
