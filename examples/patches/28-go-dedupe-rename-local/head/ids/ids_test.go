package ids

import (
	"slices"
	"testing"
)

func TestUnique(t *testing.T) {
	got, err := Unique([]int{7, 3, 7, 1, 3})
	if want := []int{7, 3, 1}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Unique = %v, %v; want %v", got, err, want)
	}
}
