package jssource

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// maxInnerNames bounds the names InnerNames returns.
const maxInnerNames = 16

// InnerNames are the names of the functions declared inside the span
// [start, end] (1-based lines) that hold one of lines: a factory's inner
// function (formatLocale's formatPrefix), a named function value or a
// method of an object it builds. The tests call those by name, through
// what the factory returns, not the factory's.
func InnerNames(f *File, start, end int, lines []int) []string {
	if f == nil || f.root == nil {
		return nil
	}
	holds := func(n *sitter.Node) bool {
		a, b := int(n.StartPosition().Row)+1, int(n.EndPosition().Row)+1
		if a < start || b > end || a == start && b == end {
			return false
		}
		for _, l := range lines {
			if l >= a && l <= b {
				return true
			}
		}
		return false
	}
	var out []string
	seen := map[string]bool{}
	add := func(name *sitter.Node) {
		if name == nil || len(out) >= maxInnerNames {
			return
		}
		if s := f.text(name); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	f.eachNode(func(n *sitter.Node) {
		switch n.Kind() {
		case "function_declaration", "generator_function_declaration", "function_expression", "method_definition":
			if holds(n) {
				add(n.ChildByFieldName("name"))
			}
		case "variable_declarator", "pair":
			v := n.ChildByFieldName("value")
			if v != nil && (v.Kind() == "arrow_function" || v.Kind() == "function_expression" || v.Kind() == "function") && holds(v) {
				k := n.ChildByFieldName("name")
				if k == nil {
					k = n.ChildByFieldName("key")
				}
				add(k)
			}
		}
	})
	return out
}
