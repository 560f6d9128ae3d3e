package lang

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/premise-dev/premise/diffparse"
)

// FunctionDecls are the functions and methods of decls.
func FunctionDecls(decls []diffparse.Decl) []diffparse.Decl {
	var out []diffparse.Decl
	for _, d := range decls {
		if d.Kind == "function" || d.Kind == "method" {
			out = append(out, d)
		}
	}
	return out
}

// InDecl reports whether line is inside one of decls.
func InDecl(decls []diffparse.Decl, line int) bool {
	for _, d := range decls {
		if line >= d.Start && line <= d.End {
			return true
		}
	}
	return false
}

// ReadersOf returns the declarations of f's head that take (per take),
// exist in the base, are not among f's own symbols, and name one of
// names (".name" as an attribute, t.name), each as a modified symbol named under prefix, with the names it
// reads. The engine bounds how many it compares.
func ReadersOf(f diffparse.File, head, base []diffparse.Decl, names map[string]bool, prefix string, take func(diffparse.Decl) bool) ([]diffparse.Symbol, map[string][]string) {
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	res := make([]*regexp.Regexp, len(sorted))
	for i, n := range sorted {
		if attr, ok := strings.CutPrefix(n, "."); ok {
			// ".name": the name selected on a value (t.limit).
			res[i] = regexp.MustCompile(`\.\s*` + regexp.QuoteMeta(attr) + `\b`)
			continue
		}
		// A bare name: x.name is an attribute of something else.
		res[i] = regexp.MustCompile(`(?:^|[^.\w])` + regexp.QuoteMeta(n) + `\b`)
	}
	var out []diffparse.Symbol
	reads := map[string][]string{}
	for _, d := range Unchanged(f, head, base, take) {
		text := Span(f.HeadSrc, d.Start, d.End)
		var r []string
		for i, n := range sorted {
			if res[i].MatchString(text) {
				r = append(r, n)
			}
		}
		if len(r) == 0 {
			continue
		}
		name := d.Local
		if prefix != "" {
			name = prefix + "." + d.Local
		}
		out = append(out, diffparse.Symbol{Name: name, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
		reads[name] = r
	}
	return out, reads
}

// Unchanged are the declarations of f's head that take (per take), exist
// in the base, and are not among f's own symbols: what a change elsewhere
// in the file can make a changed symbol.
func Unchanged(f diffparse.File, head, base []diffparse.Decl, take func(diffparse.Decl) bool) []diffparse.Decl {
	taken := map[string]bool{}
	for _, s := range f.Symbols {
		taken[s.Local] = true
	}
	inBase := map[string]bool{}
	for _, d := range base {
		inBase[d.Local] = true
	}
	var out []diffparse.Decl
	for _, d := range head {
		if take(d) && !taken[d.Local] && inBase[d.Local] {
			out = append(out, d)
		}
	}
	return out
}

// Side is one version of a changed file: its lines, split once, and its
// declarations.
type Side struct {
	Head  bool
	Lines []string
	Decls []diffparse.Decl
}

// Sides are f's head and base as Sides, head first.
func Sides(f diffparse.File, head, base []diffparse.Decl) []Side {
	return []Side{
		{true, strings.Split(string(f.HeadSrc), "\n"), head},
		{false, strings.Split(string(f.BaseSrc), "\n"), base},
	}
}

// EachChanged calls fn with each line the diff changed on each side of
// f, 1-based: the head's added lines, then the base's removed ones.
func EachChanged(f diffparse.File, sides []Side, fn func(s Side, n int)) {
	for _, s := range sides {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				n, kind := l.New, byte('+')
				if !s.Head {
					n, kind = l.Old, '-'
				}
				if l.Kind == kind && n > 0 && n <= len(s.Lines) {
					fn(s, n)
				}
			}
		}
	}
}

// LineText names a line of the head's source in a report: "line 3
// `text`", the text the patch wrote cut to 80 characters, with no
// control or format character (an escape sequence, a bidirectional
// override) and no backtick left to reach a terminal or a Markdown page.
func LineText(n int, text string) string {
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r == '`', unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8.RuneError:
			return '?'
		}
		return r
	}, strings.TrimSpace(text))
	if utf8.RuneCountInString(text) > 80 {
		text = string([]rune(text)[:77]) + "..."
	}
	return "line " + strconv.Itoa(n) + " `" + text + "`"
}
