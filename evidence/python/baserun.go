package python

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// baseRun is the first run of the merge-base's tests on the base's code:
// each test's outcome, the changed functions it called and the watched
// lines it ran (what the base's tests on both sides start from,
// basetests.go), and the arguments of those calls (the traced inputs,
// traced.go). One run serves both.
type baseRun struct {
	memo  string
	run   gate.PyTestRun
	tests []string
	// tested are the symbols a test must call to run again on the head:
	// the changed functions and the deleted ones, not the entry points
	// that reach them.
	tested map[string]bool
	// first are the words whose tests run first in each module (the
	// changed functions' names, their modules' and packages'), in every
	// run of these tests, so the sides run them in one order.
	first []string
}

// firstRun is the run's baseRun, run once: the base's test files that
// name a target, its module or its package, on the base, traced. Its
// result depends only on the merge-base and what it traces, so a second
// premise run against the same merge-base (every PR of one main in CI,
// a rerun) reads it back. nil when no test names a target.
func (l *pythonLang) firstRun(ctx context.Context, cfg lang.TraceRun, targets []lang.Target) *baseRun {
	if cfg.BaseDir == "" || cfg.Seconds <= 0 {
		return nil
	}
	onBase, rel, tested := map[string]string{}, map[string]string{}, map[string]bool{}
	var funcs, modules, tops []string
	for _, tg := range targets {
		if tg.Lang != "python" || tg.HeadOnly || tg.BaseFile == "" {
			continue
		}
		onBase[filepath.Join(cfg.BaseDir, tg.BaseFile)+":"+tg.Sym.Local] = tg.Sym.Name
		rel[tg.BaseFile+":"+tg.Sym.Local] = tg.Sym.Name
		funcs, modules, tops = append(funcs, lang.BareName(tg.Sym.Local)), append(modules, moduleWord(tg.BaseFile)), append(tops, topPackage(tg.BaseFile))
		if p := parentPackage(tg.BaseFile); p != "" {
			// The package that holds the module: tests import it
			// (from sqlglot.optimizer import ...) and are named after it.
			modules = append(modules, p)
		}
		if len(tg.Reads) == 0 {
			tested[tg.Sym.Name] = true
		}
	}
	if cfg.Diff != nil {
		for _, f := range cfg.Diff.Files {
			for _, sym := range f.Symbols {
				if f.Language == "python" && sym.Change == "deleted" {
					p := f.OldPath
					if p == "" {
						p = f.Path
					}
					onBase[filepath.Join(cfg.BaseDir, p)+":"+sym.Local] = sym.Name
					rel[p+":"+sym.Local] = sym.Name
					tested[sym.Name] = true
				}
			}
		}
	}
	// A function that reads changed module data is traced for its
	// inputs too, though no test of it runs on the head (tested).
	tests := baseTestFiles(cfg.BaseDir, funcs, modules, tops)
	if len(onBase) == 0 || len(tests) == 0 {
		return nil
	}
	python := cfg.Gate.Python
	if python == "" {
		python = "python3"
	}
	// The watch names files by their path in this run's checkout, which
	// a later run's is not: the key and the kept run name them relative
	// to the top.
	top, _ := filepath.Abs(cfg.BaseDir)
	relWatch := map[string][]gate.LineRange{}
	for f, r := range cfg.BaseWatch {
		if rf, err := filepath.Rel(top, f); err == nil {
			relWatch[filepath.ToSlash(rf)] = r
		}
	}
	watched, _ := json.Marshal(relWatch)
	about := python + " base_tests.py " + gate.PythonTestsDigest() + " " + string(watched)
	memo, _ := json.Marshal([]any{rel, tests, cfg.Seconds, about})
	if l.first != nil && l.first.memo == string(memo) {
		return l.first
	}
	br := &baseRun{memo: string(memo), tests: tests, tested: tested, first: slices.Concat(funcs, modules)}
	key := traceKey(cfg, rel, tests, cfg.Seconds, about)
	if data, ok := readTraceCache(cfg.CacheDir, key); ok && json.Unmarshal(data, &br.run) == nil && len(br.run.Order) > 0 {
		rekeyLines(&br.run, func(f string) string { return filepath.Join(top, filepath.FromSlash(f)) })
	} else {
		br.run = gate.PythonTests(ctx, gate.PyTests{Python: python, Dir: cfg.BaseDir, BaseDir: cfg.BaseDir, Tests: tests,
			Targets: onBase, Watch: cfg.BaseWatch, Record: maxTracedCalls, Seconds: cfg.Seconds, First: br.first})
		if br.run.Err == "" && len(br.run.Order) > 0 {
			kept := br.run
			kept.Tests = maps.Clone(br.run.Tests)
			rekeyLines(&kept, func(f string) string {
				rf, _ := filepath.Rel(top, f)
				return filepath.ToSlash(rf)
			})
			if data, err := json.Marshal(kept); err == nil {
				writeTraceCache(cfg.CacheDir, key, data)
			}
		}
	}
	l.first = br
	return br
}

// rekeyLines renames the files of every test's lines in run.
func rekeyLines(run *gate.PyTestRun, name func(string) string) {
	for id, t := range run.Tests {
		if len(t.Lines) == 0 {
			continue
		}
		lines := map[string][]int{}
		for f, ls := range t.Lines {
			lines[name(f)] = ls
		}
		t.Lines = lines
		run.Tests[id] = t
	}
}
