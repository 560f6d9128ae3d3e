package gate

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// The Python worker's code, compiled once a process (issue 28: what a
// user waits for). A worker started from its source compiles 1,300 lines
// on every start, about as long as the interpreter takes to start at all;
// premise starts a worker pair for each pass over a table (the rows, each
// of nine hash seeds, each round of shrinking), so a run compiled the same
// source dozens of times. The interpreter the workers run compiles it once,
// outside the box (the worker's own source, nothing of the tree under
// review: -I -S, no site, no environment, no working directory on the
// path), and every worker unpacks the code object from its arguments.
// Where that cannot be made, the worker compiles its source as before
// (pythonBoot, python.go). Its benchmark: BenchmarkPythonWorkerStart.

// pythonCompiledBoot is pythonBoot for a worker whose first argument is
// its code object: marshalled, compressed and in base64.
const pythonCompiledBoot = `(lambda m: (exec(__import__("marshal").loads(__import__("zlib").decompress(__import__("binascii").a2b_base64(__import__("sys").argv.pop(1)))), m.__dict__), m.main()))(type(__import__("sys"))("runpy"))`

// compileScript writes the code object of the source on its stdin,
// compiled as pythonBoot compiles it, in the form pythonCompiledBoot reads.
const compileScript = `import binascii, marshal, sys, zlib
code = compile(sys.stdin.read(), "<frozen runpy>", "exec")
sys.stdout.write(binascii.b2a_base64(zlib.compress(marshal.dumps(code), 9), newline=False).decode())`

// maxCompiledArg keeps the argument under the kernel's bound on one
// argument's length (128 KiB).
const maxCompiledArg = 100 << 10

// compiledWorkers holds, per interpreter, its compile of the worker.
var compiledWorkers sync.Map // interpreter path -> *compiledWorker

type compiledWorker struct {
	once sync.Once
	code string
}

// workerBoot is the boot line and first argument a worker of interp
// starts with: its compiled code when interp could make it, else its
// source.
func workerBoot(interp string) (boot, code string) {
	v, _ := compiledWorkers.LoadOrStore(interp, &compiledWorker{})
	cw := v.(*compiledWorker)
	cw.once.Do(func() { cw.code = compileWorker(interp) })
	if cw.code == "" {
		return pythonBoot, pythonWorker
	}
	return pythonCompiledBoot, cw.code
}

// compileWorker asks interp for the worker's compiled code; "" on any
// failure, or when the result would not fit an argument.
func compileWorker(interp string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, interp, "-I", "-S", "-B", "-c", compileScript)
	cmd.Dir = "/"
	cmd.Env = []string{}
	cmd.Stdin = strings.NewReader(pythonWorker)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil || out.Len() == 0 || out.Len() > maxCompiledArg {
		return ""
	}
	return out.String()
}
