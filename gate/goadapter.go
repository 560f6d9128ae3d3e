package gate

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"
)

//go:embed harness/go_worker.go.tmpl
var goWorkerTmpl string

// GoConfig configures the Go adapter. Zero values take the defaults.
type GoConfig struct {
	// Dir is a directory inside the target's module (the module root is
	// found by walking up to go.mod). The current directory when empty.
	Dir string
	// Targets are every function the run will call: an import path and a
	// function name, "example.com/intervals.MergeRanges", or a path relative
	// to the module root, "./intervals.MergeRanges". The harness links only
	// these.
	Targets []string
	// Go is the go command; "go" on PATH when empty.
	Go string
	// Timeout, Grace, MaxFrame, MemoryLimit and Env are as in PythonConfig.
	Timeout     time.Duration
	Grace       time.Duration
	MaxFrame    int
	MemoryLimit int64
	Env         []string
	// Race builds the harness with the race detector (go build -race): a
	// data race in the target then fails the call that hit it.
	Race bool
}

// GoAdapter runs calls in a harness program built from the target's module.
type GoAdapter struct {
	procAdapter
	binDir string
}

// NewGoAdapter writes a harness main package into a temporary directory
// inside the target's module (so the module's own go.mod resolves the
// import), builds it once, and returns an Adapter that calls the targets
// through reflection, decoding each row's JSON arguments into the parameter
// types. A non-nil error result or a panic is a raise: its class is the
// error's dynamic type ("*intervals.RangeError") or "panic", its code an
// exported Code field or Code() method. An argument that does not decode
// into its parameter's type is a raise of class "premise.DecodeError": the
// type system rejected the input. The build failing is an *InfraError.
func NewGoAdapter(ctx context.Context, cfg GoConfig) (*GoAdapter, error) {
	goBin := cfg.Go
	if goBin == "" {
		goBin = "go"
	}
	goPath, err := exec.LookPath(goBin)
	if err != nil {
		return nil, &InfraError{Reason: fmt.Sprintf("go command %q not found: %v", goBin, err)}
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	root, modPath, err := findModule(dir)
	if err != nil {
		return nil, &InfraError{Reason: err.Error()}
	}
	type imp struct{ Alias, Path string }
	type fn struct{ Target, Alias, Name string }
	var data struct {
		Imports []imp
		Funcs   []fn
	}
	aliases := map[string]string{}
	keys := map[string]bool{}
	targets := append([]string(nil), cfg.Targets...)
	sort.Strings(targets)
	for _, t := range targets {
		if keys[t] {
			continue
		}
		pkg, name, err := splitGoTarget(t, modPath)
		if err != nil {
			return nil, err
		}
		a, ok := aliases[pkg]
		if !ok {
			a = "t" + strconv.Itoa(len(aliases))
			aliases[pkg] = a
			data.Imports = append(data.Imports, imp{a, pkg})
		}
		data.Funcs = append(data.Funcs, fn{t, a, name})
		keys[t] = true
	}
	tmpl, err := template.New("worker").Parse(goWorkerTmpl)
	if err != nil {
		return nil, fmt.Errorf("go harness template: %w", err)
	}
	var src bytes.Buffer
	if err := tmpl.Execute(&src, data); err != nil {
		return nil, fmt.Errorf("go harness template: %w", err)
	}
	// "_" keeps the directory out of ./... patterns while it exists.
	srcDir, err := os.MkdirTemp(root, "_premise_harness_")
	if err != nil {
		return nil, fmt.Errorf("go harness: %w", err)
	}
	defer os.RemoveAll(srcDir)
	if err := os.WriteFile(filepath.Join(srcDir, "main.go"), src.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("go harness: %w", err)
	}
	binDir, err := os.MkdirTemp("", "premise-go-worker-")
	if err != nil {
		return nil, fmt.Errorf("go harness: %w", err)
	}
	bin := filepath.Join(binDir, "worker")
	args := []string{"build", "-o", bin}
	if cfg.Race {
		args = append(args, "-race")
	}
	build := exec.CommandContext(ctx, goPath, append(args, ".")...)
	build.Dir = srcDir
	build.Env = cfg.Env
	var out bytes.Buffer
	build.Stdout, build.Stderr = &out, &out
	if err := build.Run(); err != nil {
		os.RemoveAll(binDir)
		return nil, &InfraError{Reason: fmt.Sprintf("build the Go harness for %s: %v: %s", strings.Join(targets, ", "), err, oneLine(buildErrors(out.String()), 1500))}
	}
	spec := newSpec(bin, root, cfg.Env, cfg.Timeout, cfg.Grace, cfg.MaxFrame)
	mem := cfg.MemoryLimit
	if mem == 0 {
		mem = DefaultMemoryLimit
	}
	if mem < 0 {
		mem = 0
	}
	spec.args = []string{strconv.Itoa(spec.maxFrame), strconv.FormatInt(mem, 10)}
	spec.ready = true
	return &GoAdapter{procAdapter: procAdapter{spec: spec}, binDir: binDir}, nil
}

// Close stops the worker and removes the built harness.
func (a *GoAdapter) Close() error {
	err := a.procAdapter.Close()
	os.RemoveAll(a.binDir)
	return err
}

// splitGoTarget splits "example.com/intervals.MergeRanges" into the import
// path and the function; "./x.F" is relative to the module.
func splitGoTarget(t, modPath string) (string, string, error) {
	slash := strings.LastIndex(t, "/")
	dot := strings.LastIndex(t, ".")
	if dot <= slash || dot == len(t)-1 {
		return "", "", fmt.Errorf("go target %q: want IMPORTPATH.Func, e.g. example.com/intervals.MergeRanges", t)
	}
	pkg, name := t[:dot], t[dot+1:]
	if pkg == "." {
		pkg = modPath
	} else if strings.HasPrefix(pkg, "./") {
		pkg = modPath + "/" + strings.TrimPrefix(pkg, "./")
	}
	if name[0] < 'A' || name[0] > 'Z' {
		return "", "", fmt.Errorf("go target %q: %s is not exported", t, name)
	}
	return pkg, name, nil
}

// findModule walks up from dir to go.mod and returns the module root and path.
func findModule(dir string) (string, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) >= 2 && f[0] == "module" {
					return d, strings.Trim(f[1], `"`), nil
				}
			}
			return "", "", fmt.Errorf("%s: no module line", filepath.Join(d, "go.mod"))
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("no go.mod in %s or above it", abs)
		}
	}
}

// quoted are the fragments of a compiler message that quote source text.
var quoted = regexp.MustCompile("'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|\\bfound .*$")

// buildErrors keeps what a harness build failure needs to be understood
// (each error's file, line and message) without the source text compilers
// quote: a file the subject links to (a symlink to a secret) would
// otherwise have its first line printed into CI logs.
func buildErrors(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		keep = append(keep, quoted.ReplaceAllString(l, "…"))
	}
	return strings.Join(keep, "; ")
}
