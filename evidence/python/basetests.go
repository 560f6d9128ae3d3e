package python

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

//go:embed harness/base_tests.py
var baseTestsScript []byte

// maxRerun bounds the failing tests run again on the base.
const maxRerun = 8

// perTestSeconds bounds one test.
const perTestSeconds = 5

func (*pythonLang) BaseTests(ctx context.Context, cfg lang.TestRun, targets []lang.Target) ([]lang.TestFailure, []string) {
	return baseTests(ctx, cfg, targets)
}

// baseTests runs the merge-base's test files that name a changed
// function or its module on both sides: on the base's tree, and on the
// head's with each test module loaded from the base's file (so the head
// neither edits nor deletes one; base_tests.py). A test the base passes
// and the head fails, passed again by the base, is a failure; the
// head's run says which changed functions it called.
func baseTests(ctx context.Context, cfg lang.TestRun, targets []lang.Target) ([]lang.TestFailure, []string) {
	if cfg.BaseDir == "" || cfg.HeadDir == "" || cfg.Seconds <= 0 {
		return nil, nil
	}
	want := map[string]string{}
	var names []string
	for _, tg := range targets {
		if tg.Lang != "python" || tg.HeadOnly || tg.BaseFile == "" || len(tg.Reads) > 0 {
			continue
		}
		want[filepath.Join(cfg.HeadDir, tg.BaseFile)+":"+tg.Sym.Local] = tg.Sym.Name
		names = append(names, lang.BareName(tg.Sym.Local), strings.TrimSuffix(path.Base(tg.BaseFile), ".py"))
	}
	if len(want) == 0 {
		return nil, nil
	}
	tests := baseTestFiles(cfg.BaseDir, names)
	if len(tests) == 0 {
		return nil, nil
	}
	python := cfg.Gate.Python
	if python == "" {
		python = "python3"
	}
	var base, head testRun
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		base = runBaseTests(ctx, python, cfg.BaseDir, cfg.BaseDir, tests, nil, nil, cfg.Seconds)
	}()
	go func() {
		defer wg.Done()
		head = runBaseTests(ctx, python, cfg.HeadDir, cfg.BaseDir, tests, nil, want, cfg.Seconds)
	}()
	wg.Wait()
	if base.err != "" {
		return nil, []string{"the base's tests: " + base.err}
	}
	var failing []string
	for _, id := range head.Order {
		if strings.HasPrefix(head.Tests[id].Outcome, "failed") && base.Tests[id].Outcome == "passed" {
			failing = append(failing, id)
		}
	}
	if len(failing) == 0 {
		return nil, nil
	}
	failing = failing[:min(len(failing), maxRerun)]
	again := runBaseTests(ctx, python, cfg.BaseDir, cfg.BaseDir, tests, failing, nil, cfg.Seconds)
	var out []lang.TestFailure
	var notes []string
	gone := lang.DeletedNames(cfg.Diff, "python")
	for _, id := range failing {
		if again.Tests[id].Outcome != "passed" {
			continue // the base fails it now and then
		}
		how := strings.TrimPrefix(head.Tests[id].Outcome, "failed: ")
		if name := usesGone(how, gone); name != "" {
			notes = append(notes, fmt.Sprintf("the base's test %s uses %s, which the patch removes: not run against the head", id, name))
			continue
		}
		file, test, _ := strings.Cut(id, "::")
		out = append(out, lang.TestFailure{Test: test, File: file, Symbols: head.Tests[id].Reached, Head: lang.FailureText(how)})
	}
	return out, notes
}

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

// testRun is base_tests.py's output.
type testRun struct {
	Order []string `json:"order"`
	Tests map[string]struct {
		Outcome string   `json:"outcome"`
		Reached []string `json:"reached"`
	} `json:"tests"`
	err string
}

func runBaseTests(ctx context.Context, python, dir, baseDir string, tests, only []string, targets map[string]string, seconds int) testRun {
	var run testRun
	scratch, err := os.MkdirTemp("", "")
	if err != nil {
		run.err = err.Error()
		return run
	}
	defer os.RemoveAll(scratch)
	script, out := filepath.Join(scratch, "run_tests.py"), filepath.Join(scratch, "out.json")
	if err := os.WriteFile(script, baseTestsScript, 0o644); err != nil {
		run.err = err.Error()
		return run
	}
	spec, _ := json.Marshal(map[string]any{"base": baseDir, "tests": tests, "only": only, "targets": targets,
		"seconds": seconds, "per_test": perTestSeconds})
	log, err := gate.RunIsolated(ctx, gate.IsolatedCommand{Path: python, Args: []string{script, string(spec), out},
		Dir: dir, Writable: []string{scratch}, Env: append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"), Timeout: time.Duration(seconds+15) * time.Second})
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		why := "they wrote nothing"
		if err != nil {
			why = err.Error()
		}
		run.err = fmt.Sprintf("did not run (%s): %s", why, lastLine(log))
		return run
	}
	if err := json.Unmarshal(data, &run); err != nil {
		run.err = err.Error()
	}
	return run
}

// baseTestFiles are the base's test files (test_*.py, *_test.py,
// tests.py) whose text names one of names as a word.
func baseTestFiles(baseDir string, names []string) []string {
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
		base := path.Base(rel)
		if !strings.HasPrefix(base, "test") && !strings.HasSuffix(base, "_test.py") {
			return true
		}
		if text, err := os.ReadFile(abs); err == nil && named.Match(text) {
			out = append(out, rel)
		}
		return len(out) < lang.MaxTestFiles
	})
	return out
}
