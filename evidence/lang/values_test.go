package lang

import (
	"regexp"
	"testing"
)

// A text parameter is handed paths as both systems write them: a check
// that one platform's rules apply on another (an absolute Windows path
// judged on Linux, pathvalidate's validate_abspath) is reached only by
// text with a drive or a share, which neither the function's literals
// nor the other pooled shapes hold.
func TestStringPoolHoldsPathsOfBothSystems(t *testing.T) {
	shapes := map[string]*regexp.Regexp{
		"a POSIX absolute path":  regexp.MustCompile(`^/[^/]+/`),
		"a POSIX relative path":  regexp.MustCompile(`^\.\./`),
		"a Windows drive path":   regexp.MustCompile(`^[A-Za-z]:\\`),
		"a Windows share":        regexp.MustCompile(`^\\\\[^\\]+\\`),
		"a Windows relative one": regexp.MustCompile(`^[a-z]+\\[a-z]+$`),
	}
	pool := Pool(Type{Kind: KindStr}, nil)
	for what, re := range shapes {
		found := false
		for _, v := range pool {
			if s, ok := v.(string); ok && re.MatchString(s) {
				found = true
			}
		}
		if !found {
			t.Errorf("no text in the string pool is %s (%s)", what, re)
		}
	}
}
