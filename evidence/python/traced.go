package python

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/validate"
)

// maxTracedCalls bounds the distinct calls kept per function.
const maxTracedCalls = 20

// tracedCalls are, per symbol, the calls the base's tests made of it in
// their first run on the base (firstRun), with a note when they could not
// run. A method's calls count only where the run builds it a receiver, a
// function reached through a call expression (Call) not at all.
func (l *pythonLang) tracedCalls(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) (map[string][]lang.ModelCall, string) {
	first := l.firstRun(ctx, cfg, targets)
	if first == nil {
		return nil, ""
	}
	if first.run.Err != "" {
		return nil, "traced test run: the base's tests did not run: " + first.run.Err
	}
	all, err := decodeTraced(first.run.Calls)
	if err != nil {
		return nil, "traced test run: " + err.Error()
	}
	calls := map[string][]lang.ModelCall{}
	for _, tg := range targets {
		if tg.Lang == "python" && tg.Call == "" && (tg.Sym.Kind != "method" || len(tg.Receivers) > 0) && len(all[tg.Sym.Name]) > 0 {
			calls[tg.Sym.Name] = all[tg.Sym.Name]
		}
	}
	if first.run.Stopped {
		return calls, fmt.Sprintf("traced test run: stopped at its budget of %d s", cfg.Seconds)
	}
	return calls, ""
}

// decodeTraced reads the tracer's output: per symbol, the calls it saw.
func decodeTraced(data []byte) (map[string][]lang.ModelCall, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var got map[string][]struct {
		Args   []any          `json:"args"`
		Kwargs map[string]any `json:"kwargs"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // 37 stays an int, as the test passed it
	if err := dec.Decode(&got); err != nil {
		return nil, err
	}
	calls := map[string][]lang.ModelCall{}
	for sym, cs := range got {
		for _, c := range cs {
			args, ok := jsonvalue.Numbers(c.Args).([]any)
			if !ok {
				return nil, fmt.Errorf("%s: a call without arguments", sym)
			}
			mc := lang.ModelCall{Args: args}
			if len(c.Kwargs) > 0 {
				mc.Kwargs, _ = jsonvalue.Numbers(c.Kwargs).(map[string]any)
			}
			calls[sym] = append(calls[sym], mc)
		}
	}
	return calls, nil
}

// testFilesNaming are the base's test files whose base name isTest takes
// and whose text names a word of one of tiers, ordered by the first tier
// each names (walk order within a tier): the traced run has a budget, and
// the files closest to the change run first.
func testFilesNaming(baseDir string, isTest func(base string) bool, tiers ...[]string) []string {
	var named []*regexp.Regexp
	for _, names := range tiers {
		var alts []string
		for _, n := range names {
			if n != "" && n != "__init__" {
				alts = append(alts, regexp.QuoteMeta(n))
			}
		}
		if len(alts) > 0 {
			named = append(named, regexp.MustCompile(`\b(`+strings.Join(alts, "|")+`)\b`))
		}
	}
	if len(named) == 0 {
		return nil
	}
	byTier := make([][]string, len(named))
	// testsNamed are the files defining a test whose name holds a word of
	// the first tier, a changed function's (def test_write_stdout_none
	// for write).
	var testNamed *regexp.Regexp
	if alts := wordAlternatives(tiers[0]); alts != "" {
		testNamed = regexp.MustCompile(`(?i)def\s+test\w*(` + alts + `)`)
	}
	testsNamed := map[string]bool{}
	found := 0
	walkTests(baseDir, func(rel, abs string) bool {
		if !isTest(path.Base(rel)) {
			return true
		}
		text, err := os.ReadFile(abs)
		if err != nil {
			return true
		}
		for i, re := range named {
			if re.Match(text) {
				byTier[i] = append(byTier[i], rel)
				found++
				break
			}
		}
		if testNamed != nil && testNamed.Match(text) {
			testsNamed[rel] = true
		}
		return found < lang.MaxTestFiles
	})
	// Within a tier, a file named after one of the earlier tiers' words
	// (test_simplify.py, test_optimizer.py for optimizer/simplify.py) goes
	// first: suites name their files after what they test.
	for i, files := range byTier {
		words := slices.Concat(tiers[:min(i+1, max(len(tiers)-1, 1))]...)
		named := func(rel string) bool {
			stem := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(path.Base(rel), "test_"), ".py"))
			stem = strings.TrimSuffix(strings.TrimPrefix(stem, "test"), "_test")
			for _, w := range words {
				if w, ok := fileWord(w); ok && strings.Contains(stem, strings.ToLower(w)) {
					return true
				}
			}
			return false
		}
		// Of the files naming a changed function, one defining a test
		// named after it comes first of all: tqdm's tests_tqdm.py, with
		// test_write_stdout_none, after the three others naming write.
		rank := func(rel string) int {
			r := 0
			if i == 0 && testsNamed[rel] {
				r += 2
			}
			if named(rel) {
				r++
			}
			return r
		}
		slices.SortStableFunc(files, func(a, b string) int { return rank(b) - rank(a) })
	}
	return slices.Concat(byTier...)
}

// wordAlternatives is the names as one regular expression's alternatives,
// "" when there are none.
func wordAlternatives(names []string) string {
	var alts []string
	for _, n := range names {
		if w, ok := fileWord(n); ok {
			alts = append(alts, regexp.QuoteMeta(w))
		}
	}
	return strings.Join(alts, "|")
}

// fileWord is a changed name as a test's file or function name holds it
// (test_init.py, def test_init_... for __init__): its underscores trimmed,
// and only when more than two letters are left.
func fileWord(name string) (string, bool) {
	w := strings.Trim(name, "_")
	return w, len(w) > 2
}

// traceKey names a traced run by all its result depends on: the
// merge-base's commit (its code and its tests), the functions traced,
// the test files run, the budget, and python (the interpreter, the
// runner's version and what else it is told).
func traceKey(cfg lang.TraceRun, targets map[string]string, tests []string, seconds int, python string) string {
	if cfg.Diff == nil || cfg.Diff.MergeBase == "" {
		return ""
	}
	spec, _ := json.Marshal(map[string]any{"merge_base": cfg.Diff.MergeBase, "targets": targets, "tests": tests,
		"seconds": seconds, "python": python, "max": maxTracedCalls})
	h := sha256.Sum256(spec)
	return hex.EncodeToString(h[:])
}

// traceCache is the traced run kept under key in premise's cache
// directory dir ("": none kept).
func traceCache(dir, key string) string {
	if key == "" || dir == "" {
		return ""
	}
	return filepath.Join(dir, "traced", key+".json")
}

func readTraceCache(dir, key string) ([]byte, bool) {
	p := traceCache(dir, key)
	if p == "" {
		return nil, false
	}
	data, err := os.ReadFile(p)
	return data, err == nil
}

// writeTraceCache keeps a traced run's output; a cache that cannot be
// written costs the next run its time, nothing else.
func writeTraceCache(dir, key string, data []byte) {
	if p := traceCache(dir, key); p != "" {
		_ = atomicfile.WriteFile(p, data, 0o644)
	}
}

// tracedRows are the calls the traced run saw of tg, as rows: a method's
// on its first receiver.
func tracedRows(tg lang.Target, calls []lang.ModelCall) []validate.Row {
	var rows []validate.Row
	for _, c := range calls {
		args := c.Args
		if tg.Receivers != nil {
			args = append([]any{tg.Receivers[0]}, args...)
		}
		rows = append(rows, methodRow("traced", args, c.Kwargs))
	}
	return rows
}
