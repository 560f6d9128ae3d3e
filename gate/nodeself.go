package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// builtDirs are the directories a package's exports point at that its build
// fills from its sources.
var builtDirs = []string{"dist/", "lib/", "build/", "out/"}

// sourceExts are a source's extensions, in the order a built file's source
// is looked for.
var sourceExts = []string{".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs"}

// maxSelfExports bounds the exports a package's self-reference is mended
// for.
const maxSelfExports = 64

// linkSelfExports lets a package that imports itself by name (import
// {digest} from "ohash/crypto", its own "exports" pointing at
// ./dist/crypto/node/index.mjs) load from its sources in dir, premise's
// private copy, when that build is not there: each missing built file an
// export names gets a module that re-exports the source the build is made
// from, src/crypto/node/index.ts's output (the path under dist/ with the
// source's extension, under src/ or at the top). Node resolves the
// self-reference as it would after a build; a built file that exists, or
// one no source stands for, is left alone.
func linkSelfExports(dir string) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return
	}
	var pj struct {
		Name    string          `json:"name"`
		Type    string          `json:"type"`
		Exports json.RawMessage `json:"exports"`
	}
	if json.Unmarshal(data, &pj) != nil || pj.Name == "" || len(pj.Exports) == 0 {
		return
	}
	var targets []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 8 || len(targets) >= maxSelfExports {
			return
		}
		switch x := v.(type) {
		case string:
			targets = append(targets, x)
		case map[string]any:
			for k, c := range x {
				if k != "types" {
					walk(c, depth+1)
				}
			}
		case []any:
			for _, c := range x {
				walk(c, depth+1)
			}
		}
	}
	var exports any
	if json.Unmarshal(pj.Exports, &exports) != nil {
		return
	}
	walk(exports, 0)
	for _, t := range targets {
		rel, ok := strings.CutPrefix(t, "./")
		if !ok || strings.Contains(rel, "*") || strings.Contains(rel, "..") || strings.HasSuffix(rel, ".d.ts") || strings.HasSuffix(rel, ".d.mts") || strings.HasSuffix(rel, ".d.cts") {
			continue
		}
		ext := filepath.Ext(rel)
		if ext != ".js" && ext != ".mjs" && ext != ".cjs" {
			continue
		}
		out := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Lstat(out); err == nil {
			continue
		}
		var under string
		for _, b := range builtDirs {
			if s, ok := strings.CutPrefix(rel, b); ok {
				under = strings.TrimSuffix(s, ext)
				break
			}
		}
		if under == "" {
			continue
		}
		src := builtSource(dir, under)
		if src == "" {
			continue
		}
		// What Node loads for the source: its transpiled output.
		if o, ok := transpiledExt[filepath.Ext(src)]; ok {
			src = strings.TrimSuffix(src, filepath.Ext(src)) + o
		}
		r, err := filepath.Rel(filepath.Dir(out), src)
		if err != nil {
			continue
		}
		r = filepath.ToSlash(r)
		if !strings.HasPrefix(r, ".") {
			r = "./" + r
		}
		spec, _ := json.Marshal(r)
		var code string
		if ext == ".cjs" || ext == ".js" && pj.Type != "module" {
			code = "module.exports = require(" + string(spec) + ");\n"
		} else {
			code = "export * from " + string(spec) + ";\n"
		}
		if linkedBelow(dir, filepath.Dir(out)) || os.MkdirAll(filepath.Dir(out), 0o755) != nil {
			continue
		}
		_ = os.WriteFile(out, []byte(code), 0o644)
	}
}

// builtFormats are the words a build adds to a built file's name for its
// format or flavour (lib/marked.esm.js from src/marked.ts, dist/x.umd.min.js
// from src/x.js).
var builtFormats = map[string]bool{
	"esm": true, "es": true, "mjs": true, "cjs": true, "umd": true, "iife": true, "min": true,
	"module": true, "common": true, "commonjs": true, "node": true, "browser": true,
	"bundle": true, "development": true, "production": true, "dev": true, "prod": true,
}

// builtSource is the source file in dir a build makes the built file
// under (its path below the build directory, without its extension) from:
// that path with a source's extension, under src/ or at the top, first as
// it is, then with the format words a build adds (.esm, .min) taken off its
// name, last first. "" when none is there.
func builtSource(dir, under string) string {
	for name := under; ; {
		for _, base := range []string{"src/", ""} {
			for _, se := range sourceExts {
				cand := filepath.Join(dir, filepath.FromSlash(base+name+se))
				if fi, err := os.Lstat(cand); err == nil && fi.Mode().IsRegular() {
					return cand
				}
			}
		}
		i := strings.LastIndex(name, ".")
		if i <= strings.LastIndex(name, "/")+1 || !builtFormats[strings.ToLower(name[i+1:])] {
			return ""
		}
		name = name[:i]
	}
}

// linkedBelow reports whether a directory between dir and sub (sub
// included) is a symbolic link, or is not a directory: a file written
// there could land outside the tree.
func linkedBelow(dir, sub string) bool {
	rel, err := filepath.Rel(dir, sub)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return true
	}
	p := dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if os.IsNotExist(err) {
			return false // the rest is made by premise
		}
		if err != nil || fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir() {
			return true
		}
	}
	return false
}
