package evidence

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A patch that changes a data file (a table of units, a word list, a JSON
// document the code loads) changes what the code reading it does, though
// no function changed: a patch could leave its functions alone, or
// refactor one, and change the answers through the data (issue 26, verdict
// rules the head can steer). The functions that name a changed data file
// are judged as changed ones: a line naming it stands changed on both
// sides, so the function holding it is compared on base and head (or left
// "not checked", never passed over), and module data assigned there has
// its readers compared.

// dataExts are the extensions of the files code reads as data.
var dataExts = []string{".json", ".yaml", ".yml", ".toml", ".csv", ".tsv", ".txt", ".xml", ".ini", ".dat", ".tab", ".properties", ".tmpl", ".tpl", ".html", ".sql"}

// Bounds of the search for the code that reads a changed data file.
const (
	maxDataFiles       = 20      // changed data files followed
	maxScannedFiles    = 20000   // source files of the head's tree looked at
	maxScannedBytes    = 1 << 20 // a larger source file is not read
	maxDataReaderFiles = 20      // source files naming a changed data file
)

// changedData are the paths of the diff's changed data files: files of no
// language premise judges, with a data extension, not vendored or
// generated, outside test and documentation directories.
func changedData(res *diffparse.Result) []string {
	var out []string
	for _, f := range res.Files {
		p := f.Path
		if f.Status == "deleted" {
			p = f.OldPath
		}
		if f.Language != "" || f.Submodule || f.Excluded != "" || !slices.Contains(dataExts, strings.ToLower(path.Ext(p))) || notCodeDir(p) || projectFile(p) {
			continue
		}
		if len(out) < maxDataFiles {
			out = append(out, p)
		}
	}
	return out
}

// projectFiles are the names of a project's own manifests and tool
// settings: code that names one (a tool reading the pyproject.toml of the
// project it runs in) reads its user's, not its own data.
var projectFiles = regexp.MustCompile(`^(pyproject\.toml|package(-lock)?\.json|npm-shrinkwrap\.json|tsconfig(\..*)?\.json|jsconfig\.json|composer\.(json|lock)|cargo\.toml|requirements.*\.txt|constraints.*\.txt|tox\.ini|pytest\.ini|mypy\.ini|\.?codecov\.ya?ml|\.pre-commit-config\.yaml|\.travis\.yml|\.readthedocs\.ya?ml|mkdocs\.ya?ml|renovate\.json|\.?eslintrc.*|\.?prettierrc.*|babel\.config\.json|\.babelrc|lerna\.json|nx\.json|turbo\.json|deno\.jsonc?|bower\.json|environment\.ya?ml|citation\.cff|license.*|changelog.*|changes.*|news.*|history.*|authors.*|contributing.*|readme.*)$`)

// projectFile says p is one of a project's own manifests or settings
// files, or its license and release notes.
func projectFile(p string) bool { return projectFiles.MatchString(strings.ToLower(path.Base(p))) }

// notCodeDir says a path lies where no library code reads from: tests,
// their fixtures, documentation, CI settings, dependencies.
func notCodeDir(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "testdata", "__tests__", "spec", "fixtures", "docs", "doc", "examples", "node_modules", "vendor", ".github":
			return true
		}
	}
	return false
}

// dataNamePattern finds a source line that names the data file p: its
// base name in a string literal, alone or at the end of a path ("units.json",
// 'data/units.json', `./units.json`), or in a //go:embed directive.
func dataNamePattern(p string) *regexp.Regexp {
	b := regexp.QuoteMeta(path.Base(p))
	return regexp.MustCompile(`["'` + "`" + `](?:[^"'` + "`" + `\n]*/)?` + b + `["'` + "`" + `]|^\s*//go:embed\s(?:.*\s)?(?:\S*/)?` + b + `(?:\s|$)`)
}

// dataReaderFiles are, for the diff's changed data files, the source files
// of the head's tree (headDir) that name one, as changed files of their
// own: each line naming it changed on both sides (the base's from
// baseDir), and the functions and methods holding such a line, which the
// base has too, its changed symbols. A function the diff already counts as
// changed is left to its own file. Test files, and files the base lacks,
// are not taken.
func dataReaderFiles(res *diffparse.Result, headDir, baseDir string) []diffparse.File {
	files, _ := scanDataReaders(res, headDir, baseDir)
	return files
}

// scanDataReaders is dataReaderFiles, and the changed data files no
// source file of the head's tree that it read names (nil when it could
// not look: no checkouts; in a tree of more than maxScannedFiles sources,
// those of the first maxScannedFiles).
func scanDataReaders(res *diffparse.Result, headDir, baseDir string) ([]diffparse.File, []string) {
	data := changedData(res)
	if len(data) == 0 || headDir == "" || baseDir == "" {
		return nil, nil
	}
	pats := make([]*regexp.Regexp, len(data))
	for i, p := range data {
		pats[i] = dataNamePattern(p)
	}
	already := changedLocals(res)
	named := map[string]bool{}
	var out []diffparse.File
	sources := treeSources(headDir)
	for _, rel := range sources {
		head, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		names := false
		for _, p := range data {
			if strings.Contains(string(head), path.Base(p)) {
				named[p], names = true, true
			}
		}
		if !names || len(out) >= maxDataReaderFiles {
			continue
		}
		base, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		if f, ok := dataReaderFile(rel, diffparse.LanguageOf(rel), head, base, pats, already[rel], headDir); ok {
			out = append(out, f)
		}
	}
	// A tree past maxScannedFiles was not read whole: a data file none
	// of the files read names stays unnamed all the same (not checked,
	// never passed over).
	var unnamed []string
	for _, p := range data {
		if !named[p] {
			unnamed = append(unnamed, p)
		}
	}
	return out, unnamed
}

// treeSources are the source files of the head's tree (headDir) in the
// languages premise judges, as slash paths relative to it: library code
// only (no test file, nothing under a test, documentation or dependency
// directory, no hidden directory), regular files of at most
// maxScannedBytes, at most maxScannedFiles of them.
func treeSources(headDir string) []string {
	var out []string
	scanned := 0
	_ = filepath.WalkDir(headDir, func(abs string, d fs.DirEntry, err error) error {
		switch {
		case scanned >= maxScannedFiles:
			return filepath.SkipAll
		case err != nil:
			return nil
		}
		rel, _ := filepath.Rel(headDir, abs)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if abs != headDir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__" || notCodeDir(rel+"/x")) {
				return filepath.SkipDir
			}
			return nil
		}
		if diffparse.LanguageOf(rel) == "" || testFileName(rel) || !d.Type().IsRegular() {
			return nil
		}
		scanned++
		if info, err := d.Info(); err == nil && info.Size() <= maxScannedBytes {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// dataReaderFile is the source file rel as dataReaderFiles takes it, when
// a line of it names a changed data file.
func dataReaderFile(rel, lang string, head, base []byte, pats []*regexp.Regexp, taken map[string]bool, headDir string) (diffparse.File, bool) {
	// naming are the lines of a side (split once) that name a changed
	// data file, 1-based.
	naming := func(lines []string) []int {
		var out []int
		for i, l := range lines {
			for _, re := range pats {
				if re.MatchString(l) {
					out = append(out, i+1)
					if strings.Contains(l, "//go:embed") {
						out = append(out, i+2) // the variable it fills
					}
					break
				}
			}
		}
		return out
	}
	headText, baseText := strings.Split(string(head), "\n"), strings.Split(string(base), "\n")
	headLines, baseLines := naming(headText), naming(baseText)
	if len(headLines) == 0 {
		return diffparse.File{}, false
	}
	headDecls, err := diffparse.Decls(lang, head)
	if err != nil {
		return diffparse.File{}, false
	}
	baseDecls, err := diffparse.Decls(lang, base)
	if err != nil {
		return diffparse.File{}, false
	}
	text := func(lines []string, n int) string {
		if n-1 < len(lines) {
			return lines[n-1]
		}
		return ""
	}
	var h diffparse.Hunk
	for _, n := range baseLines {
		h.Lines = append(h.Lines, diffparse.Line{Kind: '-', Old: n, Text: text(baseText, n)})
	}
	for _, n := range headLines {
		h.Lines = append(h.Lines, diffparse.Line{Kind: '+', New: n, Text: text(headText, n)})
	}
	qualifier := diffparse.Qualifier(lang, rel, func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(p)))
		return b, err == nil
	})
	inBase := map[string]bool{}
	for _, d := range baseDecls {
		inBase[d.Local] = true
	}
	var syms []diffparse.Symbol
	seen := map[string]int{}
	for _, n := range headLines {
		d, ok := innermostFunc(headDecls, n)
		if !ok || !inBase[d.Local] || taken[d.Local] {
			continue
		}
		if i, dup := seen[d.Local]; dup {
			syms[i].ChangedLines = append(syms[i].ChangedLines, n)
			continue
		}
		name := d.Local
		if qualifier != "" && qualifier != "." {
			name = qualifier + "." + d.Local
		}
		seen[d.Local] = len(syms)
		syms = append(syms, diffparse.Symbol{Name: name, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End, ChangedLines: []int{n}})
	}
	moduleLevel := slices.ContainsFunc(headLines, func(n int) bool { _, in := innermostFunc(headDecls, n); return !in })
	if len(syms) == 0 && !moduleLevel {
		return diffparse.File{}, false
	}
	return diffparse.File{Path: rel, OldPath: rel, Status: "modified", Language: lang, Hunks: []diffparse.Hunk{h},
		HeadSrc: head, BaseSrc: base, Symbols: syms}, true
}

// innermostFunc is the smallest function or method of decls holding line.
func innermostFunc(decls []diffparse.Decl, line int) (diffparse.Decl, bool) {
	best, found := diffparse.Decl{}, false
	for _, d := range decls {
		if (d.Kind != "function" && d.Kind != "method") || line < d.Start || line > d.End {
			continue
		}
		if !found || d.End-d.Start < best.End-best.Start {
			best, found = d, true
		}
	}
	return best, found
}

// testFileName says a source file is a test by its name, in any of the
// languages premise judges, or a program's set-up rather than library code.
func testFileName(rel string) bool {
	name := path.Base(rel)
	switch {
	case strings.HasSuffix(name, "_test.go"), strings.HasPrefix(name, "test_"), strings.HasSuffix(name, "_test.py"),
		strings.Contains(name, ".test."), strings.Contains(name, ".spec."),
		name == "conftest.py", name == "setup.py", name == "noxfile.py":
		return true
	}
	return false
}

// ChangesData reports whether the diff changes a file code may read as
// data: a caller checks out base and head to look for its readers
// (ReadsChangedData) where no function changed.
func ChangesData(res *diffparse.Result) bool { return len(changedData(res)) > 0 }

// ReadsChangedData reports whether a function or module data of the
// head's tree names a data file the diff changes: the run may have
// something to compare.
func ReadsChangedData(res *diffparse.Result, headDir, baseDir string) bool {
	return len(dataReaderFiles(res, headDir, baseDir)) > 0
}

// dataReaders is what withDataReaders adds to a run: the source files
// naming changed data, the data files each of their functions names, and
// the changed data's words.
type dataReaders struct {
	files map[string]bool
	reads map[string][]string
	lits  []string
}

// withDataReaders is res with the files dataReaderFiles finds, and the
// changed data files nothing names, each not checked: code that builds a
// data file's name ("lim" + ".json") or lists a directory reads it
// unseen, and a change to it must not pass for checked beside the
// patch's other changes.
func withDataReaders(res *diffparse.Result, headDir, baseDir string) (*diffparse.Result, dataReaders, []SymbolRows) {
	extra, unnamed := scanDataReaders(res, headDir, baseDir)
	var unchecked []SymbolRows
	for _, p := range unnamed {
		unchecked = append(unchecked, SymbolRows{Symbol: p, Unchecked: true,
			Why: fmt.Sprintf("a changed data file no source file names: premise cannot find what reads it (a name the code builds, a directory it lists; it reads at most %d source files), so its change is not checked", maxScannedFiles)})
	}
	if len(extra) == 0 {
		return res, dataReaders{}, unchecked
	}
	data := changedData(res)
	dr := dataReaders{files: map[string]bool{}, reads: map[string][]string{}, lits: dataWords(res, data)}
	for _, f := range extra {
		dr.files[f.Path] = true
		for _, s := range f.Symbols {
			text := string(f.SymbolSource(s))
			for _, p := range data {
				if strings.Contains(text, path.Base(p)) {
					dr.reads[s.Name] = append(dr.reads[s.Name], p)
				}
			}
		}
	}
	out := *res
	out.Files = append(slices.Clip(res.Files), extra...)
	return &out, dr, unchecked
}

// mark gives the targets of the files it added what they read: the data
// files a changed reader names, and the changed data's words first among
// their literals (the key "k" of a table of units is the input that
// reaches the changed entry). A function the diff's own files made a
// target already (a reader of their changed module data) stays theirs.
func (dr dataReaders) mark(targets []lang.Target) []lang.Target {
	if len(dr.files) == 0 {
		return targets
	}
	seen := map[string]bool{}
	out := targets[:0]
	for _, tg := range targets {
		if seen[tg.Sym.Name] && dr.files[tg.BaseFile] {
			continue
		}
		seen[tg.Sym.Name] = true
		if dr.files[tg.BaseFile] {
			if r := dr.reads[tg.Sym.Name]; r != nil {
				tg.Reads = r
			}
			tg.DataLits = append(slices.Clip(dr.lits), tg.DataLits...)
		}
		out = append(out, tg)
	}
	return out
}

// maxDataWords bounds the words taken from changed data.
const maxDataWords = 40

// dataWordRe finds a word of a data file's line: a quoted string's text,
// else a run of characters between separators.
var dataWordRe = regexp.MustCompile(`"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s,;:=|\t"'{}\[\]<>()]+)`)

// dataWords are the words of the changed lines of the data files: the
// quoted strings of a JSON or YAML document, the entries of a word list
// or a table's row.
func dataWords(res *diffparse.Result, data []string) []string {
	var files []diffparse.File
	for _, f := range res.Files {
		if slices.Contains(data, f.Path) || slices.Contains(data, f.OldPath) {
			files = append(files, f)
		}
	}
	return changedWords(files, dataWordRe, maxDataWords)
}

// changedWords are the words re finds on the changed lines of files,
// both sides, each once, at most max: the text of the first of re's
// groups that matched.
func changedWords(files []diffparse.File, re *regexp.Regexp, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == ' ' {
					continue
				}
				for _, m := range re.FindAllStringSubmatch(l.Text, -1) {
					w := strings.Join(m[1:], "")
					if w == "" || len(w) > 80 || seen[w] || len(out) >= max {
						continue
					}
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}
