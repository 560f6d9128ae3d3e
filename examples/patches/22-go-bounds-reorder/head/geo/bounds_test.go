package geo

import "testing"

func TestBounds(t *testing.T) {
	got, err := Bounds([][2]int{{1, 5}, {-2, 3}, {4, 0}})
	if want := [4]int{-2, 0, 4, 5}; err != nil || got != want {
		t.Errorf("Bounds = %v, %v; want %v", got, err, want)
	}
}
