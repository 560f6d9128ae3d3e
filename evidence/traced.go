package evidence

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/validate"
)

// The traced test run (issue 13, part 1): the repository's own tests run
// on the base, the merge-base's code and tests, never the patch's, in the
// workers' sandbox, while a profiler records the arguments of the changed
// Python functions. The calls become rows like any other, source "traced".

//go:embed harness/trace_tests.py
var traceScript []byte

// DefaultTraceSeconds is the traced run's time budget when the settings
// name none.
const DefaultTraceSeconds = 20

// maxTracedCalls bounds the distinct calls kept per function.
const maxTracedCalls = 20

// tracedCalls runs the base's tests under the tracer and returns, per
// symbol, the calls it saw, with a note when the suite could not run.
func tracedCalls(ctx context.Context, cfg Config, targets []target) (map[string][]ModelCall, string) {
	if cfg.BaseDir == "" || cfg.TraceSeconds < 0 {
		return nil, ""
	}
	seconds := cfg.TraceSeconds
	if seconds == 0 {
		seconds = DefaultTraceSeconds
	}
	want := map[string]string{}
	for _, tg := range targets {
		if tg.lang != "python" || tg.headOnly || tg.baseFile == "" || tg.call != "" || (tg.sym.Kind == "method" && len(tg.receivers) == 0) {
			continue
		}
		want[filepath.Join(cfg.BaseDir, tg.baseFile)+":"+tg.sym.Local] = tg.sym.Name
	}
	if len(want) == 0 {
		return nil, ""
	}
	// The base's tests, found in the base: the patch neither adds nor
	// hides one.
	present := baseTestPaths(cfg.BaseDir)
	if len(present) == 0 {
		return nil, ""
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
	python := cfg.Gate.Python
	if python == "" {
		python = "python3"
	}
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
	var got map[string][]struct {
		Args   []any          `json:"args"`
		Kwargs map[string]any `json:"kwargs"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // 37 stays an int, as the test passed it
	if err := dec.Decode(&got); err != nil {
		return nil, "traced test run: " + err.Error()
	}
	calls := map[string][]ModelCall{}
	for sym, cs := range got {
		for _, c := range cs {
			mc := ModelCall{Args: jsonvalue.Numbers(c.Args).([]any)}
			if len(c.Kwargs) > 0 {
				mc.Kwargs = jsonvalue.Numbers(c.Kwargs).(map[string]any)
			}
			calls[sym] = append(calls[sym], mc)
		}
	}
	if errors.Is(err, gate.ErrTimedOut) {
		return calls, fmt.Sprintf("traced test run: stopped at its budget of %d s", seconds)
	}
	return calls, ""
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return oneLine(lines[len(lines)-1])
}

// tracedRows are the calls the traced run saw of tg, as rows: a method's
// on its first receiver.
func tracedRows(tg target, calls []ModelCall) []validate.Row {
	var rows []validate.Row
	for _, c := range calls {
		args := c.Args
		if tg.receivers != nil {
			args = append([]any{tg.receivers[0]}, args...)
		}
		rows = append(rows, methodRow("traced", args, c.Kwargs))
	}
	return rows
}
