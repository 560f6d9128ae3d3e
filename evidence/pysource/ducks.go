package pysource

import (
	"slices"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A parameter with no annotation still says what it is by how the
// function uses it: simplify_polyline(points, max_distance) reads
// point.latitude off each of its points, and the module's Location is the
// class whose objects have a latitude. Uses reads those attributes; Fits
// finds the module's classes that have them all.

// Uses are the attributes a function reads off one parameter (Own: p.x)
// and off the items it takes out of it (Items: for q in p: q.x, p[0].x,
// a, b = p[0], p[-1]; a.x).
type Uses struct {
	Own, Items []string
}

// ParamUses returns, by parameter of fn ("f" or "Class.m"), the attributes
// its body reads off it and off its items; parameters it reads none off
// are left out. A name the body binds again is not followed.
func (f *File) ParamUses(fn string) map[string]Uses {
	d, err := f.def(fn)
	if err != nil {
		return nil
	}
	params := map[string]bool{}
	if ps := d.fn.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			if name := paramName(f, ps.NamedChild(i)); name != "" {
				params[name] = true
			}
		}
	}
	body := d.fn.ChildByFieldName("body")
	if body == nil || len(params) == 0 {
		return nil
	}
	// itemOf names the parameter a local name holds an item of.
	itemOf := map[string]string{}
	// param is the parameter n names, "" when it names none.
	param := func(n *sitter.Node) string {
		if n != nil && n.Kind() == "identifier" && params[f.text(n)] {
			return f.text(n)
		}
		return ""
	}
	// item is the parameter n takes an item of (p[i], p[1:], enumerate(p)'s).
	item := func(n *sitter.Node) string {
		if n != nil && n.Kind() == "subscript" {
			return param(n.ChildByFieldName("value"))
		}
		return ""
	}
	// seq is the parameter n runs over the items of: p, a slice of it,
	// or p reversed, sorted or copied.
	var seq func(n *sitter.Node) string
	seq = func(n *sitter.Node) string {
		switch {
		case n == nil:
		case n.Kind() == "subscript":
			if sl := n.ChildByFieldName("subscript"); sl != nil && sl.Kind() == "slice" {
				return param(n.ChildByFieldName("value"))
			}
		case n.Kind() == "call":
			switch f.text(n.ChildByFieldName("function")) {
			case "reversed", "sorted", "list", "tuple", "iter":
				if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 {
					return seq(args.NamedChild(0))
				}
			}
		}
		return param(n)
	}
	bindItem := func(target *sitter.Node, of string) {
		if target != nil && target.Kind() == "identifier" && of != "" && !params[f.text(target)] {
			itemOf[f.text(target)] = of
		}
	}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch n.Kind() {
		case "function_definition", "class_definition", "lambda":
			return
		case "for_statement", "for_in_clause":
			left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			if p := seq(right); p != "" {
				bindItem(left, p)
			} else if right != nil && right.Kind() == "call" && f.text(right.ChildByFieldName("function")) == "enumerate" {
				// for i, q in enumerate(p)
				if args := right.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 && left != nil && left.NamedChildCount() == 2 {
					bindItem(left.NamedChild(1), seq(args.NamedChild(0)))
				}
			}
		case "assignment":
			left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			switch {
			case left == nil || right == nil:
			case left.Kind() == "identifier":
				bindItem(left, item(right))
			case (left.Kind() == "pattern_list" || left.Kind() == "tuple_pattern") && (right.Kind() == "expression_list" || right.Kind() == "tuple") && left.NamedChildCount() == right.NamedChildCount():
				for i := uint(0); i < left.NamedChildCount(); i++ {
					bindItem(left.NamedChild(i), item(right.NamedChild(i)))
				}
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(body)
	own, items := map[string]map[string]bool{}, map[string]map[string]bool{}
	add := func(into map[string]map[string]bool, p, attr string) {
		if into[p] == nil {
			into[p] = map[string]bool{}
		}
		into[p][attr] = true
	}
	var read func(n *sitter.Node)
	read = func(n *sitter.Node) {
		switch n.Kind() {
		case "function_definition", "class_definition":
			return
		case "attribute":
			obj, attr := n.ChildByFieldName("object"), f.text(n.ChildByFieldName("attribute"))
			switch {
			case param(obj) != "":
				add(own, param(obj), attr)
			case item(obj) != "":
				add(items, item(obj), attr)
			case obj != nil && obj.Kind() == "identifier" && itemOf[f.text(obj)] != "":
				add(items, itemOf[f.text(obj)], attr)
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			read(n.NamedChild(i))
		}
	}
	read(body)
	out := map[string]Uses{}
	for p := range params {
		u := Uses{Own: sortedKeys(own[p]), Items: sortedKeys(items[p])}
		if len(u.Own) > 0 || len(u.Items) > 0 {
			out[p] = u
		}
	}
	return out
}

// Fits returns the module's top-level classes whose objects have every
// one of attrs: a method, a class attribute, or a field one of its methods
// sets (self.x = ...), its own or a base's of the same module; in the
// module's order. None when attrs is empty.
func (f *File) Fits(attrs []string) []string {
	if f == nil || f.root == nil || len(attrs) == 0 {
		return nil
	}
	classes := map[string]*sitter.Node{}
	var order []string
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		c := f.root.NamedChild(i)
		if c.Kind() == "decorated_definition" {
			c = c.ChildByFieldName("definition")
		}
		if c != nil && c.Kind() == "class_definition" {
			name := f.text(c.ChildByFieldName("name"))
			classes[name] = c
			order = append(order, name)
		}
	}
	var out []string
	for _, name := range order {
		has := map[string]bool{}
		f.classAttrs(classes, name, has, 0)
		if !slices.ContainsFunc(attrs, func(a string) bool { return !has[a] }) {
			out = append(out, name)
		}
	}
	return out
}

// classAttrs adds to has the attributes the objects of the class name
// have, its bases' of the same module too.
func (f *File) classAttrs(classes map[string]*sitter.Node, name string, has map[string]bool, depth int) {
	c := classes[name]
	if c == nil || depth > 8 {
		return
	}
	if sup := c.ChildByFieldName("superclasses"); sup != nil {
		for i := uint(0); i < sup.NamedChildCount(); i++ {
			if b := sup.NamedChild(i); b.Kind() == "identifier" {
				f.classAttrs(classes, f.text(b), has, depth+1)
			}
		}
	}
	body := c.ChildByFieldName("body")
	if body == nil {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		st := body.NamedChild(i)
		if st.Kind() == "decorated_definition" {
			st = st.ChildByFieldName("definition")
		}
		switch {
		case st == nil:
		case st.Kind() == "function_definition":
			has[f.text(st.ChildByFieldName("name"))] = true
			selfFields(f, st.ChildByFieldName("body"), has)
		case st.Kind() == "expression_statement" && st.NamedChildCount() > 0 && st.NamedChild(0).Kind() == "assignment":
			if l := st.NamedChild(0).ChildByFieldName("left"); l != nil && l.Kind() == "identifier" {
				has[f.text(l)] = true
			}
			if l := st.NamedChild(0).ChildByFieldName("left"); l != nil && l.Kind() == "identifier" && f.text(l) == "__slots__" {
				// __slots__ = ('points', 'extensions'): the fields.
				for _, s := range stringsIn(f, st.NamedChild(0).ChildByFieldName("right")) {
					has[s] = true
				}
			}
		}
	}
}

// selfFields adds the fields a method's body sets on self.
func selfFields(f *File, n *sitter.Node, has map[string]bool) {
	if n == nil {
		return
	}
	switch n.Kind() {
	case "function_definition", "class_definition", "lambda":
		return
	case "assignment", "augmented_assignment":
		var targets func(t *sitter.Node)
		targets = func(t *sitter.Node) {
			switch t.Kind() {
			case "attribute":
				if o := t.ChildByFieldName("object"); o != nil && o.Kind() == "identifier" && f.text(o) == "self" {
					has[f.text(t.ChildByFieldName("attribute"))] = true
				}
			case "pattern_list", "tuple_pattern":
				for i := uint(0); i < t.NamedChildCount(); i++ {
					targets(t.NamedChild(i))
				}
			}
		}
		if l := n.ChildByFieldName("left"); l != nil {
			targets(l)
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		selfFields(f, n.NamedChild(i), has)
	}
}

// stringsIn are the string literals of a tuple or list of them.
func stringsIn(f *File, n *sitter.Node) []string {
	var out []string
	for i := uint(0); n != nil && i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "string" {
			if v, _, ok := f.stringValue(c); ok {
				out = append(out, v)
			}
		}
	}
	return out
}
