package gate

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// ExecConfig configures the exec adapter, for subjects in other languages.
type ExecConfig struct {
	// Command is the worker's argv; Command[0] is looked up on PATH once.
	Command []string
	// Dir is the worker's working directory (the repository root).
	Dir string
	// Timeout, Grace, MaxFrame, MemoryLimit and Env are as in
	// PythonConfig; premise sets the memory limit on the started worker.
	Timeout     time.Duration
	Grace       time.Duration
	MaxFrame    int
	MemoryLimit int64
	Env         []string
}

// NewExecAdapter returns an Adapter for any command that speaks the runner
// protocol of DESIGN.md on its stdin and stdout: one request line in, one
// reply line out, in order. Its stderr is drained and kept for crash
// reports. It runs in its own session and process group like every worker.
func NewExecAdapter(cfg ExecConfig) (Adapter, error) {
	if len(cfg.Command) == 0 {
		return nil, fmt.Errorf("exec adapter: no command")
	}
	path, err := exec.LookPath(cfg.Command[0])
	if err != nil {
		return nil, &InfraError{Reason: fmt.Sprintf("worker command %q not found: %v", cfg.Command[0], err)}
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, fmt.Errorf("exec adapter: %w", err)
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	spec := newSpec(path, dir, cfg.Env, cfg.Timeout, cfg.Grace, cfg.MaxFrame)
	spec.args = cfg.Command[1:]
	spec.stdio = true
	spec.memory = cfg.MemoryLimit
	if spec.memory == 0 {
		spec.memory = DefaultMemoryLimit
	}
	return &procAdapter{spec: spec}, nil
}
