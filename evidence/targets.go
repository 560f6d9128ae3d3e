package evidence

import (
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// HasTargets reports whether the diff changes a function evidence rows can
// call on both sides: a caller need not check out base and head otherwise.
func HasTargets(res *diffparse.Result) bool {
	// No checkout yet: the tests cannot be read, so a function of *args
	// alone, and a method, count as targets; Run, with the checkout, decides.
	langs := lang.LanguagesFor("", "", 0, true)
	defer langs.Close()
	targets, _ := targetsOf(res, langs)
	return len(targets) > 0
}
