package python

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/validate"
)

//go:embed harness/trace_tests.py
var traceScript []byte

// maxTracedCalls bounds the distinct calls kept per function.
const maxTracedCalls = 20

// tracedCalls runs the base's tests under the tracer and returns, per
// symbol, the calls it saw, with a note when the suite could not run.
func tracedCalls(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) (map[string][]lang.ModelCall, string) {
	if cfg.BaseDir == "" || cfg.Seconds <= 0 {
		return nil, ""
	}
	seconds := cfg.Seconds
	want, rel := map[string]string{}, map[string]string{}
	var names []string
	for _, tg := range targets {
		if tg.Lang != "python" || tg.HeadOnly || tg.BaseFile == "" || tg.Call != "" || (tg.Sym.Kind == "method" && len(tg.Receivers) == 0) {
			continue
		}
		want[filepath.Join(cfg.BaseDir, tg.BaseFile)+":"+tg.Sym.Local] = tg.Sym.Name
		rel[tg.BaseFile+":"+tg.Sym.Local] = tg.Sym.Name
		names = append(names, lang.BareName(tg.Sym.Local), strings.TrimSuffix(path.Base(tg.BaseFile), ".py"))
	}
	if len(want) == 0 {
		return nil, ""
	}
	// The base's tests, found in the base: the patch neither adds nor
	// hides one. Only those naming a target or its module run: a test
	// module that names neither rarely calls one, and the whole suite
	// is what made the traced run the larger part of a run's time.
	present := tracedTests(cfg.BaseDir, names)
	if len(present) == 0 {
		return nil, ""
	}
	python := cfg.Gate.Python
	if python == "" {
		python = "python3"
	}
	// Its result depends only on the merge-base and what is traced: a
	// second run against the same merge-base (every PR of one main in CI,
	// a rerun) reads it back.
	key := traceKey(cfg, rel, present, seconds, python)
	if data, ok := readTraceCache(key); ok {
		if calls, err := decodeTraced(data); err == nil {
			return calls, ""
		}
	}
	dir, err := os.MkdirTemp("", "premise-trace-")
	if err != nil {
		return nil, "traced test run: " + err.Error()
	}
	defer os.RemoveAll(dir)
	script, out := filepath.Join(dir, "trace_tests.py"), filepath.Join(dir, "calls.json")
	if err := os.WriteFile(script, traceScript, 0o644); err != nil {
		return nil, "traced test run: " + err.Error()
	}
	spec, _ := json.Marshal(map[string]any{"targets": want, "max": maxTracedCalls, "seconds": seconds, "tests": present})
	log, err := gate.RunIsolated(ctx, gate.IsolatedCommand{Path: python, Args: []string{script, string(spec), out},
		Dir: cfg.BaseDir, Writable: []string{dir}, Env: append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"), Timeout: time.Duration(seconds+15) * time.Second})
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		why := "it wrote nothing"
		if err != nil {
			why = err.Error()
		}
		return nil, fmt.Sprintf("traced test run: the base's tests did not run (%s): %s", why, lastLine(log))
	}
	calls, derr := decodeTraced(data)
	if derr != nil {
		return nil, "traced test run: " + derr.Error()
	}
	writeTraceCache(key, data)
	if errors.Is(err, gate.ErrTimedOut) {
		return calls, fmt.Sprintf("traced test run: stopped at its budget of %d s", seconds)
	}
	return calls, ""
}

// decodeTraced reads the tracer's output: per symbol, the calls it saw.
func decodeTraced(data []byte) (map[string][]lang.ModelCall, error) {
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

// tracedTests are the base's test files pytest collects (test_*.py,
// *_test.py) whose text names one of names (a target's function, its
// module) as a word.
func tracedTests(baseDir string, names []string) []string {
	return testFilesNaming(baseDir, names, func(base string) bool {
		return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
	})
}

// testFilesNaming are the base's test files whose base name isTest takes
// and whose text names one of names as a word.
func testFilesNaming(baseDir string, names []string, isTest func(base string) bool) []string {
	var alts []string
	for _, n := range names {
		if n != "" && n != "__init__" {
			alts = append(alts, regexp.QuoteMeta(n))
		}
	}
	if len(alts) == 0 {
		return nil
	}
	named := regexp.MustCompile(`\b(` + strings.Join(alts, "|") + `)\b`)
	var out []string
	walkTests(baseDir, func(rel, abs string) bool {
		if !isTest(path.Base(rel)) {
			return true
		}
		if text, err := os.ReadFile(abs); err == nil && named.Match(text) {
			out = append(out, rel)
		}
		return len(out) < lang.MaxTestFiles
	})
	return out
}

// traceKey names a traced run by all its result depends on: the
// merge-base's commit (its code and its tests), the functions traced,
// the test files run, the budget, the interpreter and the tracer itself.
func traceKey(cfg lang.TraceRun, targets map[string]string, tests []string, seconds int, python string) string {
	if cfg.Diff == nil || cfg.Diff.MergeBase == "" {
		return ""
	}
	spec, _ := json.Marshal(map[string]any{"merge_base": cfg.Diff.MergeBase, "targets": targets, "tests": tests,
		"seconds": seconds, "python": python, "max": maxTracedCalls})
	h := sha256.New()
	h.Write(traceScript)
	h.Write(spec)
	return hex.EncodeToString(h.Sum(nil))
}

// traceCacheDir is where traced runs are kept: PREMISE_CACHE_DIR (the
// model's reply cache's setting) or the user's cache directory, under
// traced/; "" when neither exists.
func traceCacheDir() string {
	d := os.Getenv("PREMISE_CACHE_DIR")
	if d == "" {
		u, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		d = filepath.Join(u, "premise")
	}
	return filepath.Join(d, "traced")
}

func readTraceCache(key string) ([]byte, bool) {
	dir := traceCacheDir()
	if key == "" || dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	return data, err == nil
}

// writeTraceCache keeps a traced run's output; a cache that cannot be
// written costs the next run its time, nothing else.
func writeTraceCache(key string, data []byte) {
	dir := traceCacheDir()
	if key == "" || dir == "" {
		return
	}
	_ = atomicfile.WriteFile(filepath.Join(dir, key+".json"), data, 0o644)
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lang.OneLine(lines[len(lines)-1])
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
