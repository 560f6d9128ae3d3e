package evidence

import (
	"regexp"
	"slices"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
)

// FuzzPatternSamples: any text, read as a pattern, gives samples the
// pattern matches, and words that tell it from another pattern: one
// matches and the other does not, or both do at other places or with
// other captures; nothing panics.
func FuzzPatternSamples(f *testing.F) {
	for _, s := range []string{`^[dol]{1}['‘]{1}[a-z]+$`, `(a|b)*c{2,3}`, `[^>]+`, `a(?=b)`, `\d+(\.\d+)?`, `x{1000}`, ``} {
		f.Add(s, `^[a-z]+$`)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		re, err := regexp.Compile(a)
		for _, s := range lang.PatternSamples(a) {
			if err == nil && !re.MatchString(s) {
				t.Fatalf("patternSamples(%q) gave %q, which it does not match", a, s)
			}
		}
		rb, errb := regexp.Compile(b)
		for _, s := range lang.Distinguishing(a, b) {
			if err != nil || errb != nil {
				continue
			}
			x, y := re.FindStringSubmatchIndex(s), rb.FindStringSubmatchIndex(s)
			if len(x) != len(y) && x != nil && y != nil {
				x, y = x[:2], y[:2]
			}
			if slices.Equal(x, y) {
				t.Fatalf("distinguishing(%q, %q) gave %q, which both match alike, or neither", a, b, s)
			}
		}
	})
}
