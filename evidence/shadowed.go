package evidence

import (
	"os"
	"path/filepath"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A file the head adds can take the import name of one it leaves in
// place (issue 26, verdict rules the head can steer): app/clamp/__init__.py
// beside app/clamp.py is what `from app.clamp import clamp` loads, so
// every importer calls the new package's clamp while the old module,
// untouched, and the new one, added, were each judged alone (a new
// function runs on the head only). The shadowed file is judged as changed
// whole: each of its functions is called by the name it has on both
// sides, the base's module there, whatever the name resolves to on the
// head.

// (JavaScript's a.js before a/index.js needs no such rule: rows name a
// function by its file, and the importers of the added file are its
// readers, shared.go.)

// withShadowed is res with, for each file the patch adds that a language
// resolves before a file both sides still have, that file as one whose
// every function and method changed; res itself when there is none.
func withShadowed(res *diffparse.Result, langs lang.Languages, headDir, baseDir string) *diffparse.Result {
	if headDir == "" || baseDir == "" {
		return res
	}
	inDiff := map[string]bool{}
	for _, f := range res.Files {
		inDiff[f.Path] = true
	}
	var extra []diffparse.File
	for _, f := range res.Files {
		sh, ok := langs[f.Language].(lang.Shadower)
		if !ok || f.Status != "added" || f.Excluded != "" {
			continue
		}
		for _, rel := range sh.Shadows(f.Path) {
			if inDiff[rel] {
				continue // changed or deleted itself: judged as such
			}
			base, errB := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
			head, errH := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
			if errB != nil || errH != nil {
				continue
			}
			if g, ok := shadowedFile(rel, diffparse.LanguageOf(rel), base, head, baseDir); ok {
				extra = append(extra, g)
				inDiff[rel] = true
			}
		}
	}
	if len(extra) == 0 {
		return res
	}
	out := *res
	out.Files = append(append([]diffparse.File(nil), res.Files...), extra...)
	return &out
}

// shadowedFile is the file rel, the same on both sides, with each of its
// functions and methods a symbol the patch modified.
func shadowedFile(rel, language string, base, head []byte, baseDir string) (diffparse.File, bool) {
	decls, err := diffparse.Decls(language, base)
	if err != nil {
		return diffparse.File{}, false
	}
	q := diffparse.Qualifier(language, rel, func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(p)))
		return b, err == nil
	})
	f := diffparse.File{Path: rel, Language: language, Status: "modified", BaseSrc: base, HeadSrc: head}
	for _, d := range decls {
		if d.Kind != "function" && d.Kind != "method" {
			continue
		}
		name := d.Local
		if q != "" && q != "." {
			name = q + "." + d.Local
		}
		f.Symbols = append(f.Symbols, diffparse.Symbol{Name: name, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
	}
	return f, len(f.Symbols) > 0
}
