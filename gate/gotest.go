package gate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// GoTest runs `go test ARGS` in dir, a package of premise's private copy
// of a tree, in the sealed box the harness is built in (gobuild.go):
// offline, the repository's git directories empty, nothing writable but
// the copy and out (a directory of premise's for what the command writes:
// an -overlay's files, a -coverprofile, the test binary). It builds the
// tests first (go test -c), which may write the build cache, and then
// runs them as a worker runs, where the cache is out of reach: the tests
// are the tree's code acting. It returns the combined output (its last
// 256 KiB) and its error, ErrTimedOut when timeout passed first.
func GoTest(ctx context.Context, cfg GoConfig, dir, out string, args []string, timeout time.Duration) ([]byte, error) {
	return goTest(ctx, cfg, dir, out, args, timeout, true)
}

// goTest is GoTest; without build it runs the test binary an earlier
// GoTest built in out again (args' build flags unused).
func goTest(ctx context.Context, cfg GoConfig, dir, out string, args []string, timeout time.Duration, build bool) ([]byte, error) {
	root, _, err := findModule(dir)
	if err != nil {
		return nil, err
	}
	goPath := cfg.Go
	if goPath == "" {
		goPath = "go"
	}
	// boxGo lets the harness write its binary's directory: here, out.
	// The go command names the binary as go test does (samber/lo's
	// lo.test, a module's root package by its last path element): a test
	// that prints the program's name (a CLI's help, "usage: lo.test")
	// passes here as it does under go test, and the name is no tell.
	h := &harness{root: root, goPath: goPath, cfg: cfg, bin: filepath.Join(out, "_")}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	buildArgs, runArgs := testFlags(args)
	// -vet=off: vet is no test of behaviour, and its checks grow with
	// each Go release, so an older suite (a string(int) conversion) would
	// not build at all. -trimpath: the build cache keys a package built
	// without it by its directory, and premise's copy is a new directory
	// on every run, so each run compiled the package and its tests again
	// (samber/lo's, under -cover, 7 s of a 17 s run, on each side); with
	// it a second copy of the same code is a cache hit (goharness.go's
	// build does the same).
	var b bytes.Buffer
	if build {
		// A binary an earlier run left in out is not these tests: with
		// no test files go test -c writes none.
		old, _ := filepath.Glob(filepath.Join(out, "*.test"))
		for _, o := range old {
			if err := os.Remove(o); err != nil {
				return nil, err
			}
		}
		cmd := exec.CommandContext(ctx, goPath, append([]string{"test", "-c", "-o", out + string(filepath.Separator), "-vet=off", "-trimpath"}, buildArgs...)...)
		err = h.runBoxed(ctx, cmd, dir, &b, h.boxGo)
	}
	if err == nil {
		if bins, _ := filepath.Glob(filepath.Join(out, "*.test")); len(bins) == 1 { // none: no test files
			err = h.runBoxed(ctx, exec.CommandContext(ctx, bins[0], runArgs...), dir, &b, h.boxBuilt)
		}
	} else if !bytes.Contains(b.Bytes(), []byte("[setup failed]")) && ctx.Err() == nil {
		// go test -c says a build failed only by its errors; go test
		// ends them with this line, which GoTests reads.
		fmt.Fprintf(&b, "FAIL\t%s [build failed]\n", dir)
	}
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = ErrTimedOut
	}
	data := b.Bytes()
	if len(data) > 256<<10 {
		data = data[len(data)-256<<10:]
	}
	return data, err
}

// runBoxed runs cmd in dir, boxed by box, its output into b.
func (h *harness) runBoxed(ctx context.Context, cmd *exec.Cmd, dir string, b *bytes.Buffer, box func(context.Context, *exec.Cmd) (func(), error)) error {
	cmd.Dir = dir
	cmd.WaitDelay = 2 * time.Second
	done, err := box(ctx, cmd)
	if err != nil {
		return err
	}
	defer done()
	cmd.Stdout, cmd.Stderr = b, b
	return cmd.Run()
}

// testRunFlags are go test's flags that the test binary reads (as
// -test.NAME); every other flag is the build's.
var testRunFlags = []string{"run", "skip", "v", "timeout", "count", "coverprofile", "cpu", "parallel", "short", "failfast", "shuffle", "bench", "benchtime"}

// testFlags splits go test's flags into the build's and the run's. A
// -coverprofile asks the build for counters too.
func testFlags(args []string) (build, run []string) {
	cover := false
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "cover" || name == "coverpkg" || name == "covermode":
			cover = true
			build = append(build, a)
		case slices.Contains(testRunFlags, name):
			run = append(run, "-test."+strings.TrimLeft(a, "-"))
			if name == "coverprofile" && !cover {
				cover = true
				build = append(build, "-cover")
			}
		default:
			build = append(build, a)
		}
	}
	return build, run
}

// TimedOut is how a test still running when go test's -timeout passed
// failed.
const TimedOut = "timed out"

// GoTestRun is one go test of a package as GoTests reads it: the tests
// that failed (names as go test prints them, subtests included), how each
// failed, and what stopped the run from saying anything of the others (a
// build failure, a panic of the test binary, the time running out).
type GoTestRun struct {
	Failed  map[string]string
	Order   []string
	Stopped string
	// Passed are the tests a verbose run (-v) says passed.
	Passed map[string]bool
	// MissingModule says a module the tests import is not in the
	// module cache, which the box's go command does not fetch.
	MissingModule bool
	// BuildErrors are the places ("x_test.go:12") a failed build's
	// compiler named, without its words (a message may quote the code).
	BuildErrors []string
}

// stopKind says in premise's words what stopped a go test run.
func stopKind(line string) string {
	switch {
	case strings.Contains(line, "panic: test timed out"):
		return "the tests ran out of time"
	case strings.Contains(line, "[setup failed]"):
		return "the tests' package could not be set up (a module it imports missing?)"
	}
	return "the tests did not build"
}

// GoModDownload fetches the modules the go.mod of the module holding dir
// requires into the module cache, as `go mod download` does, with the
// user's own proxy settings, so that the tests' build in the box (which
// fetches nothing) finds them. Only a merge-base's go.mod is given here:
// fetching runs none of the code, and the head's go.mod is never read.
func GoModDownload(ctx context.Context, dir string, timeout time.Duration) error {
	root, _, err := findModule(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off")
	return cmd.Run()
}

// BaseTestsOverlay writes go test's -overlay for the head's package
// directory: each of the head's test files replaced by the base's or
// deleted, each of the base's the head lacks added. Its files live in
// scratch, which the box lets the go command read.
func BaseTestsOverlay(baseDir, headDir, scratch string) (string, error) {
	return VariedOverlay(baseDir, headDir, scratch, "", nil)
}

// VariedOverlay is BaseTestsOverlay with the base's test file called name
// (its base name) read as varied: the file GoVariants wrote. With headDir
// baseDir it is the base's own run of the variants.
func VariedOverlay(baseDir, headDir, scratch, name string, varied []byte) (string, error) {
	replace := map[string]string{}
	heads, _ := filepath.Glob(filepath.Join(headDir, "*_test.go"))
	for _, h := range heads {
		replace[h] = ""
	}
	bases, _ := filepath.Glob(filepath.Join(baseDir, "*_test.go"))
	for i, b := range bases {
		data, err := os.ReadFile(b)
		if err != nil {
			return "", err
		}
		if filepath.Base(b) == name {
			data = varied
		}
		keep := filepath.Join(scratch, fmt.Sprintf("t%d_%s", i, filepath.Base(b)))
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(headDir, filepath.Base(b))] = keep
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	p := filepath.Join(scratch, "overlay.json")
	return p, os.WriteFile(p, data, 0o644)
}

var (
	failLine = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
	passLine = regexp.MustCompile(`^\s*--- PASS: (\S+)`)
	runLine  = regexp.MustCompile(`^=== (?:RUN|CONT)\s+(\S+)`)
	// runningLine is one of the tests a timeout's panic lists.
	// compileError is a compiler's error at a place of a Go file.
	compileError = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: `)
	runningLine  = regexp.MustCompile(`^\s+(Test\S*) \(\S+\)$`)
	stopLines    = regexp.MustCompile(`^(FAIL\s+\S+\s+\[(build|setup) failed\]|panic: test timed out)`)
)

// GoTests runs go test (GoTest) in dir and reads which tests failed.
func GoTests(ctx context.Context, dir, out string, args []string, timeout time.Duration) GoTestRun {
	return goTests(ctx, dir, out, args, timeout, true)
}

// GoTestsAgain is GoTests with the test binary an earlier GoTests built in
// out, not built again: the same tests run with other run flags (-run).
func GoTestsAgain(ctx context.Context, dir, out string, args []string, timeout time.Duration) GoTestRun {
	return goTests(ctx, dir, out, args, timeout, false)
}

func goTests(ctx context.Context, dir, out string, args []string, timeout time.Duration, build bool) GoTestRun {
	run := GoTestRun{Failed: map[string]string{}, Passed: map[string]bool{}}
	if err := os.MkdirAll(out, 0o755); err != nil {
		run.Stopped = err.Error()
		return run
	}
	// The go command builds before the tests' clock starts.
	data, err := goTest(ctx, GoConfig{}, dir, out, args, timeout+60*time.Second, build)
	if errors.Is(err, ErrTimedOut) {
		run.Stopped = "go test ran out of time"
	}
	// Without -v a test's messages follow its "--- FAIL" line; with -v
	// they come before it, after its "=== RUN" (or "=== CONT").
	var last, running string
	timedOut := false           // in the list of tests a timeout's panic says ran
	said := map[string]string{} // verbose: a running test's first message
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if timedOut {
			// "panic: test timed out after 20s" names the tests still
			// running: each of them is what did not end.
			if m := runningLine.FindStringSubmatch(line); m != nil {
				if _, ok := run.Failed[m[1]]; !ok {
					run.Order = append(run.Order, m[1])
					run.Failed[m[1]] = TimedOut
				}
				continue
			}
			if strings.TrimSpace(line) != "running tests:" {
				timedOut = false
			}
		}
		if strings.HasPrefix(line, "panic: test timed out") {
			timedOut = true
		}
		if m := runLine.FindStringSubmatch(line); m != nil {
			running, last = m[1], ""
			continue
		}
		if m := failLine.FindStringSubmatch(line); m != nil {
			last, running = m[1], ""
			if _, ok := run.Failed[last]; !ok {
				run.Order = append(run.Order, last)
				run.Failed[last] = said[last]
			}
			continue
		}
		if m := passLine.FindStringSubmatch(line); m != nil {
			run.Passed[m[1]] = true
			continue
		}
		if strings.Contains(line, "[setup failed]") {
			// What go test says when a module the tests import is not
			// in the cache, which the box's go command cannot write.
			run.MissingModule = true
		}
		if m := compileError.FindStringSubmatch(line); m != nil {
			run.BuildErrors = append(run.BuildErrors, filepath.Base(m[1])+":"+m[2])
		}
		if stopLines.MatchString(line) && run.Stopped == "" {
			// The kind of stop alone: a compiler's message may quote
			// what the code under review put in it (gobuild.go).
			run.Stopped = stopKind(line)
		}
		text := strings.TrimSpace(line)
		if running != "" && said[running] == "" && strings.HasPrefix(line, " ") {
			said[running] = text
		}
		switch {
		case last == "" || text == "" || strings.HasPrefix(text, "=== "):
		case run.Failed[last] == "":
			run.Failed[last] = text
		case strings.HasSuffix(run.Failed[last], ":"):
			// t.Errorf("...:\n%s"): the place, then what failed
			run.Failed[last] += " " + text
		}
	}
	// A message that names a file by its path (testify's "Error Trace"),
	// which -trimpath makes the module's path and the file's, names it
	// from the top of the tree: the same text on every run, and no
	// temporary directory in the report.
	root, modPath, _ := findModule(dir)
	for name, text := range run.Failed {
		if root != "" {
			text = strings.ReplaceAll(text, root+string(filepath.Separator), "")
		}
		if modPath != "" {
			text = strings.ReplaceAll(text, modPath+"/", "")
		}
		run.Failed[name] = FailureText(text)
	}
	return run
}
