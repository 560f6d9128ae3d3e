package evidence

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// A private function changed in step with its callers (issue 24, item
// 6). A refactor of a module's inner protocol changes what a private
// helper answers and, in the same patch, every caller that reads the
// answer: mwparserfromhell's Tokenizer._handle_table_cell_end returned a
// tuple of the context, the cell and a flag, and returns the context
// alone now, each caller taking the cell from the stack itself. Called
// directly, the helper answers in another kind on every input; no caller
// reads that answer as it read the old one, and the callers, changed
// functions themselves, are where a difference would show. Such a
// difference, both sides having returned, in answers of two kinds (a
// tuple against a number; never against None, nil or null, which is the
// bug of a helper that forgot to answer), is listed apart.

// inStep are the private changed functions of res each of whose callers
// in its file is a function the patch changed too (at least one), with
// those callers' names. One called anywhere else (a statement of its
// file outside every function, another file of its directory in the
// head's tree: a Go package's, a Python package's) is not in step: that
// caller may read the old answer.
func inStep(res *diffparse.Result, langs lang.Languages, headDir string) map[string][]string {
	out := map[string][]string{}
	if res == nil {
		return out
	}
	for _, f := range res.Files {
		l := langs[f.Language]
		if l == nil || f.HeadSrc == nil {
			continue
		}
		changed := map[string]bool{}
		for _, s := range f.Symbols {
			if s.Change == "modified" && (s.Kind == "function" || s.Kind == "method") {
				changed[s.Local] = true
			}
		}
		if len(changed) < 2 {
			continue
		}
		decls, err := diffparse.Decls(f.Language, f.HeadSrc)
		if err != nil {
			continue
		}
		for _, s := range f.Symbols {
			if !changed[s.Local] || !private(l, lang.Target{Sym: s}) {
				continue
			}
			call := regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(lang.BareName(s.Local)) + callTail)
			if callers, ok := allChanged(f.HeadSrc, decls, s.Local, changed, call); ok && !calledBeside(l, headDir, f.Path, call) {
				out[s.Name] = callers
			}
		}
	}
	return out
}

// allChanged are the functions of decls (spans of src) whose bodies call
// what call finds, local's bare name, when every one of them is changed,
// there is one, and no line outside every function calls it.
func allChanged(src []byte, decls []diffparse.Decl, local string, changed map[string]bool, call *regexp.Regexp) ([]string, bool) {
	lines := strings.Split(string(src), "\n")
	inFunc := make([]bool, len(lines)+2)
	var callers []string
	for _, d := range decls {
		if d.Kind != "function" && d.Kind != "method" {
			continue
		}
		for n := max(d.Start, 1); n <= min(d.End, len(lines)); n++ {
			inFunc[n] = true
		}
		if d.Local == local {
			continue
		}
		text := lang.Span(src, d.Start, d.End)
		if _, body, ok := strings.Cut(text, "\n"); ok {
			text = body
		}
		if !call.MatchString(text) {
			continue
		}
		if !changed[d.Local] {
			return nil, false
		}
		callers = append(callers, d.Local)
	}
	for i, line := range lines {
		if !inFunc[i+1] && call.MatchString(line) {
			return nil, false // module-level code calls it
		}
	}
	sort.Strings(callers)
	return slices.Compact(callers), len(callers) > 0
}

// calledBeside says a regular file of l beside file in the head's tree
// (a test aside) calls what call finds, or that the directory could not
// be read whole.
func calledBeside(l lang.Language, headDir, file string, call *regexp.Regexp) bool {
	if headDir == "" {
		return true
	}
	dir := path.Dir(file)
	ents, err := os.ReadDir(filepath.Join(headDir, filepath.FromSlash(dir)))
	if err != nil {
		return true
	}
	read := 0
	for _, e := range ents {
		rel := path.Join(dir, e.Name())
		if rel == file || !e.Type().IsRegular() || !l.Owns(rel) || testLike(rel) {
			continue
		}
		if read++; read > maxEntryFiles {
			return true
		}
		b, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		if err != nil || call.Match(b) {
			return true
		}
	}
	return false
}

// reshaped says why a change of a private function changed in step with
// its callers (Report.inStep) is listed apart: both sides returned, in
// answers of two kinds. "" otherwise.
func (rep *Report) reshaped(c *Change) string {
	callers := rep.inStep[c.Symbol]
	if len(callers) == 0 || c.BaseOutcome == nil || c.HeadOutcome == nil ||
		c.BaseOutcome.Outcome != validate.OutcomeReturned || c.HeadOutcome.Outcome != validate.OutcomeReturned {
		return ""
	}
	b, h := valueKind(c.BaseOutcome.Value), valueKind(c.HeadOutcome.Value)
	if b == h || b == "" || h == "" || b == "null" || h == "null" {
		return ""
	}
	local := c.Symbol[strings.LastIndex(c.Symbol, ".")+1:]
	return "the patch changed what " + local + ", which only its own module calls, answers (" + b + " on the base, " + h + " on the head) and changed every caller of it in its file with it (" +
		strings.Join(callers, ", ") + "): no caller reads the new answer as it read the old, and its callers show what the patch changed"
}

// valueKind is the kind of a value as a worker encodes it: null, a
// boolean, a number, a string, a list, a tuple, an object of a class, a
// plain object; "" for any other encoding ({"$repr": "nan"}, a value the
// worker wrote as text), whose kind is not known here.
func valueKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "a list"
	case float64, json.Number, int, int64:
		return "a number"
	case map[string]any:
		if c, ok := x["$class"].(string); ok {
			return "an object of class " + c
		}
		if _, ok := x["$tuple"]; ok && len(x) == 1 {
			return "a tuple"
		}
		if _, ok := x["$number"]; ok && len(x) == 1 {
			return "a number"
		}
		for k := range x {
			if strings.HasPrefix(k, "$") {
				return ""
			}
		}
		return "an object"
	}
	return ""
}
