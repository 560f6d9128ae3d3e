// Package config reads the worker's settings.
package config

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxTimeout is the longest job timeout a worker accepts, in seconds.
const MaxTimeout = 3600

// ParseTimeout parses a job timeout given in whole seconds ("30"). A value
// that is not a number is an error: a timeout of 0 would let a job hang.
func ParseTimeout(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("timeout %q: %w", s, err)
	}
	if n < 1 || n > MaxTimeout {
		return 0, fmt.Errorf("timeout %d: want 1 to %d seconds", n, MaxTimeout)
	}
	return n, nil
}
