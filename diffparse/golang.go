package diffparse

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// goFrontEnd maps Go with go/parser: functions, methods named Type.Method
// (pointer and generic receivers stripped) and type declarations. A span runs
// from the func or type keyword (doc comment excluded) to the closing line.
type goFrontEnd struct{}

func (goFrontEnd) language() string { return "go" }

func (goFrontEnd) handles(p string) bool { return strings.HasSuffix(p, ".go") }

// decls parses src with go/parser. Lines are the file's own, not what
// //line directives would make them: the diff's lines are the file's.
func (goFrontEnd) decls(src []byte) ([]Decl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	line := func(p token.Pos) int { return fset.PositionFor(p, false).Line }
	var out []Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			dl := Decl{Local: d.Name.Name, Kind: "function", Start: line(d.Type.Func), End: line(d.End())}
			if recv := GoReceiver(d); recv != "" {
				dl.Local = recv + "." + d.Name.Name
				dl.Kind = "method"
			}
			out = append(out, dl)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				dl := Decl{Local: ts.Name.Name, Kind: "type", Start: line(ts.Pos()), End: line(ts.End())}
				if !d.Lparen.IsValid() {
					dl.Start, dl.End = line(d.Pos()), line(d.End())
				}
				out = append(out, dl)
			}
		}
	}
	return out, nil
}

// GoReceiver returns the type a method is declared on, as premise names
// methods (Type.Method): pointers, generic parameters and parentheses
// stripped, (*List[T]) -> List; "" for a function.
func GoReceiver(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	e := fd.Recv.List[0].Type
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		case *ast.SelectorExpr:
			return t.Sel.Name
		default:
			return "?"
		}
	}
}

// generatedRE is Go's convention for generated files
// (https://go.dev/s/generatedcode).
var generatedRE = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.\r?$`)

func (goFrontEnd) generated(src []byte) bool {
	// The comment must come before the package clause; looking at the head
	// of the file keeps this cheap on big files.
	head := src
	if i := bytes.Index(src, []byte("\npackage ")); i >= 0 {
		head = src[:i+1]
	} else if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	return generatedRE.Match(head)
}

// qualifier returns the import path of the file's directory: the module path
// of the nearest go.mod above it joined with the directory below that.
func (goFrontEnd) qualifier(p string, read func(string) ([]byte, bool)) string {
	dir := path.Dir(p)
	for d := dir; ; d = path.Dir(d) {
		name := "go.mod"
		if d != "." {
			name = d + "/go.mod"
		}
		if data, ok := read(name); ok {
			if mod := modulePath(data); mod != "" {
				if d == dir {
					return mod
				}
				rel := strings.TrimPrefix(dir, d+"/")
				if d == "." {
					rel = dir
				}
				return mod + "/" + rel
			}
		}
		if d == "." || d == "/" {
			break
		}
	}
	return dir
}

// modulePath reads the module directive of a go.mod file.
func modulePath(gomod []byte) string {
	for _, l := range strings.Split(string(gomod), "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "module") {
			continue
		}
		rest := strings.TrimSpace(strings.TrimPrefix(l, "module"))
		if i := strings.Index(rest, "//"); i >= 0 {
			rest = strings.TrimSpace(rest[:i])
		}
		if u, err := strconv.Unquote(rest); err == nil {
			return u
		}
		return rest
	}
	return ""
}

// ParseGo parses one Go file's source, without resolving objects: the one
// place premise's stages parse a changed Go file (evidence's package
// reader, evidence/gosource, parses a package directory on its own).
func ParseGo(name string, src []byte) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	return fset, f, err
}

// GoPackageName is the package clause of the Go file at path, read without
// the rest of the file.
func GoPackageName(path string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	return f.Name.Name, nil
}
