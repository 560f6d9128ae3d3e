package evidence

import (
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// HasTargets reports whether the diff changes a function evidence can
// check on both sides: a caller need not check out base and head
// otherwise. A changed function no row can call (a module's private
// helper) counts too: with the checkouts, the public functions reaching
// it become targets (entry.go) and the base's tests run (basetests.go);
// without them nothing of it is checked (js-yaml's loader steps, reached
// only through the exported load).
func HasTargets(res *diffparse.Result) bool {
	// No checkout yet: the tests cannot be read, so a function of *args
	// alone, and a method, count as targets; Run, with the checkout, decides.
	langs := lang.LanguagesFor("", "", 0, true)
	defer langs.Close()
	targets, _ := targetsOf(res, langs)
	return len(targets) > 0 || privateChanged(res, langs) || sharedChanges(res, langs)
}

// privateChanged says whether res modifies a function or method of a
// file of the run's languages that is not a test file, both sides read.
//
// A deleted one counts too, its file kept or not: the functions that
// still call it are entry points (entry.go), whose head no longer loads.
func privateChanged(res *diffparse.Result, langs lang.Languages) bool {
	for _, f := range res.Files {
		if langs[f.Language] == nil || f.Excluded != "" || f.BaseSrc == nil || testLike(f.Path) {
			continue
		}
		for _, s := range f.Symbols {
			if (s.Kind == "function" || s.Kind == "method") && (s.Change == "modified" && f.HeadSrc != nil || s.Change == "deleted") {
				return true
			}
		}
	}
	return false
}
