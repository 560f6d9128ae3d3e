package gate

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A TypeScript module transpiled one file at a time cannot tell a type
// it imports from a value: esbuild keeps `import { Pattern } from
// './types/Pattern'` and `export { Pattern }` when nothing marks Pattern
// a type, and Node's ES loader then refuses the whole module ("does not
// provide an export named 'Pattern'"), where tsc, which reads the other
// file, elides both. markTypeImports reads the imported file, as tsc
// would, and marks each name the file re-exports that the other declares
// only as a type (`import { type Pattern }`), which esbuild then elides
// with its re-export (an import nothing re-exports esbuild drops when no
// value uses it). Only relative imports of the project's own TypeScript
// are read; a name the other file also declares as a value, or may
// re-export, is left alone.

// namedImportRe is an import of named bindings from a relative module: the
// list and the specifier.
var namedImportRe = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+\{([^}]*)\}[ \t\n]*from[ \t]*['"](\.\.?/[^'"]+)['"]`)

// markTypeImports is text, a TypeScript source at src, with the named
// imports of type-only declarations of the relative modules it imports
// marked `type`. The text keeps its lines.
func markTypeImports(src string, text []byte) []byte {
	// esbuild drops an import nothing uses as a value by itself: only a
	// name the file re-exports (export { Pattern }) keeps a type's import
	// alive, so only those are looked up.
	reexported := map[string]bool{}
	for _, m := range localExportRe.FindAllSubmatch(blockCommentRe.ReplaceAll(text, []byte(" ")), -1) {
		for _, item := range strings.Split(string(m[1]), ",") {
			if f := strings.Fields(item); len(f) > 0 && f[0] != "type" {
				reexported[f[0]] = true
			}
		}
	}
	if len(reexported) == 0 {
		return text
	}
	var out bytes.Buffer
	last := 0
	for _, m := range namedImportRe.FindAllSubmatchIndex(text, -1) {
		target := importedTS(src, string(text[m[4]:m[5]]))
		if target == nil {
			continue
		}
		list := text[m[2]:m[3]]
		marked := markList(list, func(name string) bool { return reexported[name] && typeOnly(target, name) })
		if bytes.Equal(marked, list) {
			continue
		}
		out.Write(text[last:m[2]])
		out.Write(marked)
		last = m[3]
	}
	if last == 0 {
		return text
	}
	out.Write(text[last:])
	return out.Bytes()
}

// markList is an import's list of names with `type ` before each whose
// imported name typeName says is a type.
func markList(list []byte, typeName func(string) bool) []byte {
	items := strings.Split(string(list), ",")
	for i, item := range items {
		f := strings.Fields(item)
		if len(f) == 0 || f[0] == "type" {
			continue
		}
		if typeName(f[0]) {
			lead := item[:len(item)-len(strings.TrimLeft(item, " \t\r\n"))]
			items[i] = lead + "type " + strings.TrimLeft(item, " \t\r\n")
		}
	}
	return []byte(strings.Join(items, ","))
}

// importedTS is the text of the TypeScript file a relative specifier of
// src names (./x, ./x.js, ./dir), nil when there is none.
func importedTS(src, spec string) []byte {
	base := filepath.Join(filepath.Dir(src), filepath.FromSlash(spec))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".js"), ".mjs")
	for _, cand := range []string{base + ".ts", base + ".tsx", base + ".d.ts", base + ".mts", filepath.Join(base, "index.ts")} {
		if info, err := os.Stat(cand); err != nil || !info.Mode().IsRegular() || info.Size() > maxTypeScan {
			continue
		}
		if b, err := os.ReadFile(cand); err == nil {
			return b
		}
	}
	return nil
}

// maxTypeScan bounds the size of a file read for its type declarations.
const maxTypeScan = 1 << 20

// typeOnly says whether text declares name only as a type: an exported
// type alias or interface, and no value of that name, no re-export list
// naming it, and no `export *` that might bring one.
func typeOnly(text []byte, name string) bool {
	// An identifier may hold $ (zod's $constructor, a type and a function
	// of one name), which \b does not border: the name is bounded by
	// what cannot continue an identifier.
	q := `(?:^|[^\w$])` + regexp.QuoteMeta(name) + `(?:$|[^\w$])`
	// Comments are no code (export /*@__NO_SIDE_EFFECTS__*/ function).
	text = blockCommentRe.ReplaceAll(text, []byte(" "))
	typ := regexp.MustCompile(`(?m)^[ \t]*export[ \t]+(declare[ \t]+)?(type|interface)[ \t]+` + regexp.QuoteMeta(name) + `(?:$|[^\w$])`)
	if !typ.Match(text) {
		return false
	}
	value := regexp.MustCompile(`(?m)^[ \t]*export[ \t]+(declare[ \t]+)?(default[ \t]+)?(const|let|var|function|async|class|abstract|enum|namespace|module)\b[^=\n(]*` + q)
	if value.Match(text) || exportStarRe.Match(text) {
		return false
	}
	for _, m := range exportListRe.FindAllSubmatch(text, -1) {
		if regexp.MustCompile(q).Match(m[1]) {
			return false
		}
	}
	return true
}

var (
	blockCommentRe = regexp.MustCompile(`(?s)/\*.*?\*/`)
	// localExportRe is an export list of the file's own bindings (no
	// from): export { Pattern, x as y }.
	localExportRe = regexp.MustCompile(`(?m)^[ \t]*export[ \t]*\{([^}]*)\}[ \t]*(?:;|$|\n)`)
	exportStarRe  = regexp.MustCompile(`(?m)^[ \t]*export[ \t]*\*`)
	exportListRe  = regexp.MustCompile(`(?m)^[ \t]*export[ \t]*\{([^}]*)\}`)
)
