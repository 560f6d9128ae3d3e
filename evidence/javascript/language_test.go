package javascript

import "testing"

// TestTestFiles: the paths read for test inputs, and those that are code.
func TestTestFiles(t *testing.T) {
	for path, want := range map[string]bool{
		"test/balanced.js":        true,
		"tests/parse.ts":          true,
		"src/__tests__/a.tsx":     true,
		"src/ranges.test.js":      true,
		"src/ranges.spec.mts":     true,
		"lib/ranges-test.js":      true,
		"lib/ranges_test.cjs":     true,
		"test-parse.js":           true,
		"tests.js":                true,
		"test.js":                 true,
		"packages/ms/spec.ts":     true,
		"src/ranges.js":           false,
		"src/contest.js":          false,
		"src/attestation.js":      false,
		"lib/testing-library.txt": false,
		"src/latest.js":           false,
	} {
		if got := jsTestFileRe.MatchString(path); got != want {
			t.Errorf("%s: test file %v, want %v", path, got, want)
		}
	}
}
