package gate

import (
	"bytes"
	"context"
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

	"github.com/premise-dev/premise/evidence/gosource"
)

type goImport struct{ Alias, Path string }

// goSentinel is an exported error variable of a package the harness
// imports: Name as a reply names it (lim.ErrNotFound), Expr as the
// harness reaches it (t0.ErrNotFound).
type goSentinel struct{ Name, Expr string }

// sentinels are the exported error variables of the package im, as this
// side's tree declares them (gosource.Package.SentinelErrors), read once
// a harness: an error that is one of them is not one that only reads
// like it, as io.EOF is not errors.New("EOF").
func (h *harness) sentinels(im goImport) []goSentinel {
	if got, ok := h.sentinelsOf[im.Path]; ok {
		return got
	}
	var out []goSentinel
	rel, ok := "", im.Path == h.modPath
	if !ok {
		rel, ok = strings.CutPrefix(im.Path, h.modPath+"/")
	}
	if !ok && (im.Path == "." || strings.HasPrefix(im.Path, "./")) {
		rel, ok = im.Path, true // a tree with no module of its own
	}
	if ok && (rel == "" || filepath.IsLocal(rel)) {
		if pkg, err := gosource.Load(filepath.Join(h.root, filepath.FromSlash(rel))); err == nil {
			for _, v := range pkg.SentinelErrors() {
				out = append(out, goSentinel{Name: pkg.Name + "." + v, Expr: im.Alias + "." + v})
			}
		}
	}
	if h.sentinelsOf == nil {
		h.sentinelsOf = map[string][]goSentinel{}
	}
	h.sentinelsOf[im.Path] = out
	return out
}

// goFunc is one target as the harness links it.
type goFunc struct {
	Target, Expr string
	Var          bool   // a package-level variable's address, not a function
	pkg          string // its package's import path
	alias        string // the exported alias declared in that package, for an unexported target
}

// harness is the Go worker's source and its build. A target the compiler
// refuses (a generic instantiated with a type outside its constraint, a
// method of a type the harness cannot name) is left out and the rest are
// built again: one target never keeps the others from running.
type harness struct {
	root, modPath, goPath, bin string
	cfg                        GoConfig
	funcs                      []goFunc
	imports                    []goImport
	exports                    map[string]map[string]string
	notBuilt                   map[string]string // target -> the compiler's reason
	overlay                    string            // the -overlay file of the watched files (gocover.go)
	// fd is the protocol's first fd, maxFrame and memory the worker's
	// frame and address-space limits: compiled in, not passed in argv.
	fd, maxFrame int
	memory       int64
	// sumFromCache is set once the build found go.sum without the lines
	// of modules the go.mod requires (a repository of before Go 1.16,
	// which kept no go.sum): the box's go command then completes the
	// copy's go.sum from the module cache (gobuild.go).
	sumFromCache bool
	// sentinelsOf are sentinels by import path, read once.
	sentinelsOf map[string][]goSentinel
}

// maxDropRounds bounds the rebuilds that leave refused targets out.
const maxDropRounds = 3

func (h *harness) build(ctx context.Context) error {
	tmpl, err := template.New("worker").Parse(goWorkerTmpl)
	if err != nil {
		return fmt.Errorf("go harness template: %w", err)
	}
	var covers []goCover
	if len(h.cfg.Watch) > 0 {
		h.overlay, covers = h.instrument(ctx)
	}
	fetched := false
	for round := 0; ; round++ {
		var data struct {
			Imports  []goImport
			Funcs    []goFunc
			NotBuilt map[string]string
			Covers   []goCover
			FD       int
			MaxFrame int
			Memory   int64
			Boxed    bool
			HTTP     bool
			// Sentinels are the imported packages' exported error
			// variables, named as errors.Is finds them.
			Sentinels []goSentinel
		}
		data.NotBuilt = h.notBuilt
		data.FD, data.MaxFrame, data.Memory = h.fd, h.maxFrame, h.memory
		data.Boxed = namespacesAllowed() // sandbox starts the worker in its PID namespace
		data.HTTP = h.cfg.HTTP
		used := map[string]bool{}
		exports := map[string]map[string]string{}
		for _, f := range h.funcs {
			if _, gone := h.notBuilt[f.Target]; gone {
				continue
			}
			data.Funcs = append(data.Funcs, f)
			used[f.pkg] = true
			if f.alias != "" {
				if exports[f.pkg] == nil {
					exports[f.pkg] = map[string]string{}
				}
				exports[f.pkg][f.alias] = h.exports[f.pkg][f.alias]
			}
		}
		for _, im := range h.imports {
			if used[im.Path] {
				data.Imports = append(data.Imports, im)
				data.Sentinels = append(data.Sentinels, h.sentinels(im)...)
			}
		}
		for _, c := range covers {
			if used[c.pkg] {
				data.Covers = append(data.Covers, c)
			}
		}
		var src bytes.Buffer
		if err := tmpl.Execute(&src, data); err != nil {
			return fmt.Errorf("go harness template: %w", err)
		}
		for pkg := range h.exports {
			if err := writeExports(h.root, h.modPath, pkg, exports[pkg]); err != nil {
				return &InfraError{Reason: err.Error()}
			}
		}
		out, shown, err := h.compile(ctx, src.Bytes())
		if err == nil {
			return nil
		}
		if !h.sumFromCache && missingSum.MatchString(out) {
			// go.sum lacks the lines of a module the go.mod requires: the
			// module cache has the module's hashes, checked when it was
			// fetched, so the copy's go.sum is completed from it (nothing
			// is fetched), and built again.
			h.sumFromCache = true
			round--
			continue
		}
		if !fetched && h.cfg.ModulesFrom != "" && missingModule.MatchString(out) {
			// A module the code imports is not in the module cache, which
			// the box's go command cannot fill: fetched once for the
			// merge-base's go.mod, outside the box, as the base's tests'
			// modules are (GoModDownload), and built again.
			fetched = true
			if GoModDownload(ctx, h.cfg.ModulesFrom, moduleDownloadTime) == nil {
				round--
				continue
			}
		}
		refused := h.refused(out, src.String(), data.Funcs)
		if len(refused) == 0 || len(refused) == len(data.Funcs) || round == maxDropRounds {
			names := make([]string, len(h.funcs))
			for i, f := range h.funcs {
				names[i] = f.Target
			}
			return &InfraError{Reason: fmt.Sprintf("build the Go harness for %s: %v: %s", strings.Join(names, ", "), err, oneLine(shown, 1500))}
		}
		if h.notBuilt == nil {
			h.notBuilt = map[string]string{}
		}
		for t, why := range refused {
			h.notBuilt[t] = why
		}
	}
}

// compile writes the worker's main package into a temporary directory
// inside the module (so the module's go.mod resolves its imports) and
// builds it in the sealed box (gobuild.go). It returns the build's output
// and what of it premise may show (buildErrors).
func (h *harness) compile(ctx context.Context, src []byte) (out, shown string, err error) {
	// "_" keeps the directory out of ./... patterns while it exists.
	srcDir, err := os.MkdirTemp(h.root, "_")
	if err != nil {
		return "", "", fmt.Errorf("go harness: %w", err)
	}
	defer os.RemoveAll(srcDir)
	if err := os.WriteFile(filepath.Join(srcDir, "main.go"), src, 0o644); err != nil {
		return "", "", fmt.Errorf("go harness: %w", err)
	}
	// -trimpath: the build cache keys a package by its directory
	// otherwise, and each run's private copy is a fresh one, so the same
	// packages compiled again on every run.
	// -X testing.testBinary=1 is how go test marks a test binary:
	// testing.Testing() is true in the harness as under go test.
	args := []string{"build", "-trimpath", "-ldflags=-X=testing.testBinary=1", "-o", h.bin}
	if h.cfg.Race {
		args = append(args, "-race")
	}
	if h.overlay != "" {
		args = append(args, "-overlay="+h.overlay)
	}
	build := exec.CommandContext(ctx, h.goPath, append(args, ".")...)
	build.Dir = srcDir
	done, err := h.boxGo(ctx, build)
	if err != nil {
		return "", "", fmt.Errorf("go harness: %w", err)
	}
	defer done()
	var b bytes.Buffer
	build.Stdout, build.Stderr = &b, &b
	err = build.Run()
	return b.String(), buildErrors(b.String(), srcDir, h.top()), err
}

// missingModule finds the go command reaching for a module that is not
// in the module cache: it starts a download (which fails in the box, where
// the cache is read-only and nothing is fetched), or says why it cannot.
var missingModule = regexp.MustCompile(`go: downloading |GOPROXY=off|missing go\.sum entry|no required module provides package|cannot find module providing package|\[setup failed\]`)

// missingSum finds the go command refusing a module go.sum has no line
// for.
var missingSum = regexp.MustCompile(`missing go\.sum entry`)

// moduleDownloadTime bounds fetching the merge-base's modules.
const moduleDownloadTime = 2 * time.Minute

var compileErrLine = regexp.MustCompile(`(main\.go|zz_premise_exports\.go):(\d+):\d+: (.*)$`)

// refused maps the compiler's errors to the targets on their lines: the
// harness's targets table and each package's export file hold one target
// a line, and go build heads each package's errors with "# IMPORTPATH".
func (h *harness) refused(out, src string, funcs []goFunc) map[string]string {
	mainLine := map[int][]string{}
	for i, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		for _, f := range funcs {
			// A target's own line, or the import of its package (a
			// package the module cannot provide).
			if strings.HasPrefix(l, strconv.Quote(f.Target)+":") || strings.HasSuffix(l, " "+strconv.Quote(f.pkg)) {
				mainLine[i+1] = append(mainLine[i+1], f.Target)
			}
		}
	}
	exportLine := map[string]map[int]string{} // package -> line -> target
	for pkg := range h.exports {
		var names []string
		target := map[string]string{}
		for _, f := range funcs {
			if f.pkg == pkg && f.alias != "" {
				names = append(names, f.alias)
				target[f.alias] = f.Target
			}
		}
		sort.Strings(names)
		exportLine[pkg] = map[int]string{}
		for i, n := range names {
			exportLine[pkg][exportsHeaderLines+i+1] = target[n]
		}
	}
	refused := map[string]string{}
	pkg := ""
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "# "); ok {
			pkg = strings.TrimSpace(rest)
			continue
		}
		m := compileErrLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		why := strings.TrimSpace(quoted.ReplaceAllString(m[3], "…"))
		var ts []string
		if m[1] == "main.go" {
			ts = mainLine[line]
		} else if t := exportLine[pkg][line]; t != "" {
			ts = []string{t}
		}
		for _, t := range ts {
			refused[t] = why
		}
	}
	return refused
}

// constructorsIn are the constructor targets ({"$new": target}) among a
// Go row's arguments, at any depth, and the methods called on what they
// build ({"$then": [{"$call": target}]}).
func constructorsIn(vs []any) []string {
	var out []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 8 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if n, ok := x["$new"].(string); ok {
				out = append(out, n)
			}
			if n, ok := x["$call"].(string); ok {
				out = append(out, n)
			}
			for _, e := range x {
				walk(e, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		}
	}
	for _, v := range vs {
		walk(v, 0)
	}
	return out
}
