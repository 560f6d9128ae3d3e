package patches

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// caseFile is case.yaml, the statement a case makes about its patch.
type caseFile struct {
	Name     string   `yaml:"name"`
	Language string   `yaml:"language"` // python or go
	Kind     string   `yaml:"kind"`     // breaking or benign
	Symbol   string   `yaml:"symbol"`   // textstats.mean, example.com/m/pkg.Func
	Summary  string   `yaml:"summary"`
	Witness  *witness `yaml:"witness"` // breaking cases only
	// Probe lists argument lists on which base and head must behave the same:
	// for a benign case the inputs that show it is benign (at least four),
	// for a breaking case the happy path the agent's suite already covers.
	Probe [][]any `yaml:"probe"`
}

// witness is one input on which a breaking patch visibly changes behaviour.
type witness struct {
	Args []any   `yaml:"args"`
	Base outcome `yaml:"base"`
	Head outcome `yaml:"head"`
}

// outcome is what one side does on one input, in the runner protocol's words
// (DESIGN.md, "The runner protocol"): returned a value, or raised a class.
type outcome struct {
	Outcome  string `yaml:"outcome" json:"outcome"`
	Class    string `yaml:"class,omitempty" json:"class,omitempty"`
	Value    any    `yaml:"value,omitempty" json:"value,omitempty"`
	HasValue bool   `yaml:"-" json:"-"`
}

// UnmarshalYAML keeps KnownFields' strictness for outcome and records whether
// value was stated, so that `value: null` (returned None) is not the same as
// no value at all.
func (o *outcome) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: outcome must be a mapping", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "outcome":
			err = v.Decode(&o.Outcome)
		case "class":
			err = v.Decode(&o.Class)
		case "value":
			o.HasValue = true
			err = v.Decode(&o.Value)
		default:
			return fmt.Errorf("line %d: field %s not found in outcome", k.Line, k.Value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// corpusCase is one loaded case directory.
type corpusCase struct {
	Dir string // examples/patches/NN-name
	caseFile
}

var dirName = regexp.MustCompile(`^([0-9]{2})-([a-z0-9-]+)$`)

func loadCases(t *testing.T) []corpusCase {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		m := dirName.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("%s: a case directory is named NN-name", e.Name())
			continue
		}
		raw, err := os.ReadFile(filepath.Join(e.Name(), "case.yaml"))
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		var c caseFile
		if err := dec.Decode(&c); err != nil {
			t.Errorf("%s/case.yaml: %v", e.Name(), err)
			continue
		}
		if c.Name != m[2] {
			t.Errorf("%s/case.yaml: name %q, want the directory's name without its number, %q", e.Name(), c.Name, m[2])
		}
		cases = append(cases, corpusCase{Dir: e.Name(), caseFile: c})
	}
	return cases
}

// TestCorpusShape checks what issue 7 asks of the corpus as a whole and what
// each case.yaml must state.
func TestCorpusShape(t *testing.T) {
	cases := loadCases(t)
	count := map[string]int{}
	for _, c := range cases {
		count[c.Kind]++
		count[c.Language+"/"+c.Kind]++
		if err := c.check(); err != nil {
			t.Errorf("%s/case.yaml: %v", c.Dir, err)
		}
	}
	if len(cases) < 14 {
		t.Errorf("%d cases, want at least 14", len(cases))
	}
	if count["breaking"] < 8 || count["benign"] < 6 {
		t.Errorf("%d breaking and %d benign cases, want at least 8 and 6", count["breaking"], count["benign"])
	}
	for _, k := range []string{"python/breaking", "python/benign", "go/breaking", "go/benign"} {
		if count[k] == 0 {
			t.Errorf("no %s case: both languages need both kinds", k)
		}
	}
}

func (c corpusCase) check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.Language != "python" && c.Language != "go" {
		bad("language %q, want python or go", c.Language)
	}
	if c.Summary == "" || strings.Contains(strings.TrimSpace(c.Summary), "\n") {
		bad("summary must be one sentence on one line")
	}
	if _, _, err := splitSymbol(c.Language, c.Symbol); err != nil {
		bad("%v", err)
	}
	switch c.Kind {
	case "breaking":
		w := c.Witness
		if w == nil {
			bad("a breaking case needs a witness")
			break
		}
		for side, o := range map[string]outcome{"base": w.Base, "head": w.Head} {
			if err := o.check(); err != nil {
				bad("witness %s: %v", side, err)
			}
		}
		if sameOutcome(w.Base, w.Head) {
			bad("witness base and head say the same thing: it witnesses nothing")
		}
	case "benign":
		if c.Witness != nil {
			bad("a benign case has no witness")
		}
		if len(c.Probe) < 4 {
			bad("%d probes, a benign case needs at least 4", len(c.Probe))
		}
	default:
		bad("kind %q, want breaking or benign", c.Kind)
	}
	seen := map[string]bool{}
	for i, p := range c.Probe {
		k := mustJSON(p)
		if seen[k] {
			bad("probe %d repeats %s", i, k)
		}
		seen[k] = true
	}
	return errors.Join(errs...)
}

func (o outcome) check() error {
	switch o.Outcome {
	case "returned":
		if !o.HasValue || o.Class != "" {
			return errors.New("a returned outcome states value (null for None / nil) and no class")
		}
	case "raised":
		if o.Class == "" || o.HasValue {
			return errors.New("a raised outcome states class and no value")
		}
	default:
		return fmt.Errorf("outcome %q, want returned or raised", o.Outcome)
	}
	return nil
}

// sameOutcome compares outcomes as JSON values, so that YAML's 3600 and
// Python's 3600.0 are one number, as they are on the runner protocol's wire.
func sameOutcome(a, b outcome) bool {
	return a.Outcome == b.Outcome && a.Class == b.Class && cmp.Equal(jsonValue(a.Value), jsonValue(b.Value))
}

func jsonValue(v any) any {
	var out any
	if err := json.Unmarshal([]byte(mustJSON(v)), &out); err != nil {
		panic(err)
	}
	return out
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// splitSymbol splits a qualified symbol into its module or import path and
// its function name: textstats.mean -> textstats, mean;
// example.com/m/pkg.Func -> example.com/m/pkg, Func.
func splitSymbol(lang, sym string) (string, string, error) {
	i := strings.LastIndex(sym, ".")
	if lang == "go" && i < strings.LastIndex(sym, "/") {
		i = -1
	}
	if i <= 0 || i == len(sym)-1 {
		return "", "", fmt.Errorf("symbol %q is not qualified (module.func or importpath.Func)", sym)
	}
	return sym[:i], sym[i+1:], nil
}

// TestCases runs every case on a real interpreter: the witness must do on
// base and on head what case.yaml says, and every probe must behave the same
// on both sides.
func TestCases(t *testing.T) {
	py, err := pythonPath()
	if err != nil {
		t.Fatalf("python3 is needed to check the Python cases: %v", err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is needed to check the Go cases: %v", err)
	}
	for _, c := range loadCases(t) {
		t.Run(c.Dir, func(t *testing.T) {
			t.Parallel()
			if err := c.check(); err != nil {
				t.Fatalf("case.yaml: %v", err)
			}
			base := readTree(t, filepath.Join(c.Dir, "base"))
			head := readTree(t, filepath.Join(c.Dir, "head"))
			changed := changedFiles(base, head)

			calls := [][]any{}
			if c.Witness != nil {
				calls = append(calls, c.Witness.Args)
			}
			calls = append(calls, c.Probe...)

			var baseRun, headRun run
			switch c.Language {
			case "python":
				c.checkPythonFiles(t, changed)
				baseRun = runPython(t, py, filepath.Join(c.Dir, "base"), c.Symbol, calls)
				headRun = runPython(t, py, filepath.Join(c.Dir, "head"), c.Symbol, calls)
			case "go":
				c.checkGoFiles(t, base, head, changed)
				baseRun = runGo(t, goTool, filepath.Join(c.Dir, "base"), c.Symbol, calls)
				headRun = runGo(t, goTool, filepath.Join(c.Dir, "head"), c.Symbol, calls)
			}
			if baseRun.Source == headRun.Source {
				t.Errorf("%s is the same text in base and head: the patch does not change the named symbol", c.Symbol)
			}

			for side, r := range map[string]run{"base": baseRun, "head": headRun} {
				for i, o := range r.Results {
					if o.Outcome != "returned" && o.Outcome != "raised" {
						t.Errorf("%s: call %s could not be made (%s); fix the arguments in case.yaml",
							side, mustJSON(calls[i]), describe(o))
					}
				}
			}
			probes := 0
			if c.Witness != nil {
				probes = 1
				for _, s := range []struct {
					side string
					want outcome
					got  outcome
				}{{"base", c.Witness.Base, baseRun.Results[0]}, {"head", c.Witness.Head, headRun.Results[0]}} {
					if !sameOutcome(s.want, s.got) {
						t.Errorf("witness %s on %s: case.yaml says %s, running it %s",
							mustJSON(c.Witness.Args), s.side, describe(s.want), describe(s.got))
					}
				}
			}
			returned := false
			for i, p := range c.Probe {
				b, h := baseRun.Results[probes+i], headRun.Results[probes+i]
				if !sameOutcome(b, h) {
					t.Errorf("probe %s: base %s, head %s; a probe must behave the same on both sides",
						mustJSON(p), describe(b), describe(h))
				}
				returned = returned || b.Outcome == "returned"
			}
			if c.Kind == "benign" && !returned {
				t.Errorf("no probe returns normally: a benign case must show the happy path agrees too")
			}
		})
	}
}

// TestMkrepo builds two cases' repositories with mkrepo.sh, as a user of the
// corpus does, and checks git sees the patch's files. Two cases, one per
// language and both with a package directory, keep the run short: every
// case goes through the same script.
func TestMkrepo(t *testing.T) {
	for _, dir := range []string{"03-py-withdraw-raise-removed", "10-go-median-dropped-sort"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			changed := changedFiles(readTree(t, filepath.Join(dir, "base")), readTree(t, filepath.Join(dir, "head")))
			checkRepo(t, dir, changed)
		})
	}
}

func describe(o outcome) string {
	if o.Outcome == "returned" {
		return "returned " + mustJSON(o.Value)
	}
	if o.Class != "" {
		return o.Outcome + " " + o.Class
	}
	return o.Outcome
}

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return fmt.Errorf("%s: bytecode in the corpus; delete it", p)
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	if len(files) == 0 {
		t.Fatalf("%s is empty", dir)
	}
	return files
}

func changedFiles(base, head map[string][]byte) []string {
	var out []string
	for p, b := range base {
		if h, ok := head[p]; !ok || !bytes.Equal(b, h) {
			out = append(out, p)
		}
	}
	for p := range head {
		if _, ok := base[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// checkPythonFiles: the patch changes exactly the module the symbol names.
func (c corpusCase) checkPythonFiles(t *testing.T, changed []string) {
	t.Helper()
	mod, _, _ := splitSymbol("python", c.Symbol)
	file := strings.ReplaceAll(mod, ".", "/") + ".py"
	if diff := cmp.Diff([]string{file}, changed); diff != "" {
		t.Errorf("files that differ between base and head (-want +got), want only %s, the file of %s:\n%s", file, c.Symbol, diff)
	}
}

// checkGoFiles: the patch changes only non-test .go files of the symbol's
// package, among them the file that declares the symbol, on both sides.
func (c corpusCase) checkGoFiles(t *testing.T, base, head map[string][]byte, changed []string) {
	t.Helper()
	importPath, fn, _ := splitSymbol("go", c.Symbol)
	module := modulePath(t, base["go.mod"])
	if module == "" {
		t.Fatalf("base/go.mod names no module")
	}
	rel, ok := strings.CutPrefix(importPath, module)
	if !ok || (rel != "" && rel[0] != '/') {
		t.Fatalf("symbol %s is not in module %s", c.Symbol, module)
	}
	pkgDir := strings.TrimPrefix(rel, "/")
	if len(changed) == 0 {
		t.Errorf("base and head are identical")
	}
	for _, p := range changed {
		if path.Dir(p) != path.Clean("./"+pkgDir) || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			t.Errorf("%s differs between base and head; only the source files of package %s may", p, importPath)
		}
	}
	for side, tree := range map[string]map[string][]byte{"base": base, "head": head} {
		file, _ := goDecl(tree, pkgDir, fn)
		if file == "" {
			t.Errorf("%s: package %s declares no func %s", side, importPath, fn)
			continue
		}
		if side == "head" && !slices.Contains(changed, file) {
			t.Errorf("head declares %s in %s, which the patch does not change", fn, file)
		}
	}
}

func modulePath(t *testing.T, gomod []byte) string {
	t.Helper()
	for _, line := range strings.Split(string(gomod), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

// goDecl finds the top-level func fn in the package at dir of tree and
// returns its file and its text, doc comment included.
func goDecl(tree map[string][]byte, dir, fn string) (string, string) {
	for p, src := range tree {
		if path.Dir(p) != path.Clean("./"+dir) || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != fn {
				continue
			}
			start := fd.Pos()
			if fd.Doc != nil {
				start = fd.Doc.Pos()
			}
			return p, string(src[fset.Position(start).Offset:fset.Position(fd.End()).Offset])
		}
	}
	return "", ""
}

// run is what one side did on every call.
type run struct {
	Source  string    `json:"source"`
	Results []outcome `json:"results"`
}

// UnmarshalJSON marks a returned outcome as having a value even when the
// value is null.
func (o *outcome) UnmarshalJSON(b []byte) error {
	var raw struct {
		Outcome string           `json:"outcome"`
		Class   string           `json:"class"`
		Value   *json.RawMessage `json:"value"`
		Detail  string           `json:"detail"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	o.Outcome, o.Class = raw.Outcome, raw.Class
	if raw.Outcome == "returned" {
		o.HasValue = true
		if raw.Value != nil {
			if err := json.Unmarshal(*raw.Value, &o.Value); err != nil {
				return err
			}
		}
	}
	if raw.Detail != "" {
		o.Class = strings.TrimSpace(o.Class + " (" + raw.Detail + ")")
	}
	return nil
}

// pyRunner calls the symbol once per argument list, then runs the case's
// own unittest suite, and writes the outcomes to a file, not stdout, so the
// subject's own printing cannot corrupt them.
const pyRunner = `
import importlib, inspect, json, sys
root, target, calls_path, out_path = sys.argv[1:5]
sys.path.insert(0, root)
mod_name, _, fn_name = target.rpartition(".")
fn = getattr(importlib.import_module(mod_name), fn_name)
results = []
for args in json.load(open(calls_path)):
    try:
        value = fn(*args)
    except Exception as exc:
        results.append({"outcome": "raised", "class": type(exc).__name__})
        continue
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        results.append({"outcome": "unserializable", "detail": repr(exc)})
        continue
    results.append({"outcome": "returned", "value": value})
# The agent's own suite, the green CI of seed 004, must pass on both sides.
import unittest
suite = unittest.defaultTestLoader.discover(root, top_level_dir=root)
ran = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)
with open(out_path, "w") as f:
    json.dump({"source": inspect.getsource(fn), "results": results}, f)
if not ran.wasSuccessful() or ran.testsRun == 0:
    sys.exit("the case's own unittest suite fails or is empty")
`

// pythonPath resolves python3 to the interpreter's absolute path once: a
// pyenv shim costs a second per start (DESIGN.md, "The runner protocol").
func pythonPath() (string, error) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(string(out))
	if p == "" {
		return "", errors.New("python3 reports no sys.executable")
	}
	return p, nil
}

func runPython(t *testing.T, py, tree, symbol string, calls [][]any) run {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	if err := os.CopyFS(root, os.DirFS(tree)); err != nil {
		t.Fatal(err)
	}
	callsPath, outPath := filepath.Join(dir, "calls.json"), filepath.Join(dir, "out.json")
	writeFile(t, callsPath, mustJSON(calls))
	// -B keeps bytecode out of the trees; -I keeps the environment out of the run.
	if out, err := command(dir, nil, py, "-I", "-B", "-c", pyRunner, root, symbol, callsPath, outPath); err != nil {
		t.Errorf("python3 on %s: %v\n%s", tree, err, out)
	}
	return readRun(t, outPath, len(calls))
}

// goCaller is a test file written into a copy of the subject's package: one
// go test then runs the agent's own suite and the calls in one binary, which
// halves the cost of a Go case against a separate main program. It decodes
// each argument into the function's parameter type and reports a non-nil
// final error as a raise of the error's dynamic type (DESIGN.md, "The runner
// protocol"), a panic as "panic".
const goCaller = `package %s

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
)

func TestPremiseCorpusCall(t *testing.T) {
	var calls [][]json.RawMessage
	data, err := os.ReadFile(os.Getenv("PREMISE_CORPUS_CALLS"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &calls); err != nil {
		t.Fatal(err)
	}
	var results []map[string]any
	for _, args := range calls {
		results = append(results, premiseCorpusCall(reflect.ValueOf(%s), args))
	}
	out, err := json.Marshal(map[string]any{"results": results})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv("PREMISE_CORPUS_OUT"), out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func premiseCorpusCall(fn reflect.Value, args []json.RawMessage) (res map[string]any) {
	ft := fn.Type()
	if len(args) != ft.NumIn() {
		return map[string]any{"outcome": "bad-args", "detail": fmt.Sprintf("%%d args for %%d parameters", len(args), ft.NumIn())}
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		p := reflect.New(ft.In(i))
		if err := json.Unmarshal(a, p.Interface()); err != nil {
			return map[string]any{"outcome": "bad-args", "detail": err.Error()}
		}
		in[i] = p.Elem()
	}
	defer func() {
		if r := recover(); r != nil {
			res = map[string]any{"outcome": "raised", "class": "panic"}
		}
	}()
	outs := fn.Call(in)
	if n := len(outs); n > 0 && ft.Out(n-1) == reflect.TypeFor[error]() {
		if err, _ := outs[n-1].Interface().(error); err != nil {
			return map[string]any{"outcome": "raised", "class": fmt.Sprintf("%%T", err)}
		}
		outs = outs[:n-1]
	}
	var value any
	switch len(outs) {
	case 0:
	case 1:
		value = outs[0].Interface()
	default:
		var vs []any
		for _, o := range outs {
			vs = append(vs, o.Interface())
		}
		value = vs
	}
	if _, err := json.Marshal(value); err != nil {
		return map[string]any{"outcome": "unserializable", "detail": err.Error()}
	}
	return map[string]any{"outcome": "returned", "value": value}
}
`

func runGo(t *testing.T, goTool, tree, symbol string, calls [][]any) run {
	t.Helper()
	importPath, fn, _ := splitSymbol("go", symbol)
	src := readTree(t, tree)
	pkgDir := strings.TrimPrefix(strings.TrimPrefix(importPath, modulePath(t, src["go.mod"])), "/")
	file, source := goDecl(src, pkgDir, fn)
	if file == "" {
		t.Fatalf("%s: no func %s in %s", tree, fn, importPath)
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src[file], parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	if err := os.CopyFS(root, os.DirFS(tree)); err != nil {
		t.Fatal(err)
	}
	callsPath, outPath := filepath.Join(dir, "calls.json"), filepath.Join(dir, "out.json")
	writeFile(t, callsPath, mustJSON(calls))
	writeFile(t, filepath.Join(root, filepath.FromSlash(pkgDir), "zz_premise_corpus_call_test.go"), fmt.Sprintf(goCaller, f.Name.Name, fn))
	// The agent's own suite, the green CI of seed 004, passes on both sides.
	if out, err := command(root, []string{"PREMISE_CORPUS_CALLS=" + callsPath, "PREMISE_CORPUS_OUT=" + outPath},
		goTool, "test", "-count=1", "-vet=off", "./..."); err != nil {
		t.Errorf("go test on a copy of %s: %v\n%s", tree, err, out)
	}
	r := readRun(t, outPath, len(calls))
	r.Source = source
	return r
}

func readRun(t *testing.T, outPath string, n int) run {
	t.Helper()
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var r run
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("runner output %s: %v", b, err)
	}
	if len(r.Results) != n {
		t.Fatalf("runner gave %d results for %d calls", len(r.Results), n)
	}
	return r
}

// command runs name in dir and returns its combined output. Go runs offline
// and with the local toolchain: the corpus needs neither a network nor a
// download. -trimpath keeps build-cache keys free of the temporary
// directory, so a second run of the corpus compiles nothing.
func command(dir string, env []string, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod -buildvcs=false -trimpath", "GOPROXY=off", "PYTHONDONTWRITEBYTECODE=1")
	cmd.Env = append(cmd.Env, env...)
	return cmd.CombinedOutput()
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkRepo builds the case's two-commit repository with mkrepo.sh and
// checks git sees the same changed files as a comparison of the trees.
func checkRepo(t *testing.T, dir string, changed []string) {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	if out, err := command(".", nil, "bash", "mkrepo.sh", dir, repo); err != nil {
		t.Fatalf("mkrepo.sh %s: %v\n%s", dir, err, out)
	}
	cmd := exec.Command("git", "-C", repo, "diff", "--name-only", "HEAD~1", "HEAD")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git diff in %s: %v", repo, err)
	}
	got := strings.Fields(string(out))
	if diff := cmp.Diff(changed, got); diff != "" {
		t.Errorf("git diff HEAD~1 HEAD in the built repository (-want +got):\n%s", diff)
	}
}
