package gate

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Modules that import each other (ical.js' time.js and design.js) load
// only in the order the package's own entry imports them: imported alone,
// the one a row targets first reads its partner's binding before that is
// initialised ("Cannot access 'Time' before initialization"), and an ES
// module that threw once throws again on every import. The worker loads
// the entry of such a module's package first, as a caller of the package
// would: nodeEntries says which, read from the tree's import statements.

// maxOrderFiles bounds the modules read for their imports.
const maxOrderFiles = 4000

// maxOrderBytes bounds the text of one module read for its imports.
const maxOrderBytes = 1 << 20

// importRe finds a module's relative imports and re-exports, static and
// dynamic, and its relative requires.
var importRe = regexp.MustCompile(`(?m)(?:^\s*(?:import|export)\b[^;'"]*?\bfrom\s*|^\s*import\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.{1,2}/[^'"\n]*)['"]`)

// orderTestRe is a test's or a tool's path: never the entry a package's
// callers load.
var orderTestRe = regexp.MustCompile(`(^|/)(tests?|__tests__|__mocks__|spec|specs|e2e|bench|benchmarks?|examples?|samples?|scripts|tools|docs?|fixtures|node_modules|dist|build)(/|$)|\.(test|spec|bench)\.[cm]?[jt]sx?$`)

// orderExts are the files a module path may name, in Node's and tsc's
// order.
var orderExts = []string{".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"}

// nodeEntries maps each module of dir that is part of an import cycle to
// the module to load before it: of the modules in its top directory (or
// at the top of the tree) that no other module imports and that are no
// test's or tool's (its package's entries), the one that reaches it and
// the most modules. Modules are named as targets name
// them, by their path without extension. It is empty when no module is in
// a cycle.
func nodeEntries(dir string) map[string]string {
	mods := map[string][]string{} // module -> the modules it imports
	files := map[string]string{}  // module -> its file, the first of orderExts
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (d.Name() == "node_modules" || d.Name() == ".git") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(d.Name())
		if !slices.Contains(orderExts, ext) || isDeclaration(d.Name()) || !d.Type().IsRegular() || n >= maxOrderFiles {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		n++
		m := filepath.ToSlash(strings.TrimSuffix(rel, ext))
		mods[m] = nil
		if f, ok := files[m]; !ok || slices.Index(orderExts, ext) < slices.Index(orderExts, filepath.Ext(f)) {
			files[m] = p
		}
		return nil
	})
	for m, file := range files {
		text, err := readPrefix(file, maxOrderBytes)
		if err != nil {
			continue
		}
		var deps []string
		for _, sm := range importRe.FindAllStringSubmatch(text, -1) {
			if dep := resolveImport(mods, path.Dir(m), sm[1]); dep != "" && dep != m && !slices.Contains(deps, dep) {
				deps = append(deps, dep)
			}
		}
		mods[m] = deps
	}
	cyclic := inCycles(mods)
	if len(cyclic) == 0 {
		return nil
	}
	imported := map[string]bool{} // by a module that is no test's or tool's
	byTests := map[string]int{}   // how many tests and tools import it
	for m, deps := range mods {
		for _, d := range deps {
			if orderTestRe.MatchString(m) {
				byTests[d]++
			} else {
				imported[d] = true
			}
		}
	}
	var roots []string
	for m := range mods {
		if !imported[m] && !orderTestRe.MatchString(m) {
			roots = append(roots, m)
		}
	}
	// A cycle's own member may be the entry (ical.js' module.js, which
	// helpers.js imports back): the candidates are the roots and the
	// modules on cycles.
	for m := range cyclic {
		if !orderTestRe.MatchString(m) && !slices.Contains(roots, m) {
			roots = append(roots, m)
		}
	}
	slices.Sort(roots)
	reach := map[string]map[string]bool{}
	for _, r := range roots {
		reach[r] = reachable(mods, r)
	}
	// better says whether a is the likelier entry: it reaches more; then
	// more tests import it; then it imports more itself.
	better := func(a, b string) bool {
		if len(reach[a]) != len(reach[b]) {
			return len(reach[a]) > len(reach[b])
		}
		if byTests[a] != byTests[b] {
			return byTests[a] > byTests[b]
		}
		return len(mods[a]) > len(mods[b])
	}
	out := map[string]string{}
	for m := range cyclic {
		best := ""
		for _, r := range roots {
			if !reach[r][m] || topDir(r) != topDir(m) && topDir(r) != "" {
				continue
			}
			if best == "" || better(r, best) {
				best = r
			}
		}
		if best != "" && best != m {
			out[m] = best
		}
	}
	return out
}

// maxEntriesArg bounds the worker's ENTRIES argument: the kernel refuses
// an argument past 128 KiB, and a worker that does not start runs no row.
const maxEntriesArg = 64 << 10

// nodeEntriesArg is nodeEntries(dir) as the worker's argument: JSON, each
// entry with the modules loaded after it ({"lib/ical/module": ["lib/ical/time",
// ...]}), modules past maxEntriesArg left out (each then loads alone, as
// before).
func nodeEntriesArg(dir string) string {
	byEntry := map[string][]string{}
	size := 2
	entries := nodeEntries(dir)
	for _, m := range slices.Sorted(maps.Keys(entries)) {
		e := entries[m]
		if size += len(m) + 3; len(byEntry[e]) == 0 {
			size += len(e) + 6
		}
		if size > maxEntriesArg {
			break
		}
		byEntry[e] = append(byEntry[e], m)
	}
	b, err := json.Marshal(byEntry)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// readPrefix is the first max bytes of file as text.
func readPrefix(file string, max int) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, max)
	k, _ := f.Read(buf)
	return string(buf[:k]), nil
}

// resolveImport is the module a relative specifier of a module in from
// names, "" when it names none of mods: "./design.js", "../util" (tsc's
// form, without extension), "./lib" (its index).
func resolveImport(mods map[string][]string, from, spec string) string {
	p := path.Join(from, spec)
	if strings.HasPrefix(p, "../") || p == ".." {
		return ""
	}
	ext := path.Ext(p)
	for _, cand := range []string{strings.TrimSuffix(p, ext), p, p + "/index"} {
		if _, ok := mods[cand]; ok && cand != "" {
			return cand
		}
	}
	return ""
}

// inCycles are the modules on some import cycle (Tarjan's strongly
// connected components of more than one module).
func inCycles(mods map[string][]string) map[string]bool {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	out := map[string]bool{}
	next := 0
	var visit func(string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range mods[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				for _, w := range comp {
					out[w] = true
				}
			}
		}
	}
	keys := make([]string, 0, len(mods))
	for m := range mods {
		keys = append(keys, m)
	}
	slices.Sort(keys)
	for _, m := range keys {
		if _, seen := index[m]; !seen {
			visit(m)
		}
	}
	return out
}

// reachable are the modules from imports, itself included.
func reachable(mods map[string][]string, from string) map[string]bool {
	seen := map[string]bool{from: true}
	todo := []string{from}
	for len(todo) > 0 {
		m := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, d := range mods[m] {
			if !seen[d] {
				seen[d] = true
				todo = append(todo, d)
			}
		}
	}
	return seen
}

// topDir is a module's first directory, "" for one at the top.
func topDir(m string) string {
	if i := strings.IndexByte(m, '/'); i >= 0 {
		return m[:i]
	}
	return ""
}
