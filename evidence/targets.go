package evidence

import "github.com/premise-dev/premise/diffparse"

// HasTargets reports whether the diff changes a function evidence rows can
// call on both sides: a caller need not check out base and head otherwise.
func HasTargets(res *diffparse.Result) bool {
	// No checkout yet: the module's own doctests are read, not the tests.
	pf := &pyFiles{}
	defer pf.close()
	targets, _ := targetsOf(res, pf)
	return len(targets) > 0
}
