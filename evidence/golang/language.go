package golang

import (
	"context"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"math/rand"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

func init() {
	lang.Register(func(d lang.Checkouts, _ int, probe bool) lang.Language {
		return &goLang{gp: &goPkgs{headDir: d.Head, baseDir: d.Base, probe: probe}}
	})
}

// goLang is Go's side of the seam: the package read with go/ast (gopkg.go
// and gosource), functions called through the generated harness (a method
// by its method expression, a generic instantiated), receivers built by
// the package's constructors, package-level settings as inputs, and
// values written as Go writes them.
type goLang struct{ gp *goPkgs }

func (*goLang) Name() string { return validate.LangGo }

// Warm compiles the standard packages the harness links before the
// evidence's clock starts (lang.Warmer).
func (*goLang) Warm(ctx context.Context, gcfg gate.Config) { _ = gate.WarmGo(ctx, gcfg.Race) }

// Probes: a Go function's returned funcs are not probed.
func (*goLang) Probes(lang.Target) []any { return nil }

// Observe asks the harness for the arguments' state after the call when
// the call changed it (a caller's slice sorted in place): part of the
// outcome compared.
func (*goLang) Observe(r validate.Row, _ []any) validate.Row {
	args, kwargs := r.CallArgs()
	kw := make(map[string]any, len(kwargs)+1)
	for k, v := range kwargs {
		kw[k] = v
	}
	kw[lang.ObserveKey] = 1
	r.Inp, r.HasInp = nil, false
	r.Args, r.Kwargs = args, kw
	return r
}

func (*goLang) Signatures(src []byte) map[string]*lang.Signature {
	fset, f, err := gosource.ParseFile(src)
	if err != nil {
		return nil
	}
	out := map[string]*lang.Signature{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil {
			name = diffparse.GoReceiver(fd) + "." + name
		}
		if _, dup := out[name]; !dup {
			out[name] = goSignature(fset, src, fd)
		}
	}
	return out
}

func (*goLang) Infer(p lang.Param) lang.Type { return inferGo(p) }

func (*goLang) ParamText(p lang.Param) string {
	if p.Type == "" {
		return p.Name
	}
	return p.Name + " " + p.Type
}

func (*goLang) Owns(path string) bool { return strings.HasSuffix(path, ".go") }

// Locals is a Go symbol's name inside its package:
// example.com/m/pkg.Type.Method -> Type.Method.
func (*goLang) Locals(symbol string) []string {
	local := symbol[strings.LastIndex(symbol, "/")+1:]
	if _, rest, ok := strings.Cut(local, "."); ok {
		local = rest
	}
	return []string{local}
}

func (*goLang) Fits(sig *lang.Signature, args []any, kwargs map[string]any) string {
	if len(kwargs) > 0 {
		return "Go calls take no keyword arguments"
	}
	variadic := len(sig.Params) > 0 && strings.HasPrefix(sig.Params[len(sig.Params)-1].Type, "...")
	if len(args) == len(sig.Params) || variadic && len(args) >= len(sig.Params)-1 {
		return ""
	}
	return fmt.Sprintf("it passes %d arguments; the function takes %d", len(args), len(sig.Params))
}

func (*goLang) Typed() bool { return true }

func (*goLang) DefaultValue(lang.Param) (any, bool) { return nil, false }

func (*goLang) Public(name string) bool {
	return name != "" && strings.ToUpper(name[:1]) == name[:1]
}

func (l *goLang) DataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string) {
	return goDataReaders(f, l.gp.importPath(f.Path))
}

func (*goLang) File(diffparse.File) any { return nil }

func (l *goLang) Complete(tg *lang.Target, f diffparse.File, _ any, _ map[string]*lang.Signature) string {
	if lang.InTestPath(f, func(p string) bool { return strings.HasSuffix(p, "_test.go") }) {
		return lang.InTestFile
	}
	if tg.Sym.Kind == "function" && lang.BareName(tg.Sym.Local) == "init" {
		// The harness cannot name it (undefined: init), and one target
		// it cannot compile fails every row of the package. What it sets
		// is read by functions compared as its readers (sharedNames);
		// its own changed lines count as checked when their rows run it.
		return "an init function runs when its package loads and cannot be called"
	}
	why := goPlan(tg, l.gp, f)
	if why == "" && len(tg.Sig.Params) == 0 && tg.Sym.Kind != "method" && !lang.BareCallable(lang.BareName(tg.Sym.Local)) {
		why = "it takes no parameters, and a call of " + lang.BareName(tg.Sym.Local) + " runs a program, not a function"
	}
	return why
}

func (*goLang) Rows(ctx context.Context, tg lang.Target, templates []validate.Row, rng *rand.Rand, perFunction int) ([]validate.Row, map[string]string) {
	gt := goOf(tg)
	rows := templates
	if gt.recv != "" || gt.inst != nil {
		// The templates know neither receivers nor type arguments.
		rows = nil
	}
	sourceOf := map[string]string{}
	var head []validate.Row
	for _, pr := range goRows(tg, rng, perFunction) {
		args, kwargs := pr.Row.CallArgs()
		if k := lang.CallKey(args, kwargs); sourceOf[k] == "" {
			sourceOf[k] = pr.Source
		}
		if !lang.MadeUp(pr.Source) || pr.Source == lang.SourceMutation {
			head = append(head, pr.Row)
		} else {
			rows = append(rows, pr.Row)
		}
	}
	// What the tests call leads.
	return append(head, rows...), sourceOf
}

func (*goLang) ParamTypes(tg lang.Target) []lang.Type { return goParamTypes(tg) }

func (*goLang) Receiver(tg lang.Target) (any, bool) {
	gt := goOf(tg)
	if gt.recv == "" {
		return nil, true
	}
	if len(tg.Receivers) == 0 {
		return nil, false
	}
	return tg.Receivers[0], true
}

func (*goLang) ModelRow(args []any, _ map[string]any) validate.Row {
	return lang.PositionalRow("model", args)
}

func (*goLang) CallText(args []any, kwargs map[string]any) string {
	return goCallText(args) + goSettingsText(kwargs)
}

func (*goLang) Outcomes(base, head *gate.Reply, _ lang.Origin) (string, string) {
	return lang.DescribeWith(goReturned, base), lang.DescribeWith(goReturned, head)
}

// goReturned writes a returned value, and the arguments the call changed
// ("returned 1, and left arg1 [0,1]").
func goReturned(v any) string {
	m, ok := v.(map[string]any)
	if read, isRead := m[readKey].(map[string]any); ok && isRead && len(m) == 1 {
		// A value whose fields JSON does not show, as its read
		// methods say it: returned a *Value whose String() is "a".
		return "returned a value whose " + readText(read)
	}
	if again, shared := m[lang.AliasedKey]; ok && shared {
		return "returned " + lang.Compact(m["$returned"], 80) + ", which shares its arguments' state: a second call after the caller changed its first element returned " + lang.Compact(again, 60)
	}
	after, changed := m[lang.ArgsAfterKey].(map[string]any)
	if !ok || !changed {
		return "returned " + lang.Compact(v, 80)
	}
	keys := make([]string, 0, len(after))
	for k := range after {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + lang.Compact(after[k], 60)
	}
	return "returned " + lang.Compact(m["$returned"], 80) + ", and left " + strings.Join(parts, ", ")
}

// readKey is the harness's form of a value shown by its read methods
// ({"$read": {"String()": "a", "Len()": 1}}).
const readKey = "$read"

// readText writes what read methods said, String() first.
func readText(read map[string]any) string {
	keys := make([]string, 0, len(read))
	for k := range read {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "String()") != (keys[j] == "String()") {
			return keys[i] == "String()"
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " is " + lang.Compact(read[k], 60)
	}
	return strings.Join(parts, ", ")
}

func (*goLang) Close() {}

// Sources are the ways only this language makes inputs.
func (*goLang) Sources() []lang.Source {
	return []lang.Source{
		{Name: "table", Doc: "a call fed by a Go test's loop over a table of values"},
		{Name: "fuzz_seed", Doc: "an f.Add seed of a Go fuzz test reaching the function"},
		{Name: "fuzz_corpus", Doc: "a testdata/fuzz corpus file of a Go fuzz test reaching the function"},
		{Name: "example", Doc: "a call in a Go Example function"},
		{Name: lang.SourceSetting, Doc: "a call with the package-level variables the function reads set to other values of their type"},
	}
}

// Bug is a runtime panic: an index or slice out of range, a nil map
// written, a nil pointer followed, an integer divided by zero.
func (*goLang) Bug(exc *gate.Exc) bool {
	return exc.Class == "panic" && strings.HasPrefix(exc.Message, "runtime error:")
}

// StillBound: another file of the package, or a package-level variable
// (var Clamp = other.Clamp), still declares the name the patch deleted a
// function of; the harness calls it as before.
func (l *goLang) StillBound(f diffparse.File, _ any, local string) bool {
	if l.gp == nil || l.gp.headDir == "" {
		return false
	}
	src := l.gp.source(filepath.Dir(filepath.Join(l.gp.headDir, filepath.FromSlash(f.Path))))
	if src == nil {
		return false
	}
	for _, d := range src.Decls() {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == local {
				return true
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.Name == local {
						return true
					}
				}
			}
		}
	}
	return false
}

// Words are a Go file's words for a blind search (lang.Differ): its
// string and rune literals as their values (a short one's characters
// too) and its numbers as written, in the order they appear.
func (*goLang) Words(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	seen := map[string]bool{}
	var out, short []string
	add := func(w string) {
		if w != "" && len(w) <= 64 && !seen[w] && len(out) < 512 {
			seen[w] = true
			out = append(out, w)
		}
	}
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.STRING, token.CHAR:
			if v, err := strconv.Unquote(lit); err == nil {
				add(v)
				if len(v) <= 12 {
					short = append(short, v)
				}
			}
		case token.INT, token.FLOAT:
			add(lit)
		}
	}
	for _, w := range short {
		for _, r := range w {
			add(string(r))
		}
	}
	return out
}
