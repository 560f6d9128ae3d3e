package diffparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// Config says which diff Load reads.
type Config struct {
	// Repo is a directory inside a work tree, or a bare repository; "" is
	// the current directory.
	Repo string
	// Base is the revision the patch is compared against. "" means the
	// remote's default branch (origin/HEAD), else main, else master.
	Base string
	// Head is the patch's revision; "" means HEAD.
	Head string
	// Patch, when set, is read as the unified diff instead of running git
	// diff; symbols then come from Repo at Head (seed 004, Step 1: the
	// patch as handed over).
	Patch io.Reader
	// PatchName names Patch in errors: a file path, or "<stdin>".
	PatchName string
	// Exclude adds path globs to those of .premise.yaml.
	Exclude []string
	// NoSources drops each file's HeadSrc and BaseSrc once its symbols
	// are mapped, for a caller that needs only the symbols (premise
	// diff): on a long range the sources are tens of megabytes, and
	// memory freed as files are done is memory the next ones reuse.
	NoSources bool
}

// Load reads the diff base...head (against the merge-base, as in seed 004,
// Step 1) or the patch of cfg, and returns its files with hunks, both sides'
// sources and changed symbols. File contents are git's blobs, read
// through one `git cat-file --batch` process, so a dirty checkout or a
// bare repository gives the same answer.
//
// Errors: a directory that is not a repository wraps git.ErrNotRepo, an
// unknown revision git.ErrBadRev, unrelated histories git.ErrNoMergeBase, a
// malformed diff is an *Error. A file that does not parse is not an error:
// it is listed with ParseError set.
func Load(ctx context.Context, cfg Config) (*Result, error) {
	repo, err := git.Open(ctx, cfg.Repo)
	if err != nil {
		return nil, err
	}
	head := cfg.Head
	if head == "" {
		head = "HEAD"
	}
	if cfg.Patch != nil {
		return loadPatch(ctx, repo, cfg, head)
	}
	base := cfg.Base
	if base == "" {
		if base, err = repo.DefaultBase(ctx); err != nil {
			return nil, err
		}
	}
	res := &Result{}
	mb, err := resolve(ctx, repo, res, base, head)
	if err != nil {
		return nil, err
	}
	text, err := repo.Diff(ctx, mb, res.Head)
	if err != nil {
		return nil, err
	}
	if res.Files, err = Parse(text, fmt.Sprintf("git diff %s...%s", base, head)); err != nil {
		return nil, err
	}
	if err := sourcesAsText(ctx, repo, res, mb, base, head); err != nil {
		return nil, err
	}
	if len(res.Files) == 0 {
		return res, nil
	}
	cat, err := repo.Catter(ctx)
	if err != nil {
		return nil, err
	}
	defer cat.Close()
	l := &loader{cat: cat, head: res.Head, base: mb, noSources: cfg.NoSources}
	// Policy comes from the base side: nothing the patch writes may hide
	// a file from premise (DESIGN.md, Principles).
	if l.ex, err = newExcluder(cat, mb, cfg.Exclude); err != nil {
		return nil, err
	}
	if err := l.fill(ctx, res.Files, l.gitSources); err != nil {
		return nil, err
	}
	return res, nil
}

// loadPatch is Load for a patch: its symbols come from the repository at
// head.
func loadPatch(ctx context.Context, repo *git.Repo, cfg Config, head string) (*Result, error) {
	shas, err := repo.RevParse(ctx, head)
	if err != nil {
		return nil, err
	}
	res := &Result{Head: shas[0]}
	name := cfg.PatchName
	if name == "" {
		name = "<patch>"
	}
	text, err := io.ReadAll(cfg.Patch)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	cat, err := repo.Catter(ctx)
	if err != nil {
		return nil, err
	}
	defer cat.Close()
	if res.Files, err = Parse(text, name); err != nil {
		return nil, err
	}
	if len(res.Files) == 0 {
		return res, nil
	}
	l := loader{cat: cat, head: res.Head, base: res.MergeBase, patch: true}
	// A patch has only --head to read policy from.
	if l.ex, err = newExcluder(cat, res.Head, cfg.Exclude); err != nil {
		return nil, err
	}
	if err := l.fill(ctx, res.Files, l.patchSources); err != nil {
		return nil, err
	}
	return res, nil
}

// resolve fills in res's base, head and merge-base commits and returns the
// merge-base.
func resolve(ctx context.Context, repo *git.Repo, res *Result, base, head string) (mb string, err error) {
	shas, err := repo.RevParse(ctx, base, head)
	if err != nil {
		return "", err
	}
	if mb, err = repo.MergeBase(ctx, shas[0], shas[1]); err != nil {
		return "", err
	}
	res.Base, res.Head, res.MergeBase = shas[0], shas[1], mb
	return mb, nil
}

// gitSources reads both sides of f from cat-file; a side that is not in
// git is recorded in f.ParseError.
func (l *loader) gitSources(f *File) error {
	for _, head := range []bool{true, false} {
		if head && (f.Status == "deleted" || f.movedOut()) || !head && f.Status == "added" {
			continue
		}
		typ, data, err := l.cat.Object(l.spec(f, head))
		switch {
		case err == nil && typ == "blob" && head:
			f.HeadSrc = data
		case err == nil && typ == "blob":
			f.BaseSrc = data
		case err == nil || errors.Is(err, git.ErrNotFound):
			l.missing(f, head)
		default:
			return err
		}
	}
	return nil
}

// spec names one side of f for cat-file: by the blob id the index line
// gave, which also names a blob whose path holds a newline (cat-file reads
// one name a line), else by commit and path.
func (l *loader) spec(f *File, head bool) string {
	switch {
	case head && f.NewBlob != "":
		return f.NewBlob
	case head:
		return l.head + ":" + f.Path
	case f.OldBlob != "":
		return f.OldBlob
	}
	return l.base + ":" + f.OldPath
}

// missing records that a side of f is not in git.
func (l *loader) missing(f *File, head bool) {
	if head {
		f.ParseError = fmt.Sprintf("%s is not in the head commit %.12s", f.Path, l.head)
	} else {
		f.ParseError = fmt.Sprintf("%s is not in the merge-base %.12s", f.OldPath, l.base)
	}
}

// loader reads sources and maps symbols for the files of one Load.
type loader struct {
	cat        *git.Catter
	head, base string
	patch      bool
	ex         *excluder
	noSources  bool

	cache map[string]blobResult // "rev:path" -> contents, for go.mod
}

type blobResult struct {
	data []byte
	ok   bool
}

// read returns a file at rev, caching the answer.
func (l *loader) read(rev, path string) ([]byte, bool) {
	key := rev + ":" + path
	if r, hit := l.cache[key]; hit {
		return r.data, r.ok
	}
	if l.cache == nil {
		l.cache = map[string]blobResult{}
	}
	data, err := l.cat.Blob(rev, path)
	l.cache[key] = blobResult{data: data, ok: err == nil}
	return data, err == nil
}

// wants reports whether f's symbols are mapped: a language premise reads,
// in a path no policy excludes (which f.Excluded then names).
func (l *loader) wants(f *File) bool {
	if f.Language == "" {
		return false
	}
	if why := l.ex.pathReason(f.Path); why != "" {
		// The merge-base's policy judges the path; a file the patch moves
		// (or copies) into an excluded path from one that was judged is
		// still judged (issue 26, item 1).
		if (f.Status == "renamed" || f.Status == "copied") && f.OldPath != "" && l.ex.pathReason(f.OldPath) == "" {
			return true
		}
		f.Excluded = why
		return false
	}
	return true
}

// fill reads the sources of each file whose symbols are mapped and maps
// them, one file after another. With noSources a file's sources go once
// its symbols are mapped.
func (l *loader) fill(ctx context.Context, files []File, sources func(*File) error) error {
	for i := range files {
		f := &files[i]
		if !l.wants(f) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := sources(f); err != nil {
			return err
		}
		if f.ParseError == "" {
			l.symbols(f)
		}
		if l.noSources {
			f.HeadSrc, f.BaseSrc = nil, nil
		}
	}
	return nil
}

// patchSources derives both sides of a patched file from the file at
// --head: when head already has the patch applied, the base is head with the
// hunks reversed; when head is still the base, head is the base with the
// hunks applied. An added or deleted file's one side is the whole hunk.
func (l *loader) patchSources(f *File) error {
	blob := func(p string) ([]byte, bool, error) {
		data, err := l.cat.Blob(l.head, p)
		if errors.Is(err, git.ErrNotFound) {
			return nil, false, nil
		}
		return data, err == nil, err
	}
	switch f.Status {
	case "deleted":
		f.BaseSrc = wholeSide(f.Hunks, '-')
		return nil
	case "added":
		f.HeadSrc = wholeSide(f.Hunks, '+')
		return nil
	}
	cur, ok, err := blob(f.Path)
	if err != nil {
		return err
	}
	if ok {
		if base, applies := applyHunks(cur, f.Hunks, true); applies {
			f.HeadSrc, f.BaseSrc = cur, base
			return nil
		}
	}
	old, okOld, err := blob(f.OldPath)
	if err != nil {
		return err
	}
	if okOld {
		if head, applies := applyHunks(old, f.Hunks, false); applies {
			f.HeadSrc, f.BaseSrc = head, old
			return nil
		}
	}
	if !ok && !okOld {
		f.ParseError = fmt.Sprintf("%s is not in --head %.12s", f.Path, l.head)
		return nil
	}
	f.ParseError = fmt.Sprintf("%s: the patch matches neither side of the file at --head %.12s", f.Path, l.head)
	return nil
}

// wholeSide rebuilds an added file's contents (kind '+') or a deleted one's
// ('-') from its hunks, which hold every line.
func wholeSide(hunks []Hunk, kind byte) []byte {
	var b bytes.Buffer
	for _, h := range hunks {
		for _, ln := range h.Lines {
			if ln.Kind == kind || ln.Kind == ' ' {
				b.WriteString(ln.Text)
				b.WriteByte('\n')
			}
		}
	}
	return b.Bytes()
}

// applyHunks rebuilds one side of a file from the other. With reverse set,
// src is the new side and the old side is returned; otherwise src is the old
// side. It reports false when the hunks' lines do not match src.
func applyHunks(src []byte, hunks []Hunk, reverse bool) ([]byte, bool) {
	lines := splitKeep(src)
	var out bytes.Buffer
	pos := 0 // next line of src to copy, 0-based
	for _, h := range hunks {
		start := h.OldStart
		if reverse {
			start = h.NewStart
		}
		n := h.OldLines
		if reverse {
			n = h.NewLines
		}
		first := start - 1 // 0-based index of the hunk's first src line
		if n == 0 {
			first = start
		}
		if first < pos || first > len(lines) {
			return nil, false
		}
		for ; pos < first; pos++ {
			out.WriteString(lines[pos])
		}
		for _, ln := range h.Lines {
			from, to := byte('-'), byte('+')
			if reverse {
				from, to = '+', '-'
			}
			switch ln.Kind {
			case ' ', from:
				if pos >= len(lines) || strings.TrimRight(lines[pos], "\r\n") != ln.Text {
					return nil, false
				}
				if ln.Kind == ' ' {
					out.WriteString(lines[pos])
				}
				pos++
			case to:
				out.WriteString(ln.Text)
				out.WriteByte('\n')
			}
		}
	}
	for ; pos < len(lines); pos++ {
		out.WriteString(lines[pos])
	}
	return out.Bytes(), true
}

// splitKeep splits src into lines that keep their terminators.
func splitKeep(src []byte) []string {
	var out []string
	s := string(src)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// symbols parses both sides of a file and maps its changed symbols.
func (l *loader) symbols(f *File) {
	fe := frontEndFor(f.Language)
	if fe == nil {
		return
	}
	// Whether a file is generated is the merge-base's word: a header the
	// patch adds to its own code excludes nothing (issue 26, item 1;
	// propose drafts it as a finding).
	if f.BaseSrc != nil && fe.generated(f.BaseSrc) {
		f.Excluded = "generated"
		return
	}
	if ex, ok := fe.(fileExcluder); ok {
		if why := ex.excluded(f); why != "" {
			f.Excluded = why
			return
		}
	}
	var head, base []Decl
	var herr, berr error
	if f.HeadSrc != nil {
		head, herr = fe.decls(f.HeadSrc)
	}
	if f.BaseSrc != nil && herr == nil {
		base, berr = fe.decls(f.BaseSrc)
	}
	if herr != nil {
		f.ParseError = herr.Error()
		return
	}
	if f.HeadSrc != nil && head == nil {
		head = []Decl{}
	}
	if f.BaseSrc != nil {
		if berr != nil {
			// The base side does not parse: every head symbol counts as
			// modified rather than added, and nothing is called deleted.
			base = head
		}
		if base == nil {
			base = []Decl{}
		}
	}
	headRev, baseRev := l.head, l.base
	if l.patch {
		baseRev = l.head
	}
	q := fe.qualifier(f.Path, func(p string) ([]byte, bool) { return l.read(headRev, p) })
	qOld := q
	if f.OldPath != f.Path {
		qOld = fe.qualifier(f.OldPath, func(p string) ([]byte, bool) { return l.read(baseRev, p) })
	}
	f.Symbols = changedSymbols(f.Hunks, head, base, qualifyWith(q), qualifyWith(qOld))
	if f.movedOut() {
		// No line changed, yet nothing of the module is left where it
		// was imported from: every declaration of it is deleted.
		f.Symbols = f.Symbols[:0]
		for _, d := range base {
			lines := make([]int, 0, d.End-d.Start+1)
			for n := d.Start; n <= d.End; n++ {
				lines = append(lines, n)
			}
			f.Symbols = append(f.Symbols, Symbol{Name: qualifyWith(qOld)(d.Local), Local: d.Local, Kind: d.Kind, Change: "deleted", Start: d.Start, End: d.End, ChangedLines: lines})
		}
	}
}

// movedOut says f was renamed to a path of no language premise reads (a
// module renamed m.py.bak): at its old path, where callers import it, it
// is deleted. Its Language is the old path's.
func (f *File) movedOut() bool {
	return f.Status == "renamed" && f.Language != "" && languageOf(f.Path) == ""
}

func qualifyWith(prefix string) func(string) string {
	return func(local string) string {
		if prefix == "" || prefix == "." {
			return local
		}
		return prefix + "." + local
	}
}

// SymbolSource returns the lines of sym's span: from the head file, or from
// the base file for a deleted symbol. It returns nil when the span lies
// outside the file.
func (f *File) SymbolSource(sym Symbol) []byte {
	src := f.HeadSrc
	if sym.Change == "deleted" {
		src = f.BaseSrc
	}
	return lineRange(src, sym.Start, sym.End)
}

// lineRange returns lines start..end (1-based, inclusive) of src.
func lineRange(src []byte, start, end int) []byte {
	if src == nil || start < 1 || end < start {
		return nil
	}
	line, from := 1, -1
	for i := 0; i <= len(src); i++ {
		if line == start && from < 0 {
			from = i
		}
		if i == len(src) {
			break
		}
		if src[i] == '\n' {
			if line == end {
				return src[from : i+1]
			}
			line++
		}
	}
	if from < 0 {
		return nil
	}
	return src[from:]
}

// sourcesAsText diffs again, as text, every file of res that git called
// binary while a language premise reads owns its path, and puts the
// result in its place: what git calls binary comes from attributes the
// head's checkout may carry, or from a byte the patch chose (issue 26).
// Other binary files stay one line, whatever their size.
func sourcesAsText(ctx context.Context, repo *git.Repo, res *Result, mb, base, head string) error {
	var paths []string
	for _, f := range res.Files {
		if f.Binary && languageOf(f.Path) != "" {
			paths = append(paths, f.Path)
			if f.OldPath != "" && f.OldPath != f.Path {
				paths = append(paths, f.OldPath)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	text, err := repo.DiffText(ctx, mb, res.Head, paths)
	if err != nil {
		return err
	}
	again, err := Parse(text, fmt.Sprintf("git diff --text %s...%s", base, head))
	if err != nil {
		return err
	}
	byPath := map[string]File{}
	for _, f := range again {
		byPath[f.Path] = f
	}
	for i, f := range res.Files {
		if t, ok := byPath[f.Path]; ok && f.Binary {
			res.Files[i] = t
		}
	}
	return nil
}
