package jssource

import sitter "github.com/tree-sitter/go-tree-sitter"

// Statement is the lines of one statement V8's block coverage can see run
// (issue 27, changed-line coverage): a simple statement's lines, or a
// compound statement's header (`if (x > 3) {`, `for (const k of keys)`,
// `case "a":`, `catch (err) {`), from its first line to the line its
// condition, value or parameter ends on. Def marks a function's header,
// from its first line to its body's brace: a caller of Statements counts
// it run when the function's body ran, as the Python and Go readers do.
type Statement struct {
	First, Last int // 1-based, inclusive
	Def         bool
}

// simpleStatements are the statements whose every line is code. A class
// field's initializer runs when an instance is built.
var simpleStatements = map[string]bool{
	"expression_statement": true, "lexical_declaration": true, "variable_declaration": true,
	"return_statement": true, "throw_statement": true, "break_statement": true,
	"continue_statement": true, "debugger_statement": true,
	"field_definition": true, "public_field_definition": true,
}

// headerBefore are the compound statements and clauses whose header is
// code, each with the field its header ends before: an if's header is
// its test, a loop's all it has before its body. else, try and finally
// hold no code of their own, and are not statements here; nor is a class
// (its methods are).
var headerBefore = map[string]string{
	"if_statement": "consequence", "while_statement": "body", "for_statement": "body",
	"for_in_statement": "body", "with_statement": "body", "switch_statement": "body",
	"catch_clause": "body",
}

// functionKinds are the functions whose header Statements marks Def.
var functionKinds = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true, "function_expression": true,
	"function": true, "generator_function": true, "arrow_function": true, "method_definition": true,
}

// Statements are the file's statements as V8's coverage sees them run, in
// source order (a nested statement after the one holding it, a do-while's
// test before its body). A string on
// its own ("use strict") is a directive, and left out; so are TypeScript's
// declarations that compile to nothing (interfaces, type aliases,
// overload signatures), which are none of the kinds above.
func (f *File) Statements() []Statement {
	var out []Statement
	if f.root == nil {
		return out
	}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 500 {
			return // diffparse.BoundedParse bounds the tree; this bounds the stack
		}
		kind := n.Kind()
		switch {
		case simpleStatements[kind]:
			if !(kind == "expression_statement" && n.NamedChildCount() == 1 && n.NamedChild(0).Kind() == "string") {
				out = append(out, Statement{First: line(n), Last: endLine(n)})
			}
		case kind == "do_statement":
			// do { ... } while (cond): the test is the code the loop's
			// header holds.
			if c := n.ChildByFieldName("condition"); c != nil {
				out = append(out, Statement{First: line(c), Last: endLine(c)})
			}
		case kind == "switch_case":
			if v := n.ChildByFieldName("value"); v != nil {
				out = append(out, Statement{First: line(n), Last: endLine(v)})
			}
		case kind == "switch_default":
			out = append(out, Statement{First: line(n), Last: line(n)})
		case headerBefore[kind] != "":
			if last := lastBefore(n, headerBefore[kind]); last != nil {
				out = append(out, Statement{First: line(n), Last: endLine(last)})
			}
		case functionKinds[kind]:
			// An arrow function whose body is an expression has no
			// header apart from the statement holding it.
			if body := n.ChildByFieldName("body"); body != nil && body.Kind() == "statement_block" {
				out = append(out, Statement{First: line(n), Last: line(body), Def: true})
			}
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i), depth+1)
		}
	}
	walk(f.root, 0)
	return out
}

// lastBefore is n's last child before its field named field: the end of
// a compound statement's header.
func lastBefore(n *sitter.Node, field string) *sitter.Node {
	body := n.ChildByFieldName(field)
	if body == nil {
		return nil
	}
	var last *sitter.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.StartByte() >= body.StartByte() {
			break
		}
		last = c
	}
	return last
}

func endLine(n *sitter.Node) int {
	end := n.EndPosition()
	if end.Column == 0 && end.Row > n.StartPosition().Row {
		return int(end.Row) // a node ending with its line's newline ends on the line before
	}
	return int(end.Row) + 1
}
