package pricing

import (
	"slices"
	"testing"
)

func TestScale(t *testing.T) {
	got, err := Scale([]int{1000, 250, 99}, 110)
	if want := []int{1100, 275, 108}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Scale = %v, %v; want %v", got, err, want)
	}
	if _, err := Scale([]int{1}, -5); err == nil {
		t.Errorf("Scale accepted a negative percentage")
	}
}
