package propose

import (
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/premise-dev/premise/diffparse"
)

// JSFunc is a JavaScript or TypeScript function's syntax tree
// (tree-sitter), for the JavaScript rules, which read TypeScript too. The
// trees are valid only while the rules run.
type JSFunc struct {
	Node *sitter.Node // the function, arrow function or method
	Src  []byte
	// BaseRoot and BaseSrc are the merge-base file's tree and bytes, nil
	// for a file the patch added.
	BaseRoot *sitter.Node
	BaseSrc  []byte
	// RemovedLines are the base lines the patch deleted inside the
	// symbol (Pass.Removed's line numbers).
	RemovedLines map[int]bool

	nodes []*sitter.Node // the body in preorder, built by the first Walk
	after []int
}

// Text returns the head source text of n.
func (f *JSFunc) Text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(f.Src[n.StartByte():n.EndByte()])
}

// BaseText returns the base source text of n.
func (f *JSFunc) BaseText(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(f.BaseSrc[n.StartByte():n.EndByte()])
}

// Walk calls fn on every node of the function, depth first; fn returns
// false to skip a node's children.
func (f *JSFunc) Walk(fn func(n *sitter.Node) bool) {
	if f.nodes == nil {
		f.flatten(f.Node)
	}
	for i := 0; i < len(f.nodes); {
		if fn(f.nodes[i]) {
			i++
		} else {
			i = f.after[i]
		}
	}
}

func (f *JSFunc) flatten(n *sitter.Node) {
	i := len(f.nodes)
	f.nodes = append(f.nodes, n)
	f.after = append(f.after, 0)
	for c := uint(0); c < n.NamedChildCount(); c++ {
		if ch := n.NamedChild(c); ch != nil {
			f.flatten(ch)
		}
	}
	f.after[i] = len(f.nodes)
}

// Removed calls fn on every base node that starts on a line the patch
// deleted inside the symbol.
func (f *JSFunc) Removed(fn func(n *sitter.Node)) {
	if f.BaseRoot == nil || len(f.RemovedLines) == 0 {
		return
	}
	pyWalk(f.BaseRoot, func(n *sitter.Node) bool {
		first, last := LineOf(n), endLineOf(n)
		if last < first {
			last = first
		}
		in := false
		for l := range f.RemovedLines {
			if l >= first && l <= last {
				in = true
				break
			}
		}
		if in && f.RemovedLines[first] {
			fn(n)
		}
		return in
	})
}

var (
	jsRuleLangOnce [3]sync.Once
	jsRuleLangs    [3]*sitter.Language
)

// jsGrammars are the grammars a file is read with, in order: its
// extension's, then TSX (JSX in TypeScript, Flow in JavaScript).
func jsGrammars(path string) []int {
	switch {
	case strings.HasSuffix(path, ".tsx"):
		return []int{2}
	case strings.HasSuffix(path, ".ts") || strings.HasSuffix(path, ".mts") || strings.HasSuffix(path, ".cts"):
		return []int{1, 2}
	}
	return []int{0, 2}
}

func jsRuleLanguage(g int) *sitter.Language {
	jsRuleLangOnce[g].Do(func() {
		switch g {
		case 0:
			jsRuleLangs[g] = sitter.NewLanguage(javascript.Language())
		case 1:
			jsRuleLangs[g] = sitter.NewLanguage(typescript.LanguageTypescript())
		default:
			jsRuleLangs[g] = sitter.NewLanguage(typescript.LanguageTSX())
		}
	})
	return jsRuleLangs[g]
}

// jsParse parses src with the first grammar of path's that reads it
// without an error (else the first's tree, which still serves).
func jsParse(path string, src []byte) *sitter.Tree {
	var first *sitter.Tree
	for _, g := range jsGrammars(path) {
		p := sitter.NewParser()
		if err := p.SetLanguage(jsRuleLanguage(g)); err != nil {
			p.Close()
			continue
		}
		t := diffparse.BoundedParse(p, src)
		p.Close()
		if t == nil {
			continue
		}
		if !t.RootNode().HasError() {
			if first != nil {
				first.Close()
			}
			return t
		}
		if first == nil {
			first = t
		} else {
			t.Close()
		}
	}
	return first
}

// jsFuncKinds are the nodes that are functions.
var jsFuncKinds = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true, "function_expression": true,
	"function": true, "generator_function": true, "arrow_function": true, "method_definition": true,
}

// jsBoundName is the name a function is known by, as diffparse names it:
// its own, its declarator's, its key's, its field's, or "default".
func jsBoundName(src []byte, n *sitter.Node) string {
	text := func(m *sitter.Node) string {
		if m == nil {
			return ""
		}
		return strings.Trim(string(src[m.StartByte():m.EndByte()]), `"'`)
	}
	switch n.Kind() {
	case "function_declaration", "generator_function_declaration", "method_definition":
		return text(n.ChildByFieldName("name"))
	}
	p := n.Parent()
	for p != nil && (p.Kind() == "parenthesized_expression" || p.Kind() == "as_expression" || p.Kind() == "satisfies_expression") {
		p = p.Parent()
	}
	if p == nil {
		return ""
	}
	switch p.Kind() {
	case "variable_declarator":
		return text(p.ChildByFieldName("name"))
	case "pair":
		return text(p.ChildByFieldName("key"))
	case "field_definition":
		return text(p.ChildByFieldName("property"))
	case "public_field_definition":
		return text(p.ChildByFieldName("name"))
	case "assignment_expression":
		if l := p.ChildByFieldName("left"); l != nil && l.Kind() == "member_expression" {
			return text(l.ChildByFieldName("property"))
		}
	case "export_statement":
		return "default"
	}
	return ""
}

// jsPasses parses a JavaScript or TypeScript file's two sides and makes a
// pass per changed function. The caller runs the rules and then calls
// done to free the trees.
func jsPasses(f *diffparse.File) (passes []*Pass, done func()) {
	tree := jsParse(f.Path, f.HeadSrc)
	if tree == nil {
		return nil, func() {}
	}
	var base *sitter.Tree
	if f.BaseSrc != nil {
		base = jsParse(f.OldPath, f.BaseSrc)
	}
	done = func() {
		tree.Close()
		if base != nil {
			base.Close()
		}
	}
	lines := splitLines(f.HeadSrc)
	for _, sym := range changedFuncs(f) {
		var found *sitter.Node
		pyWalk(tree.RootNode(), func(n *sitter.Node) bool {
			if found != nil || LineOf(n) > sym.End || endLineOf(n) < sym.Start {
				return false
			}
			if jsFuncKinds[n.Kind()] && LineOf(n) >= sym.Start && endLineOf(n) <= sym.End && jsBoundName(f.HeadSrc, n) == lastPart(sym.Local) {
				found = n
				return false
			}
			return true
		})
		if found == nil {
			continue
		}
		p := newPass(f, sym, lines)
		js := &JSFunc{Node: found, Src: f.HeadSrc, BaseSrc: f.BaseSrc, RemovedLines: removedLines(f, sym)}
		if base != nil {
			js.BaseRoot = base.RootNode()
		}
		p.JS = js
		var skip [][2]int
		pyWalk(found, func(n *sitter.Node) bool {
			switch n.Kind() {
			case "comment", "string", "template_string", "regex":
				skip = append(skip, [2]int{int(n.StartByte()), int(n.EndByte())})
				return false
			}
			return true
		})
		p.blank(f.HeadSrc, int(found.StartByte()), int(found.EndByte()), skip)
		p.Params = jsParamNames(f.HeadSrc, found)
		passes = append(passes, p)
	}
	return passes, done
}

// removedLines are the base lines of sym's deleted lines, as newPass
// attributes deletions to a symbol.
func removedLines(f *diffparse.File, sym diffparse.Symbol) map[int]bool {
	out := map[int]bool{}
	for _, h := range f.Hunks {
		next := h.NewStart
		for _, l := range h.Lines {
			switch l.Kind {
			case '+', ' ':
				next = l.New + 1
			case '-':
				if next >= sym.Start && next <= sym.End+1 {
					out[l.Old] = true
				}
			}
		}
	}
	return out
}

// jsParamNames are a function's parameters that are plain names.
func jsParamNames(src []byte, fn *sitter.Node) []string {
	text := func(n *sitter.Node) string { return string(src[n.StartByte():n.EndByte()]) }
	if one := fn.ChildByFieldName("parameter"); one != nil {
		return []string{text(one)}
	}
	var out []string
	ps := fn.ChildByFieldName("parameters")
	for i := uint(0); ps != nil && i < ps.NamedChildCount(); i++ {
		c := ps.NamedChild(i)
		switch c.Kind() {
		case "required_parameter", "optional_parameter":
			c = c.ChildByFieldName("pattern")
		case "assignment_pattern":
			c = c.ChildByFieldName("left")
		case "rest_pattern":
			if c.NamedChildCount() > 0 {
				c = c.NamedChild(0)
			}
		}
		if c != nil && c.Kind() == "rest_pattern" && c.NamedChildCount() > 0 {
			c = c.NamedChild(0)
		}
		if c != nil && c.Kind() == "identifier" {
			out = append(out, text(c))
		}
	}
	return out
}

// ruleLanguage is the language whose rules read a file: TypeScript is
// read by JavaScript's rules, its syntax a superset.
func ruleLanguage(lang string) string {
	if lang == diffparse.LangTypeScript {
		return diffparse.LangJavaScript
	}
	return lang
}
