package evidence

import (
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
)

// A change to module-level data (a constant, a table of patterns) has no
// symbol of its own: the functions of the module that read it are where
// it shows, so they become targets (issue 13, part 8).

// maxDataReaders bounds the readers taken for one file's changed data.
const maxDataReaders = 10

var pyAssignRe = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*(?::[^=]*)?(?:[-+*/|&]?=)[^=]`)

// dataReaders returns the module-level functions of a Python file that
// read a module-level name the diff assigns differently, each as a
// modified symbol, with the names it reads, and the string literals of the
// changed lines; functions already among the file's symbols are left out.
func dataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string) {
	if f.Language != "python" || f.HeadSrc == nil || f.BaseSrc == nil {
		return nil, nil, nil
	}
	head, err := diffparse.Decls("python", f.HeadSrc)
	if err != nil {
		return nil, nil, nil
	}
	base, err := diffparse.Decls("python", f.BaseSrc)
	if err != nil {
		return nil, nil, nil
	}
	var changedText []string
	headLines := strings.Split(string(f.HeadSrc), "\n")
	baseLines := strings.Split(string(f.BaseSrc), "\n")
	names := map[string]bool{}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch {
			case l.Kind == '+' && l.New > 0 && !inDecl(head, l.New):
				for _, n := range assigned(headLines, l.New) {
					names[n] = true
				}
				changedText = append(changedText, l.Text)
			case l.Kind == '-' && l.Old > 0 && !inDecl(base, l.Old):
				for _, n := range assigned(baseLines, l.Old) {
					names[n] = true
				}
				changedText = append(changedText, l.Text)
			}
		}
	}
	if len(names) == 0 {
		return nil, nil, nil
	}
	// The names are module-level (a class body's lines are inside its
	// declaration), so a method reads them by bare name as a function
	// does.
	out, reads := readersOf(f, head, base, names, pyQualifier(f.Path), func(d diffparse.Decl) bool {
		return d.Kind == "function" || d.Kind == "method"
	})
	// The changed data's own strings are the inputs that reach it: the
	// key "k" of a table of suffixes.
	return out, reads, pyStrings(strings.Join(changedText, "\n"))
}

// pyStrLitRe finds a one-line Python string literal with its prefix:
// r"^([Mm]c)(\w+)", 'k', b"x".
var pyStrLitRe = regexp.MustCompile(`(?:\b[rRbBuU]{1,2})?(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')`)

// pyStrings are the string literals of Python text, decoded as Python
// reads them: a raw pattern keeps its backslashes, so a table of regular
// expressions gives its patterns whole. An f-string or bytes is left out.
func pyStrings(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range pyStrLitRe.FindAllString(text, -1) {
		if strings.ContainsAny(m[:1], "bBfF") {
			continue
		}
		v, ok := pyLiteral(m)
		s, isStr := v.(string)
		if !ok || !isStr || s == "" || len(s) > 200 || seen[s] || len(out) >= 16 {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// inDecl reports whether line is inside one of decls.
func inDecl(decls []diffparse.Decl, line int) bool {
	for _, d := range decls {
		if line >= d.Start && line <= d.End {
			return true
		}
	}
	return false
}

// assigned returns the names a module-level statement containing line
// (1-based) assigns: the statement starts at the nearest line above that
// begins in column 0 and does not close a bracket.
func assigned(lines []string, line int) []string {
	for i := line - 1; i >= 0 && i >= line-200; i-- {
		l := lines[i]
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || strings.ContainsRune(")]}", rune(l[0])) {
			continue
		}
		m := pyAssignRe.FindStringSubmatch(l)
		if m == nil {
			return nil
		}
		var out []string
		for _, n := range strings.Split(m[1], ",") {
			if n = strings.TrimSpace(n); n != "" && n != "__all__" {
				out = append(out, n)
			}
		}
		return out
	}
	return nil
}

// pyQualifier is a Python file's module path as diffparse qualifies
// symbols: directories joined with dots, .py and /__init__ dropped, a
// leading src/ recognised.
func pyQualifier(p string) string {
	m := strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	m = strings.TrimSuffix(m, "/__init__")
	if m == "__init__" {
		return ""
	}
	m = strings.TrimPrefix(m, "src/")
	return strings.ReplaceAll(m, "/", ".")
}

// goDataReaders is dataReaders for a Go file: the functions and methods of
// the file that read a package-level var or const whose declaration the
// diff changed (a table of units, a map of acronyms), each as a modified
// symbol named under prefix, the file's import path.
func goDataReaders(f diffparse.File, prefix string) ([]diffparse.Symbol, map[string][]string, []string) {
	if f.Language != "go" || f.HeadSrc == nil || f.BaseSrc == nil {
		return nil, nil, nil
	}
	names := map[string]bool{}
	var changedText []string
	for _, side := range []struct {
		src  []byte
		kind byte
	}{{f.HeadSrc, '+'}, {f.BaseSrc, '-'}} {
		spans := goValueSpans(side.src)
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				line := l.New
				if side.kind == '-' {
					line = l.Old
				}
				if l.Kind != side.kind || line <= 0 {
					continue
				}
				for _, sp := range spans {
					if line >= sp.from && line <= sp.to {
						for _, n := range sp.names {
							names[n] = true
						}
						changedText = append(changedText, l.Text)
					}
				}
			}
		}
	}
	if len(names) == 0 {
		return nil, nil, nil
	}
	head, err := diffparse.Decls("go", f.HeadSrc)
	if err != nil {
		return nil, nil, nil
	}
	base, err := diffparse.Decls("go", f.BaseSrc)
	if err != nil {
		return nil, nil, nil
	}
	out, reads := readersOf(f, head, base, names, prefix, func(d diffparse.Decl) bool {
		return d.Kind == "function" || d.Kind == "method"
	})
	strs, _ := goLiterals(strings.Join(changedText, "\n"))
	return out, reads, strs
}

// goValueSpan is the lines of one package-level var or const spec and the
// names it declares.
type goValueSpan struct {
	from, to int
	names    []string
}

func goValueSpans(src []byte) []goValueSpan {
	fset, af, err := gosource.ParseFile(src)
	if err != nil {
		return nil
	}
	var out []goValueSpan
	for _, d := range af.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || (gd.Tok != token.VAR && gd.Tok != token.CONST) {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			sp := goValueSpan{from: fset.Position(vs.Pos()).Line, to: fset.Position(vs.End()).Line}
			for _, n := range vs.Names {
				if n.Name != "_" {
					sp.names = append(sp.names, n.Name)
				}
			}
			out = append(out, sp)
		}
	}
	return out
}

// readersOf returns the declarations of f's head that take (per take),
// exist in the base, are not among f's own symbols, and name one of
// names, each as a modified symbol named under prefix, with the names it
// reads; at most maxDataReaders.
func readersOf(f diffparse.File, head, base []diffparse.Decl, names map[string]bool, prefix string, take func(diffparse.Decl) bool) ([]diffparse.Symbol, map[string][]string) {
	taken := map[string]bool{}
	for _, s := range f.Symbols {
		taken[s.Local] = true
	}
	inBase := map[string]bool{}
	for _, d := range base {
		inBase[d.Local] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	res := make([]*regexp.Regexp, len(sorted))
	for i, n := range sorted {
		// A bare name: x.name is an attribute of something else.
		res[i] = regexp.MustCompile(`(?:^|[^.\w])` + regexp.QuoteMeta(n) + `\b`)
	}
	var out []diffparse.Symbol
	reads := map[string][]string{}
	for _, d := range head {
		if !take(d) || taken[d.Local] || !inBase[d.Local] || len(out) >= maxDataReaders {
			continue
		}
		text := span(f.HeadSrc, d.Start, d.End)
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
