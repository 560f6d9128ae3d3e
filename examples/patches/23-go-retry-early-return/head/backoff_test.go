package retry

import "testing"

func TestDelayMs(t *testing.T) {
	for _, tc := range []struct{ attempt, want int }{{1, 0}, {2, 100}, {3, 200}, {4, 400}, {20, MaxDelayMs}} {
		got, err := DelayMs(tc.attempt, 100)
		if err != nil || got != tc.want {
			t.Errorf("DelayMs(%d, 100) = %d, %v; want %d", tc.attempt, got, err, tc.want)
		}
	}
}
