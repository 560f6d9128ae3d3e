package javascript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// A base's test the head fails once is a change only when the head fails
// it again (alone, or after the tests before it as the first time) and
// the base passes it again: a test that fails now and then, on either
// side, is no change. Whether a real test fails is not something a test
// can make happen on demand, so the runs' outcomes here are given.
func TestJavaScriptBaseTestsRerunBeforeTheyCount(t *testing.T) {
	t.Parallel()
	const id = "m.test.js > shouts"
	tests := []struct {
		name   string
		base   []string // the base's outcomes, run by run
		head   []string // the head's: the first run, alone, then in order
		want   bool
		reason string
	}{
		{"fails every time", []string{"passed", "passed"}, []string{"failed: x", "failed: x"}, true, ""},
		{"flaky on the head", []string{"passed", "passed"}, []string{"failed: x", "passed", "passed"}, false, "passed alone and in order again"},
		{"fails after the tests before it", []string{"passed", "passed"}, []string{"failed: x", "passed", "failed: x"}, true,
			"the head leaves state one test trips on: a change"},
		{"flaky on the base", []string{"passed", "failed: y"}, []string{"failed: x", "failed: x"}, false, "the base does not pass it every time"},
		{"fails on both", []string{"failed: y", "failed: y"}, []string{"failed: x", "failed: x"}, false, "no behaviour of the base's"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, head := t.TempDir(), t.TempDir()
			for _, d := range []string{base, head} {
				if err := os.WriteFile(filepath.Join(d, "m.test.js"), []byte("const {shout} = require('./m');\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			runs := map[string]int{}
			fake := func(_ context.Context, spec gate.NodeTests) gate.NodeTestRun {
				mu.Lock()
				defer mu.Unlock()
				outs := tc.head
				if spec.Dir == base {
					outs = tc.base
				}
				n := runs[spec.Dir]
				runs[spec.Dir]++
				o := outs[min(n, len(outs)-1)]
				run := gate.NodeTestRun{Order: []string{id}}
				run.Tests = map[string]gate.NodeTest{id: {Outcome: o}}
				return run
			}
			l := &jsLang{lang: diffparse.LangJavaScript, runTests: fake}
			tg := lang.Target{Sym: diffparse.Symbol{Name: "m.shout", Local: "shout", Start: 1, End: 3}, Lang: diffparse.LangJavaScript, BaseFile: "m.js"}
			got := l.BaseTests(context.Background(), lang.TraceRun{BaseDir: base, HeadDir: head, Seconds: 5}, []lang.Target{tg})
			if (len(got.Failures) > 0) != tc.want {
				t.Errorf("failures %+v, want a change: %v (%s)", got.Failures, tc.want, tc.reason)
			}
			if tc.want {
				want := lang.TestFailure{Test: "shouts", File: "m.test.js", Symbols: []string{"m.shout"}, Head: "x"}
				if d := cmp.Diff(want, got.Failures[0]); d != "" {
					t.Errorf("failure (-want +got):\n%s", d)
				}
			}
		})
	}
}

// A base's test that fails on the head only because it calls what the
// patch removed is named in the notes, not filed as a change: the
// removal is the patch's stated intent, and the diff shows it.
func TestJavaScriptBaseTestOfARemovedFunctionIsNoted(t *testing.T) {
	t.Parallel()
	if got := usesGone("TypeError: m.legacy is not a function", []string{"legacy"}); got != "legacy" {
		t.Errorf("usesGone = %q, want legacy", got)
	}
	if got := usesGone("expected 'A', got 'a'", []string{"legacy"}); got != "" {
		t.Errorf("usesGone of an assertion = %q, want none", got)
	}
}

// The base's test files run are those naming a changed function or its
// module, or importing its module by path (a default export's test names
// it as it likes), not fixtures; the rest of its test paths are laid over the
// head's with them.
func TestJavaScriptBaseTestFilesNameTheChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"test/bytes.js":          "var bytes = require('..');\nbytes.parse('1kb');\n",
		"test/other.js":          "require('../lib/other');\n",
		"test/fixtures/parse.js": "module.exports = ['1kb'];\n",
		"src/index.test.ts":      "import { parse } from '.';\n",
		"lib/parse.js":           "exports.parse = 1;\n",
		"test.js":                "import prettyBytes from '.';\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, overlay := baseTestFiles(dir, testWords{names: []string{"parse", moduleWord("index.js")}, modules: []string{"index.js"}})
	if d := cmp.Diff([]string{"src/index.test.ts", "test.js", "test/bytes.js"}, tests); d != "" {
		t.Errorf("tests (-want +got):\n%s", d)
	}
	if !strings.Contains(strings.Join(overlay, " "), "test/fixtures/parse.js") || !strings.Contains(strings.Join(overlay, " "), "test/other.js") {
		t.Errorf("overlay %q, want the fixture and the other test laid over", overlay)
	}
}

// A changed factory's inner function (d3-format's formatPrefix, inside
// locale.js's default export) is what its tests name: a test file naming
// it is run, though it names neither the module nor imports it directly.
func TestJavaScriptBaseTestFilesNameAnInnerFunction(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"src/locale.js":             "export default function(locale) {\n  function formatPrefix(s, v) {\n    return s + v;\n  }\n  return {formatPrefix};\n}\n",
		"src/index.js":              "export {default as formatLocale} from './locale.js';\n",
		"test/formatPrefix-test.js": "import {formatPrefix} from '../src/index.js';\nformatPrefix(',.0s', 1e3);\n",
		"test/other-test.js":        "import {format} from '../src/index.js';\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := changed{name: "src/locale.default", local: "default", baseFile: "src/locale.js", headFile: "src/locale.js",
		sym: diffparse.Symbol{Name: "src/locale.default", Local: "default", Start: 1, End: 6, ChangedLines: []int{3}}}
	names := append([]string{lang.BareName(c.local), moduleWord(c.baseFile)}, innerNames(dir, c)...)
	tests, _ := baseTestFiles(dir, testWords{names: names, modules: []string{c.baseFile}})
	// other-test.js names nothing changed but reaches locale.js through
	// the index it imports: it runs too, after the file naming the change.
	if d := cmp.Diff([]string{"test/formatPrefix-test.js", "test/other-test.js"}, tests); d != "" {
		t.Errorf("tests (-want +got):\n%s", d)
	}
}

// The tests of a package import its index, not the changed module
// (fast-equals' __tests__/index.ts imports '../src/index', which imports
// './utils'; js-yaml's test/issues/*.js require('../../'), whose index.js
// requires './lib/loader'): such a file is run, below one importing the
// changed module itself. Of many files alike, the one holding a literal
// of the hunks (the message the changed code throws) is run first, though
// it names the entry point least; a literal half the files hold ranks
// none.
func TestJavaScriptBaseTestFilesThroughTheIndexAndTheHunksLiterals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"index.js":                  "module.exports = require('./lib/loader');\n",
		"lib/loader.js":             "function readMapping(s) { throw new Error('bad indentation of a mapping entry'); }\nexports.load = function (s) { return readMapping(s); };\n",
		"lib/dumper.js":             "exports.dump = function (v) { return String(v); };\n",
		"test/issues/0418.js":       "const yaml = require('../../');\nit('x', () => assert.throws(() => yaml.load('a: b: c'), /bad indentation of a mapping entry/));\n",
		"test/unrelated.js":         "const d = require('../lib/dumper');\nit('y', () => d.dump(1));\n",
		"test/direct.js":            "const l = require('../lib/loader');\nit('z', () => l.load('a'));\n",
		"test/issues/everywhere.js": "const yaml = require('../../');\nit('w', () => 'use strict');\n",
	}
	for i := range maxBaseTestFiles + 5 {
		files[fmt.Sprintf("test/issues/%04d.js", i+1000)] = "'use strict';\nconst yaml = require('../../');\nit('v', () => [yaml.load('a'), yaml.load('b'), yaml.load('c')]);\n"
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, overlay := baseTestFiles(dir, testWords{names: []string{"readMapping", "loader", "load"}, modules: []string{"lib/loader.js"},
		literals: []string{"bad indentation of a mapping entry", "use strict"}})
	for _, tc := range []struct {
		file   string
		run    bool
		reason string
	}{
		{"test/issues/0418.js", true, "it holds the message the changed code throws"},
		{"test/direct.js", true, "it imports the changed module"},
		{"test/issues/1000.js", true, "it reaches the changed module through the index"},
		{"test/unrelated.js", false, "it imports neither the changed module nor one reaching it"},
	} {
		if got := slices.Contains(tests, tc.file); got != tc.run {
			t.Errorf("%s run = %v, want %v (%s); tests %q", tc.file, got, tc.run, tc.reason, tests)
		}
	}
	if len(tests) != maxBaseTestFiles {
		t.Errorf("%d test files run, want the cap %d", len(tests), maxBaseTestFiles)
	}
	if !slices.Contains(overlay, "test/unrelated.js") {
		t.Errorf("overlay %q lacks the unrelated test", overlay)
	}
}

// A test file naming nothing the patch changed, importing the package's
// index that imports the changed module (fast-equals' __tests__/index.ts
// calls deepEqual; the patch changes areMapsEqual in src/utils.ts), is
// run; one importing neither is not.
func TestJavaScriptBaseTestFilesImportingTheIndex(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"src/index.ts":            "export { deepEqual } from './comparator';\n",
		"src/comparator.ts":       "import { areMapsEqual } from './utils';\nexport function deepEqual(a: any, b: any) { return areMapsEqual(a, b); }\n",
		"src/utils.ts":            "export function areMapsEqual(a: any, b: any) { return a === b; }\n",
		"src/other.ts":            "export const x = 1;\n",
		"__tests__/index.ts":      "import { deepEqual } from '../src/index';\nit('maps', () => expect(deepEqual(new Map(), new Map())).toBe(true));\n",
		"__tests__/other.test.ts": "import { x } from '../src/other';\nit('x', () => expect(x).toBe(1));\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, _ := baseTestFiles(dir, testWords{names: []string{"areMapsEqual", "utils"}, modules: []string{"src/utils.ts"}})
	if d := cmp.Diff([]string{"__tests__/index.ts"}, tests); d != "" {
		t.Errorf("tests (-want +got):\n%s", d)
	}

	// A suite whose every file imports the index: those naming nothing of
	// the change only fill in, maxViaOnlyFiles of them, so the tests'
	// time goes to the one naming it first (picomatch's test/options.js,
	// late in the suite's order, ran out of time behind the others).
	for i := range maxViaOnlyFiles + 3 {
		p := filepath.Join(dir, fmt.Sprintf("__tests__/other%d.ts", i))
		if err := os.WriteFile(p, []byte("import { deepEqual } from '../src/index';\nit('o', () => deepEqual(1, 1));\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "__tests__/zmaps.ts"), []byte("import { deepEqual } from '../src';\n// areMapsEqual's cases\nit('m', () => deepEqual(new Map(), new Map()));\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests, _ = baseTestFiles(dir, testWords{names: []string{"areMapsEqual", "utils"}, modules: []string{"src/utils.ts"}})
	want := []string{"__tests__/index.ts", "__tests__/other0.ts", "__tests__/other1.ts", "__tests__/other2.ts", "__tests__/zmaps.ts"}
	if d := cmp.Diff(want, tests); d != "" {
		t.Errorf("tests of a suite importing the index (-want +got):\n%s", d)
	}
}

// Of a suite whose every file imports the package's index (luxon's
// test/**/*.test.js all import src/luxon), the files filling in are
// those whose path names the changed module first: a patch to
// src/impl/formatter.js runs test/datetime/toFormat.test.js, not the
// first four files of the suite's order.
func TestJavaScriptBaseTestFilesIndexImportersNamingTheModule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"src/luxon.js":                   "export { default as DateTime } from './datetime';\n",
		"src/datetime.js":                "import Formatter from './impl/formatter';\nexport default class DateTime { toFormat(f) { return Formatter.parseFormat(f); } }\n",
		"src/impl/formatter.js":          "export default class Formatter { static parseFormat(f) { return f; } }\n",
		"test/datetime/toFormat.test.js": "import { DateTime } from '../../src/luxon';\ntest('q', () => expect(new DateTime().toFormat(\"''\")).toBe(\"'\"));\n",
		"test/interval/info.test.js":     "import { DateTime } from '../../src/luxon';\ntest('i', () => 1);\n",
	}
	for i := range maxViaOnlyFiles + 2 {
		files[fmt.Sprintf("test/datetime/a%d.test.js", i)] = "import { DateTime } from '../../src/luxon';\ntest('a', () => 1);\n"
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, _ := baseTestFiles(dir, testWords{names: []string{"parseFormat", "formatter"}, modules: []string{"src/impl/formatter.js"}})
	want := []string{"test/datetime/a0.test.js", "test/datetime/a1.test.js", "test/datetime/a2.test.js", "test/datetime/toFormat.test.js"}
	if d := cmp.Diff(want, tests); d != "" {
		t.Errorf("tests of a suite importing the index (-want +got):\n%s", d)
	}

	// The changed module's directory names a test too (yaml's
	// src/stringify/foldFlowLines.ts: tests/doc/stringify.ts); a source
	// tree's (src/impl) does not.
	if err := os.MkdirAll(filepath.Join(dir, "src/interval"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/interval/splitting.js"), []byte("export function split() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/luxon.js"), []byte("export { default as DateTime } from './datetime';\nexport { split } from './interval/splitting';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests, _ = baseTestFiles(dir, testWords{names: []string{"split"}, modules: []string{"src/interval/splitting.js"}})
	want = []string{"test/datetime/a0.test.js", "test/datetime/a1.test.js", "test/datetime/a2.test.js", "test/interval/info.test.js"}
	if d := cmp.Diff(want, tests); d != "" {
		t.Errorf("tests naming the changed module's directory (-want +got):\n%s", d)
	}
}

// A test importing the package by its own name (yaml's tests: import *
// as YAML from 'yaml', and 'yaml/util'), resolved through package.json to
// the index that reaches the changed module, is run as one importing
// '../src/index' would be; a test of another package is not.
func TestJavaScriptBaseTestFilesImportingThePackageByName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"package.json":                     `{"name": "yaml", "exports": {".": "./dist/index.js", "./util": "./dist/util.js"}}`,
		"src/index.ts":                     "export { stringify } from './stringify/stringify.ts';\n",
		"src/stringify/stringify.ts":       "import { stringifyString } from './stringifyString.ts';\nexport function stringify(v: any) { return stringifyString(v); }\n",
		"src/stringify/stringifyString.ts": "export function stringifyString(v: any) { return blockString(v); }\nfunction blockString(v: any) { return String(v); }\n",
		"tests/doc/stringify.ts":           "import * as YAML from 'yaml';\ntest('pipe', () => expect(YAML.stringify('|')).toBe('|'));\n",
		"tests/doc/util.ts":                "import { foldFlowLines } from 'yaml/util';\ntest('u', () => 1);\n",
		"tests/other.ts":                   "import * as other from 'yaml-other';\ntest('o', () => 1);\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, _ := baseTestFiles(dir, testWords{names: []string{"blockString", "stringifyString"}, modules: []string{"src/stringify/stringifyString.ts"}})
	if d := cmp.Diff([]string{"tests/doc/stringify.ts", "tests/doc/util.ts"}, tests); d != "" {
		t.Errorf("tests (-want +got):\n%s", d)
	}
}

// A failing base's test is filed under the changed function whose changed
// lines it ran most, counting the lines it ran on the base too: a patch
// that takes a fix out (js-yaml's tab check in readBlockMapping) leaves the
// head none of them, while a helper the fix also touched (getLine, one
// line) still has its line on the head.
func TestJavaScriptFailingTestFiledByBothSidesLines(t *testing.T) {
	t.Parallel()
	head, base := t.TempDir(), t.TempDir()
	loader := diffparse.File{Path: "lib/loader.js", Hunks: []diffparse.Hunk{{OldStart: 118, NewStart: 110, Lines: []diffparse.Line{
		{Kind: ' ', Old: 118, New: 110}, {Kind: ' ', Old: 119, New: 111},
		{Kind: '-', Old: 120}, {Kind: '-', Old: 121},
		{Kind: ' ', Old: 122, New: 112},
	}}}}
	sym := diffparse.Symbol{Name: "lib/loader.readBlockMapping", Local: "readBlockMapping", Start: 100, End: 200}
	if d := cmp.Diff([]int{120, 121}, lang.RemovedLines(loader, sym)); d != "" {
		t.Errorf("base side lines (-want +got):\n%s", d)
	}
	fns := []changed{
		{name: "lib/snippet.getLine", baseFile: "lib/snippet.js", headFile: "lib/snippet.js",
			sym: diffparse.Symbol{Start: 5, End: 15, ChangedLines: []int{10}}, baseChanged: []int{10}},
		{name: "lib/loader.readBlockMapping", baseFile: "lib/loader.js", headFile: "lib/loader.js", sym: sym, baseChanged: lang.RemovedLines(loader, sym)},
	}
	abs := func(dir, rel string) string {
		a, _ := filepath.Abs(filepath.Join(dir, rel))
		return a
	}
	headRan := map[string][]int{abs(head, "lib/snippet.js"): {10}, abs(head, "lib/loader.js"): {100, 101, 110, 111}}
	baseRan := map[string][]int{abs(base, "lib/snippet.js"): {10}, abs(base, "lib/loader.js"): {100, 101, 120, 121}}
	got := byLinesRun(sideLines{headRan, head}, sideLines{baseRan, base}, fns, "")
	if d := cmp.Diff([]string{"lib/loader.readBlockMapping", "lib/snippet.getLine"}, got); d != "" {
		t.Errorf("filed under (-want +got):\n%s", d)
	}
}

// A benchmark directory's scripts (culori's benchmark/tests/*.js, which
// time parse() in loops as they load) are not the base's tests, though
// their path holds tests/ and they import the changed module's index:
// laid over the copy, not run, so the suite's own test of the change is
// not left waiting behind them.
func TestJavaScriptBaseTestFilesLeaveBenchmarksOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for rel, text := range map[string]string{
		"src/index.js":                   "export { default as parseHsl } from './hsl/parseHsl.js';\n",
		"src/hsl/parseHsl.js":            "export default function parseHsl(c) { return c; }\n",
		"benchmark/tests/parse-speed.js": "import { parseHsl } from '../../src/index.js';\nfor (let i = 0; i < 1e9; i++) parseHsl('hsl(0 1 2)');\n",
		"benchmarks/parseHsl.test.js":    "import { parseHsl } from '../src/index.js';\ntest('speed', () => parseHsl('x'));\n",
		"test/parse.test.js":             "import { parseHsl } from '../src/index.js';\ntest('hsl', () => expect(parseHsl('a')).toBe('a'));\n",
	} {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, overlay := baseTestFiles(dir, testWords{names: []string{"parseHsl", "parseHsl"}, modules: []string{"src/hsl/parseHsl.js"}})
	if d := cmp.Diff([]string{"test/parse.test.js"}, tests); d != "" {
		t.Errorf("tests run (-want +got):\n%s", d)
	}
	for _, b := range []string{"benchmark/tests/parse-speed.js", "benchmarks/parseHsl.test.js"} {
		if !slices.Contains(overlay, b) {
			t.Errorf("%s is not laid over the copy: %v", b, overlay)
		}
	}
}

// A failing base's test that ran a method's changed lines is filed under
// the method, not under its class: the class's span holds every method's
// changed lines (Fuse's add, remove and removeAt each calling
// _invalidateSearcherCache), so counted whole it always ran as many and
// took the test.
func TestJavaScriptFailingTestFiledUnderTheMethodNotItsClass(t *testing.T) {
	t.Parallel()
	head, base := t.TempDir(), t.TempDir()
	f := diffparse.File{Path: "src/core/index.ts", Language: "typescript", Status: "modified",
		Hunks: []diffparse.Hunk{{OldStart: 20, NewStart: 20, Lines: []diffparse.Line{
			{Kind: ' ', Old: 20, New: 20}, {Kind: '-', Old: 21}, {Kind: ' ', Old: 22, New: 21},
			{Kind: ' ', Old: 30, New: 29}, {Kind: '-', Old: 31}, {Kind: ' ', Old: 32, New: 30},
		}}},
		Symbols: []diffparse.Symbol{
			{Name: "src/core/index.Fuse", Local: "Fuse", Kind: "class", Change: "modified", Start: 1, End: 60, ChangedLines: []int{21, 30}},
			{Name: "src/core/index.Fuse.add", Local: "Fuse.add", Kind: "method", Change: "modified", Start: 18, End: 24, ChangedLines: []int{21}},
			{Name: "src/core/index.Fuse.remove", Local: "Fuse.remove", Kind: "method", Change: "modified", Start: 26, End: 33, ChangedLines: []int{30}},
		}}
	fns := changedFunctions(lang.TraceRun{Diff: &diffparse.Result{Files: []diffparse.File{f}}}, nil, "typescript")
	abs := func(dir, rel string) string {
		a, _ := filepath.Abs(filepath.Join(dir, rel))
		return a
	}
	headRan := map[string][]int{abs(head, "src/core/index.ts"): {2, 18, 19, 20, 21}}
	baseRan := map[string][]int{abs(base, "src/core/index.ts"): {2, 18, 19, 20, 21}}
	got := byLinesRun(sideLines{headRan, head}, sideLines{baseRan, base}, fns, "fails")
	if len(got) == 0 || got[0] != "src/core/index.Fuse.add" {
		t.Errorf("filed under %v, want src/core/index.Fuse.add first", got)
	}
	// A test that ran as many changed lines of two methods (the
	// constructor's setCollection, then add) is filed under the one its
	// name names.
	ctor := changed{name: "src/core/index.Fuse.setCollection", local: "Fuse.setCollection", baseFile: "src/core/index.ts", headFile: "src/core/index.ts",
		sym: diffparse.Symbol{Start: 3, End: 12, ChangedLines: []int{8}}, baseChanged: []int{8}}
	headRan[abs(head, "src/core/index.ts")] = append(headRan[abs(head, "src/core/index.ts")], 3, 4, 5, 6, 7, 8, 9)
	baseRan[abs(base, "src/core/index.ts")] = append(baseRan[abs(base, "src/core/index.ts")], 8)
	got = byLinesRun(sideLines{headRan, head}, sideLines{baseRan, base}, append([]changed{ctor}, fns...), "add invalidates the cache")
	if len(got) == 0 || got[0] != "src/core/index.Fuse.add" {
		t.Errorf("add's test filed under %v, want src/core/index.Fuse.add first", got)
	}
}
