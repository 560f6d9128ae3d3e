package diffparse

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// pythonFrontEnd maps Python with tree-sitter: functions, async functions,
// classes, methods (Class.method) and methods of nested classes
// (Outer.Inner.method). A decorated definition starts at its first decorator.
// Functions nested in functions belong to the enclosing symbol, so they are
// not declarations of their own.
type pythonFrontEnd struct{}

func (pythonFrontEnd) language() string { return "python" }

func (pythonFrontEnd) handles(p string) bool {
	return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")
}

var (
	pyLangOnce sync.Once
	pyLang     *sitter.Language
)

func pythonLanguage() *sitter.Language {
	pyLangOnce.Do(func() { pyLang = sitter.NewLanguage(python.Language()) })
	return pyLang
}

// pyContainers are the statements whose bodies may hold definitions that
// still belong to the enclosing scope (module or class).
var pyContainers = map[string]bool{
	"module": true, "block": true,
	"if_statement": true, "elif_clause": true, "else_clause": true,
	"for_statement": true, "while_statement": true,
	"try_statement": true, "except_clause": true, "except_group_clause": true, "finally_clause": true,
	"with_statement": true, "match_statement": true, "case_clause": true,
}

// pyParse parses src with tree-sitter; the caller closes the tree.
func pyParse(src []byte) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(pythonLanguage()); err != nil {
		return nil, fmt.Errorf("python parser: %w", err)
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, errors.New("python parser gave no tree")
	}
	return tree, nil
}

// decls parses src with tree-sitter.
func (pythonFrontEnd) decls(src []byte) ([]Decl, error) {
	tree, err := pyParse(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return nil, pySyntaxError(root)
	}
	w := pyWalker{src: src}
	w.walk(root, "", false)
	if w.out == nil {
		w.out = []Decl{}
	}
	return w.out, nil
}

type pyWalker struct {
	src []byte
	out []Decl
	// funcs, when not nil, collects each function's node by its local
	// name, the first of a name winning (PythonParams).
	funcs map[string]*sitter.Node
}

func (w *pyWalker) walk(n *sitter.Node, prefix string, inClass bool) {
	count := n.NamedChildCount()
	for i := uint(0); i < count; i++ {
		c := n.NamedChild(i)
		if c == nil {
			continue
		}
		w.visit(c, c, prefix, inClass)
	}
}

// visit handles one statement; outer is the node whose start begins the
// span (the decorated_definition for a decorated def).
func (w *pyWalker) visit(c, outer *sitter.Node, prefix string, inClass bool) {
	switch c.Kind() {
	case "decorated_definition":
		if d := c.ChildByFieldName("definition"); d != nil {
			w.visit(d, c, prefix, inClass)
		}
	case "function_definition":
		kind := "function"
		if inClass {
			kind = "method"
		}
		local := prefix + w.name(c)
		d := Decl{Local: local, Kind: kind, Start: startLine(outer), End: endLine(c)}
		if body := c.ChildByFieldName("body"); body != nil && startLine(body) > startLine(c) {
			d.Body = startLine(body)
		}
		w.out = append(w.out, d)
		if w.funcs != nil && w.funcs[local] == nil {
			w.funcs[local] = c
		}
	case "class_definition":
		name := prefix + w.name(c)
		w.out = append(w.out, Decl{Local: name, Kind: "class", Start: startLine(outer), End: endLine(c)})
		if body := c.ChildByFieldName("body"); body != nil {
			w.walk(body, name+".", true)
		}
	default:
		if pyContainers[c.Kind()] {
			w.walk(c, prefix, inClass)
		}
	}
}

func (w *pyWalker) name(n *sitter.Node) string {
	if id := n.ChildByFieldName("name"); id != nil {
		return string(w.src[id.StartByte():id.EndByte()])
	}
	return "?"
}

func startLine(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }

// endLine is the last line of the node's code. tree-sitter lets a block
// swallow the comments that follow its last statement; Python's ast (and a
// reader) ends the definition at its last statement, so trailing comments are
// skipped along the node's right edge. A node ending at column 0 ends on the
// line before.
func endLine(n *sitter.Node) int {
	for {
		var last *sitter.Node
		for i := int(n.ChildCount()) - 1; i >= 0; i-- {
			c := n.Child(uint(i))
			if c != nil && c.Kind() != "comment" && c.EndByte() > c.StartByte() {
				last = c
				break
			}
		}
		if last == nil {
			break
		}
		n = last
	}
	e := n.EndPosition()
	if e.Column == 0 && e.Row > n.StartPosition().Row {
		return int(e.Row)
	}
	return int(e.Row) + 1
}

// pySyntaxError names the first line tree-sitter could not parse.
func pySyntaxError(root *sitter.Node) error {
	var find func(n *sitter.Node) *sitter.Node
	find = func(n *sitter.Node) *sitter.Node {
		if n.IsError() || n.IsMissing() {
			return n
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c != nil && (c.HasError() || c.IsMissing()) {
				if e := find(c); e != nil {
					return e
				}
			}
		}
		return nil
	}
	if e := find(root); e != nil {
		if e.IsMissing() {
			return fmt.Errorf("syntax error at line %d: missing %s", startLine(e), e.Kind())
		}
		return fmt.Errorf("syntax error at line %d", startLine(e))
	}
	return errors.New("syntax error")
}

func (pythonFrontEnd) generated(src []byte) bool { return false }

// qualifier returns the module path: directories joined with dots, .py and
// /__init__ dropped, a leading src/ layout recognised.
func (pythonFrontEnd) qualifier(p string, _ func(string) ([]byte, bool)) string {
	m := strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	m = strings.TrimSuffix(m, "/__init__")
	if m == "__init__" {
		return "" // a package at the repository's root: names stay local
	}
	m = strings.TrimPrefix(m, "src/")
	return strings.ReplaceAll(m, "/", ".")
}

// PythonModule is the dotted module name of a Python file at path, as
// symbols are qualified: directories joined with dots, .py and /__init__
// dropped, a leading src/ layout recognised.
func PythonModule(path string) string { return pythonFrontEnd{}.qualifier(path, nil) }
