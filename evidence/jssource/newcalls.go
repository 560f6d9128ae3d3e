package jssource

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// maxNewCallNodes bounds the nodes NewCalls visits in one file.
const maxNewCallNodes = 200000

// NewCalls returns the arguments, as source, of the `new class(...)`
// expressions in files (the class by its name, or as a property:
// `new semver.SemVer(...)`) whose arguments are all literals: each
// distinct argument list once, in file order, at most limit. A test that
// builds its object apart from the call of the method under review still
// says how such an object is made.
func NewCalls(files []*File, class string, limit int) [][]string {
	return distinctNews(files, limit, func(f *File, n *sitter.Node) ([]string, string, bool) {
		args, ok := f.newArgs(n, class)
		return args, strings.Join(args, "\x00"), ok
	})
}

// distinctNews walks the new expressions of files in order and keeps what
// read makes of each, once a key, at most limit.
func distinctNews[T any](files []*File, limit int, read func(f *File, n *sitter.Node) (T, string, bool)) []T {
	var out []T
	seen := map[string]bool{}
	for _, f := range files {
		if f == nil || f.root == nil {
			continue
		}
		walkKind(f.root, "new_expression", func(n *sitter.Node) bool {
			if len(out) >= limit {
				return false
			}
			if v, key, ok := read(f, n); ok && !seen[key] {
				seen[key] = true
				out = append(out, v)
			}
			return len(out) < limit
		})
	}
	return out
}

// walkKind calls fn with each node of kind under root, in source order,
// until fn says stop or maxNewCallNodes nodes were visited.
func walkKind(root *sitter.Node, kind string, fn func(*sitter.Node) bool) {
	stack := []*sitter.Node{root}
	for visited := 0; len(stack) > 0 && visited < maxNewCallNodes; visited++ {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == kind && !fn(n) {
			return
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, n.NamedChild(uint(i)))
		}
	}
}

// newArgs are a new expression's literal arguments when it constructs
// class.
func (f *File) newArgs(n *sitter.Node, class string) ([]string, bool) {
	ctor := n.ChildByFieldName("constructor")
	switch {
	case ctor == nil:
		return nil, false
	case ctor.Kind() == "identifier" && f.text(ctor) == class:
	case ctor.Kind() == "member_expression" && f.text(ctor.ChildByFieldName("property")) == class:
	default:
		return nil, false
	}
	args := []string{}
	if list := n.ChildByFieldName("arguments"); list != nil {
		for i := uint(0); i < list.NamedChildCount(); i++ {
			a := list.NamedChild(i)
			if a.Kind() == "comment" {
				continue
			}
			s, ok := f.literal(a, nil)
			if !ok {
				return nil, false
			}
			args = append(args, s)
		}
	}
	return args, true
}

// FactoryCall is a call of one of a class's static methods with literal
// arguments: Interval.fromISO("2020-01-01/2020-01-03").
type FactoryCall struct {
	Method string
	Args   []string
}

// FactoryCalls returns the calls in files of class.m(...) for each m in
// statics (the class's static methods, by the class's name or as a
// property: luxon.Interval.fromISO(...)) whose arguments are all
// literals: each distinct call once, in file order, at most limit. A class
// whose tests build it only through factories (luxon's Interval.fromISO,
// DateTime.fromObject; never new Interval(...)) is made the same way.
func FactoryCalls(files []*File, class string, statics []string, limit int) []FactoryCall {
	want := map[string]bool{}
	for _, s := range statics {
		want[s] = true
	}
	var out []FactoryCall
	seen := map[string]bool{}
	for _, f := range files {
		if f == nil || f.root == nil || len(want) == 0 {
			continue
		}
		walkKind(f.root, "call_expression", func(n *sitter.Node) bool {
			if len(out) >= limit {
				return false
			}
			if c, ok := f.factoryCall(n, class, want); ok {
				key := c.Method + "\x00"
				for _, a := range c.Args {
					key += a + "\x00"
				}
				if !seen[key] {
					seen[key] = true
					out = append(out, c)
				}
			}
			return len(out) < limit
		})
	}
	return out
}

func (f *File) factoryCall(n *sitter.Node, class string, statics map[string]bool) (FactoryCall, bool) {
	callee := n.ChildByFieldName("function")
	if callee == nil || callee.Kind() != "member_expression" {
		return FactoryCall{}, false
	}
	obj, prop := callee.ChildByFieldName("object"), f.text(callee.ChildByFieldName("property"))
	switch {
	case !statics[prop] || obj == nil:
		return FactoryCall{}, false
	case obj.Kind() == "identifier" && f.text(obj) == class:
	case obj.Kind() == "member_expression" && f.text(obj.ChildByFieldName("property")) == class:
	default:
		return FactoryCall{}, false
	}
	c := FactoryCall{Method: prop, Args: []string{}}
	if list := n.ChildByFieldName("arguments"); list != nil {
		for i := uint(0); i < list.NamedChildCount(); i++ {
			a := list.NamedChild(i)
			if a.Kind() == "comment" {
				continue
			}
			s, ok := f.literal(a, nil)
			if !ok {
				return FactoryCall{}, false
			}
			c.Args = append(c.Args, s)
		}
	}
	return c, true
}

// Forwarded is a construction of a class inside another class's
// constructor, whose arguments are that constructor's parameters or
// literals: Cron's constructor builds new CronPattern(pattern,
// this.options.timezone). The tests build the outer class from literals
// (new Cron("* * * * *")); the inner one is built from those literals
// where its arguments forward them.
type Forwarded struct {
	// Outer is the class whose constructor holds the construction.
	Outer string
	// Args are, per argument, the index of the outer constructor's
	// parameter it forwards (>= 0), or -1 with Literal its literal
	// source, or -1 and "" for anything else.
	Args    []int
	Literal []string
}

// ForwardedNews returns the constructions of class inside other classes'
// constructors in files that forward a parameter or pass a literal, each
// distinct one once, at most limit.
func ForwardedNews(files []*File, class string, limit int) []Forwarded {
	return distinctNews(files, limit, func(f *File, n *sitter.Node) (Forwarded, string, bool) {
		fw, ok := f.forwarded(n, class)
		return fw, fw.Outer + fmt.Sprint(fw.Args, fw.Literal), ok
	})
}

func (f *File) forwarded(n *sitter.Node, class string) (Forwarded, bool) {
	ctor := n.ChildByFieldName("constructor")
	if ctor == nil || !(ctor.Kind() == "identifier" && f.text(ctor) == class ||
		ctor.Kind() == "member_expression" && f.text(ctor.ChildByFieldName("property")) == class) {
		return Forwarded{}, false
	}
	// The enclosing method must be a class's constructor.
	m := n.Parent()
	for m != nil && m.Kind() != "method_definition" {
		switch m.Kind() {
		case "function_declaration", "function_expression", "arrow_function", "class_declaration", "class":
			return Forwarded{}, false
		}
		m = m.Parent()
	}
	if m == nil || f.text(m.ChildByFieldName("name")) != "constructor" {
		return Forwarded{}, false
	}
	cls := m.Parent()
	for cls != nil && cls.Kind() != "class_declaration" && cls.Kind() != "class" {
		cls = cls.Parent()
	}
	if cls == nil || cls.ChildByFieldName("name") == nil {
		return Forwarded{}, false
	}
	var params []string
	if ps := m.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			p := ps.NamedChild(i)
			if p.Kind() == "comment" {
				continue
			}
			name := p
			if pat := p.ChildByFieldName("pattern"); pat != nil {
				name = pat // TypeScript's required_parameter, optional_parameter
			}
			if name.Kind() == "assignment_pattern" {
				name = name.ChildByFieldName("left")
			}
			params = append(params, f.text(name))
		}
	}
	fw := Forwarded{Outer: f.text(cls.ChildByFieldName("name"))}
	if fw.Outer == class {
		return Forwarded{}, false
	}
	if list := n.ChildByFieldName("arguments"); list != nil {
		for i := uint(0); i < list.NamedChildCount(); i++ {
			a := list.NamedChild(i)
			if a.Kind() == "comment" {
				continue
			}
			idx, lit := -1, ""
			for a.Kind() == "as_expression" || a.Kind() == "parenthesized_expression" || a.Kind() == "non_null_expression" || a.Kind() == "satisfies_expression" {
				if a.NamedChildCount() == 0 {
					break
				}
				a = a.NamedChild(0) // pattern as string: the name
			}
			if a.Kind() == "identifier" {
				for k, p := range params {
					if p == f.text(a) {
						idx = k
					}
				}
			}
			if idx < 0 {
				if s, ok := f.literal(a, nil); ok {
					lit = s
				}
			}
			fw.Args = append(fw.Args, idx)
			fw.Literal = append(fw.Literal, lit)
		}
	}
	// One that forwards nothing still says how the class is built when
	// one of its arguments is a literal (new CronPattern("* * * * *",
	// undefined, {...})).
	for i, k := range fw.Args {
		if k >= 0 || fw.Literal[i] != "" && fw.Literal[i] != "undefined" {
			return fw, true
		}
	}
	return fw, false
}
