package pysource

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Binds says whether the module binds name at its top level (in an if,
// try or with block too): by def or class, by an import (`from m import
// name`, `import m as name`), or by assignment (`name = ...`, `name: T =
// ...`). A function the patch deleted whose name the module still binds
// is still called under that name.
func (f *File) Binds(name string) bool {
	if f.root == nil || name == "" || strings.Contains(name, ".") {
		return false
	}
	var walk func(n *sitter.Node) bool
	walk = func(n *sitter.Node) bool {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "decorated_definition" {
				if c = c.ChildByFieldName("definition"); c == nil {
					continue
				}
			}
			switch c.Kind() {
			case "function_definition", "class_definition":
				if f.text(c.ChildByFieldName("name")) == name {
					return true
				}
			case "import_statement", "import_from_statement":
				if f.importBinds(c, name) {
					return true
				}
			case "expression_statement":
				if a := c.NamedChild(0); a != nil && a.Kind() == "assignment" && f.assigns(a, name) {
					return true
				}
			default:
				if containers[c.Kind()] && walk(c) {
					return true
				}
			}
		}
		return false
	}
	return walk(f.root)
}

// importBinds says whether an import statement binds name.
func (f *File) importBinds(n *sitter.Node, name string) bool {
	from := n.ChildByFieldName("module_name")
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if from != nil && c.StartByte() == from.StartByte() {
			continue
		}
		var bound string
		switch c.Kind() {
		case "aliased_import":
			bound = f.text(c.ChildByFieldName("alias"))
		case "dotted_name":
			bound, _, _ = strings.Cut(f.text(c), ".")
		}
		if bound == name {
			return true
		}
	}
	return false
}

// assigns says whether an assignment (chained ones too: a = b = f)
// binds name.
func (f *File) assigns(a *sitter.Node, name string) bool {
	for a != nil && a.Kind() == "assignment" {
		if l := a.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" && f.text(l) == name {
			return true
		}
		a = a.ChildByFieldName("right")
	}
	return false
}

// Names says whether the module's code names name anywhere (a read, a
// call, a binding): an identifier, never the words of a comment or a
// string.
func (f *File) Names(name string) bool {
	if f.root == nil || name == "" {
		return false
	}
	var walk func(n *sitter.Node) bool
	walk = func(n *sitter.Node) bool {
		if n.Kind() == "identifier" {
			return f.text(n) == name
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if walk(n.NamedChild(i)) {
				return true
			}
		}
		return false
	}
	return walk(f.root)
}
