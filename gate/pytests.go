package gate

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/premise-dev/premise/validate"
)

//go:embed harness/base_tests.py
var baseTestsScript []byte

// perTestSeconds bounds one of the base's Python tests.
const perTestSeconds = 5

// pinnedHashSeed is the string hash seed of every run of the base's
// Python tests, base and head alike: a test that depends on a set's order
// passes or fails by the seed, not by the patch.
const pinnedHashSeed = "PYTHONHASHSEED=0"

// PyTestRun is base_tests.py's account of a side's run of the base's
// tests: each test's outcome (passed, skipped, failed: how), the targets
// it called, the last called first, and the watched lines it ran; Err
// says why it did not run.
type PyTestRun struct {
	Order []string `json:"order"`
	Tests map[string]struct {
		Outcome string           `json:"outcome"`
		Reached []string         `json:"reached"`
		Lines   map[string][]int `json:"lines,omitempty"`
		// Variant says, for a variant of a test ("[variant n]" after
		// its id), which of its literals it changed: "'abc' as ''".
		Variant string `json:"variant,omitempty"`
	} `json:"tests"`
	// Calls are, with a Record, the arguments each target was called
	// with: {"symbol": [{"args": [...], "kwargs": {...}}]}, as JSON.
	Calls json.RawMessage `json:"calls,omitempty"`
	// Stopped says the run's time ended it before its last test.
	Stopped bool `json:"stopped,omitempty"`
	// Absent are the modules the tests import that are not installed:
	// each had a stand-in whose every use raises ImportError.
	Absent []string `json:"absent,omitempty"`
	Err    string
}

// PyTests is a run of the merge-base's Python test files on one side.
type PyTests struct {
	Python string
	// Dir is the side's private copy, BaseDir the base's: the test
	// modules are always the base's files.
	Dir, BaseDir string
	// Tests are the test files, relative to BaseDir; Only, when set,
	// names the tests to run.
	Tests, Only []string
	// Targets ("FILE:QUALNAME" -> symbol, FILE in Dir) are the functions
	// whose calls each test's record names; Watch the spans whose lines
	// it records.
	Targets map[string]string
	Watch   Watch
	// Record, when positive, keeps the arguments of up to Record
	// distinct calls of each target whose values JSON carries.
	Record int
	// Amplify names tests that also run once for each variant of their
	// literals (base_tests.py's variants_of), each a test of its own:
	// the test's id with "[variant n]" after it, which Only may name.
	Amplify []string
	// Seconds bounds the run; each test has perTestSeconds.
	Seconds int
	// First are words (a changed function's name, its module's): in each
	// test module, the tests whose names hold one run before the rest,
	// so a budget spent on a large file is spent on them first.
	First []string
}

// PythonTests runs the merge-base's test files on a side's copy, in the
// sealed box (base_tests.py): each test module loaded from the base's
// file under its package's name, pytest's stand-in where it is not
// installed.
func PythonTests(ctx context.Context, spec PyTests) PyTestRun {
	var run PyTestRun
	python, err := ResolvePython(spec.Python)
	if err != nil {
		python = spec.Python // the run says it is missing
		if python == "" {
			python = "python3"
		}
	}
	scratch, err := os.MkdirTemp("", "")
	if err != nil {
		run.Err = err.Error()
		return run
	}
	defer os.RemoveAll(scratch)
	// The tests run in premise's own copy, which may hold what an
	// install would (installPythonMeta).
	from := spec.BaseDir
	if from == "" {
		from = spec.Dir
	}
	if err := installPythonMeta(spec.Dir, from); err != nil {
		run.Err = err.Error()
		return run
	}
	// On the head the tests are the merge-base's, read from its copy,
	// which the head's box keeps read-only. A test that writes beside its
	// own file (a fixture's output next to the module a path relative to
	// the test names) would then fail on the head alone, a false change:
	// the head's run reads them from a copy of the merge-base's tree of
	// its own, which it may write and nothing reads after it.
	base := spec.BaseDir
	if base != "" && !sameDir(base, spec.Dir) {
		copied := filepath.Join(scratch, "tests", filepath.Base(base))
		if err := copyTree(base, copied, scratch); err != nil {
			run.Err = fmt.Sprintf("copy %s: %v", base, err)
			return run
		}
		base = copied
	}
	script, out := filepath.Join(scratch, "run_tests.py"), filepath.Join(scratch, "out.json")
	if err := os.WriteFile(script, baseTestsScript, 0o644); err != nil {
		run.Err = err.Error()
		return run
	}
	args, _ := json.Marshal(map[string]any{"base": base, "tests": spec.Tests, "only": spec.Only, "targets": spec.Targets,
		"watch": json.RawMessage(spec.Watch.encode()), "record": spec.Record, "seconds": spec.Seconds, "per_test": perTestSeconds, "first": spec.First, "amplify": spec.Amplify})
	log, err := RunIsolated(ctx, IsolatedCommand{Path: python, Args: []string{script, string(args), out},
		Dir: spec.Dir, Writable: []string{scratch}, Env: append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", pinnedHashSeed), Timeout: time.Duration(spec.Seconds+15) * time.Second})
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		why := "they wrote nothing"
		if err != nil {
			why = err.Error()
		}
		run.Err = fmt.Sprintf("did not run (%s): %s", why, lastLogLine(log))
		return run
	}
	if err := json.Unmarshal(data, &run); err != nil {
		run.Err = err.Error()
	}
	// A failure that names a file by its path (an OSError's, a test's own
	// message) names it from the top of the tree, as Go's do (gotest.go):
	// premise's copies are new directories on every run, and the same
	// failure must read the same in the register and the draft each time.
	var tops []string
	for _, d := range []string{spec.Dir, spec.BaseDir, base} {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			tops = append(tops, abs+string(filepath.Separator))
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			tops = append(tops, real+string(filepath.Separator))
		}
	}
	for id, t := range run.Tests {
		for _, top := range tops {
			t.Outcome = strings.ReplaceAll(t.Outcome, top, "")
		}
		run.Tests[id] = t
	}
	return run
}

// sameDir says a and b name the same directory.
func sameDir(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

func lastLogLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return FailureText(lines[len(lines)-1])
}

// PythonTestsDigest names base_tests.py's version: a cache of its
// results is keyed by it.
func PythonTestsDigest() string {
	sum := sha256.Sum256(baseTestsScript)
	return hex.EncodeToString(sum[:8])
}

// VariantMark is what follows a test's id in the id of a variant of it
// (PyTests.Amplify), before the variant's place.
const VariantMark = "[variant "

// IsVariant says a test id names a variant of a test.
func IsVariant(id string) bool {
	i := strings.LastIndex(id, VariantMark)
	return i > 0 && strings.HasSuffix(id, "]")
}

// addresses are the places in memory an object's default text names,
// which differ from run to run.
var addresses = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b`)

// VariantEnd is how a variant of a test ended ("passed" or "failed:
// how") as its change and its test row say it: "" for passed, else the
// failure's first line, the places in memory it names aside.
func VariantEnd(outcome string) string {
	if outcome == validate.OutcomePassed {
		return ""
	}
	return addresses.ReplaceAllString(FailureText(strings.TrimPrefix(outcome, "failed: ")), "0x")
}

// goTestMessage is a Go test's own message, at its line of its file
// (t.Errorf's): an assertion, compared whole.
var goTestMessage = regexp.MustCompile(`^[\w.-]+_test\.go:\d+: `)

// VariantKey is what of a variant's end ("passed" or "failed: how") is
// compared: a failed assertion whole (the values the test compared, the
// places in memory they name aside; a Go test's message at its line); any other exception by its class
// alone, as rows compare exceptions (a message reworded is no change);
// "timed out" as it is; "" for passed.
func VariantKey(outcome string) string {
	end := VariantEnd(outcome)
	if end == "" || end == "timed out" || strings.HasPrefix(end, "AssertionError") || goTestMessage.MatchString(end) {
		return end
	}
	if i := strings.IndexAny(end, " :"); i > 0 {
		return end[:i]
	}
	return end
}

// SameEnd says two ends of a test, passed or "failed: how", are the
// same as VariantKey compares them.
func SameEnd(a, b string) bool {
	return VariantKey(a) == VariantKey(b)
}
