package diffparse

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Param is one parameter of a Python, JavaScript or TypeScript function as
// its source writes it.
type Param struct {
	Name        string
	Type        string // the annotation, "" when there is none
	Default     string // the default value, "" when there is none
	KeywordOnly bool   // after * or *args
	// Varargs marks *args (Name without the star); PythonParams and
	// PythonFuncParams list it after the keyword-only parameters.
	Varargs bool
	// Kwargs marks **kwargs (Name without the stars), listed last.
	Kwargs bool
	// Optional marks a TypeScript parameter written x?: T, which a call
	// may leave out without a default.
	Optional bool
}

// PythonParams returns the parameters of the function that the longest
// dotted suffix of name names in src: pkg.mod.Class.method finds
// Class.method before method, and a top-level function before a method of
// the same name. *args comes last, marked Varargs; **kwargs, the / and *
// markers and a leading self or cls are left out.
func PythonParams(src []byte, name string) ([]Param, error) {
	tree, err := pyParse(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	w := pyWalker{src: src, funcs: map[string]*sitter.Node{}}
	w.walk(tree.RootNode(), "", false)
	parts := strings.Split(name, ".")
	for i := range parts {
		if fn := w.funcs[strings.Join(parts[i:], ".")]; fn != nil {
			return pyParams(src, fn), nil
		}
	}
	return nil, fmt.Errorf("python: no function %s", name)
}

// PythonFuncParams returns the parameters of every function and method
// in src by its local name (f, Class.method), parsing src once: what a
// caller asking about several functions of one file uses instead of
// PythonParams.
func PythonFuncParams(src []byte) (map[string][]Param, error) {
	tree, err := pyParse(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	w := pyWalker{src: src, funcs: map[string]*sitter.Node{}}
	w.walk(tree.RootNode(), "", false)
	out := make(map[string][]Param, len(w.funcs))
	for name, fn := range w.funcs {
		out[name] = pyParams(src, fn)
	}
	return out, nil
}

func pyParams(src []byte, fn *sitter.Node) []Param {
	text := func(n *sitter.Node) string {
		if n == nil {
			return ""
		}
		return string(src[n.StartByte():n.EndByte()])
	}
	params := fn.ChildByFieldName("parameters")
	if params == nil {
		return nil
	}
	out := []Param{}
	kwOnly, first := false, true
	var varargs, kwargs *Param
	for i := uint(0); i < params.NamedChildCount(); i++ {
		c := params.NamedChild(i)
		var par Param
		switch c.Kind() {
		case "identifier":
			par.Name = text(c)
		case "default_parameter":
			par.Name, par.Default = text(c.ChildByFieldName("name")), text(c.ChildByFieldName("value"))
		case "typed_default_parameter":
			par.Name, par.Type, par.Default = text(c.ChildByFieldName("name")), text(c.ChildByFieldName("type")), text(c.ChildByFieldName("value"))
		case "typed_parameter":
			switch inner := c.NamedChild(0); inner.Kind() {
			case "list_splat_pattern":
				kwOnly = true
				if inner.NamedChildCount() > 0 {
					varargs = &Param{Name: text(inner.NamedChild(0)), Type: text(c.ChildByFieldName("type")), Varargs: true}
				}
				continue
			case "dictionary_splat_pattern":
				if inner.NamedChildCount() > 0 {
					kwargs = &Param{Name: text(inner.NamedChild(0)), Type: text(c.ChildByFieldName("type")), Kwargs: true}
				}
				continue
			default:
				par.Name, par.Type = text(inner), text(c.ChildByFieldName("type"))
			}
		case "list_splat_pattern":
			kwOnly = true
			if c.NamedChildCount() > 0 {
				varargs = &Param{Name: text(c.NamedChild(0)), Varargs: true}
			}
			continue
		case "dictionary_splat_pattern":
			if c.NamedChildCount() > 0 {
				kwargs = &Param{Name: text(c.NamedChild(0)), Kwargs: true}
			}
			continue
		case "keyword_separator":
			kwOnly = true
			continue
		default: // the / marker, comments
			continue
		}
		if first && (par.Name == "self" || par.Name == "cls") {
			first = false
			continue
		}
		first = false
		par.KeywordOnly = kwOnly
		out = append(out, par)
	}
	if varargs != nil {
		out = append(out, *varargs)
	}
	if kwargs != nil {
		out = append(out, *kwargs)
	}
	return out
}
