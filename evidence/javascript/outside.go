package javascript

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// OutsideType is the TypeScript side of the engine's typer (evidence's
// outside.go): an argument of a kind its parameter's annotation at the
// merge-base rules out (an object where it says readonly T[], a string
// where it says number). Both versions may do anything there, as no
// typed caller passes it, and a refactor that reads a list without .map
// differs from the base only on such inputs. The base's annotation,
// never the head's: a patch that annotates a parameter anew must not
// thereby set its revealing inputs apart. JavaScript has no annotation
// and says nothing; null, undefined and the values premise encodes ($
// keys: NaN, functions, constructed objects) are never judged.
func (l *jsLang) OutsideType(tg lang.Target, args []any, _ map[string]any) string {
	sig := tg.BaseSig
	if l.lang != diffparse.LangTypeScript || sig == nil {
		return ""
	}
	if len(tg.Receivers) > 0 && len(args) > 0 {
		args = args[1:] // the receiver
	}
	for i, a := range args {
		if i >= len(sig.Params) {
			break
		}
		p := sig.Params[i]
		if info, _ := tg.Data.(*jsInfo); info != nil && len(info.interfaces[p.Name]) > 0 {
			if m := lacks(a, info.interfaces[p.Name]); m != "" {
				return fmt.Sprintf("`%s` is %s, which requires %s, and got %s", p.Name, strings.TrimSpace(p.Type), m, lang.Compact(a, 40))
			}
		}
		if class := builtinClass(p.Type); class != "" && !instanceLike(a) {
			return fmt.Sprintf("`%s` is %s, and got %s", p.Name, strings.TrimSpace(p.Type), lang.Compact(a, 40))
		}
		t, ok := jsTypeOf(strings.TrimSpace(p.Type))
		if p.Type == "" || !ok || admits(t, a) {
			continue
		}
		return fmt.Sprintf("`%s` is %s, and got %s", p.Name, strings.TrimSpace(p.Type), lang.Compact(a, 40))
	}
	return ""
}

// builtinClass is the class of JavaScript's own an annotation names
// (data: Uint8Array, when: Date | undefined, m: Map<string, number>), ""
// for any other: a value of such a class is an object of it, never a
// primitive or a plain array or object, which lack its members.
func builtinClass(annotation string) string {
	class := ""
	for _, p := range strings.Split(annotation, "|") {
		switch p = strings.TrimSpace(p); p {
		case "null", "undefined":
		default:
			if class != "" {
				return ""
			}
			class, _, _ = strings.Cut(p, "<")
			if !jsBuiltinClasses[class] {
				return ""
			}
		}
	}
	return class
}

// jsBuiltinClasses are classes of the language and of Node: a value of
// one is an object of it, never a primitive, plain array or plain object.
var jsBuiltinClasses = memberSet("Uint8Array Uint8ClampedArray Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array Float64Array BigInt64Array BigUint64Array ArrayBuffer SharedArrayBuffer DataView Date Map Set WeakMap WeakSet RegExp Promise Buffer")

// itemClass is the typed array class (or Buffer) an annotation names, ""
// for any other: premise's worker builds one from {"$class": NAME,
// "$items": [...]}.
func itemClass(annotation string) string {
	switch c := builtinClass(annotation); c {
	case "Uint8Array", "Int8Array", "Uint8ClampedArray", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array", "Buffer":
		return c
	}
	return ""
}

// itemValues are arrays of class: the empty one, one zero, a few bytes at
// their edges, and each list of numbers pool holds, made one.
func itemValues(class string, pool []any) []any {
	one := func(items []any) any { return map[string]any{"$class": class, "$items": items} }
	out := []any{one([]any{}), one([]any{0}), one([]any{1, 2, 3}), one([]any{255, 0, 128, 127})}
	for _, v := range pool {
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			continue
		}
		numbers := true
		for _, x := range l {
			switch x.(type) {
			case int, int64, float64, json.Number:
			default:
				numbers = false
			}
		}
		if numbers && len(out) < 12 {
			out = append(out, one(l))
		}
	}
	return out
}

// instanceLike says whether v may be an object of a class: null and
// undefined (judged by the annotation's own nullability elsewhere), and
// values premise encodes ($ keys), are not judged; a number, string,
// boolean, array or plain object is none.
func instanceLike(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool, int, int64, float64, json.Number, string, []any:
		return false
	case map[string]any:
		for k := range v {
			if strings.HasPrefix(k, "$") {
				return true
			}
		}
		return false
	}
	return true
}

// lacks is the first of an interface's required members that v, an
// array or a primitive, does not have ("" when it has them all, or is an
// object or null): TypeScript's types are structural, and a string is a
// Text that asks only for charCodeAt and length.
func lacks(v any, required []string) string {
	var has map[string]bool
	switch v.(type) {
	case []any:
		has = jsArrayMembers
	case string:
		has = jsStringMembers
	case int, int64, float64, json.Number:
		has = jsNumberMembers
	case bool:
		has = jsBooleanMembers
	case map[string]any:
		// A plain object lacking a member its interface requires is one
		// no typed caller builds; an object premise encodes ($ keys) is
		// not judged.
		for k := range v.(map[string]any) {
			if strings.HasPrefix(k, "$") {
				return ""
			}
		}
		has = map[string]bool{}
		for k := range v.(map[string]any) {
			has[k] = true
		}
	default:
		return ""
	}
	for _, m := range required {
		if !has[m] {
			return m
		}
	}
	return ""
}

func memberSet(names string) map[string]bool {
	out := map[string]bool{}
	for _, n := range strings.Fields(names) {
		out[n] = true
	}
	return out
}

// The members of JavaScript's arrays, strings, numbers and booleans.
var (
	jsCommonMembers  = " constructor toString valueOf toLocaleString hasOwnProperty isPrototypeOf propertyIsEnumerable"
	jsArrayMembers   = memberSet("length at concat copyWithin entries every fill filter find findIndex findLast findLastIndex flat flatMap forEach includes indexOf join keys lastIndexOf map pop push reduce reduceRight reverse shift slice some sort splice toReversed toSorted toSpliced unshift values with" + jsCommonMembers)
	jsStringMembers  = memberSet("length at charAt charCodeAt codePointAt concat endsWith includes indexOf lastIndexOf localeCompare match matchAll normalize padEnd padStart repeat replace replaceAll search slice split startsWith substr substring toLowerCase toUpperCase toLocaleLowerCase toLocaleUpperCase trim trimEnd trimStart" + jsCommonMembers)
	jsNumberMembers  = memberSet("toExponential toFixed toPrecision" + jsCommonMembers)
	jsBooleanMembers = memberSet(jsCommonMembers)
)

// admits says whether a row's value v is of t's kind, or cannot be told.
func admits(t lang.Type, v any) bool {
	if v == nil {
		return true
	}
	if m, ok := v.(map[string]any); ok {
		for k := range m {
			if strings.HasPrefix(k, "$") {
				return true // encoded by premise: its kind is not read here
			}
		}
	}
	switch v.(type) {
	case bool:
		return t.Kind == lang.KindBool || t.Kind == lang.KindAny
	case int, int64, float64, json.Number:
		return t.Kind == lang.KindInt || t.Kind == lang.KindFloat || t.Kind == lang.KindAny
	case string:
		return t.Kind == lang.KindStr || t.Kind == lang.KindAny
	case []any:
		// object and Record<string, unknown> take arrays too.
		return t.Kind == lang.KindList || t.Kind == lang.KindIntervals || t.Kind == lang.KindDict || t.Kind == lang.KindAny
	case map[string]any:
		return t.Kind == lang.KindDict || t.Kind == lang.KindAny
	}
	return true
}

// jsTypeNameRe is an annotation that is a bare type name (InternalResult).
var jsTypeNameRe = regexp.MustCompile(`^[A-Z][\w$]*$`)

// interfaceMembers are the members an interface the TypeScript file at
// file (src, in the base's tree) declares, or imports from a relative
// module of the base's tree, requires (those without a ?), with those of
// the interfaces it extends and through a type alias naming one
// (AnyConfig = Config<...>, Config extends ConfigStaticPart,
// ConfigGroupsPart<...>); nil when name is no such interface, or one
// of its parts is not an interface premise reads here (Partial<T>, a
// package's), whose members are not all known.
func (l *jsLang) interfaceMembers(src []byte, file, name string) []string {
	req, ok := l.membersOf(src, filepath.ToSlash(file), name, 0)
	if !ok {
		return nil
	}
	return req
}

// maxInterfaceDepth bounds the aliases and parents followed.
const maxInterfaceDepth = 6

// membersOf is interfaceMembers at a depth of aliases and parents; ok is
// false when some part is unknown.
func (l *jsLang) membersOf(src []byte, file, name string, depth int) ([]string, bool) {
	if depth > maxInterfaceDepth {
		return nil, false
	}
	if text, at, found := l.declaring(src, file, name); found {
		return l.declared(text, at, name, depth)
	}
	return nil, false
}

// declaring is the text of the file that declares name as an interface or
// a type alias (src itself, or a relative module it imports name from),
// that file's path, and whether one does.
func (l *jsLang) declaring(src []byte, file, name string) ([]byte, string, bool) {
	if declRe(name).Match(src) {
		return src, file, true
	}
	if l.base == "" {
		return nil, "", false
	}
	imp := regexp.MustCompile(`import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]*)['"]`)
	for _, m := range imp.FindAllSubmatch(src, -1) {
		names := false
		for _, item := range strings.Split(string(m[2]), ",") {
			f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(item), "type "))
			if len(f) > 0 && f[len(f)-1] == name && (len(f) == 1 || f[0] == name) {
				names = true
			}
		}
		if !names {
			continue
		}
		rel := strings.TrimSuffix(path.Join(path.Dir(file), string(m[3])), ".js")
		for _, cand := range []string{rel + ".ts", rel + ".d.ts", rel + ".mts", rel + "/index.ts", rel} {
			if strings.HasPrefix(cand, "..") {
				continue
			}
			text, err := os.ReadFile(filepath.Join(l.base, filepath.FromSlash(cand)))
			if err != nil || len(text) > lang.MaxTestFileBytes {
				continue
			}
			if declRe(name).Match(text) {
				return text, cand, true
			}
		}
	}
	return nil, "", false
}

// declRe finds name declared as an interface or a type alias.
func declRe(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(export\s+)?(declare\s+)?(interface|type)\s+` + regexp.QuoteMeta(name) + `\b`)
}

// declared reads name's declaration in text (the file at file): an
// interface's own members and its parents', or what a type alias names.
func (l *jsLang) declared(text []byte, file, name string, depth int) ([]string, bool) {
	loc := declRe(name).FindSubmatchIndex(text)
	rest := text[loc[1]:]
	rest = rest[len(rest)-len(skipGenerics(rest)):]
	if string(text[loc[6]:loc[7]]) == "type" {
		// type A = B<...>: B's members, for a B premise reads.
		eq := strings.TrimLeft(string(rest), " \t\r\n")
		if !strings.HasPrefix(eq, "=") {
			return nil, false
		}
		target := jsTypeRefRe.FindStringSubmatch(strings.TrimLeft(eq[1:], " \t\r\n"))
		if target == nil || jsUtilityTypes[target[1]] {
			return nil, false
		}
		after := strings.TrimLeft(skipGenerics([]byte(strings.TrimLeft(eq[1:], " \t\r\n")[len(target[1]):])), " \t\r\n")
		if after != "" && !strings.HasPrefix(after, ";") && !strings.HasPrefix(after, "\n") && after[0] != '/' && !jsNextDeclRe.MatchString(after) {
			return nil, false // A & B, A | B, A[]: not one interface
		}
		return l.membersOf(text, file, target[1], depth+1)
	}
	open := strings.IndexByte(string(rest), '{')
	if open < 0 {
		return nil, false
	}
	var req []string
	if heads := strings.TrimSpace(string(rest[:open])); heads != "" {
		parents, ok := strings.CutPrefix(heads, "extends")
		if !ok {
			return nil, false
		}
		for _, p := range splitTop(parents) {
			ref := jsTypeRefRe.FindStringSubmatch(strings.TrimSpace(p))
			if ref == nil || jsUtilityTypes[ref[1]] {
				return nil, false
			}
			more, ok := l.membersOf(text, file, ref[1], depth+1)
			if !ok {
				return nil, false
			}
			req = append(req, more...)
		}
	}
	body := rest[open+1:]
	for _, member := range topMembers(body) {
		if m := jsMemberRe.FindStringSubmatch(member); m != nil && m[3] == "" {
			req = append(req, m[2])
		}
	}
	return req, true
}

// jsTypeRefRe is a type's name at the start of a reference (Config<A, B>).
var jsTypeRefRe = regexp.MustCompile(`^([A-Za-z_$][\w$]*)\b`)

// jsNextDeclRe is the start of a declaration after a type alias written
// without a semicolon.
var jsNextDeclRe = regexp.MustCompile(`^\n|^(export|type|interface|const|let|function|class|import|declare)\b`)

// jsUtilityTypes are TypeScript's own generic types: their members are
// not written in the project.
var jsUtilityTypes = memberSet("Partial Required Readonly Record Pick Omit Exclude Extract NonNullable ReturnType InstanceType Parameters Awaited NoInfer Array ReadonlyArray Promise Map Set")

// skipGenerics is text past a leading list of type parameters (<A
// extends string, B>), which may hold "extends" of their own.
func skipGenerics(text []byte) string {
	s := strings.TrimLeft(string(text), " \t\r\n")
	if !strings.HasPrefix(s, "<") {
		return string(text)
	}
	depth := 0
	for i, c := range s {
		switch c {
		case '<':
			depth++
		case '>':
			if i > 0 && s[i-1] == '=' {
				continue // an arrow in a parameter's default
			}
			depth--
			if depth == 0 {
				return s[i+1:]
			}
		}
	}
	return ""
}

// splitTop splits a list at its commas outside brackets.
func splitTop(list string) []string {
	var out []string
	depth, from := 0, 0
	for i, c := range list {
		switch c {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, list[from:i])
				from = i + 1
			}
		}
	}
	return append(out, list[from:])
}

// topMembers are an interface body's members (text from just past its
// "{"), one string each, those of nested object types left inside
// theirs; comments are left out.
func topMembers(body []byte) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '/' && i+1 < len(body) && body[i+1] == '/':
			for i < len(body) && body[i] != '\n' {
				i++
			}
			i--
			continue
		case c == '/' && i+1 < len(body) && body[i+1] == '*':
			end := strings.Index(string(body[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += end + 3
			continue
		case c == '{' || c == '(' || c == '[':
			depth++
		case c == '}' || c == ')' || c == ']':
			if depth == 0 {
				return append(out, cur.String())
			}
			depth--
		case depth == 0 && (c == ';' || c == '\n' || c == ','):
			if strings.TrimSpace(cur.String()) != "" {
				out = append(out, cur.String())
			}
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return out
}

// jsMemberRe is an interface member at the start of a line: its name and
// whether it is optional (name?: T, name?(...)).
var jsMemberRe = regexp.MustCompile(`^\s*(readonly\s+)?([\w$]+)\s*(\?)?\s*[:(<]`)
