package pysource

import sitter "github.com/tree-sitter/go-tree-sitter"

// Statement is the lines of one statement a line tracer can see run: a
// simple statement's lines, or a compound statement's header (`if x > 3:`,
// `for k in keys:`, `except KeyError:`), from its first line to the colon
// that ends it. Def marks a def's header, which runs when the module is
// imported, not when the function is called: a caller of Statements counts
// it run when the function's body ran.
type Statement struct {
	First, Last int // 1-based, inclusive
	Def         bool
}

// simpleStatements are the statements whose every line is code.
var simpleStatements = map[string]bool{
	"expression_statement": true, "return_statement": true, "pass_statement": true,
	"break_statement": true, "continue_statement": true, "raise_statement": true,
	"assert_statement": true, "delete_statement": true, "global_statement": true,
	"nonlocal_statement": true, "import_statement": true, "import_from_statement": true,
	"future_import_statement": true, "print_statement": true, "exec_statement": true,
	"type_alias_statement": true,
}

// headed are the compound statements and clauses whose header is code;
// else:, try: and finally: compile to nothing a tracer reports, so they
// are not statements here.
var headed = map[string]bool{
	"if_statement": true, "elif_clause": true, "while_statement": true, "for_statement": true,
	"with_statement": true, "except_clause": true, "except_group_clause": true,
	"match_statement": true, "case_clause": true, "function_definition": true,
	"class_definition": true,
}

// Statements are the file's statements as a line tracer sees them, in
// source order (a nested statement after the one holding it). A literal on
// its own (a docstring) compiles to nothing, and is left out.
func (f *File) Statements() []Statement {
	var out []Statement
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		kind := n.Kind()
		switch {
		case simpleStatements[kind]:
			if kind == "expression_statement" && n.NamedChildCount() == 1 && isConstant(n.NamedChild(0)) {
				return
			}
			out = append(out, Statement{First: line(n), Last: int(n.EndPosition().Row) + 1})
		case headed[kind]:
			if colon := headerColon(n); colon != nil {
				out = append(out, Statement{First: line(n), Last: line(colon), Def: kind == "function_definition"})
			}
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i))
		}
	}
	walk(f.root)
	return out
}

// headerColon is the colon ending a compound statement's header: its
// first ":" child (an if's, a def's; a lambda's or a slice's colon is
// inside a child node, never one of its own).
func headerColon(n *sitter.Node) *sitter.Node {
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); c.Kind() == ":" {
			return c
		}
	}
	return nil
}

// isConstant says a node is a literal a statement of its own compiles
// away: a string, a number, an ellipsis.
func isConstant(n *sitter.Node) bool {
	switch n.Kind() {
	case "string", "concatenated_string", "integer", "float", "ellipsis", "true", "false", "none":
		return true
	}
	return false
}
