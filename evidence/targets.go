package evidence

import "github.com/premise-dev/premise/diffparse"

// HasTargets reports whether the diff changes a function evidence rows can
// call on both sides: a caller need not check out base and head otherwise.
func HasTargets(res *diffparse.Result) bool {
	// No checkout yet: the tests cannot be read, so a function of *args
	// alone, and a method, count as targets; Run, with the checkout, decides.
	pf := &pyFiles{probe: true}
	defer pf.close()
	targets, _ := targetsOf(res, pf, &goPkgs{probe: true})
	return len(targets) > 0
}
