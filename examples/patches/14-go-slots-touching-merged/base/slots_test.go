package calendar

import (
	"slices"
	"testing"
)

func TestMergeSlots(t *testing.T) {
	got, err := MergeSlots([][2]int{{600, 660}, {540, 620}, {900, 960}})
	want := [][2]int{{540, 660}, {900, 960}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("MergeSlots = %v, %v; want %v", got, err, want)
	}
	if _, err := MergeSlots([][2]int{{10, 5}}); err == nil {
		t.Errorf("MergeSlots accepted a slot that ends before it starts")
	}
}
