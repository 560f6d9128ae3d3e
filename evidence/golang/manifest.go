package golang

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// ManifestChanges names what a patch changes in a go.mod or go.work that
// changes what the module's code does with no line of it changed, each
// as the line that says it:
//
//   - a replace directive added, changed or removed swaps the code behind
//     a module's import path (a fork in the tree, another version);
//   - a go.work's use or replace lines do the same for a workspace (the
//     go command reads a go.work inside the copy it builds);
//   - a go.mod's go line moved across a version that changed the
//     language's meaning (1.22: each loop iteration has its own variable; 1.21:
//     panic(nil) panics with a *runtime.PanicNilError);
//   - a godebug directive added, changed or removed switches a standard
//     library behaviour.
//
// Every function of the module may answer otherwise, and premise compares
// none of them for it. A side that does not parse names nothing: nothing
// of the module builds on it, and its symbols are unchecked already.
func (*goLang) ManifestChanges(f diffparse.File, base, head []byte) []string {
	if foreignGo[path.Ext(f.Path)] && !inTestdata(f.Path) {
		return []string{"(C, assembly or object code a Go package builds with its Go files: premise does not read it)"}
	}
	switch path.Base(f.Path) {
	case "go.mod":
		b, errB := parseSide(f.Path, base, modfile.Parse)
		h, errH := parseSide(f.Path, head, modfile.Parse)
		if errB != nil || errH != nil {
			return nil
		}
		return manifestDiff(settingsOf(b.Go, b.Replace, b.Godebug, nil), settingsOf(h.Go, h.Replace, h.Godebug, nil))
	case "go.work":
		b, errB := parseSide(f.Path, base, modfile.ParseWork)
		h, errH := parseSide(f.Path, head, modfile.ParseWork)
		if errB != nil || errH != nil {
			return nil
		}
		// A workspace's go line does not set its modules' language
		// version; each go.mod's does.
		return manifestDiff(settingsOf(nil, b.Replace, b.Godebug, b.Use), settingsOf(nil, h.Replace, h.Godebug, h.Use))
	}
	return nil
}

// foreignGo are the extensions of the files the go command compiles or
// links into a package beside its Go files (cgo's C and C++, Fortran,
// assembly, SWIG, .syso objects): a change in one changes what the
// package's functions do with no Go line changed.
var foreignGo = map[string]bool{
	".s": true, ".S": true, ".sx": true, ".c": true, ".cc": true, ".cpp": true, ".cxx": true,
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".m": true, ".f": true, ".F": true,
	".for": true, ".f90": true, ".syso": true, ".swig": true, ".swigcxx": true,
}

// inTestdata says the go command ignores a path: under a testdata
// directory, or one whose name begins with . or _.
func inTestdata(p string) bool {
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "testdata" || strings.HasPrefix(dir, "_") || strings.HasPrefix(dir, ".") && dir != "." {
			return true
		}
	}
	return false
}

// parseSide parses one side of a go.mod or go.work; a side the patch
// adds or deletes is an empty file.
func parseSide[T any](name string, data []byte, parse func(string, []byte, modfile.VersionFixer) (*T, error)) (*T, error) {
	if data == nil {
		data = []byte{}
	}
	return parse(name, data, nil)
}

// setting is one line of a go.mod or go.work that decides what the
// module's code does, keyed by what it sets ("replace PATH[@VERSION]",
// "godebug KEY", "use DIR"): value is what to.
type setting struct {
	value string
	line  int
	text  string
}

// semanticVersions are the go versions at which the language's meaning
// changed for code that compiled before and after.
var semanticVersions = []struct {
	minor int
	what  string
}{
	{21, "panic(nil) panics with a *runtime.PanicNilError"},
	{22, "each loop iteration has its own variable"},
}

// moduleSettings are a go.mod's or go.work's deciding lines.
type moduleSettings struct {
	goLine, goMinor int
	goText          string
	lines           map[string]setting
}

func settingsOf(g *modfile.Go, replaces []*modfile.Replace, debugs []*modfile.Godebug, uses []*modfile.Use) moduleSettings {
	s := moduleSettings{goMinor: 16, lines: map[string]setting{}} // no go line: the go command reads go 1.16
	if g != nil && g.Syntax != nil {
		s.goLine, s.goText, s.goMinor = g.Syntax.Start.Line, "go "+g.Version, goMinor(g.Version)
	}
	for _, r := range replaces {
		key := "replace " + r.Old.Path
		if r.Old.Version != "" {
			key += "@" + r.Old.Version
		}
		s.lines[key] = setting{value: r.New.Path + "@" + r.New.Version, line: lineOf(r.Syntax), text: syntaxText("replace", r.Syntax)}
	}
	for _, d := range debugs {
		s.lines["godebug "+d.Key] = setting{value: d.Value, line: lineOf(d.Syntax), text: syntaxText("godebug", d.Syntax)}
	}
	for _, u := range uses {
		s.lines["use "+path.Clean(u.Path)] = setting{value: u.Path, line: lineOf(u.Syntax), text: syntaxText("use", u.Syntax)}
	}
	return s
}

// manifestDiff names the go line where it crosses a version that changed
// the language's meaning, each setting the head adds or changes by its
// line on the head, and each it removes by its line on the base.
func manifestDiff(base, head moduleSettings) []string {
	var out []string
	for _, v := range semanticVersions {
		if (base.goMinor >= v.minor) != (head.goMinor >= v.minor) {
			text := head.goText
			if text == "" {
				text = "no go line (go 1.16)"
			}
			out = append(out, fmt.Sprintf("%s (was go 1.%d): from go 1.%d on, %s", lang.LineText(head.goLine, text), base.goMinor, v.minor, v.what))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(head.lines)) {
		if b, ok := base.lines[k]; !ok || b.value != head.lines[k].value {
			out = append(out, lang.LineText(head.lines[k].line, head.lines[k].text))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(base.lines)) {
		if _, ok := head.lines[k]; !ok {
			out = append(out, lang.LineText(base.lines[k].line, base.lines[k].text)+" (removed)")
		}
	}
	return out
}

// goMinor is the minor number of a go line's version ("1.22.3" is 22); 0
// for one it cannot read.
func goMinor(v string) int {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || parts[0] != "1" {
		return 0
	}
	digits := strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }) // 1.21rc1
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0
	}
	return n
}

func lineOf(l *modfile.Line) int {
	if l == nil {
		return 0
	}
	return l.Start.Line
}

// syntaxText is a directive as written, its verb given back where a block
// ("replace ( ... )") holds it.
func syntaxText(verb string, l *modfile.Line) string {
	if l == nil {
		return verb
	}
	if l.InBlock {
		return verb + " " + strings.Join(l.Token, " ")
	}
	return strings.Join(l.Token, " ")
}

// EncodesThrough names the methods encoding/json calls on a value the
// worker returns: a row's result is compared by what they write.
func (*goLang) EncodesThrough(method string) bool {
	return method == "MarshalJSON" || method == "MarshalText"
}

// goRunnerRe asks whether the code runs under go test: testing.Testing(),
// a -test. flag looked up, the binary's .test name.
var goRunnerRe = regexp.MustCompile(`\btesting\.Testing\(\)|flag\.Lookup\(\s*"test\.|os\.Args\[0\][^\n]*\.test\b`)

func (*goLang) RunnerTells(f diffparse.File) []string {
	if f.Language != "go" || strings.HasSuffix(f.Path, "_test.go") {
		return nil
	}
	return lang.AddedLinesMatching(f, goRunnerRe)
}
