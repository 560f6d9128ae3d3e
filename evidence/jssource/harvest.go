package jssource

import (
	"maps"
	"path"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Input is one call of the function found in the repository's tests, as
// JavaScript source.
type Input struct {
	// Args are the arguments, each a literal as JavaScript writes it.
	Args []string
	// Receiver is what a method is called on: a constructor call with
	// literal arguments (new Interval(1, 2)), a call of what the module
	// exports, by the export's name (default(3), parse("1.2")), or the
	// class or object itself for a static method or an object literal's
	// method (Interval, api). It is "" for a function.
	Receiver string
	// Built is the receiver's making when an export builds it
	// (Receiver default(3), string().datetime({ offset: true })); nil
	// otherwise.
	Built *Built
	// Kind says where the input was found: KindTest or KindTable.
	Kind string
	// Pos is the file and line of the call, or of the table's row.
	Pos string
	// Then are the arguments of calls the test makes of what this call
	// returned, f(a)(b): each b, its literals as written.
	Then [][]string
	// Calls are the methods the test calls on what this call returned,
	// with literal arguments: f(a).parse("1"), or parser.parse("1") after
	// var parser = f(a) in the same block.
	Calls []Step
}

// Kinds of Input.
const (
	// KindTest is a call in a test with literal arguments:
	// expect(f(1, "a")).toBe(...), assert.strictEqual(f(...), ...).
	KindTest = "test"
	// KindTable is a call fed by a row of a table: Jest's and Vitest's
	// test.each, it.each and describe.each (array or tagged template),
	// or a forEach over a literal array around the tests.
	KindTable = "table"
)

// maxRows bounds the rows one table expands to.
const maxRows = 256

// maxWalk bounds the nodes one test file's walk visits, rows included.
const maxWalk = 200000

// Harvest returns the calls of fn (a local name as premise diff names it,
// mergeRanges or Interval.merge, or a qualified one whose longest suffix
// module defines) that the test files make with literal arguments, file by
// file, each once; at most limit (all when limit is not positive). The
// function is called by its name or an alias its import gives it (import
// {f as g}, const {f: g} = require(...)), through a namespace (import * as
// m, const m = require(...)), or, for a default export, by the name the
// test imports the module's default under. module, when not nil, is the
// file defining fn: it settles which suffix of a qualified name is the
// function and which imports are of it.
func Harvest(module *File, fn string, tests []*File, limit int) []Input {
	h := &harvester{seen: map[string]bool{}, out: []Input{}, limit: limit}
	local := fn
	if module != nil && module.root != nil {
		defs := module.defs()
		parts := strings.Split(fn, ".")
		for i := range parts {
			if _, ok := defs[strings.Join(parts[i:], ".")]; ok {
				local = strings.Join(parts[i:], ".")
				break
			}
		}
		h.module = strings.TrimSuffix(path.Base(module.Path), path.Ext(module.Path))
		h.moduleDir = path.Dir(module.Path)
	}
	h.name = local
	if i := strings.LastIndex(local, "."); i >= 0 {
		h.cls, h.name = local[strings.LastIndex(local[:i], ".")+1:i], local[i+1:]
	}
	if module != nil && module.root != nil && h.cls == "" {
		h.aliases = module.aliases(h.name)
		h.isDefault = module.defaultIs(h.name)
	}
	// A test setup file that makes the module a global (mocha's
	// test/setup.js: global.Parsimmon = require("..")) names it in every
	// test file.
	h.globals = map[string]bool{}
	for _, t := range tests {
		if t != nil && t.root != nil {
			h.f = t
			h.direct, h.modules, h.classes = map[string]bool{}, map[string]bool{}, map[string]bool{}
			h.requires(t.root, 0)
		}
	}
	for _, t := range tests {
		if t == nil || t.root == nil || h.full() {
			continue
		}
		h.file(t)
	}
	return h.out
}

// globalObjects are the names of JavaScript's global object.
var globalObjects = map[string]bool{"global": true, "globalThis": true, "window": true, "self": true}

type harvester struct {
	name, cls string // the function's own name; its class or object ("" for a function)
	// aliases are the other names the module's objects give the function
	// (const is = {enumCase: isEnumCase}): is.enumCase(...) calls it.
	aliases map[string]bool
	module  string // the defining file's base name without extension, "" when unknown
	// isDefault is set when the module's default export is the function
	// under its own name (export default wildcardMatch, module.exports =
	// parse): a test's default import of the module is the function.
	isDefault bool
	// moduleDir is the defining file's directory, "" when unknown: a
	// package index above it re-exports it (viaIndex).
	moduleDir string
	// indexed is set while a require being bound is of such an index.
	indexed bool
	limit   int
	seen    map[string]bool
	at      map[string]int // where each call seen is in out
	out     []Input

	// globals are the names test setup files make the module under,
	// each true when a package index's (Harvest).
	globals map[string]bool

	// Per test file:
	f       *File
	direct  map[string]bool         // names that call the function itself
	modules map[string]bool         // namespaces holding it
	classes map[string]bool         // names of its class or object
	helpers map[string]*sitter.Node // the file's own functions that call it, by name
	active  map[string]bool         // helpers being walked through a call of theirs
	visits  int

	// factories are the names the file imports of the package's other
	// modules (import { parseCronExpression } from "../src"), each the
	// module's path in the repository and the name it exports: a call of
	// one may build the class's object (Built.Module).
	factories map[string]string
}

// aliases are the keys under which f's objects hold the function named
// fn: an object literal's (enumCase in {enumCase: isEnumCase}) or an
// assignment's (unparse in Papa.unparse = JsonToCsv).
func (f *File) aliases(fn string) map[string]bool {
	out := map[string]bool{}
	f.eachNode(func(n *sitter.Node) {
		var k, v *sitter.Node
		switch n.Kind() {
		case "pair":
			k, v = n.ChildByFieldName("key"), n.ChildByFieldName("value")
		case "assignment_expression":
			if left := n.ChildByFieldName("left"); left != nil && left.Kind() == "member_expression" {
				k, v = left.ChildByFieldName("property"), n.ChildByFieldName("right")
			}
		}
		if k != nil && v != nil && k.Kind() == "property_identifier" && v.Kind() == "identifier" && f.text(v) == fn && f.text(k) != fn {
			out[f.text(k)] = true
		}
	})
	return out
}

// defaultIs says whether f's default export is the function named fn:
// export default fn, export default function fn, or module.exports = fn.
func (f *File) defaultIs(fn string) bool {
	for i := uint(0); i < f.root.NamedChildCount(); i++ {
		c := f.root.NamedChild(i)
		switch c.Kind() {
		case "export_statement":
			if !strings.HasPrefix(f.text(c), "export default") {
				continue
			}
			if v := c.ChildByFieldName("value"); v != nil && v.Kind() == "identifier" && f.text(v) == fn {
				return true
			}
			if d := c.ChildByFieldName("declaration"); d != nil && f.text(d.ChildByFieldName("name")) == fn {
				return true
			}
		case "expression_statement":
			e := c.NamedChild(0)
			if e == nil || e.Kind() != "assignment_expression" {
				continue
			}
			left, right := e.ChildByFieldName("left"), e.ChildByFieldName("right")
			if left != nil && right != nil && f.text(left) == "module.exports" && right.Kind() == "identifier" && f.text(right) == fn {
				return true
			}
		}
	}
	return false
}

func (h *harvester) full() bool { return h.limit > 0 && len(h.out) >= h.limit }

func (h *harvester) add(in Input) {
	key := in.Receiver + "\x00" + strings.Join(in.Args, "\x00")
	if at, ok := h.at[key]; ok {
		// The same call again: what the test then called its result
		// with is one more way to look at that result.
		if len(in.Then) > 0 && len(h.out[at].Then) < maxThen {
			h.out[at].Then = append(h.out[at].Then, in.Then...)
		}
		if room := maxCalls - len(h.out[at].Calls); room > 0 {
			h.out[at].Calls = append(h.out[at].Calls, in.Calls[:min(room, len(in.Calls))]...)
		}
		return
	}
	if h.seen[key] || h.full() {
		return
	}
	h.seen[key] = true
	if h.at == nil {
		h.at = map[string]int{}
	}
	h.at[key] = len(h.out)
	h.out = append(h.out, in)
}

// maxThen bounds the calls of a call's result kept for one call.
const maxThen = 8

func (h *harvester) file(t *File) {
	h.f, h.visits = t, 0
	h.direct, h.modules, h.classes = map[string]bool{}, map[string]bool{}, map[string]bool{}
	h.factories = map[string]string{}
	if h.cls == "" && h.name != "default" {
		h.direct[h.name] = true
	}
	if h.cls != "" {
		h.classes[h.cls] = true
	}
	for name, indexed := range h.globals {
		h.modules[name] = true
		if (h.name == "default" || h.isDefault) && h.cls == "" && !indexed {
			h.direct[name] = true // the module is the function
		}
	}
	h.imports(t.root)
	h.boundNames(t)
	h.helpers, h.active = h.findHelpers(t.root), map[string]bool{}
	h.walk(t.root, nil, KindTest, nil, 0)
}

// boundNames marks the names a test file binds to the function read off
// the object holding it (var url = validate.validators.url, often then
// url = url.bind(url), as validate.js' specs do; const parse =
// lib.parse): a call of the name calls the function.
func (h *harvester) boundNames(t *File) {
	if h.name == "default" {
		return
	}
	t.eachNode(func(n *sitter.Node) {
		if n.Kind() != "variable_declarator" {
			return
		}
		name, v := n.ChildByFieldName("name"), n.ChildByFieldName("value")
		for v != nil && v.Kind() == "parenthesized_expression" && v.NamedChildCount() == 1 {
			v = v.NamedChild(0)
		}
		if v != nil && v.Kind() == "call_expression" { // validate.validators.url.bind(...)
			if c := v.ChildByFieldName("function"); c != nil && c.Kind() == "member_expression" && t.text(c.ChildByFieldName("property")) == "bind" {
				v = c.ChildByFieldName("object")
			}
		}
		if name == nil || name.Kind() != "identifier" || v == nil || v.Kind() != "member_expression" || t.text(v.ChildByFieldName("property")) != h.name {
			return
		}
		if h.cls != "" {
			obj := v.ChildByFieldName("object")
			last := t.text(obj)
			if obj != nil && obj.Kind() == "member_expression" {
				last = t.text(obj.ChildByFieldName("property"))
			}
			if last != h.cls {
				return
			}
		}
		h.direct[t.text(name)] = true
	})
}

// findHelpers are the test file's top-level functions whose body names the
// function (function testParse(name, str, format, date) { ...
// fecha.parse(str, format) ... }): a call of one with literal arguments is
// a call of the function with those of them it passes on.
func (h *harvester) findHelpers(root *sitter.Node) map[string]*sitter.Node {
	f := h.f
	out := map[string]*sitter.Node{}
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		var name, fn *sitter.Node
		switch c.Kind() {
		case "function_declaration":
			name, fn = c.ChildByFieldName("name"), c
		case "lexical_declaration", "variable_declaration":
			if c.NamedChildCount() == 1 {
				d := c.NamedChild(0)
				if v := d.ChildByFieldName("value"); v != nil && (v.Kind() == "arrow_function" || v.Kind() == "function_expression" || v.Kind() == "function") {
					name, fn = d.ChildByFieldName("name"), v
				}
			}
		}
		if name == nil || fn == nil || name.Kind() != "identifier" || h.direct[f.text(name)] {
			continue
		}
		body := fn.ChildByFieldName("body")
		if body == nil || !h.names(f.text(body)) {
			continue
		}
		out[f.text(name)] = fn
	}
	return out
}

// names reports whether text holds the function's name or an alias of it
// as a word.
func (h *harvester) names(text string) bool {
	words := []string{h.name}
	for a := range h.aliases {
		words = append(words, a)
	}
	for d := range h.direct {
		words = append(words, d)
	}
	for _, w := range words {
		for i := strings.Index(text, w); i >= 0; {
			before, after := i == 0 || !isWordByte(text[i-1]), i+len(w) == len(text) || !isWordByte(text[i+len(w)])
			if before && after {
				return true
			}
			j := strings.Index(text[i+1:], w)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// helperCall walks the body of the helper n calls with its parameters
// bound to n's arguments, so the calls it makes of the function with them
// are read as the test's own; it reports whether n called a helper.
func (h *harvester) helperCall(n *sitter.Node, sc scope, pos *sitter.Node, depth int) bool {
	f := h.f
	callee, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if callee == nil || args == nil || args.Kind() != "arguments" || callee.Kind() != "identifier" {
		return false
	}
	name := f.text(callee)
	fn := h.helpers[name]
	if fn == nil || h.active[name] {
		return false
	}
	var items []*sitter.Node
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if a := args.NamedChild(i); a.Kind() != "comment" {
			items = append(items, a)
		}
	}
	rs := scope{}
	for k, v := range sc {
		rs[k] = v
	}
	ps := params(f, fn)
	for _, p := range ps {
		shadow(f, p, rs)
	}
	for j, p := range ps {
		if j >= len(items) {
			break
		}
		// An argument is read where the call is, in sc.
		if pat, _, _, _, _ := paramParts(p); pat != nil && pat.Kind() == "identifier" {
			if s, ok := f.literal(items[j], sc); ok {
				rs[f.text(pat)] = s
			}
			h.fieldsOf(f.text(pat), items[j], sc, rs, 0)
			continue
		}
		h.bind(p, items[j], rs, 0)
	}
	if pos == nil {
		pos = n
	}
	h.active[name] = true
	h.walk(fn.ChildByFieldName("body"), rs, KindTest, pos, depth+1)
	delete(h.active, name)
	return true
}

// imports reads the test file's imports and requires: which names are the
// function, its class, or a namespace holding it.
func (h *harvester) imports(root *sitter.Node) {
	f := h.f
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		switch c.Kind() {
		case "import_statement":
			src := f.text(c.ChildByFieldName("source"))
			h.importedFrom(c, src)
			ours := h.ours(src)
			// A package's index above the module (zod's tests: import *
			// as z from "../index") re-exports it: its namespace and the
			// names imported from it are the module's, its default
			// export is its own.
			index := !ours && h.viaIndex(src)
			for j := uint(0); j < c.NamedChildCount(); j++ {
				cl := c.NamedChild(j)
				if cl.Kind() != "import_clause" {
					continue
				}
				for k := uint(0); k < cl.NamedChildCount(); k++ {
					part := cl.NamedChild(k)
					switch part.Kind() {
					case "identifier": // import X from "./m"
						if ours && (h.name == "default" || h.isDefault) && h.cls == "" {
							h.direct[f.text(part)] = true
						} else if ours {
							h.modules[f.text(part)] = true
						}
					case "namespace_import": // import * as m from "./m"
						if (ours || index) && part.NamedChildCount() > 0 {
							h.modules[f.text(part.NamedChild(0))] = true
						}
					case "named_imports":
						for m := uint(0); (ours || index) && m < part.NamedChildCount(); m++ {
							h.specifier(part.NamedChild(m))
						}
					}
				}
			}
		default:
			h.requires(c, 0)
		}
	}
}

// importedFrom records the names an import statement c of a relative
// source takes from it (import { f, g as h } from "../src") as factories.
func (h *harvester) importedFrom(c *sitter.Node, src string) {
	mod := h.relModule(src)
	if mod == "" || h.cls == "" {
		return
	}
	for j := uint(0); j < c.NamedChildCount(); j++ {
		cl := c.NamedChild(j)
		if cl.Kind() != "import_clause" {
			continue
		}
		for k := uint(0); k < cl.NamedChildCount(); k++ {
			if part := cl.NamedChild(k); part.Kind() == "named_imports" {
				for m := uint(0); m < part.NamedChildCount(); m++ {
					if s := part.NamedChild(m); s.Kind() == "import_specifier" {
						name := h.f.text(s.ChildByFieldName("name"))
						alias := name
						if a := s.ChildByFieldName("alias"); a != nil {
							alias = h.f.text(a)
						}
						h.factories[alias] = mod + "." + name
					}
				}
			}
		}
	}
}

// relModule is a relative import's source (quoted) as a module path in
// the repository, its extension dropped ("src" for "../src" from
// test/x.test.ts: the worker finds src.ts or src/index.ts); "" for a
// package's or one outside the repository.
func (h *harvester) relModule(src string) string {
	src = strings.Trim(src, "\"'`")
	if !strings.HasPrefix(src, ".") || h.f == nil {
		return ""
	}
	p := path.Join(path.Dir(h.f.Path), src)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	for _, e := range []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"} {
		p = strings.TrimSuffix(p, e)
	}
	if strings.Contains(p, ".") {
		return "" // the worker reads the first dot as the module's end
	}
	return p
}

// maxRequireDepth bounds how deep in a test file's statements a require is
// looked for (if blocks, describe bodies, before hooks).
const maxRequireDepth = 12

// requires reads the names n binds to require("./m") of the module,
// declared (const m = require(...), const { f } = require(...)) or
// assigned (m = require(...), as a test that runs in a browser too does
// inside an if), at any depth of its statements.
func (h *harvester) requires(n *sitter.Node, depth int) {
	if n == nil || depth > maxRequireDepth {
		return
	}
	switch n.Kind() {
	case "variable_declarator":
		if v := n.ChildByFieldName("value"); v != nil && h.isRequire(v) {
			h.bindRequire(n.ChildByFieldName("name"))
			h.indexed = false
			return
		}
	case "assignment_expression":
		if r := n.ChildByFieldName("right"); r != nil && h.isRequire(r) {
			switch l := n.ChildByFieldName("left"); {
			case l != nil && l.Kind() == "identifier":
				h.bindRequire(l)
			case l != nil && l.Kind() == "member_expression" && globalObjects[h.f.text(l.ChildByFieldName("object"))]:
				// global.P = require(...): the module under that name in
				// every test file (Harvest).
				if prop := l.ChildByFieldName("property"); prop != nil && prop.Kind() == "property_identifier" {
					h.globals[h.f.text(prop)] = h.indexed
				}
			}
			h.indexed = false
			return
		}
	case "string", "template_string", "comment":
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		h.requires(n.NamedChild(i), depth+1)
	}
}

// bindRequire reads the name or pattern a require's value is bound to.
func (h *harvester) bindRequire(name *sitter.Node) {
	f := h.f
	if name == nil {
		return
	}
	switch name.Kind() {
	case "identifier": // const m = require("./m")
		h.modules[f.text(name)] = true
		if (h.name == "default" || h.isDefault) && h.cls == "" && !h.indexed {
			// CommonJS: require returns module.exports, here the
			// function itself.
			h.direct[f.text(name)] = true
		}
	case "object_pattern": // const { f, g: h } = require("./m")
		for m := uint(0); m < name.NamedChildCount(); m++ {
			p := name.NamedChild(m)
			if p.Kind() == "shorthand_property_identifier_pattern" {
				h.bindImport(f.text(p), f.text(p))
			} else if p.Kind() == "pair_pattern" {
				h.bindImport(f.text(p.ChildByFieldName("key")), f.text(p.ChildByFieldName("value")))
			}
		}
	}
}

// specifier reads import {name as alias}.
func (h *harvester) specifier(s *sitter.Node) {
	if s == nil || s.Kind() != "import_specifier" {
		return
	}
	name := h.f.text(s.ChildByFieldName("name"))
	alias := name
	if a := s.ChildByFieldName("alias"); a != nil {
		alias = h.f.text(a)
	}
	h.bindImport(name, alias)
}

func (h *harvester) bindImport(name, alias string) {
	switch {
	case h.cls == "" && name == h.name:
		h.direct[alias] = true
	case h.cls != "" && name == h.cls:
		h.classes[alias] = true
	}
}

// isRequire reports whether v is require("...") of the module.
func (h *harvester) isRequire(v *sitter.Node) bool {
	if v.Kind() != "call_expression" || h.f.text(v.ChildByFieldName("function")) != "require" {
		return false
	}
	args := v.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() != 1 {
		return false
	}
	src := h.f.text(args.NamedChild(0))
	if h.ours(src) {
		return true
	}
	h.indexed = h.viaIndex(src)
	return h.indexed
}

// viaIndex reports whether an import's source (quoted) is the index of a
// directory holding the module (../index, .., ../src/): a package's entry,
// which re-exports what its modules export.
func (h *harvester) viaIndex(src string) bool {
	src = strings.Trim(src, "\"'`")
	if h.moduleDir == "" || h.f == nil || !strings.HasPrefix(src, ".") {
		return false
	}
	p := path.Join(path.Dir(h.f.Path), src)
	dir := ""
	switch b := path.Base(p); {
	case strings.TrimSuffix(b, path.Ext(b)) == "index":
		dir = path.Dir(p)
	case strings.HasSuffix(src, "/") || path.Base(src) == "." || path.Base(src) == "..":
		dir = p
	case path.Ext(src) == "" && (h.moduleDir == p || strings.HasPrefix(h.moduleDir, p+"/")):
		// "../src" from test/: the directory holding the module (a
		// file of that name beside it would be shadowed by none).
		dir = p
	}
	return dir != "" && (h.moduleDir == dir || dir == "." || strings.HasPrefix(h.moduleDir, dir+"/"))
}

// ours reports whether an import's source (quoted) may be the defining
// module: its base name, without extension, is the module's. Without a
// module, every relative import may be.
func (h *harvester) ours(src string) bool {
	src = strings.Trim(src, "\"'`")
	if h.module == "" {
		return strings.HasPrefix(src, ".")
	}
	if h.module == "index" && strings.HasPrefix(src, ".") && (strings.HasSuffix(src, "/") || path.Base(src) == "." || path.Base(src) == "..") {
		return true // require(".."): a directory is its index
	}
	b := path.Base(src)
	for _, e := range []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"} {
		b = strings.TrimSuffix(b, e)
	}
	if b == h.module || b == "index" && path.Base(path.Dir(src)) == h.module {
		return true
	}
	// A build of the module under its own name (lib/fecha.umd,
	// dist/picomatch.min): the tests of a project that ships one load it.
	if i := strings.IndexByte(b, '.'); i > 0 && b[:i] == h.module && builtSuffix[b[i+1:]] {
		return true
	}
	return false
}

// builtSuffix are the words a build of a module adds to its name.
var builtSuffix = map[string]bool{"umd": true, "min": true, "esm": true, "es": true, "cjs": true, "common": true, "bundle": true, "browser": true, "node": true, "umd.min": true, "esm.min": true, "production.min": true, "development": true}

// walk visits n with the names sc binds (a table row's), kind saying
// whether a row feeds the calls, and pos the row's position.
func (h *harvester) walk(n *sitter.Node, sc scope, kind string, pos *sitter.Node, depth int) {
	h.visits++
	if n == nil || depth > 300 || h.visits > maxWalk || h.full() {
		return
	}
	switch n.Kind() {
	case "call_expression":
		if h.table(n, sc, depth) {
			return
		}
		h.helperCall(n, sc, pos, depth)
		h.call(n, sc, kind, pos)
	case "for_statement":
		if h.indexLoop(n, sc, depth) {
			return
		}
	case "statement_block":
		// A helper declared inside a describe's callback (PapaParse's
		// generateTest, one per describe) serves that block alone.
		if local := h.findHelpers(n); len(local) > 0 {
			saved := h.helpers
			h.helpers = map[string]*sitter.Node{}
			maps.Copy(h.helpers, saved)
			maps.Copy(h.helpers, local)
			defer func() { h.helpers = saved }()
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		h.walk(n.NamedChild(i), sc, kind, pos, depth+1)
	}
}

// call records n when it calls the function with literal arguments.
func (h *harvester) call(n *sitter.Node, sc scope, kind string, pos *sitter.Node) {
	f := h.f
	callee, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if callee == nil || args == nil || args.Kind() != "arguments" {
		return
	}
	in := Input{Kind: kind}
	switch {
	case callee.Kind() == "identifier" && h.direct[f.text(callee)]:
	case callee.Kind() == "member_expression" && (f.text(callee.ChildByFieldName("property")) == h.name || h.aliases[f.text(callee.ChildByFieldName("property"))]):
		obj := callee.ChildByFieldName("object")
		recv, built, ok := h.receiver(obj, sc)
		if !ok {
			return
		}
		in.Receiver, in.Built = recv, built
	default:
		return
	}
	lits, ok := h.literalArgs(args, sc)
	if !ok {
		return
	}
	in.Args = lits
	if in.Args == nil {
		in.Args = []string{}
	}
	if outer := n.Parent(); outer != nil && outer.Kind() == "call_expression" && outer.ChildByFieldName("function") != nil && outer.ChildByFieldName("function").Id() == n.Id() {
		// f(a)(b): the test looks at what f returned by calling it.
		if then, ok := h.literalArgs(outer.ChildByFieldName("arguments"), sc); ok && len(then) > 0 {
			in.Then = [][]string{then}
		}
	}
	in.Calls = h.callsOn(n, sc)
	if pos == nil {
		pos = n
	}
	in.Pos = f.pos(pos)
	h.add(in)
}

// maxCalls bounds the method calls read for one call's result.
const maxCalls = 8

// callsOn are the method calls with literal arguments a test makes on
// what call returned: directly, f(a).parse("1"), or through the name a
// declaration in its block binds it to, var p = f(a); p.parse("1").
func (h *harvester) callsOn(call *sitter.Node, sc scope) []Step {
	f := h.f
	if step, ok := h.methodCall(call.Parent(), call, sc); ok {
		return []Step{step}
	}
	decl := call.Parent()
	if decl == nil || decl.Kind() != "variable_declarator" {
		return nil
	}
	name := decl.ChildByFieldName("name")
	if name == nil || name.Kind() != "identifier" || decl.ChildByFieldName("value") == nil || decl.ChildByFieldName("value").Id() != call.Id() {
		return nil
	}
	block := decl
	for block != nil && block.Kind() != "statement_block" && block.Kind() != "program" {
		block = block.Parent()
	}
	if block == nil {
		return nil
	}
	var out []Step
	var visit func(n *sitter.Node, depth int)
	visit = func(n *sitter.Node, depth int) {
		if n == nil || depth > 60 || len(out) >= maxCalls {
			return
		}
		if n.Kind() == "identifier" && f.text(n) == f.text(name) && n.Id() != name.Id() {
			if step, ok := h.methodCall(n.Parent(), n, sc); ok {
				out = append(out, step)
			}
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			visit(n.NamedChild(i), depth+1)
		}
	}
	visit(block, 0)
	return out
}

// methodCall reads member, whose object is obj, as obj.m(literals).
func (h *harvester) methodCall(member, obj *sitter.Node, sc scope) (Step, bool) {
	f := h.f
	if member == nil || member.Kind() != "member_expression" || member.ChildByFieldName("object") == nil || member.ChildByFieldName("object").Id() != obj.Id() {
		return Step{}, false
	}
	prop, call := member.ChildByFieldName("property"), member.Parent()
	if prop == nil || prop.Kind() != "property_identifier" || call == nil || call.Kind() != "call_expression" ||
		call.ChildByFieldName("function") == nil || call.ChildByFieldName("function").Id() != member.Id() {
		return Step{}, false
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "arguments" {
		return Step{}, false
	}
	lits, ok := h.literalArgs(args, sc)
	if !ok {
		return Step{}, false
	}
	return Step{Method: f.text(prop), Args: lits}, true
}

// receiver says what obj.name(...) calls the function on: a namespace
// holding a function (""), its class or object by name, an instance built
// with literal arguments, or one a call of what the module exports built
// (its making, Built), directly or through a const.
func (h *harvester) receiver(obj *sitter.Node, sc scope) (string, *Built, bool) {
	f := h.f
	if obj == nil {
		return "", nil, false
	}
	if h.cls == "" {
		return "", nil, obj.Kind() == "identifier" && h.modules[f.text(obj)]
	}
	if obj.Kind() == "identifier" && h.classes[f.text(obj)] {
		return h.cls, nil, true
	}
	obj = unwrapConst(f, obj)
	if obj == nil {
		return "", nil, false
	}
	if obj.Kind() == "member_expression" && h.modules[f.text(obj.ChildByFieldName("object"))] && f.text(obj.ChildByFieldName("property")) == h.cls {
		return h.cls, nil, true
	}
	if obj.Kind() == "call_expression" {
		b, ok := h.built(obj, sc, 0)
		if !ok {
			return "", nil, false
		}
		return b.String(), b, true
	}
	if obj.Kind() != "new_expression" {
		return "", nil, false
	}
	ctor := obj.ChildByFieldName("constructor")
	if ctor == nil || !h.classes[f.text(ctor)] && !(ctor.Kind() == "member_expression" && f.text(ctor.ChildByFieldName("property")) == h.cls) {
		return "", nil, false
	}
	var parts []string
	if args := obj.ChildByFieldName("arguments"); args != nil {
		var ok bool
		if parts, ok = h.literalArgs(args, sc); !ok {
			return "", nil, false
		}
	}
	return "new " + h.cls + "(" + strings.Join(parts, ", ") + ")", nil, true
}

// Built is an object a test builds by calling what the module exports,
// with literal arguments: the module itself when it is the function
// (bigInt(3), whose bigInt = require("../BigInteger")) or a function it
// exports (z.string()), then the built object's own methods in a chain
// (z.string().datetime({ offset: true })): the only way to an instance of
// a class the module does not export, and the way builder APIs make one.
type Built struct {
	// Factory is the export's name: "default" for the module itself.
	Factory string
	// Module is the module exporting Factory when it is not the one
	// defining the class (a package index, a parser beside the class):
	// its path in the repository, as the worker finds it. "" for the
	// defining module.
	Module string
	Args   []string
	// Then are the chained calls, in order.
	Then []Step
}

// Step is one chained call of a Built object.
type Step struct {
	Method string
	Args   []string
}

// String is the making as JavaScript writes it, the export by its name:
// default(3), string().datetime({ offset: true }).
func (b *Built) String() string {
	s := b.Factory + "(" + strings.Join(b.Args, ", ") + ")"
	for _, st := range b.Then {
		s += "." + st.Method + "(" + strings.Join(st.Args, ", ") + ")"
	}
	return s
}

// maxChain bounds the chained calls of a Built object.
const maxChain = 6

// built reads call as a Built object, false when it is not one.
func (h *harvester) built(call *sitter.Node, sc scope, depth int) (*Built, bool) {
	f := h.f
	callee, args := call.ChildByFieldName("function"), call.ChildByFieldName("arguments")
	if callee == nil || args == nil || args.Kind() != "arguments" || depth > maxChain {
		return nil, false
	}
	lits, ok := h.literalArgs(args, sc)
	if !ok {
		return nil, false
	}
	switch {
	case callee.Kind() == "identifier" && h.modules[f.text(callee)]:
		return &Built{Factory: "default", Args: lits}, true
	case callee.Kind() == "identifier" && h.factories[f.text(callee)] != "":
		at := h.factories[f.text(callee)]
		i := strings.LastIndex(at, ".")
		return &Built{Module: at[:i], Factory: at[i+1:], Args: lits}, true
	case callee.Kind() == "member_expression":
		obj, prop := callee.ChildByFieldName("object"), callee.ChildByFieldName("property")
		if prop == nil || prop.Kind() != "property_identifier" {
			return nil, false
		}
		if h.modules[f.text(obj)] {
			return &Built{Factory: f.text(prop), Args: lits}, true
		}
		if inner := unwrapConst(f, obj); inner != nil && inner.Kind() == "call_expression" {
			b, ok := h.built(inner, sc, depth+1)
			if !ok {
				return nil, false
			}
			b.Then = append(b.Then, Step{Method: f.text(prop), Args: lits})
			return b, true
		}
	}
	return nil, false
}

// literalArgs are a call's arguments as literals, false when one is not.
func (h *harvester) literalArgs(args *sitter.Node, sc scope) ([]string, bool) {
	var out []string
	for i := uint(0); i < args.NamedChildCount(); i++ {
		a := args.NamedChild(i)
		if a.Kind() == "comment" {
			continue
		}
		s, ok := h.f.literal(a, sc)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// unwrapConst is n, or the value of the const n names.
func unwrapConst(f *File, n *sitter.Node) *sitter.Node {
	n = unwrap(n)
	if n != nil && n.Kind() == "identifier" {
		if v := f.constants()[f.text(n)]; v != nil {
			return unwrap(v)
		}
	}
	return n
}
