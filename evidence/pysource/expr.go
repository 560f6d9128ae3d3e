package pysource

import sitter "github.com/tree-sitter/go-tree-sitter"

// ExprType reads an argument expression premise wrote itself of the
// builtin containers (iter([1, 2]), tuple([1]), set([1]), (1, 2)) and
// returns the kind of its value and its Python type's name, as the
// interpreter names it in a TypeError ("" when the name depends on the
// interpreter's version, an iterator over a str). Any other expression
// (a call of the code's own, a datetime, a lambda) gives "", "": its
// value's type is not known without running it.
func ExprType(src string) (kind, typeName string) {
	f, err := Parse("<expr>", []byte(src))
	if err != nil {
		return "", ""
	}
	defer f.Close()
	if f.err != nil || f.root.NamedChildCount() != 1 {
		return "", ""
	}
	st := f.root.NamedChild(0)
	if st.Kind() != "expression_statement" || st.NamedChildCount() != 1 {
		return "", ""
	}
	e := st.NamedChild(0)
	switch e.Kind() {
	case "tuple":
		return KindTuple, "tuple"
	case "list":
		return KindList, "list"
	case "call":
	default:
		return "", ""
	}
	args := e.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "argument_list" || args.NamedChildCount() != 1 {
		return "", ""
	}
	arg := args.NamedChild(0)
	of := containerLiteral(f, arg)
	if of == "" {
		return "", ""
	}
	switch f.text(e.ChildByFieldName("function")) {
	case "iter":
		if of == "str" {
			return KindIterator, ""
		}
		return KindIterator, of + "_iterator"
	case "tuple":
		return KindTuple, "tuple"
	case "list":
		return KindList, "list"
	case "set":
		return KindSet, "set"
	case "frozenset":
		return KindSet, "frozenset"
	}
	return "", ""
}

// containerLiteral names the builtin type of a literal list, tuple, set,
// str or bytes; "" for anything else.
func containerLiteral(f *File, n *sitter.Node) string {
	switch n.Kind() {
	case "list", "tuple", "set":
		return n.Kind()
	case "string":
		if literalKind(f.text(n)).Kind == KindBytes {
			return "bytes"
		}
		return "str"
	}
	return ""
}
