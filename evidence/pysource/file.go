package pysource

import (
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// File is one parsed Python source file (a module, a test file or a .pyi
// stub). A File is not safe for concurrent use; Close releases its tree,
// and a File that is not closed is released when collected.
type File struct {
	// Path is the file's path as the caller names it; inputs and
	// constants cite it.
	Path string
	src  []byte
	tree *sitter.Tree
	root *sitter.Node
	// err is the first syntax error, nil when the file parses cleanly.
	err error
	// imported caches importedNames, names fileNames, and scopes the
	// scopes of functions and classes by start byte: a File serves many
	// calls of Harvest.
	imported map[string]bool
	names    *names
	scopes   map[uint]*names
	// project are the repository's own top-level modules and packages
	// (SetProject): a test's argument may call them, as the tests do.
	project map[string]bool
	// importPath is how an import names the module (SetImportPath);
	// docNames caches doctestNames.
	importPath string
	docNames   *names
	// modules reads another of the project's modules (SetModules).
	modules func(module string) *File
}

// SetImportPath says how an import names the file's module (dnslib.dns,
// of dnslib/dns.py): its doctests run among the module's own names, and
// an argument of theirs built by one imports it from there. It must be
// called before the file's doctests are read.
func (f *File) SetImportPath(p string) {
	f.importPath = p
}

// SetProject names the repository's own top-level modules and packages
// (networkx, of networkx/algorithms/...): an argument of the file's tests
// may then be built by their functions and classes (nx.path_graph(4), a
// nx.Graph() the test fills by its own methods), the import going with
// it, as it may by the standard modules'. It must be called before the
// file is read.
func (f *File) SetProject(roots map[string]bool) {
	f.project = roots
}

var (
	langOnce sync.Once
	lang     *sitter.Language
	// parsers reuses parsers across files: creating one costs more than
	// parsing a small file (diffparse/python.go does the same).
	parsers = sync.Pool{New: func() any {
		p := sitter.NewParser()
		if err := p.SetLanguage(language()); err != nil {
			p.Close()
			return nil
		}
		runtime.SetFinalizer(p, (*sitter.Parser).Close)
		return p
	}}
)

func language() *sitter.Language {
	langOnce.Do(func() { lang = sitter.NewLanguage(python.Language()) })
	return lang
}

// ErrNoFunction is returned (wrapped) when a file defines no function of
// the name asked for.
var ErrNoFunction = errors.New("no such function")

// Parse parses src. It fails only when no tree can be built; a syntax error
// is kept and reported by SyntaxError, and the parts that parse still
// serve.
func Parse(path string, src []byte) (*File, error) {
	p, _ := parsers.Get().(*sitter.Parser)
	if p == nil {
		return nil, errors.New("python parser unavailable")
	}
	defer parsers.Put(p)
	src = append([]byte(nil), src...) // nodes index the bytes; the caller may reuse its slice
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, fmt.Errorf("parse %s: no tree", path)
	}
	f := &File{Path: path, src: src, tree: tree, root: tree.RootNode()}
	if f.root.HasError() {
		f.err = syntaxError(path, f.root)
	}
	runtime.SetFinalizer(f, (*File).Close)
	return f, nil
}

// Close releases the file's tree. It is safe to call more than once.
func (f *File) Close() {
	if f == nil || f.tree == nil {
		return
	}
	f.tree.Close()
	// The caches hold nodes of the tree: they go with it.
	f.tree, f.root, f.names, f.scopes, f.imported = nil, nil, nil, nil, nil
	runtime.SetFinalizer(f, nil)
}

// SyntaxError returns the file's first syntax error, or nil.
func (f *File) SyntaxError() error { return f.err }

// Module is the file's module name as an import would spell its last part:
// the base name without .py or .pyi, or the directory's name for an
// __init__.py.
func (f *File) Module() string {
	b := strings.TrimSuffix(strings.TrimSuffix(path.Base(f.Path), ".pyi"), ".py")
	if b == "__init__" {
		return path.Base(path.Dir(f.Path))
	}
	return b
}

func (f *File) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(f.src[n.StartByte():n.EndByte()])
}

func (f *File) pos(n *sitter.Node) string {
	return fmt.Sprintf("%s:%d", f.Path, line(n))
}

func line(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }

func syntaxError(path string, root *sitter.Node) error {
	var find func(n *sitter.Node) *sitter.Node
	find = func(n *sitter.Node) *sitter.Node {
		if n.IsError() || n.IsMissing() {
			return n
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			if c := n.Child(i); c != nil && (c.HasError() || c.IsMissing()) {
				if e := find(c); e != nil {
					return e
				}
			}
		}
		return nil
	}
	if e := find(root); e != nil {
		return fmt.Errorf("%s:%d: syntax error", path, line(e))
	}
	return fmt.Errorf("%s: syntax error", path)
}

// containers are the statements whose bodies still belong to the
// enclosing scope, as in diffparse.
var containers = map[string]bool{
	"module": true, "block": true,
	"if_statement": true, "elif_clause": true, "else_clause": true,
	"for_statement": true, "while_statement": true,
	"try_statement": true, "except_clause": true, "finally_clause": true,
	"with_statement": true,
}

// def is a function found by name, with the class holding it.
type def struct {
	fn    *sitter.Node // function_definition
	outer *sitter.Node // decorated_definition when decorated, else fn
	class *sitter.Node // class_definition, nil for a top-level function
}

// defs returns the definitions of name ("f" or "Class.m"), first first:
// @overload stubs define a name several times.
func (f *File) defs(name string) []def {
	if f.root == nil {
		return nil
	}
	cls, fn := "", name
	if i := strings.LastIndex(name, "."); i >= 0 {
		cls, fn = name[:i], name[i+1:]
	}
	var out []def
	var walk func(n *sitter.Node, prefix string, class *sitter.Node)
	walk = func(n *sitter.Node, prefix string, class *sitter.Node) {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			outer := c
			if c.Kind() == "decorated_definition" {
				if c = c.ChildByFieldName("definition"); c == nil {
					continue
				}
			}
			switch c.Kind() {
			case "function_definition":
				if prefix == cls && f.text(c.ChildByFieldName("name")) == fn {
					out = append(out, def{fn: c, outer: outer, class: class})
				}
			case "class_definition":
				p := f.text(c.ChildByFieldName("name"))
				if prefix != "" {
					p = prefix + "." + p
				}
				if body := c.ChildByFieldName("body"); body != nil && strings.HasPrefix(cls, p) {
					walk(body, p, c)
				}
			default:
				if containers[c.Kind()] {
					walk(c, prefix, class)
				}
			}
		}
	}
	walk(f.root, "", nil)
	return out
}

func (f *File) def(name string) (def, error) {
	ds := f.defs(name)
	if len(ds) == 0 {
		return def{}, fmt.Errorf("%s: %s: %w", f.Path, name, ErrNoFunction)
	}
	return ds[0], nil
}

// docstring returns the docstring node of a module, class or function
// body, nil when there is none.
func docstring(body *sitter.Node) *sitter.Node {
	if body == nil {
		return nil
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		if c.Kind() == "comment" {
			continue
		}
		if c.Kind() == "expression_statement" && c.NamedChildCount() == 1 {
			if s := c.NamedChild(0); s.Kind() == "string" || s.Kind() == "concatenated_string" {
				return s
			}
		}
		return nil
	}
	return nil
}

// stringValue returns a plain string literal's text and the line its
// content starts on; ok is false for f-strings and byte strings. Escapes
// are decoded only as far as docstrings need: a backslash before a quote or
// a backslash.
func (f *File) stringValue(n *sitter.Node) (s string, startLine int, ok bool) {
	if n == nil || n.Kind() != "string" {
		return "", 0, false
	}
	raw := false
	var b strings.Builder
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "string_start":
			p := strings.ToLower(strings.TrimRight(f.text(c), `"'`))
			if strings.ContainsAny(p, "fb") {
				return "", 0, false
			}
			raw = strings.Contains(p, "r")
		case "string_content":
			b.WriteString(f.text(c))
		case "escape_sequence":
			t := f.text(c)
			if !raw && len(t) == 2 && strings.ContainsRune(`\'"`, rune(t[1])) {
				t = t[1:]
			} else if !raw && t == `\n` {
				t = "\n"
			}
			b.WriteString(t)
		case "interpolation":
			return "", 0, false
		}
	}
	return b.String(), line(n), true
}

// ClassBases returns the base classes of the class named cls ("C" or
// "Outer.C") as written, nil when the file does not define it.
func (f *File) ClassBases(cls string) []string {
	_, c := f.class(cls)
	if c == nil {
		return nil
	}
	var out []string
	if sc := c.ChildByFieldName("superclasses"); sc != nil {
		for j := uint(0); j < sc.NamedChildCount(); j++ {
			if a := sc.NamedChild(j); a.Kind() != "keyword_argument" && a.Kind() != "comment" {
				out = append(out, f.text(a))
			}
		}
	}
	return out
}

// Subclasses returns the top-level classes of the file that derive from
// the top-level class cls, directly or through others of the file: the
// direct ones first, then theirs, each level in file order.
func (f *File) Subclasses(cls string) []string {
	if f == nil || f.root == nil {
		return nil
	}
	type class struct {
		name  string
		bases []string
	}
	var classes []class
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "decorated_definition" {
				if c = c.ChildByFieldName("definition"); c == nil {
					continue
				}
			}
			switch {
			case c.Kind() == "class_definition":
				name := f.text(c.ChildByFieldName("name"))
				classes = append(classes, class{name, f.ClassBases(name)})
			case containers[c.Kind()]:
				walk(c)
			}
		}
	}
	walk(f.root)
	var out []string
	seen := map[string]bool{cls: true}
	level := []string{cls}
	for len(level) > 0 {
		var next []string
		for _, c := range classes {
			if seen[c.name] {
				continue
			}
			for _, b := range c.bases {
				if slices.Contains(level, b) {
					seen[c.name] = true
					next = append(next, c.name)
					break
				}
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// Abstract reports whether the class cls reads as one meant to be
// derived from, not built: it derives from ABC (or names ABCMeta), marks a
// method abstract, or raises NotImplementedError in one of its methods.
func (f *File) Abstract(cls string) bool {
	_, c := f.class(cls)
	if c == nil {
		return false
	}
	if sc := c.ChildByFieldName("superclasses"); sc != nil && strings.Contains(f.text(sc), "ABC") {
		return true
	}
	body := c.ChildByFieldName("body")
	if body == nil {
		return false
	}
	text := f.text(body)
	return strings.Contains(text, "abstractmethod") || strings.Contains(text, "NotImplementedError")
}

// class finds the definition of class cls (Outer.Inner for a nested one):
// the decorated definition around it (the definition itself when it has
// no decorator) and the class_definition node; nils when there is none.
func (f *File) class(cls string) (outer, def *sitter.Node) {
	if f == nil || f.root == nil {
		return nil, nil
	}
	var walk func(n *sitter.Node, prefix string) bool
	walk = func(n *sitter.Node, prefix string) bool {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			o := c
			if c.Kind() == "decorated_definition" {
				if c = c.ChildByFieldName("definition"); c == nil {
					continue
				}
			}
			switch {
			case c.Kind() == "class_definition":
				p := f.text(c.ChildByFieldName("name"))
				if prefix != "" {
					p = prefix + "." + p
				}
				if p == cls {
					outer, def = o, c
					return true
				}
				if body := c.ChildByFieldName("body"); body != nil && strings.HasPrefix(cls, p+".") && walk(body, p) {
					return true
				}
			case containers[c.Kind()]:
				if walk(c, prefix) {
					return true
				}
			}
		}
		return false
	}
	walk(f.root, "")
	return outer, def
}

// Field is one field of a dataclass: its name, its annotation and its
// default as written ("" when it has none).
type Field struct {
	Name, Type, Default string
}

// DataclassFields returns the fields of class cls when it is decorated
// @dataclass (or dataclasses.dataclass, attr.s and attrs' define): the
// annotated names of its body in order, which its generated __init__
// takes. ok is false for any other class. A ClassVar is no field.
func (f *File) DataclassFields(cls string) (fields []Field, ok bool) {
	outer, c := f.class(cls)
	if c == nil || outer.Kind() != "decorated_definition" {
		return nil, false
	}
	for i := uint(0); i < outer.NamedChildCount(); i++ {
		if d := outer.NamedChild(i); d.Kind() == "decorator" {
			name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.text(d)), "@"))
			if j := strings.IndexByte(name, '('); j >= 0 {
				name = name[:j]
			}
			switch name {
			case "dataclass", "dataclasses.dataclass", "attr.s", "attrs.define", "attr.define", "define", "frozen", "attrs.frozen":
				ok = true
			}
		}
	}
	body := c.ChildByFieldName("body")
	if !ok || body == nil {
		return nil, ok
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		st := body.NamedChild(i)
		if st.Kind() != "expression_statement" || st.NamedChildCount() == 0 {
			continue
		}
		a := st.NamedChild(0)
		if a.Kind() != "assignment" || a.ChildByFieldName("type") == nil || a.ChildByFieldName("left").Kind() != "identifier" {
			continue
		}
		fd := Field{Name: f.text(a.ChildByFieldName("left")), Type: f.text(a.ChildByFieldName("type"))}
		if strings.Contains(fd.Type, "ClassVar") {
			continue
		}
		if r := a.ChildByFieldName("right"); r != nil {
			fd.Default = f.text(r)
		}
		fields = append(fields, fd)
	}
	return fields, true
}

// ClassMethods returns the names of the methods of class cls decorated
// @classmethod, in the order written: the alternative constructors
// (Version.parse, Range.empty) a class without a usable __init__ is built
// by.
func (f *File) ClassMethods(cls string) []string {
	if f == nil || f.root == nil {
		return nil
	}
	var out []string
	var walk func(n *sitter.Node, prefix string)
	walk = func(n *sitter.Node, prefix string) {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			def := c
			if c.Kind() == "decorated_definition" {
				if def = c.ChildByFieldName("definition"); def == nil {
					continue
				}
			}
			switch {
			case def.Kind() == "class_definition":
				p := f.text(def.ChildByFieldName("name"))
				if prefix != "" {
					p = prefix + "." + p
				}
				if body := def.ChildByFieldName("body"); body != nil && (p == cls || strings.HasPrefix(cls, p+".")) {
					walk(body, p)
				}
			case def.Kind() == "function_definition" && prefix == cls && c.Kind() == "decorated_definition":
				for j := uint(0); j < c.NamedChildCount(); j++ {
					if d := c.NamedChild(j); d.Kind() == "decorator" && strings.TrimSpace(strings.TrimPrefix(f.text(d), "@")) == "classmethod" {
						out = append(out, f.text(def.ChildByFieldName("name")))
					}
				}
			case containers[c.Kind()]:
				walk(c, prefix)
			}
		}
	}
	walk(f.root, "")
	return out
}

// Decorators returns the decorators of the function name (f,
// Class.method) as written, without the @: "staticmethod",
// "functools.lru_cache(maxsize=None)"; nil when it has none or is not
// found.
func (f *File) Decorators(name string) []string {
	if f == nil || f.root == nil {
		return nil
	}
	d, err := f.def(name)
	if err != nil || d.outer.Kind() != "decorated_definition" {
		return nil
	}
	var out []string
	for i := uint(0); i < d.outer.NamedChildCount(); i++ {
		if c := d.outer.NamedChild(i); c.Kind() == "decorator" {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.text(c)), "@")))
		}
	}
	return out
}

// HasClass reports whether the file defines class cls (Outer.Inner for a
// nested one).
func (f *File) HasClass(cls string) bool {
	_, def := f.class(cls)
	return def != nil
}

// Declares says every definition of name ("f" or "Class.m") is only a
// declaration: its body an ellipsis (`...`), after a docstring or not, as
// a Protocol's methods, an @overload's stubs and an abstract method's
// signature are written. Calling one does nothing, and no row can tell
// two of them apart.
func (f *File) Declares(name string) bool {
	ds := f.defs(name)
	for _, d := range ds {
		body := d.fn.ChildByFieldName("body")
		if body == nil {
			return false
		}
		stmts, ellipsis := 0, false
		for i := uint(0); i < body.NamedChildCount(); i++ {
			c := body.NamedChild(i)
			if c.Kind() == "comment" {
				continue
			}
			stmts++
			if c.Kind() != "expression_statement" || c.NamedChildCount() != 1 {
				return false
			}
			switch e := c.NamedChild(0); e.Kind() {
			case "ellipsis":
				ellipsis = true
			case "string", "concatenated_string":
				if stmts != 1 {
					return false // only a docstring, first
				}
			default:
				return false
			}
		}
		if !ellipsis {
			return false
		}
	}
	return len(ds) > 0
}

// HasDef says the module defines name ("f" or "Class.m").
func (f *File) HasDef(name string) bool { return len(f.defs(name)) > 0 }
