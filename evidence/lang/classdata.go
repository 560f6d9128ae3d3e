package lang

import (
	"regexp"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// ClassBody is how a language's class bodies read: the field a line of
// one assigns (Python's LIMIT = 10, JavaScript's static LIMIT = 10), which
// lines say nothing (blank, comments, docstrings), and which changed
// methods change every method's answers (a special method added).
type ClassBody struct {
	Field *regexp.Regexp // first non-empty group is the field's name
	// Silent says line n (1-based) of lines, in the class starting at
	// line start, says nothing: blank, a comment, a docstring's line.
	Silent  func(lines []string, n, start int) bool
	Special func(s diffparse.Symbol) bool
	Prefix  string // the module's qualifier symbols are named under
}

// ClassReaders are the methods of each class whose own body the diff
// changes outside its methods (a class attribute, a field's default, its
// bases or decorators), or that gains or loses a special method: the
// methods naming a changed field, or every method when the change names
// none, each as a modified symbol with what it reads; and the classes so
// changed.
func ClassReaders(f diffparse.File, head, base []diffparse.Decl, cb ClassBody) ([]diffparse.Symbol, map[string][]string, []string) {
	type change struct {
		names map[string]bool
		other bool
	}
	changed := map[string]*change{}
	get := func(cls string) *change {
		if changed[cls] == nil {
			changed[cls] = &change{names: map[string]bool{}}
		}
		return changed[cls]
	}
	EachChanged(f, Sides(f, head, base), func(s Side, n int) {
		cls, start, ok := ownClass(s.Decls, n)
		text := strings.TrimSpace(s.Lines[n-1])
		if !ok || text == "" || cb.Silent(s.Lines, n, start) {
			return
		}
		c := get(cls)
		if m := cb.Field.FindStringSubmatch(text); m != nil && n != start {
			for _, g := range m[1:] {
				if g != "" {
					c.names[g] = true
					break
				}
			}
		} else {
			c.other = true
		}
	})
	for _, sym := range f.Symbols {
		if cb.Special != nil && sym.Kind == "method" && (sym.Change == "added" || sym.Change == "deleted") && cb.Special(sym) {
			get(classOf(sym.Local)).other = true
		}
	}
	if len(changed) == 0 {
		return nil, nil, nil
	}
	classes := make([]string, 0, len(changed))
	for c := range changed {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	var out []diffparse.Symbol
	reads := map[string][]string{}
	methods := Unchanged(f, head, base, func(d diffparse.Decl) bool { return d.Kind == "method" && changed[classOf(d.Local)] != nil })
	for _, d := range methods {
		c := changed[classOf(d.Local)]
		text := Span(f.HeadSrc, d.Start, d.End)
		var r []string
		for n := range c.names {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(text) {
				r = append(r, n)
			}
		}
		if len(r) == 0 && !c.other {
			continue
		}
		if len(r) == 0 {
			r = []string{"the class body of " + classOf(d.Local)}
		}
		sort.Strings(r)
		name := d.Local
		if cb.Prefix != "" {
			name = cb.Prefix + "." + d.Local
		}
		out = append(out, diffparse.Symbol{Name: name, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
		reads[name] = r
	}
	return out, reads, classes
}

// classOf is the class a method's local name is in: Outer.Inner.m ->
// Outer.Inner.
func classOf(local string) string {
	if i := strings.LastIndex(local, "."); i >= 0 {
		return local[:i]
	}
	return ""
}

// ownClass is the innermost class of decls whose own body (not a
// method's) holds line, with its first line.
func ownClass(decls []diffparse.Decl, line int) (string, int, bool) {
	best, found := diffparse.Decl{}, false
	for _, d := range decls {
		if line < d.Start || line > d.End {
			continue
		}
		if !found || d.End-d.Start < best.End-best.Start {
			best, found = d, true
		}
	}
	if !found || best.Kind != "class" {
		return "", 0, false
	}
	return best.Local, best.Start, true
}
