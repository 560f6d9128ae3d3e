package partition

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// Param is one parameter of a target function.
type Param struct {
	Name string `json:"name"`
	// Type is the Go type or the Python annotation as written; "" when
	// the Python parameter has none.
	Type string `json:"type,omitempty"`
	// Default is a Python default value as written; "" when there is none.
	Default     string `json:"default,omitempty"`
	KeywordOnly bool   `json:"keyword_only,omitempty"` // Python, after * or *args
}

// Signature is what the templates know of a target: its language and
// parameters, without receivers, self or cls.
type Signature struct {
	Language string  `json:"language"` // python or go
	Params   []Param `json:"params"`
}

// PythonSignature reads the parameters of def name from Python source. A
// method is named Class.method; only the last part is looked for, in the
// class when one is named. It is a simple reading of the def line(s), not a
// parser: annotations and defaults are kept as text.
func PythonSignature(src []byte, local string) (*Signature, error) {
	name := local
	class := ""
	if i := strings.LastIndex(local, "."); i >= 0 {
		class, name = local[:i], local[i+1:]
		if j := strings.LastIndex(class, "."); j >= 0 {
			class = class[j+1:]
		}
	}
	text := string(src)
	from := 0
	if class != "" {
		m := regexp.MustCompile(`(?m)^\s*class\s+` + regexp.QuoteMeta(class) + `\b`).FindStringIndex(text)
		if m != nil {
			from = m[1]
		}
	}
	// A function is looked for at the top level first, so a method of the
	// same name does not shadow it.
	indent := `[ \t]*`
	if class == "" {
		indent = ``
	}
	re := regexp.MustCompile(`(?m)^` + indent + `(?:async[ \t]+)?def[ \t]+` + regexp.QuoteMeta(name) + `[ \t]*\(`)
	loc := re.FindStringIndex(text[from:])
	if loc == nil && class == "" {
		re = regexp.MustCompile(`(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+` + regexp.QuoteMeta(name) + `[ \t]*\(`)
		loc = re.FindStringIndex(text)
	}
	if loc == nil {
		return nil, fmt.Errorf("python signature: no def %s", name)
	}
	start := from + loc[1]
	inner, ok := balanced(text[start:])
	if !ok {
		return nil, fmt.Errorf("python signature: def %s: unbalanced parentheses", name)
	}
	sig := &Signature{Language: "python"}
	kwOnly := false
	for i, raw := range splitTop(stripComments(inner)) {
		p := strings.TrimSpace(raw)
		switch {
		case p == "":
			continue
		case p == "/":
			continue
		case p == "*":
			kwOnly = true
			continue
		case strings.HasPrefix(p, "**"):
			continue
		case strings.HasPrefix(p, "*"):
			kwOnly = true
			continue
		}
		var par Param
		if n, def, ok := cutTop(p, '='); ok {
			p, par.Default = strings.TrimSpace(n), strings.TrimSpace(def)
		}
		if n, ann, ok := cutTop(p, ':'); ok {
			p, par.Type = strings.TrimSpace(n), strings.TrimSpace(ann)
		}
		par.Name = p
		par.KeywordOnly = kwOnly
		if i == 0 && (p == "self" || p == "cls") {
			continue
		}
		sig.Params = append(sig.Params, par)
	}
	return sig, nil
}

// balanced returns the text up to the parenthesis that closes an already
// opened one, skipping strings.
func balanced(s string) (string, bool) {
	depth := 1
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return s[:i], true
			}
		}
	}
	return "", false
}

// splitTop splits s at commas outside brackets and strings.
func splitTop(s string) []string {
	var out []string
	depth, last := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// stripComments blanks Python comments outside strings.
func stripComments(s string) string {
	b := []byte(s)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '#':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		}
	}
	return string(b)
}

// cutTop cuts s at the first sep outside brackets and strings.
func cutTop(s string, sep byte) (string, string, bool) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// GoSignature reads the parameters of a Go function or method from source;
// local is Func or Type.Method.
func GoSignature(src []byte, local string) (*Signature, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("go signature: %w", err)
	}
	recv, name := "", local
	if i := strings.LastIndex(local, "."); i >= 0 {
		recv, name = local[:i], local[i+1:]
		if j := strings.LastIndex(recv, "."); j >= 0 {
			recv = recv[j+1:]
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name {
			continue
		}
		if (recv == "") != (fd.Recv == nil) {
			continue
		}
		if recv != "" && recvName(fd.Recv) != recv {
			continue
		}
		sig := &Signature{Language: "go"}
		for _, fld := range fd.Type.Params.List {
			typ := exprString(fset, src, fld.Type)
			if len(fld.Names) == 0 {
				sig.Params = append(sig.Params, Param{Name: fmt.Sprintf("arg%d", len(sig.Params)), Type: typ})
			}
			for _, n := range fld.Names {
				sig.Params = append(sig.Params, Param{Name: n.Name, Type: typ})
			}
		}
		return sig, nil
	}
	return nil, fmt.Errorf("go signature: no func %s", local)
}

func recvName(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func exprString(fset *token.FileSet, src []byte, e ast.Expr) string {
	from, to := fset.Position(e.Pos()).Offset, fset.Position(e.End()).Offset
	if from < 0 || to > len(src) || from > to {
		return ""
	}
	return string(src[from:to])
}
