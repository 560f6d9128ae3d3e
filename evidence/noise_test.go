package evidence_test

import (
	"strings"
	"testing"
)

// TestHeadOnlyNoiseIsAChange: a head whose output varies between reruns
// where the base's never does cannot hide a change as "unstable": the row
// is rerun on both sides, and the base answering alike every time makes it
// a change. Output that varies on both sides stays unstable.
func TestHeadOnlyNoiseIsAChange(t *testing.T) {
	t.Parallel()
	base := `import random


def tag(x: int) -> str:
    return str(x)


def token(x: int) -> str:
    return str(x) + str(random.random())
`
	head := `import random


def tag(x: int) -> str:
    return str(x) + str(random.random())


def token(x: int) -> str:
    return str(x) + "-" + str(random.random())
`
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, nil)
	var tagChanges int
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		switch c.Symbol {
		case "m.tag":
			tagChanges++
			if !strings.Contains(c.Head, "other values on reruns") {
				t.Errorf("m.tag change %q does not say the head varies", c.Head)
			}
		case "m.token":
			t.Errorf("m.token varies on both sides, yet a change was filed: %+v", c)
		}
	}
	if tagChanges == 0 {
		t.Errorf("m.tag: its head varies where its base does not, yet no change was filed (unstable: %d)", len(rep.Unstable))
	}
}
