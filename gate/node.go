package gate

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/premise-dev/premise/validate"
)

//go:embed harness/node_worker.mjs
var nodeWorker string

func init() {
	// One worker for both: a TypeScript file is JavaScript once
	// transpiled, and a JavaScript repository may hold TypeScript too.
	RegisterAdapter(validate.LangJavaScript, nodeAdapter)
	RegisterAdapter(validate.LangTypeScript, nodeAdapter)
}

func nodeAdapter(_ context.Context, cfg Config, dir string, _ *validate.Table) (Adapter, error) {
	return NewNodeAdapter(NodeConfig{Node: cfg.Node, Dir: dir, Timeout: cfg.Timeout, Grace: cfg.Grace, MemoryLimit: cfg.MemoryLimit, Private: cfg.Private, Watch: cfg.Watch})
}

// NodeConfig configures the Node adapter. Zero values take the defaults.
type NodeConfig struct {
	// Node is the node binary, a name looked up on PATH or a path; "node"
	// when empty. It is resolved once to the real executable (a version
	// manager's shim costs a start of its own) and must be Node 18 or later.
	Node string
	// Dir is the repository root: targets name their modules relative to
	// it. The current directory when empty.
	Dir string
	// Timeout, Grace, MaxFrame, MemoryLimit and Env are as in PythonConfig.
	Timeout     time.Duration
	Grace       time.Duration
	MaxFrame    int
	MemoryLimit int64
	Env         []string
	// Private says Dir is premise's private copy of the code under review,
	// so TypeScript may be transpiled into it, beside its sources. Otherwise
	// a tree holding TypeScript is copied first, and Close removes the copy.
	Private bool
	// Watch is the lines each reply reports the call ran (watch.go): V8's
	// precise coverage, read back to a TypeScript source's own lines
	// through esbuild's source map (nodecover.go).
	Watch Watch
}

// NodeAdapter runs calls in a long-lived Node worker.
type NodeAdapter struct {
	procAdapter
	copyDir string // the private copy NewNodeAdapter made, if any
}

// NewNodeAdapter returns an Adapter that calls JavaScript and TypeScript
// targets in a Node worker: premise's embedded worker
// (harness/node_worker.mjs, whose header is the protocol's JavaScript
// side), speaking the runner protocol on two high fds, in the sandbox every
// worker gets. A target is a module path relative to Dir without its
// extension, then dotted names: "src/lib/ranges.mergeRanges",
// "src/lib/ranges.Interval.merge" (an instance method, the receiver the
// first argument, built in the row by {"$new": "src/lib/ranges.Interval",
// "$args": [...]}, and "$then": [{"$call": "merge", "$args": [...]}] for
// the object's own methods called on it first, or "$chain" in the same
// form for a builder's chain, each call on what the one before returned).
// A method of a class the module does not export ("BigInteger.BigInteger.modInv")
// is the one the receiver has by that name. ES modules and CommonJS are
// told apart as Node tells them (extension, then the nearest
// package.json's "type"); a returned promise is awaited.
//
// TypeScript (.ts, .mts, .cts, .tsx) and JSX are transpiled first, without
// type checking, by esbuild in premise's own process (transpileTree).
//
// NewNodeAdapter fails, with an *InfraError, only when node cannot be found
// or is older than 18; a target that does not import makes Call return an
// *InfraError.
func NewNodeAdapter(cfg NodeConfig) (*NodeAdapter, error) {
	node, err := resolveNode(cfg.Node)
	if err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("node adapter: %w", err)
	}
	srcs, err := transpilable(dir)
	if err != nil {
		return nil, fmt.Errorf("node adapter: %w", err)
	}
	a := &NodeAdapter{}
	top := dir // the tree the watch names; dir becomes the copy, if one is made
	if len(srcs) > 0 && !cfg.Private {
		// Transpiling writes beside the sources: never into the user's
		// own checkout.
		tmp, err := os.MkdirTemp("", "")
		if err != nil {
			return nil, fmt.Errorf("node adapter: %w", err)
		}
		copyDir := filepath.Join(tmp, filepath.Base(dir))
		if err := copyTree(dir, copyDir, tmp); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("node adapter: private copy of %s: %w", dir, err)
		}
		a.copyDir = tmp
		for i, s := range srcs {
			rel, _ := filepath.Rel(dir, s)
			srcs[i] = filepath.Join(copyDir, rel)
		}
		dir = copyDir
	}
	esm, kept, claimed, err := transpileTree(dir, srcs, watchedIn(cfg.Watch, top, dir), nil)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("node adapter: %w", err)
	}
	if cfg.Private {
		privateOutputs.note(dir, claimed)
	}
	spec := newSpec(node.path, dir, cfg.Env, cfg.Timeout, cfg.Grace, cfg.MaxFrame)
	spec.roots = treeRoots(spec.dir)
	spec.memory = cfg.MemoryLimit
	if spec.memory == 0 {
		spec.memory = DefaultMemoryLimit
	}
	if spec.memory < 0 {
		spec.memory = 0
	}
	hook := "0"
	if esm {
		hook = "1"
	}
	// The worker is evaluated source, not a file: nothing in the subject's
	// tree can stand in for it, and no path names premise. Its protocol fds
	// are drawn from a high range per worker, as the Python worker's
	// (issue 26, item 7).
	spec.fdBase = 64 + int(rand.Uint32N(128))
	spec.args = append(append([]string{}, node.flags...), "--input-type=module", "--eval", nodeWorker,
		dir, strconv.Itoa(spec.maxFrame), strconv.Itoa(spec.fdBase), strconv.Itoa(spec.fdBase+1), hook,
		nodeWatch(cfg.Watch, top, dir, kept, claimed), boxedArg(), nodeEntriesArg(dir))
	spec.ready = true
	a.spec = spec
	return a, nil
}

// privateOutputs are the files an adapter transpiled into premise's
// private checkout of a side (NodeConfig.Private), by absolute path: not
// the side's own. A run of the base's tests copies that checkout and
// leaves them out, or a TypeScript test's stale output would stand as a
// JavaScript test of its name (tsTestBesideJS) and the test would not run.
var privateOutputs = &outputs{byDir: map[string][]string{}}

// outputs are files premise wrote into its private checkouts, by
// checkout and relative path.
type outputs struct {
	mu    sync.Mutex
	byDir map[string][]string
}

// note records the outputs (absolute paths) written into dir.
func (o *outputs) note(dir string, written map[string]bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for out := range written {
		if rel, err := filepath.Rel(dir, out); err == nil && filepath.IsLocal(rel) {
			o.byDir[dir] = append(o.byDir[dir], rel)
		}
	}
}

// in are the outputs recorded for dir, relative to it.
func (o *outputs) in(dir string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.byDir[dir])
}

// Close stops the worker and removes the private copy the adapter made.
func (a *NodeAdapter) Close() error {
	err := a.procAdapter.Close()
	if a.copyDir != "" {
		removeAll(a.copyDir)
		a.copyDir = ""
	}
	return err
}

// nodeBinary is a node resolved once: its real path and the flags this
// version takes.
type nodeBinary struct {
	path  string
	flags []string
	err   error
}

var nodeBinaries sync.Map // the path found on PATH -> *nodeBinary

// nodeMin is the oldest Node the worker runs on (node:module's register,
// util.types, structuredClone-era built-ins).
const nodeMin = 18

// resolveNode finds node (name, "node" when empty), the real executable
// behind a version manager's shim, and whether it takes
// --disable-wasm-trap-handler: V8 reserves gigabytes of address space for
// each WebAssembly memory's guard region, which the worker's address-space
// limit (RLIMIT_AS) would refuse; without the guard regions, bounds are
// checked in code and WebAssembly works under the limit. An error is an
// *InfraError saying what is missing.
func resolveNode(name string) (*nodeBinary, error) {
	if name == "" {
		name = "node"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, &InfraError{Reason: fmt.Sprintf("node %q not found (%v): JavaScript and TypeScript targets need Node %d or later on PATH", name, err, nodeMin)}
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, &InfraError{Reason: fmt.Sprintf("node %q: %v", name, err)}
	}
	if b, ok := nodeBinaries.Load(path); ok {
		nb := b.(*nodeBinary)
		return nb, nb.err
	}
	nb := probeNode(path)
	nodeBinaries.Store(path, nb)
	return nb, nb.err
}

func probeNode(path string) *nodeBinary {
	const script = `process.stdout.write(process.execPath + "\n" + process.versions.node)`
	run := func(flags ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, append(flags, "-e", script)...)
		cmd.Dir = os.TempDir()
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")} // no NODE_OPTIONS of the user's
		out, err := cmd.Output()
		return string(out), err
	}
	flags := []string{"--disable-wasm-trap-handler"}
	out, err := run(flags...)
	if err != nil {
		flags = nil
		out, err = run()
	}
	if err != nil {
		return &nodeBinary{err: &InfraError{Reason: fmt.Sprintf("node %s does not run: %v", path, err)}}
	}
	real, version, _ := strings.Cut(out, "\n")
	major, _ := strconv.Atoi(strings.SplitN(version, ".", 2)[0])
	if major < nodeMin {
		return &nodeBinary{err: &InfraError{Reason: fmt.Sprintf("node %s is version %s: JavaScript and TypeScript targets need Node %d or later", path, version, nodeMin)}}
	}
	if st, err := os.Stat(real); err == nil && filepath.IsAbs(real) && !st.IsDir() && st.Mode()&0o111 != 0 {
		path = real
	}
	return &nodeBinary{path: path, flags: flags}
}

// The sources premise transpiles, and the file each becomes beside it:
// what tsc writes with its output directory the source's own, so that the
// "./x.js" a TypeScript project imports ./x.ts by names the file Node
// finds, ".mts" and ".cts" keep their module kind, and a target's module
// path finds its emitted file by its source's extension.
var transpiledExt = map[string]string{".ts": ".js", ".mts": ".mjs", ".cts": ".cjs", ".tsx": ".js", ".jsx": ".js"}

// transpilable lists the regular files under dir premise transpiles, in
// the order their outputs are claimed (.ts before .tsx before .jsx, so a
// TypeScript source wins an output two sources would write): TypeScript
// and JSX outside node_modules and .git, not type declarations (.d.ts).
// Symbolic links are left alone: premise reads nothing outside the tree.
func transpilable(dir string) ([]string, error) {
	var first, later []string
	babel := babelProject(dir)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // an unreadable corner of the subject's tree
		}
		if d.IsDir() {
			if p != dir && (d.Name() == "node_modules" || d.Name() == ".git") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		name := d.Name()
		ext := filepath.Ext(name)
		if ext == ".js" && babel && mixedModule(p) {
			later = append(later, p)
			return nil
		}
		if _, ok := transpiledExt[ext]; !ok || isDeclaration(name) {
			return nil
		}
		if ext == ".ts" || ext == ".mts" || ext == ".cts" {
			first = append(first, p)
		} else {
			later = append(later, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// .tsx sorts before .jsx: TypeScript's JSX claims first.
	return append(first, later...), nil
}

// babelConfigs are the files that make a project's JavaScript Babel's to
// compile (jest runs its tests through babel-jest when one is there).
var babelConfigs = []string{"babel.config.js", "babel.config.cjs", "babel.config.mjs", "babel.config.json", ".babelrc", ".babelrc.js", ".babelrc.cjs", ".babelrc.json"}

// babelProject says whether dir's JavaScript is compiled by Babel: a Babel
// config at its top, or a "babel" key in its package.json, and no
// "type": "module" (Node then reads .js files as they are).
func babelProject(dir string) bool {
	pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	if regexp.MustCompile(`"type"\s*:\s*"module"`).Match(pkg) {
		return false
	}
	if regexp.MustCompile(`"babel"\s*:\s*\{`).Match(pkg) {
		return true
	}
	for _, name := range babelConfigs {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

var (
	esmSyntaxRe = regexp.MustCompile(`(?m)^\s*(import\s*[\w*{'"]|export\s+(default\b|const\b|let\b|var\b|function\b|class\b|async\b|\{|\*))`)
	cjsSyntaxRe = regexp.MustCompile(`\brequire\s*\(\s*['"]|(^|[^\w$.])exports\.[\w$]+\s*=|\bmodule\.exports\b`)
)

// mixedModule says whether a JavaScript file writes both ES module syntax
// and CommonJS (luxon's tests: import { DateTime } from "../../src/luxon"
// beside const Helpers = require("../helpers"); its test/helpers.js: an
// import beside exports.withNow = ...). Babel compiles such a file to
// CommonJS; Node reads it as neither, so premise compiles it as Babel
// would, in the private copy. A file of one kind is left to Node.
func mixedModule(p string) bool {
	src, err := os.ReadFile(p)
	if err != nil || len(src) > 1<<20 {
		return false
	}
	return esmSyntaxRe.Match(src) && cjsSyntaxRe.Match(src)
}

func isDeclaration(name string) bool {
	for _, s := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// jsTestPathRe is a path under a tests directory, or a file named as a
// test.
var jsTestPathRe = regexp.MustCompile(`(^|/)(tests?|__tests__|specs?)/|\.(test|spec)\.[^/]*$`)

// tsTestBesideJS says whether src is a TypeScript test whose output would
// replace a JavaScript test the tree holds beside it (currency.js'
// test/test.ts, a check of its typings, beside test/test.js, its suite):
// both are tests, not a source and its build, and the JavaScript one is
// kept.
func tsTestBesideJS(dir, src, out string) bool {
	if ext := filepath.Ext(src); ext != ".ts" && ext != ".mts" && ext != ".cts" && ext != ".tsx" {
		return false
	}
	rel, err := filepath.Rel(dir, src)
	if err != nil || !jsTestPathRe.MatchString(filepath.ToSlash(rel)) {
		return false
	}
	fi, err := os.Lstat(out)
	return err == nil && fi.Mode().IsRegular()
}

// transpileTree transpiles srcs, files under dir, each into its own
// output file beside it (transpiledExt), with esbuild's Transform: types
// stripped, nothing type-checked, nothing bundled, one file at a time.
// esm reports whether any output is an ES module.
//
// Why files beside the sources, not a loader: Node then loads plain
// JavaScript by its own rules, for ES modules and CommonJS alike, with no
// hook in its loader or in require (CommonJS has no public one on Node 20),
// and every relative import, JSON file, node_modules package and
// import.meta.url resolves from where the source sits, as under tsc. The
// private copy is premise's, so writing into it costs the user nothing. A
// hand-written x.js beside an x.ts is replaced: the TypeScript source is
// what the patch changed. A JSX file never replaces a JavaScript one, nor
// does a TypeScript test a JavaScript test (tsTestBesideJS).
//
// Each output's module kind is what Node will read it as: .mts is an ES
// module, .cts CommonJS, and .ts, .tsx and .jsx what the nearest
// package.json's "type" says, so import and export become require and
// exports in a CommonJS package, as tsc's module setting would make them.
// The nearest tsconfig.json inside dir is handed to esbuild as it stands
// (decorators, class fields, JSX settings; "extends" is not followed). A
// source esbuild refuses becomes a module that throws a SyntaxError naming
// the file, line and problem on import: a head that does not build fails
// its rows, and the other modules still load.
//
// The sources in watched are transpiled with a source map, kept with their
// output (nodecover.go); claimed are the outputs written.
//
// asWritten are sources whose module names are left as written: the
// merge-base's test files laid over a head's tree, which the head's
// tsconfig.json must not point at a file of its own (a vitest.ts beside
// baseUrl would stand in for premise's vitest).
func transpileTree(dir string, srcs []string, watched, asWritten map[string]bool) (esm bool, kept map[string]emitted, claimed map[string]bool, err error) {
	claimed = map[string]bool{}
	kept = map[string]emitted{}
	types := map[string]bool{}         // directory -> its package's "type" is module
	tsconfigs := map[string]tsconfig{} // directory -> the nearest tsconfig.json
	for _, src := range srcs {
		ext := filepath.Ext(src)
		out := strings.TrimSuffix(src, ext) + transpiledExt[ext]
		if ext == ".js" {
			out = src // a Babel project's mixed file, compiled in place
		}
		if claimed[out] {
			continue
		}
		if ext == ".jsx" || tsTestBesideJS(dir, src, out) {
			if _, err := os.Lstat(out); err == nil {
				continue
			}
		}
		claimed[out] = true
		module := ext == ".mts" || ext != ".cts" && ext != ".js" && packageIsModule(filepath.Dir(src), types)
		cfg := nearestTsconfig(dir, filepath.Dir(src), tsconfigs)
		code, smap, err := transpileFile(dir, src, module, cfg.text, watched[src])
		if err != nil {
			return esm, kept, claimed, err
		}
		// The names tsconfig.json maps, pointed at their files
		// (nodepaths.go). No line moves: a source map, read line by
		// line against this code, stays true.
		if !asWritten[src] {
			code = rewritePaths(code, out, cfg.paths)
		}
		if err := os.WriteFile(out, code, 0o644); err != nil {
			return esm, kept, claimed, fmt.Errorf("write %s: %w", out, err)
		}
		if smap != nil {
			kept[src] = emitted{out: out, code: code, smap: smap}
		}
		esm = esm || module
	}
	if len(srcs) > 0 {
		linkSelfExports(dir)
	}
	return esm, kept, claimed, nil
}

// transpileFile is src transpiled, and with withMap esbuild's source map
// of it (nil for a source esbuild refuses: nothing of it runs).
func transpileFile(dir, src string, module bool, tsconfig string, withMap bool) (code, smap []byte, err error) {
	text, err := os.ReadFile(src)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", src, err)
	}
	rel, _ := filepath.Rel(dir, src)
	rel = filepath.ToSlash(rel)
	if l := loaderFor(filepath.Ext(src)); l == api.LoaderTS || l == api.LoaderTSX {
		text = markTypeImports(src, text)
	}
	opts := api.TransformOptions{
		Sourcefile:  rel,
		Loader:      loaderFor(filepath.Ext(src)),
		Format:      api.FormatCommonJS,
		Platform:    api.PlatformNode,
		Target:      api.ES2022, // Node 18's language: decorators and newer syntax lowered
		TsconfigRaw: tsconfig,
		LogLevel:    api.LogLevelSilent,
	}
	if withMap {
		// The code is the same with the map as without: it is only
		// handed back beside it.
		opts.Sourcemap, opts.SourcesContent = api.SourceMapExternal, api.SourcesContentExclude
	}
	if module {
		opts.Format = api.FormatESModule
	}
	res := api.Transform(string(text), opts)
	if len(res.Errors) > 0 && tsconfig != "" {
		// A tsconfig.json esbuild cannot read must not hide the code.
		opts.TsconfigRaw = ""
		if again := api.Transform(string(text), opts); len(again.Errors) == 0 {
			res = again
		}
	}
	if len(res.Errors) > 0 {
		msg := "premise could not transpile " + rel + ": " + esbuildMessage(res.Errors[0])
		quoted, _ := json.Marshal(msg)
		return []byte("throw new SyntaxError(" + string(quoted) + ");\n"), nil, nil
	}
	code = rewriteTSImports(res.Code)
	if !module && opts.Loader != api.LoaderJS && opts.Loader != api.LoaderJSX && withoutInterop(tsconfig) {
		code = tscRequires(code)
	}
	return code, res.Map, nil // no map unless withMap
}

// interopRe finds the tsconfig settings under which tsc wraps a required
// module for ES imports, and an "extends" whose settings premise does not
// read.
var interopRe = regexp.MustCompile(`"(esModuleInterop|allowSyntheticDefaultImports|extends)"`)

// withoutInterop says whether a tsconfig.json's text has tsc compile
// imports to CommonJS without esModuleInterop: there is one, and it sets
// none of it.
func withoutInterop(tsconfig string) bool {
	return tsconfig != "" && !interopRe.MatchString(tsconfig)
}

// toESMRe is esbuild's wrapping of a required module for an ES import.
var toESMRe = regexp.MustCompile(`__toESM\((require\("[^"\\\n]*"\))\)`)

// tscRequires is esbuild's CommonJS output with each import's require
// unwrapped, as tsc without esModuleInterop compiles it: import * as
// assert from 'assert' is the module itself, which a test then calls,
// assert(ok) (jsonc-parser's tests), where esbuild's namespace copy is
// no function.
func tscRequires(code []byte) []byte {
	return toESMRe.ReplaceAll(code, []byte("$1"))
}

// tsImportRe is a relative module specifier naming a TypeScript file, as
// esbuild prints it: after from, import, import( or require(, in double
// quotes (esbuild writes every string literal so; a quote inside a string
// is escaped, so no string's text matches).
var tsImportRe = regexp.MustCompile(`((?:\bfrom|\bimport|\brequire)\s*\(?\s*)"(\.\.?/[^"\\\n]*?)(\.(?:ts|mts|cts|tsx))"`)

// rewriteTSImports points each relative import of a TypeScript file
// ("./utilities.ts", which tsc allows with allowImportingTsExtensions) at
// the file premise transpiled it to ("./utilities.js"), as tsc's
// rewriteRelativeImportExtensions does: Node loads no .ts file (an ES
// module's import of one fails, "Unknown file extension"; CommonJS would
// read its types as JavaScript). A declaration file's import was a type's
// and is gone from the output.
func rewriteTSImports(code []byte) []byte {
	return tsImportRe.ReplaceAllFunc(code, func(m []byte) []byte {
		sub := tsImportRe.FindSubmatch(m)
		if bytes.HasSuffix(sub[2], []byte(".d")) {
			return m // a declaration file: nothing was transpiled for it
		}
		out := append(append(append([]byte(nil), sub[1]...), '"'), sub[2]...)
		return append(append(out, transpiledExt[string(sub[3])]...), '"')
	})
}

func loaderFor(ext string) api.Loader {
	switch ext {
	case ".js":
		return api.LoaderJS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	}
	return api.LoaderTS
}

// esbuildMessage is one of esbuild's errors on one line: where and what,
// without the source line (premise quotes no file's contents).
func esbuildMessage(m api.Message) string {
	text := strings.Join(strings.Fields(m.Text), " ")
	if l := m.Location; l != nil {
		return fmt.Sprintf("line %d, column %d: %s", l.Line, l.Column+1, text)
	}
	return text
}

// packageIsModule reports whether Node reads a .js file in dir as an ES
// module: its nearest package.json says "type": "module". Node looks past
// the tree's top too; so does this, stopping where Node stops, at a
// node_modules directory.
func packageIsModule(dir string, cache map[string]bool) bool {
	var seen []string
	found := false
	for d := dir; ; {
		if v, ok := cache[d]; ok {
			found = v
			break
		}
		seen = append(seen, d)
		if data, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			var pj struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(data, &pj)
			found = pj.Type == "module"
			break
		}
		up := filepath.Dir(d)
		if up == d || filepath.Base(d) == "node_modules" {
			break
		}
		d = up
	}
	for _, d := range seen {
		cache[d] = found
	}
	return found
}

// tsconfig is a tsconfig.json's text and the module names it maps.
type tsconfig struct {
	text  string
	paths *tsPaths
}

// nearestTsconfig is the tsconfig.json nearest to from, no higher than
// top; the zero tsconfig when there is none.
func nearestTsconfig(top, from string, cache map[string]tsconfig) tsconfig {
	var seen []string
	var found tsconfig
	for d := from; ; {
		if v, ok := cache[d]; ok {
			found = v
			break
		}
		seen = append(seen, d)
		if info, err := os.Lstat(filepath.Join(d, "tsconfig.json")); err == nil && info.Mode().IsRegular() {
			if data, err := os.ReadFile(filepath.Join(d, "tsconfig.json")); err == nil {
				found = tsconfig{text: string(data), paths: readTsPaths(top, d, string(data))}
				break
			}
		}
		if d == top || filepath.Dir(d) == d {
			break
		}
		d = filepath.Dir(d)
	}
	for _, d := range seen {
		cache[d] = found
	}
	return found
}
