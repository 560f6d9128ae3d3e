package evidence

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A file the merge-base's policy excludes (vendored, generated, marked by
// .gitattributes or .premise.yaml) gets no symbols: nobody drafts
// assumptions about code its author did not write. Yet what it does is
// what the project's functions calling it do, and a patch can put its
// change there (issue 26, verdict rules the head can steer: a narrower
// Clamp in vendor/ left "the gate holds"). The project's own functions
// that read a name an excluded file's changes define are compared as
// changed ones, as the readers of a changed constant are (shared.go).
// A vendored change no function of the project is found to read is not
// checked, and says so.

// excludedSharer is a changed file the policy excludes, in a language
// that finds the files reading a module's names, with both sides read
// from the checkouts.
type excludedSharer struct {
	f  diffparse.File
	ds lang.DataSharer
}

// excludedCode are res's changed files the policy excludes, of the run's
// languages, that the head has and that are not tests.
func excludedCode(res *diffparse.Result, langs lang.Languages) []diffparse.File {
	var out []diffparse.File
	for _, f := range res.Files {
		if f.Excluded == "" || f.Submodule || f.Status == "deleted" || testFileName(f.Path) {
			continue
		}
		if _, ok := langs[f.Language].(lang.DataSharer); ok {
			out = append(out, f)
		}
	}
	return out
}

// maxExcludedFiles bounds the excluded files followed in one run: a
// dependency update can rewrite hundreds.
const maxExcludedFiles = 50

// excludedSharers are the excludedCode files of res with both sides read
// from headDir and baseDir (a file the base lacks has an empty base), and
// the paths of those past the bound.
func excludedSharers(res *diffparse.Result, langs lang.Languages, headDir, baseDir string) (out []excludedSharer, past []string) {
	for _, f := range excludedCode(res, langs) {
		if len(out) >= maxExcludedFiles {
			past = append(past, f.Path)
			continue
		}
		head, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(f.Path)))
		if err != nil {
			continue
		}
		old := f.OldPath
		if old == "" {
			old = f.Path
		}
		base, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(old)))
		if err != nil {
			base = []byte{}
		}
		f.HeadSrc, f.BaseSrc = head, base
		out = append(out, excludedSharer{f, langs[f.Language].(lang.DataSharer)})
	}
	return out, past
}

// changedDeclNames are the names the declarations f's diff changes
// define, on either side: a function's, a type's or class's and each of
// its methods' (pkg.(*Box).Get gives Box and Get); modified says one of
// them is a declaration the base has, not only ones the patch adds.
func changedDeclNames(f diffparse.File) (names map[string]bool, modified bool) {
	var head, base []diffparse.Decl
	if d, err := diffparse.Decls(f.Language, f.HeadSrc); err == nil {
		head = d
	}
	if d, err := diffparse.Decls(f.Language, f.BaseSrc); err == nil && len(f.BaseSrc) > 0 {
		base = d
	}
	inBase := map[string]bool{}
	for _, d := range base {
		inBase[d.Local] = true
	}
	names = map[string]bool{}
	unwrap := strings.NewReplacer("(*", "", "(", "", ")", "", "*", "")
	lang.EachChanged(f, lang.Sides(f, head, base), func(s lang.Side, n int) {
		for _, d := range s.Decls {
			if n < d.Start || n > d.End {
				continue
			}
			modified = modified || inBase[d.Local]
			for _, part := range strings.Split(unwrap.Replace(d.Local), ".") {
				if part != "" {
					names[part] = true
				}
			}
		}
	})
	return names, modified
}

// mustBeRead says a change of f, excluded as code of another project (a
// vendor directory the merge-base has, linguist-vendored) or as
// generated, is not checked unless a function of the project is found
// reading it: a hand edit of either is code no reviewer reads. A file the
// project's own settings exclude, a minified bundle or type declarations
// are left as the settings and the build say.
func mustBeRead(f diffparse.File) bool {
	return strings.HasPrefix(f.Excluded, "vendored") || strings.HasPrefix(f.Excluded, "generated")
}

// manifestUnchecked are what res's changed project files (files of no
// language premise judges) change in how a language's code builds or
// what it calls where premise does not follow it: a go.mod's replace
// directive, a package.json's "imports". Both sides are read from the
// checkouts at headDir and baseDir. Each keeps the run from saying the
// gate holds.
func manifestUnchecked(res *diffparse.Result, langs lang.Languages, headDir, baseDir string) []SymbolRows {
	var out []SymbolRows
	for _, f := range res.Files {
		if f.Language != "" || f.Submodule {
			continue
		}
		var readers []lang.ManifestReader
		for _, name := range langs.Names() {
			if mr, ok := langs[name].(lang.ManifestReader); ok {
				readers = append(readers, mr)
			}
		}
		if len(readers) == 0 {
			continue
		}
		head, base := sideOf(headDir, f.Path, f.Status != "deleted"), sideOf(baseDir, cmp.Or(f.OldPath, f.Path), f.Status != "added")
		seen := map[string]bool{} // JavaScript and TypeScript read package.json alike
		for _, mr := range readers {
			for _, line := range mr.ManifestChanges(f, base, head) {
				if seen[line] {
					continue
				}
				seen[line] = true
				out = append(out, SymbolRows{Symbol: f.Path + " " + line, Unchecked: true,
					Why: "the project file now changes how the code builds or which code it calls (a dependency's fork, a module map, the language's version or settings): the functions it reaches may answer otherwise, and premise does not compare them for it"})
			}
		}
	}
	return out
}

// sideOf is the file rel in the checkout at dir, nil where want is false
// or it cannot be read (a side the patch adds or deletes is empty to a
// ManifestReader).
func sideOf(dir, rel string, want bool) []byte {
	if !want {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	return data
}

// runnerUnchecked are the lines res's changed code adds that ask whether
// it runs under a test runner or in production (lang.RunnerReader): a
// head that behaves as the base does only where it is watched is not
// checked by watching it. Each keeps the run from saying the gate holds.
func runnerUnchecked(res *diffparse.Result, langs lang.Languages) []SymbolRows {
	var out []SymbolRows
	for _, f := range res.Files {
		rr, ok := langs[f.Language].(lang.RunnerReader)
		if !ok || f.HeadSrc == nil || f.Excluded != "" {
			continue
		}
		for _, line := range rr.RunnerTells(f) {
			out = append(out, SymbolRows{Symbol: f.Path + " " + line, Unchecked: true,
				Why: "the patch asks whether the code runs under a test runner or in production: what it does under premise's worker need not be what it does in use, and premise does not compare the two"})
		}
	}
	return out
}
