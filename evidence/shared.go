package evidence

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A module-level change reaches past its own file (issue 26, verdict
// rules the head can steer; and real fixes: a limit raised in a
// constants module): a Go constant read in another file of its package
// or by an importer, a Python name another module imports, a statement
// in a package's __init__ assigning into another module's function or
// table. The functions of other files reading what such a change binds
// are compared as changed ones, as the readers of a changed data file
// are (datafiles.go): each line naming it stands changed on both sides.
// A changed statement whose reach cannot be found is not checked, and
// keeps the run from saying the gate holds.

// maxSharedUserFiles bounds the files taken for one run's shared changes.
const maxSharedUserFiles = 20

// sharedChanges says a changed file of res binds at module level what
// other files may read: without a checkout, a run is worth one.
func sharedChanges(res *diffparse.Result, langs lang.Languages) bool {
	for _, f := range sharingFiles(res) {
		if ds, ok := langs[f.Language].(lang.DataSharer); ok && ds.ChangesShared(f) {
			return true
		}
	}
	return len(excludedCode(res, langs)) > 0
}

// sharingFiles are the changed files of res whose module-level changes
// are followed: library code the head has (a file the patch adds with an
// empty base).
func sharingFiles(res *diffparse.Result) []diffparse.File {
	var out []diffparse.File
	for _, f := range res.Files {
		if f.Excluded != "" || f.HeadSrc == nil || testFileName(f.Path) || notCodeDir(f.Path) {
			continue
		}
		if f.BaseSrc == nil {
			// A file the patch adds: all of it is new, and what its
			// module-level statements bind runs when it loads.
			f.BaseSrc = []byte{}
		}
		out = append(out, f)
	}
	return out
}

// withSharedUsers is res with, as changed files of their own, the files
// of the head's tree whose functions read what a changed file's
// module-level statements bind, the names each reader reads, and the
// changed statements no reader can be found for, as unchecked symbols.
func withSharedUsers(res *diffparse.Result, langs lang.Languages, headDir, baseDir string) (*diffparse.Result, dataReaders, []SymbolRows) {
	if headDir == "" || baseDir == "" {
		return res, dataReaders{}, nil
	}
	type sharer struct {
		f  diffparse.File
		ds lang.DataSharer
	}
	var sharers []sharer
	for _, f := range sharingFiles(res) {
		if ds, ok := langs[f.Language].(lang.DataSharer); ok && ds.ChangesShared(f) {
			sharers = append(sharers, sharer{f, ds})
		}
	}
	excluded, past := excludedSharers(res, langs, headDir, baseDir)
	var unchecked []SymbolRows
	if len(past) > 0 {
		unchecked = append(unchecked, SymbolRows{Symbol: strings.Join(past, ", "), Unchecked: true,
			Why: fmt.Sprintf("vendored or generated code the patch changes, past the %d files followed for one run", maxExcludedFiles)})
	}
	if len(sharers) == 0 && len(excluded) == 0 {
		return res, dataReaders{}, unchecked
	}
	files := treeSources(headDir)
	// Not cached: a language may read every file of a large tree once
	// to find the few importing a module.
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil
		}
		return b
	}
	already := changedLocals(res)
	// names are the names each user file may read, with the changed
	// file that binds them.
	names := map[string]map[string]string{}
	addUsers := func(from string, users map[string][]string) {
		for rel, ns := range users {
			if rel == from {
				continue
			}
			if names[rel] == nil {
				names[rel] = map[string]string{}
			}
			for _, n := range ns {
				names[rel][n] = from
			}
		}
	}
	unfollow := func(from string, lines []string) {
		for _, u := range lines {
			unchecked = append(unchecked, SymbolRows{Symbol: from + " " + u, Unchecked: true,
				Why: "a module-level statement premise cannot follow (it changes state at import, and premise cannot find what reads it, or it binds a function premise cannot call)"})
		}
	}
	for _, sh := range sharers {
		users, unfollowed := sh.ds.SharedUsers(sh.f, files, read)
		unfollow(sh.f.Path, unfollowed)
		addUsers(sh.f.Path, users)
	}
	// unread are the vendored and generated files whose change reaches
	// code the base has: one no function of the project is found to read
	// is not checked.
	unread := map[string]bool{}
	for _, ex := range excluded {
		// What its changed declarations define, and what its
		// module-level statements bind, as the project reads them.
		decls, modified := changedDeclNames(ex.f)
		users := ex.ds.UsersOf(ex.f, decls, files, read)
		shared, unfollowed := ex.ds.SharedUsers(ex.f, files, read)
		unfollow(ex.f.Path, unfollowed)
		for rel, ns := range shared {
			users[rel] = append(users[rel], ns...)
		}
		addUsers(ex.f.Path, users)
		if mustBeRead(ex.f) && (modified || len(shared) > 0) {
			unread[ex.f.Path] = true
		}
	}
	rels := make([]string, 0, len(names))
	for rel := range names {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	// The values the changed statements wrote (a limit's old and new
	// number) are the readers' edges, as a changed data file's words are.
	from := make([]diffparse.File, 0, len(sharers)+len(excluded))
	for _, sh := range sharers {
		from = append(from, sh.f)
	}
	for _, ex := range excluded {
		from = append(from, ex.f)
	}
	dr := dataReaders{files: map[string]bool{}, reads: map[string][]string{}, lits: sharedLits(from)}
	var extra []diffparse.File
	for i, rel := range rels {
		if len(extra) >= maxSharedUserFiles {
			// Readers past the bound are not compared: the run cannot
			// say they hold.
			unchecked = append(unchecked, SymbolRows{Symbol: strings.Join(rels[i:], ", "), Unchecked: true,
				Why: fmt.Sprintf("these files read what a module-level change binds, past the %d compared for one run", maxSharedUserFiles)})
			break
		}
		head := read(rel)
		base, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
		if head == nil || err != nil {
			continue
		}
		ns := make([]string, 0, len(names[rel]))
		for n := range names[rel] {
			ns = append(ns, n)
		}
		sort.Strings(ns)
		pats := make([]*regexp.Regexp, len(ns))
		for i, n := range ns {
			pats[i] = userPattern(n)
		}
		f, ok := dataReaderFile(rel, diffparse.LanguageOf(rel), head, base, pats, already[rel], headDir)
		if !ok {
			continue
		}
		extra = append(extra, f)
		dr.files[f.Path] = true
		for _, s := range f.Symbols {
			text := string(f.SymbolSource(s))
			for i, n := range ns {
				if pats[i].MatchString(text) {
					dr.reads[s.Name] = append(dr.reads[s.Name], strings.TrimPrefix(n, ".")+" ("+names[rel][n]+")")
				}
			}
		}
	}
	for _, rs := range dr.reads {
		for _, r := range rs {
			for p := range unread {
				if strings.HasSuffix(r, "("+p+")") {
					delete(unread, p)
				}
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(unread)) {
		unchecked = append(unchecked, SymbolRows{Symbol: p, Unchecked: true,
			Why: "vendored or generated code the patch changes, and premise finds no function of the project reading what changed"})
	}
	if len(extra) == 0 {
		return res, dataReaders{}, unchecked
	}
	out := *res
	out.Files = append(slices.Clip(res.Files), extra...)
	return &out, dr, unchecked
}

// userPattern finds a line reading a shared name: a bare name not after
// a dot (strings.Contains is not the package's Contains), or, written
// ".Name", the name as an attribute (consts.MAX_LEN, lim.MaxLen).
func userPattern(n string) *regexp.Regexp {
	if rest, ok := strings.CutPrefix(n, "."); ok {
		return regexp.MustCompile(`\.\s*` + regexp.QuoteMeta(rest) + `\b`)
	}
	return regexp.MustCompile(`(?:^|[^.\w$])` + regexp.QuoteMeta(n) + `\b`)
}

// merge is dr with other's files and reads.
func (dr dataReaders) merge(other dataReaders) dataReaders {
	if len(other.files) == 0 {
		return dr
	}
	if dr.files == nil {
		return other
	}
	for f := range other.files {
		dr.files[f] = true
	}
	for s, r := range other.reads {
		dr.reads[s] = append(dr.reads[s], r...)
	}
	dr.lits = append(dr.lits, other.lits...)
	return dr
}

// changedLocals are the local names of each changed file's symbols, by
// path: a function the diff already counts as changed stays its own
// file's.
func changedLocals(res *diffparse.Result) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, f := range res.Files {
		if out[f.Path] == nil {
			out[f.Path] = map[string]bool{}
		}
		for _, s := range f.Symbols {
			out[f.Path][s.Local] = true
		}
	}
	return out
}

// maxSharedLits bounds the literals taken from shared changes.
const maxSharedLits = 16

// sharedLitRe finds a literal of a changed line: a quoted string's text,
// or a number not part of a name (LIMIT = 45, "high": 5).
var sharedLitRe = regexp.MustCompile(`"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|(?:^|[^\w.$])(-?\d+(?:\.\d+)?)\b`)

// sharedLits are the literals of the changed lines of files, both sides.
func sharedLits(files []diffparse.File) []string {
	return changedWords(files, sharedLitRe, maxSharedLits)
}
