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
// ran.
func (l *goLang) BaseTests(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) ([]lang.TestFailure, []string) {
	if cfg.BaseDir == "" || cfg.HeadDir == "" || cfg.Seconds <= 0 {
		return nil, nil
	}
	var dirs []string
	byDir := map[string][]lang.Target{}
	for _, tg := range targets {
		if tg.Lang != "go" || tg.HeadOnly || tg.BaseFile == "" {
			continue
		}
		d := filepath.Dir(tg.BaseFile)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], tg)
	}
	var out []lang.TestFailure
	var notes []string
	for _, d := range dirs[:min(len(dirs), maxTestDirs)] {
		fs, note := dirTests(ctx, cfg, d, byDir[d], l.gp.baseTestsOf(byDir[d][0].BaseFile))
		out = append(out, fs...)
		if note != "" {
			notes = append(notes, note)
		}
	}
	return out, notes
}

// dirTests runs the base's tests of one package on both sides; pkg is
// the base's package as the run read it.
func dirTests(ctx context.Context, cfg lang.TraceRun, dir string, targets []lang.Target, pkg *gosource.Package) ([]lang.TestFailure, string) {
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
	var names []string
	for _, tg := range targets {
		names = append(names, lang.BareName(tg.Sym.Local))
	}
	reaching := pkg.TestsReaching(names)
	if len(reaching) == 0 {
		return nil, ""
	}
	seconds := time.Duration(cfg.Seconds) * time.Second
	flags := []string{"-count=1", fmt.Sprintf("-timeout=%ds", cfg.Seconds), "-run=^(" + strings.Join(quoteAll(reaching), "|") + ")$"}
	both := func() (base, head gate.GoTestRun) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			base = gate.GoTests(ctx, baseDir, scratch+"/base", flags, seconds)
		}()
		go func() {
			defer wg.Done()
			head = gate.GoTests(ctx, headDir, scratch+"/head", append(flags, "-overlay="+overlay), seconds)
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
	if base.Stopped != "" {
		return nil, fmt.Sprintf("the base's tests of %s told nothing: %s", dir, base.Stopped)
	}
	if head.Stopped != "" && len(head.Order) == 0 {
		// Not a change (a refactor renames what a test calls), but
		// nothing of the head was learnt here: said, not passed over.
		return nil, fmt.Sprintf("the base's tests of %s told nothing of the head: %s", dir, head.Stopped)
	}
	var tops []string
	for _, name := range head.Order {
		top, _, _ := strings.Cut(name, "/")
		if _, failed := base.Failed[top]; failed || slices.Contains(tops, top) {
			continue
		}
		tops = append(tops, top)
	}
	if len(tops) == 0 {
		return nil, ""
	}
	tops = tops[:min(len(tops), maxConfirmed)]
	// The base passes them again, or they are not its behaviour.
	again := gate.GoTests(ctx, baseDir, scratch+"/again", append(flags[:2:2], "-run=^("+strings.Join(quoteAll(tops), "|")+")$"), seconds)
	if again.Stopped != "" {
		return nil, fmt.Sprintf("the base's tests of %s told nothing: %s", dir, again.Stopped)
	}
	var out []lang.TestFailure
	for i, top := range tops {
		if _, failed := again.Failed[top]; failed {
			continue // a test that fails on the base too, now and then
		}
		prof := filepath.Join(scratch, fmt.Sprintf("cover%d.out", i))
		gate.GoTests(ctx, headDir, filepath.Join(scratch, fmt.Sprintf("head%d", i)),
			append(flags[:2:2], "-overlay="+overlay, "-run=^"+regexp.QuoteMeta(top)+"$", "-coverprofile="+prof), seconds)
		f := lang.TestFailure{Test: leafOf(head, top), File: testFileOf(baseTests, top, cfg.BaseDir), Head: head.Failed[leafOf(head, top)]}
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

// reached names the targets whose lines the coverage profile prof saw
// run: those that ran a changed line first, then those only entered.
func reached(prof string, targets []lang.Target) []string {
	data, err := os.ReadFile(prof)
	if err != nil {
		return nil
	}
	type block struct{ start, end int }
	ran := map[string][]block{} // by file's base name
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
		ran[filepath.Base(loc)] = append(ran[filepath.Base(loc)], block{s, e})
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
		for _, b := range ran[filepath.Base(tg.BaseFile)] {
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
