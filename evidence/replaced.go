package evidence

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// replaced pairs a function the head adds with the function of the same
// name that another changed file stopped importing for it (issue 26: a
// package's __init__ that switched `from .core import clamp` to `from
// .fast import clamp` changed what its callers call, while core.clamp,
// untouched, and fast.clamp, new, were each judged alone). The new
// function is compared with the one it replaced, called on the base by
// that one's name. The rule reads only the diff's lines: a removed line
// naming the function and its old module, an added line naming it and
// the new one; or a project's manifest whose entry point moved from the
// old module to the new one.
func replaced(res *diffparse.Result, targets []lang.Target, baseDir string) []lang.Target {
	if baseDir == "" {
		return targets
	}
	for i := range targets {
		tg := &targets[i]
		if !tg.HeadOnly || tg.Sym.Kind != "function" || tg.Call != "" || tg.BaseFile == "" {
			continue
		}
		name := lang.BareName(tg.Sym.Local)
		newStem := stem(tg.BaseFile)
		nameRe := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
		newRe := regexp.MustCompile(`\b` + regexp.QuoteMeta(newStem) + `\b`)
		for _, f := range res.Files {
			if f.Path == tg.BaseFile || f.Language != tg.Lang && !(f.Language == "" && projectFile(f.Path)) {
				continue
			}
			// A manifest's entry point ("main": "src/fast.js") names
			// the module, not the function: every function of the new
			// one replaces the old one's of its name.
			manifest := f.Language == "" && projectFile(f.Path)
			var removed, added []string
			for _, h := range f.Hunks {
				for _, l := range h.Lines {
					switch {
					case l.Kind == '-' && (manifest || nameRe.MatchString(l.Text) || starRe.MatchString(l.Text)):
						removed = append(removed, l.Text)
					case l.Kind == '+' && (manifest || nameRe.MatchString(l.Text) || starRe.MatchString(l.Text)) && newRe.MatchString(l.Text):
						added = append(added, l.Text)
					}
				}
			}
			if len(added) == 0 || len(removed) == 0 {
				continue
			}
			if old, text, ok := oldHome(removed, name, newStem, tg.BaseFile, f.Path, baseDir); ok {
				tg.HeadOnly = false
				tg.Sym.Change = "modified"
				tg.BaseName = old
				tg.BaseFile = text.file
				tg.BaseText = text.src
				break
			}
		}
	}
	return targets
}

// starRe is an import of every name a module has: from .core import *,
// export * from "./core".
var starRe = regexp.MustCompile(`\bimport\s+\*\s*$|\bexport\s+\*\s+from\b`)

// stem is a file's name without its extension (or its directory's, for
// a package's __init__ or index).
func stem(p string) string {
	b := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if b == "__init__" || b == "index" {
		return path.Base(path.Dir(p))
	}
	return b
}

type baseFunc struct{ file, src string }

// oldHome finds, among the words of the removed lines, a module beside
// the new one (or beside the changed file) whose base declares name: the
// function the removed import bound. It returns that function's
// qualified name and text.
func oldHome(removed []string, name, newStem, newFile, changed, baseDir string) (string, baseFunc, bool) {
	ext := path.Ext(newFile)
	seen := map[string]bool{}
	for _, line := range removed {
		for _, w := range regexp.MustCompile(`[A-Za-z_]\w*`).FindAllString(line, -1) {
			if w == name || w == newStem || seen[w] {
				continue
			}
			seen[w] = true
			for _, rel := range []string{path.Join(path.Dir(newFile), w+ext), path.Join(path.Dir(changed), w+ext)} {
				src, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
				if err != nil {
					continue
				}
				lng := diffparse.LanguageOf(rel)
				decls, err := diffparse.Decls(lng, src)
				if err != nil {
					continue
				}
				for _, d := range decls {
					if d.Local != name || d.Kind != "function" {
						continue
					}
					q := diffparse.Qualifier(lng, rel, func(p string) ([]byte, bool) {
						b, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(p)))
						return b, err == nil
					})
					full := name
					if q != "" && q != "." {
						full = q + "." + name
					}
					return full, baseFunc{rel, lang.Span(src, d.Start, d.End)}, true
				}
			}
		}
	}
	return "", baseFunc{}, false
}
