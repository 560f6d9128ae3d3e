package golang

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
)

// A changed package's own tests are often not where it is tested: a
// parser's blocks are tested through the module's Convert and its
// CommonMark examples, a runtime's helpers through the compiler's
// programs in the root package or a test/ tree. The packages of the
// module whose code or tests import a changed package (or import one that
// does) are its dependents; their tests that reach it run too, under
// -coverpkg, so the changed lines they ran count and a failure is filed
// under the changed function it ran.

// dependent is a package of the base's module that imports a changed
// package, directly or through one other.
type dependent struct {
	dir   string   // relative to the base's top, slash-separated
	names []string // what its code calls the packages it reaches the change through
	level int      // 1: imports a changed package; 2: through one other
}

// maxWalkedFiles bounds the Go files read for their imports.
const maxWalkedFiles = 4000

// changedGo are targets and, for each function or method of a changed Go
// file of diff that no target stands for (one with parameters no row can
// build), a target of its own: the base's tests run for its package and
// file their failures under it, though no row calls it.
func changedGo(diff *diffparse.Result, targets []lang.Target) []lang.Target {
	var out []lang.Target
	have := map[string]bool{}
	for _, tg := range targets {
		if tg.Lang != "go" || tg.HeadOnly || tg.BaseFile == "" {
			continue
		}
		have[tg.Sym.Name] = true
		out = append(out, tg)
	}
	if diff == nil {
		return out
	}
	for _, f := range diff.Files {
		if f.Language != "go" || f.Excluded != "" || f.Status == "added" || strings.HasSuffix(f.Path, "_test.go") {
			continue
		}
		base := f.Path
		if f.OldPath != "" {
			base = f.OldPath
		}
		for _, s := range f.Symbols {
			if (s.Kind != "function" && s.Kind != "method") || s.Change != "modified" || have[s.Name] {
				continue
			}
			have[s.Name] = true
			out = append(out, lang.Target{Sym: s, Lang: "go", BaseFile: base})
		}
	}
	return out
}

// importPathOf is the import path of a Go target's package.
func importPathOf(tg lang.Target) string {
	return strings.TrimSuffix(tg.Sym.Name, "."+tg.Sym.Local)
}

// dependents are the packages under top (the base's checkout) with tests
// that import one of changed (import path -> directory relative to top),
// the module's root package first, then those that import one directly,
// then through one other; never one of changed itself.
func dependents(top string, changed map[string]string) []dependent {
	// The module's path, from a changed package's import path and its
	// directory (a module at the top of the checkout; none found, none).
	modPath := ""
	for imp, dir := range changed {
		if dir == "." {
			modPath = imp
		} else if p, ok := strings.CutSuffix(imp, "/"+filepath.ToSlash(dir)); ok {
			modPath = p
		}
		if modPath != "" {
			break
		}
	}
	if modPath == "" {
		return nil
	}
	type pkg struct {
		dir     string
		name    string
		imports map[string]string // import path -> the name the files use
		tests   bool
	}
	var pkgs []*pkg
	byDir := map[string]*pkg{}
	read := 0
	filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != top && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			if p != top {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || read >= maxWalkedFiles {
			return nil
		}
		read++
		pkgName, imports, err := gosource.FileImports(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(top, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		k := byDir[rel]
		if k == nil {
			k = &pkg{dir: rel, imports: map[string]string{}}
			byDir[rel] = k
			pkgs = append(pkgs, k)
		}
		test := strings.HasSuffix(name, "_test.go")
		k.tests = k.tests || test
		if !test || k.name == "" {
			k.name = strings.TrimSuffix(pkgName, "_test")
		}
		for _, im := range imports {
			if _, ok := k.imports[im.Path]; !ok || im.Name != "" {
				k.imports[im.Path] = im.Name
			}
		}
		return nil
	})
	pathOf := func(dir string) string {
		if dir == "." {
			return modPath
		}
		return modPath + "/" + dir
	}
	nameOf := func(ip, local string) string {
		if local != "" && local != "_" && local != "." {
			return local
		}
		if k := byDir[strings.TrimPrefix(strings.TrimPrefix(ip, modPath), "/")]; k != nil && k.name != "" && (ip == modPath || strings.HasPrefix(ip, modPath+"/")) {
			return k.name
		}
		return path.Base(ip)
	}
	reach := map[string]int{} // import path -> level
	for imp := range changed {
		reach[imp] = 0
	}
	for level := 1; level <= 2; level++ {
		var next []string
		for _, k := range pkgs {
			ip := pathOf(k.dir)
			if _, done := reach[ip]; done {
				continue
			}
			for imp := range k.imports {
				if l, ok := reach[imp]; ok && l == level-1 {
					next = append(next, ip)
					break
				}
			}
		}
		for _, ip := range next {
			reach[ip] = level
		}
	}
	// A dependent's tests reach the change through any package that
	// does (Eval -> Compile -> conf -> builtin): its names are those of
	// every such package it imports.
	var out []dependent
	for _, k := range pkgs {
		level, ok := reach[pathOf(k.dir)]
		if !ok || level == 0 || !k.tests {
			continue
		}
		var names []string
		for imp, local := range k.imports {
			if _, ok := reach[imp]; ok {
				names = append(names, nameOf(imp, local))
			}
		}
		sort.Strings(names)
		out = append(out, dependent{dir: k.dir, names: slices.Compact(names), level: level})
	}
	sort.SliceStable(out, func(i, j int) bool {
		// The module's root package first, whatever its level: a
		// library's API, where its tests of whole inputs live.
		if (out[i].dir == ".") != (out[j].dir == ".") {
			return out[i].dir == "."
		}
		if out[i].level != out[j].level {
			return out[i].level < out[j].level
		}
		return out[i].dir < out[j].dir
	})
	return out
}
