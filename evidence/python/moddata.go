package python

import (
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

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
	// A class body's changed line (LIMIT = 45) is data to its methods as
	// a module's is to its functions: its values are their inputs.
	headFuncs, baseFuncs := lang.FunctionDecls(head), lang.FunctionDecls(base)
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch {
			case l.Kind == '+' && l.New > 0 && !lang.InDecl(head, l.New):
				for _, n := range assigned(headLines, l.New) {
					names[n] = true
				}
				changedText = append(changedText, l.Text)
			case l.Kind == '-' && l.Old > 0 && !lang.InDecl(base, l.Old):
				for _, n := range assigned(baseLines, l.Old) {
					names[n] = true
				}
				changedText = append(changedText, l.Text)
			case l.Kind == '+' && l.New > 0 && !lang.InDecl(headFuncs, l.New), l.Kind == '-' && l.Old > 0 && !lang.InDecl(baseFuncs, l.Old):
				changedText = append(changedText, l.Text)
			}
		}
	}
	for n := range moduleChanges(f).names {
		names[n] = true
	}
	// A class whose own body changed (a field's default, its bases; not
	// its docstring) is data to the functions of its file that build or
	// read it.
	classes, classReads, changedClasses := classReaders(f, head, base)
	for _, c := range changedClasses {
		if !strings.Contains(c, ".") {
			names[c] = true
		}
	}
	if len(names) == 0 {
		return classes, classReads, nil
	}
	// The names are module-level (a class body's lines are inside its
	// declaration), so a method reads them by bare name as a function
	// does.
	out, reads := lang.ReadersOf(f, head, base, names, pyQualifier(f.Path), func(d diffparse.Decl) bool {
		return d.Kind == "function" || d.Kind == "method"
	})
	for _, c := range classes {
		if _, dup := reads[c.Name]; !dup {
			out = append(out, c)
			reads[c.Name] = classReads[c.Name]
		}
	}
	// The changed data's own strings are the inputs that reach it: the
	// key "k" of a table of suffixes.
	text := strings.Join(changedText, "\n")
	return out, reads, append(pyStrings(text), pyNumbers(text)...)
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

// pyNumRe is a number literal not part of a name: LIMIT = 45, 2.5.
var pyNumRe = regexp.MustCompile(`(?:^|[^\w.])(-?\d+(?:\.\d+)?)\b`)

// pyNumbers are the number literals of text, as written.
func pyNumbers(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range pyNumRe.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] && len(out) < 16 {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
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

// pyNumberRe finds an integer literal standing alone.
var pyNumberRe = regexp.MustCompile(`(?:^|[^\w.])(-?\d{1,9})\b(?:[^.\w]|$)`)

// tokens are a module's words for the explorer (lang.Explorer): every
// string literal, each character of a short one (a set of marks such as
// " \t" or "-_" is read a character at a time), and its integers.
func tokens(src []byte) []string {
	text := string(src)
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && len(s) <= 64 && !seen[s] && len(out) < 512 {
			seen[s] = true
			out = append(out, s)
		}
	}
	var short []string
	for _, m := range pyStrLitRe.FindAllString(text, -1) {
		if strings.ContainsAny(m[:1], "bBfF") {
			continue
		}
		if v, ok := pyLiteral(m); ok {
			if s, isStr := v.(string); isStr {
				add(s)
				if len(s) <= 12 {
					short = append(short, s)
				}
			}
		}
	}
	for _, s := range short {
		for _, r := range s {
			add(string(r))
		}
	}
	for _, m := range pyNumberRe.FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	return out
}
