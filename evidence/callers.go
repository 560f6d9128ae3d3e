package evidence

import (
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A patch to a private helper shows where the helper is called: the
// repository's tests call the public function, not the helper, and a
// value that reaches the helper's new branch is usually one only the
// public function's own inputs build. So the functions of the same file
// that call a changed function (and those that call them, two levels up)
// become targets too, with the calls their tests make.

// maxCallers bounds the callers taken for one file's changed functions.
const maxCallers = 6

// callerDepth is how many calls up from a changed function callers are
// looked for.
const callerDepth = 2

// methodDepth is how many levels further callers are looked for while all
// found are methods.
const methodDepth = 3

// changedCallers returns the unchanged functions and methods of f that
// call one of its changed functions, directly or through one more
// function, each as a modified symbol, with the changed names it reaches;
// exported ones first, functions already among f's symbols left out.
func changedCallers(f diffparse.File, l lang.Language) ([]diffparse.Symbol, map[string][]string) {
	if f.HeadSrc == nil || f.BaseSrc == nil || len(f.Symbols) == 0 {
		return nil, nil
	}
	head, err := diffparse.Decls(f.Language, f.HeadSrc)
	if err != nil {
		return nil, nil
	}
	base, err := diffparse.Decls(f.Language, f.BaseSrc)
	if err != nil {
		return nil, nil
	}
	inBase := map[string]bool{}
	for _, d := range base {
		inBase[d.Local] = true
	}
	taken := map[string]bool{}
	reached := map[string][]string{} // callee's bare name -> the changed names it stands for
	var prefix string
	for _, s := range f.Symbols {
		taken[s.Local] = true
		if (s.Kind == "function" || s.Kind == "method") && s.Change == "modified" {
			reached[lang.BareName(s.Local)] = append(reached[lang.BareName(s.Local)], s.Name)
			if strings.HasSuffix(s.Name, "."+s.Local) {
				prefix = strings.TrimSuffix(s.Name, "."+s.Local)
			}
		}
	}
	if len(reached) == 0 {
		return nil, nil
	}
	var found []diffparse.Symbol
	reads := map[string][]string{}
	// A chain still inside one class's methods (a serializer's public
	// function calls serialize, which calls $object, which calls the
	// changed method) is followed further, up to methodDepth more levels:
	// a method is reached through the function that builds its receiver.
	for level := 0; level < callerDepth || level < callerDepth+methodDepth && onlyMethods(found); level++ {
		next := map[string][]string{}
		calls := map[string]*regexp.Regexp{}
		for callee := range reached {
			calls[callee] = regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(callee) + callTail)
		}
		for _, d := range head {
			if (d.Kind != "function" && d.Kind != "method") || taken[d.Local] || !inBase[d.Local] {
				continue
			}
			// The body: the header names the function itself, and a
			// function may share its name with the method it calls
			// (Pluralize(s) calls New(s).Pluralize()).
			text := lang.Span(f.HeadSrc, d.Start, d.End)
			if _, body, ok := strings.Cut(text, "\n"); ok {
				text = body
			}
			var r []string
			templates := nameTemplates(text)
			for callee, names := range reached {
				if contains(names, prefixed(prefix, d.Local)) {
					continue
				}
				called := calls[callee].MatchString(text)
				for _, tmpl := range templates {
					called = called || tmpl.MatchString(callee)
				}
				if called {
					r = append(r, names...)
				}
			}
			if len(r) == 0 {
				continue
			}
			taken[d.Local] = true
			name := d.Local
			if prefix != "" {
				name = prefix + "." + d.Local
			}
			found = append(found, diffparse.Symbol{Name: name, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
			reads[name] = dedupeStrings(r)
			next[lang.BareName(d.Local)] = dedupeStrings(r)
		}
		reached = next
	}
	// Exported (public) callers first: they are what the tests call; of
	// those, functions before methods, which need a receiver built.
	var out []diffparse.Symbol
	for pass := 0; pass < 3; pass++ {
		for _, s := range found {
			public := l.Public(lang.BareName(s.Local))
			take := pass == 0 && public && s.Kind != "method" || pass == 1 && public && s.Kind == "method" || pass == 2 && !public
			if take && len(out) < maxCallers {
				out = append(out, s)
			}
		}
	}
	kept := map[string][]string{}
	for _, s := range out {
		kept[s.Name] = reads[s.Name]
	}
	return out, kept
}

// onlyMethods reports whether callers were found and all are methods.
func onlyMethods(found []diffparse.Symbol) bool {
	for _, s := range found {
		if s.Kind != "method" {
			return false
		}
	}
	return len(found) > 0
}

// prefixed is a local name under the package or module prefix.
func prefixed(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + "." + local
}

func dedupeStrings(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
