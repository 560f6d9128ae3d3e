package pysource

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Test helpers (issue 24: inputs never tried). A test class often calls
// the function under test through a helper of its own that forwards its
// parameters (def assertMinified(self, js_input, expected): minified =
// jsmin.jsmin(js_input)), and every test calls the helper with the
// literals: self.assertMinified('var x = 1;', 'var x=1;'). Those literals
// are the function's inputs, read through the helper's forwarding.

// helper is a function of a test file that calls the function under test
// with its own parameters.
type helper struct {
	method bool  // a method: its calls pass self implicitly
	args   []int // per argument of the call of the function: the helper's parameter it forwards
}

// helpers finds the test file's helpers of the function under test, by
// name. Only a function (not a method) under test is read through them,
// and only a call of it whose every positional argument is one of the
// helper's parameters.
func (h *harvester) helpers(f *File) map[string]helper {
	if h.cls != "" || !bytes.Contains(f.src, []byte(h.name)) {
		return nil
	}
	out := map[string]helper{}
	var walk func(n *sitter.Node, ns *names, inClass bool, depth int)
	walk = func(n *sitter.Node, ns *names, inClass bool, depth int) {
		if depth > 6 || len(out) >= maxHelpers {
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "decorated_definition" {
				if c = c.ChildByFieldName("definition"); c == nil {
					continue
				}
			}
			switch c.Kind() {
			case "class_definition":
				if b := c.ChildByFieldName("body"); b != nil {
					walk(b, ns, true, depth+1)
				}
			case "function_definition":
				name := f.text(c.ChildByFieldName("name"))
				if name == h.name || !bytes.Contains(f.src[c.StartByte():c.EndByte()], []byte(h.name)) {
					continue
				}
				if hp, ok := h.forwarding(f, c, h.scope(f, c, ns), inClass); ok {
					out[name] = hp
				}
			}
		}
	}
	walk(f.root, f.moduleNames(), false, 0)
	return out
}

// maxHelpers bounds the helpers read in one file.
const maxHelpers = 8

// forwarding reads def as a helper: its parameters, and the first call of
// the function under test in its body whose positional arguments are all
// among them.
func (h *harvester) forwarding(f *File, def *sitter.Node, ns *names, inClass bool) (helper, bool) {
	var params []string
	if ps := def.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			p := ps.NamedChild(i)
			if p.Kind() == "list_splat_pattern" || p.Kind() == "dictionary_splat_pattern" {
				break // *args: the positions after it are not the caller's
			}
			params = append(params, paramName(f, p))
		}
	}
	if inClass && len(params) > 0 {
		params = params[1:] // self
	}
	var found helper
	ok := false
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if ok {
			return
		}
		if n.Kind() == "call" {
			fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
			if fn != nil && args != nil && args.Kind() == "argument_list" && h.callsFunc(f, fn, ns) {
				hp := helper{method: inClass}
				for i := uint(0); i < args.NamedChildCount(); i++ {
					a := args.NamedChild(i)
					if a.Kind() == "comment" {
						continue
					}
					if a.Kind() == "keyword_argument" {
						continue // options the helper sets: the function's own default is as good
					}
					k := -1
					for j, p := range params {
						if a.Kind() == "identifier" && f.text(a) == p {
							k = j
						}
					}
					if k < 0 {
						return
					}
					hp.args = append(hp.args, k)
				}
				if len(hp.args) > 0 {
					found, ok = hp, true
				}
				return
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	if b := def.ChildByFieldName("body"); b != nil {
		walk(b)
	}
	return found, ok
}

// helperCall reads a call of one of the file's helpers (self.h(...) in a
// method of its class, h(...) for a function) as an input of the function
// under test.
func (h *harvester) helperCall(f *File, n *sitter.Node, ns *names, rows []map[string]string, kind string, lines []int) {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.Kind() != "argument_list" {
		return
	}
	var name string
	method := false
	switch {
	case fn.Kind() == "identifier":
		name = f.text(fn)
	case fn.Kind() == "attribute" && f.text(fn.ChildByFieldName("object")) == "self":
		name, method = f.text(fn.ChildByFieldName("attribute")), true
	default:
		return
	}
	hp, ok := h.fileHelpers[name]
	if !ok || hp.method != method {
		return
	}
	for _, row := range rows {
		if h.full() {
			return
		}
		r := newResolver(ns, row)
		var got Input
		if !h.arguments(f, args, r, &got) {
			continue
		}
		in := Input{Args: []string{}, Kind: kind, Pos: pos(f, n, lines), Raises: expectsRaise(f, n)}
		complete := true
		for _, k := range hp.args {
			if k >= len(got.Args) {
				complete = false
				break
			}
			in.Args = append(in.Args, got.Args[k])
		}
		if !complete {
			continue
		}
		in.Imports = r.imports()
		if len(in.Imports) == 0 {
			in.Imports = nil
		}
		h.add(in)
	}
}

// namesHelper says src names one of the file's helpers.
func (h *harvester) namesHelper(src []byte) bool {
	for name := range h.fileHelpers {
		if bytes.Contains(src, []byte(name)) {
			return true
		}
	}
	return false
}
