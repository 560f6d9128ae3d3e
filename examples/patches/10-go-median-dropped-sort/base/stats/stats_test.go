package stats

import "testing"

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		samples []int
		want    float64
	}{
		{[]int{1, 2, 3}, 2},
		{[]int{10, 20, 30, 40}, 25},
	} {
		got, err := Median(tc.samples)
		if err != nil || got != tc.want {
			t.Errorf("Median(%v) = %v, %v; want %v", tc.samples, got, err, tc.want)
		}
	}
	if _, err := Median(nil); err != ErrEmpty {
		t.Errorf("Median(nil) error = %v, want ErrEmpty", err)
	}
}
