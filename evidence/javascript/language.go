package javascript

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/jssource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

func init() {
	for _, name := range []string{diffparse.LangJavaScript, diffparse.LangTypeScript} {
		lang.Register(func(d lang.Checkouts, perFunction int, probe bool) lang.Language {
			return &jsLang{lang: name, head: d.Head, base: d.Base, perFunction: perFunction, probe: probe}
		})
	}
}

// jsLang is JavaScript or TypeScript (issue 27): one implementation, two
// names, as diffparse and the gate's Node adapter call them. Its rows call
// a module's exports in premise's Node worker (gate/node.go): the calls
// the repository's tests make with literal arguments (Jest and Vitest
// tables, expect and assert calls, read at the base and the head), then
// each parameter over its type's pool with the function's constants and
// their neighbours, a method on the receivers the tests construct.
type jsLang struct {
	lang        string
	head, base  string
	perFunction int
	probe       bool
	tests       []*jssource.File
	read        bool
	// runTests runs the base's tests on a side: gate.RunNodeTests, or a
	// test's stand-in where what it must show (a test that fails now and
	// then) cannot be made to happen on demand.
	runTests func(context.Context, gate.NodeTests) gate.NodeTestRun
}

// jsInfo is what a JavaScript target's rows are made from.
type jsInfo struct {
	module    string // the module path as targets name it: src/lib/ranges
	harvested []jssource.Input
	// receiverOf is the receiver each harvested call's own receiver text
	// builds (new Interval(1, 2), default(3)).
	receiverOf map[string]any
	// builtIn names a class the tests build (new BN(2)) as the worker
	// builds it from the module (jsBuiltIn).
	builtIn func(string) string
	consts  []jssource.Constant
	guesses map[string]jssource.Guess
	// keys are the property names the function reads of each parameter
	// (an options object's maxAge), at either side.
	keys map[string][]string
	// numeric are the keys of them it reads as numbers (a point's x and
	// y), at either side.
	numeric map[string][]string
	// natives are values of the kinds JSON has no word for that the
	// function tests for, at either side (a symbol where it asks typeof
	// x === 'symbol').
	natives []any
	// defaulted are the parameters the function's body gives a value
	// of its own when none is passed (map || (map = new _ObjectMap())).
	defaulted map[string]bool
	// emptyTested are the parameters the function tests against null or
	// undefined, at either side: they are handed both, whatever their
	// declared type (a JSDoc {String} does not keep callers from passing
	// undefined).
	emptyTested map[string]bool
	// arrayTested are the parameters the function asks Array.isArray of,
	// at either side: an array is their typical value.
	arrayTested map[string]bool
	// chars are the characters a function reading a string's character
	// codes compares them with, and their neighbours, as strings.
	chars []string
	// interfaces are the parameters the base annotates with an
	// interface of the project's (result: InternalResult), with the
	// members it requires: a value lacking one is outside it.
	interfaces map[string][]string
	// protoKeys says the function, or the patch's lines, treat an
	// object's keys as Object.prototype's members may be among them
	// (protokeys.go): those names are inputs.
	protoKeys bool
}

func (l *jsLang) Name() string { return l.lang }

func (l *jsLang) Signatures(src []byte) map[string]*lang.Signature {
	all, err := diffparse.JSFuncParams(l.lang, src)
	if err != nil {
		return nil
	}
	// A parameter's type as the file's aliases resolve it: Range[] is
	// [number, number][] when the file says type Range = [number, number].
	file, _ := jssource.Parse("x."+map[bool]string{true: "ts", false: "js"}[l.lang == diffparse.LangTypeScript], src)
	if file != nil {
		defer file.Close()
	}
	out := map[string]*lang.Signature{}
	for name, ps := range all {
		sig := &lang.Signature{Language: l.lang}
		var guesses map[string]jssource.Guess
		if file != nil {
			guesses, _ = jssource.InferTypes(file, name)
		}
		for _, p := range ps {
			q := lang.Param{Name: p.Name, Type: p.Type, Default: p.Default}
			if _, ok := jsTypeOf(q.Type); q.Type != "" && ok {
				if g, found := guesses[p.Name]; found && g.Known() {
					if text := tsText(g); text != "" {
						q.Type = text
					}
				}
			}
			if p.Varargs {
				sig.Varargs = &q
				continue
			}
			sig.Params = append(sig.Params, q)
		}
		out[name] = sig
	}
	return out
}

// Infer reads a parameter's TypeScript annotation (or its default): a
// parameter with neither takes any value (JavaScript checks nothing).
func (l *jsLang) Infer(p lang.Param) lang.Type {
	if p.Type != "" {
		if t, ok := jsTypeOf(strings.TrimSpace(p.Type)); ok {
			t.From, t.Text = "annotation", p.Type
			return t
		}
	}
	if v, ok := l.DefaultValue(p); ok {
		switch v.(type) {
		case json.Number:
			return lang.Type{Kind: lang.KindInt, From: "default", Text: p.Default}
		case string:
			return lang.Type{Kind: lang.KindStr, From: "default", Text: p.Default}
		case bool:
			return lang.Type{Kind: lang.KindBool, From: "default", Text: p.Default}
		}
	}
	return lang.Type{Kind: lang.KindAny, From: "untyped", Text: p.Type}
}

// tsText writes a resolved type back as TypeScript for the kinds premise
// builds values for; "" for the others.
func tsText(g jssource.Guess) string {
	switch g.Kind {
	case jssource.KindNumber, jssource.KindString, jssource.KindBoolean:
		return g.Kind
	case jssource.KindArray:
		if g.Elem == nil {
			return ""
		}
		if e := tsText(*g.Elem); e != "" {
			return e + "[]"
		}
	case jssource.KindTuple:
		var parts []string
		for _, p := range g.Parts {
			t := tsText(p)
			if t == "" {
				return ""
			}
			parts = append(parts, t)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return ""
}

var jsPairRe = regexp.MustCompile(`^\[\s*number\s*,\s*number\s*\]$`)

var jsArrayRe = regexp.MustCompile(`^(?:Array<(.+)>|ReadonlyArray<(.+)>|(.+)\[\])$`)

// jsTypeOf maps a TypeScript type as written to a kind premise builds
// values for.
func jsTypeOf(s string) (lang.Type, bool) {
	nullable := false
	var parts []string
	for _, p := range strings.Split(s, "|") {
		switch p = strings.TrimSpace(p); p {
		case "null", "undefined":
			nullable = true
		default:
			parts = append(parts, p)
		}
	}
	if len(parts) != 1 {
		return lang.Type{}, false
	}
	// A readonly array or tuple (items: readonly T[]) takes the values
	// its mutable form does: read as any, a parameter would be sent
	// objects and numbers its type rules out, and a refactor that reads
	// one without .map differs on them from the base.
	s = strings.TrimSpace(strings.TrimPrefix(parts[0], "readonly "))
	t := lang.Type{Nullable: nullable}
	switch s {
	case "number":
		t.Kind = lang.KindInt
	case "string":
		t.Kind = lang.KindStr
	case "boolean":
		t.Kind = lang.KindBool
	case "any", "unknown":
		t.Kind = lang.KindAny
	case "object", "Record<string, unknown>", "Record<string, any>":
		t.Kind = lang.KindDict
	default:
		m := jsArrayRe.FindStringSubmatch(s)
		if m == nil {
			return lang.Type{}, false
		}
		elem := m[1] + m[2] + m[3]
		if jsPairRe.MatchString(strings.TrimSpace(elem)) {
			t.Kind = lang.KindIntervals // [start, end] pairs, as Python's list[tuple[int, int]]
			return t, true
		}
		e, ok := jsTypeOf(strings.Trim(elem, "()"))
		if !ok {
			e = lang.Type{Kind: lang.KindAny}
		}
		t.Kind, t.Elem = lang.KindList, &e
	}
	return t, true
}

func (*jsLang) ParamText(p lang.Param) string {
	if p.Type == "" {
		return p.Name
	}
	return p.Name + ": " + p.Type
}

var jsExts = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".jsx": true}

var tsExts = map[string]bool{".ts": true, ".mts": true, ".cts": true, ".tsx": true}

func (l *jsLang) Owns(p string) bool {
	ext := path.Ext(p)
	if l.lang == diffparse.LangTypeScript {
		return tsExts[ext] && !strings.Contains(path.Base(p), ".d.")
	}
	return jsExts[ext]
}

// Locals: src/lib/ranges.Interval.merge -> Interval.merge, merge.
func (*jsLang) Locals(symbol string) []string {
	local := symbol[strings.LastIndex(symbol, "/")+1:]
	if _, rest, ok := strings.Cut(local, "."); ok {
		local = rest
	}
	out := []string{local}
	if i := strings.LastIndex(local, "."); i >= 0 {
		out = append(out, local[i+1:])
	}
	return out
}

// Fits: JavaScript binds any number of arguments; keyword arguments it has
// none (the worker would pass them as one options object).
func (*jsLang) Fits(_ *lang.Signature, _ []any, kwargs map[string]any) string {
	for k := range kwargs {
		if !strings.HasPrefix(k, "$") {
			return "JavaScript calls take no keyword arguments"
		}
	}
	return ""
}

func (*jsLang) Typed() bool { return false }

func (*jsLang) DefaultValue(p lang.Param) (any, bool) {
	if p.Default == "" {
		return nil, false
	}
	v, ok := jssource.Value(p.Default)
	if !ok {
		return nil, false
	}
	// A default that builds an object (= new Options()) is not a value
	// a row can write without its module.
	return jssource.Named(v, func(string) string { return "" })
}

func (*jsLang) Public(name string) bool {
	return !strings.HasPrefix(name, "_") && !strings.HasPrefix(name, "#")
}

// DataReaders are the functions of f that read a module-level const,
// let or var whose statement the diff changed (a table of units, a
// limit), each as a modified symbol, with the names each reads and the
// string literals of the changed lines.
func (l *jsLang) DataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string) {
	if f.HeadSrc == nil || f.BaseSrc == nil {
		return nil, nil, nil
	}
	head, err := diffparse.Decls(l.lang, f.HeadSrc)
	if err != nil {
		return nil, nil, nil
	}
	base, err := diffparse.Decls(l.lang, f.BaseSrc)
	if err != nil {
		return nil, nil, nil
	}
	headLines, baseLines := strings.Split(string(f.HeadSrc), "\n"), strings.Split(string(f.BaseSrc), "\n")
	names := map[string]bool{}
	var changed []string
	// A class body's changed line (static LIMIT = 45) is data to its
	// methods: its values are their inputs.
	headFns, baseFns := lang.FunctionDecls(head), lang.FunctionDecls(base)
	for _, h := range f.Hunks {
		for _, ln := range h.Lines {
			switch {
			case ln.Kind == '+' && ln.New > 0 && lang.InDecl(head, ln.New) && !lang.InDecl(headFns, ln.New),
				ln.Kind == '-' && ln.Old > 0 && lang.InDecl(base, ln.Old) && !lang.InDecl(baseFns, ln.Old):
				changed = append(changed, ln.Text)
			case ln.Kind == '+' && ln.New > 0 && !lang.InDecl(head, ln.New):
				if n := jsAssigned(headLines, ln.New); n != "" {
					names[n] = true
					changed = append(changed, ln.Text)
				}
			case ln.Kind == '-' && ln.Old > 0 && !lang.InDecl(base, ln.Old):
				if n := jsAssigned(baseLines, ln.Old); n != "" {
					names[n] = true
					changed = append(changed, ln.Text)
				}
			}
		}
	}
	// A declaration the patch adds that takes the name of one of the
	// language's globals (class RangeError extends Error {}) changes what
	// every function of the module naming it gets: a caller's instanceof
	// RangeError no longer catches what they throw.
	inBaseDecl := map[string]bool{}
	for _, d := range base {
		inBaseDecl[d.Local] = true
	}
	for _, d := range head {
		if !strings.Contains(d.Local, ".") && !inBaseDecl[d.Local] && jsShadowable[d.Local] {
			names[d.Local] = true
		}
	}
	// LIMITS.high = 5 at module level changes LIMITS (shared.go).
	mutated, _ := jsModuleChanges(f, l.lang)
	for n := range mutated {
		names[n] = true
	}
	// A changed function kept in a module-level table (var formatFlags =
	// {YYYY: function (d) {...}}) is called through the table
	// (formatFlags[token](d)): the table is changed data.
	tables := map[string][]string{} // a table's name -> its changed functions
	for _, sym := range f.Symbols {
		if i := strings.LastIndexByte(sym.Local, '.'); i > 0 && sym.Change == "modified" && jsIdent.MatchString(sym.Local[:i]) && objectTable(headLines, sym.Local[:i]) {
			names[sym.Local[:i]] = true
			tables[sym.Local[:i]] = append(tables[sym.Local[:i]], sym.Name)
		}
	}
	module := strings.TrimSuffix(f.Path, path.Ext(f.Path))
	classes, classReads := jsClassReaders(f, head, base, module)
	if strictChanged(f, head, base) {
		// "use strict" added or removed at the top of a script changes
		// what every function of it does (arguments no longer alias
		// parameters, this is undefined in a plain call, an assignment to
		// an undeclared name throws) with none of their lines changed.
		for _, s := range allFunctions(f, head, base, module) {
			if _, dup := classReads[s.Name]; !dup {
				classes = append(classes, s)
				if classReads == nil {
					classReads = map[string][]string{}
				}
				classReads[s.Name] = []string{`"use strict"`}
			}
		}
	}
	if len(names) == 0 {
		return classes, classReads, jsDataLits(changed)
	}
	// A module-level declaration built from a changed one changed with it
	// (const parseFlags = {H: ["hour", twoDigitsOptional]}): the
	// functions reading it read the change.
	dataDependents(names, headLines, head)
	dataDependents(names, baseLines, base)
	out, reads := lang.ReadersOf(f, head, base, names, module, func(d diffparse.Decl) bool {
		return d.Kind == "function" || d.Kind == "method"
	})
	for _, c := range classes {
		if _, dup := reads[c.Name]; !dup {
			out = append(out, c)
			reads[c.Name] = classReads[c.Name]
		}
	}
	// A reader of a table reaches the table's changed functions: name
	// them, not the table.
	for r, ns := range reads {
		var named []string
		for _, n := range ns {
			if fns, ok := tables[n]; ok {
				named = append(named, fns...)
			} else {
				named = append(named, n)
			}
		}
		reads[r] = named
	}
	return out, reads, jsDataLits(changed)
}

// jsShadowable are the names of JavaScript's global objects a module's
// own declaration can shadow.
var jsShadowable = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError
		Object Array Number String Boolean Symbol BigInt Math JSON Date RegExp Map Set WeakMap WeakSet Promise Proxy Reflect
		parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI structuredClone
		Buffer URL URLSearchParams TextEncoder TextDecoder Intl setTimeout setInterval queueMicrotask`) {
		jsShadowable[n] = true
	}
}

// jsRegexLitRe is a regular expression literal where an expression
// starts (after an opening bracket, a comma, an operator or a return):
// its source and its flags.
var jsRegexLitRe = regexp.MustCompile(`(?m)(?:^|[\[(,=:!&|?{};]|\breturn)\s*/((?:[^/\\\[\n*]|\\.|\[(?:[^\]\\\n]|\\.)*\])(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])*)/([dgimsuvy]*)`)

// jsUnicodeEscRe is a JavaScript pattern's \uXXXX or \u{X...}, which
// Go's syntax writes \x{...}.
var jsUnicodeEscRe = regexp.MustCompile(`\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})`)

// jsNumLitRe is a number literal not part of a name: LIMIT = 45, 2.5.
var jsNumLitRe = regexp.MustCompile(`(?:^|[^\w.$])(-?\d+(?:\.\d+)?)\b`)

// jsDataLits are the string literals of changed lines, then their
// numbers as written.
func jsDataLits(changed []string) []string {
	text := strings.Join(changed, "\n")
	// A regular expression literal's source, first: a changed one's two
	// versions tell the texts only one matches (lang.Patterns), as a
	// pattern in a string does (ua-parser-js' table of /(quest( \d| pro)?)/i).
	var out []string
	for _, m := range jsRegexLitRe.FindAllStringSubmatch(text, 8) {
		src := jsUnicodeEscRe.ReplaceAllString(m[1], `\x{$1$2}`)
		if strings.Contains(m[2], "i") {
			src = "(?i)" + src
		}
		out = append(out, src)
	}
	for _, m := range jsStrLitRe.FindAllString(text, 16) {
		if v, ok := jssource.Value(m); ok {
			if s, ok := v.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	}
	for _, m := range jsNumLitRe.FindAllStringSubmatch(text, 16) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// jsIdent is a plain name.
var jsIdent = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// objectTable reports whether lines declare name as an object literal
// (var name = {, at any indentation: a UMD factory's are indented).
func objectTable(lines []string, name string) bool {
	re := regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let|var)\s+` + regexp.QuoteMeta(name) + `\s*(?::[^=]+)?=\s*\{`)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// maxDataRounds bounds how many module-level declarations deep
// dataDependents follows a change.
const maxDataRounds = 4

// dataDependents adds to names the module-level declarations of lines
// (outside decls) that name one of names, and those naming them in turn.
func dataDependents(names map[string]bool, lines []string, decls []diffparse.Decl) {
	for round := 0; round < maxDataRounds; round++ {
		var alts []string
		for n := range names {
			alts = append(alts, regexp.QuoteMeta(n))
		}
		sort.Strings(alts)
		re := regexp.MustCompile(`(?:^|[^.\w$])(?:` + strings.Join(alts, "|") + `)(?:[^\w$]|$)`)
		added := false
		for i, l := range lines {
			if lang.InDecl(decls, i+1) || !re.MatchString(l) {
				continue
			}
			if n := jsAssigned(lines, i+1); n != "" && !names[n] {
				names[n] = true
				added = true
			}
		}
		if !added {
			return
		}
	}
}

// jsAssignRe is a module-level declaration: export const LIMIT = ...
var jsAssignRe = regexp.MustCompile(`^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=`)

// jsStrLitRe is a one-line quoted string.
var jsStrLitRe = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`)

// jsAssigned is the name a module-level declaration holding line (1-based)
// binds: the statement starts at the nearest line above that begins in
// column 0 and does not close a bracket, or, for a line inside a top-level
// wrapper, at the nearest declaration above indented no deeper.
func jsAssigned(lines []string, line int) string {
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	at := 0
	if line-1 < len(lines) && line >= 1 {
		at = indent(lines[line-1])
	}
	for i := line - 1; i >= 0 && i >= line-maxStatementLines; i-- {
		l := lines[i]
		if t := strings.TrimLeft(l, " \t"); t != "" && at > 0 && indent(l) <= at && jsAssignRe.MatchString(t) {
			// A declaration inside a top-level wrapper (const dateTime =
			// (function () { var iso8601regex = ...; ... })()), whose
			// statements are the module's and indented.
			return jsAssignRe.FindStringSubmatch(t)[1]
		}
		if l == "" || l[0] == ' ' || l[0] == '\t' || strings.HasPrefix(l, "//") || strings.ContainsRune(")]}", rune(l[0])) {
			continue
		}
		if m := jsAssignRe.FindStringSubmatch(l); m != nil {
			return m[1]
		}
		return ""
	}
	return ""
}

// maxStatementLines bounds how far above a changed line jsAssigned looks
// for the declaration holding it: a UMD factory's table of patterns
// (ua-parser-js' defaultRegexes) runs to hundreds of lines.
const maxStatementLines = 5000

// jsPair is a changed file read at both sides.
type jsPair struct {
	head, base *jssource.File
	// baseSigs are the base's signatures, read once for the file's
	// methods (their building steps must be declared on both sides).
	baseSigs map[string]*lang.Signature
	// declared are the head's declarations by local name (a function,
	// a class), read once: a method whose owner is none of them belongs
	// to an object literal.
	declared map[string]bool
}

// owned says the head of f declares owner as a function or a class: a
// method of it runs on an object built from it, where a member of an
// object literal (var filters = {safe: function (str) {...}}) is called
// on the object itself, as a function is.
func (p *jsPair) owned(language string, src []byte, owner string) bool {
	if p.declared == nil {
		p.declared = map[string]bool{}
		decls, _ := diffparse.Decls(language, src)
		for _, d := range decls {
			if d.Kind == "function" || d.Kind == "class" || d.Kind == "method" {
				p.declared[d.Local] = true
			}
		}
	}
	return p.declared[owner]
}

func (l *jsLang) File(f diffparse.File) any {
	p := &jsPair{}
	if f.HeadSrc != nil {
		p.head, _ = jssource.Parse(f.Path, f.HeadSrc)
	}
	if f.BaseSrc != nil {
		p.base, _ = jssource.Parse(f.OldPath, f.BaseSrc)
	}
	return p
}

var jsNewRe = regexp.MustCompile(`^new\s+([A-Za-z_$][\w$]*)\s*\((.*)\)$`)

func (l *jsLang) Complete(tg *lang.Target, f diffparse.File, file any, sigs map[string]*lang.Signature) string {
	if lang.InTestPath(f, jsTestFileRe.MatchString) {
		return lang.InTestFile
	}
	pair, _ := file.(*jsPair)
	if pair == nil || pair.head == nil {
		return "its file could not be read"
	}
	if ts := l.typeScriptTwin(f.Path); ts != "" {
		// premise's copy runs the TypeScript's output in this file's
		// place (gate/node.go: a committed build beside its source is
		// what a patch to the source changes): a head that narrows the
		// JavaScript and adds a TypeScript twin of the old code would be
		// judged on the twin. Both files' functions bear one name: this
		// one is named by its file, so the twin's rows, which run the
		// twin's lines, cannot be taken for its own.
		tg.Sym.Name += " in " + f.Path
		return "premise runs " + ts + " in its place (the TypeScript beside it is transpiled over it), so its own code is not what rows call"
	}
	// The function's head text, and with it the lines the patch removed
	// from its file: what its parameters' values are read from.
	body := lang.Span(f.HeadSrc, tg.Sym.Start, tg.Sym.End)
	both := body + "\n" + removedText(f)
	tg.Sig = jsSpreadSig(tg.Sig, body)
	tg.BaseSig = jsSpreadSig(tg.BaseSig, tg.BaseText)
	local := tg.Sym.Local
	// hidden: a method of a class the module does not export, reached
	// only on the objects its exports build (bigInt(3) is a BigInteger).
	hidden := false
	// nested: the bare name of a function a module-level function
	// declares in its body, called where the closures the module's
	// exports hold reach it.
	nested := ""
	// A function its module exports only under another name
	// (exports.parse = querystring, export {f as g}, Long.fromString =
	// fromString beside export default Long) is called by that name.
	exportedAs := jsExportedAs(f.HeadSrc, local)
	if exportedAs == "" && !jsExported(f.HeadSrc, local) {
		if f.BaseSrc != nil && (jsExportedAs(f.BaseSrc, local) != "" || jsExported(f.BaseSrc, local)) {
			// set-cookie-parser's parseString, exported by the fix:
			// taken back, every caller of the export fails.
			return lang.Unexported + ": every caller of the export now fails"
		}
		switch {
		case !strings.Contains(local, "."):
			// A function the module keeps to itself is called where
			// its exports reach it: the worker finds it in the scope
			// they close over (node_worker.mjs, privateScopes).
		case tg.Sym.Kind == "function" && jsNested(f, local):
			// A function a module-level function declares (object-path's
			// factory declares getShallowProperty): the worker finds it
			// by its own name in the scope the exports' closures hold.
			nested = local[strings.LastIndex(local, ".")+1:]
		case tg.Sym.Kind != "method":
			return "not exported: premise's worker calls what a module exports"
		default:
			hidden = true
		}
	}
	info := &jsInfo{module: strings.TrimSuffix(tg.Sym.Name, "."+local)}
	info.builtIn = jsBuiltIn(info.module, f.HeadSrc)
	tg.Data = info
	// A module whose default export (module.exports itself) is the
	// function or its class is called through "default", as the worker
	// names it.
	exported := local
	if head, rest, ok := strings.Cut(local, "."); ok {
		exported = head
		if jsDefaultOnly(f.HeadSrc, head) {
			exported = "default"
			tg.Call = info.module + ".default." + rest
		}
	} else if jsDefaultOnly(f.HeadSrc, local) {
		exported = "default"
		tg.Call = info.module + ".default"
	} else if exportedAs != "" {
		exported = exportedAs
		tg.Call = info.module + "." + exportedAs
	} else if alias := jsHungAlias(f.HeadSrc, local); alias != "" {
		// Reached only under the name the factory's object gives it
		// (Papa.unparse = JsonToCsv).
		exported = alias
		tg.Call = info.module + "." + alias
	}
	if nested != "" {
		exported = nested
		tg.Call = info.module + "." + nested
	}
	if tg.Sym.Kind == "method" && !hidden && nested == "" && !staticDecl.MatchString(tg.HeadText) && staticTwin(f.HeadSrc, local) {
		// The class has a static member of the method's name (a
		// factory, Link.parse = function (v) { return new
		// Link().parse(v) }): the worker would find that one first.
		call := tg.Call
		if call == "" {
			call = tg.Sym.Name
		}
		i := strings.LastIndex(call, ".")
		tg.Call = call[:i] + ".prototype" + call[i:]
	}
	info.natives = nativeValues(both)
	info.defaulted = defaultedParams(body, tg.Sig)
	info.protoKeys = protoKeyed(body, f)
	info.emptyTested = emptyTestedParams(both, tg.Sig)
	info.arrayTested = paramsMatching(both, tg.Sig, func(q string) string {
		return `\bArray\s*\.\s*isArray\s*\(\s*` + q + `\s*\)`
	})
	if l.lang == diffparse.LangTypeScript && tg.BaseSig != nil && f.BaseSrc != nil {
		baseFile := f.OldPath
		if baseFile == "" {
			baseFile = f.Path
		}
		info.interfaces = map[string][]string{}
		for _, p := range tg.BaseSig.Params {
			if t := strings.TrimSpace(p.Type); jsTypeNameRe.MatchString(t) {
				if req := l.interfaceMembers(f.BaseSrc, baseFile, t); len(req) > 0 {
					info.interfaces[p.Name] = req
				}
			}
		}
	}
	info.chars = charCodeStrings(both, f.HeadSrc, f.BaseSrc)
	if tg.Sym.Change == "modified" {
		// A pattern the patch changed in the function's own lines (URI.js'
		// /^(https?|ftp|wss?)?:+[/\\]*/i losing its +): the texts its two
		// versions treat apart are inputs, as a changed pattern of module
		// data is its readers'.
		if lits := jsDataLits(changedLinesIn(f, tg.Sym.Start, tg.Sym.End)); len(lang.Patterns(lits, 4)) > 1 {
			tg.DataLits = append(tg.DataLits, lits...)
		}
	}
	info.harvested = jssource.Harvest(pair.head, local, l.testFiles(), maxJSHarvest)
	info.guesses, _ = jssource.InferTypes(pair.head, local)
	seen := map[string]bool{}
	info.keys, info.numeric = map[string][]string{}, map[string][]string{}
	for _, src := range []*jssource.File{pair.base, pair.head} {
		if src == nil {
			continue
		}
		keys, _ := jssource.KeysRead(src, local)
		numeric, _ := jssource.NumericKeys(src, local)
		addKeys(info.keys, keys)
		addKeys(info.numeric, numeric)
		cs, _ := jssource.Constants(src, local)
		for _, c := range cs {
			if k := c.Value + "\x00" + c.Op + c.Operand; !seen[k] {
				seen[k] = true
				info.consts = append(info.consts, c)
			}
		}
	}
	if top, _, ok := strings.Cut(local, "."); ok && tg.Sym.Kind == "method" && !hidden {
		// A member of an object literal the module exports (nunjucks'
		// filters.safe, module.exports = filters): called on that
		// object, as the worker finds it, with no receiver of its own.
		// Neither its object nor the name it hangs from is a function
		// or a class the module declares.
		owner := local[:strings.LastIndex(local, ".")]
		if !pair.owned(l.lang, f.HeadSrc, owner) && !pair.owned(l.lang, f.HeadSrc, top) {
			tg.Sym.Kind = "function"
		}
	}
	if class, ok := strings.CutSuffix(local, ".constructor"); ok && tg.Sym.Kind == "method" && !strings.Contains(class, ".") && !hidden {
		// A changed constructor: its rows build the object, new
		// Frame(parent, isolateWrites), and the object built (its
		// class and own fields) is the outcome. No receiver is needed.
		tg.Call = jsCtor(info.module, class, exported)
		tg.Sym.Kind = "function"
	}
	if tg.Sym.Kind == "method" && jsStaticMethod(body, local[strings.LastIndex(local, ".")+1:]) {
		// A static method (luxon's Formatter.parseFormat) is called on
		// its class, as a function is, with no receiver of its own.
		tg.Sym.Kind = "function"
	}
	if tg.Sym.Kind != "method" || !strings.Contains(local, ".") {
		return ""
	}
	// A method: its rows run on the objects the tests construct.
	class := local[:strings.LastIndex(local, ".")]
	info.receiverOf = map[string]any{}
	for _, in := range info.harvested {
		if _, seen := info.receiverOf[in.Receiver]; seen {
			continue
		}
		var recv map[string]any
		if m := jsNewRe.FindStringSubmatch(in.Receiver); m != nil && m[1] == class && !hidden {
			if args, ok := jsArgs(m[2], info.builtIn); ok {
				recv = map[string]any{"$new": jsCtor(info.module, class, exported), "$args": args}
			}
		} else if in.Built != nil && (in.Built.Module != "" || jsBuilds(f.HeadSrc, in.Built.Factory)) {
			// Built by what the module exports (bigInt(3).modInv(11),
			// z.string().datetime({ offset: true }).parse(...)): the
			// worker calls the method the object has by that name.
			recv = jsBuiltReceiver(info, in.Built)
		}
		if recv != nil {
			info.receiverOf[in.Receiver] = recv
			tg.Receivers = append(tg.Receivers, recv)
		}
	}
	if hidden {
		if len(tg.Receivers) == 0 {
			return "not exported: premise's worker calls what a module exports, and no test calls it on an object an export builds"
		}
		return ""
	}
	if len(tg.Receivers) == 0 {
		// The tests build their objects apart from the method's calls
		// (const s = new SemVer('1.2.3'); s.inc(...)): any literal
		// construction of the class, in the tests or the module, builds
		// one.
		for _, src := range jssource.NewCalls(append(l.testFiles(), pair.head), class, lang.MaxReceivers) {
			if args, ok := jsArgsOf(src, info.builtIn); ok {
				tg.Receivers = append(tg.Receivers, map[string]any{"$new": jsCtor(info.module, class, exported), "$args": args})
			}
		}
	}
	if len(tg.Receivers) == 0 {
		// The tests build their objects through the class's static
		// factories only (luxon: Interval.fromISO("2020-01-01/..."),
		// never new Interval(...)): those calls build one.
		statics := jsStaticNames(f.HeadSrc)
		for _, c := range jssource.FactoryCalls(append(l.testFiles(), pair.head), class, statics, lang.MaxReceivers) {
			if args, ok := jsArgsOf(c.Args, info.builtIn); ok {
				tg.Receivers = append(tg.Receivers, map[string]any{"$new": jsCtor(info.module, class, exported) + "." + c.Method, "$args": args})
			}
		}
	}
	if len(tg.Receivers) == 0 {
		// Built only inside another class's constructor, from that
		// constructor's parameters (croner's Cron builds new
		// CronPattern(pattern, ...)): the tests' literal constructions
		// of the outer class give the arguments it forwards. Read from
		// the merge-base's sources of the module's directory.
		for _, fw := range jssource.ForwardedNews(l.baseSources(path.Dir(f.Path)), class, 4) {
			outers := jssource.NewCalls(l.testFiles(), fw.Outer, lang.MaxReceivers)
			if !slices.ContainsFunc(fw.Args, func(k int) bool { return k >= 0 }) {
				outers = [][]string{nil} // literals alone: one object
			}
			for _, src := range outers {
				outer, ok := jsArgsOf(src, info.builtIn)
				if !ok || len(tg.Receivers) >= lang.MaxReceivers {
					continue
				}
				args := make([]any, len(fw.Args))
				for i, k := range fw.Args {
					args[i] = jsUndefined
					if k >= 0 && k < len(outer) {
						args[i] = outer[k]
					} else if v, ok := jssource.Value(fw.Literal[i]); ok && fw.Literal[i] != "" {
						if v, ok = jssource.Named(v, info.builtIn); !ok {
							continue
						}
						args[i] = v
					}
				}
				tg.Receivers = append(tg.Receivers, map[string]any{"$new": jsCtor(info.module, class, exported), "$args": args})
			}
		}
	}
	if len(tg.Receivers) == 0 {
		// No test builds one: the constructor's own parameters build a
		// few, where each says what it takes (a type, a default), and
		// a class with no constructor is built as its callers build it.
		tg.Receivers = l.constructed(class, jsCtor(info.module, class, exported), sigs, l.literals(info, tg.DataLits), pair.head)
	}
	if len(tg.Receivers) == 0 {
		if l.probe {
			return ""
		}
		return "a method: no constructor call of its class in the tests to build a receiver from"
	}
	if f.BaseSrc != nil {
		// Objects built by a sequence of the class's own calls take
		// turns with the rest right after the first.
		if pair.baseSigs == nil {
			pair.baseSigs = l.Signatures(f.BaseSrc)
		}
		if seqs := l.sequenceReceivers(class, sigs, pair.baseSigs, tg.Receivers, l.literals(info, tg.DataLits)); len(seqs) > 0 {
			tg.Receivers = append(tg.Receivers[:1:1], lang.Interleave([][]any{seqs, tg.Receivers[1:]})...)
		}
	}
	return ""
}

// maxConstructed bounds the receivers built from a constructor's
// parameters.
const maxConstructed = 3

// constructed are receivers of class built from its constructor's
// parameters: the i-th of each one's values (its default first, then its
// type's pool), up to maxConstructed; new Class() for a class declaring
// no constructor. A parameter whose type is a function (a stream's data
// callback: new DecodeUTF8(ondata)) gets premise's callback, which notes
// what it is handed. None when a parameter says neither its type nor a
// default: junk in a constructor is no object a caller builds.
func (l *jsLang) constructed(class, ctor string, sigs map[string]*lang.Signature, lits []string, src *jssource.File) []any {
	if sigs[class] == nil && !slices.ContainsFunc(slices.Collect(maps.Keys(sigs)), func(k string) bool { return strings.HasPrefix(k, class+".") }) {
		return nil
	}
	sig := sigs[class+".constructor"]
	if sig == nil {
		return []any{map[string]any{"$new": ctor, "$args": []any{}}}
	}
	pools := make([][]any, len(sig.Params))
	var guesses map[string]jssource.Guess // the constructor's, read once when needed
	for i, p := range sig.Params {
		if v, ok := l.DefaultValue(p); ok {
			pools[i] = append(pools[i], v)
		}
		if t := l.Infer(p); t.Kind != lang.KindUnknown && t.Kind != lang.KindAny {
			pools[i] = append(pools[i], lang.Pool(t, lits)...)
		}
		if len(pools[i]) == 0 && src != nil {
			if guesses == nil {
				guesses, _ = jssource.InferTypes(src, class+".constructor")
				if guesses == nil {
					guesses = map[string]jssource.Guess{}
				}
			}
			if guesses[p.Name].Kind == jssource.KindFunction {
				pools[i] = append(pools[i], jsCallback)
			}
		}
		if len(pools[i]) == 0 {
			return nil
		}
	}
	var out []any
	for k := 0; k < maxConstructed; k++ {
		args := make([]any, len(pools))
		for i, pool := range pools {
			args[i] = pool[k%len(pool)]
		}
		out = append(out, map[string]any{"$new": ctor, "$args": args})
	}
	return out
}

// jsStaticRe finds a class's static methods (not its getters or setters).
var jsStaticRe = regexp.MustCompile(`(?m)^\s*(?:(?:public|private|protected|readonly|override|abstract)\s+)*static\s+(?:async\s+)?(?:\*\s*)?([A-Za-z_$][\w$]*)\s*[(<]`)

// jsStaticMethod says whether a method's span declares it static.
func jsStaticMethod(span, name string) bool {
	for _, m := range jsStaticRe.FindAllStringSubmatchIndex(span, -1) {
		if span[m[2]:m[3]] == name && !strings.Contains(span[:m[0]], "{") {
			return true
		}
	}
	return false
}

// jsStaticNames are the static methods a module's classes declare.
func jsStaticNames(src []byte) []string {
	var out []string
	for _, m := range jsStaticRe.FindAllSubmatch(src, -1) {
		if n := string(m[1]); n != "get" && n != "set" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// jsCtor names a class's constructor as the worker reaches it: through
// the module's default export when that is the class.
func jsCtor(module, class, exported string) string {
	if exported == "default" {
		return module + ".default"
	}
	return module + "." + class
}

// jsExported says whether a module's text exports local's function or
// class (ES export or CommonJS).
func jsExported(src []byte, local string) bool {
	name := local
	if i := strings.Index(local, "."); i >= 0 {
		name = local[:i] // a method: its class is exported
	}
	text := jsExportText(src)
	q := regexp.QuoteMeta(name)
	for _, re := range []string{
		`export\s+(default\s+)?(async\s+)?(function\*?|class|const|let|var)\s+` + q + `\b`,
		`export\s*\{[^}]*\b` + q + `\b[^}]*\}`,
		`export\s+default\s+` + q + `\b`,
		`module\.exports\s*=\s*` + q + `\b`,
		`module\.exports\s*=\s*(async\s+)?(function\*?|class)\s+` + q + `\b`,
		`module\.exports\s*=\s*\{[^}]*\b` + q + `\b`,
		`(module\.)?exports\.` + q + `\s*=`,
	} {
		if regexp.MustCompile(re).MatchString(text) {
			return true
		}
	}
	if jsFactory(text) {
		// A UMD or CommonJS factory (module.exports = factory(), or a
		// name bound to a called function expression): what it returns
		// is the module's export, a function by its name or an object
		// of them.
		for _, re := range []string{
			`return\s+function\s+` + q + `\s*\(`,
			`return\s+` + q + `\s*;?\s*\n\s*\}`,
			`return\s*\{[^}]*\b` + q + `\b[^}]*\}`,
		} {
			if regexp.MustCompile(re).MatchString(text) {
				return true
			}
		}
	}
	return name == "default" || jsHungAlias(src, local) != ""
}

// jsExportedAs is the path, from the module's exports, under which a
// module exports the function name only under other names: a CommonJS
// export's property holding it (exports.parse = querystring,
// module.exports = {parse: querystring}), an ES export renaming it
// (export {querystring as parse}), or a property of the module's default
// or named export it is assigned to (Long.fromString = fromString beside
// export default Long: "default.fromString"). "" when the module exports
// it under its own name, or not at all; a method (Class.m) is its
// class's business.
func jsExportedAs(src []byte, name string) string {
	if name == "" || strings.Contains(name, ".") {
		return ""
	}
	text := jsExportText(src)
	q := regexp.QuoteMeta(name)
	alias := ""
	for _, m := range jsESExportListRe.FindAllStringSubmatch(text, -1) {
		for _, item := range strings.Split(m[1], ",") {
			f := strings.Fields(item)
			switch {
			case len(f) == 1 && f[0] == name, len(f) == 3 && f[0] == name && f[2] == name:
				return "" // exported by its own name
			case len(f) == 3 && f[0] == name && f[1] == "as" && alias == "":
				alias = f[2]
			}
		}
	}
	for _, re := range []string{
		`export\s+(default\s+)?(async\s+)?(function\*?|class|const|let|var)\s+` + q + ``,
		`(module\.)?exports\.` + q + `\s*=`,
		`module\.exports\s*=\s*\{[^}]*[{,]\s*` + q + `\s*[,}]`,
		`module\.exports\s*=\s*` + q + ``,
		`export\s+default\s+` + q + ``,
	} {
		if regexp.MustCompile(re).MatchString(text) {
			return ""
		}
	}
	if alias != "" {
		return alias
	}
	if m := regexp.MustCompile(`(?m)^\s*(?:module\.)?exports\.([\w$]+)\s*=\s*` + q + `\s*;?\s*$`).FindStringSubmatch(text); m != nil {
		return m[1]
	}
	if m := regexp.MustCompile(`module\.exports\s*=\s*\{[^}]*?([\w$]+)\s*:\s*` + q + `\s*[,}]`).FindStringSubmatch(text); m != nil {
		return m[1]
	}
	// A property of an exported object or function: Long.fromString =
	// fromString, where the module exports Long. A factory's returned
	// object (return Papa) is the module's exports itself: jsHungAlias.
	if jsFactory(text) {
		return ""
	}
	for _, hung := range regexp.MustCompile(`(?m)^\s*([\w$]+)\.([\w$]+)\s*=\s*`+q+`\s*;?\s*$`).FindAllStringSubmatch(text, -1) {
		obj, prop := hung[1], hung[2]
		if obj == "exports" || obj == "module" {
			continue
		}
		o := regexp.QuoteMeta(obj)
		if regexp.MustCompile(`(?m)(export\s+default\s+` + o + `\s*;?\s*$|module\.exports\s*=\s*` + o + `\s*;?\s*$)`).MatchString(text) {
			return "default." + prop
		}
		if jsExported(src, obj) && jsExportedAs(src, obj) == "" {
			return obj + "." + prop
		}
	}
	// A name the module binds to the function and exports (fast-diff: var
	// diff = diff_main; ... module.exports = diff): the function is that
	// export.
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:var|let|const)\s+([\w$]+)\s*=\s*`+q+`\s*;?\s*$`).FindAllStringSubmatch(text, -1) {
		bound := m[1]
		if bound == name {
			continue
		}
		b := regexp.QuoteMeta(bound)
		if regexp.MustCompile(`(?m)(export\s+default\s+` + b + `\s*;?\s*$|module\.exports\s*=\s*` + b + `\s*;?\s*$)`).MatchString(text) {
			return "default"
		}
		if jsExported(src, bound) && jsExportedAs(src, bound) == "" {
			return bound
		}
	}
	return ""
}

// jsESExportListRe is an ES export list, export {a, b as c}.
var jsESExportListRe = regexp.MustCompile(`export\s*\{([^}]*)\}`)

// jsHungAlias is the name under which a UMD or CommonJS factory's
// returned object hangs the function name, when that is another name
// (var Papa = {}; Papa.unparse = JsonToCsv; ... return Papa): its users
// call it as the export's property, never by its own name. "" when the
// module does not.
func jsHungAlias(src []byte, name string) string {
	text := jsExportText(src)
	if !jsFactory(text) {
		return ""
	}
	q := regexp.QuoteMeta(name)
	for _, hung := range regexp.MustCompile(`(?m)^\s*([\w$]+)\.([\w$]+)\s*=\s*`+q+`\s*;?\s*$`).FindAllStringSubmatch(text, -1) {
		obj, prop := hung[1], hung[2]
		if prop == name {
			continue
		}
		if regexp.MustCompile(`return\s+` + regexp.QuoteMeta(obj) + `\s*;?\s*\n\s*\}`).MatchString(text) {
			return prop
		}
	}
	return ""
}

// jsFactoryRe is a module whose exports a called factory returns (not
// another module's, through require).
var jsFactoryRe = regexp.MustCompile(`module\.exports\s*=\s*([\w$]+)\s*\(`)

// jsExportedNameRe is a module whose exports are a name it binds
// (module.exports = functions).
var jsExportedNameRe = regexp.MustCompile(`module\.exports\s*=\s*([\w$]+)\s*;?\s*$`)

// jsFactory says whether a module's exports are what a function returns:
// a called factory (module.exports = factory(...), not require), or a name
// bound to a called function expression (const functions = (() => {
// ... return {sum, contains}; })(); module.exports = functions, jsonata's
// shape).
func jsFactory(text string) bool {
	if m := jsFactoryRe.FindStringSubmatch(text); m != nil && m[1] != "require" {
		return true
	}
	for _, m := range regexp.MustCompile(`(?m)`+jsExportedNameRe.String()).FindAllStringSubmatch(text, -1) {
		if regexp.MustCompile(`(?:const|let|var)\s+` + regexp.QuoteMeta(m[1]) + `\s*=\s*\(\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)`).MatchString(text) {
			return true
		}
	}
	return false
}

// jsExportBracketRe is an export written with brackets: module["exports"],
// exports['parse'].
var jsExportBracketRe = regexp.MustCompile(`\b(module|exports)\[\s*["']([\w$]+)["']\s*\]`)

// jsExportText is a module's text with its exports written with brackets
// (module["exports"] = Fraction, as minifier-safe UMD wrappers write
// them) in dotted form, as the export patterns read them.
func jsExportText(src []byte) string {
	return jsExportBracketRe.ReplaceAllString(string(src), "$1.$2")
}

// jsDefaultOnly says whether name reaches the module's users only as its
// default export (export default, module.exports = name), not by a name
// of its own.
func jsDefaultOnly(src []byte, name string) bool {
	text := jsExportText(src)
	q := regexp.QuoteMeta(name)
	def := false
	for _, re := range []string{
		`export\s+default\s+(async\s+)?(function\*?|class)\s+` + q + `\b`,
		`export\s+default\s+` + q + `\s*;?\s*$`,
		`module\.exports\s*=\s*(async\s+)?(function\*?|class)\s+` + q + `\b`,
		`module\.exports\s*=\s*` + q + `\s*;?\s*$`,
	} {
		if regexp.MustCompile(`(?m)` + re).MatchString(text) {
			def = true
		}
	}
	if !def && jsFactory(text) && regexp.MustCompile(`return\s+`+q+`\s*;?\s*\n\s*\}`).MatchString(text) {
		// A UMD or CommonJS factory whose exports are the object it
		// builds and returns last (json-logic-js: var jsonLogic = {};
		// ... return jsonLogic;): jsonLogic.apply is the export's apply.
		def = true
	}
	if !def {
		return false
	}
	for _, re := range []string{
		`export\s+(async\s+)?(function\*?|class|const|let|var)\s+` + q + `\b`,
		`export\s*\{[^}]*\b` + q + `\b[^}]*\}`,
		`(module\.)?exports\.` + q + `\s*=`,
		`module\.exports\.` + q + `\s*=`,
	} {
		if regexp.MustCompile(re).MatchString(text) {
			return false // a name of its own too
		}
	}
	return true
}

// jsLengthRe is a name's length as JavaScript reads it, xs.length: the
// seam's comparisons read it as len(xs).
var jsLengthRe = regexp.MustCompile(`(^|[^\w$.])([A-Za-z_$][\w$]*)\.length\b`)

// jsLengths is text with each name's length written len(name), as the
// seam's comparisons read a length.
func jsLengths(text string) string { return jsLengthRe.ReplaceAllString(text, "${1}len($2)") }

// jsBuiltReceiver is a receiver a test built by calling what the module
// exports, then the object's own methods ($then); nil when an argument is
// no value a row can write.
func jsBuiltReceiver(info *jsInfo, b *jssource.Built) map[string]any {
	args, ok := jsArgsOf(b.Args, info.builtIn)
	if !ok {
		return nil
	}
	module := info.module
	if b.Module != "" {
		module = b.Module
	}
	recv := map[string]any{"$new": module + "." + b.Factory, "$args": args}
	var then []any
	for _, st := range b.Then {
		a, ok := jsArgsOf(st.Args, info.builtIn)
		if !ok || st.Method == "constructor" {
			return nil
		}
		then = append(then, map[string]any{"$call": st.Method, "$args": a})
	}
	if len(then) > 0 {
		recv["$chain"] = then
	}
	return recv
}

// jsBuilds says whether the module's head exports name as a function the
// worker can call to build an object: "default" when module.exports or
// export default is one.
func jsBuilds(src []byte, name string) bool {
	if name != "default" {
		return jsExported(src, name) || jsHungAlias(src, name) != ""
	}
	text := jsExportText(src)
	return regexp.MustCompile(`(?m)(^|[^.\w$])module\.exports\s*=\s*[\w$(]|export\s+default\s`).MatchString(text) &&
		!regexp.MustCompile(`(?m)(^|[^.\w$])module\.exports\s*=\s*\{`).MatchString(text)
}

// jsArgs reads a call's literal arguments as Harvest writes them, an
// object of the module's own class (new BN(2)) named by builtIn.
func jsArgs(text string, builtIn func(string) string) ([]any, bool) {
	if strings.TrimSpace(text) == "" {
		return []any{}, true
	}
	v, ok := jssource.Value("[" + text + "]")
	if !ok {
		return nil, false
	}
	if v, ok = jssource.Named(v, builtIn); !ok {
		return nil, false
	}
	args, ok := v.([]any)
	return args, ok
}

// jsBuiltIn names a class as the worker builds it from module: the
// module's default export when that is the class, or its export by
// name; "" when the module does not export it.
func jsBuiltIn(module string, src []byte) func(string) string {
	named := map[string]string{} // each class read off the source once
	return func(class string) string {
		if target, ok := named[class]; ok {
			return target
		}
		target := ""
		switch {
		case jsDefaultOnly(src, class):
			target = module + ".default"
		case jsExported(src, class):
			target = module + "." + class
		}
		named[class] = target
		return target
	}
}

func (l *jsLang) Rows(_ context.Context, tg lang.Target, templates []validate.Row, rng *rand.Rand, perFunction int) ([]validate.Row, map[string]string) {
	info, _ := tg.Data.(*jsInfo)
	if info == nil {
		return templates, nil
	}
	sourceOf := map[string]string{}
	var rows []validate.Row
	recvs := tg.Receivers
	method := tg.Sym.Kind == "method" && strings.Contains(tg.Sym.Local, ".")
	if !method {
		recvs = []any{nil}
	}
	add := func(args []any, cls, source string) {
		n := len(args)
		if method {
			n-- // the receiver
		}
		if tg.Sig.Varargs == nil && n > len(tg.Sig.Params) {
			return
		}
		if k := lang.CallKey(args, nil); sourceOf[k] == "" {
			sourceOf[k] = source
			rows = append(rows, lang.PositionalRow(cls, args))
		}
	}
	for _, in := range info.harvested {
		args, ok := jsArgsOf(in.Args, info.builtIn)
		if !ok {
			continue
		}
		source := "test_call " + in.Pos
		if own := info.receiverOf[in.Receiver]; method && own != nil {
			// The test's call on the object it built itself.
			add(append([]any{own}, args...), "harvested_"+in.Kind, source)
			continue
		}
		for _, r := range recvs {
			if r != nil {
				if in.Receiver == "" {
					continue
				}
				args = append([]any{r}, args...)
			}
			add(args, "harvested_"+in.Kind, source)
			break
		}
	}
	// The tests' options objects two at a time, their keys together:
	// one test passes format(q, {commaPosition: 'before'}), another
	// format(q, {indent: '    '}), and a change may lie where the two
	// options meet.
	from := 0
	if method {
		from = 1
	}
	for _, args := range mergedOptions(rows, from, maxMergedOptions) {
		add(args, "mutation", lang.SourceMutation)
	}
	// A date the tests write moved to where date code breaks (dates.go).
	for _, r := range append([]validate.Row(nil), rows...) {
		args, _ := r.CallArgs()
		for _, mv := range jsDateMoves {
			if moved, ok := jsMoveDates(args, mv, 0); ok {
				add(moved.([]any), "mutation", lang.SourceMutation)
			}
		}
	}
	if info.protoKeys {
		// Object.prototype's names in the tests' strings, before the
		// steps below, which flip their case too.
		n := 0
		for _, r := range append([]validate.Row(nil), rows...) {
			args, _ := r.CallArgs()
			for _, m := range protoArgs(args) {
				if n < maxProtoRows {
					add(m, "mutation", lang.SourceMutation)
					n++
				}
			}
		}
	}
	// The tests' calls mutated a step each way (a list reversed or one
	// shorter, a number moved by one, a string's case flipped).
	for _, r := range append([]validate.Row(nil), rows...) {
		for _, m := range lang.Mutants(r) {
			args, _ := m.CallArgs()
			if method && len(args) > 0 {
				if _, isRecv := args[0].(map[string]any)["$new"]; !isRecv {
					continue // the receiver was mutated, not an argument
				}
			}
			add(args, "mutation", lang.SourceMutation)
		}
		// An object the call is handed, built a step away (gcd's new
		// BN(12) as new BN(0)).
		for _, m := range lang.BuiltMutants(r, from) {
			args, _ := m.CallArgs()
			add(args, "mutation", lang.SourceMutation)
		}
	}
	types := l.ParamTypes(tg)
	pools := make([][]any, len(tg.Sig.Params))
	lits := l.literals(info, tg.DataLits)
	for i, t := range types {
		pools[i] = append(jsNumbers(info, tg.Receivers, tg.DataLits, t), lang.Pool(t, lits)...)
		if jsDateTypeRe.MatchString(tg.Sig.Params[i].Type) {
			pools[i] = append(jsDates(), pools[i]...)
		}
		if class := itemClass(tg.Sig.Params[i].Type); class != "" {
			// Bytes (data: Uint8Array): arrays of that class come first,
			// the empty one among them.
			pools[i] = append(itemValues(class, pools[i]), pools[i]...)
		}
		if t.Kind == lang.KindAny || t.Kind == lang.KindStr {
			// The changed data's words are what reach the changed
			// entries of what the function reads.
			pools[i] = append(dataValues(tg.DataLits), pools[i]...)
		}
		if t.Kind == lang.KindAny || t.Kind == lang.KindStr {
			// The characters a string's codes are compared with.
			for _, c := range info.chars {
				pools[i] = append(pools[i], c)
			}
			if info.protoKeys {
				for _, w := range jsProtoWords {
					pools[i] = append(pools[i], w)
				}
			}
		}
		text := info.callsStringMethods(tg.Sig.Params[i].Name)
		if text && t.Kind == lang.KindAny {
			// It calls a string's methods on it (input.charAt(j)):
			// text leads its pool, text made of the function's words
			// first.
			pools[i] = lang.DedupeValues(append(lang.Pool(lang.Type{Kind: lang.KindStr}, lits), pools[i]...))
		}
		if ks := optionKeys(info.keys[tg.Sig.Params[i].Name]); len(ks) > 0 && !slices.Equal(ks, []string{"length"}) && !text &&
			t.Kind != lang.KindStr && t.Kind != lang.KindList && t.Kind != lang.KindInt && t.Kind != lang.KindBool {
			// An options object: each key the function reads, set alone
			// to each value of a small pool. Not for a parameter its type
			// says is a string, a list, a number or a flag, nor for one
			// read only for its length, which strings and lists have.
			pools[i] = append(optionObjects(ks), pools[i]...)
			// A record of numbers (a point, a vector): every key it
			// computes with set, first, so that the other parameters
			// vary beside a whole one (a 3D point whose z is 0 beside
			// one whose z is not); and a few whole ones apart from it.
			pools[i] = append(numberRecords(optionKeys(info.numeric[tg.Sig.Params[i].Name])), pools[i]...)
		}
		if len(pools[i]) == 0 {
			pools[i] = lang.Pool(lang.Type{Kind: lang.KindAny}, lits)
		}
		if t.Kind == lang.KindAny && info.defaulted[tg.Sig.Params[i].Name] {
			// A parameter the body defaults itself is left out where
			// the others vary (its typical value): a caller passes
			// none (ramda's _clone(value, deep, map), whose map only
			// its own recursion passes), and junk there fails every
			// call alike on both sides.
			pools[i] = append([]any{jsUndefined}, pools[i]...)
		}
		switch {
		case t.Kind == lang.KindAny:
			// A parameter that takes anything (untyped, any, unknown)
			// is handed JavaScript's empty values too: null and
			// undefined, where a guard like `x === null` or `x == null`
			// or none at all decides, and the empty array and object,
			// which a type test (typeof x === "object") lets through
			// together.
			pools[i] = append(pools[i], nil, jsUndefined, []any{}, map[string]any{})
			pools[i] = append(pools[i], info.natives...)
		case t.Kind == lang.KindDict:
			// An object typed as one (Record<string, any>) is handed the
			// objects the text tests for too: one without a prototype is
			// a record all the same.
			pools[i] = append(pools[i], objectNatives(info.natives)...)
			if admitsUndefined(tg.Sig.Params[i].Type) {
				pools[i] = append(pools[i], nil, jsUndefined)
			}
		case admitsUndefined(tg.Sig.Params[i].Type):
			pools[i] = append(pools[i], nil, jsUndefined)
		}
		if info.arrayTested[tg.Sig.Params[i].Name] && (t.Kind == lang.KindAny || t.Kind == lang.KindUnknown) {
			// Asked whether it is an array (fast-sort's sort(order,
			// ctx, sortBy) returns ctx as it is otherwise): arrays lead
			// its pool, so the rows that vary another parameter run
			// past the question.
			pools[i] = lang.DedupeValues(append(jsArrays(lits), pools[i]...))
		}
		if info.emptyTested[tg.Sig.Params[i].Name] && len(pools[i]) > 0 {
			// Tested against null or undefined: both come right after
			// its typical value, where the rows that set a typically
			// absent parameter reach them.
			pools[i] = lang.DedupeValues(append([]any{pools[i][0], jsUndefined, nil}, pools[i][1:]...))
		}
	}
	if len(tg.Sig.Params) == 0 && tg.Sig.Varargs == nil && recvs[0] != nil {
		// A method of no parameters: one call on each object.
		for _, r := range recvs {
			add([]any{r}, "receiver", lang.SourceReceiver)
		}
	}
	if len(info.chars) > 0 {
		// Each character a string's codes are compared with, read where
		// a number parameter points (isSpecialWhitespace(text, index)):
		// at 0, the others typical. One-at-a-time leaves the index at
		// its typical value, past the string's end.
		for _, c := range info.chars {
			vals := lang.TypicalValues(pools)
			text := false
			for i, t := range types {
				switch {
				case t.Kind == lang.KindInt:
					vals[i] = 0
				case !text && (t.Kind == lang.KindStr || t.Kind == lang.KindAny):
					vals[i], text = c, true
				}
			}
			if !text {
				continue
			}
			for _, r := range recvs {
				args := append([]any(nil), vals...)
				if r != nil {
					args = append([]any{r}, args...)
				}
				add(args, "char_codes", lang.SourceOneAtATime)
			}
		}
	}
	if method {
		// The object itself a step away: the typical call, and the tests'
		// calls, on a receiver built with one constructor argument
		// changed (new Fraction(-0.333) where the tests build 0.333),
		// where a method's edge is in the object's state, not its
		// arguments.
		calls := [][]any{lang.TypicalValues(pools)}
		for _, r := range rows {
			if args, _ := r.CallArgs(); len(args) > 0 && len(calls) < 4 {
				calls = append(calls, args[1:])
			}
		}
		n := 0
		for _, recv := range recvs {
			for _, stepped := range lang.SteppedBuilt(recv) {
				for _, c := range calls {
					if n < maxReceiverSteps {
						add(append([]any{stepped}, c...), "mutation", lang.SourceMutation)
						n++
					}
				}
			}
		}
	}
	// The second text the first's, and its near misses: an emoji (two
	// UTF-16 units) and the next one, which share their first unit, where
	// a diff or a common prefix splits a character.
	var texts []int
	for i, t := range types {
		if t.Kind == lang.KindStr || t.Kind == lang.KindAny && info.callsStringMethods(tg.Sig.Params[i].Name) {
			texts = append(texts, i)
		}
	}
	for _, vals := range lang.SameTexts(pools, texts, 5, jsWide, "a\U0001F436b") {
		args := append([]any(nil), vals...)
		if r := recvs[0]; r != nil {
			args = append([]any{r}, args...)
		}
		add(args, "same_text", lang.SourceSameText)
	}
	// A text and a position in it: the position walked across the texts
	// holding the function's own characters (lang.PositionRows).
	for i, t := range types {
		if t.Kind != lang.KindStr && !(t.Kind == lang.KindAny && info.callsStringMethods(tg.Sig.Params[i].Name)) {
			continue
		}
		for j, u := range types {
			if j == i || u.Kind != lang.KindInt && u.Kind != lang.KindAny || !lang.IsIndexName(tg.Sig.Params[j].Name) {
				continue
			}
			lang.PositionRows(i, j, pools, lits, lang.UTF16Length, func(vals []any) {
				args := append([]any(nil), vals...)
				if r := recvs[0]; r != nil {
					args = append([]any{r}, args...)
				}
				add(args, "position", lang.SourceOneAtATime)
			})
		}
	}
	for _, r := range recvs {
		lang.OneAtATime(tg.Sig, pools, func(cls string, vals []any) {
			args := append([]any(nil), vals...)
			if r != nil {
				args = append([]any{r}, args...)
			}
			add(args, cls, lang.SourceOneAtATime)
		})
	}
	// A number compared with another parameter's length (text1.length <
	// cursor_pos), at that length and a step either side.
	if pairs := lang.LengthPairs(jsLengths(tg.HeadText+"\n"+tg.BaseText), tg.Sig.Params); len(pairs) > 0 {
		for _, r := range recvs[:1] {
			lang.LengthRows(pairs, pools, lang.UTF16Length, func(vals []any) {
				args := append([]any(nil), vals...)
				if r != nil {
					args = append([]any{r}, args...)
				}
				add(args, "length_edge", lang.SourceOneAtATime)
			})
		}
	}
	if len(tg.Sig.Params) >= 2 {
		// A value of a kind the text tests for, in every parameter whose
		// pool holds it at once: a function comparing or merging two
		// values (microdiff's diff(obj, newObj)) reaches the member
		// where it tests for the kind only when both sides hold it.
		for _, v := range info.natives {
			vals := lang.TypicalValues(pools)
			n := 0
			for i, p := range pools {
				switch {
				case tg.Sig.Params[i].Default != "":
					// As a caller leaves it: a parameter with a default
					// (diff's _stack = []) gets none.
					vals[i] = jsUndefined
				case slices.ContainsFunc(p, func(x any) bool { return reflect.DeepEqual(x, v) }):
					vals[i] = v
					n++
				}
			}
			if n < 2 {
				continue
			}
			for _, r := range recvs {
				args := append([]any(nil), vals...)
				if r != nil {
					args = append([]any{r}, args...)
				}
				add(args, "natives", lang.SourceOneAtATime)
			}
		}
		// Every two parameters crossed over their pools' heads and the
		// text the function names (its numbers lead its pools already),
		// each pair on a receiver drawn in turn.
		own := make([][]any, len(pools))
		for i, p := range pools {
			own[i] = lang.OwnValues(p, lits, nil)
		}
		pairs := lang.Pairwise(tg.Sig, pools, own, rng)
		for _, p := range pairs[:min(len(pairs), perFunction/4)] {
			args := p.Vals
			if r := recvs[rng.Intn(len(recvs))]; r != nil {
				args = append([]any{r}, p.Vals...)
			}
			add(args, "pairwise", lang.SourcePairwise)
		}
	}
	if recvs[0] == nil {
		rows = append(rows, templates...)
	}
	rows = withShortCalls(tg.Sig, method, rows, sourceOf)
	if len(rows) > perFunction {
		rows = rows[:perFunction]
	}
	return rows, sourceOf
}

// maxShortCalls bounds the rows made again with fewer arguments; they
// go after the first shortCallsAfter rows, before a budget cuts them.
const (
	maxShortCalls   = 36
	shortCallsAfter = 12
)

// withShortCalls is rows with, for a function that takes more values than
// it names (jsSpreadSig), its first rows made again with fewer of those:
// such a function looks at how many it got (arguments.length,
// rest.length), which rows of every parameter never vary.
func withShortCalls(sig *lang.Signature, method bool, rows []validate.Row, sourceOf map[string]string) []validate.Row {
	named := slices.IndexFunc(sig.Params, func(p lang.Param) bool { return strings.Contains(p.Name, "[") })
	if sig.Varargs == nil || named < 0 {
		return rows
	}
	off := 0
	if method {
		off = 1
	}
	var short []validate.Row
	for _, r := range rows {
		args, _ := r.CallArgs()
		for n := off + named; n < len(args) && len(short) < maxShortCalls; n++ {
			k := lang.CallKey(args[:n], nil)
			if sourceOf[k] != "" {
				continue
			}
			sourceOf[k] = sourceOf[lang.CallKey(args, nil)]
			short = append(short, lang.PositionalRow(r.Cls, slices.Clone(args[:n])))
		}
	}
	at := min(shortCallsAfter, len(rows))
	return append(append(slices.Clone(rows[:at]), short...), rows[at:]...)
}

// defaultedParams are the parameters of sig that body gives a value of its
// own when the caller passes none: x || (x = ...), x = x || ..., x ??= ...,
// x === undefined, typeof x === 'undefined', if (!x) { x = ... }.
func defaultedParams(body string, sig *lang.Signature) map[string]bool {
	return paramsMatching(body, sig, func(q string) string {
		return `\b` + q + `\s*(\|\||\?\?)\s*\(\s*` + q + `\s*=[^=]|\b` + q + `\s*=\s*` + q + `\s*(\|\||\?\?)|\b` + q + `\s*(\|\||\?\?)=|\b` + q + `\s*===?\s*undefined\b|\btypeof\s+` + q + `\s*===?\s*['"]undefined['"]|\bif\s*\(\s*!\s*` + q + `\s*\)\s*\{?\s*` + q + `\s*=[^=]`
	})
}

// jsArgumentsRe finds a function reading its arguments object.
var jsArgumentsRe = regexp.MustCompile(`(^|[^\w$.])arguments\b`)

// jsSpreadSig is sig with parameters for the values a function takes
// beyond those it names: a rest parameter's (f(a, ...rest): rest[0],
// rest[1]) or, for a function that reads its arguments object (locutus'
// sprintf() reads its format and values from arguments), the arguments'
// own, three in all. Rows vary them as they vary named ones; sig as it
// is for any other function.
func jsSpreadSig(sig *lang.Signature, text string) *lang.Signature {
	if sig == nil {
		return sig
	}
	name, want, from := "", 0, 0
	switch {
	case sig.Varargs != nil:
		name, want = sig.Varargs.Name, len(sig.Params)+2
	case len(sig.Params) < 3 && jsArgumentsRe.MatchString(text):
		name, want, from = "arguments", 3, len(sig.Params)
	default:
		return sig
	}
	out := *sig
	out.Params = slices.Clone(sig.Params)
	for i := from; len(out.Params) < want; i++ {
		out.Params = append(out.Params, lang.Param{Name: fmt.Sprintf("%s[%d]", name, i)})
	}
	if out.Varargs == nil {
		out.Varargs = &lang.Param{Name: name}
	}
	return &out
}

// jsArrays are the arrays a parameter the function asks Array.isArray of
// is handed first: numbers out of order, two of the function's words (or
// letters), one, none, and objects.
func jsArrays(lits []string) []any {
	words := []any{"a", "b"}
	if len(lits) > 1 {
		words = []any{lits[0], lits[1]}
	}
	return []any{[]any{3, 1, 2}, words, []any{words[0]}, []any{}, []any{map[string]any{"a": 2}, map[string]any{"a": 1}}}
}

// emptyTestedParams are the parameters of sig that text tests against
// null or undefined: typeof x === 'undefined', x === undefined, x == null,
// x !== null (jsonata's contains, whose fix returns undefined when its
// token is undefined).
func emptyTestedParams(text string, sig *lang.Signature) map[string]bool {
	return paramsMatching(text, sig, func(q string) string {
		return `\btypeof\s+` + q + `\s*[!=]==?\s*['"]undefined['"]|(^|[^\w$.])` + q + `\s*[!=]==?\s*(undefined|null)\b|\b(undefined|null)\s*[!=]==?\s*` + q + `\b`
	})
}

// paramsMatching are the parameters of sig (plain names) for which text
// matches the pattern pattern builds from the name, quoted.
func paramsMatching(text string, sig *lang.Signature, pattern func(q string) string) map[string]bool {
	out := map[string]bool{}
	if sig == nil {
		return out
	}
	for _, p := range sig.Params {
		if jsIdent.MatchString(p.Name) && regexp.MustCompile(pattern(regexp.QuoteMeta(p.Name))).MatchString(text) {
			out[p.Name] = true
		}
	}
	return out
}

// nativeTests are the tests of a value's kind that JSON cannot carry, and
// a value of each kind as a row writes it: a function that asks typeof x
// === 'symbol' (superstruct's print) is handed a symbol.
var nativeTests = []struct {
	re    *regexp.Regexp
	value any
}{
	{regexp.MustCompile(`typeof\s+[\w$.\[\]]+\s*[!=]==?\s*['"]symbol['"]`), map[string]any{"$symbol": "s"}},
	{regexp.MustCompile(`typeof\s+[\w$.\[\]]+\s*[!=]==?\s*['"]bigint['"]`), map[string]any{"$bigint": "10"}},
	{regexp.MustCompile(`instanceof\s+Map\b`), map[string]any{"$map": []any{[]any{"a", 1}}}},
	{regexp.MustCompile(`instanceof\s+Set\b`), map[string]any{"$set": []any{1, "a"}}},
	{regexp.MustCompile(`instanceof\s+Date\b`), map[string]any{"$date": "2000-01-02T03:04:05.000Z"}},
	{regexp.MustCompile(`instanceof\s+RegExp\b`), map[string]any{"$regexp": "/a+/g"}},
	// An object without Object's prototype (Object.create(null), the
	// dictionary a parser builds): a method of Object.prototype called
	// on a value (x.hasOwnProperty(k)) is not there.
	{regexp.MustCompile(`[\w$\])]\s*\.\s*(hasOwnProperty|propertyIsEnumerable|isPrototypeOf)\s*\(`), map[string]any{"$nullproto": map[string]any{"a": 1}}},
	// A function that reads a value's prototype (microdiff's
	// Object.getPrototypeOf(v).constructor.name) gets null for one
	// without: such an object, and one held in an object's key, where a
	// function walking a value's members meets it.
	{jsGetPrototypeRe, map[string]any{"$nullproto": map[string]any{"a": 1}}},
	{jsGetPrototypeRe, map[string]any{"a": map[string]any{"$nullproto": map[string]any{"a": 1}}}},
	// A string with a lone surrogate, which encodeURIComponent and
	// encodeURI refuse (URIError) and isWellFormed tells apart: no JSON
	// text a row's Go string makes can hold one.
	{regexp.MustCompile(`\b(encodeURIComponent|encodeURI)\s*\(|\.\s*(isWellFormed|toWellFormed)\s*\(`), map[string]any{"$utf16": []any{97, 0xd800, 98}}},
}

// optionKeys are the keys of an options object among those a function
// reads of a parameter: not the methods every value has (parsimmon's
// byte(b) reads b.toString(16) of a number), nor a number's own.
func optionKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if !jsEveryValueHas[k] {
			out = append(out, k)
		}
	}
	return out
}

// jsEveryValueHas are the members of Object.prototype, and of
// Number.prototype, that a function reads of any value.
var jsEveryValueHas = map[string]bool{
	"toString": true, "valueOf": true, "toLocaleString": true, "hasOwnProperty": true, "isPrototypeOf": true,
	"propertyIsEnumerable": true, "constructor": true, "toFixed": true, "toPrecision": true, "toExponential": true,
}

// callsStringMethods says the function calls a string's methods on the
// parameter name (input.charAt(j)): it takes text, whatever its type says.
func (info *jsInfo) callsStringMethods(name string) bool {
	return slices.ContainsFunc(info.keys[name], func(k string) bool { return jsStringMethods[k] })
}

// jsStringMethods are String.prototype's methods a function calls on a
// parameter it takes for text, typed or not.
var jsStringMethods = map[string]bool{
	"charAt": true, "charCodeAt": true, "codePointAt": true, "slice": true, "substring": true, "substr": true,
	"toLowerCase": true, "toUpperCase": true, "trim": true, "trimStart": true, "trimEnd": true, "split": true,
	"startsWith": true, "endsWith": true, "indexOf": true, "lastIndexOf": true, "replace": true, "replaceAll": true,
	"match": true, "matchAll": true, "normalize": true, "localeCompare": true, "padStart": true, "padEnd": true,
}

// jsWide says a text holds a character of two UTF-16 units.
func jsWide(t string) bool { return lang.UTF16Length(t) > utf8.RuneCountInString(t) }

// jsGetPrototypeRe is a read of a value's prototype.
var jsGetPrototypeRe = regexp.MustCompile(`\b(Object|Reflect)\s*\.\s*getPrototypeOf\s*\(|\.__proto__\b`)

// nativeValues are a value of each kind text tests for (nativeTests).
func nativeValues(text string) []any {
	var out []any
	for _, t := range nativeTests {
		if t.re.MatchString(text) {
			out = append(out, t.value)
		}
	}
	return out
}

// jsCharCodeRe is a read of a string's character codes.
var jsCharCodeRe = regexp.MustCompile(`\.\s*(charCodeAt|codePointAt)\s*\(`)

// jsNumberRe is a number a function compares a character code with, and
// jsNumberConstRe a module-level constant holding one (const codeTab =
// 0x9).
var (
	jsNumberRe      = regexp.MustCompile(`\b(0[xX][0-9a-fA-F]+|\d+)\b`)
	jsNumberConstRe = regexp.MustCompile(`(?m)^\s*(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*=\s*(0[xX][0-9a-fA-F]+|\d+)\s*;?\s*(?://.*)?$`)
)

// charCodeStrings are, for a function whose text reads a string's
// character codes (code === codeZeroWidthSpace, code >= 0x2000), the
// characters it compares them with and each one's neighbours, as
// strings of four of each: the numbers of its text and of the module-level constants it
// names, on either side (srcs). A string pool rarely holds U+200B or
// U+FEFF, and a patch that narrows such a test shows only on them.
func charCodeStrings(text string, srcs ...[]byte) []string {
	if !jsCharCodeRe.MatchString(text) {
		return nil
	}
	var codes []int64
	for _, m := range jsNumberRe.FindAllString(text, -1) {
		if n, err := strconv.ParseInt(m, 0, 64); err == nil {
			codes = append(codes, n)
		}
	}
	for _, src := range srcs {
		for _, m := range jsNumberConstRe.FindAllStringSubmatch(string(src), -1) {
			if !regexp.MustCompile(`(^|[^\w$])` + regexp.QuoteMeta(m[1]) + `([^\w$]|$)`).MatchString(text) {
				continue
			}
			if n, err := strconv.ParseInt(m[2], 0, 64); err == nil {
				codes = append(codes, n)
			}
		}
	}
	var out []string
	seen := map[int64]bool{}
	for _, c := range codes {
		for _, n := range []int64{c - 1, c, c + 1} {
			// Printable or not, any code point but a surrogate half
			// (which no Go string holds) and the ASCII a pool has.
			if seen[n] || n < 0x7f || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) {
				continue
			}
			seen[n] = true
			// A run of it: the function may read the code at an index
			// another parameter gives (isSpecialWhitespace(text,
			// index)), whose typical value is past a string's first.
			out = append(out, strings.Repeat(string(rune(n)), 4))
		}
	}
	if len(out) > 24 {
		out = out[:24]
	}
	return out
}

// objectNatives are the natives that are plain objects as the code sees
// them: one without a prototype, an object holding one.
func objectNatives(natives []any) []any {
	var out []any
	for _, v := range natives {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := m["$nullproto"]; ok || !jsTagged(m) {
			out = append(out, v)
		}
	}
	return out
}

// jsTagged says whether an object is one of the worker's tagged values
// ({"$map": ...}), not an object of data.
func jsTagged(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

// changedLinesIn are the lines f's hunks add or remove between the head's
// lines start and end (a removed line at the head's place it was taken
// from).
func changedLinesIn(f diffparse.File, start, end int) []string {
	var out []string
	for _, h := range f.Hunks {
		at := h.NewStart
		for _, ln := range h.Lines {
			if ln.New > 0 {
				at = ln.New
			}
			if ln.Kind != ' ' && at >= start && at <= end {
				out = append(out, ln.Text)
			}
		}
	}
	return out
}

// removedText is the text of the lines f's hunks remove: the base's side
// of a change, which the head's span no longer holds.
func removedText(f diffparse.File) string { return hunkText(f, "-") }

// hunkText is the text of f's diff lines of the kinds given ('-', '+',
// ' '), one a line.
func hunkText(f diffparse.File, kinds string) string {
	var b strings.Builder
	for _, h := range f.Hunks {
		for _, ln := range h.Lines {
			if strings.ContainsRune(kinds, rune(ln.Kind)) {
				b.WriteString(ln.Text)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// maxReceiverSteps bounds the rows a method gets on receivers a step away
// from the tests' (steppedReceivers).
const maxReceiverSteps = 48

// jsCallback is premise's callback as a row writes it: the Node worker
// builds one that marks a string it is handed and notes every call.
var jsCallback = map[string]any{"$func": "mark"}

// jsUndefined is undefined as a row writes it.
var jsUndefined = map[string]any{"$undefined": true}

// admitsUndefined says a TypeScript annotation names undefined among its
// union's members.
func admitsUndefined(annotation string) bool {
	for _, p := range strings.Split(annotation, "|") {
		if strings.TrimSpace(p) == "undefined" {
			return true
		}
	}
	return false
}

// optionValues are what an option is set to, one at a time: the values
// options code tests for (flags, numbers at their edges and between, the
// empty string, null).
var optionValues = []any{true, false, 0, 1, -1, 3.5, "", "x", nil}

// maxOptionObjects bounds the objects built for one options parameter.
const maxOptionObjects = 48

// optionObjects are objects that set one key each, then the empty one.
func optionObjects(keys []string) []any {
	out := []any{map[string]any{}}
	for _, k := range keys {
		for _, v := range optionValues {
			if len(out) >= maxOptionObjects {
				return out
			}
			out = append(out, map[string]any{k: v})
		}
	}
	return out
}

// staticDecl finds a method declared static: the target is the class's
// own member, not its objects'.
var staticDecl = regexp.MustCompile(`^\s*(?:@\w+\s+)*static\b`)

// staticTwin says the class of local (Class.method) has a static member
// of the method's name too: assigned to the class (Class.method = ...)
// or declared static in a class body of the source.
func staticTwin(src []byte, local string) bool {
	class, method, ok := strings.Cut(local, ".")
	if !ok || strings.Contains(method, ".") {
		return false
	}
	q := regexp.QuoteMeta
	re := regexp.MustCompile(`(?m)(\b` + q(class) + `\s*\.\s*` + q(method) + `\s*=[^=])|(^\s*static\s+(?:async\s+)?\*?\s*` + q(method) + `\s*\()`)
	return re.Match(src)
}

// addKeys adds to into, per parameter, the keys of from it lacks.
func addKeys(into, from map[string][]string) {
	for p, ks := range from {
		for _, k := range ks {
			if !slices.Contains(into[p], k) {
				into[p] = append(into[p], k)
			}
		}
	}
}

// maxRecordKeys bounds the keys of a record of numbers set to zero one
// at a time.
const maxRecordKeys = 4

// numberRecords are objects setting every one of keys, a record of
// numbers: the keys at 1, 2, 3... (the typical one), then doubled (a
// vector as long again), negated, and with each key at zero in turn (a
// point on an axis, a z of 0). None for fewer than two keys, or for a
// length alone, which strings and lists have.
func numberRecords(keys []string) []any {
	keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k == "length" })
	if len(keys) < 2 {
		return nil
	}
	record := func(f func(i int, v float64) float64) map[string]any {
		m := map[string]any{}
		for i, k := range keys {
			m[k] = f(i, float64(i+1))
		}
		return m
	}
	out := []any{
		record(func(_ int, v float64) float64 { return v }),
		record(func(_ int, v float64) float64 { return 2 * v }),
		record(func(_ int, v float64) float64 { return -v }),
	}
	for z := range min(len(keys), maxRecordKeys) {
		out = append(out, record(func(i int, v float64) float64 {
			if i == z {
				return 0
			}
			return v
		}))
	}
	return out
}

// jsArgsOf reads a harvested call's arguments, an object of the
// module's own class (new BN(2)) named by builtIn.
func jsArgsOf(args []string, builtIn func(string) string) ([]any, bool) {
	out := make([]any, len(args))
	for i, a := range args {
		v, ok := jssource.Value(a)
		if ok {
			v, ok = jssource.Named(v, builtIn)
		}
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// dataValues are the first words of the changed data a function reads.
func dataValues(words []string) []any {
	var out []any
	// A changed pattern's two versions (a regular expression's source
	// in a string): first the texts only one of them matches, then a
	// few each matches (jsonata's iso8601regex).
	patterns := lang.Patterns(words, 4)
	for _, d := range lang.DistinguishingPairs(patterns) {
		out = append(out, d)
	}
	for _, p := range patterns {
		samples := lang.PatternSamples(p)
		samples = samples[:min(len(samples), 2)]
		for _, s := range samples {
			out = append(out, s)
		}
		// And inside other text: a pattern a function strips or replaces
		// (URI.js' tabs and newlines) is often trimmed at the ends first,
		// and shows only amid the text.
		for _, s := range samples {
			if s != "" {
				out = append(out, "a"+s+"b")
			}
		}
	}
	for _, w := range words[:min(len(words), 8)] {
		out = append(out, w)
	}
	return lang.DedupeValues(out)
}

// literals are the changed data's strings the function reads (data),
// then its own string constants.
func (*jsLang) literals(info *jsInfo, data []string) []string {
	out := append([]string(nil), data...)
	for _, c := range info.consts {
		if c.Kind != "string" {
			continue
		}
		if v, ok := jssource.Value(c.Value); ok {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return lang.WithSeparators(out)
}

// jsNumbers are a number parameter's edges: each numeric constant the
// function compares with, and the numbers of the changed data it reads
// (a limit another module exports, before and after), with their
// neighbours (both sides of a >=).
func jsNumbers(info *jsInfo, receivers []any, data []string, t lang.Type) []any {
	if t.Kind != lang.KindInt && t.Kind != lang.KindFloat && t.Kind != lang.KindAny {
		return nil
	}
	var nums []json.Number
	for _, c := range info.consts {
		if c.Kind != "number" {
			continue
		}
		if v, ok := jssource.Value(c.Value); ok {
			if n, isNum := v.(json.Number); isNum {
				nums = append(nums, n)
			}
		}
	}
	for _, d := range data {
		if _, err := strconv.ParseFloat(d, 64); err == nil {
			nums = append(nums, json.Number(d))
		}
	}
	// A method compares its arguments with its object's fields: the
	// numbers its receivers were built with are edges too.
	for _, r := range receivers {
		m, _ := r.(map[string]any)
		args, _ := m["$args"].([]any)
		for _, a := range args {
			if n, ok := a.(json.Number); ok {
				nums = append(nums, n)
			}
		}
	}
	var out []any
	seen := map[string]bool{}
	for _, n := range nums {
		i, err := n.Int64()
		if err != nil {
			if !seen[n.String()] {
				seen[n.String()] = true
				out = append(out, n)
			}
			continue
		}
		for _, d := range []int64{i, i - 1, i + 1} {
			if k := fmt.Sprint(d); !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	return out
}

func (l *jsLang) ParamTypes(tg lang.Target) []lang.Type {
	info, _ := tg.Data.(*jsInfo)
	out := make([]lang.Type, len(tg.Sig.Params))
	for i, p := range tg.Sig.Params {
		out[i] = l.Infer(p)
		if info == nil || out[i].From == "annotation" && (out[i].Kind != lang.KindList || out[i].Elem == nil || out[i].Elem.Kind != lang.KindAny) {
			continue
		}
		if g, ok := info.guesses[p.Name]; ok && g.Known() {
			// The reader follows the file's type aliases (Range[] is
			// array[tuple[number, number]]) and reads JSDoc.
			if t, ok := jsGuessType(g); ok {
				t.From, t.Text = g.From, g.String()
				out[i] = t
			}
		}
	}
	return out
}

// jsGuessType maps what jssource read of a parameter to a kind premise
// builds values for: an array of [number, number] pairs is a list of
// intervals, as Python's list[tuple[int, int]] is.
func jsGuessType(g jssource.Guess) (lang.Type, bool) {
	t := lang.Type{Nullable: g.Nullable}
	switch g.Kind {
	case jssource.KindNumber:
		t.Kind = lang.KindInt
	case jssource.KindString:
		t.Kind = lang.KindStr
	case jssource.KindBoolean:
		t.Kind = lang.KindBool
	case jssource.KindRecord:
		t.Kind = lang.KindDict
	case jssource.KindArray:
		if g.Elem == nil {
			return lang.Type{}, false
		}
		if e := *g.Elem; e.Kind == jssource.KindTuple && len(e.Parts) == 2 && e.Parts[0].Kind == jssource.KindNumber && e.Parts[1].Kind == jssource.KindNumber {
			t.Kind = lang.KindIntervals
			return t, true
		}
		e, ok := jsGuessType(*g.Elem)
		if !ok {
			e = lang.Type{Kind: lang.KindAny}
		}
		t.Kind, t.Elem = lang.KindList, &e
	default:
		return lang.Type{}, false
	}
	return t, true
}

func (*jsLang) Receiver(tg lang.Target) (any, bool) {
	info, _ := tg.Data.(*jsInfo)
	if info == nil || tg.Sym.Kind != "method" || !strings.Contains(tg.Sym.Local, ".") {
		return nil, true
	}
	if len(tg.Receivers) == 0 {
		return nil, false
	}
	return tg.Receivers[0], true
}

func (*jsLang) ModelRow(args []any, _ map[string]any) validate.Row {
	return lang.PositionalRow("model", args)
}

func (*jsLang) CallText(args []any, _ map[string]any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = jsValueText(a, 0)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// jsValueText is a row's value as a reviewer reads it: an object premise
// builds for the call as the call that builds it (BN(-18), BigInteger(3)
// for the module's default export), a regular expression as written,
// anything else as compact JSON.
func jsValueText(v any, depth int) string {
	m, ok := v.(map[string]any)
	if re, isRe := m["$regexp"].(string); isRe && len(m) == 1 {
		return re // a regular expression as it is written
	}
	name, built := m["$new"].(string)
	args, listed := m["$args"].([]any)
	steps, chained := m["$chain"].([]any)
	if !ok || !built || !listed || len(m) != 2 && !(len(m) == 3 && chained) || depth > 2 {
		return lang.Compact(v, 60)
	}
	module, export := path.Base(name), ""
	if i := strings.LastIndex(module, "."); i >= 0 {
		module, export = module[:i], module[i+1:]
	}
	if export != "default" && export != "" {
		module = export
	}
	text := module + jsArgsText(args, depth)
	for _, st := range steps {
		s, _ := st.(map[string]any)
		call, _ := s["$call"].(string)
		a, _ := s["$args"].([]any)
		text += "." + call + jsArgsText(a, depth)
	}
	return text
}

// jsArgsText is a call's arguments as jsValueText writes them.
func jsArgsText(args []any, depth int) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = jsValueText(a, depth+1)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Bug: a TypeError reading a property of undefined or null, or calling
// what is not a function, inside the new function; a RangeError of the
// call stack.
func (*jsLang) Bug(exc *gate.Exc) bool {
	switch exc.Class {
	case "TypeError":
		return strings.Contains(exc.Message, "Cannot read properties of") || strings.Contains(exc.Message, "is not a function")
	case "RangeError":
		return strings.Contains(exc.Message, "Maximum call stack")
	}
	return false
}

func (*jsLang) Sources() []lang.Source { return nil }

// jsImportFailRe finds the target a Node worker could not load.
var jsImportFailRe = regexp.MustCompile(`\bimport ([\w./@$-]+): `)

// jsNested says whether local (OUTER.inner) names a function that the
// module-level function OUTER declares in its own body (diffparse's
// inner functions), not a member of a namespace or an object.
func jsNested(f diffparse.File, local string) bool {
	outer, _, ok := strings.Cut(local, ".")
	if !ok || strings.Count(local, ".") != 1 || f.HeadSrc == nil {
		return false
	}
	decls, err := diffparse.Decls(f.Language, f.HeadSrc)
	if err != nil {
		return false
	}
	for _, d := range decls {
		if d.Local == outer && d.Kind == "function" {
			return true
		}
	}
	return false
}

// Unreached: the worker found the target neither among its module's
// exports nor in the scope its exported functions close over.
func (*jsLang) Unreached(detail string) (string, bool) {
	if !jsUnreachedRe.MatchString(detail) {
		return "", false
	}
	return "not exported: premise's worker calls what a module exports, or a function of the module that its exported functions reach", true
}

// jsUnreachedRe finds the worker's word that a module's own function is
// reached by none of its exported functions (node_worker.mjs'
// UnreachedError), at the start of a row's harness error as the gate
// writes it (TARGET: DETAIL, after the base's words on the base): the
// subject's own error text follows "import TARGET:" and cannot take this
// form. Its group is the target.
var jsUnreachedRe = regexp.MustCompile(`^(?:the harness could not call the target on the base: |base: )?[\w./@$-]+: unreached ([\w./@$-]+): `)

// DropModule leaves out the rows of a module (or one export) the worker
// cannot load, so the other modules' rows still run.
func (l *jsLang) DropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, lang.ModuleFailure, bool) {
	if why, ok := l.Unreached(err.Error()); ok {
		// A function the module keeps to itself that none of its
		// exported functions closes over on a side (called only while
		// the module loads, or no longer called at all): its rows are
		// left out on both sides, and its callers' rows speak for it.
		target := jsUnreachedRe.FindStringSubmatch(err.Error())[1]
		rest, cut := *t, *t
		rest.Rows, cut.Rows = nil, nil
		for _, r := range t.Rows {
			if t.TargetOf(r) == target {
				cut.Rows = append(cut.Rows, r)
			} else {
				rest.Rows = append(rest.Rows, r)
			}
		}
		if len(cut.Rows) == 0 {
			return nil, lang.ModuleFailure{}, false
		}
		if len(rest.Rows) > 0 {
			rest.Target = rest.Rows[0].Target
		}
		return &rest, lang.ModuleFailure{Module: target, Target: true, Text: t.Language + " rows: " + lang.OneLine(err.Error()), Why: why}, true
	}
	m := jsImportFailRe.FindStringSubmatch(err.Error())
	if m == nil {
		return nil, lang.ModuleFailure{}, false
	}
	return lang.DropFailing(ctx, cfg, t, modules, m[1], false, err)
}

func (l *jsLang) Close() {
	for _, f := range l.tests {
		f.Close()
	}
}

// maxJSTestFiles bounds the test files read.
const maxJSTestFiles = 400

// maxJSHarvest bounds the tests' calls of one function read as its rows.
// A spec of one function often calls it a hundred times and more
// (validate.js' numericality-spec.js: 101, the call of strict mode with a
// negative number among the last), so the first lang.MaxHarvest in file
// order left its later describes unread. The rows stay within their
// per-function count; the tests' calls come first in it.
const maxJSHarvest = 4 * lang.MaxHarvest

// jsTestFileRe matches a test file's path: one under a test directory
// (test/, tests/, __tests__/, Jasmine's spec/), one named for its tests
// (x.test.js, x.spec.ts, x-test.js, x_test.js, test-x.js, Jasmine's
// xSpec.js), and a package's single test file at any depth (test.js,
// tests.js, spec.js, as ms keeps its tests).
var jsTestFileRe = regexp.MustCompile(`([-_.](test|spec)s?\.[cm]?[jt]sx?$)|[a-z0-9](Test|Spec)s?\.[cm]?[jt]sx?$|(^|/)(__tests__|tests?|specs?)/.*\.[cm]?[jt]sx?$|(^|/)(tests?|specs?)\.[cm]?[jt]sx?$|(^|/)tests?[-_][^/]*\.[cm]?[jt]sx?$`)

// maxSourceFiles bounds the source files of a directory read for the
// constructions of a class.
const maxSourceFiles = 32

// baseSources are the merge-base's JavaScript and TypeScript sources of
// dir (a repository path), test files left out, parsed.
func (l *jsLang) baseSources(dir string) []*jssource.File {
	if l.base == "" {
		return nil
	}
	entries, err := os.ReadDir(filepath.Join(l.base, filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	var out []*jssource.File
	for _, e := range entries {
		rel := path.Join(dir, e.Name())
		if e.IsDir() || !jsSourceExtRe.MatchString(e.Name()) || jsTestFileRe.MatchString(rel) || len(out) >= maxSourceFiles {
			continue
		}
		if info, err := e.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > lang.MaxTestFileBytes {
			continue
		}
		src, err := os.ReadFile(filepath.Join(l.base, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		if f, err := jssource.Parse(rel, src); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// jsSourceExtRe is a JavaScript or TypeScript source file's name.
var jsSourceExtRe = regexp.MustCompile(`\.[cm]?[jt]sx?$`)

// testFiles are the repository's JavaScript and TypeScript test files at
// the base and at the head, the base's first (a patch that deletes a test
// does not take its inputs away), read once.
func (l *jsLang) testFiles() []*jssource.File {
	if l.read || l.head == "" {
		return l.tests
	}
	l.read = true
	seen := map[string]string{}
	for _, dir := range []string{l.base, l.head} {
		if dir == "" {
			continue
		}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(l.tests) >= maxJSTestFiles {
				return filepath.SkipDir
			}
			name := d.Name()
			if d.IsDir() {
				if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist" || name == "build" || name == "coverage") {
					return filepath.SkipDir
				}
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			if !jsTestFileRe.MatchString(rel) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) > lang.MaxTestFileBytes {
				return nil
			}
			if text, ok := seen[rel]; ok && text == string(src) {
				return nil
			}
			seen[rel] = string(src)
			if f, err := jssource.Parse(rel, src); err == nil {
				l.tests = append(l.tests, f)
			}
			return nil
		})
	}
	return l.tests
}

func (*jsLang) StillBound(f diffparse.File, _ any, local string) bool {
	return !strings.Contains(local, ".") && jsExported(f.HeadSrc, local)
}

// strictRe is a "use strict" directive on a line of its own.
var strictRe = regexp.MustCompile(`^\s*(?:'use strict'|"use strict")\s*;?\s*$`)

// strictChanged says the patch adds or removes a "use strict" directive
// outside every declaration of the file: the script's own, which governs
// every function in it.
func strictChanged(f diffparse.File, head, base []diffparse.Decl) bool {
	for _, h := range f.Hunks {
		for _, ln := range h.Lines {
			if !strictRe.MatchString(ln.Text) {
				continue
			}
			if ln.Kind == '+' && ln.New > 0 && !lang.InDecl(head, ln.New) || ln.Kind == '-' && ln.Old > 0 && !lang.InDecl(base, ln.Old) {
				return true
			}
		}
	}
	return false
}

// allFunctions are the functions and methods of the file on both sides
// that the diff does not already name, as symbols the patch changed.
func allFunctions(f diffparse.File, head, base []diffparse.Decl, module string) []diffparse.Symbol {
	var out []diffparse.Symbol
	for _, d := range lang.Unchanged(f, head, base, func(d diffparse.Decl) bool { return d.Kind == "function" || d.Kind == "method" }) {
		out = append(out, diffparse.Symbol{Name: module + "." + d.Local, Local: d.Local, Kind: d.Kind, Change: "modified", Start: d.Start, End: d.End})
	}
	return out
}

// typeScriptTwin is the TypeScript file of the head's tree whose
// transpiled output takes the path of the JavaScript file rel (x.ts or
// x.tsx for x.js, x.mts for x.mjs, x.cts for x.cjs); "" for none.
func (l *jsLang) typeScriptTwin(rel string) string {
	stem, ext := strings.TrimSuffix(rel, path.Ext(rel)), path.Ext(rel)
	var twins []string
	switch ext {
	case ".js":
		twins = []string{stem + ".ts", stem + ".tsx"}
	case ".mjs":
		twins = []string{stem + ".mts"}
	case ".cjs":
		twins = []string{stem + ".cts"}
	}
	for _, t := range twins {
		if fi, err := os.Lstat(filepath.Join(l.head, filepath.FromSlash(t))); err == nil && fi.Mode().IsRegular() {
			return t
		}
	}
	return ""
}
