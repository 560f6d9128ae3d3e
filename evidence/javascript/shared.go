package javascript

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// A module-level declaration a patch changes (export const MAX_LEN = 5)
// is read by the modules importing it, and a module-level statement that
// assigns into an object (LIMITS.high = 5, core.fits = ...) changes what
// the functions reading it answer. The engine compares the readers of
// other files (evidence/shared.go); an assignment into an imported
// module or a built-in (String.prototype.trim = ...) is not followed:
// premise calls a module's functions without loading the module that
// assigns into them, so the statement is named and not checked.

// jsMutateRe is an assignment through a name's property or index:
// LIMITS.high = 5, core.fits = f, cache[k] ??= v.
var jsMutateRe = regexp.MustCompile(`^\s*([A-Za-z_$][\w$]*)((?:\s*\.\s*[\w$]+|\[[^\]]*\])+)\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|\?\?|\|\||&&)?=[^=>]`)

// jsObjectCallRe is Object.assign(x, ...) and its kin: they assign into x.
var jsObjectCallRe = regexp.MustCompile(`^\s*Object\.(?:assign|defineProperty|defineProperties|setPrototypeOf)\(\s*([A-Za-z_$][\w$]*)`)

// jsBindingRe is a module-level binding of an import or require:
// import * as core from "./core", const core = require("./core").
var jsBindingRe = regexp.MustCompile(`^\s*(?:import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+['"]|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"])`)

// jsGlobals are the built-ins a statement may assign into.
var jsGlobals = map[string]bool{"String": true, "Array": true, "Object": true, "Number": true, "Math": true, "JSON": true,
	"Date": true, "RegExp": true, "Promise": true, "Function": true, "Boolean": true, "Symbol": true, "Map": true,
	"Set": true, "Error": true, "globalThis": true, "global": true, "window": true, "process": true, "console": true, "Reflect": true}

// jsModuleChanges are the module-level names f's changed statements bind
// or assign into (its own), and the changed statements assigning into an
// imported module or a built-in, as "line N `text`" (the head's only).
func jsModuleChanges(f diffparse.File, language string) (map[string]bool, []string) {
	names := map[string]bool{}
	if f.HeadSrc == nil || f.BaseSrc == nil {
		return names, nil
	}
	head, err := diffparse.Decls(language, f.HeadSrc)
	if err != nil {
		return names, nil
	}
	base, err := diffparse.Decls(language, f.BaseSrc)
	if err != nil {
		return names, nil
	}
	var unfollowed []string
	sides := lang.Sides(f, head, base)
	imported := map[bool]map[string]bool{}
	for _, side := range sides {
		imported[side.Head] = map[string]bool{}
		for _, l := range side.Lines {
			if m := jsBindingRe.FindStringSubmatch(l); m != nil {
				imported[side.Head][m[1]+m[2]] = true
			}
		}
	}
	fnDecls := map[bool][]diffparse.Decl{}
	topFns := map[string]bool{}
	for _, side := range sides {
		fnDecls[side.Head] = lang.FunctionDecls(side.Decls)
		for _, d := range side.Decls {
			if side.Head && d.Kind == "function" && !strings.Contains(d.Local, ".") {
				topFns[d.Local] = true
			}
		}
	}
	lang.EachChanged(f, sides, func(side lang.Side, n int) {
		text := side.Lines[n-1]
		if side.Head && !lang.InDecl(fnDecls[true], n) && jsOpaqueAtLoad(text, topFns) {
			// A line that runs at load (module level, a class's static
			// block or field, a wrapper called at once) and writes
			// what premise cannot read which: exports or a built-in
			// through Object.assign, defineProperty or Reflect, code
			// from a string, a declared function's name reassigned.
			unfollowed = append(unfollowed, lang.LineText(n, text))
			return
		}
		if e := enumHolding(side, n); e != "" {
			// A TypeScript enum's member changed: its values are data
			// every function naming the enum reads (Lim.Floor), in its
			// module and the modules importing it.
			names[e] = true
			return
		}
		if lang.InDecl(side.Decls, n) && !assignsFunction(side.Decls, n, text) {
			// Inside a function or class: an assignment into an imported
			// module or a built-in changes it for every later caller
			// (String.prototype.trim = ..., core.fits = ...).
			if m := jsMutateRe.FindStringSubmatch(text); m != nil && side.Head && !jsHostObjects[m[1]] && (imported[true][m[1]] || jsGlobals[m[1]]) {
				unfollowed = append(unfollowed, lang.LineText(n, text))
			}
			return
		}
		if name := jsAssigned(side.Lines, n); name != "" {
			names[name] = true
			return
		}
		if exportStatement(side.Lines, n) {
			// module.exports = { clamp: clampFast }: the exported name
			// now calls another function; premise calls a module by
			// what it exports, so the names here are compared under
			// the export's name.
			for _, w := range jsWordRe.FindAllString(text, -1) {
				if !jsExportWords[w] {
					names[w] = true
				}
			}
			return
		}
		root := ""
		if m := jsMutateRe.FindStringSubmatch(text); m != nil {
			root = m[1]
		} else if m := jsObjectCallRe.FindStringSubmatch(text); m != nil {
			root = m[1]
		}
		switch {
		case root == "" || root == "module" || root == "exports" || root == "this":
			// What the module exports is what premise calls.
		case imported[side.Head][root] || jsGlobals[root]:
			if side.Head {
				unfollowed = append(unfollowed, lang.LineText(n, text))
			}
		default:
			names[root] = true
		}
	})
	return names, unfollowed
}

// jsEnumRe starts a TypeScript enum's declaration.
var jsEnumRe = regexp.MustCompile(`^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+[A-Za-z_$]`)

// enumHolding is the name of the enum whose declaration holds line n of
// side, "" when none does.
func enumHolding(side lang.Side, n int) string {
	for _, d := range side.Decls {
		if d.Kind == "type" && n >= d.Start && n <= d.End && d.Start >= 1 && d.Start <= len(side.Lines) && jsEnumRe.MatchString(side.Lines[d.Start-1]) {
			return d.Local
		}
	}
	return ""
}

// jsOpaqueRe finds what writes a module's exports or a built-in where
// premise cannot read which, or runs code from a string.
var jsOpaqueRe = regexp.MustCompile(`\beval\s*\(|\bnew\s+Function\s*\(|(?:^|[^\w$.])Function\s*\(|\bReflect\s*\.\s*(?:set|defineProperty|deleteProperty|setPrototypeOf|apply)\s*\(|\bObject\s*\.\s*(?:assign|defineProperty|defineProperties|setPrototypeOf)\s*\(\s*(?:module\b|exports\b|this\b|globalThis\b|global\b|(?:Math|JSON|Object|Array|String|Number|Date|RegExp|Promise|Function|Boolean|Symbol|Map|Set|Error|Reflect|console|process)\b)|(?:^|[^\w$.])(?:module\.)?exports\s*\[|(?:^|[^\w$.])(?:globalThis|Math|JSON|Object|Array|String|Number|Date|RegExp|Promise|Function|Boolean|Symbol|Map|Set|Error|Reflect)(?:\s*\.\s*[\w$]+)+\s*=[^=]`)

// jsReassignRe is a plain assignment to a name: clamp = (n) => n.
var jsReassignRe = regexp.MustCompile(`^\s*([A-Za-z_$][\w$]*)\s*=[^=>]`)

// jsOpaqueAtLoad says a line that runs at load writes what premise cannot
// follow: jsOpaqueRe, or one of the module's function declarations
// reassigned (a declaration is a binding sloppy code may replace).
func jsOpaqueAtLoad(text string, topFns map[string]bool) bool {
	code := text
	if i := strings.Index(code, "//"); i >= 0 && !strings.ContainsAny(code[:i], "'\"`") {
		code = code[:i]
	}
	if jsOpaqueRe.MatchString(code) {
		return true
	}
	m := jsReassignRe.FindStringSubmatch(code)
	return m != nil && topFns[m[1]]
}

// assignsFunction says line n starts a declaration that is a function
// assigned into an object at module level (core.fits = (name) => true):
// diffparse names it core.fits, and it is a statement of the module.
func assignsFunction(decls []diffparse.Decl, n int, text string) bool {
	m := jsMutateRe.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	for _, d := range decls {
		if d.Start == n && strings.HasPrefix(d.Local, m[1]+".") {
			return true
		}
	}
	return false
}

// jsHostObjects are the built-ins a function sets as a matter of course
// (process.exitCode, window.location, console.log in a logger's set-up).
var jsHostObjects = map[string]bool{"process": true, "window": true, "console": true, "global": true, "globalThis": true}

// jsWordRe is a JavaScript identifier.
var jsWordRe = regexp.MustCompile(`[A-Za-z_$][\w$]*`)

// jsExportWords are the words of an export statement that name nothing
// of the module's.
var jsExportWords = map[string]bool{"module": true, "exports": true, "export": true, "default": true, "as": true, "from": true,
	"const": true, "let": true, "var": true, "function": true, "class": true, "async": true, "require": true, "type": true}

// exportStatement says line n (1-based) belongs to a module-level
// statement that sets what the module exports: module.exports = {...},
// exports.x = ..., export { a as b }, export default x.
func exportStatement(lines []string, n int) bool {
	for i := n - 1; i >= 0 && i >= n-200; i-- {
		l := lines[i]
		if l == "" || l[0] == ' ' || l[0] == '\t' || strings.HasPrefix(l, "//") || (i < n-1 && strings.ContainsRune(")]}", rune(l[0]))) {
			continue
		}
		return strings.HasPrefix(l, "module.exports") || strings.HasPrefix(l, "exports.") ||
			strings.HasPrefix(l, "export {") || strings.HasPrefix(l, "export default ")
	}
	return false
}

func (l *jsLang) ChangesShared(f diffparse.File) bool {
	if f.Language != l.lang {
		return false
	}
	names, unfollowed := jsModuleChanges(f, l.lang)
	return len(names) > 0 || len(unfollowed) > 0
}

// jsSpecRe is a module specifier in an import or require.
var jsSpecRe = regexp.MustCompile(`(?:from\s+|require\(\s*|import\(\s*)['"]([^'"\n]+)['"]`)

// SharedUsers are the files of the tree importing f's module, with the
// changed names (and the local names an import gives them) each may read.
func (l *jsLang) SharedUsers(f diffparse.File, files []string, read func(string) []byte) (map[string][]string, []string) {
	names, unfollowed := jsModuleChanges(f, l.lang)
	return l.UsersOf(f, names, files, read), unfollowed
}

// UsersOf are the JavaScript and TypeScript files among files importing
// f's module (by a relative specifier, or for a file under node_modules by
// its package's name), with the names of names each may read.
func (*jsLang) UsersOf(f diffparse.File, names map[string]bool, files []string, read func(string) []byte) map[string][]string {
	users := map[string][]string{}
	if len(names) == 0 {
		return users
	}
	self := jsModulePath(f.Path)
	pkg := nodePackage(f.Path)
	for _, rel := range files {
		if lg := diffparse.LanguageOf(rel); rel == f.Path || lg != "javascript" && lg != "typescript" {
			continue
		}
		src := read(rel)
		if src == nil || !strings.Contains(string(src), path.Base(self)) && (pkg == "" || !strings.Contains(string(src), pkg)) {
			continue
		}
		imports := false
		for _, m := range jsSpecRe.FindAllStringSubmatch(string(src), -1) {
			spec := m[1]
			if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
				spec = jsModulePath(path.Join(path.Dir(rel), spec))
			}
			if spec == self || pkg != "" && (spec == pkg || strings.HasPrefix(spec, pkg+"/")) {
				imports = true
				break
			}
		}
		if !imports {
			continue
		}
		var ns []string
		for n := range names {
			// { LIMIT } = require(...), or consts.LIMIT
			ns = append(ns, n, "."+n)
			// { MAX_LEN: limit } and { MAX_LEN as limit }
			alias := regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\s*(?::|\bas\b)\s*([A-Za-z_$][\w$]*)`)
			for _, m := range alias.FindAllStringSubmatch(string(src), -1) {
				ns = append(ns, m[1])
			}
		}
		sort.Strings(ns)
		users[rel] = ns
	}
	return users
}

// nodePackage is the name of the package under node_modules that holds
// p ("left-pad", "@scope/name"), "" outside one.
func nodePackage(p string) string {
	i := strings.LastIndex("/"+p, "/node_modules/")
	if i < 0 {
		return ""
	}
	segs := strings.Split(p[i+len("node_modules/"):], "/")
	if len(segs) < 2 {
		return ""
	}
	if strings.HasPrefix(segs[0], "@") && len(segs) > 2 {
		return segs[0] + "/" + segs[1]
	}
	return segs[0]
}

// jsModulePath is a module's path without its extension or a trailing
// /index: src/consts.js, ./src/consts and src/consts/index.ts are one.
func jsModulePath(p string) string {
	p = path.Clean(p)
	for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"} {
		p = strings.TrimSuffix(p, ext)
	}
	return strings.TrimSuffix(p, "/index")
}

// jsFieldRe is a class field: static LIMIT = 10, #count = 0, limit;,
// readonly max: number = 5.
var jsFieldRe = regexp.MustCompile(`^(?:(?:static|readonly|declare|private|public|protected|override)\s+)*#?([A-Za-z_$][\w$]*)\s*[?!]?\s*(?::[^=;]*)?(?:=|;|$)`)

// jsClassReaders are the methods of each class of f whose own body the
// diff changes outside its methods (lang.ClassReaders): a static limit,
// a field's initial value.
func jsClassReaders(f diffparse.File, head, base []diffparse.Decl, module string) ([]diffparse.Symbol, map[string][]string) {
	syms, reads, _ := lang.ClassReaders(f, head, base, lang.ClassBody{
		Field: jsFieldRe,
		Silent: func(lines []string, n, _ int) bool {
			text := strings.TrimSpace(lines[n-1])
			return strings.HasPrefix(text, "//") || strings.HasPrefix(text, "/*") || strings.HasPrefix(text, "*") || text == "}" || text == "{"
		},
		Prefix: module,
	})
	return syms, reads
}
