package pysource

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A Key is a key a function reads of a name it uses as a mapping:
// m[K], m.get(K), m.pop(K), m.setdefault(K), K in m. A function handed
// a settings dict or an element's attributes branches on what each key
// holds, and a dict of no such key never reaches those branches.
type Key struct {
	// Name is the mapping's name as the body writes it (a parameter's).
	Name string
	// Key is the key's text literal as written ('width'); a module-level
	// name (m[ATTR_WIDTH]) is replaced by its literal.
	Key string
	// Compared are the literals the value read is compared with
	// (m[K] == 'none', m.get(K) != 0), as written, each once.
	Compared []string
}

// maxKeys bounds the keys read of one name.
const maxKeys = 8

// ReadKeys returns the keys fn's body reads of each name it uses as a
// mapping, in order of first reading, each name's at most maxKeys. A key
// that is not a text literal (m[0], m[i], m[self.key]) is left out: a
// number reads a sequence as often as a mapping. The error is
// ErrNoFunction, wrapped, when module does not define fn.
func ReadKeys(module *File, fn string) ([]Key, error) {
	d, err := module.def(fn)
	if err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	r := &keyReader{c: &constants{f: module, seen: map[string]bool{}, names: module.moduleNames()}, at: map[[2]string]int{}}
	if body := d.fn.ChildByFieldName("body"); body != nil {
		r.walk(body)
	}
	return r.out, nil
}

type keyReader struct {
	c   *constants
	out []Key
	at  map[[2]string]int // (name, key) -> its index in out
}

func (r *keyReader) walk(n *sitter.Node) {
	f := r.c.f
	switch n.Kind() {
	case "subscript":
		if v := n.ChildByFieldName("value"); v != nil && v.Kind() == "identifier" {
			r.read(f.text(v), n.ChildByFieldName("subscript"), n)
		}
	case "call":
		fun := n.ChildByFieldName("function")
		if fun != nil && fun.Kind() == "attribute" {
			obj, attr := fun.ChildByFieldName("object"), f.text(fun.ChildByFieldName("attribute"))
			args := n.ChildByFieldName("arguments")
			if obj != nil && obj.Kind() == "identifier" && args != nil && args.NamedChildCount() > 0 &&
				(attr == "get" || attr == "pop" || attr == "setdefault") {
				r.read(f.text(obj), args.NamedChild(0), n)
			}
		}
	case "comparison_operator":
		// K in m, K not in m
		if n.NamedChildCount() == 2 {
			op := ""
			for i := uint(0); i < n.ChildCount(); i++ {
				if ch := n.Child(i); !ch.IsNamed() {
					op += strings.ReplaceAll(f.text(ch), " ", "")
				}
			}
			if m := n.NamedChild(1); (op == "in" || op == "notin") && m.Kind() == "identifier" {
				r.read(f.text(m), n.NamedChild(0), nil)
			}
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		r.walk(n.NamedChild(i))
	}
}

// read records key k of name, and what the value read, at, is compared
// with when its parent compares it.
func (r *keyReader) read(name string, k, at *sitter.Node) {
	if k == nil {
		return
	}
	lit, ok := r.c.literal(k)
	if !ok || lit.Kind != "str" {
		return
	}
	id := [2]string{name, lit.Value}
	i, seen := r.at[id]
	if !seen {
		n := 0
		for _, o := range r.out {
			if o.Name == name {
				n++
			}
		}
		if n >= maxKeys {
			return
		}
		i = len(r.out)
		r.at[id] = i
		r.out = append(r.out, Key{Name: name, Key: lit.Value})
	}
	if at == nil {
		return
	}
	p := at.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		at, p = p, p.Parent()
	}
	if p == nil || p.Kind() != "comparison_operator" || p.NamedChildCount() != 2 {
		return
	}
	other := p.NamedChild(0)
	if other.StartByte() == at.StartByte() {
		other = p.NamedChild(1)
	}
	if v, ok := r.c.literal(other); ok {
		for _, c := range r.out[i].Compared {
			if c == v.Value {
				return
			}
		}
		r.out[i].Compared = append(r.out[i].Compared, v.Value)
	}
}
