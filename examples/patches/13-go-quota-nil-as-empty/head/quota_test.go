package quota

import "testing"

func TestRemaining(t *testing.T) {
	for _, tc := range []struct {
		used  []int
		limit int
		want  int
	}{
		{[]int{10, 20}, 100, 70},
		{[]int{}, 100, 100},
		{[]int{80, 80}, 100, 0},
	} {
		got, err := Remaining(tc.used, tc.limit)
		if err != nil || got != tc.want {
			t.Errorf("Remaining(%v, %d) = %d, %v; want %d", tc.used, tc.limit, got, err, tc.want)
		}
	}
}
