package golang

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// maxTestDirs bounds the packages whose tests run; maxConfirmed the
// failing tests rerun to be confirmed and placed.
const (
	maxTestDirs  = 3
	maxConfirmed = 4
)

// moduleSeconds bounds the fetching of the modules the base's tests need.
const moduleSeconds = 120

// BaseTests runs the merge-base's tests of the changed packages with go
// test on both sides: the base as it is, the head with its test files
// laid over by the base's (go test -overlay), so the head neither adds,
// edits nor deletes one. A test the base passes and the head fails is
// run again on each side: the base must pass it again, and the head's
// run, alone and under -coverprofile, says which changed functions it
// ran. Both sides' first runs are under -coverprofile too: the watched
// lines the tests ran on each side.
func (l *goLang) BaseTests(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) lang.BaseTestRun {
	var out lang.BaseTestRun
	if cfg.BaseDir == "" || cfg.HeadDir == "" || cfg.Seconds <= 0 {
		return out
	}
	changed := changedGo(cfg.Diff, targets)
	var dirs []string
	byDir := map[string][]lang.Target{}
	pkgDirs := map[string]string{} // a changed package's import path -> its directory
	for _, tg := range changed {
		d := filepath.Dir(tg.BaseFile)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], tg)
		pkgDirs[importPathOf(tg)] = filepath.ToSlash(d)
	}
	out.HeadLines, out.BaseLines = map[string][]int{}, map[string][]int{}
	run := func(fs []lang.TestFailure, note string) {
		out.Failures = append(out.Failures, fs...)
		if note != "" {
			out.Notes = append(out.Notes, note)
		}
	}
	for _, d := range dirs[:min(len(dirs), maxTestDirs)] {
		var names []string
		for _, tg := range byDir[d] {
			names = append(names, lang.BareName(tg.Sym.Local))
		}
		run(dirTests(ctx, cfg, d, names, changed, l.gp.baseTestsOf(byDir[d][0].BaseFile), pkgDirs, nil, &out))
	}
	if len(dirs) < maxTestDirs {
		var cover []string
		for imp := range pkgDirs {
			cover = append(cover, imp)
		}
		sort.Strings(cover)
		deps := dependents(cfg.BaseDir, pkgDirs)
		for _, dep := range deps[:min(len(deps), maxTestDirs-len(dirs))] {
			pkg := l.gp.source(filepath.Join(cfg.BaseDir, filepath.FromSlash(dep.dir)))
			run(dirTests(ctx, cfg, filepath.FromSlash(dep.dir), dep.names, changed, pkg, pkgDirs, cover, &out))
		}
	}
	return out
}

// dirTests runs the base's tests of one package on both sides; pkg is
// the base's package as the run read it. The watched lines they ran go
// to lines.
func dirTests(ctx context.Context, cfg lang.TraceRun, dir string, names []string, targets []lang.Target, pkg *gosource.Package, pkgDirs map[string]string, coverPkg []string, lines *lang.BaseTestRun) ([]lang.TestFailure, string) {
	baseDir, headDir := filepath.Join(cfg.BaseDir, dir), filepath.Join(cfg.HeadDir, dir)
	baseTests, _ := filepath.Glob(filepath.Join(baseDir, "*_test.go"))
	if len(baseTests) == 0 {
		return nil, ""
	}
	scratch, err := os.MkdirTemp("", "go-test")
	if err != nil {
		return nil, ""
	}
	defer os.RemoveAll(scratch)
	overlay, err := gate.BaseTestsOverlay(baseDir, headDir, scratch)
	if err != nil {
		return nil, fmt.Sprintf("the base's tests of %s: %v", dir, err)
	}
	// Only the tests that can reach a changed function run: a package's
	// whole suite is often the project's, and most of it calls nothing
	// the patch changed.
	if pkg == nil {
		return nil, ""
	}
	reaching := pkg.TestsReaching(names)
	if len(reaching) == 0 && len(coverPkg) == 0 {
		// A changed package whose tests name none of its changed
		// functions: they reach them through the package's interfaces
		// (a parser's blocks, registered and called as parser.Block), so
		// all of them run.
		reaching = pkg.Tests()
	}
	if len(reaching) == 0 {
		return nil, ""
	}
	seconds := time.Duration(cfg.Seconds) * time.Second
	if end, ok := ctx.Deadline(); ok && time.Until(end)/2 < seconds {
		// go test's own -timeout within the stage's time, its build's
		// before it: a test still running at the end is then named
		// (a head that loops there fails it), where the stage's end
		// would only kill the run.
		seconds = max(2*time.Second, (time.Until(end) / 2).Truncate(time.Second))
	}
	// Every run is under -coverprofile, so each side builds its test
	// binary once: the first runs' profiles say which lines ran, the
	// head's reruns which changed function a failing test ran.
	flags := []string{"-count=1", fmt.Sprintf("-timeout=%ds", int(seconds/time.Second))}
	if len(coverPkg) > 0 {
		// A dependent's tests: the profiles are the changed packages'.
		flags = append(flags, "-coverpkg="+strings.Join(coverPkg, ","))
	}
	reflags := flags[:len(flags):len(flags)] // the reruns'
	sel := []string{"-run=^(" + strings.Join(quoteAll(reaching), "|") + ")$"}
	// (a profile is written to the run's own directory, which the box
	// lets it write)
	baseProf, headProf := filepath.Join(scratch, "base", "cover.out"), filepath.Join(scratch, "head", "cover.out")
	both := func() (base, head gate.GoTestRun) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			base = gate.GoTests(ctx, baseDir, scratch+"/base", append(append(flags, sel...), "-coverprofile="+baseProf), seconds)
		}()
		go func() {
			defer wg.Done()
			head = gate.GoTests(ctx, headDir, scratch+"/head", append(append(flags, sel...), "-overlay="+overlay, "-coverprofile="+headProf), seconds)
		}()
		wg.Wait()
		return base, head
	}
	base, head := both()
	if base.MissingModule && gate.GoModDownload(ctx, baseDir, moduleSeconds*time.Second) == nil {
		// The tests import a module the code does not (a test library):
		// fetched for the merge-base's go.mod, outside the box, which
		// fetches nothing.
		base, head = both()
	}
	if len(base.Failed) > 0 && base.Stopped == "" {
		// A test the base fails tells nothing, and one that panics ends
		// the run before the tests after it: once more without them.
		var failed []string
		for name := range base.Failed {
			top, _, _ := strings.Cut(name, "/")
			if !slices.Contains(failed, top) {
				failed = append(failed, top)
			}
		}
		sort.Strings(failed)
		sel = append(sel, "-skip=^("+strings.Join(quoteAll(failed), "|")+")$")
		base, head = both()
	}
	if base.Stopped != "" {
		return nil, fmt.Sprintf("the base's tests of %s told nothing: %s", dir, base.Stopped)
	}
	if head.Stopped != "" && len(head.Order) == 0 {
		// Not a change (a refactor renames what a test calls), but
		// nothing of the head was learnt here: said, not passed over.
		return nil, fmt.Sprintf("the base's tests of %s told nothing of the head: %s", dir, head.Stopped)
	}
	if len(base.Failed) == 0 {
		// Lines the base's tests ran on both sides, where the base
		// passed them all (a test the base fails checked nothing).
		addLines(lines.BaseLines, baseProf, cfg.BaseDir, pkgDirs, cfg.BaseWatch)
		addLines(lines.HeadLines, headProf, cfg.HeadDir, pkgDirs, cfg.HeadWatch)
	}
	var tops []string
	for _, name := range head.Order {
		top, _, _ := strings.Cut(name, "/")
		if _, failed := base.Failed[top]; failed || slices.Contains(tops, top) {
			continue
		}
		tops = append(tops, top)
	}
	// The tests that passed on both sides, each with one literal
	// replaced (variants.go), where no test failed on the head: a
	// package whose tests fail there has shown its change.
	var varied []lang.TestFailure
	if len(tops) == 0 && ctx.Err() == nil && base.Stopped == "" && head.Stopped == "" {
		tests := variedTests(cfg, pkg, dir, targets, reaching, base, head, len(coverPkg) > 0)
		vs, note := runVariants(ctx, cfg, dir, scratch, baseTests, tests)
		if note != "" {
			lines.Notes = append(lines.Notes, note)
		}
		reachedBy := map[string][]string{} // a target of this package -> its tests
		if len(coverPkg) == 0 && len(vs) > 0 {
			for _, tg := range targets {
				if filepath.Dir(tg.BaseFile) == dir {
					reachedBy[tg.Sym.Name] = pkg.TestsReaching([]string{lang.BareName(tg.Sym.Local)})
				}
			}
		}
		for _, v := range vs {
			f := lang.TestFailure{Test: v.v.ID, File: v.file, Variant: v.v.What, Base: gate.VariantEnd(outcome(v.base)), Head: gate.VariantEnd(outcome(v.head))}
			for _, tg := range targets {
				if slices.Contains(reachedBy[tg.Sym.Name], v.v.Test) {
					f.Symbols = append(f.Symbols, tg.Sym.Name)
				}
			}
			varied = append(varied, f)
		}
	}
	if len(tops) == 0 {
		return varied, ""
	}
	tops = tops[:min(len(tops), maxConfirmed)]
	// The base passes them again, or they are not its behaviour.
	again := gate.GoTests(ctx, baseDir, scratch+"/again", append(reflags, "-run=^("+strings.Join(quoteAll(tops), "|")+")$",
		"-coverprofile="+filepath.Join(scratch, "again", "cover.out")), seconds)
	if again.Stopped != "" {
		return varied, fmt.Sprintf("the base's tests of %s told nothing: %s", dir, again.Stopped)
	}
	out := varied
	for i, top := range tops {
		if _, failed := again.Failed[top]; failed {
			continue // a test that fails on the base too, now and then
		}
		f := lang.TestFailure{Test: leafOf(head, top), File: testFileOf(baseTests, top, cfg.BaseDir), Head: head.Failed[leafOf(head, top)]}
		if f.Head == gate.TimedOut {
			// Run alone again it would only time out again, and write
			// no profile to say which changed function it was in.
			out = append(out, f)
			continue
		}
		rerun := filepath.Join(scratch, fmt.Sprintf("head%d", i))
		prof := filepath.Join(rerun, "cover.out")
		gate.GoTests(ctx, headDir, rerun,
			append(reflags, "-overlay="+overlay, "-run=^"+regexp.QuoteMeta(top)+"$", "-coverprofile="+prof), seconds)
		f.Symbols = reached(prof, targets)
		out = append(out, f)
	}
	return out, ""
}

// leafOf is the deepest failing subtest of top on the head, or top.
func leafOf(run gate.GoTestRun, top string) string {
	leaf := top
	for _, n := range run.Order {
		if strings.HasPrefix(n, top+"/") && len(n) > len(leaf) {
			leaf = n
		}
	}
	return leaf
}

// testFileOf is the base's test file declaring the test function top.
func testFileOf(files []string, top, root string) string {
	decl := []byte("func " + top + "(")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil && bytes.Contains(data, decl) {
			rel, _ := filepath.Rel(root, f)
			return filepath.ToSlash(rel)
		}
	}
	return ""
}

// block is the lines of a block a coverage profile saw run.
type block struct{ start, end int }

// blocksRun are the blocks the coverage profile prof saw run, by file as
// the profile names it (its package's import path and its base name).
func blocksRun(prof string) map[string][]block {
	data, err := os.ReadFile(prof)
	if err != nil {
		return nil
	}
	ran := map[string][]block{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		// import/path/file.go:L1.C1,L2.C2 statements count
		loc, rest, ok := strings.Cut(line, ":")
		f := strings.Fields(rest)
		if !ok || len(f) != 3 || f[2] == "0" {
			continue
		}
		a, b, _ := strings.Cut(f[0], ",")
		s, _ := strconv.Atoi(strings.Split(a, ".")[0])
		e, _ := strconv.Atoi(strings.Split(b, ".")[0])
		ran[loc] = append(ran[loc], block{s, e})
	}
	return ran
}

// addLines adds to lines the watched lines prof saw run, by file as the
// watch names it; pkgDirs are the changed packages' directories (relative
// to top, the side's checkout) by import path, which the profile names.
func addLines(lines map[string][]int, prof, top string, pkgDirs map[string]string, w gate.Watch) {
	ran := blocksRun(prof)
	absTop, _ := filepath.Abs(top)
	for file, spans := range w {
		rel, err := filepath.Rel(absTop, filepath.Dir(file))
		if err != nil {
			continue
		}
		for imp, dir := range pkgDirs {
			if dir != filepath.ToSlash(rel) {
				continue
			}
			for _, b := range ran[imp+"/"+filepath.Base(file)] {
				for l := b.start; l <= b.end; l++ {
					for _, sp := range spans {
						if sp.From <= l && l <= sp.To {
							lines[file] = append(lines[file], l)
							break
						}
					}
				}
			}
		}
	}
}

// reached names the targets whose lines the coverage profile prof saw
// run: those that ran a changed line first, then those only entered.
func reached(prof string, targets []lang.Target) []string {
	ran := blocksRun(prof)
	if ran == nil {
		return nil
	}
	type score struct {
		name         string
		lines, entry int
	}
	var scores []score
	for _, tg := range targets {
		if len(tg.Reads) > 0 {
			continue // an entry point: the changed function it reaches is named instead
		}
		sc := score{name: tg.Sym.Name}
		for _, b := range ran[importPathOf(tg)+"/"+filepath.Base(tg.BaseFile)] {
			if b.end >= tg.Sym.Start && b.start <= tg.Sym.End {
				sc.entry++
			}
			for _, l := range tg.Sym.ChangedLines {
				if l >= b.start && l <= b.end {
					sc.lines++
				}
			}
		}
		if sc.entry > 0 {
			scores = append(scores, sc)
		}
	}
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].lines > scores[j].lines })
	var names []string
	for _, s := range scores {
		names = append(names, s.name)
	}
	return names
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = regexp.QuoteMeta(n)
	}
	return out
}

var _ lang.BaseTester = (*goLang)(nil)
