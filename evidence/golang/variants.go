package golang

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// The base's tests that pass on both sides tell nothing of the change
// with the inputs they wrote; a command-line library's tests build the
// parser the change is in and hand it the words they chose. Each of a few
// of them runs again with one literal replaced (gate.GoVariants, as
// Python's base_tests.py varies a test), on both sides, and a variant
// that ends one way on the base and another on the head, twice, is a
// change.

// maxVariedTests bounds the base's tests of a package that are varied,
// maxGoVariants the variants filed as changes, variantSeconds go test's
// -timeout of a run of them (a test binary past it stops, and tells
// nothing), variantBuilds the builds tried when a variant does not
// compile (an untyped -1 given to a uint) and variantRounds the runs when
// a variant's panic ends the test binary before the variants after it.
const (
	maxVariedTests = 6
	maxGoVariants  = 4
	variantSeconds = 10
	variantBuilds  = 3
	variantRounds  = 8
	// variantBudget bounds the variants of one test file, builds
	// included: they run where nothing else showed a change, and must not
	// double a run's time to say nothing.
	variantBudget = 12 * time.Second
)

// variedTests are the tests of reaching to vary, of those that failed on
// neither side (base and head): those that reach a changed function of
// the package its rows showed nothing on, the ones whose own body names
// it first; for a dependent package, its tests when one of targets is
// unshown.
func variedTests(cfg lang.TraceRun, pkg *gosource.Package, dir string, targets []lang.Target, reaching []string, base, head gate.GoTestRun, dependent bool) []string {
	passed := func(t string) bool {
		_, b := base.Failed[t]
		_, h := head.Failed[t]
		return strings.HasPrefix(t, "Test") && !b && !h && slices.Contains(reaching, t)
	}
	var unshown []string
	for _, tg := range targets {
		if cfg.Shown[tg.Sym.Name] {
			continue
		}
		if dependent || filepath.Dir(tg.BaseFile) == dir {
			unshown = append(unshown, lang.BareName(tg.Sym.Local))
		}
	}
	if len(unshown) == 0 {
		return nil
	}
	var out []string
	add := func(ts []string) {
		for _, t := range ts {
			if passed(t) && !slices.Contains(out, t) && len(out) < maxVariedTests {
				out = append(out, t)
			}
		}
	}
	add(pkg.TestsNaming(unshown))
	if dependent {
		add(reaching)
	} else {
		add(pkg.TestsReaching(unshown))
	}
	return out
}

// goVariant is a variant that ended apart on the two sides.
type goVariant struct {
	v          gate.GoVariant
	file       string // the test file, from the top
	base, head string // how it ended on each side ("" passed)
}

// runVariants runs the variants of tests (of the package in dir, its
// base's test files baseTests) on both sides and returns those that ended
// apart twice; a note when none could run.
func runVariants(ctx context.Context, cfg lang.TraceRun, dir, scratch string, baseTests, tests []string) ([]goVariant, string) {
	byFile := map[string][]string{}
	var files []string
	for _, t := range tests {
		f := testFileOf(baseTests, t, filepath.Join(cfg.BaseDir, dir))
		if f == "" {
			continue
		}
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], t)
	}
	var out []goVariant
	for i, f := range files {
		src, err := os.ReadFile(filepath.Join(cfg.BaseDir, dir, f))
		if err != nil {
			continue
		}
		vs, note := variantsOfFile(ctx, cfg, dir, filepath.Join(scratch, fmt.Sprintf("v%d", i)), f, src, byFile[f])
		if note != "" {
			return out, note
		}
		for _, v := range vs {
			v.file = filepath.ToSlash(filepath.Join(dir, f))
			out = append(out, v)
		}
	}
	return out, ""
}

// variantsOfFile runs the variants of tests, all in the base's test file
// name (src), on both sides.
func variantsOfFile(ctx context.Context, cfg lang.TraceRun, dir, scratch, name string, src []byte, tests []string) ([]goVariant, string) {
	ctx, cancel := context.WithTimeout(ctx, variantBudget)
	defer cancel()
	baseDir, headDir := filepath.Join(cfg.BaseDir, dir), filepath.Join(cfg.HeadDir, dir)
	skip := map[string]bool{}
	var vs []gate.GoVariant
	var baseOverlay, headOverlay string
	round := 0
	// side runs the variants fns (their function names) in dir: the
	// first round of a build builds the test binary in out, the rounds
	// after it run that binary again.
	side := func(dir, overlay, out string, fns []string, build bool) gate.GoTestRun {
		args := []string{"-count=1", "-v", fmt.Sprintf("-timeout=%ds", variantSeconds), "-overlay=" + overlay, "-run=^(" + strings.Join(quoteAll(fns), "|") + ")$"}
		if build {
			return gate.GoTests(ctx, dir, out, args, variantSeconds*time.Second)
		}
		return gate.GoTestsAgain(ctx, dir, out, args, variantSeconds*time.Second)
	}
	built := -1 // the round that built the binaries in use
	// both runs bfns on the base and hfns on the head, at once.
	both := func(bfns, hfns []string) (base, head gate.GoTestRun) {
		round++
		build := built < 0
		if build {
			built = round
		}
		bout, hout := filepath.Join(scratch, fmt.Sprintf("base%d", built)), filepath.Join(scratch, fmt.Sprintf("head%d", built))
		var wg sync.WaitGroup
		if len(bfns) > 0 {
			wg.Add(1)
			go func() { defer wg.Done(); base = side(baseDir, baseOverlay, bout, bfns, build) }()
		}
		if len(hfns) > 0 {
			wg.Add(1)
			go func() { defer wg.Done(); head = side(headDir, headOverlay, hout, hfns, build) }()
		}
		wg.Wait()
		return base, head
	}
	var base, head gate.GoTestRun
	for build := 0; ; build++ {
		varied, made, err := gate.GoVariants(src, tests, gate.GoVariantsPerTest, skip)
		if err != nil || len(made) == 0 || build == variantBuilds {
			return nil, ""
		}
		vs, built = made, -1
		for _, side := range []struct {
			name, dir string
			at        *string
		}{{"base", baseDir, &baseOverlay}, {"head", headDir, &headOverlay}} {
			d := filepath.Join(scratch, fmt.Sprintf("overlay%d-%s", build, side.name))
			if err := os.MkdirAll(d, 0o755); err != nil {
				return nil, ""
			}
			if *side.at, err = gate.VariedOverlay(baseDir, side.dir, d, name, varied); err != nil {
				return nil, ""
			}
		}
		base, head = both(funcsOf(vs), funcsOf(vs))
		bad := gate.BuildErrorsIn(append(base.BuildErrors, head.BuildErrors...), name, vs)
		if len(bad) == 0 {
			break
		}
		for _, id := range bad {
			skip[id] = true
		}
	}
	if base.Stopped != "" && len(base.Passed) == 0 {
		return nil, fmt.Sprintf("the variants of the base's tests of %s told nothing: %s", dir, base.Stopped)
	}
	ends := func(run gate.GoTestRun, into map[string]string) {
		for _, v := range vs {
			if e, ran := gate.GoVariantEnd(run, v); ran {
				if _, had := into[v.ID]; !had {
					into[v.ID] = e
				}
			}
		}
	}
	baseEnds, headEnds := map[string]string{}, map[string]string{}
	ends(base, baseEnds)
	ends(head, headEnds)
	for r := 1; r < variantRounds && ctx.Err() == nil; r++ {
		// A variant that panics ends the test binary: the variants after
		// it run again, on the side it ended, without the ones that ran.
		pb, ph := pendingIn(vs, baseEnds), pendingIn(vs, headEnds)
		if len(pb) == 0 && len(ph) == 0 {
			break
		}
		b, h := both(funcsOf(pb), funcsOf(ph))
		nb, nh := len(baseEnds), len(headEnds)
		ends(b, baseEnds)
		ends(h, headEnds)
		if len(baseEnds) == nb && len(headEnds) == nh {
			break // none of them ran: they will not
		}
	}
	var apart []gate.GoVariant
	for _, v := range vs {
		b, ok1 := baseEnds[v.ID]
		h, ok2 := headEnds[v.ID]
		if ok1 && ok2 && !gate.SameEnd(outcome(b), outcome(h)) && len(apart) < 2*maxGoVariants {
			apart = append(apart, v)
		}
	}
	if len(apart) == 0 {
		return nil, ""
	}
	// Each side ends alike again, or the variant is no behaviour of it.
	base2, head2 := both(funcsOf(apart), funcsOf(apart))
	var out []goVariant
	for _, v := range apart {
		b2, ok1 := gate.GoVariantEnd(base2, v)
		h2, ok2 := gate.GoVariantEnd(head2, v)
		if !ok1 || !ok2 || !gate.SameEnd(outcome(b2), outcome(baseEnds[v.ID])) || !gate.SameEnd(outcome(h2), outcome(headEnds[v.ID])) {
			continue
		}
		if len(out) < maxGoVariants {
			out = append(out, goVariant{v: v, base: baseEnds[v.ID], head: headEnds[v.ID]})
		}
	}
	return out, ""
}

// pendingIn are the variants of vs with no end in ends.
func pendingIn(vs []gate.GoVariant, ends map[string]string) []gate.GoVariant {
	var out []gate.GoVariant
	for _, v := range vs {
		if _, ok := ends[v.ID]; !ok {
			out = append(out, v)
		}
	}
	return out
}

// outcome is a variant's end as gate.SameEnd reads it.
func outcome(end string) string {
	if end == "" {
		return "passed"
	}
	return "failed: " + end
}

// funcsOf are the variants' function names.
func funcsOf(vs []gate.GoVariant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Func
	}
	return out
}
