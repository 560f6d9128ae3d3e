package diffparse

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
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

func (goFrontEnd) decls(src []byte) ([]Decl, error) {
	ds, _, err := goDecls(src, nil)
	return ds, err
}

// goDecls parses src, from which hollowGo may have taken the bodies cuts
// name: spans get those bodies' lines back. bodies holds the lines of each
// function's braces ({0, 0} for a type or a function without a body).
func goDecls(src []byte, cuts []cut) (out []Decl, bodies [][2]int, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	// Lines as in the file, not as //line directives would have them: the
	// diff's lines are the file's.
	line := func(p token.Pos) int {
		pos := fset.PositionFor(p, false)
		l := pos.Line
		for _, c := range cuts {
			if c.at > pos.Offset {
				break
			}
			l += c.lines
		}
		return l
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			dl := Decl{Local: d.Name.Name, Kind: "function", Start: line(d.Type.Func), End: line(d.End())}
			if recv := GoReceiver(d); recv != "" {
				dl.Local = recv + "." + d.Name.Name
				dl.Kind = "method"
			}
			out = append(out, dl)
			var body [2]int
			if d.Body != nil {
				body = [2]int{line(d.Body.Lbrace), line(d.Body.Rbrace)}
			}
			bodies = append(bodies, body)
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
				bodies = append(bodies, [2]int{})
			}
		}
	}
	return out, bodies, nil
}

// declsPair parses both sides of a changed Go file with the bodies of the
// functions no hunk touches blanked out (hollowGo): most of a Go file is
// function bodies, and those the patch left alone decide nothing about
// which symbols changed. Names, kinds and spans are those of the full
// parse (FuzzHollowGo). A syntax error inside an untouched body goes
// unseen: the patch did not write it.
//
// The base is not parsed at all when the hunks cannot have moved a
// declaration (goKeepsShape): its declarations are then the head's, whose
// names are what decides a symbol added, modified or deleted.
func (g goFrontEnd) declsPair(head, base []byte, hunks []Hunk) (hd, bd []Decl, herr, berr error) {
	var read func() []byte
	if base != nil {
		read = func() []byte { return base }
	}
	return g.declsLazy(head, read, hunks)
}

// declsLazy is declsPair with the base read by readBase (nil for a file
// with no base side) only when goKeepsShape does not spare its parse; a
// nil read is the base's error.
func (goFrontEnd) declsLazy(head []byte, readBase func() []byte, hunks []Hunk) (hd, bd []Decl, herr, berr error) {
	var bodies [][2]int
	if head != nil {
		hd, bodies, herr = goDecls(hollowGo(head, func(from, to int) bool { return touches(hunks, from, to, true) }))
	}
	if readBase == nil || herr != nil {
		return hd, nil, herr, nil
	}
	if head != nil && goKeepsShape(hunks, bodies) {
		return hd, hd, nil, nil
	}
	base := readBase()
	if base == nil {
		return hd, nil, nil, errNoBase
	}
	bd, _, berr = goDecls(hollowGo(base, func(from, to int) bool { return touches(hunks, from, to, false) }))
	return hd, bd, nil, berr
}

// errNoBase means a base side to be read lazily could not be had.
var errNoBase = errors.New("base side not read")

// goKeepsShape reports whether the file before hunks declares what the file
// after them does, by its names and order: every change lies inside one
// function body of the head file, off the lines of its braces, and the
// text it took out and the text it put in are each balanced Go (no brace,
// bracket or parenthesis, string, rune or comment left open or closed
// early), so the text around them reads the same on both sides. bodies are
// the head functions' brace lines.
func goKeepsShape(hunks []Hunk, bodies [][2]int) bool {
	for _, c := range changes(hunks) {
		inside := false
		for _, b := range bodies {
			if b[0] < c.first && c.next <= b[1] {
				inside = true
				break
			}
		}
		if !inside || !goBalanced(c.took) || !goBalanced(c.put) {
			return false
		}
	}
	return true
}

// goBalanced reports whether lines, as Go text, close every bracket,
// brace, parenthesis, string, rune and comment they open and close none
// they did not open.
func goBalanced(lines []string) bool {
	text := strings.Join(lines, "\n")
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			if depth--; depth < 0 {
				return false
			}
		case '"', '\'':
			for i++; i < len(text) && text[i] != c; i++ {
				if text[i] == '\\' {
					i++
				} else if text[i] == '\n' {
					return false
				}
			}
			if i >= len(text) {
				return false
			}
		case '`':
			j := strings.IndexByte(text[i+1:], '`')
			if j < 0 {
				return false
			}
			i += j + 1
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				j := strings.IndexByte(text[i:], '\n')
				if j < 0 {
					return depth == 0
				}
				i += j
			} else if i+1 < len(text) && text[i+1] == '*' {
				j := strings.Index(text[i+2:], "*/")
				if j < 0 {
					return false
				}
				i += j + 3
			}
		}
	}
	return depth == 0
}

// touches reports whether a hunk's head-side (or base-side) lines meet
// lines [from, to]. A side a hunk has no lines on is touched at the line
// the other side's lines follow.
func touches(hunks []Hunk, from, to int, head bool) bool {
	for _, h := range hunks {
		start, n := h.OldStart, h.OldLines
		if head {
			start, n = h.NewStart, h.NewLines
		}
		end := start + n - 1
		if n == 0 {
			end = start
		}
		if start <= to && end >= from {
			return true
		}
	}
	return false
}

// cut is a function body hollowGo took out: the offset of its closing
// brace in what remains, and the lines it held.
type cut struct{ at, lines int }

// hollowGo returns src with the bodies of its top-level functions for
// which keep(first line, last line) is false taken out, leaving "{}", and
// where it took them (goDecls gives their lines back to the spans after
// them). go/parser then neither reads nor counts the lines of bodies no
// hunk touched. It returns src itself when nothing is taken out or the
// scanner finds anything amiss.
func hollowGo(src []byte, keep func(from, to int) bool) ([]byte, []cut) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	type body struct{ open, close int } // offsets of the braces
	var bodies []body
	depth, base, errs := 0, 0, 0 // base: the offset s scans from
	prev := token.SEMICOLON
	inSig := false // between a declaration's func keyword and its body
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.FUNC:
			// At the top level after a statement's end: a declaration,
			// not a function literal (var f = func() {...}).
			if depth == 0 && prev == token.SEMICOLON {
				inSig = true
			}
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK:
			depth--
		case token.LBRACE:
			// A signature's struct{...} and interface{...} are types.
			if inSig && depth == 0 && prev != token.STRUCT && prev != token.INTERFACE {
				open := base + file.Offset(pos)
				end, ok := skipGoBody(src, open)
				if !ok {
					return src, nil
				}
				bodies = append(bodies, body{open, end})
				// Go on after the body, which ends a statement.
				base, errs = end+1, errs+s.ErrorCount
				file = fset.AddFile("", fset.Base(), len(src)-base)
				s.Init(file, src[base:], nil, 0)
				prev, inSig = token.SEMICOLON, false
				continue
			}
			depth++
		case token.RBRACE:
			depth--
		case token.SEMICOLON:
			if depth == 0 {
				inSig = false // a function without a body
			}
		}
		prev = tok
	}
	if errs+s.ErrorCount > 0 || depth != 0 {
		return src, nil
	}
	var out []byte
	var cuts []cut
	line, counted, copied := 1, 0, 0 // the line at offset counted; src up to copied is in out
	lineOf := func(off int) int {
		line += bytes.Count(src[counted:off], []byte{'\n'})
		counted = off
		return line
	}
	for _, b := range bodies {
		from := lineOf(b.open)
		to := lineOf(b.close)
		if keep(from, to) {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(src))
		}
		out = append(out, src[copied:b.open+1]...)
		cuts = append(cuts, cut{at: len(out), lines: to - from})
		copied = b.close
	}
	if out == nil {
		return src, nil
	}
	return append(out, src[copied:]...), cuts
}

// skipGoBody returns the offset of the brace that closes the one at open,
// stepping over strings, raw strings, runes and comments byte by byte: a
// body is most of a file, and go/scanner's tokens are not needed inside it.
// ok is false when the file ends first.
func skipGoBody(src []byte, open int) (end int, ok bool) {
	depth := 0
	for i := open; i < len(src); i++ {
		switch c := src[i]; c {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i, true
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' {
					return 0, false // not Go: let go/parser say so
				}
			}
		case '`':
			j := bytes.IndexByte(src[i+1:], '`')
			if j < 0 {
				return 0, false
			}
			i += j + 1
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				j := bytes.IndexByte(src[i:], '\n')
				if j < 0 {
					return 0, false
				}
				i += j
			} else if i+1 < len(src) && src[i+1] == '*' {
				j := bytes.Index(src[i+2:], []byte("*/"))
				if j < 0 {
					return 0, false
				}
				i += j + 3
			}
		}
	}
	return 0, false
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
