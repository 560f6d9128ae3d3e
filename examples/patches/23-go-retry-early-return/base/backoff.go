// Package retry computes how long to wait between attempts.
package retry

import "fmt"

// MaxDelayMs caps every wait, in milliseconds.
const MaxDelayMs = 30000

// DelayMs returns the wait before the given attempt (1-based), in
// milliseconds: nothing before the first attempt, then base doubled for each
// attempt after the second, capped at MaxDelayMs.
func DelayMs(attempt, baseMs int) (int, error) {
	var delay int
	var err error
	if attempt < 1 {
		err = fmt.Errorf("attempt %d: attempts start at 1", attempt)
	} else if baseMs <= 0 {
		err = fmt.Errorf("base delay %dms: must be positive", baseMs)
	} else if attempt == 1 {
		delay = 0
	} else {
		delay = baseMs
		for i := 2; i < attempt && delay < MaxDelayMs; i++ {
			delay *= 2
		}
		if delay > MaxDelayMs {
			delay = MaxDelayMs
		}
	}
	return delay, err
}
