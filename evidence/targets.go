package evidence

import "github.com/premise-dev/premise/diffparse"

// HasTargets reports whether the diff changes a function evidence rows can
// call on both sides: a caller need not check out base and head otherwise.
func HasTargets(res *diffparse.Result) bool {
	targets, _ := targetsOf(res)
	return len(targets) > 0
}
