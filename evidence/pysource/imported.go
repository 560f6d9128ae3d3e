package pysource

import (
	"path"
	"strings"
)

// SetModules gives the file a way to read the project's other modules by
// their import path (dnslib.bit): a parameter the file's function hands to
// a function it imports from one of them (from .bit import set_bits) is
// typed as that function types it. It must be called before the file's
// types are inferred; read returns nil for a module it cannot read.
func (f *File) SetModules(read func(module string) *File) {
	f.modules = read
}

// importedDef is the file and the name under which a function the file
// imports from another of the project's modules is defined there: set_bits
// of dnslib/bit.py for `from .bit import set_bits` in dnslib/dns.py.
func (f *File) importedDef(name string) (*File, string, bool) {
	if f.modules == nil || f.root == nil {
		return nil, "", false
	}
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		c := f.root.NamedChild(i)
		if c.Kind() != "import_from_statement" {
			continue
		}
		modNode := c.ChildByFieldName("module_name")
		if modNode == nil {
			continue
		}
		for j := uint(0); j < c.NamedChildCount(); j++ {
			n := c.NamedChild(j)
			if n.StartByte() <= modNode.StartByte() {
				continue
			}
			orig, local := f.text(n), f.text(n)
			switch n.Kind() {
			case "aliased_import":
				orig, local = f.text(n.ChildByFieldName("name")), f.text(n.ChildByFieldName("alias"))
			case "dotted_name":
			default:
				continue
			}
			if local != name || strings.Contains(orig, ".") {
				continue
			}
			mod, ok := f.absolute(f.text(modNode))
			if !ok {
				return nil, "", false
			}
			other := f.modules(mod)
			if other == nil || other == f || !other.HasDef(orig) {
				return nil, "", false
			}
			return other, orig, true
		}
	}
	return nil, "", false
}

// absolute is the import path of a module an import names from the file:
// as written, or a relative one (.bit, ..util) from the file's package.
func (f *File) absolute(mod string) (string, bool) {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	if dots == 0 {
		return mod, mod != ""
	}
	if f.importPath == "" {
		return "", false
	}
	pkg := strings.Split(f.importPath, ".")
	if path.Base(f.Path) != "__init__.py" {
		pkg = pkg[:len(pkg)-1]
	}
	if dots-1 > len(pkg) {
		return "", false
	}
	pkg = pkg[:len(pkg)-(dots-1)]
	if rest := mod[dots:]; rest != "" {
		pkg = append(pkg, rest)
	}
	if len(pkg) == 0 {
		return "", false
	}
	return strings.Join(pkg, "."), true
}
