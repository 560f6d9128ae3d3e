package javascript

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/jssource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// maxBaseTestFiles bounds the base's test files a run loads; maxConfirmed
// the failing tests rerun to be confirmed.
const (
	maxBaseTestFiles = 30
	maxConfirmed     = 8
	// maxViaOnlyFiles bounds the test files run that name nothing of the
	// change and reach it only through a module importing it.
	maxViaOnlyFiles = 4
)

// BaseTests runs the merge-base's JavaScript and TypeScript tests that
// name a changed function (or its module) on both sides, in the Node box
// (gate.RunNodeTests: premise's stand-ins for mocha, Jest, Vitest,
// node:test, ava, tape, tap and chai; the base's test files laid over
// the head's, so a head that edits, deletes or adds one changes nothing).
// A test the base passes and the head fails is run again on both sides,
// those tests alone: the base must pass it again and the head fail it
// again, or it is not a change (a test that fails now and then). The
// head's rerun's coverage says which changed function it ran. The
// watched lines the tests ran on each side are those of the tests the
// base passed, as each side ran them.
func (l *jsLang) BaseTests(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) lang.BaseTestRun {
	var out lang.BaseTestRun
	if l.runTests == nil {
		l.runTests = gate.RunNodeTests
	}
	if cfg.BaseDir == "" || cfg.HeadDir == "" || cfg.Seconds <= 0 {
		return out
	}
	mine := changedFunctions(cfg, targets, l.lang)
	var names, modules []string
	for _, c := range mine {
		names = append(names, lang.BareName(c.local), moduleWord(c.baseFile))
		modules = append(modules, c.baseFile)
		names = append(names, innerNames(cfg.HeadDir, c)...)
	}
	for _, tg := range targets {
		if tg.Lang == l.lang && len(tg.Reads) > 0 {
			// An entry point's tests reach the change through it.
			names = append(names, lang.BareName(tg.Sym.Local))
		}
	}
	if len(mine) == 0 {
		return out
	}
	tests, overlay := baseTestFiles(cfg.BaseDir, testWords{names: names, modules: modules, literals: changedLiterals(cfg.Diff, l.lang)})
	if len(tests) == 0 {
		return out
	}
	spec := func(dir string, w gate.Watch, only []string) gate.NodeTests {
		return gate.NodeTests{Node: cfg.Gate.Node, Dir: dir, BaseDir: cfg.BaseDir, Tests: tests, Overlay: overlay, Only: only, Watch: w, Seconds: cfg.Seconds}
	}
	both := func(only []string) (base, head gate.NodeTestRun) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			base = l.runTests(ctx, spec(cfg.BaseDir, cfg.BaseWatch, only))
		}()
		go func() {
			defer wg.Done()
			head = l.runTests(ctx, spec(cfg.HeadDir, cfg.HeadWatch, only))
		}()
		wg.Wait()
		return base, head
	}
	base, head := both(nil)
	if base.Err != "" {
		out.Notes = append(out.Notes, "the base's tests: "+base.Err)
		return out
	}
	out.Notes = append(out.Notes, loadNotes(base)...)
	if head.Err != "" {
		out.Notes = append(out.Notes, "the base's tests told nothing of the head: "+head.Err)
		return out
	}
	out.HeadLines, out.BaseLines = map[string][]int{}, map[string][]int{}
	var failing []string
	for _, id := range base.Order {
		if base.Tests[id].Outcome != "passed" {
			continue
		}
		h, ran := headOutcome(head, id)
		if !ran {
			continue
		}
		for f, ls := range base.Tests[id].Lines {
			out.BaseLines[f] = append(out.BaseLines[f], ls...)
		}
		for f, ls := range head.Tests[id].Lines {
			out.HeadLines[f] = append(out.HeadLines[f], ls...)
		}
		if strings.HasPrefix(h, "failed") {
			failing = append(failing, id)
		}
	}
	if len(failing) == 0 {
		return out
	}
	failing = failing[:min(len(failing), maxConfirmed)]
	// The head fails them again, or a test that fails now and then would
	// be a change: first alone, and one that passes alone again after
	// the tests before it (a head whose state one test leaves for the
	// next fails only there). The base passes them again, or they are
	// not its behaviour.
	again, alone := both(failing)
	var inOrder *gate.NodeTestRun
	gone := lang.DeletedNames(cfg.Diff, l.lang)
	for _, id := range failing {
		if again.Tests[id].Outcome != "passed" {
			continue
		}
		run := alone
		if how, _ := headOutcome(alone, id); !strings.HasPrefix(how, "failed") {
			if inOrder == nil {
				r := l.runTests(ctx, spec(cfg.HeadDir, cfg.HeadWatch, nil))
				inOrder = &r
			}
			run = *inOrder
		}
		how, _ := headOutcome(run, id)
		if !strings.HasPrefix(how, "failed") {
			continue
		}
		how = strings.TrimPrefix(strings.TrimPrefix(how, "failed"), ": ")
		if name := usesGone(how, gone); name != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("the base's test %s uses %s, which the patch removes: not run against the head", id, name))
			continue
		}
		file, test, _ := strings.Cut(id, " > ")
		syms := byLinesRun(sideLines{run.Tests[id].Lines, cfg.HeadDir}, sideLines{again.Tests[id].Lines, cfg.BaseDir}, mine, test)
		if len(syms) == 0 {
			// A change that only deletes lines leaves the head none to
			// watch: the changed functions, in the diff's order.
			for _, c := range mine {
				syms = append(syms, c.name)
			}
		}
		out.Failures = append(out.Failures, lang.TestFailure{Test: test, File: file, Symbols: syms, Head: gate.FailureText(how)})
	}
	return out
}

// headOutcome is what the head's run says of test id, and whether the
// test ran there: a test file that does not load on the head fails every
// test the base ran of it.
func headOutcome(head gate.NodeTestRun, id string) (string, bool) {
	if r, ok := head.Tests[id]; ok {
		return r.Outcome, !strings.HasPrefix(r.Outcome, "not made") && r.Outcome != "skipped"
	}
	file, _, _ := strings.Cut(id, " > ")
	if why, ok := head.Files[file]; ok {
		return "failed: the test file does not load: " + why, true
	}
	return "", false
}

// usesGone is the removed name a failure to find a name is about, or "".
func usesGone(how string, gone []string) string {
	if !strings.Contains(how, "is not a function") && !strings.Contains(how, "is not defined") && !strings.Contains(how, "is not a constructor") &&
		!strings.Contains(how, "does not provide an export") && !strings.Contains(how, "does not load") {
		return ""
	}
	for _, g := range gone {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(g) + `\b`).MatchString(how) {
			return g
		}
	}
	return ""
}

// loadNotes say what kept the base's tests from telling more: test files
// that did not load on the base (a package not installed, a framework
// premise has no stand-in for), tests premise could not make.
func loadNotes(run gate.NodeTestRun) []string {
	var notes, failed, notMade []string
	files := make([]string, 0, len(run.Files))
	for f := range run.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		failed = append(failed, f+" ("+run.Files[f]+")")
	}
	for _, id := range run.Order {
		if o := run.Tests[id].Outcome; strings.HasPrefix(o, "not made") {
			notMade = append(notMade, id+" ("+strings.TrimPrefix(o, "not made: ")+")")
		}
	}
	if s := someOf(failed); s != "" {
		notes = append(notes, "the base's test files that do not load, whose tests told nothing: "+s)
	}
	if s := someOf(notMade); s != "" {
		notes = append(notes, "the base's tests premise's stand-ins cannot make, left out: "+s)
	}
	var stood []string
	for _, f := range slices.Sorted(maps.Keys(run.StoodIn)) {
		stood = append(stood, f+" ("+strings.Join(run.StoodIn[f], ", ")+")")
	}
	if s := someOf(stood); s != "" {
		notes = append(notes, "the base's test files that import packages the clone lacks, loaded with stand-ins for them: "+s)
	}
	if run.Stopped {
		notes = append(notes, "the base's tests ran out of their time before the last")
	}
	return notes
}

// someOf lists the first three of xs and counts the rest.
func someOf(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	more := ""
	if len(xs) > 3 {
		xs, more = xs[:3], fmt.Sprintf(" and %d more", len(xs)-3)
	}
	return strings.Join(xs, ", ") + more
}

// changed is a function the patch modified, in a file of the language
// that is not test code: a failing test is filed under the one whose
// lines it ran, a target or not (a method premise has no receiver for is
// still what the test ran).
type changed struct {
	name, local        string
	baseFile, headFile string
	sym                diffparse.Symbol // its span and changed lines on the head
	baseChanged        []int            // its changed lines on the base
}

// sideLines are the lines a test ran on one side, by absolute file, and
// that side's tree.
type sideLines struct {
	lines map[string][]int
	dir   string
}

// changedFunctions are the diff's modified functions of langName; the
// targets' own when there is no diff.
func changedFunctions(cfg lang.TraceRun, targets []lang.Target, langName string) []changed {
	var out []changed
	if cfg.Diff == nil {
		for _, tg := range targets {
			if tg.Lang == langName && !tg.HeadOnly && tg.BaseFile != "" && len(tg.Reads) == 0 {
				out = append(out, changed{name: tg.Sym.Name, local: tg.Sym.Local, baseFile: tg.BaseFile, headFile: tg.BaseFile, sym: tg.Sym})
			}
		}
		return out
	}
	for _, f := range cfg.Diff.Files {
		if f.Language != langName || f.Status == "added" || f.Status == "deleted" || lang.InTestPath(f, jsTestFileRe.MatchString) {
			continue
		}
		baseFile := f.OldPath
		if baseFile == "" {
			baseFile = f.Path
		}
		for i, sym := range f.Symbols {
			if sym.Change == "modified" {
				own, baseOwn := ownChangedLines(f, i)
				sym.ChangedLines = own
				out = append(out, changed{name: sym.Name, local: sym.Local, baseFile: filepath.ToSlash(baseFile), headFile: f.Path, sym: sym, baseChanged: baseOwn})
			}
		}
	}
	return out
}

// ownChangedLines are the changed lines of f's i-th symbol, on the head
// and on the base, less those of the modified symbols nested in its span
// (a class's methods): a test that ran a method's changed lines is filed
// under the method, not under the class whose span holds every method's
// lines and so always ran at least as many.
func ownChangedLines(f diffparse.File, i int) (head, base []int) {
	sym := f.Symbols[i]
	head, base = sym.ChangedLines, lang.RemovedLines(f, sym)
	for j, in := range f.Symbols {
		if j == i || in.Change != "modified" || in.Start < sym.Start || in.End > sym.End || (in.Start == sym.Start && in.End == sym.End) {
			continue
		}
		head = slices.DeleteFunc(slices.Clone(head), func(l int) bool { return in.Start <= l && l <= in.End })
		nested := lang.RemovedLines(f, in)
		base = slices.DeleteFunc(slices.Clone(base), func(l int) bool { return slices.Contains(nested, l) })
	}
	return head, base
}

// byLinesRun are the changed functions a failing test ran, by how many of
// their changed lines it ran on the head and, passing, on the base, most
// first, then those it only entered on the head. The base's count matters
// where the patch removed lines: a fix taken out leaves the head none of
// its lines to run (js-yaml's tab check in readBlockMapping), while a
// helper it also touched still has one.
//
// Among those that ran as many changed lines, one the test's name names
// comes first ("add invalidates the cache" ran the constructor's changed
// line too, and is add's test).
func byLinesRun(head, base sideLines, fns []changed, test string) []string {
	headAbs, _ := filepath.Abs(head.dir)
	baseAbs, _ := filepath.Abs(base.dir)
	type score struct {
		name          string
		changed, body int
		named         bool
	}
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[\w$#]+`).FindAllString(test, -1) {
		words[w] = true
	}
	var scores []score
	for _, fn := range fns {
		sc := score{name: fn.name, named: words[fn.local[strings.LastIndex(fn.local, ".")+1:]]}
		for _, l := range head.lines[filepath.Join(headAbs, fn.headFile)] {
			if slices.Contains(fn.sym.ChangedLines, l) {
				sc.changed++
			}
			if fn.sym.Start <= l && l <= fn.sym.End {
				sc.body++
			}
		}
		if base.dir != "" {
			for _, l := range base.lines[filepath.Join(baseAbs, fn.baseFile)] {
				if slices.Contains(fn.baseChanged, l) {
					sc.changed++
				}
			}
		}
		if sc.body > 0 || sc.changed > 0 {
			scores = append(scores, sc)
		}
	}
	sort.SliceStable(scores, func(i, j int) bool {
		if scores[i].changed != scores[j].changed {
			return scores[i].changed > scores[j].changed
		}
		if scores[i].named != scores[j].named {
			return scores[i].named
		}
		return scores[i].body > scores[j].body
	})
	var out []string
	for _, s := range scores {
		out = append(out, s.name)
	}
	return out
}

// innerNames are the names of the functions inside c that hold its changed
// lines on the head (a factory's formatPrefix): the tests call them
// through what the factory returns.
func innerNames(headDir string, c changed) []string {
	if headDir == "" || len(c.sym.ChangedLines) == 0 {
		return nil
	}
	src, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(c.headFile)))
	if err != nil || len(src) > lang.MaxTestFileBytes {
		return nil
	}
	f, err := jssource.Parse(c.headFile, src)
	if err != nil {
		return nil
	}
	defer f.Close()
	return jssource.InnerNames(f, c.sym.Start, c.sym.End, c.sym.ChangedLines)
}

// moduleWord is the name a test knows a module file by: its own, or its
// directory's for an index file (require(".."), import from ".").
func moduleWord(file string) string {
	base := path.Base(filepath.ToSlash(file))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if base == "index" || base == "main" {
		return path.Base(path.Dir(filepath.ToSlash(file)))
	}
	return base
}

// testWords are what the base's test files are chosen by: the changed
// functions' names and their modules' words, the changed modules' files,
// and the string literals of the diff's hunks.
type testWords struct {
	names, modules, literals []string
}

// baseTestFiles are the base's test files to run, those most likely to
// reach a changed function first, at most maxBaseTestFiles; the other
// test files and the fixtures are laid over the copy (overlay) so the
// tests' own imports of them resolve. A file ranks by the words of w it
// names, above them one that imports a changed module, and next one that
// imports a module importing it (the package's index: js-yaml's tests
// all require('../../'), fast-equals' import '../src/index'). A literal
// of the hunks a test holds (the message the changed code throws, a key
// it treats apart: 'bad indentation of a mapping entry', '__proto__')
// ranks it above both; one that half the test files hold tells nothing
// and counts for none.
func baseTestFiles(baseDir string, w testWords) (tests, overlay []string) {
	var alts []string
	for _, n := range w.names {
		if n != "" && n != "." && n != "default" && !slices.Contains(alts, regexp.QuoteMeta(n)) {
			alts = append(alts, regexp.QuoteMeta(n))
		}
	}
	if len(alts) == 0 {
		alts = append(alts, "$^") // no word: imports alone select
	}
	named := regexp.MustCompile(`(^|[^\w$])(` + strings.Join(alts, "|") + `)([^\w$]|$)`)
	via := importers(baseDir, w.modules)
	self := selfImportRe(baseDir)
	type hit struct {
		rel      string
		count    int
		literals []string
		viaOnly  bool // it only imports a module reaching the change
	}
	var hits []hit
	seen := 0
	holding := map[string]int{} // literal -> test files holding it
	_ = filepath.WalkDir(baseDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || seen > 5000 {
			return filepath.SkipDir
		}
		name := d.Name()
		if d.IsDir() {
			if p != baseDir && skipDir(name) {
				return filepath.SkipDir
			}
			return nil
		}
		seen++
		rel, _ := filepath.Rel(baseDir, p)
		rel = filepath.ToSlash(rel)
		if !jsTestFileRe.MatchString(rel) || !d.Type().IsRegular() || strings.Contains(rel, ".d.") {
			return nil
		}
		if inFixtures(rel) || inBenchmarks(rel) {
			overlay = append(overlay, rel)
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > lang.MaxTestFileBytes {
			return nil
		}
		n := len(named.FindAllIndex(src, -1))
		viaOnly := false
		switch {
		case imports(rel, src, w.modules):
			n += 100
		case imports(rel, src, via) || len(via) > 0 && self != nil && self.Match(src):
			// A test importing the package by its own name (yaml's
			// tests: import * as YAML from 'yaml') reaches its index
			// as one importing '../src/index' does.
			viaOnly = n == 0
			n += 50
			if pathNamesModule(rel, w.modules) {
				// Of the files reaching the change only through the
				// index, one whose path names the changed module
				// comes first (luxon: test/datetime/toFormat.test.js
				// for src/impl/formatter.js, test/interval/ for
				// src/interval.js; every test imports src/luxon).
				n += 10
			}
		}
		var lits []string
		for _, lit := range w.literals {
			if strings.Contains(string(src), lit) {
				lits = append(lits, lit)
				holding[lit]++
			}
		}
		if n > 0 || len(lits) > 0 {
			hits = append(hits, hit{rel, n, lits, viaOnly && len(lits) == 0})
		} else {
			overlay = append(overlay, rel)
		}
		return nil
	})
	total := len(hits) + len(overlay)
	for i := range hits {
		for _, lit := range hits[i].literals {
			if holding[lit]*2 <= total {
				hits[i].count += 200
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].count > hits[j].count })
	viaOnly := 0
	for _, h := range hits {
		if h.viaOnly {
			// A file that names nothing of the change only fills in:
			// a suite whose every file imports the package's index
			// would otherwise spend the tests' time on all of them
			// before the one naming the change (picomatch's
			// test/options.js, late in the suite's order).
			if viaOnly >= maxViaOnlyFiles {
				overlay = append(overlay, h.rel)
				continue
			}
			viaOnly++
		}
		if len(tests) < maxBaseTestFiles && h.count > 0 {
			tests = append(tests, h.rel)
		} else {
			overlay = append(overlay, h.rel)
		}
	}
	sort.Strings(tests) // a suite's own order: files load as its runner loads them
	return tests, overlay
}

// selfImportRe matches an import or require of the package at dir by its
// own name, or of a path under it ('yaml', 'yaml/util'); nil when its
// package.json names none.
func selfImportRe(dir string) *regexp.Regexp {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Name == "" {
		return nil
	}
	return regexp.MustCompile(`(?:require\s*\(\s*|from\s*|import\s*\(?\s*)['"]` + regexp.QuoteMeta(pkg.Name) + `(?:/[^'"]*)?['"]`)
}

// pathWordRe splits a path into its words: at separators and where a
// lower-case letter meets an upper-case one (toFormat: to, Format).
var pathWordRe = regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+`)

// pathNamesModule says whether a test file's path holds a word of four
// letters or more that is a changed module's file name or its
// directory's, or begins one (format for formatter.js, interval for
// interval.js, stringify for stringify/foldFlowLines.ts); an index's name
// (index, main) and a source tree's (src, lib) name nothing.
func pathNamesModule(rel string, modules []string) bool {
	var words []string
	for _, w := range pathWordRe.FindAllString(rel, -1) {
		if w = strings.ToLower(w); len(w) >= 4 && w != "test" && w != "tests" && w != "spec" {
			words = append(words, w)
		}
	}
	for _, m := range modules {
		names := []string{strings.ToLower(strings.TrimSuffix(path.Base(m), path.Ext(m)))}
		if dir := strings.ToLower(path.Base(path.Dir(m))); !genericDirs[dir] {
			names = append(names, dir) // yaml's src/stringify/foldFlowLines.ts: tests/doc/stringify.ts
		}
		for _, base := range names {
			if base == "index" || base == "main" || len(base) < 4 {
				continue
			}
			for _, w := range words {
				if strings.HasPrefix(base, w) {
					return true
				}
			}
		}
	}
	return false
}

// genericDirs name a source tree, not what its files do.
var genericDirs = map[string]bool{".": true, "/": true, "src": true, "lib": true, "source": true, "sources": true, "dist": true, "build": true, "impl": true, "internal": true, "utils": true, "util": true, "helpers": true, "core": true, "common": true}

// skipDir says a directory holds no test or source of the repository's
// own: hidden ones, installed packages and build outputs.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist" || name == "build" || name == "coverage"
}

// maxImporterDepth bounds the imports between a changed module and a
// module of the package that reaches it (index.js -> lib/loader.js is one).
const maxImporterDepth = 3

// jsSourceRe is a JavaScript or TypeScript source file's name.
var jsSourceRe = regexp.MustCompile(`\.[cm]?[jt]sx?$`)

// importers are the source files of baseDir, tests apart, that import one
// of modules through at most maxImporterDepth imports, modules left out.
func importers(baseDir string, modules []string) []string {
	if len(modules) == 0 {
		return nil
	}
	srcs := map[string][]byte{}
	seen := 0
	_ = filepath.WalkDir(baseDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || seen > 5000 {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if p != baseDir && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		seen++
		rel, _ := filepath.Rel(baseDir, p)
		rel = filepath.ToSlash(rel)
		if !jsSourceRe.MatchString(rel) || jsTestFileRe.MatchString(rel) || strings.Contains(rel, ".d.") || !d.Type().IsRegular() {
			return nil
		}
		if src, err := os.ReadFile(p); err == nil && len(src) <= lang.MaxTestFileBytes {
			srcs[rel] = src
		}
		return nil
	})
	reached := slices.Clone(modules)
	var out []string
	for range maxImporterDepth {
		var next []string
		for rel, src := range srcs {
			if !slices.Contains(reached, rel) && imports(rel, src, reached) {
				next = append(next, rel)
			}
		}
		if len(next) == 0 {
			break
		}
		sort.Strings(next)
		reached, out = append(reached, next...), append(out, next...)
	}
	return out
}

// changedLiterals are the string literals of the hunks of the diff's
// files of language langName, tests apart: each side's changed lines and
// the lines around them, five characters or longer.
func changedLiterals(res *diffparse.Result, langName string) []string {
	if res == nil {
		return nil
	}
	var out []string
	for _, f := range res.Files {
		if f.Language != langName || lang.InTestPath(f, jsTestFileRe.MatchString) {
			continue
		}
		for _, h := range f.Hunks {
			for _, ln := range h.Lines {
				for _, m := range jsStringRe.FindAllStringSubmatch(ln.Text, -1) {
					lit := m[1] + m[2]
					if len(lit) >= 5 && !slices.Contains(out, lit) {
						out = append(out, lit)
					}
				}
			}
		}
	}
	return out
}

// jsStringRe is a quoted string without escapes.
var jsStringRe = regexp.MustCompile(`'([^'\\\n]*)'|"([^"\\\n]*)"`)

// importRe finds the relative specifiers a file requires or imports.
var importRe = regexp.MustCompile(`(?:require\s*\(\s*|from\s*|import\s*\(?\s*)['"](\.{1,2}(?:/[^'"]*)?)['"]`)

// imports says whether the test file rel (its text src) imports one of
// modules by a relative path: the file with or without its extension,
// or its directory for an index file (require(".."), import from ".").
func imports(rel string, src []byte, modules []string) bool {
	for _, m := range importRe.FindAllSubmatch(src, -1) {
		to := path.Join(path.Dir(rel), string(m[1]))
		for _, mod := range modules {
			bare := strings.TrimSuffix(mod, path.Ext(mod))
			if to == mod || to == bare || (path.Base(bare) == "index" && to == path.Dir(bare)) {
				return true
			}
		}
	}
	return false
}

// inFixtures says a file in a test path is data or a helper, not tests.
func inFixtures(rel string) bool {
	for _, part := range strings.Split(path.Dir(rel), "/") {
		switch part {
		case "fixtures", "fixture", "helpers", "__fixtures__", "__mocks__", "__snapshots__", "support", "utils":
			return true
		}
	}
	return false
}

// inBenchmarks says a file lies under a benchmark directory
// (benchmark/tests/parse-speed.js): a script that times the code in loops
// as it loads, not a test, whose path only looks like one. Run first (its
// path sorts before test/), one would spend the tests' time before any
// test of the change ran.
func inBenchmarks(rel string) bool {
	for _, part := range strings.Split(path.Dir(rel), "/") {
		switch part {
		case "benchmark", "benchmarks", "bench", "benches", "perf":
			return true
		}
	}
	return false
}

var _ lang.BaseTester = (*jsLang)(nil)
