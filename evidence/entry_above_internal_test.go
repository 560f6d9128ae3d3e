package evidence

import (
	"slices"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// TestBaseTestsLeaveOutEntryPointsAbove: the base's tests run for the
// changed functions and the entry points beside them; an entry point in a
// directory above (evalfilter's Eval.Run over vm.Run) is only a way to
// rows. Given to the Go base tests, its package's run took the changed
// package's coverage: vm.Run's changed lines, which only vm's tests ran,
// counted as never run.
func TestBaseTestsLeaveOutEntryPointsAbove(t *testing.T) {
	res := &diffparse.Result{Files: []diffparse.File{{Path: "vm/vm.go", OldPath: "vm/vm.go"}}}
	target := func(name, file string) lang.Target {
		return lang.Target{Sym: diffparse.Symbol{Name: name}, BaseFile: file}
	}
	changed := target("ev/vm.Machine.Run", "vm/vm.go")
	beside := target("ev/vm.Exec", "vm/exec.go")
	above := target("ev.Eval.Run", "eval.go")
	got := withoutEntriesAbove([]lang.Target{changed, beside, above}, []lang.Target{beside, above}, res)
	var names []string
	for _, tg := range got {
		names = append(names, tg.Sym.Name)
	}
	if want := []string{"ev/vm.Machine.Run", "ev/vm.Exec"}; !slices.Equal(names, want) {
		t.Errorf("targets for the base's tests = %v, want %v", names, want)
	}
}
