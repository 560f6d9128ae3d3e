package golang

import (
	"go/token"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A package-level var or const is read across the package's files, and an
// exported one by the packages importing it; an init function sets what
// the package's functions read. The engine compares those readers
// (evidence/shared.go): a limit raised in consts.go changes Fits in
// lim.go though Fits did not change.

// goInitAssignRe is a statement of an init function assigning into a
// package-level name: limits["high"] = 5, Default.Width = 80, n++.
var goInitAssignRe = regexp.MustCompile(`^\s*([A-Za-z_]\w*)(?:\[[^\]]*\]|\.\w+)*\s*(?:[-+*/|&^%]|<<|>>|&\^)?=[^=]|^\s*([A-Za-z_]\w*)(?:\[[^\]]*\]|\.\w+)*\s*(?:\+\+|--)\s*$`)

// sharedNames are the package-level names f's changes bind: changed var
// and const specs, and what a changed init function assigns.
func sharedNames(f diffparse.File) map[string]bool {
	names, _ := goChangedNames(f)
	if names == nil {
		names = map[string]bool{}
	}
	// What an init function, or a package-level var's initializer (var _
	// = func() int { limits["high"] = 5; return 0 }()), assigns when the
	// package loads.
	var sides []lang.Side
	var spans [2][]goValueSpan
	for _, src := range [][]byte{f.HeadSrc, f.BaseSrc} {
		decls, err := diffparse.Decls("go", src)
		if len(src) == 0 || err != nil {
			decls = nil // a file the patch adds has no base
		}
		sides = append(sides, lang.Side{Head: len(sides) == 0, Lines: strings.Split(string(src), "\n"), Decls: decls})
		spans[len(sides)-1] = goValueSpans(src)
	}
	lang.EachChanged(f, sides, func(s lang.Side, n int) {
		side := 1
		if s.Head {
			side = 0
		}
		inVar := slices.ContainsFunc(spans[side], func(sp goValueSpan) bool { return n > sp.from && n <= sp.to })
		if !inInit(s.Decls, n) && !inVar {
			return
		}
		text := s.Lines[n-1]
		if _, body, ok := strings.Cut(text, "{"); ok && strings.HasPrefix(strings.TrimSpace(text), "func") {
			// func init() { limits["high"] = 5 }
			text = strings.TrimSuffix(strings.TrimSpace(body), "}")
		}
		if m := goInitAssignRe.FindStringSubmatch(text); m != nil {
			if name := m[1] + m[2]; name != "_" && !token.IsKeyword(name) {
				names[name] = true
			}
		}
	})
	// A var or const built from a changed one (pathCont = ... + midChar)
	// changed with it, though its own line did not: the functions reading
	// only it read the change.
	for _, sp := range spans {
		valueDependents(sp, names)
	}
	// A method the patch adds or deletes that the standard library calls
	// on its own (String, Error, MarshalJSON, Less) changes how every
	// value of its type prints, encodes or sorts: the functions naming
	// the type may answer otherwise.
	for _, s := range f.Symbols {
		typ, method, ok := strings.Cut(strings.NewReplacer("(*", "", "(", "", ")", "").Replace(s.Local), ".")
		if ok && s.Kind == "method" && (s.Change == "added" || s.Change == "deleted") && protocolMethods[method] {
			names[typ] = true
		}
	}
	return names
}

// protocolMethods are the methods the standard library calls through an
// interface: fmt's Stringer, GoStringer, Formatter and error; the
// encoders' marshalers; sort.Interface.
var protocolMethods = map[string]bool{"String": true, "GoString": true, "Format": true, "Error": true, "Unwrap": true, "Is": true, "As": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true, "MarshalBinary": true, "UnmarshalBinary": true,
	"MarshalXML": true, "UnmarshalXML": true, "Len": true, "Less": true, "Swap": true}

// inInit says line lies in an init function of decls.
func inInit(decls []diffparse.Decl, line int) bool {
	for _, d := range decls {
		if d.Local == "init" && d.Kind == "function" && line >= d.Start && line <= d.End {
			return true
		}
	}
	return false
}

func (*goLang) ChangesShared(f diffparse.File) bool {
	if f.Language != "go" || f.HeadSrc == nil {
		return false
	}
	if f.BaseSrc == nil {
		return len(funcVars(f)) > 0 // a file the patch adds, running code at load
	}
	return len(sharedNames(f)) > 0 || len(funcVars(f)) > 0
}

// funcVars are the head's package-level vars holding a function literal
// whose spec the diff changes (var Clamp = func(x, lo, hi int) int
// {...}): a function callers call that premise cannot call by its name;
// and a blank var the patch initializes with a call (var _ = tune()),
// made at load for what it does; each as "line N `text`".
func funcVars(f diffparse.File) []string {
	changed := func(sp goValueSpan, kind byte) bool {
		if f.BaseSrc == nil {
			return kind == '+' // an added file: every line is the patch's
		}
		return slices.ContainsFunc(f.Hunks, func(h diffparse.Hunk) bool {
			return slices.ContainsFunc(h.Lines, func(l diffparse.Line) bool {
				n := l.New
				if kind == '-' {
					n = l.Old
				}
				return l.Kind == kind && n >= sp.from && n <= sp.to
			})
		})
	}
	removedFrom := map[string]bool{}
	for _, sp := range goValueSpans(f.BaseSrc) {
		if sp.fn && changed(sp, '-') {
			for _, n := range sp.names {
				removedFrom[n] = true
			}
		}
	}
	lines := strings.Split(string(f.HeadSrc), "\n")
	var out []string
	for _, sp := range goValueSpans(f.HeadSrc) {
		if sp.fn && f.BaseSrc != nil && (changed(sp, '+') || slices.ContainsFunc(sp.names, func(n string) bool { return removedFrom[n] })) ||
			sp.loadCall && changed(sp, '+') {
			out = append(out, lang.LineText(sp.from, lines[sp.from-1]))
		}
	}
	return out
}

// SharedUsers are the package's other files, for every changed name, and
// the files of other directories importing the package, for its exported
// ones.
func (l *goLang) SharedUsers(f diffparse.File, files []string, read func(string) []byte) (map[string][]string, []string) {
	return l.UsersOf(f, sharedNames(f), files, read), funcVars(f)
}

// UsersOf are the files of f's package other than f, which may read any of
// names, and the files of other directories importing the package, which
// may read its exported ones (as lim.MaxLen).
func (l *goLang) UsersOf(f diffparse.File, names map[string]bool, files []string, read func(string) []byte) map[string][]string {
	users := map[string][]string{}
	if len(names) == 0 {
		return users
	}
	var all, exported []string
	for n := range names {
		all = append(all, n)
		if token.IsExported(n) {
			exported = append(exported, "."+n) // lim.MaxLen
		}
	}
	sort.Strings(all)
	sort.Strings(exported)
	dir := path.Dir(f.Path)
	imp := ""
	if p := l.gp.importPath(f.Path); p != "" {
		imp = `"` + p + `"`
	}
	for _, rel := range files {
		if rel == f.Path || !strings.HasSuffix(rel, ".go") {
			continue
		}
		switch {
		case path.Dir(rel) == dir:
			users[rel] = all
		case imp != "" && len(exported) > 0:
			if src := read(rel); src != nil && strings.Contains(string(src), imp) {
				users[rel] = exported
			}
		}
	}
	return users
}
