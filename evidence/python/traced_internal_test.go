package python

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/suitetest"
)

// TestTracedRunIsKept: the traced run of the base's tests depends only on
// the merge-base and what it traces, so a second run against the same
// merge-base reads the first's calls back instead of running the suite
// again; a test module that names neither a target nor its module is not
// run at all.
func TestTracedRunIsKept(t *testing.T) {
	cache := t.TempDir()
	base := t.TempDir()
	files := map[string]string{
		"geo.py":              "def area(w, h):\n    return w * h\n",
		"tests/test_geo.py":   "from geo import area\n\n\ndef test_square():\n    side = int('3' + '7')\n    assert area(side, side) == 1369\n",
		"tests/test_other.py": "import geo as g\n\n\ndef test_other():\n    g.area(5, 6)\n",
	}
	suitetest.WriteFiles(t, base, files)
	if got := baseTestFiles(base, []string{"area", "geo"}); !reflect.DeepEqual(got, []string{"tests/test_geo.py", "tests/test_other.py"}) {
		t.Errorf("baseTestFiles(area, geo) = %v, want both test modules (one names area, one the module)", got)
	}
	if got := baseTestFiles(base, []string{"volume", "solid"}); len(got) != 0 {
		t.Errorf("baseTestFiles(volume, solid) = %v, want none: no test names them", got)
	}

	cfg := lang.TraceRun{BaseDir: base, Seconds: 20, Diff: &diffparse.Result{MergeBase: "0123456789abcdef0123456789abcdef01234567"}, CacheDir: cache}
	tg := lang.Target{Sym: diffparse.Symbol{Name: "geo.area", Local: "area", Kind: "function"}, Lang: "python", BaseFile: "geo.py"}
	calls, note := (&pythonLang{}).tracedCalls(context.Background(), cfg, []lang.Target{tg})
	if note != "" || len(calls["geo.area"]) != 2 {
		t.Fatalf("first traced run: calls %v, note %q; want area(37, 37) and area(5, 6)", calls, note)
	}
	kept, _ := filepath.Glob(filepath.Join(cache, "traced", "*.json"))
	if len(kept) != 1 {
		t.Fatalf("the traced run was kept in %v, want one file under %s/traced", kept, cache)
	}
	// What the second run returns comes from the kept file, not from a
	// second run of the suite.
	if err := os.WriteFile(kept[0], []byte(`{"order": ["tests/test_geo.py::test_square"], "tests": {}, "calls": {"geo.area": [{"args": [41, 43], "kwargs": {}}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	calls, _ = (&pythonLang{}).tracedCalls(context.Background(), cfg, []lang.Target{tg})
	if got := calls["geo.area"]; len(got) != 1 || !reflect.DeepEqual(got[0].Args, []any{41, 43}) {
		t.Errorf("second run against the same merge-base: %v, want the kept calls [41 43]", got)
	}
	// --no-cache (no cache directory) runs the suite again.
	noCache := cfg
	noCache.CacheDir = ""
	if calls, _ = (&pythonLang{}).tracedCalls(context.Background(), noCache, []lang.Target{tg}); len(calls["geo.area"]) != 2 {
		t.Errorf("without a cache directory: %v, want the suite's own two calls", calls)
	}
	// Another merge-base runs the suite again.
	cfg.Diff = &diffparse.Result{MergeBase: strings.Repeat("f", 40)}
	if calls, _ = (&pythonLang{}).tracedCalls(context.Background(), cfg, []lang.Target{tg}); len(calls["geo.area"]) != 2 {
		t.Errorf("another merge-base: %v, want the suite's own two calls", calls)
	}
}

// TestFirstRunIsKeptAcrossCheckouts: each premise run checks the
// merge-base out afresh, in a new directory; the kept first run of the
// base's tests is read back there all the same (its key and its lines
// name files relative to the top), and its lines name this run's files.
func TestFirstRunIsKeptAcrossCheckouts(t *testing.T) {
	cache := t.TempDir()
	files := map[string]string{
		"geo.py":            "def area(w, h):\n    if w < 0:\n        return 0\n    return w * h\n",
		"tests/test_geo.py": "from geo import area\n\n\ndef test_square():\n    assert area(3, 3) == 9\n",
	}
	checkout := func() string {
		dir := t.TempDir()
		suitetest.WriteFiles(t, dir, files)
		return dir
	}
	tg := lang.Target{Sym: diffparse.Symbol{Name: "geo.area", Local: "area", Kind: "function"}, Lang: "python", BaseFile: "geo.py"}
	run := func(dir string) *baseRun {
		cfg := lang.TraceRun{BaseDir: dir, Seconds: 20, Diff: &diffparse.Result{MergeBase: strings.Repeat("a", 40)},
			BaseWatch: gate.Watch{filepath.Join(dir, "geo.py"): {{From: 1, To: 4}}}, CacheDir: cache}
		return (&pythonLang{}).firstRun(context.Background(), cfg, []lang.Target{tg})
	}
	first := run(checkout())
	if first == nil || first.run.Err != "" || len(first.run.Order) != 1 {
		t.Fatalf("first run: %+v", first)
	}
	kept, _ := filepath.Glob(filepath.Join(cache, "traced", "*.json"))
	if len(kept) != 1 {
		t.Fatalf("kept %v, want one run", kept)
	}
	// Marked, so a second run that reads it back says so.
	data, _ := os.ReadFile(kept[0])
	if err := os.WriteFile(kept[0], []byte(strings.Replace(string(data), `"order":[`, `"order":["marked",`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := checkout()
	second := run(dir)
	if second == nil || len(second.run.Order) != 2 || second.run.Order[0] != "marked" {
		t.Fatalf("a second checkout of the same merge-base ran its tests again: %+v", second)
	}
	lines := second.run.Tests["tests/test_geo.py::test_square"].Lines
	if got := lines[filepath.Join(dir, "geo.py")]; !reflect.DeepEqual(got, []int{2, 4}) {
		t.Errorf("lines read back %v, want lines 2 and 4 of this checkout's geo.py", lines)
	}
}

// TestTracedCallsOfADataReader: a patch that changes only module data
// makes the unchanged functions reading it targets (Reads); their calls
// in the base's tests are still traced as inputs, though no base test of
// them runs on the head for them alone.
func TestTracedCallsOfADataReader(t *testing.T) {
	base := t.TempDir()
	suitetest.WriteFiles(t, base, map[string]string{
		"geo.py":            "SCALE = 2\n\n\ndef area(w, h):\n    return w * h * SCALE\n",
		"tests/test_geo.py": "from geo import area\n\n\ndef test_square():\n    side = int('3' + '7')\n    assert area(side, side) == 2738\n",
	})
	cfg := lang.TraceRun{BaseDir: base, Seconds: 20, Diff: &diffparse.Result{MergeBase: strings.Repeat("b", 40)}}
	tg := lang.Target{Sym: diffparse.Symbol{Name: "geo.area", Local: "area", Kind: "function"}, Lang: "python", BaseFile: "geo.py", Reads: []string{"geo.SCALE"}}
	calls, note := (&pythonLang{}).tracedCalls(context.Background(), cfg, []lang.Target{tg})
	if got := calls["geo.area"]; len(got) != 1 || !reflect.DeepEqual(got[0].Args, []any{37, 37}) {
		t.Errorf("traced calls of a reader of changed data: %v (note %q), want area(37, 37)", calls, note)
	}
}

// The traced run of the base's tests has a budget; the files that test the
// changed function or its module run before those that only import the
// package (parso: its grammar and fuzz tests, first in walk order, spent
// the budget before the file testing the changed module ran).
func TestBaseTestFilesClosestFirst(t *testing.T) {
	dir := t.TempDir()
	suitetest.WriteFiles(t, dir, map[string]string{
		"tests/test_a_grammar.py": "import parso\n\ndef test_grammar():\n    parso.parse('x')\n",
		"tests/test_b_errors.py":  "from parso.python import errors\n\ndef test_rules():\n    errors.ErrorFinder\n",
		"tests/test_c_misc.py":    "import parso\n\ndef test_finalize_word_inside():\n    parso.finalized\n",
		"tests/test_d_context.py": "from parso.python.errors import _Context\n\ndef test_nonlocal():\n    _Context.finalize\n",
	})
	funcs, modules, tops := []string{"finalize"}, []string{"errors"}, []string{"parso"}
	got := baseTestFiles(dir, funcs, modules, tops)
	want := []string{"tests/test_d_context.py", "tests/test_b_errors.py", "tests/test_a_grammar.py", "tests/test_c_misc.py"}
	if !slices.Equal(got, want) {
		t.Errorf("test files in the order %q, want %q", got, want)
	}
}

// Of the files naming a changed function, the one defining a test named
// after it runs first (tqdm: write is named by three other test files, in
// walk order before tests_tqdm.py, which holds test_write_stdout_none;
// the budget ran out before it).
func TestBaseTestFilesWithATestNamedAfterTheFunctionFirst(t *testing.T) {
	dir := t.TempDir()
	suitetest.WriteFiles(t, dir, map[string]string{
		"tests/tests_asyncio.py": "from tqdm import tqdm\n\ndef test_gather():\n    tqdm.write('x')\n",
		"tests/tests_logging.py": "from tqdm import tqdm\n\ndef test_handler():\n    tqdm.write('y')\n",
		"tests/tests_tqdm.py":    "from tqdm import tqdm\n\ndef test_write_stdout_none():\n    tqdm.write('z')\n",
	})
	got := baseTestFiles(dir, []string{"write"}, []string{"std"}, []string{"tqdm"})
	if len(got) == 0 || got[0] != "tests/tests_tqdm.py" {
		t.Errorf("test files in the order %q, want tests/tests_tqdm.py first", got)
	}
}

// Within a tier, the test files named after what changed run first: for
// sqlglot/optimizer/simplify.py, test_optimizer.py (named after the
// module's package) before the dialect tests that also name simplify,
// which once spent the whole budget first.
func TestBaseTestFilesNamedAfterTheChangeFirst(t *testing.T) {
	dir := t.TempDir()
	suitetest.WriteFiles(t, dir, map[string]string{
		"tests/dialects/test_clickhouse.py": "from sqlglot.optimizer import simplify\n\ndef test_x():\n    simplify\n",
		"tests/test_executor.py":            "from sqlglot import optimizer\n\ndef test_y():\n    optimizer\n",
		"tests/test_optimizer.py":           "from sqlglot.optimizer import simplify\n\ndef test_simplify():\n    simplify\n",
	})
	file := "sqlglot/optimizer/simplify.py"
	got := baseTestFiles(dir, []string{"simplify_parens"}, []string{moduleWord(file), parentPackage(file)}, []string{topPackage(file)})
	want := []string{"tests/test_optimizer.py", "tests/dialects/test_clickhouse.py", "tests/test_executor.py"}
	if !slices.Equal(got, want) {
		t.Errorf("baseTestFiles = %v, want %v", got, want)
	}
	for file, want := range map[string]string{"sqlglot/optimizer/simplify.py": "optimizer", "geo.py": "", "pkg/mod.py": "", "src/pkg/mod.py": "", "src/pkg/sub/mod.py": "sub"} {
		if got := parentPackage(file); got != want {
			t.Errorf("parentPackage(%s) = %q, want %q", file, got, want)
		}
	}
}
