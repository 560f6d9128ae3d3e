package jssource

import sitter "github.com/tree-sitter/go-tree-sitter"

// maxNewCallNodes bounds the nodes NewCalls visits in one file.
const maxNewCallNodes = 200000

// NewCalls returns the arguments, as source, of the `new class(...)`
// expressions in files (the class by its name, or as a property:
// `new semver.SemVer(...)`) whose arguments are all literals: each
// distinct argument list once, in file order, at most limit. A test that
// builds its object apart from the call of the method under review still
// says how such an object is made.
func NewCalls(files []*File, class string, limit int) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, f := range files {
		if f == nil || f.root == nil {
			continue
		}
		walkKind(f.root, "new_expression", func(n *sitter.Node) bool {
			if len(out) >= limit {
				return false
			}
			if args, ok := f.newArgs(n, class); ok {
				key := ""
				for _, a := range args {
					key += a + "\x00"
				}
				if !seen[key] {
					seen[key] = true
					out = append(out, args)
				}
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
