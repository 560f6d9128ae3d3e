package textutil

import (
	"maps"
	"testing"
)

func TestWordFreq(t *testing.T) {
	got := WordFreq("The cat, the hat. THE end!", 1)
	want := map[string]int{"the": 3, "cat": 1, "hat": 1, "end": 1}
	if !maps.Equal(got, want) {
		t.Errorf("WordFreq = %v, want %v", got, want)
	}
}
