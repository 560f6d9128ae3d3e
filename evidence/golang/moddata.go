package golang

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
)

// goDataReaders is dataReaders for a Go file: the functions and methods of
// the file that read a package-level var or const whose declaration the
// diff changed (a table of units, a map of acronyms), each as a modified
// symbol named under prefix, the file's import path.
func goDataReaders(f diffparse.File, prefix string) ([]diffparse.Symbol, map[string][]string, []string) {
	_, changedText := goChangedNames(f)
	names := sharedNames(f)
	// A type the patch changes (a field's tag, an embedded type, what it
	// is defined as) changes what the functions of its file using it
	// answer: encoding/json reads the tags, a narrower int overflows.
	typeNames, values := typeReads(f)
	for n := range typeNames {
		names[n] = true
	}
	if len(names) == 0 && len(values) == 0 {
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
	byValue, valueReads := typeValueReaders(f, base, values, prefix)
	out, reads := lang.ReadersOf(f, head, base, names, prefix, func(d diffparse.Decl) bool {
		return d.Kind == "function" || d.Kind == "method"
	})
	for _, s := range byValue {
		if _, dup := reads[s.Name]; !dup {
			out = append(out, s)
			reads[s.Name] = valueReads[s.Name]
		}
	}
	strs, _ := goLiterals(strings.Join(changedText, "\n"))
	return out, reads, strs
}

// goChangedNames are the package-level vars and consts whose specs the
// diff changes on either side, and the changed lines' text.
func goChangedNames(f diffparse.File) (map[string]bool, []string) {
	if f.Language != "go" || f.HeadSrc == nil || f.BaseSrc == nil {
		return nil, nil
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
	return names, changedText
}

// goValueSpan is the lines of one package-level var or const spec and the
// names it declares.
type goValueSpan struct {
	from, to int
	names    []string
	fn       bool            // its value is a function literal: var Clamp = func(...)
	loadCall bool            // var _ = tune(): a call for its effect at load
	reads    map[string]bool // the identifiers its values name
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
			sp := goValueSpan{from: fset.Position(vs.Pos()).Line, to: fset.Position(vs.End()).Line, reads: map[string]bool{}}
			for _, v := range vs.Values {
				ast.Inspect(v, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.Ident:
						sp.reads[x.Name] = true
					case *ast.CallExpr:
						// A function literal called in a value, at any
						// depth (var _ = func() bool { floor = -5; ...
						// }()): code run at load, as an init's is.
						if _, lit := x.Fun.(*ast.FuncLit); lit {
							sp.loadCall = true
						}
					}
					return true
				})
				if _, ok := v.(*ast.FuncLit); ok {
					sp.fn = true
				}
				// var _ = tune(): a call made when the package loads, for
				// what it does (an interface assertion declares a type).
				if c, ok := v.(*ast.CallExpr); ok && vs.Type == nil && len(vs.Names) == 1 && vs.Names[0].Name == "_" {
					_, lit := c.Fun.(*ast.FuncLit)
					sp.loadCall = sp.loadCall || !lit
				}
			}
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

// valueDependents adds to names the package-level vars and consts of a
// file (its goValueSpans) whose values are built from one of names,
// directly or through another (a pattern's piece changed: the pattern
// built from it, and the compiled regexp built from that, changed too).
func valueDependents(specs []goValueSpan, names map[string]bool) {
	if len(names) == 0 {
		return
	}
	for grew := true; grew; {
		grew = false
		for _, sp := range specs {
			if !slices.ContainsFunc(sp.names, func(n string) bool { return !names[n] }) {
				continue
			}
			for r := range sp.reads {
				if names[r] {
					for _, n := range sp.names {
						names[n] = true
					}
					grew = true
					break
				}
			}
		}
	}
}
