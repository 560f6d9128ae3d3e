package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
)

// A TypeScript project may import its own files by a name its
// tsconfig.json maps (sql-formatter: import BigQueryFormatter from
// 'src/languages/bigquery.formatter', with baseUrl "./" and paths
// {"src/*": ["./src/*"]}). tsc resolves such a name at compile time and a
// bundler or a path-rewriting plugin does at build time; Node never does,
// so every module importing one failed to load in premise's box. esbuild's
// Transform (one file, no resolution) leaves the name as written, so premise
// points it at the file it names, relatively, as tsc would have found it.

// tsPaths are a tsconfig.json's module names: paths patterns, each with the
// places it maps to, and baseUrl, where any other name may be found.
type tsPaths struct {
	top      string // the tree's top: nothing outside it is named
	base     string // the directory paths and baseUrl resolve from
	baseURL  bool   // baseUrl is set: a name may be a file below base
	patterns []tsPathPattern
}

type tsPathPattern struct {
	prefix, suffix string // around the pattern's *, or the whole name (star false)
	star           bool
	targets        []string
}

// readTsPaths reads compilerOptions.baseUrl and paths from the text of the
// tsconfig.json in dir; nil when it sets neither or does not parse.
func readTsPaths(top, dir, text string) *tsPaths {
	if text == "" || !strings.Contains(text, "baseUrl") && !strings.Contains(text, "paths") {
		return nil
	}
	std, err := hujson.Standardize([]byte(text))
	if err != nil {
		return nil
	}
	var cfg struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(std, &cfg) != nil {
		return nil
	}
	opts := cfg.CompilerOptions
	if opts.BaseURL == "" && len(opts.Paths) == 0 {
		return nil
	}
	p := &tsPaths{top: top, base: filepath.Join(dir, filepath.FromSlash(opts.BaseURL)), baseURL: opts.BaseURL != ""}
	for pat, targets := range opts.Paths {
		pre, suf, star := strings.Cut(pat, "*")
		p.patterns = append(p.patterns, tsPathPattern{prefix: pre, suffix: suf, star: star, targets: targets})
	}
	// tsc takes the pattern with the longest prefix before its star.
	sort.Slice(p.patterns, func(i, j int) bool {
		if len(p.patterns[i].prefix) != len(p.patterns[j].prefix) {
			return len(p.patterns[i].prefix) > len(p.patterns[j].prefix)
		}
		return p.patterns[i].prefix < p.patterns[j].prefix
	})
	return p
}

// tsResolveTries are what tsc tries after a name's path, in its order.
var tsResolveTries = []string{".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js"}

// resolve is the file a name maps to, without its extension (so that it
// names the file premise transpiles it to, as a relative import does);
// "" when it maps to none in the tree.
func (p *tsPaths) resolve(name string) string {
	for _, pat := range p.patterns {
		var star string
		switch {
		case pat.star && len(name) >= len(pat.prefix)+len(pat.suffix) && strings.HasPrefix(name, pat.prefix) && strings.HasSuffix(name, pat.suffix):
			star = name[len(pat.prefix) : len(name)-len(pat.suffix)]
		case !pat.star && name == pat.prefix:
		default:
			continue
		}
		for _, t := range pat.targets {
			if f := p.file(filepath.Join(p.base, filepath.FromSlash(strings.Replace(t, "*", star, 1)))); f != "" {
				return f
			}
		}
		return "" // tsc goes no further than the first pattern that matches
	}
	if p.baseURL {
		return p.file(filepath.Join(p.base, filepath.FromSlash(name)))
	}
	return ""
}

// file is the source at path, as tsc looks for it, without the extension
// it tried; "" when there is none in the tree.
func (p *tsPaths) file(path string) string {
	if rel, err := filepath.Rel(p.top, path); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	regular := func(f string) bool {
		info, err := os.Lstat(f)
		return err == nil && info.Mode().IsRegular()
	}
	if ext := filepath.Ext(path); transpiledExt[ext] != "" && regular(path) {
		return strings.TrimSuffix(path, ext) + transpiledExt[ext] // what premise wrote for it
	}
	if ext := filepath.Ext(path); (ext == ".js" || ext == ".mjs" || ext == ".cjs") && (regular(path) || regular(strings.TrimSuffix(path, ext)+".ts")) {
		return path // x.js, or x.ts named as its output, as tsc allows
	}
	for _, ext := range tsResolveTries {
		if regular(path + ext) {
			if ext == ".d.ts" {
				return "" // types only: nothing runs
			}
			if strings.HasPrefix(ext, "/") {
				return path + "/index"
			}
			return path
		}
	}
	return ""
}

// tsBareImportRe is a module specifier that is neither relative nor
// absolute, as esbuild prints it (double quotes): after from, import,
// import( or require(.
var tsBareImportRe = regexp.MustCompile(`((?:\bfrom|\bimport|\brequire)\s*\(?\s*)"([^"./\\\n:][^"\\\n:]*)"`)

// rewritePaths points each name of code (the output written to out) that
// p maps to a file at that file, relatively.
func rewritePaths(code []byte, out string, p *tsPaths) []byte {
	if p == nil {
		return code
	}
	return tsBareImportRe.ReplaceAllFunc(code, func(m []byte) []byte {
		sub := tsBareImportRe.FindSubmatch(m)
		f := p.resolve(string(sub[2]))
		if f == "" {
			return m
		}
		rel, err := filepath.Rel(filepath.Dir(out), f)
		if err != nil {
			return m
		}
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, "../") {
			rel = "./" + rel
		}
		return append(append(append(append([]byte(nil), sub[1]...), '"'), rel...), '"')
	})
}
