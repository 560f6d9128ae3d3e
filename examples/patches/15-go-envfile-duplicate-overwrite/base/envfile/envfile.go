// Package envfile reads KEY=value files that configure a deployment.
package envfile

import (
	"fmt"
	"strings"
)

// Parse reads KEY=value lines into a map. Blank lines and lines starting with
// # are skipped. A key set twice is an error: in a file merged by hand the
// second value is usually a conflict, and which one wins must not be a guess.
func Parse(lines []string) (map[string]string, error) {
	env := make(map[string]string, len(lines))
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("line %d: want KEY=value, got %q", i+1, line)
		}
		if _, dup := env[key]; dup {
			return nil, fmt.Errorf("line %d: %s is set twice", i+1, key)
		}
		env[key] = strings.TrimSpace(value)
	}
	return env, nil
}
