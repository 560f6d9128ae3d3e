package python

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
)

// pyInfo is what pysource read for one Python target.
type pyInfo struct {
	guesses map[string]pysource.Guess
	// data are the words of the changed data the function reads
	// (Target.DataLits): values of a parameter whose type stays unknown.
	data []string
	// baseGuesses are the parameters' types as the merge-base reads them:
	// what decides an input is outside a type (outside_python.go), which
	// the patch under review must not be able to move.
	baseGuesses map[string]pysource.Guess
	harvested   []pysource.Input
	consts      []pysource.Constant
	text        string // the function's source on both sides, for its comparisons
	// classValues are, by parameter, objects of the module's own class
	// its annotation names, built as receivers are (classParamValues).
	classValues map[string][]any
	// namedDefaults are, by parameter, a default that names a value of
	// the module (letter_value=_UPPERCASE_1_REL_INDEX), as an expression
	// the worker evaluates there: the value most callers pass.
	namedDefaults map[string]any
	// instances are the objects of a method's class the merge-base's
	// tests build (testInstances): receivers as the tests fill them.
	instances []pysource.Input
	// duckValues are, by parameter nothing types, objects of the module's
	// class its use fits, or lists of them (duckValues).
	duckValues map[string][]any
	// keys are, by name, the text keys the function reads of it as a
	// mapping on either side (pysource.ReadKeys): a parameter's become
	// dicts of those keys (keyedReads).
	keys map[string][]pysource.Key
}

// pyFiles holds the parsed files of one run.
type pyFiles struct {
	headDir string
	// baseDir is the base's checkout: its test files are read too, so a
	// patch that deletes or rewrites a test cannot take its inputs away.
	baseDir string
	// probe is set when there is no checkout to read tests from yet
	// (HasTargets): a target that needs harvested inputs is assumed to
	// have some.
	probe bool
	// perFunction is the row budget of one function, which a method's
	// receivers share.
	perFunction int
	tests       []*pysource.File
	read        bool
	// headText are the test files whose text only the head has (added or
	// rewritten by the patch): their inputs are the patch's words.
	headText map[*pysource.File]bool
	// roots are projectRoots, read once.
	roots map[string]bool
	// instances are testInstances by module and class, read once a run:
	// each of a class's changed methods and each parameter of its type
	// asks for them.
	instances map[string][]pysource.Input
	// modules are the project's modules read by import path (module),
	// nil where none reads.
	modules map[string]*pysource.File
}

// maxModuleBytes bounds a module read to type what a function hands on.
const maxModuleBytes = 1 << 20

// module reads one of the project's modules by its import path
// (dnslib.bit) as the merge-base has it (the head's tree when there is
// none), once a run: a function the changed one hands a parameter to is
// defined there (pysource.File.SetModules).
func (pf *pyFiles) module(name string) *pysource.File {
	if f, ok := pf.modules[name]; ok {
		return f
	}
	if pf.modules == nil {
		pf.modules = map[string]*pysource.File{}
	}
	pf.modules[name] = nil
	dir := pf.baseDir
	if dir == "" {
		dir = pf.headDir
	}
	if dir == "" || !pf.projectRoots()[strings.SplitN(name, ".", 2)[0]] {
		return nil
	}
	rel := filepath.FromSlash(strings.ReplaceAll(name, ".", "/"))
	for _, top := range []string{dir, filepath.Join(dir, "src")} {
		// Inside the tree only: a link out of it is read no more than
		// a test file that is one (walkTests).
		root, err := os.OpenRoot(top)
		if err != nil {
			continue
		}
		defer root.Close()
		for _, p := range []string{rel + ".py", filepath.Join(rel, "__init__.py")} {
			info, err := root.Lstat(p)
			if err != nil || !info.Mode().IsRegular() || info.Size() > maxModuleBytes {
				continue
			}
			src, err := root.ReadFile(p)
			if err != nil {
				continue
			}
			f, err := pysource.Parse(filepath.ToSlash(p), src)
			if err != nil || f == nil {
				continue
			}
			f.SetProject(pf.projectRoots())
			f.SetImportPath(name)
			f.SetModules(pf.module)
			pf.modules[name] = f
			return f
		}
	}
	return nil
}

// testFiles parses the repository's test files once: test_*.py, *_test.py
// and any .py under a tests/ or test/ directory, at the base and at the
// head (they are read, never run, here). The base's come first and count
// whatever the head did to them: a patch that deletes the test holding the
// revealing input, or rewrites it, does not take the input away (issue 26);
// a head's file the same as the base's is read once.
func (pf *pyFiles) testFiles() []*pysource.File {
	if pf.read || pf.headDir == "" {
		return pf.tests
	}
	pf.read = true
	seen := map[string]string{} // rel -> the text read there
	for _, dir := range []string{pf.baseDir, pf.headDir} {
		if dir == "" {
			continue
		}
		walkTests(dir, func(rel, path string) bool {
			src, err := os.ReadFile(path)
			if err != nil {
				return true
			}
			if text, ok := seen[rel]; ok && text == string(src) {
				return true
			}
			seen[rel] = string(src)
			if f, err := pysource.Parse(rel, src); err == nil {
				f.SetProject(pf.projectRoots())
				pf.tests = append(pf.tests, f)
				if dir == pf.headDir && pf.baseDir != "" {
					if pf.headText == nil {
						pf.headText = map[*pysource.File]bool{}
					}
					pf.headText[f] = true
				}
			}
			return len(pf.tests) < lang.MaxTestFiles
		})
	}
	return pf.tests
}

// projectRoots are the repository's own top-level packages and modules,
// read at the merge-base (the head's tree when there is none): a
// directory holding __init__.py, at the top or under src/, and a module at
// the top, but not the tests' own, setup.py or conftest.py. The tests'
// arguments may be built by them (pysource.File.SetProject).
func (pf *pyFiles) projectRoots() map[string]bool {
	if pf.roots != nil {
		return pf.roots
	}
	pf.roots = map[string]bool{}
	dir := pf.baseDir
	if dir == "" {
		dir = pf.headDir
	}
	for _, top := range []string{dir, filepath.Join(dir, "src")} {
		entries, err := os.ReadDir(top)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.IsDir():
				if info, err := os.Lstat(filepath.Join(top, name, "__init__.py")); err == nil && info.Mode().IsRegular() {
					pf.roots[name] = true
				}
			case e.Type().IsRegular() && strings.HasSuffix(name, ".py"):
				pf.roots[strings.TrimSuffix(name, ".py")] = true
			}
		}
	}
	for _, n := range []string{"test", "tests", "testing", "setup", "conftest", "noxfile", "fabfile"} {
		delete(pf.roots, n)
	}
	for n := range pf.roots {
		if strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test") || !pyIdent(n) {
			delete(pf.roots, n)
		}
	}
	return pf.roots
}

func pyIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// walkTests calls fn with each Python test file under root (relative, with
// slashes, and as a path) until fn returns false; hidden, vendored and
// build directories and files over maxTestFileBytes are passed over.
func walkTests(root string, fn func(rel, path string) bool) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "site-packages" ||
				name == "venv" || name == "__pycache__" || name == "build" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".py") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !isPyTestFile(rel) {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > lang.MaxTestFileBytes || !info.Mode().IsRegular() {
			return nil
		}
		if !fn(rel, path) {
			return filepath.SkipAll
		}
		return nil
	})
}

// isPyTestFile reports whether a repository-relative path is a file read
// for test inputs: test code (isPyTestCode), or a module under a test or
// testing directory, which may hold them too.
func isPyTestFile(rel string) bool {
	if isPyTestCode(rel) {
		return true
	}
	for _, part := range strings.Split(rel, "/") {
		if part == "test" || part == "testing" {
			return true
		}
	}
	return false
}

// pyFile is one changed Python file parsed once on each side.
type pyFile struct {
	head, base *pysource.File
	stub       *pysource.File
}

func (pf *pyFiles) parse(f diffparse.File) *pyFile {
	out := &pyFile{}
	out.head, _ = pysource.Parse(f.Path, f.HeadSrc)
	if f.BaseSrc != nil {
		p := f.OldPath
		if p == "" {
			p = f.Path
		}
		out.base, _ = pysource.Parse(p, f.BaseSrc)
	}
	// Its doctests run among the module's names: its imports of the
	// project's modules and its own definitions, imported from it.
	for _, m := range []*pysource.File{out.head, out.base} {
		if m == nil {
			continue
		}
		m.SetProject(pf.projectRoots())
		m.SetModules(pf.module)
		for _, s := range f.Symbols {
			if mod, ok := strings.CutSuffix(s.Name, "."+s.Local); ok {
				m.SetImportPath(mod)
				break
			}
		}
	}
	if pf.headDir != "" {
		stubPath := filepath.Join(pf.headDir, strings.TrimSuffix(f.Path, ".py")+".pyi")
		if src, err := os.ReadFile(stubPath); err == nil {
			out.stub, _ = pysource.Parse(strings.TrimSuffix(f.Path, ".py")+".pyi", src)
		}
	}
	return out
}

// info reads a target's guesses, harvested inputs and constants (of both
// versions: a boundary the patch moved is in one of them).
func (pf *pyFiles) info(file *pyFile, local string) *pyInfo {
	in := &pyInfo{}
	if file == nil || file.head == nil {
		return in
	}
	in.guesses, _ = pysource.InferTypes(file.head, local, file.stub)
	if file.base != nil {
		in.baseGuesses, _ = pysource.InferTypes(file.base, local, nil)
	}
	// The merge-base's tests first; then those only the patch wrote, whose
	// inputs are told apart (trusted).
	var fromBase, fromPatch []*pysource.File
	for _, t := range pf.testFiles() {
		if pf.headText[t] {
			fromPatch = append(fromPatch, t)
		} else {
			fromBase = append(fromBase, t)
		}
	}
	in.harvested = pysource.Harvest(file.head, local, fromBase, lang.MaxHarvest)
	patchWrote := map[string]bool{}
	if len(fromPatch) > 0 {
		seen := map[string]bool{}
		for _, h := range in.harvested {
			seen[inputKey(h)] = true
		}
		for _, h := range pysource.Harvest(file.head, local, fromPatch, lang.MaxHarvest) {
			if k := inputKey(h); !seen[k] {
				seen[k], patchWrote[k] = true, true
				in.harvested = append(in.harvested, h)
			}
		}
	}
	if file.base != nil {
		// The base's doctests are inputs too: a patch that edits the
		// docstring with the code must not hide what the base promised.
		seen := map[string]bool{}
		for _, h := range in.harvested {
			seen[inputKey(h)] = true
		}
		baseDocs := map[string]bool{}
		for _, h := range pysource.Harvest(file.base, local, nil, lang.MaxHarvest) {
			baseDocs[inputKey(h)] = true
			if !seen[inputKey(h)] {
				in.harvested = append(in.harvested, h)
			}
		}
		cls := ""
		if i := strings.LastIndex(local, "."); i >= 0 {
			cls = local[:i]
		}
		in.harvested = trusted(in.harvested, patchWrote, file.head.Path, cls, baseDocs)
	}
	seen := map[string]bool{}
	for _, f := range []*pysource.File{file.base, file.head} {
		if f == nil {
			continue
		}
		cs, _ := pysource.Constants(f, local)
		for _, c := range cs {
			k := c.Kind + "\x00" + c.Value + "\x00" + c.Operand
			if !seen[k] {
				seen[k] = true
				in.consts = append(in.consts, c)
			}
		}
		keys, _ := pysource.ReadKeys(f, local)
		in.keys = mergeKeys(in.keys, keys)
	}
	return in
}

// mergeKeys adds keys (one side's reading) to by, a key both sides read
// once, with what either compares it with.
func mergeKeys(by map[string][]pysource.Key, keys []pysource.Key) map[string][]pysource.Key {
	for _, k := range keys {
		if by == nil {
			by = map[string][]pysource.Key{}
		}
		i := slices.IndexFunc(by[k.Name], func(o pysource.Key) bool { return o.Key == k.Key })
		if i < 0 {
			k.Compared = slices.Clone(k.Compared)
			by[k.Name] = append(by[k.Name], k)
			continue
		}
		for _, c := range k.Compared {
			if !slices.Contains(by[k.Name][i].Compared, c) {
				by[k.Name][i].Compared = append(by[k.Name][i].Compared, c)
			}
		}
	}
	return by
}

// trusted keeps the inputs the base's worker may run (issue 26): those
// read at the merge-base (its tests, its doctests), and, of those only the
// patch wrote (patchTests: from a test it added or rewrote; a doctest it
// added to module), the ones that are plain data. An expression the patch wrote (a call, a
// name, an import) runs code in the worker it reaches, and the base's must
// answer as the merge-base does, whatever the patch's tests say.
func trusted(ins []pysource.Input, patchTests map[string]bool, module, cls string, baseDocs map[string]bool) []pysource.Input {
	out := ins[:0]
	for _, in := range ins {
		file, _, _ := strings.Cut(in.Pos, ":")
		k := inputKey(in)
		patchWrote := patchTests[k] || (file == module && !baseDocs[k])
		if !patchWrote || plainData(in, cls) {
			out = append(out, in)
		}
	}
	return out
}

// plainData says every argument of in is a literal, and its receiver, if
// any, a call of the method's own class cls with literal arguments.
func plainData(in pysource.Input, cls string) bool {
	for _, a := range in.Args {
		if _, ok := pyLiteral(a); !ok {
			return false
		}
	}
	for _, a := range in.Kwargs {
		if _, ok := pyLiteral(a); !ok {
			return false
		}
	}
	if in.Receiver == "" || in.Receiver == cls {
		return true // a function, or a static method called on its class
	}
	if c := in.ReceiverCall; c == nil || cls == "" || (c.Callee != cls && !strings.HasPrefix(c.Callee, cls+".")) {
		return false
	}
	for _, a := range in.ReceiverCall.Args {
		if _, ok := pyLiteral(a); !ok {
			return false
		}
	}
	for _, a := range in.ReceiverCall.Kwargs {
		if _, ok := pyLiteral(a); !ok {
			return false
		}
	}
	return true
}

func inputKey(in pysource.Input) string {
	var b strings.Builder
	b.WriteString(in.Receiver)
	for _, a := range in.Args {
		b.WriteString("\x00" + a)
	}
	for k, v := range in.Kwargs {
		b.WriteString("\x01" + k + "=" + v)
	}
	return b.String()
}

// close releases the run's parsed files.
func (pf *pyFiles) close() {
	for _, f := range pf.tests {
		f.Close()
	}
	for _, f := range pf.modules {
		if f != nil {
			f.Close()
		}
	}
}

// guessType maps a pysource guess to the templates' Type, nil-free: the
// part of it Type can say (unions and fixed tuples say more, and
// guessPool reads them itself).
func guessType(g pysource.Guess) lang.Type {
	t := lang.Type{Nullable: g.Nullable, From: g.From, Text: g.Text}
	switch g.Kind {
	case pysource.KindInt:
		t.Kind = lang.KindInt
	case pysource.KindFloat, pysource.KindNumber:
		t.Kind = lang.KindFloat
	case pysource.KindStr:
		t.Kind = lang.KindStr
	case pysource.KindBool:
		t.Kind = lang.KindBool
	case pysource.KindList, pysource.KindTuple, pysource.KindSet, pysource.KindSequence,
		pysource.KindIterable, pysource.KindIterator:
		t.Kind = lang.KindList
		if g.Elem != nil {
			if e := guessType(*g.Elem); e.Kind != lang.KindUnknown {
				t.Elem = &e
			}
		}
	case pysource.KindDict:
		t.Kind = lang.KindDict
		if g.Elem != nil {
			if e := guessType(*g.Elem); e.Known() {
				t.Elem = &e
			}
		}
	}
	return t
}

// mixedPool is the values of a parameter nothing speaks for: one of each
// shape a Python function is commonly given, so that whatever it takes,
// some rows reach its body (issue 13, part 2).
func mixedPool() []any {
	return []any{
		[]any{1, 2, 3}, 0, 1, -1, 3, "abc", "", "a b", []any{}, []any{3, 1, 2}, []any{1, 1},
		[]any{"a", "b"}, nil, 2.5, true, map[string]any{"a": 1},
		map[string]any{lang.ExprKey: "iter([3, 1, 2])"}, map[string]any{lang.ExprKey: "(1, 2)"},
	}
}

// guessPool is the values for a parameter from its guess, the typical one
// first; nil when the guess says nothing values can be built from.
func guessPool(g pysource.Guess, lits []string) []any {
	var out []any
	switch g.Kind {
	case "", pysource.KindAny, pysource.KindObject, pysource.KindBytes:
		return nil
	case pysource.KindCallable:
		// Functions no test passed: ones any caller might (truthiness,
		// identity, constants, a parity test, str, a negating key), as
		// expressions the worker evaluates; harvested ones come first.
		for _, e := range callablePool {
			out = append(out, map[string]any{lang.ExprKey: e})
		}
	case pysource.KindNone:
		return []any{nil}
	case pysource.KindUnion:
		var parts [][]any
		for _, p := range g.Parts {
			if pp := guessPool(p, lits); len(pp) > 0 {
				parts = append(parts, pp)
			}
		}
		out = lang.Interleave(parts)
	case pysource.KindNumber:
		out = lang.Interleave([][]any{lang.Pool(lang.Type{Kind: lang.KindInt}, lits), lang.Pool(lang.Type{Kind: lang.KindFloat}, lits)})
	case pysource.KindSized:
		out = lang.Interleave([][]any{listPool(nil, lits), lang.Pool(lang.Type{Kind: lang.KindStr}, lits)})
	case pysource.KindTuple:
		if len(g.Parts) > 0 {
			out = tuplePool(g.Parts, lits)
			break
		}
		out = listPool(g.Elem, lits)
	case pysource.KindList, pysource.KindSet, pysource.KindSequence, pysource.KindIterable, pysource.KindIterator:
		out = listPool(g.Elem, lits)
		if g.Kind == pysource.KindSequence || g.Kind == pysource.KindIterable {
			if g.Elem == nil || g.Elem.Kind == pysource.KindStr {
				// A string is a sequence of strings too.
				out = append(out, "abc", "")
			}
		}
		out = append(out, iterables(g.Kind, out)...)
	case pysource.KindDict:
		if out = keyedDicts(g, lits); out == nil {
			out = lang.Pool(guessType(g), lits)
		}
	default:
		out = lang.Pool(guessType(g), lits)
	}
	if g.Nullable {
		out = append(out, nil)
	}
	return lang.DedupeValues(out)
}

// maxKeyedDicts bounds the one-key dicts keyedDicts adds, one per key.
const maxKeyedDicts = 8

// keyedDicts are the dicts of a mapping whose keys are known to be
// numbers (dict[int, int]: hyperframe's settings, by setting id): a JSON
// object's keys are strings, so they are written as expressions. Beside
// the pool's usual shapes (one key, none, two), one dict per key of the
// number pool: the large and negative ids a mask or a range test
// (setting & 0xFF) treats apart. nil when the keys are text or unknown.
func keyedDicts(g pysource.Guess, lits []string) []any {
	if len(g.Parts) != 2 {
		return nil
	}
	switch g.Parts[0].Kind {
	case pysource.KindInt, pysource.KindFloat, pysource.KindNumber:
	default:
		return nil
	}
	isInt := g.Parts[0].Kind == pysource.KindInt
	var keys []any
	for _, k := range guessPool(pysource.Guess{Kind: g.Parts[0].Kind}, lits) {
		if f, ok := k.(float64); ok && isInt && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			k = int64(f)
		}
		if k != nil && !exprIn(k) {
			keys = append(keys, k)
		}
	}
	var vals []any
	for _, v := range guessPool(g.Parts[1], lits) {
		if v != nil {
			vals = append(vals, v)
		}
	}
	if len(keys) < 2 || len(vals) == 0 {
		return nil
	}
	dict := func(pairs ...[2]any) any {
		parts := make([]string, len(pairs))
		for i, p := range pairs {
			parts[i] = pyRepr(p[0], 0) + ": " + pyRepr(p[1], 0)
		}
		return map[string]any{lang.ExprKey: "{" + strings.Join(parts, ", ") + "}"}
	}
	v := func(i int) any { return vals[i%len(vals)] }
	out := []any{dict([2]any{keys[0], v(0)}), dict(), dict([2]any{keys[0], v(0)}, [2]any{keys[1], v(1)})}
	for i, k := range keys[1:] {
		if i >= maxKeyedDicts {
			break
		}
		out = append(out, dict([2]any{k, v(0)}))
	}
	return out
}

// maxIterables bounds the lists of a pool also passed as other iterables.
const maxIterables = 3

// iterables are a few of a pool's lists as the other iterables a
// parameter that iterates takes (issue 13, part 4): an iterator, which
// can be walked once and has no len() or index, and a tuple; a set for a
// set. A function that takes any iterable but was only written for lists
// breaks on these.
func iterables(kind string, pool []any) []any {
	wraps := []string{"iter(%s)", "tuple(%s)"}
	switch kind {
	case pysource.KindList:
		return nil // a list it is
	case pysource.KindSet:
		wraps = []string{"set(%s)", "iter(%s)"}
	case pysource.KindIterator:
		wraps = []string{"iter(%s)"}
	}
	var out []any
	n := 0
	for _, v := range pool {
		l, ok := v.([]any)
		if !ok || n >= maxIterables || exprIn(l) {
			continue
		}
		n++
		src := pyRepr(l, 0)
		for _, w := range wraps {
			out = append(out, map[string]any{lang.ExprKey: fmt.Sprintf(w, src)})
		}
	}
	return out
}

// exprIn says a value holds an expression, or a key of the row protocol,
// already: only plain values are written out as source.
func exprIn(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if exprIn(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.HasPrefix(k, "$") || exprIn(e) {
				return true
			}
		}
	}
	return false
}

// listPool is the lists for an element guess; of mixed elements when the
// element is unknown.
func listPool(elem *pysource.Guess, lits []string) []any {
	if elem != nil {
		if t := guessType(*elem); t.Known() {
			if p := lang.Pool(lang.Type{Kind: lang.KindList, Elem: &t}, lits); len(p) > 0 {
				return p
			}
		}
		if ep := guessPool(*elem, lits); len(ep) > 1 {
			out := []any{[]any{ep[0]}, []any{}, []any{ep[0], ep[1]}, []any{ep[1], ep[0]}, []any{ep[0], ep[0]}}
			if len(ep) > 2 {
				out = append(out, []any{ep[0], ep[1], ep[2]})
			}
			return out
		}
	}
	return []any{[]any{1, 2, 3}, []any{}, []any{0}, []any{3, 1, 2}, []any{1, 1, 2}, []any{"a", "b"},
		[]any{-1, 0, 1}, []any{[]any{1, 2}, []any{3, 4}}, []any{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
}

// tuplePool is fixed tuples (sent as lists): the typical of each field,
// then each field varied in turn.
func tuplePool(parts []pysource.Guess, lits []string) []any {
	pools := make([][]any, len(parts))
	for i, p := range parts {
		pools[i] = guessPool(p, lits)
		if len(pools[i]) == 0 {
			pools[i] = mixedPool()[:4]
		}
	}
	typical := func() []any {
		v := make([]any, len(parts))
		for i := range v {
			v[i] = pools[i][0]
		}
		return v
	}
	out := []any{typical()}
	for i := range pools {
		for _, v := range pools[i][1:min(4, len(pools[i]))] {
			t := typical()
			t[i] = v
			out = append(out, t)
		}
	}
	return out
}

// callablePool are the functions a callable parameter takes when the
// repository's own examples give none.
var callablePool = []string{
	"bool",
	"lambda *a, **k: a[0] if a else None",
	"lambda *a, **k: (a[0] % 2 == 0) if a and isinstance(a[0], int) else bool(a and a[0])",
	"lambda *a, **k: True",
	"lambda *a, **k: False",
	"str",
	"lambda x, *a, **k: -x if isinstance(x, (int, float)) else x",
}

// pyOf is what pysource read of a Python target; nil for another
// language's.
func pyOf(tg lang.Target) *pyInfo {
	info, _ := tg.Data.(*pyInfo)
	return info
}
