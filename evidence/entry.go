package evidence

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// Entry points (issue 24: a document only the library's entry point
// builds). A changed parser step takes the parser's state, which no
// generated value is; its own file's callers (callers.go) are often
// steps too. The library's users reach it through a public function of
// another file of the package (toml's Decode, an expression's Evaluate),
// whose tests hold whole documents. So the public functions of the
// changed file's directory that call a changed function, through up to
// entryDepth calls, become targets: unchanged, their rows are ordinary
// rows on both sides, and a change they show names the changed functions
// it reaches (Cause). The sources read are files the patch did not
// change, the same on both sides.

const (
	// maxEntries bounds the entry points taken for one patch, entryDepth
	// the calls between an entry point and a changed function, and
	// maxEntryFiles the files of a directory read.
	maxEntries    = 3
	entryDepth    = 4
	maxEntryFiles = 64
)

// entryPoints are the targets that reach the changed functions of res
// from the public functions of other files of their directories. The
// callers among have (targets with Reads) take in place the changed
// functions they reach through other files too.
func entryPoints(res *diffparse.Result, langs lang.Languages, headDir, baseDir string, have []lang.Target) []lang.Target {
	if res == nil || headDir == "" || baseDir == "" {
		return nil
	}
	taken := map[string]bool{}
	for _, tg := range have {
		taken[tg.Sym.Name] = true
	}
	inDiff := map[string]bool{}
	for _, f := range res.Files {
		inDiff[f.Path] = true
		if f.OldPath != "" {
			inDiff[f.OldPath] = true
		}
	}
	var out []lang.Target
	seenDir := map[string]bool{}
	// The directories above the changed files are shared by them: each
	// is read and parsed once a run.
	read := map[string][]diffparse.File{} // language and directory -> its unchanged files
	siblingsOf := func(l lang.Language, language, dir string) []diffparse.File {
		k := language + "\x00" + dir
		if fs, ok := read[k]; ok {
			return fs
		}
		read[k] = siblings(l, language, dir, headDir, baseDir, inDiff)
		return read[k]
	}
	for _, f := range res.Files {
		l := langs[f.Language]
		if l == nil || f.Excluded != "" || f.BaseSrc == nil || seenDir[f.Language+"\x00"+path.Dir(f.Path)] {
			continue
		}
		seenDir[f.Language+"\x00"+path.Dir(f.Path)] = true
		reached := map[string][]string{} // bare name -> the changed names it stands for
		for _, g := range res.Files {
			if g.Language != f.Language || path.Dir(g.Path) != path.Dir(f.Path) {
				continue
			}
			for _, s := range g.Symbols {
				if (s.Kind == "function" || s.Kind == "method") && (s.Change == "modified" || s.Change == "deleted") {
					reached[lang.BareName(s.Local)] = append(reached[lang.BareName(s.Local)], s.Name)
				}
			}
		}
		if len(reached) == 0 {
			continue
		}
		// The chain from an entry point runs through the changed files'
		// own functions too (Decode -> parse -> topLevel -> setValue).
		var files []diffparse.File
		for _, g := range res.Files {
			if g.Language == f.Language && path.Dir(g.Path) == path.Dir(f.Path) && g.HeadSrc != nil && g.BaseSrc != nil && g.Excluded == "" {
				if all := withAllDecls(g); all != nil {
					files = append(files, *all)
				}
			}
		}
		// The directories above hold the library's surface too
		// (sql-formatter's src/sqlFormatter.ts, whose format builds the
		// formatter of src/core/): nearest first.
		for dir := path.Dir(f.Path); ; dir = path.Dir(dir) {
			files = append(files, siblingsOf(l, f.Language, dir)...)
			if dir == "." || dir == "/" {
				break
			}
		}
		entries, reaches := reachingCallers(l, files, reached)
		// A caller of a changed function another file's changed
		// function is reached through too names both (have's Reads).
		for i := range have {
			tg := &have[i]
			if len(tg.Reads) == 0 || tg.Lang != f.Language {
				continue
			}
			var more []string
			for n := range reaches[tg.Sym.Name] {
				if !slices.Contains(tg.Reads, n) {
					more = append(more, n)
				}
			}
			sort.Strings(more)
			tg.Reads = append(slices.Clip(tg.Reads), more...) // Reads may share its array with the map it came from
		}
		for _, e := range entries {
			if len(out) >= maxEntries || taken[e.sym.Name] {
				continue
			}
			fr := &fileReader{f: e.file, l: l}
			tg, skip := fr.target(e.sym)
			if skip != nil {
				continue
			}
			tg.Reads = e.reaches
			if l.Complete(&tg, e.file, fr.file, fr.sigs) != "" {
				continue
			}
			taken[e.sym.Name] = true
			out = append(out, tg)
		}
	}
	return out
}

// callTail is what follows a function's name where it is called: its
// arguments or an index, directly or through the function's own call or
// apply (Streamer.call(this, config), a constructor's parent called the
// way classes were built before the class keyword).
const callTail = `(\s*\.\s*(call|apply))?\s*[\[(]`

// handedHead and handedTail are what stand around a function's name
// where it is handed on to be called: an argument (getIsArbitraryValue(
// value, 'length', isLengthOnly), sorted(xs, key=rank)), an item of a
// list or a value of a table (tailwind-merge's config: [isLength,
// isArbitraryLength]). What it is handed to may call it.
const (
	handedHead = `[(\[,=:]\s*`
	handedTail = `\s*[,)\]}]`
)

// entry is a public function of an unchanged file that reaches changed
// functions.
type entry struct {
	file    diffparse.File
	sym     diffparse.Symbol
	reaches []string
	depth   int
}

// siblings are the files of dir in language, unchanged by the patch and
// not tests, as files of the diff with both sides.
func siblings(l lang.Language, language, dir, headDir, baseDir string, inDiff map[string]bool) []diffparse.File {
	ents, err := os.ReadDir(filepath.Join(headDir, filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	read := func(rel string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		return b, err == nil
	}
	var out []diffparse.File
	for _, e := range ents {
		rel := path.Join(dir, e.Name())
		if !e.Type().IsRegular() || inDiff[rel] || !l.Owns(rel) || testLike(rel) || len(out) >= maxEntryFiles {
			// A link the patch commits in the tree (lib/x.py ->
			// /dev/zero, or a file of the user's outside it) is never
			// followed: it would read without end, or read what is not
			// the project's.
			continue
		}
		head, err1 := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		base, err2 := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
		if err1 != nil || err2 != nil || string(head) != string(base) {
			continue
		}
		g := diffparse.File{Path: rel, Status: "modified", Language: language, HeadSrc: head, BaseSrc: base}
		prefix := diffparse.Qualifier(language, rel, read)
		decls, err := diffparse.Decls(language, head)
		if err != nil {
			continue
		}
		for _, d := range decls {
			if d.Kind != "function" && d.Kind != "method" {
				continue
			}
			name := d.Local
			if prefix != "" {
				name = prefix + "." + d.Local
			}
			g.Symbols = append(g.Symbols, diffparse.Symbol{Name: name, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
		}
		out = append(out, g)
	}
	return out
}

// withAllDecls is a changed file with every function and method it
// declares as a symbol, named as its changed ones are; nil when it names
// none or does not parse.
func withAllDecls(f diffparse.File) *diffparse.File {
	var prefix string
	for _, s := range f.Symbols {
		if strings.HasSuffix(s.Name, "."+s.Local) {
			prefix = strings.TrimSuffix(s.Name, "."+s.Local)
			break
		}
	}
	decls, err := diffparse.Decls(f.Language, f.HeadSrc)
	if err != nil || prefix == "" || testLike(f.Path) {
		return nil
	}
	g := f
	g.Symbols = nil
	for _, d := range decls {
		if d.Kind == "function" || d.Kind == "method" {
			g.Symbols = append(g.Symbols, diffparse.Symbol{Name: prefix + "." + d.Local, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
		}
	}
	return &g
}

// testLike says a path names a test file in any of the usual ways.
func testLike(rel string) bool {
	base := path.Base(rel)
	return strings.Contains(base, "_test.") || strings.HasPrefix(base, "test_") || strings.Contains(base, ".test.") ||
		strings.Contains(base, ".spec.") || base == "conftest.py" || strings.Contains("/"+rel, "/tests/")
}

// reachingCallers are the public functions of files that call a function
// of reached, directly or through up to entryDepth-1 others of the files,
// the nearest first; and, by name, every function of files (public or
// not) with the changed functions it reaches that way.
func reachingCallers(l lang.Language, files []diffparse.File, reached map[string][]string) ([]entry, map[string]map[string]bool) {
	type decl struct {
		file      int
		sym       diffparse.Symbol
		body      string
		templates []*regexp.Regexp // the body's dispatches by name
	}
	var decls []decl
	for i, f := range files {
		for _, s := range f.Symbols {
			text := lang.Span(f.HeadSrc, s.Start, s.End)
			if _, body, ok := strings.Cut(text, "\n"); ok {
				text = body
			}
			decls = append(decls, decl{i, s, text, nameTemplates(text)})
		}
	}
	changed := map[string]bool{} // by name: a changed function is no entry point
	for _, names := range reached {
		for _, n := range names {
			changed[n] = true
		}
	}
	// reaches are the changed functions each function was found to reach
	// so far; at is its entry's index in out. A function found near one
	// changed function still takes those it reaches further down (parse
	// calls nextNonSpace, and through parseExpr parseOuterExpr): a change
	// its rows show is named after every changed function it reaches.
	reaches := map[string]map[string]bool{}
	at := map[string]int{}
	var out []entry
	for depth := 1; depth <= entryDepth && len(reached) > 0; depth++ {
		next := map[string][]string{}
		names := make([]string, 0, len(reached))
		for n := range reached {
			names = append(names, regexp.QuoteMeta(n))
		}
		sort.Strings(names)
		callRe := regexp.MustCompile(`(^|[^\w])(` + strings.Join(names, "|") + `)` + callTail)
		handRe := regexp.MustCompile(handedHead + `(` + strings.Join(names, "|") + `)` + handedTail)
		for _, d := range decls {
			if changed[d.sym.Name] {
				continue
			}
			var r []string
			for _, m := range callRe.FindAllStringSubmatch(d.body, -1) {
				r = append(r, reached[m[2]]...)
			}
			for _, m := range handRe.FindAllStringSubmatch(d.body, -1) {
				r = append(r, reached[m[1]]...)
			}
			for _, tmpl := range d.templates {
				for n, changed := range reached {
					if tmpl.MatchString(n) {
						r = append(r, changed...)
					}
				}
			}
			if len(r) == 0 {
				continue
			}
			seen := reaches[d.sym.Name]
			if seen == nil {
				seen = map[string]bool{}
				reaches[d.sym.Name] = seen
			}
			var fresh []string
			for _, n := range r {
				if !seen[n] {
					seen[n] = true
					fresh = append(fresh, n)
				}
			}
			if len(fresh) == 0 {
				continue
			}
			r = fresh
			next[lang.BareName(d.sym.Local)] = append(next[lang.BareName(d.sym.Local)], r...)
			if i, ok := at[d.sym.Name]; ok {
				out[i].reaches = append(out[i].reaches, r...)
				continue
			}
			public := true
			for _, part := range strings.Split(d.sym.Local, ".") {
				public = public && l.Public(lang.BareName(part))
			}
			if public {
				at[d.sym.Name] = len(out)
				out = append(out, entry{file: files[d.file], sym: d.sym, reaches: r, depth: depth})
			}
		}
		reached = next
	}
	// The API's own surface first: a public function no other function
	// of the files calls takes what a user passes (a selector's text),
	// where one half-way down takes the code's own objects (a parsed
	// selector), which no row builds. Nearest first within each.
	called := func(e entry) bool {
		bare := lang.BareName(e.sym.Local)
		callRe := regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(bare) + callTail)
		for _, d := range decls {
			if d.sym.Name == e.sym.Name {
				continue
			}
			if callRe.MatchString(d.body) {
				return true
			}
			for _, tmpl := range d.templates {
				if tmpl.MatchString(bare) {
					return true
				}
			}
		}
		return false
	}
	root := make([]bool, len(out))
	for i, e := range out {
		root[i] = !called(e)
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return root[idx[a]] && !root[idx[b]] })
	sorted := make([]entry, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted, reaches
}

// A dispatch by name calls what no call names: getattr(self,
// 'xpath_%s_function' % name), getattr(self, 'visit_' + kind). Its text
// is a name template, a quoted name with a format placeholder in it or a
// quoted prefix the code adds to; a function whose name the template
// matches is called from the function holding it.
var (
	formatName = regexp.MustCompile(`["']([A-Za-z_]\w*)?(%s|%\(\w+\)s|\{\w*\})(\w*)["']`)
	prefixName = regexp.MustCompile(`["']([A-Za-z_]\w*_|[A-Za-z_$][\w$]*\$|\$)["']\s*\+`)
)

// nameTemplates are the name templates of body, each a pattern of the
// whole names it dispatches to.
func nameTemplates(body string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, m := range formatName.FindAllStringSubmatch(body, -1) {
		if m[1] != "" || m[3] != "" {
			out = append(out, regexp.MustCompile(`^`+regexp.QuoteMeta(m[1])+`\w+`+regexp.QuoteMeta(m[3])+`$`))
		}
	}
	for _, m := range prefixName.FindAllStringSubmatch(body, -1) {
		// this["$" + type]: a JavaScript name may start with $.
		out = append(out, regexp.MustCompile(`^`+regexp.QuoteMeta(m[1])+`[\w$]+$`))
	}
	return out
}

// hoped says of the entry points that they were only a way to the change:
// one that got no rows, or was cut off, leaves nothing unchecked.
func (rep *Report) hoped(entries []lang.Target) {
	for _, e := range entries {
		for i := range rep.Symbols {
			if s := &rep.Symbols[i]; s.Symbol == e.Sym.Name && s.Unchecked {
				s.Unchecked = false
				s.Why += "; an entry point to " + strings.Join(e.Reads, ", ") + ", not itself changed"
			}
		}
	}
}
