package gate

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/premise-dev/premise/validate"
)

// A test row (validate.Row.Test) names one of the merge-base's tests: a
// reviewer's decision on a change a base's test showed (evidence's
// basetests.go) is kept by running that test again, the base's test file
// laid over the code's own, and comparing its outcome with the row's
// expect: passed (a regression the head must undo) or failed (an intended
// change, which a later commit that restores the base's behaviour undoes).

// TestRunner runs one test row's test on the code and says passed or
// failed, with how it failed; the error is a test that could not run at
// all (not found, not built), never a pass.
type TestRunner func(ctx context.Context, test string) (outcome, why string, err error)

// testRowAttempts is how many times a test row's test runs at most: once,
// and once more when it did not do what the row expects.
const testRowAttempts = 2

// testRow runs a test row.
func (rn *Runner) testRow(ctx context.Context, p plannedRow, reruns int) RowResult {
	r := p.row
	res := RowResult{ID: r.ID, Hash: p.hash, Kind: r.Kind, Cls: r.Cls, Target: p.target, Line: r.SrcLine, meaning: p.meaning}
	if rn.Tests == nil {
		res.Status, res.Seen = StatusError, []string{StatusError}
		res.Why = "a test row runs one of the base's tests, and the gate has no base: pass --base REV"
		return res
	}
	want := r.Expect.Outcome
	// A variant of a test (one of its literals replaced) often fails on
	// both sides: how it failed is its outcome (VariantKey: a failed
	// assertion whole, another exception by its class).
	variant := IsVariant(r.Test)
	if how, _ := r.Expect.Value.(string); variant && want == validate.OutcomeFailed {
		want += ": " + VariantKey(validate.OutcomeFailed+": "+how)
	}
	for i := 0; i < min(reruns, testRowAttempts); i++ {
		got, why, err := rn.Tests(ctx, r.Test)
		if err != nil {
			res.Status, res.Broken, res.Seen = StatusError, true, append(res.Seen, StatusError)
			res.Why = fmt.Sprintf("the base's test %s could not run: %v", r.Test, err)
			return res
		}
		why = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(why), ":"))
		if variant && got == validate.OutcomeFailed {
			got += ": " + VariantKey(validate.OutcomeFailed+": "+why)
		}
		res.Seen = append(res.Seen, got)
		if got == want {
			break
		}
		if why != "" && !variant {
			got += ": " + why
		}
		res.Why = fmt.Sprintf("the base's test %s %s; the row expects %s", r.Test, got, want)
	}
	switch {
	case res.Seen[len(res.Seen)-1] != want:
		res.Status, res.Broken = StatusFail, true
	case len(res.Seen) > 1:
		res.Status = StatusFlake
	default:
		res.Status, res.Why = StatusPass, ""
	}
	return res
}

// baseTestRunner runs test rows of a table in language langName on the
// code in dir with the base's test files from baseDir.
func baseTestRunner(cfg Config, langName, dir, baseDir string) TestRunner {
	return func(ctx context.Context, test string) (string, string, error) {
		file, name, ok := strings.Cut(test, ": ")
		if !ok || file == "" || name == "" {
			return "", "", fmt.Errorf("test %q: want FILE: NAME", test)
		}
		if err := Inside(filepath.Join(baseDir, file), baseDir); err != nil {
			return "", "", fmt.Errorf("test %q: %w", test, err)
		}
		seconds := 60
		switch langName {
		case validate.LangGo:
			return goTestRow(ctx, dir, baseDir, file, name, seconds)
		case validate.LangPython, "":
			python := cfg.Python
			if python == "" {
				python = "python3"
			}
			run := PythonTests(ctx, PyTests{Python: python, Dir: dir, BaseDir: baseDir, Tests: []string{file}, Only: []string{file + "::" + name}, Seconds: seconds})
			if run.Err != "" {
				return "", "", fmt.Errorf("%s", run.Err)
			}
			got, ran := run.Tests[file+"::"+name]
			switch {
			case !ran:
				return "", "", fmt.Errorf("%s has no test %s", file, name)
			case got.Outcome == validate.OutcomePassed:
				return validate.OutcomePassed, "", nil
			case got.Outcome == "skipped":
				return "", "", fmt.Errorf("%s was skipped", name)
			}
			return validate.OutcomeFailed, strings.TrimPrefix(got.Outcome, "failed"), nil
		case validate.LangJavaScript, validate.LangTypeScript:
			return nodeTestRow(ctx, cfg.Node, dir, baseDir, file, name, seconds)
		}
		return "", "", fmt.Errorf("premise runs the base's tests of Python, Go, JavaScript and TypeScript, not %s", langName)
	}
}

// maxTestRowOverlay bounds the base's files laid beside a JavaScript
// test row's test (its directory's helpers and fixtures).
const maxTestRowOverlay = 400

// nodeTestRow runs the JavaScript or TypeScript test name (its describe
// blocks' names and its own, joined by " > ") of the base's test file,
// the base's files of its directory laid over the code beside it, in the
// Node box as evidence ran it (RunNodeTests). The file is named as the
// run named it: a TypeScript test by its source or by its output's name.
func nodeTestRow(ctx context.Context, node, dir, baseDir, file, name string, seconds int) (string, string, error) {
	// The base's checkout premise made holds a TypeScript test's output
	// beside it, which is what runs (a TypeScript test beside a
	// JavaScript one of its name is not compiled over it); a file named
	// by its output is the source where no output is there.
	ext := filepath.Ext(file)
	stem := strings.TrimSuffix(file, ext)
	var cands []string
	if out, ok := transpiledExt[ext]; ok {
		cands = append(cands, stem+out)
	}
	cands = append(cands, file)
	for _, e := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		cands = append(cands, stem+e)
	}
	src := ""
	for _, c := range cands {
		if st, err := os.Stat(filepath.Join(baseDir, c)); err == nil && st.Mode().IsRegular() {
			src = c
			break
		}
	}
	if src == "" {
		return "", "", fmt.Errorf("the base has no test file %s", file)
	}
	var overlay []string
	testDir := filepath.Dir(filepath.Join(baseDir, src))
	_ = filepath.WalkDir(testDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(overlay) >= maxTestRowOverlay {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel, err := filepath.Rel(baseDir, p); err == nil && d.Type().IsRegular() && filepath.ToSlash(rel) != filepath.ToSlash(src) {
			overlay = append(overlay, filepath.ToSlash(rel))
		}
		return nil
	})
	run := RunNodeTests(ctx, NodeTests{Node: node, Dir: dir, BaseDir: baseDir, Tests: []string{src}, Overlay: overlay, Seconds: seconds})
	if run.Err != "" {
		return "", "", fmt.Errorf("%s", run.Err)
	}
	got, ran := run.Tests[file+" > "+name]
	if !ran {
		got, ran = run.Tests[src+" > "+name]
	}
	switch {
	case !ran:
		if why := run.Files[src]; why != "" {
			return "", "", fmt.Errorf("%s did not load: %s", src, why)
		}
		return "", "", fmt.Errorf("%s has no test %s", src, name)
	case got.Outcome == validate.OutcomePassed:
		return validate.OutcomePassed, "", nil
	case strings.HasPrefix(got.Outcome, "failed"):
		return validate.OutcomeFailed, strings.TrimPrefix(got.Outcome, "failed"), nil
	}
	return "", "", fmt.Errorf("%s: %s", name, got.Outcome)
}

// goTestRow runs the Go test name (TestX or TestX/sub) of the package
// holding file.
func goTestRow(ctx context.Context, dir, baseDir, file, name string, seconds int) (string, string, error) {
	pkg := filepath.Dir(file)
	scratch, cleanup, err := scratchDir()
	if err != nil {
		return "", "", err
	}
	defer cleanup()
	if IsVariant(name) {
		return goVariantRow(ctx, dir, baseDir, file, name, scratch, seconds)
	}
	overlay, err := BaseTestsOverlay(filepath.Join(baseDir, pkg), filepath.Join(dir, pkg), scratch)
	if err != nil {
		return "", "", err
	}
	// The test alone, a subtest by each level's name (another subtest of
	// its test may fail), verbose: a test passed only where go test says
	// so, never because it did not run.
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	run := GoTests(ctx, filepath.Join(dir, pkg), filepath.Join(scratch, "out"),
		[]string{"-count=1", "-v", fmt.Sprintf("-timeout=%ds", seconds), "-overlay=" + overlay, "-run=" + strings.Join(levels, "/")},
		time.Duration(seconds)*time.Second)
	if how, failed := run.Failed[name]; failed {
		return validate.OutcomeFailed, how, nil
	}
	switch {
	case run.Stopped != "":
		return "", "", fmt.Errorf("%s", run.Stopped)
	case !run.Passed[name]:
		return "", "", fmt.Errorf("%s has no test %s", pkg, name)
	}
	return validate.OutcomePassed, "", nil
}

// goVariantRow runs a variant of a Go test (GoVariants), made again from
// the base's test file, on the code in dir.
func goVariantRow(ctx context.Context, dir, baseDir, file, name, scratch string, seconds int) (string, string, error) {
	pkg := filepath.Dir(file)
	test := name[:strings.LastIndex(name, VariantMark)]
	src, err := os.ReadFile(filepath.Join(baseDir, file))
	if err != nil {
		return "", "", err
	}
	varied, vs, err := GoVariants(src, []string{test}, GoVariantsPerTest, nil)
	if err != nil {
		return "", "", fmt.Errorf("%s: %v", file, err)
	}
	i := slices.IndexFunc(vs, func(v GoVariant) bool { return v.ID == name })
	if i < 0 {
		return "", "", fmt.Errorf("%s has no test %s", file, name)
	}
	overlay, err := VariedOverlay(filepath.Join(baseDir, pkg), filepath.Join(dir, pkg), scratch, filepath.Base(file), varied)
	if err != nil {
		return "", "", err
	}
	run := GoTests(ctx, filepath.Join(dir, pkg), filepath.Join(scratch, "out"),
		[]string{"-count=1", "-v", fmt.Sprintf("-timeout=%ds", seconds), "-overlay=" + overlay, "-run=^" + regexp.QuoteMeta(vs[i].Func) + "$"},
		time.Duration(seconds)*time.Second)
	end, ran := GoVariantEnd(run, vs[i])
	switch {
	case !ran && run.Stopped != "":
		return "", "", fmt.Errorf("%s", run.Stopped)
	case !ran:
		return "", "", fmt.Errorf("%s did not run", name)
	case end == "":
		return validate.OutcomePassed, "", nil
	}
	return validate.OutcomeFailed, end, nil
}

// scratchDir is a temporary directory of premise's and its removal.
func scratchDir() (string, func(), error) {
	d, err := os.MkdirTemp("", "")
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}
