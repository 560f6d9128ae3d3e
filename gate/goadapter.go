package gate

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/premise-dev/premise/diffparse"
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
	// Private says Dir is a private copy of the code under review, so
	// premise may add a file to a target's package: an unexported function
	// is then reached through an exported alias it declares there.
	Private bool
	// Race builds the harness with the race detector (go build -race): a
	// data race in the target then fails the call that hit it.
	Race bool
	// Vars are the package-level variables calls may set, named as
	// Targets name functions ("example.com/slug.MaxLength"): a call's
	// Kwargs set them for that call alone, and the worker puts the old
	// values back after it, whether it returned or panicked. A Go function
	// has no keyword arguments, so the seam is free for its settings.
	Vars []string
	// Watch is the lines each reply reports the call ran (watch.go): the
	// watched files are compiled instrumented by `go tool cover`.
	Watch Watch
	// HTTP builds net/http values into the harness: a row's
	// {"$go": "*http.Request"}, {"$go": "http.ResponseWriter"} and
	// {"$go": "http.Handler"} (a handler that counts its runs); a
	// returned http.Handler is then reported as the requests it serves.
	HTTP bool
	// ModulesFrom is the directory (the merge-base's checkout) whose
	// go.mod premise fetches the modules of, once, when the harness's
	// build finds one missing from the module cache (the box fetches
	// nothing); empty, nothing is fetched. The head's go.mod is never
	// read for it.
	ModulesFrom string
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
	if err != nil && cfg.Private {
		// Code from before Go modules: in premise's own copy of the tree,
		// a go.mod at the top makes its packages a module (targets name
		// them ./dir.F), as GOPATH once did.
		if werr := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+unmoduledPath+"\n\ngo 1.16\n"), 0o644); werr == nil {
			root, modPath, err = findModule(dir)
		}
	}
	if err != nil {
		return nil, &InfraError{Reason: err.Error()}
	}
	var data struct {
		Imports []goImport
		Funcs   []goFunc
	}
	aliases := map[string]string{}
	keys := map[string]bool{}
	exports := map[string]map[string]string{} // package import path -> exported alias -> expression in the package
	targets := append([]string(nil), cfg.Targets...)
	sort.Strings(targets)
	isVar := map[string]bool{}
	for _, v := range cfg.Vars {
		if !isVar[v] {
			isVar[v] = true
			targets = append(targets, v)
		}
	}
	for _, t := range targets {
		if keys[t] {
			continue
		}
		gt, err := splitGoTarget(t, modPath)
		if err != nil {
			return nil, err
		}
		if isVar[t] && (gt.recv != "" || gt.inst != "") {
			return nil, fmt.Errorf("go variable %q: want IMPORTPATH.Name", t)
		}
		a, ok := aliases[gt.pkg]
		if !ok {
			a = "t" + strconv.Itoa(len(aliases))
			aliases[gt.pkg] = a
			data.Imports = append(data.Imports, goImport{a, gt.pkg})
		}
		expr := gt.expr(a + ".")
		inPkg := gt.expr("")
		if isVar[t] {
			// A variable is reached through its address, so the worker can
			// set it and put it back.
			expr, inPkg = "&"+expr, "&"+inPkg
		}
		f := goFunc{Target: t, Expr: expr, pkg: gt.pkg, Var: isVar[t]}
		if !gt.exported() {
			if !cfg.Private {
				return nil, fmt.Errorf("go target %q: %s is not exported (premise reaches unexported functions only in its own private copy of the tree)", t, gt.name)
			}
			if exports[gt.pkg] == nil {
				exports[gt.pkg] = map[string]string{}
			}
			f.alias = exportAlias(gt, f.Var)
			exports[gt.pkg][f.alias] = inPkg
			f.Expr = a + "." + f.alias
		}
		data.Funcs = append(data.Funcs, f)
		keys[t] = true
	}
	// The worker's argv[0] is where go test puts a test binary,
	// $TMPDIR/go-buildN/b001/PKG.test, with no name of premise's (issue
	// 26, tells).
	binDir, err := os.MkdirTemp("", "go-build")
	if err != nil {
		return nil, fmt.Errorf("go harness: %w", err)
	}
	name := "main"
	if len(data.Imports) > 0 {
		name = path.Base(data.Imports[0].Path)
	}
	bin := filepath.Join(binDir, "b001", name+".test")
	if err := os.Mkdir(filepath.Dir(bin), 0o755); err != nil {
		os.RemoveAll(binDir)
		return nil, fmt.Errorf("go harness: %w", err)
	}
	spec := newSpec(bin, root, cfg.Env, cfg.Timeout, cfg.Grace, cfg.MaxFrame)
	spec.roots = treeRoots(spec.dir)
	mem := cfg.MemoryLimit
	if mem == 0 {
		mem = DefaultMemoryLimit
	}
	if mem < 0 {
		mem = 0
	}
	spec.fdBase = goFDBase()
	h := harness{root: root, modPath: modPath, goPath: goPath, bin: bin, cfg: cfg, funcs: data.Funcs, imports: data.Imports, exports: exports,
		fd: spec.fdBase, maxFrame: spec.maxFrame, memory: mem}
	if key, funcs := h.memoKey(); !linkKept(key, funcs, bin) {
		if err := h.build(ctx); err != nil {
			os.RemoveAll(binDir)
			return nil, err
		}
		keep(key, funcs, bin)
	}
	// go test's own flags, as it passes them.
	spec.args = []string{"-test.paniconexit0", "-test.timeout=10m0s"}
	spec.ready = true
	return &GoAdapter{procAdapter: procAdapter{spec: spec}, binDir: binDir}, nil
}

// goFDBase is the Go harness's first protocol descriptor: out of the low
// range, drawn once a process, so that the harnesses of one run are the
// same program (goharness_memo.go).
var goFDBase = sync.OnceValue(func() int { return 64 + int(rand.Uint32N(128)) })

// Close stops the worker and removes the built harness.
func (a *GoAdapter) Close() error {
	err := a.procAdapter.Close()
	os.RemoveAll(a.binDir)
	return err
}

// goTarget is a target of the Go harness: a package function
// ("example.com/semver.Parse"), a method called through its method
// expression with the receiver as the first argument
// ("example.com/semver.(*Version).Compare"), either instantiated when
// generic ("example.com/lo.Uniq[int]", "example.com/q.(*Queue[int]).Back").
type goTarget struct {
	pkg, recv, name, inst string
	// lit says the target is IMPORTPATH.&Type: a function the harness
	// writes, func(v Type) *Type { return &v }, that builds a struct of
	// the package from its fields (a value of an interface whose
	// implementers have no constructor: evalfilter's &object.Integer{Value: 3}).
	lit bool
}

// splitGoTarget reads a target; "./x.F" is relative to the module.
func splitGoTarget(t, modPath string) (goTarget, error) {
	bad := fmt.Errorf("go target %q: want IMPORTPATH.Func, IMPORTPATH.(*Type).Method, IMPORTPATH.Func[T] or IMPORTPATH.&Struct, e.g. example.com/intervals.MergeRanges", t)
	var gt goTarget
	rest := t
	recvInst := false
	if i, j := strings.Index(rest, ".(*"), strings.Index(rest, "])."); i >= 0 && j > i && strings.LastIndex(rest[:i], "/") == strings.LastIndex(rest, "/") {
		// A method of a generic type: IMPORTPATH.(*Type[int]).Method.
		k := strings.IndexByte(rest[i:j], '[')
		if k < 0 || k+i+1 >= j {
			return gt, bad
		}
		k += i
		gt.inst = rest[k+1 : j]
		rest, recvInst = rest[:k]+rest[j+1:], true
	} else if i := strings.IndexByte(rest, '['); i >= 0 {
		if !strings.HasSuffix(rest, "]") || i == len(rest)-2 {
			return gt, bad
		}
		rest, gt.inst = rest[:i], rest[i+1:len(rest)-1]
	}
	slash := strings.LastIndex(rest, "/")
	if i := strings.Index(rest, ".(*"); i > slash && i >= 0 {
		j := strings.Index(rest[i:], ").")
		if j < 0 {
			return gt, bad
		}
		gt.pkg, gt.recv, gt.name = rest[:i], rest[i+3:i+j], rest[i+j+2:]
		if gt.inst != "" && !recvInst || !token.IsIdentifier(gt.recv) {
			return gt, bad
		}
	} else {
		dot := strings.LastIndex(rest, ".")
		if dot <= slash {
			return gt, bad
		}
		gt.pkg, gt.name = rest[:dot], rest[dot+1:]
		if name, ok := strings.CutPrefix(gt.name, "&"); ok && gt.inst == "" {
			gt.name, gt.lit = name, true
		} else if recv, ok := methodForm(gt.pkg, slash, modPath); ok {
			// pkg.Type.Method, as premise diff names a method (issue 25):
			// called through (*Type).Method, whose method set holds the
			// value receiver's methods too.
			gt.pkg, gt.recv = gt.pkg[:len(gt.pkg)-len(recv)-1], recv
		}
	}
	if !token.IsIdentifier(gt.name) || gt.pkg == "" {
		return gt, bad
	}
	if gt.pkg == "." {
		gt.pkg = modPath
	} else if strings.HasPrefix(gt.pkg, "./") {
		gt.pkg = modPath + "/" + strings.TrimPrefix(gt.pkg, "./")
	}
	return gt, nil
}

// methodForm reports whether pkg (a target with its last name cut off) ends
// in a type's name rather than an import path's last element: the form
// premise diff prints a method in, IMPORTPATH.Type.Method. An import path's
// last element may hold a dot itself (gopkg.in/yaml.v3), so the reading
// whose package is the module or inside it wins; outside the module, a type
// is a name after the last slash's first dot that starts upper case.
func methodForm(pkg string, slash int, modPath string) (string, bool) {
	dot := strings.LastIndex(pkg, ".")
	if dot <= slash {
		return "", false
	}
	recv, short := pkg[dot+1:], pkg[:dot]
	if !token.IsIdentifier(recv) {
		return "", false
	}
	// inModule: p is the module or a directory inside it whose path
	// elements hold no dot (a package directory rarely does; a type name
	// after a dot always does).
	inModule := func(p string) bool {
		rel, ok := "", false
		switch {
		case p == "." || p == modPath && modPath != "":
			return true
		case strings.HasPrefix(p, "./"):
			rel, ok = p[2:], true
		case modPath != "" && strings.HasPrefix(p, modPath+"/"):
			rel, ok = p[len(modPath)+1:], true
		}
		return ok && !strings.Contains(rel, ".")
	}
	switch inS, inP := inModule(short), inModule(pkg); {
	case inS && !inP:
		return recv, true
	case inP && !inS:
		return "", false
	}
	return recv, token.IsExported(recv)
}

// exported says the harness can name the target from outside its package.
func (gt goTarget) exported() bool {
	return token.IsExported(gt.name) && (gt.recv == "" || token.IsExported(gt.recv))
}

// expr is the Go expression for the target, its package's names prefixed
// with qual ("t0." outside the package, "" inside it).
func (gt goTarget) expr(qual string) string {
	switch {
	case gt.lit:
		return "func(v " + qual + gt.name + ") *" + qual + gt.name + " { return &v }"
	case gt.recv != "" && gt.inst != "":
		return "(*" + qual + gt.recv + "[" + gt.inst + "])." + gt.name
	case gt.recv != "":
		return "(*" + qual + gt.recv + ")." + gt.name
	case gt.inst != "":
		return qual + gt.name + "[" + gt.inst + "]"
	}
	return qual + gt.name
}

// exportAlias is the exported name premise gives an unexported target (a
// variable's address when isVar) in its private copy of the target's
// package.
func exportAlias(gt goTarget, isVar bool) string {
	n := "PremiseExport_"
	switch {
	case isVar:
		n = "PremiseVar_"
	case gt.lit:
		n = "PremiseLit_"
	}
	if gt.recv != "" {
		n += gt.recv + "_"
	}
	n += gt.name
	if gt.inst != "" {
		n += "_" + strings.Map(func(r rune) rune {
			if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return '_'
		}, gt.inst)
	}
	return n
}

// writeExports declares, in the private copy of package pkg, an exported
// alias for each unexported target the harness must call, as go test
// reaches a package's private helpers from a file of its own.
func writeExports(root, modPath, pkg string, exprs map[string]string) error {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, modPath), "/")
	dir := filepath.Join(root, filepath.FromSlash(rel))
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	pkgName := ""
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if name, err := diffparse.GoPackageName(f); err == nil {
			pkgName = name
			break
		}
	}
	if pkgName == "" {
		return fmt.Errorf("go package %s: no Go file in %s", pkg, dir)
	}
	var b strings.Builder
	// exportsHeaderLines lines come before the first alias: the compiler's
	// line numbers name the alias it refused.
	fmt.Fprintf(&b, "// Code generated by premise in its private copy of the tree; DO NOT EDIT.\n\npackage %s\n\n", pkgName)
	names := make([]string, 0, len(exprs))
	for n := range exprs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "var %s = %s\n", n, exprs[n])
	}
	return os.WriteFile(filepath.Join(dir, "zz_premise_exports.go"), []byte(b.String()), 0o644)
}

// unmoduledPath is the module path premise gives a tree with no go.mod.
const unmoduledPath = "premise.invalid/unmoduled"

// exportsHeaderLines is the number of lines writeExports puts before the
// first alias.
const exportsHeaderLines = 4

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
var quoted = regexp.MustCompile("'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|‘[^’\n]*’|“[^”\n]*”|\\bfound .*$")
