package python

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// What a module-level statement changes reaches past the functions of its
// own file (issue 26, verdict rules the head can steer): a constants
// module's MAX_LEN = 5 changes the functions of every module importing it;
// `from ._speedups import clamp`, or `clamp = fast` inside an `if`,
// rebinds a function the patch left untouched; `_core.LIMITS["high"] = 5`
// or `_core.clamp = fast` in a package's __init__ changes another module's
// data or function at import. The names such statements bind are read
// here, with the modules they reach; the engine compares the functions
// reading them as changed ones (evidence/shared.go). A statement that
// changes state premise cannot follow (`sys.modules[...] = ...`, an
// assignment into a module outside the tree) is named, and keeps the run
// from saying the gate holds.

// modChange is what one file's module-level changes bind.
type modChange struct {
	// names are the module-level names of the file itself the changes
	// assign or rebind: their readers in the file, and in the modules
	// importing them, are compared.
	names map[string]bool
	// into are the assignments into other modules' names.
	into []intoRef
	// unfollowed are changed statements that change state premise
	// cannot follow, as "line N `text`".
	unfollowed []string
}

var (
	pyImportFromRe = regexp.MustCompile(`^from\s+(\.*[\w.]*)\s+import\s+\(?\s*([^)#]*)`)
	pyImportRe     = regexp.MustCompile(`^import\s+([^#]*)`)
	// pyMutateRe: an assignment, augmented or not, or a del, through an
	// attribute or a subscript of a name: core.clamp = f, LIMITS["k"] = 5.
	pyMutateRe = regexp.MustCompile(`^(?:del\s+)?([A-Za-z_]\w*)((?:\s*\.\s*\w+|\[[^\]]*\]|\([^()]*\))*(?:\s*\.\s*\w+|\[[^\]]*\]))\s*(?:(?:[-+*/|&%^@]|//|\*\*|<<|>>)?=[^=]|$)`)
	// pyMethodCallRe: a method called on a name: LIMITS.update({...}).
	pyMethodCallRe = regexp.MustCompile(`^([A-Za-z_]\w*)((?:\.\w+)+)\s*\(`)
	pySetattrRe    = regexp.MustCompile(`^(?:setattr|delattr)\(\s*([A-Za-z_][\w.]*)\s*,\s*(?:['"](\w+)['"])?`)
	// pyOpaqueRe: state no reading of the tree can follow.
	pyOpaqueRe = regexp.MustCompile(`\bglobals\(\)|\bvars\(\)|\bsys\.modules\b|__builtins__|\bbuiltins\.\w+\s*=|\bexec\(|\beval\(|\bsetattr\(\s*builtins\b`)
	pyAttrRe   = regexp.MustCompile(`\w+`)
	// pyLambdaRe: a name bound to a lambda.
	pyLambdaRe = regexp.MustCompile(`^[A-Za-z_][\w.]*\s*(?::[^=]*)?=\s*lambda\b`)
)

// intoRef is one statement assigning into what another module binds:
// module.name, or (when name is a submodule) module.name.attr.
type intoRef struct {
	module, name, attr string
	line               string // "line N `text`", on the head; "" on the base
}

// pyBinding is what an import binds a name to: a module path and the
// attribute of it (empty when the name is the module itself).
type pyBinding struct{ module, attr string }

// pyImports are the names a file's import statements bind, each to the
// module path it names (relative ones resolved against pkg) and the
// attribute of it.
func pyImports(lines []string, pkg string) map[string]pyBinding {
	out := map[string]pyBinding{}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "from ") && strings.Contains(l, "(") && !strings.Contains(l, ")") {
			// from x import (\n    a,\n    b,\n)
			for i+1 < len(lines) && !strings.Contains(l, ")") && len(l) < 4096 {
				i++
				l += " " + strings.TrimSpace(strings.SplitN(lines[i], "#", 2)[0])
			}
		}
		if m := pyImportFromRe.FindStringSubmatch(l); m != nil {
			mod := pyResolve(m[1], pkg)
			for _, part := range strings.Split(m[2], ",") {
				f := strings.Fields(part)
				switch {
				case len(f) == 1 && f[0] != "*":
					out[f[0]] = pyBinding{mod, f[0]}
				case len(f) == 3 && f[1] == "as":
					out[f[2]] = pyBinding{mod, f[0]}
				}
			}
			continue
		}
		if m := pyImportRe.FindStringSubmatch(l); m != nil {
			for _, part := range strings.Split(m[1], ",") {
				f := strings.Fields(part)
				switch {
				case len(f) == 1:
					top, _, _ := strings.Cut(f[0], ".")
					out[top] = pyBinding{top, ""}
				case len(f) == 3 && f[1] == "as":
					out[f[2]] = pyBinding{f[0], ""}
				}
			}
		}
	}
	return out
}

// pyAllRe is a module's __all__ list or tuple, over lines or not.
var pyAllRe = regexp.MustCompile(`(?m)^__all__\s*\+?=\s*[\[(]([^\])]*)[\])]`)

// pyQuotedNameRe is a quoted name in a list: 'clamp'.
var pyQuotedNameRe = regexp.MustCompile(`["'](\w+)["']`)

// pyAllNames are the names a module's __all__ lists.
func pyAllNames(src []byte) map[string]bool {
	out := map[string]bool{}
	for _, m := range pyAllRe.FindAllStringSubmatch(string(src), -1) {
		for _, q := range pyQuotedNameRe.FindAllStringSubmatch(m[1], -1) {
			out[q[1]] = true
		}
	}
	return out
}

// pyStarImports says lines hold a star import (from .a import *).
func pyStarImports(lines []string) bool {
	for _, l := range lines {
		if m := pyImportFromRe.FindStringSubmatch(strings.TrimSpace(l)); m != nil && strings.TrimSpace(m[2]) == "*" {
			return true
		}
	}
	return false
}

// pyResolve is the absolute module path of an import's module as written
// in package pkg: ".core" in mypkg is mypkg.core, ".." its parent.
func pyResolve(mod, pkg string) string {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	if dots == 0 {
		return mod
	}
	parts := strings.Split(pkg, ".")
	if pkg == "" {
		parts = nil
	}
	if up := dots - 1; up <= len(parts) {
		parts = parts[:len(parts)-up]
	}
	rest := mod[dots:]
	if rest != "" {
		parts = append(parts, rest)
	}
	return strings.Join(parts, ".")
}

// pyPackage is the package a module of path p imports relative to:
// itself for an __init__.py, else its directory.
func pyPackage(p string) string {
	q := pyQualifier(p)
	if path.Base(strings.TrimSuffix(p, "i")) == "__init__.py" {
		return q
	}
	if i := strings.LastIndex(q, "."); i >= 0 {
		return q[:i]
	}
	return ""
}

// moduleChanges reads what f's changed module-level statements bind. A
// line inside a function or class is the declaration's own change.
func moduleChanges(f diffparse.File) modChange {
	mc := modChange{names: map[string]bool{}}
	if f.Language != "python" || f.HeadSrc == nil {
		return mc
	}
	if why := readOtherwise(f.HeadSrc); why != "" && (f.BaseSrc == nil || readOtherwise(f.BaseSrc) != why) {
		mc.unfollowed = append(mc.unfollowed, "(the interpreter reads the file otherwise than premise: "+why+")")
	}
	if f.BaseSrc == nil {
		return mc
	}
	if mod := shadowed(f); mod != "" {
		mc.unfollowed = append(mc.unfollowed, "(added at the top of the tree, it takes the name of the standard library's "+mod+
			" module: under premise every import of "+mod+" finds it, where the package is installed none does)")
	}
	head, err := diffparse.Decls("python", f.HeadSrc)
	if err != nil {
		return mc
	}
	base, err := diffparse.Decls("python", f.BaseSrc)
	if err != nil {
		return mc
	}
	pkg := pyPackage(f.Path)
	sides := lang.Sides(f, head, base)
	// defined are the names the file defines at module level on either
	// side: an import binding one rebinds it.
	defined := map[string]bool{}
	for _, s := range sides {
		for _, d := range s.Decls {
			if !strings.Contains(d.Local, ".") {
				defined[d.Local] = true
			}
		}
	}
	// A name whose import changed (another module's function of the
	// name, or no import left for a name a function still reads) changes
	// what the functions reading it call.
	headImports, baseImports := pyImports(sides[0].Lines, pkg), pyImports(sides[1].Lines, pkg)
	for name, b := range headImports {
		if o, ok := baseImports[name]; ok && o != b || !ok && f.BaseSrc != nil && pyStarImports(sides[1].Lines) {
			// Rebound to another module's function; or newly imported
			// into a module that star-imports, where the name was
			// another module's (from .a import *, then from .b import
			// clamp).
			mc.names[name] = true
		}
	}
	for name := range baseImports {
		if _, ok := headImports[name]; !ok && !defined[name] {
			mc.names[name] = true
		}
	}
	// A name the base's module already had, now in its __all__: every
	// star import of the module takes it, and rebinds what the importer
	// had under that name (another module's function of the name).
	baseDefined := map[string]bool{}
	for _, d := range sides[1].Decls {
		baseDefined[d.Local] = true
	}
	headAll, baseAll := pyAllNames(f.HeadSrc), pyAllNames(f.BaseSrc)
	for _, n := range slices.Sorted(maps.Keys(headAll)) {
		if !baseAll[n] && baseDefined[n] {
			mc.unfollowed = append(mc.unfollowed, "(__all__ now exports "+n+", which the module already had: every star import of it takes "+n+" in place of what the importer had)")
		}
	}
	imports := map[bool]map[string]pyBinding{true: headImports, false: baseImports}
	inString := map[bool][]int{true: pyStringLines(sides[0].Lines), false: pyStringLines(sides[1].Lines)}
	lang.EachChanged(f, sides, func(s lang.Side, n int) {
		text := strings.TrimSpace(s.Lines[n-1])
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
		case inString[s.Head][n-1] >= 0:
			// A line of a string: the statement opening it, if an
			// assignment (TEMPLATE = """...), changed; a docstring's
			// line (x = clamp(1, 2, 3) in an example) is no statement.
			for _, name := range assigned(s.Lines, inString[s.Head][n-1]+1) {
				if !strings.HasPrefix(name, "__") {
					mc.names[name] = true
				}
			}
		case lang.InDecl(s.Decls, n):
			if s.Head {
				if importTime(s, n, text) {
					mc.atImport(text, n, imports[s.Head])
				}
				mc.inner(text, n, imports[s.Head])
			}
		case s.Head && pyOpaqueRe.MatchString(text):
			// exec(...), globals()[...] = ..., vars()[...] = ...: the
			// module's names written where premise cannot read which.
			mc.unfollowed = append(mc.unfollowed, lineText(n, text))
		case s.Head && pyBareCallRe.MatchString(text) && inModuleBlock(s.Lines, n):
			// _tune() at load: what the module's own function assigns
			// into the module's names changes their readers.
			mc.loadCall(pyBareCallRe.FindStringSubmatch(text)[1], s)
		default:
			mc.statement(text, n, s.Lines, imports[s.Head], defined, s.Head)
		}
	})
	mc.unfollowed = slices.Compact(mc.unfollowed)
	return mc
}

var (
	// pyBareCallRe is a statement calling a name: _tune(), setup(x).
	pyBareCallRe = regexp.MustCompile(`^([A-Za-z_]\w*)\s*\(.*\)\s*(?:#.*)?$`)
	// pyBodyMutateRe is a line of a function assigning into a name it
	// does not bind (LIMITS["high"] = 5, CONFIG.debug = True), or
	// declaring one global.
	pyBodyMutateRe = regexp.MustCompile(`^\s*(?:global\s+([\w\s,]+)$|([A-Za-z_]\w*)(?:\[[^\]]*\]|\.\w+)+\s*(?:[-+*/|&%^@]|//|\*\*|<<|>>)?=[^=]|([A-Za-z_]\w*)\.(?:update|append|extend|insert|pop|clear|setdefault|add|discard|remove)\()`)
)

// loadCall records a call the module makes at load of one of its own
// functions: the module-level names that function assigns into (a table
// it updates, a name it declares global) are changed by the call.
func (mc *modChange) loadCall(name string, s lang.Side) {
	for _, d := range s.Decls {
		if d.Local != name || d.Kind != "function" {
			continue
		}
		for i := d.Start; i <= d.End && i <= len(s.Lines); i++ {
			m := pyBodyMutateRe.FindStringSubmatch(s.Lines[i-1])
			if m == nil {
				continue
			}
			for _, g := range strings.Split(m[1]+","+m[2]+","+m[3], ",") {
				if g = strings.TrimSpace(g); g != "" && g != "self" && g != "cls" && assignedAnywhere(s.Lines, g) {
					mc.names[g] = true
				}
			}
		}
	}
}

// pyIntoStateRe is an assignment into the interpreter's own tables:
// sys.modules[...] = ..., builtins.len = ....
var pyIntoStateRe = regexp.MustCompile(`^(?:sys\.modules\s*\[[^\]]*\]|builtins\.\w+|__builtins__\s*\[[^\]]*\])\s*=[^=]|^setattr\(\s*builtins\b`)

// inner records a changed line of the head inside a function or class
// that assigns into another module: a class body runs at import, so does
// a decorator, and a function doing it changes the module for every
// later caller (core.clamp = fast inside a decorator the patch applies).
func (mc *modChange) inner(text string, n int, imports map[string]pyBinding) {
	if pyIntoStateRe.MatchString(text) {
		mc.unfollowed = append(mc.unfollowed, lineText(n, text))
		return
	}
	var root, attr string
	if m := pyMutateRe.FindStringSubmatch(text); m != nil && strings.HasPrefix(strings.TrimSpace(m[2]), ".") {
		root, attr = m[1], pyAttrRe.FindString(m[2])
	} else if m := pySetattrRe.FindStringSubmatch(text); m != nil && m[2] != "" {
		root, attr = m[1], m[2]
	} else if m := pyMutateRe.FindStringSubmatch(text); m != nil {
		// LIMITS["high"] = 5, LIMITS imported from another module.
		if b, ok := imports[m[1]]; ok && b.attr != "" {
			mc.into = append(mc.into, intoRef{module: b.module, name: b.attr, line: lineText(n, text)})
		}
		return
	} else {
		return
	}
	b, ok := imports[root]
	if !ok || attr == "" {
		return // self.x = ..., a local's attribute
	}
	if b.attr == "" {
		mc.into = append(mc.into, intoRef{module: b.module, name: attr, line: lineText(n, text)})
	} else {
		mc.into = append(mc.into, intoRef{module: b.module, name: b.attr, attr: attr, line: lineText(n, text)})
	}
}

// importTime says line n of a declaration of the side runs when the module
// is imported: a decorator, a def's own line (its defaults and
// annotations), or a class body's line outside its methods.
func importTime(s lang.Side, n int, text string) bool {
	if strings.HasPrefix(text, "@") || strings.HasPrefix(text, "def ") || strings.HasPrefix(text, "async def ") {
		return true
	}
	return !lang.InDecl(lang.FunctionDecls(s.Decls), n)
}

// pyDecoratorRe is a decorator through an attribute of a name:
// @show.register, @fmt.show.register(int).
var pyDecoratorRe = regexp.MustCompile(`^@\s*([A-Za-z_]\w*)\s*\.\s*(\w+)`)

// pyModuleCallRe finds a call of an attribute of a name: decimal.setcontext(.
var pyModuleCallRe = regexp.MustCompile(`\b([A-Za-z_]\w*)((?:\.\w+)+)\s*\(`)

// pyOneLineBlockRe is a compound statement with its body on its own line:
// for _ in [0]: clamp = fast.
var pyOneLineBlockRe = regexp.MustCompile(`^(?:if|elif|else|try|except|finally|with|for|while|async\s+for|async\s+with)\b[^#]*?:\s*[^\s#]`)

// atImport records what a changed line that runs at import does beyond
// what it binds: it writes the module's names where premise cannot read
// which (globals(), vars(), exec), or calls into an imported module, which
// may set state every function reads (decimal.setcontext(...) in an
// assignment's value, a default argument, an annotation, a condition, an
// assert). Either keeps the run from saying the gate holds.
func (mc *modChange) atImport(text string, n int, imports map[string]pyBinding) {
	if m := pyDecoratorRe.FindStringSubmatch(text); m != nil {
		// @show.register on a handler: a registration into another
		// module's dispatcher (functools.singledispatch), which changes
		// what it answers: the dispatcher and its readers are compared.
		// One into a module outside the tree (@functools.lru_cache,
		// @app.route of an installed framework) is its own business.
		if b, ok := imports[m[1]]; ok {
			name := b.attr
			if name == "" {
				name = m[2] // @fmt.show.register: fmt is the module
			}
			mc.into = append(mc.into, intoRef{module: b.module, name: name})
		}
	}
	code := text
	if j := strings.IndexByte(stripStrings(code), '#'); j >= 0 {
		code = code[:j]
	}
	switch {
	case pyOpaqueRe.MatchString(code), pyOneLineBlockRe.MatchString(code), strings.Contains(stripStrings(code), ";"):
		mc.unfollowed = append(mc.unfollowed, lineText(n, text))
		return
	}
	for _, m := range pyModuleCallRe.FindAllStringSubmatch(stripStrings(code), -1) {
		if isModuleImport(imports, m[1]) && !quietCall(m[1], m[2]) && !pureModuleCall(m[1], m[2]) {
			mc.unfollowed = append(mc.unfollowed, lineText(n, text))
			return
		}
	}
}

// pureModuleCall says a call of the standard library reads or builds
// values and sets no state: re.compile, collections.namedtuple,
// os.path.join, typing's, enum's, dataclasses.field, functools.partial.
func pureModuleCall(module, attrs string) bool {
	switch module {
	case "re", "collections", "typing", "enum", "dataclasses", "functools", "itertools", "operator", "string",
		"math", "struct", "datetime", "decimal", "fractions", "textwrap", "unicodedata", "codecs", "abc", "types":
		switch module + attrs {
		case "decimal.setcontext", "decimal.localcontext", "decimal.getcontext":
			return false
		}
		return !strings.HasPrefix(attrs, ".getcontext")
	case "os":
		return strings.HasPrefix(attrs, ".path.") || attrs == ".getenv" || attrs == ".environ.get"
	case "sys":
		return attrs == ".getdefaultencoding" || attrs == ".getrecursionlimit"
	}
	return false
}

// stripStrings is code with its string literals' contents blanked: a ';'
// or a call inside a string is no statement.
func stripStrings(code string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case q != 0 && c == '\\':
			i++
			b.WriteString("  ")
			continue
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q != 0:
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// statement records what one changed module-level line binds.
func (mc *modChange) statement(text string, n int, lines []string, imports map[string]pyBinding, defined map[string]bool, head bool) {
	where := ""
	if head {
		where = lineText(n, text)
		mc.atImport(text, n, imports)
	}
	if head && pyLambdaRe.MatchString(text) {
		// clamp = lambda x, lo, hi: ...: a function premise cannot call
		// by its signature, changed.
		mc.unfollowed = append(mc.unfollowed, lineText(n, text))
	}
	if pyOpaqueRe.MatchString(text) {
		return // atImport named it
	}
	for _, name := range assigned(lines, n) {
		if !strings.HasPrefix(name, "__") {
			mc.names[name] = true
		}
	}
	if !inModuleBlock(lines, n) {
		// A line of a statement spanning lines (a keyword argument of a
		// call): assigned read the statement.
		return
	}
	if m := pyAssignRe.FindStringSubmatch(text); m != nil {
		// An assignment, at column 0 or inside a module-level if, try
		// or with.
		for _, name := range strings.Split(m[1], ",") {
			if name = strings.TrimSpace(name); !strings.HasPrefix(name, "__") {
				mc.names[name] = true
			}
		}
		return
	}
	if strings.HasPrefix(text, "from ") || strings.HasPrefix(text, "import ") {
		// An import rebinding a name the module defines: the module's
		// function is now another's.
		for name := range pyImports([]string{text}, "") {
			if defined[name] {
				mc.names[name] = true
			}
		}
		return
	}
	var root, attrs string
	switch m := pyMutateRe.FindStringSubmatch(text); {
	case m != nil:
		root, attrs = m[1], m[2]
	default:
		if m := pySetattrRe.FindStringSubmatch(text); m != nil {
			root, attrs = m[1], "."+m[2]
			if m[2] == "" {
				// setattr with a computed name: any of the module's.
				attrs = ""
			}
		} else if m := pyMethodCallRe.FindStringSubmatch(text); m != nil && (defined[m[1]] || mc.names[m[1]] || imports[m[1]].attr != "" || assignedAnywhere(lines, m[1])) {
			// LIMITS.update(...): a method changing the module's data.
			root, attrs = m[1], ""
		} else if m := pyMethodCallRe.FindStringSubmatch(text); m != nil && isModuleImport(imports, m[1]) && !quietCall(m[1], m[2]) {
			// decimal.setcontext(...), locale.setlocale(...) at load: a
			// call into another module, which may set state every
			// function reads (into a module outside the tree, it is not
			// followed).
			root, attrs = m[1], m[2]
		} else {
			return
		}
	}
	attr := ""
	if w := pyAttrRe.FindString(attrs); w != "" && strings.HasPrefix(strings.TrimSpace(attrs), ".") {
		attr = w
	}
	root, _, _ = strings.Cut(root, ".")
	b, imported := imports[root]
	switch {
	case !imported:
		// The module's own name: its readers, and (Box.LIMIT = 5) the
		// attribute's.
		mc.names[root] = true
		if attr != "" {
			mc.names[attr] = true
		}
	case b.attr == "" && attr != "":
		// A module the file imports: core.clamp = fast.
		mc.into = append(mc.into, intoRef{module: b.module, name: attr, line: where})
	case b.attr != "":
		// A name imported from a module (from .core import LIMITS;
		// LIMITS["high"] = 5), or a submodule (from . import core;
		// core.clamp = fast).
		mc.into = append(mc.into, intoRef{module: b.module, name: b.attr, attr: attr, line: where})
	case head:
		mc.unfollowed = append(mc.unfollowed, where)
	}
}

// pyBlockRe starts a compound statement whose body is a module's own
// statements: if, try, with, for, while and their other clauses.
var pyBlockRe = regexp.MustCompile(`^(?:if|elif|else|try|except|finally|with|for|while)\b.*:\s*(?:#.*)?$`)

// inModuleBlock says line n (1-based) is at column 0, or a statement of a
// module-level compound statement's body: the nearest line above it
// indented less opens the block.
func inModuleBlock(lines []string, n int) bool {
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	own := indent(lines[n-1])
	if own == 0 {
		return true
	}
	for i := n - 2; i >= 0 && i >= n-200; i-- {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if in := indent(l); in < own {
			return in == 0 && pyBlockRe.MatchString(strings.TrimSpace(l))
		}
	}
	return false
}

// assignedAnywhere says a module-level statement of lines assigns name.
func assignedAnywhere(lines []string, name string) bool {
	for _, l := range lines {
		if m := pyAssignRe.FindStringSubmatch(l); m != nil && l != "" && l[0] != ' ' && l[0] != '\t' {
			for _, n := range strings.Split(m[1], ",") {
				if strings.TrimSpace(n) == name {
					return true
				}
			}
		}
	}
	return false
}

func lineText(n int, text string) string { return lang.LineText(n, text) }

// SharedUsers are the other Python files of the head's tree whose
// functions may read what f's module-level changes bind, with the names
// each may read: the modules importing a changed name of f's module, and
// the modules f's statements assign into. unfollowed names the changed
// statements whose reach premise cannot follow.
func (l *pythonLang) SharedUsers(f diffparse.File, files []string, read func(string) []byte) (map[string][]string, []string) {
	mc := moduleChanges(f)
	users := l.UsersOf(f, mc.names, files, read)
	if len(mc.into) == 0 {
		return users, mc.unfollowed
	}
	byModule := map[string]string{}
	for _, rel := range files {
		if strings.HasSuffix(rel, ".py") {
			byModule[pyQualifier(rel)] = rel
		}
	}
	unfollowed := mc.unfollowed
	for _, r := range mc.into {
		if rel, ok := byModule[r.module+"."+r.name]; ok && r.attr != "" {
			addUser(users, rel, r.attr)
		} else if rel, ok := byModule[r.module]; ok {
			addUser(users, rel, r.name)
		} else if r.line != "" {
			// Into a module outside the tree (json.dumps = fast): what
			// reads it cannot be found.
			unfollowed = append(unfollowed, r.line)
		}
	}
	for rel := range users {
		sort.Strings(users[rel])
	}
	return users, unfollowed
}

// UsersOf are the Python files among files importing f's module, with the
// names each may read of names: the local name a from-import gives one,
// or ".NAME" read on the module.
func (*pythonLang) UsersOf(f diffparse.File, names map[string]bool, files []string, read func(string) []byte) map[string][]string {
	users := map[string][]string{}
	if len(names) == 0 {
		return users
	}
	self := pyQualifier(f.Path)
	last := self[strings.LastIndex(self, ".")+1:]
	for _, rel := range files {
		if rel == f.Path || !strings.HasSuffix(rel, ".py") {
			continue
		}
		src := read(rel)
		if src == nil || !strings.Contains(string(src), last) {
			continue
		}
		pkg := pyPackage(rel)
		for name, b := range pyImports(strings.Split(string(src), "\n"), pkg) {
			switch {
			case b.module == self && names[b.attr]:
				// from .consts import MAX_LEN [as LIMIT]
				addUser(users, rel, name)
			case b.attr == "" && b.module == self, b.module+"."+b.attr == self:
				// import mypkg.consts as c; from . import consts:
				// c.MAX_LEN.
				for n := range names {
					addUser(users, rel, "."+n)
				}
			}
		}
	}
	for rel := range users {
		sort.Strings(users[rel])
	}
	return users
}

// addUser adds names to what users[rel] may read, once each.
func addUser(users map[string][]string, rel string, names ...string) {
	for _, n := range names {
		if n != "" && !slices.Contains(users[rel], n) {
			users[rel] = append(users[rel], n)
		}
	}
}

// ChangesShared says f's module-level changes bind something other files
// may read, or change state premise cannot follow.
func (*pythonLang) ChangesShared(f diffparse.File) bool {
	mc := moduleChanges(f)
	return len(mc.names) > 0 || len(mc.into) > 0 || len(mc.unfollowed) > 0
}

// pyClassAttrRe is an assignment in a class body: LIMIT = 10, x: int = 0.
var pyClassAttrRe = regexp.MustCompile(`^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]|^([A-Za-z_]\w*)\s*:`)

// classReaders are the methods of each class of f whose own body the
// diff changes (lang.ClassReaders), and the classes so changed; a special
// method (__eq__, __len__, __bool__, __iter__) added or deleted changes
// how the class's objects compare, count, test and iterate.
func classReaders(f diffparse.File, head, base []diffparse.Decl) ([]diffparse.Symbol, map[string][]string, []string) {
	return lang.ClassReaders(f, head, base, lang.ClassBody{
		Field:  pyClassAttrRe,
		Silent: pySilent,
		Special: func(s diffparse.Symbol) bool {
			bare := lang.BareName(s.Local)
			return strings.HasPrefix(bare, "__") && strings.HasSuffix(bare, "__") && bare != "__init__"
		},
		Prefix: pyQualifier(f.Path),
	})
}

// pyStringLines gives, for each line inside a triple-quoted string (or
// beginning one, as a docstring does), the index of the line that opened
// it; -1 for the others.
func pyStringLines(lines []string) []int {
	out := make([]int, len(lines))
	opener := -1
	for i, l := range lines {
		n := strings.Count(l, `"""`) + strings.Count(l, "'''")
		t := strings.TrimSpace(l)
		switch {
		case opener >= 0:
			out[i] = opener
		case strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, "'''"):
			out[i] = i
		default:
			out[i] = -1
		}
		if n%2 == 1 {
			if opener >= 0 {
				opener = -1
			} else {
				opener = i
			}
		}
	}
	return out
}

// pySilent says line n of a class starting at line start is a comment or
// a line of a triple-quoted string (its docstring): an odd number of
// triple quotes before it on the class's lines, or one on its own.
func pySilent(lines []string, n, start int) bool {
	text := strings.TrimSpace(lines[n-1])
	if strings.HasPrefix(text, "#") || strings.HasPrefix(text, `"""`) || strings.HasPrefix(text, "'''") {
		return true
	}
	quotes := 0
	for i := max(start, 1); i < n; i++ {
		quotes += strings.Count(lines[i-1], `"""`) + strings.Count(lines[i-1], "'''")
	}
	return quotes%2 == 1
}

// isModuleImport says name is bound by an import of a module (import
// decimal), not of a name from one.
func isModuleImport(imports map[string]pyBinding, name string) bool {
	b, ok := imports[name]
	return ok && b.attr == ""
}

// quietCall says a module-level call changes nothing a function returns:
// logging's configuration, a warning issued.
func quietCall(module, attrs string) bool {
	return module == "logging" || module == "warnings" && strings.HasPrefix(attrs, ".warn")
}

// pyCodingRe is a coding declaration (PEP 263), on the first or second
// line.
var pyCodingRe = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// readOtherwise says why the interpreter would read src otherwise than
// premise, which parses it as UTF-8 text whose lines end at "\n": a coding
// declaration of another encoding (unicode_escape makes "\u000a" in what
// premise reads as a comment a line end; utf-7 hides code in "+...-"), or a
// carriage return not followed by "\n", which the interpreter takes for a
// line end where premise does not. "" when it reads as premise does.
func readOtherwise(src []byte) string {
	lines := strings.SplitN(string(src), "\n", 3)
	for _, l := range lines[:min(2, len(lines))] {
		if m := pyCodingRe.FindStringSubmatch(l); m != nil {
			switch enc := strings.ToLower(strings.ReplaceAll(m[1], "_", "-")); enc {
			case "utf-8", "utf8", "ascii", "us-ascii", "latin-1", "iso-8859-1", "iso8859-1", "latin1", "cp1252", "utf-8-sig":
			default:
				return "a coding declaration of " + m[1]
			}
		}
	}
	for i, c := range src {
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			return "a carriage return alone, which ends a line for the interpreter only"
		}
	}
	return ""
}
