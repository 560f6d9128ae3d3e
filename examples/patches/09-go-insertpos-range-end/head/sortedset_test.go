package sortedset

import (
	"slices"
	"testing"
)

func TestInsertPos(t *testing.T) {
	xs := []int{10, 20, 30, 40}
	for _, tc := range []struct{ x, want int }{{5, 0}, {20, 1}, {25, 2}} {
		if got := InsertPos(xs, tc.x); got != tc.want {
			t.Errorf("InsertPos(%v, %d) = %d, want %d", xs, tc.x, got, tc.want)
		}
	}
}

func TestInsert(t *testing.T) {
	got := Insert([]int{1, 3}, 2)
	if want := []int{1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("Insert = %v, want %v", got, want)
	}
}
