package python

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
)

// OutsideType is the Python side of typer: a parameter's kind as the
// merge-base's annotation, docstring, default or body says (never its name
// alone, never the head's: a patch that annotates a parameter anew must not
// thereby set its revealing inputs apart),
// against the row's value, by family (numbers, strings, sequences, mappings,
// callables). None is never judged, nor a value premise builds as a Python
// expression other than a builtin container (iter([1, 2]), (1, 2)): its
// type is not known here.
func (*pythonLang) OutsideType(tg lang.Target, args []any, kwargs map[string]any) string {
	if pyOf(tg) == nil || tg.Sig == nil {
		return ""
	}
	if tg.Receivers != nil && len(args) > 0 {
		args = args[1:] // the receiver
	}
	for i, a := range args {
		if i >= len(tg.Sig.Params) {
			break
		}
		if s, ok := a.(string); ok && slices.Contains(tg.DataLits, s) {
			// A word of the changed data the function reads: the data
			// names it, whatever its use suggested (x[unit] reads as
			// an index, and is a key of the table).
			continue
		}
		if why := outsideGuess(tg.Sig.Params[i].Name, pyOf(tg).baseGuesses[tg.Sig.Params[i].Name], a); why != "" {
			return why
		}
	}
	for k, a := range kwargs {
		if strings.HasPrefix(k, "$") {
			continue
		}
		if why := outsideGuess(k, pyOf(tg).baseGuesses[k], a); why != "" {
			return why
		}
	}
	return ""
}

// outsideGuess says why v is not a value of g, "" when it is or when g
// says too little.
func outsideGuess(name string, g pysource.Guess, v any) string {
	if v == nil || !g.Known() || g.From == "" || strings.HasPrefix(g.From, pysource.FromName) || onlyAnIndex(name, g) {
		return ""
	}
	if admits(g, v) {
		return ""
	}
	what := fmt.Sprintf("is %s (%s)", g.String(), g.From)
	if g.Kind == pysource.KindCallable {
		what = "is called"
	}
	got := lang.Compact(v, 40)
	if m, ok := v.(map[string]any); ok && builtKind(m) != "" {
		got = m[lang.ExprKey].(string)
	}
	return fmt.Sprintf("`%s` %s, and got %s", name, what, got)
}

// admits says whether a value is in g's family: a plain JSON value, or a
// builtin container premise wrote as an expression (builtKind); any other
// expression's type is not known here, and is admitted.
func admits(g pysource.Guess, v any) bool {
	var number, str, list, mapping bool
	switch x := v.(type) {
	case bool, int, int64, float64, json.Number:
		number = true
	case string:
		str = true
	case []any:
		list = true
	case map[string]any:
		if !isExpr(x) {
			mapping = true
			break
		}
		switch builtKind(x) {
		case pysource.KindList, pysource.KindTuple:
			list = true
		case pysource.KindSet:
			return takenBy(g, setTakers)
		case pysource.KindIterator:
			return takenBy(g, iteratorTakers)
		default:
			return true
		}
	default:
		return true
	}
	switch g.Kind {
	case pysource.KindInt, pysource.KindFloat, pysource.KindNumber, pysource.KindBool:
		return number
	case pysource.KindStr:
		return str
	case pysource.KindBytes, pysource.KindCallable:
		return false // JSON carries neither
	case pysource.KindList, pysource.KindTuple, pysource.KindSet:
		return list
	case pysource.KindSequence:
		return list || str
	case pysource.KindIterable, pysource.KindIterator, pysource.KindSized:
		return list || str || mapping
	case pysource.KindDict:
		return mapping
	case pysource.KindUnion:
		for _, p := range g.Parts {
			if !p.Known() || admits(p, v) {
				return true
			}
		}
		return false
	}
	return true // an object of a class, anything: not judged
}

// onlyAnIndex says the body guessed an int only from subscripts,
// table[name]: an index of a sequence, or as often a key of a mapping
// (json.load(f)[unit]), so a string there is no input outside the type.
func onlyAnIndex(name string, g pysource.Guess) bool {
	if g.Kind != pysource.KindInt || g.From != pysource.FromBody || g.Text == "" {
		return false
	}
	for _, use := range strings.Split(g.Text, ", ") {
		if !strings.HasSuffix(use, "["+name+"]") {
			return false
		}
	}
	return true
}

// isExpr says m is a value premise builds in the worker (an expression,
// a constructor call) rather than a dict.
func isExpr(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

// builtKind is the kind of a builtin container premise wrote as an
// expression alone ({"$expr": "iter([1, 2])"}), "" for any other
// expression: its type is not known without running it.
func builtKind(m map[string]any) string {
	src, ok := m[lang.ExprKey].(string)
	if !ok || len(m) != 1 {
		return ""
	}
	kind, _ := pysource.ExprType(src)
	return kind
}

// setTakers are the guesses that take a set: what iterates or takes a
// len() does, and a list or tuple parameter as a JSON list would (the
// interpreter cannot tell an annotation's list from a collection); what
// the body indexes or reverses does not.
var setTakers = []string{pysource.KindSet, pysource.KindList, pysource.KindTuple, pysource.KindIterable, pysource.KindIterator, pysource.KindSized}

// iteratorTakers are the guesses that take an iterator, which can be
// walked once and has no len() and no index: only what the body iterates.
var iteratorTakers = []string{pysource.KindIterable, pysource.KindIterator}

// takenBy says whether g takes a value that guesses of the kinds takers
// take: one of them, a union with such a part (or an unknown one), or no
// known kind at all.
func takenBy(g pysource.Guess, takers []string) bool {
	if slices.Contains(takers, g.Kind) {
		return true
	}
	if g.Kind == pysource.KindUnion {
		return slices.ContainsFunc(g.Parts, func(p pysource.Guess) bool { return !p.Known() || takenBy(p, takers) })
	}
	return !g.Known() || g.Kind == pysource.KindObject
}
