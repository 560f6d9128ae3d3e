package python

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// maxRerun bounds the failing tests a run files as changes.
const maxRerun = 8

func (l *pythonLang) BaseTests(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) lang.BaseTestRun {
	return l.baseTests(ctx, cfg, targets)
}

// baseTests starts from the first run of the merge-base's tests on the
// base's tree (firstRun), where the tracer says which tests call a
// changed function (or one the patch deletes); then runs those tests alone, at once on the head's tree
// (each test module loaded from the base's file, so the head neither
// edits nor deletes one; base_tests.py) and on the base's again, in the
// same order. A test the base passes both times and the head fails twice
// (the second time alone, or after the same tests as the first; past its
// time both times, or neither) is a failure; the head's run says which
// changed functions it called. The watched lines the tests
// ran are the base's first run's (of the tests that then ran on both
// sides) and the head's.
func (l *pythonLang) baseTests(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) lang.BaseTestRun {
	var none lang.BaseTestRun
	if cfg.BaseDir == "" || cfg.HeadDir == "" || cfg.Seconds <= 0 {
		return none
	}
	want := map[string]string{}
	for _, tg := range targets {
		if tg.Lang == "python" && !tg.HeadOnly && tg.BaseFile != "" && len(tg.Reads) == 0 {
			want[filepath.Join(cfg.HeadDir, tg.BaseFile)+":"+tg.Sym.Local] = tg.Sym.Name
		}
	}
	br := l.firstRun(ctx, cfg, targets)
	if len(want) == 0 || br == nil {
		return none
	}
	first, tests := br.run, br.tests
	if first.Err != "" {
		return lang.BaseTestRun{Notes: []string{"the base's tests: " + first.Err}}
	}
	notes := loadNotes(first)
	var reaching []string
	for _, id := range first.Order {
		if t := first.Tests[id]; t.Outcome == validate.OutcomePassed && slices.ContainsFunc(t.Reached, func(s string) bool { return br.tested[s] }) {
			reaching = append(reaching, id)
		}
	}
	if len(reaching) == 0 {
		return lang.BaseTestRun{Notes: notes}
	}
	python := cfg.Gate.Python
	if python == "" {
		python = "python3"
	}
	var again, head gate.PyTestRun
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		again = gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.BaseDir, BaseDir: cfg.BaseDir, Tests: tests, Only: reaching, Seconds: cfg.Seconds, First: br.first})
	}()
	go func() {
		defer wg.Done()
		head = gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.HeadDir, BaseDir: cfg.BaseDir, Tests: tests, Only: reaching,
			Targets: want, Watch: cfg.HeadWatch, Seconds: cfg.Seconds, First: br.first})
	}()
	wg.Wait()
	var failing []string
	for _, id := range head.Order {
		if strings.HasPrefix(head.Tests[id].Outcome, "failed") && again.Tests[id].Outcome == validate.OutcomePassed {
			failing = append(failing, id)
		}
	}
	failing = failing[:min(len(failing), maxRerun)]
	if len(failing) > 0 {
		// The head fails them again, or a test that fails now and then
		// (or a loaded machine, for one past its time) would be a change:
		// first alone, and one that passes alone again after the tests
		// before it (a head whose state one test leaves for the next
		// fails only there).
		failsAgain := func(run gate.PyTestRun) func(string) bool {
			return func(id string) bool {
				o := run.Tests[id].Outcome
				return strings.HasPrefix(o, "failed") && (head.Tests[id].Outcome == timedOut) == (o == timedOut)
			}
		}
		alone := gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.HeadDir, BaseDir: cfg.BaseDir, Tests: tests, Only: failing, Seconds: cfg.Seconds, First: br.first})
		if !all(failing, failsAgain(alone)) {
			inOrder := gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.HeadDir, BaseDir: cfg.BaseDir, Tests: tests, Only: reaching, Seconds: cfg.Seconds, First: br.first})
			failing = slices.DeleteFunc(failing, func(id string) bool { return !failsAgain(alone)(id) && !failsAgain(inOrder)(id) })
		}
	}
	variants := l.variants(ctx, cfg, python, tests, br.first, reaching, first, again, head, want, targets)
	out := lang.BaseTestRun{Notes: notes, BaseLines: map[string][]int{}, HeadLines: map[string][]int{}}
	for _, id := range reaching {
		if again.Tests[id].Outcome != validate.OutcomePassed {
			continue // not the base's behaviour: it checked nothing
		}
		for f, ls := range first.Tests[id].Lines {
			out.BaseLines[f] = append(out.BaseLines[f], ls...)
		}
		for f, ls := range head.Tests[id].Lines {
			out.HeadLines[f] = append(out.HeadLines[f], ls...)
		}
	}
	gone := lang.DeletedNames(cfg.Diff, "python")
	for _, id := range failing {
		how := strings.TrimPrefix(head.Tests[id].Outcome, "failed: ")
		if name := usesGone(how, gone); name != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("the base's test %s uses %s, which the patch removes: not run against the head", id, name))
			continue
		}
		file, test, _ := strings.Cut(id, "::")
		out.Failures = append(out.Failures, lang.TestFailure{Test: test, File: file, Symbols: byLinesRun(head.Tests[id].Reached, ranBy{head.Tests[id].Lines, cfg.HeadDir}, ranBy{first.Tests[id].Lines, cfg.BaseDir}, targets, cfg.Diff, test), Head: gate.FailureText(how)})
	}
	for _, v := range variants {
		file, test, _ := strings.Cut(v.id, "::")
		out.Failures = append(out.Failures, lang.TestFailure{
			Test: test, File: file, Variant: v.what, Base: gate.VariantEnd(v.base), Head: gate.VariantEnd(v.head),
			Symbols: byLinesRun(v.reached, ranBy{v.headLines, cfg.HeadDir}, ranBy{}, targets, cfg.Diff, test),
		})
	}
	return out
}

// maxAmplified bounds the base's tests run again with their literals
// replaced, maxVariants the variants that ended apart filed as changes,
// and variantSeconds each of the two runs of the variants (a side's, the
// two sides at once): each variant runs the whole test again, and a
// project's slow tests would otherwise spend the run's time on them.
const (
	maxAmplified   = 10
	maxVariants    = 4
	variantSeconds = 6
)

// variant is a variant of a base's test (one of its literals replaced)
// that ended one way on the base and another on the head.
type variant struct {
	id, what, base, head string
	reached              []string
	headLines            map[string][]int
}

// variants runs the first of the tests that call a changed function its
// rows showed nothing on (the traced run says which they call) and pass
// on the base again with each of their literals replaced
// (gate.PyTests.Amplify), on both sides at once, and keeps the variants
// that ended apart: differently on the two sides in one run, and each
// side alike again when each variant runs once more after its test alone
// (base_tests.py runs a variant's test first, as the gate's test row
// does; a variant that depends on the other tests, or ends another way
// each time, is no change). A test the head fails as it is is a failure
// already; its variants are not run.
func (l *pythonLang) variants(ctx context.Context, cfg lang.TraceRun, python string, tests, first, reaching []string, traced, again, onHead gate.PyTestRun, want map[string]string, targets []lang.Target) []variant {
	// A test is varied for a changed function its rows showed nothing on:
	// one already shown waits for a reviewer, who gains nothing from more.
	// Those that ran most of such a function's changed lines on the head
	// come first: a parser's tests all call it, and the one whose
	// document has the element the patch changed is the one to vary.
	var amplify []string
	ran := map[string]int{}
	headAbs, _ := filepath.Abs(cfg.HeadDir)
	for _, id := range reaching {
		unshown := slices.ContainsFunc(traced.Tests[id].Reached, func(s string) bool { return !cfg.Shown[s] })
		passes := again.Tests[id].Outcome == validate.OutcomePassed && onHead.Tests[id].Outcome == validate.OutcomePassed
		if !passes || !unshown {
			continue
		}
		amplify = append(amplify, id)
		for _, tg := range targets {
			if tg.Lang != "python" || cfg.Shown[tg.Sym.Name] {
				continue
			}
			lines := onHead.Tests[id].Lines[filepath.Join(headAbs, tg.BaseFile)]
			for _, l := range tg.Sym.ChangedLines {
				if slices.Contains(lines, l) {
					ran[id]++
				}
			}
		}
	}
	sort.SliceStable(amplify, func(i, j int) bool { return ran[amplify[i]] > ran[amplify[j]] })
	amplify = amplify[:min(len(amplify), maxAmplified)]
	if len(amplify) == 0 || ctx.Err() != nil {
		return nil
	}
	seconds := min(cfg.Seconds, variantSeconds)
	both := func(only, amplify []string) (base, head gate.PyTestRun) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			base = gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.BaseDir, BaseDir: cfg.BaseDir, Tests: tests, Only: only, Amplify: amplify, Seconds: seconds, First: first})
		}()
		go func() {
			defer wg.Done()
			head = gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.HeadDir, BaseDir: cfg.BaseDir, Tests: tests, Only: only, Amplify: amplify,
				Targets: want, Watch: cfg.HeadWatch, Seconds: seconds, First: first})
		}()
		wg.Wait()
		return base, head
	}
	base, head := both(amplify, amplify)
	var apart []string
	for _, id := range head.Order {
		b, ok := base.Tests[id]
		h := head.Tests[id]
		// A variant the base ran past its time tells nothing; one the
		// head runs past its time where the base ended is a change (a
		// callback's count of 0 looping the head), which it must do again.
		if !gate.IsVariant(id) || !ok || b.Outcome == timedOut || b.Outcome == "skipped" || h.Outcome == "skipped" || gate.SameEnd(b.Outcome, h.Outcome) {
			continue
		}
		if len(apart) < 2*maxVariants {
			apart = append(apart, id)
		}
	}
	if len(apart) == 0 {
		return nil
	}
	// A loop is one finding: one looping variant is run again, not each.
	looped := false
	apart = slices.DeleteFunc(apart, func(id string) bool {
		loops := head.Tests[id].Outcome == timedOut
		drop := loops && looped
		looped = looped || loops
		return drop
	})
	base2, head2 := both(apart, nil)
	var out []variant
	for _, id := range apart {
		b2, ok1 := base2.Tests[id]
		h2, ok2 := head2.Tests[id]
		if !ok1 || !ok2 || !gate.SameEnd(b2.Outcome, base.Tests[id].Outcome) || !gate.SameEnd(h2.Outcome, head.Tests[id].Outcome) {
			continue
		}
		if len(out) < maxVariants {
			h := head.Tests[id]
			out = append(out, variant{id: id, what: h.Variant, base: base.Tests[id].Outcome, head: h.Outcome, reached: h.Reached, headLines: h.Lines})
		}
	}
	return out
}

// timedOut is base_tests.py's outcome for a test past its time.
const timedOut = "failed: timed out"

// usesGone is the removed name a failure to find a name is about, or "".
func usesGone(how string, gone []string) string {
	if !strings.HasPrefix(how, "ImportError") && !strings.HasPrefix(how, "AttributeError") && !strings.HasPrefix(how, "NameError") &&
		!strings.HasPrefix(how, "the module does not load") {
		return ""
	}
	for _, g := range gone {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(g) + `\b`).MatchString(how) {
			return g
		}
	}
	return ""
}

// baseTestFiles are the base's test files (test*.py and Test*.py,
// *_test.py, tests.py) whose text names a word of one of tiers, those
// naming the first tier first: a changed function's name, then its
// module's, then its package's (parso's grammar and fuzz tests, which only
// import the package, once spent the traced run's budget before the file
// testing the changed module ran).
func baseTestFiles(baseDir string, tiers ...[]string) []string {
	return testFilesNaming(baseDir, func(base string) bool {
		base = strings.ToLower(base)
		return strings.HasPrefix(base, "test") || strings.HasSuffix(base, "_test.py")
	}, tiers...)
}

// moduleWord is the name a test imports a module file by: its own, or its
// package's for an __init__.py.
func moduleWord(file string) string {
	if m := strings.TrimSuffix(path.Base(file), ".py"); m != "__init__" {
		return m
	}
	return path.Base(path.Dir(file))
}

// topPackage is the top-level package (or module) a file belongs to, as
// a test imports it: nameparser for nameparser/parser.py, src/ and lib/
// layouts aside.
func topPackage(file string) string {
	parts := strings.Split(file, "/")
	if len(parts) > 1 && (parts[0] == "src" || parts[0] == "lib") {
		parts = parts[1:]
	}
	return strings.TrimSuffix(parts[0], ".py")
}

// parentPackage is the package directory a module file is in, below its
// top package ("optimizer" for sqlglot/optimizer/simplify.py), "" for a
// module of the top package itself.
func parentPackage(file string) string {
	dir := path.Dir(file)
	if dir == "." || path.Dir(dir) == "." || topPackage(file) == path.Base(dir) {
		return ""
	}
	return path.Base(dir)
}

var _ lang.BaseTester = (*pythonLang)(nil)

// all says whether every id is ok.
func all(ids []string, ok func(string) bool) bool {
	for _, id := range ids {
		if !ok(id) {
			return false
		}
	}
	return true
}

// loadNotes say what kept the base's tests from running: test modules
// that did not load, modules they import that are not installed.
func loadNotes(run gate.PyTestRun) []string {
	var notes, failed []string
	for _, id := range run.Order {
		if o := run.Tests[id].Outcome; !strings.Contains(id, "::") && strings.HasPrefix(o, "failed: the module does not load") {
			failed = append(failed, id+" ("+strings.TrimPrefix(o, "failed: the module does not load: ")+")")
		}
	}
	if len(failed) > 0 {
		more := ""
		if len(failed) > 3 {
			failed, more = failed[:3], fmt.Sprintf(" and %d more", len(failed)-3)
		}
		notes = append(notes, "the base's test modules that do not load, whose tests told nothing: "+strings.Join(failed, ", ")+more)
	}
	if len(run.Absent) > 0 {
		notes = append(notes, "the base's tests import "+strings.Join(run.Absent, ", ")+", not installed here: premise stood in for each, and the tests that use one told nothing")
	}
	return notes
}

// ranBy is the lines a test ran on one side, by absolute file, and that
// side's tree.
type ranBy struct {
	lines map[string][]int
	dir   string
}

// byLinesRun orders the targets a failing test called (the last called
// first) by how many of their changed lines it ran on the head and, where
// it passed, of their removed lines on the base, most first: the change
// it fails on is most often where it ran the patch's lines, not what it
// called last. A fix taken out leaves the head none of its lines to run
// (tqdm's write lost its `if fp is None` return), so the base's count
// matters. Among those that ran as many, one the test's name names comes
// first (test_write_stdout_none is write's test, though it ran a helper's
// changed lines too).
func byLinesRun(called []string, head, base ranBy, targets []lang.Target, diff *diffparse.Result, test string) []string {
	headAbs, _ := filepath.Abs(head.dir)
	baseAbs, _ := filepath.Abs(base.dir)
	words := "_" + strings.NewReplacer("::", "_", ".", "_").Replace(strings.ToLower(test)) + "_"
	score := map[string]int{}
	named := map[string]bool{}
	for _, tg := range targets {
		if tg.Lang != "python" || !slices.Contains(called, tg.Sym.Name) {
			continue
		}
		ran := head.lines[filepath.Join(headAbs, tg.BaseFile)]
		for _, l := range tg.Sym.ChangedLines {
			if slices.Contains(ran, l) {
				score[tg.Sym.Name]++
			}
		}
		if base.dir != "" {
			ran := base.lines[filepath.Join(baseAbs, tg.BaseFile)]
			for _, l := range removedLines(diff, tg) {
				if slices.Contains(ran, l) {
					score[tg.Sym.Name]++
				}
			}
		}
		bare := strings.ToLower(lang.BareName(tg.Sym.Local))
		named[tg.Sym.Name] = strings.Contains(words, "_"+strings.Trim(bare, "_")+"_")
	}
	out := slices.Clone(called)
	sort.SliceStable(out, func(i, j int) bool {
		if score[out[i]] != score[out[j]] {
			return score[out[i]] > score[out[j]]
		}
		return named[out[i]] && !named[out[j]]
	})
	return out
}

// removedLines are tg's lines on the base that the patch removed or
// replaced (lang.RemovedLines), from its file in diff.
func removedLines(diff *diffparse.Result, tg lang.Target) []int {
	if diff == nil {
		return nil
	}
	for _, f := range diff.Files {
		if f.Path != tg.BaseFile && f.OldPath != tg.BaseFile {
			continue
		}
		for _, s := range f.Symbols {
			if s.Name == tg.Sym.Name {
				return lang.RemovedLines(f, s)
			}
		}
	}
	return nil
}
