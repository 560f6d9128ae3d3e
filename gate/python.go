package gate

import (
	"context"
	_ "embed"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed harness/python_worker.py
var pythonWorker string

// pythonBoot runs the harness (its source the first argument) in a module
// named like an ordinary helper rather than in __main__, leaves nothing of
// its own in __main__'s globals, and drops the source and the protocol's
// arguments from sys.argv once read.
const pythonBoot = `(lambda m: (exec(compile(__import__("sys").argv.pop(1), "<frozen runpy>", "exec"), m.__dict__), m.main()))(type(__import__("sys"))("runpy"))`

// PythonConfig configures the Python adapter. Zero values take the defaults.
type PythonConfig struct {
	// Interpreter is the Python to run, a name looked up on PATH or a path;
	// "python3" when empty. It is resolved to an absolute path once, in
	// NewPythonAdapter: a pyenv shim costs hundreds of milliseconds a start.
	Interpreter string
	// Dir is the repository root: the worker's working directory and the
	// first entry of sys.path, so "intervals.merge_ranges" imports
	// Dir/intervals.py. The current directory when empty.
	Dir string
	// Timeout bounds one call (DefaultTimeout when zero). A call that passes
	// it has its worker's process group killed and is a timeout.
	Timeout time.Duration
	// Grace is how long a killed worker gets between SIGTERM and SIGKILL
	// (DefaultGrace when zero).
	Grace time.Duration
	// MaxFrame bounds one protocol line in bytes (DefaultMaxFrame when zero).
	MaxFrame int
	// MemoryLimit is the worker's address-space limit (RLIMIT_AS) in bytes:
	// DefaultMemoryLimit when zero, none when negative.
	MemoryLimit int64
	// Env is the worker's environment; os.Environ() when nil.
	Env []string
	// HashSeed is the worker's PYTHONHASHSEED. Zero is the pinned seed
	// every worker gets unless asked otherwise (pythonEnv); evidence reruns
	// a changed row under others to tell a hash-order artefact from a
	// change (issue 13, part 5).
	HashSeed uint32
	// Watch is the lines each reply reports the call ran (watch.go).
	Watch Watch
}

// NewPythonAdapter returns an Adapter that runs calls in a long-lived Python
// worker: premise's embedded, standard-library-only harness, speaking the
// runner protocol on fds 3 and 4 so that the subject's prints cannot corrupt
// it. Targets are dotted paths: a module path then attributes
// ("intervals.merge_ranges", "pkg.mod.Class.method"). A raise is reported
// with its class name and its `code` attribute. The worker runs in its own
// session and process group and dies with premise.
//
// NewPythonAdapter fails, with an *InfraError, only when the interpreter
// cannot be found; the worker itself starts on the first Call, and a target
// that does not import makes Call return an *InfraError.
func NewPythonAdapter(cfg PythonConfig) (Adapter, error) {
	path, err := ResolvePython(cfg.Interpreter)
	if err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("python adapter: %w", err)
	}
	spec := newSpec(path, dir, pythonEnv(cfg.Env, cfg.HashSeed), cfg.Timeout, cfg.Grace, cfg.MaxFrame)
	spec.roots = treeRoots(spec.dir)
	mem := cfg.MemoryLimit
	if mem == 0 {
		mem = DefaultMemoryLimit
	}
	if mem < 0 {
		mem = 0
	}
	// -s: no user site directory (HOME is the worker's, where a subject
	// could plant a .pth the next worker would run); -B: write no
	// bytecode into the repository under review; the harness keeps the
	// working directory off sys.path until it has imported all it needs,
	// so a file the head adds (resource.py) cannot shadow a module the
	// harness uses (issue 26, item 3). -I would also
	// ignore PYTHONHASHSEED. The harness runs in a module of its own, not
	// __main__, and its protocol fds are drawn from a high range per worker
	// (issue 26, item 7: fewer tells).
	spec.fdBase = 64 + int(rand.Uint32N(128))
	boot, code := workerBoot(path)
	spec.args = []string{"-s", "-B", "-c", boot, code, dir, strconv.Itoa(spec.maxFrame), strconv.FormatInt(mem, 10),
		strconv.Itoa(spec.fdBase), strconv.Itoa(spec.fdBase + 1), strconv.Itoa(spec.fdBase + 2), cfg.Watch.encode(), boxedArg()}
	spec.pageArg = 10 // PAGE_FD
	spec.ready, spec.progress = true, true
	spec.check = checkPythonCall
	spec.floats = true
	spec.traces = len(cfg.Watch) > 0
	return &procAdapter{spec: spec}, nil
}

// boxedArg is the Python worker's BOXED: "1" where sandbox starts it under
// premise's init in a PID namespace of its own (it then kills what each
// call leaves behind), else "0".
func boxedArg() string {
	if namespacesAllowed() {
		return "1"
	}
	return "0"
}

// ResolvePython finds the interpreter called name ("python3" when empty) and
// the real executable behind a version manager's shim, once a process: a
// run that judges no Python never pays a shim's start, and one that does
// pays it once. An error is an *InfraError: the interpreter is missing.
func ResolvePython(name string) (string, error) {
	if name == "" {
		name = "python3"
	}
	if r, ok := resolved.Load(name); ok {
		return r.(string), nil
	}
	path, err := resolvePython(name)
	if err == nil {
		resolved.Store(name, path)
	}
	return path, err
}

// resolved are the interpreters ResolvePython found, by name.
var resolved sync.Map

func resolvePython(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", &InfraError{Reason: fmt.Sprintf("python interpreter %q not found: %v", name, err)}
	}
	if path, err = filepath.Abs(path); err != nil {
		return "", &InfraError{Reason: fmt.Sprintf("python interpreter %q: %v", name, err)}
	}
	return realInterpreter(path), nil
}

// realInterpreter asks the interpreter once for sys.executable, so that
// every worker start skips a version manager's shim (pyenv's costs hundreds
// of milliseconds a start; DESIGN.md). On any doubt it keeps path.
func realInterpreter(path string) string {
	if f, err := os.Open(path); err == nil {
		head := make([]byte, 2)
		_, _ = f.Read(head)
		f.Close()
		if string(head) != "#!" {
			return path // a binary, not a shim script
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-I", "-c", "import sys; sys.stdout.write(sys.executable)").Output()
	if err != nil {
		return path
	}
	real := strings.TrimSpace(string(out))
	if st, err := os.Stat(real); err != nil || !filepath.IsAbs(real) || st.IsDir() || st.Mode()&0o111 == 0 {
		return path
	}
	return real
}

func newSpec(path, dir string, env []string, timeout, grace time.Duration, maxFrame int) procSpec {
	if env == nil {
		env = os.Environ()
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	if maxFrame <= 0 {
		maxFrame = DefaultMaxFrame
	}
	return procSpec{path: path, dir: dir, env: env, timeout: timeout, grace: grace, maxFrame: maxFrame, start: DefaultStart}
}

// pythonEnv is the worker's environment: the user's, without the PYTHON*
// variables isolated mode (-I) would ignore, and with the string hash seed
// fixed to seed, 0 unless the caller asks for another. A subject that
// iterates a set of strings (list(set(words))) otherwise answers in a
// different order in every worker, and a differential run would call that
// a change between base and head. The same seed on both sides hides such a
// subject's dependence on the seed; evidence finds it by rerunning a
// changed row under other seeds (issue 13, part 5).
func pythonEnv(env []string, seed uint32) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PYTHON") {
			out = append(out, kv)
		}
	}
	// No PYTHONSAFEPATH: the harness takes the working directory off
	// sys.path before it imports anything, and a plain run has neither
	// the variable nor sys.flags.safe_path (issue 26, tells).
	return append(out, "PYTHONHASHSEED="+strconv.FormatUint(uint64(seed), 10))
}
