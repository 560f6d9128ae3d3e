package python

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/gate"
)

// refusedTypeRes find the type a TypeError or an AttributeError names in
// the interpreter's own wording of a value of the wrong type: what a
// builtin or an operator says when handed an argument it does not take.
// A message the code wrote itself ("name must be a string") names none,
// and stays a refusal of its own.
var refusedTypeRes = map[string][]*regexp.Regexp{
	"AttributeError": {wrongTypeRe},
	// A format spec the value's type does not have: f'{value:x}' of a
	// str.
	"ValueError": {regexp.MustCompile(`^Unknown format code '.' for object of type '(\w+)'$`)},
	// A list or a text read past its end as the code reads its input
	// (G[node] of [1, 2]): the argument is not what the code takes.
	"IndexError": {regexp.MustCompile(`^(list|tuple|str)(?:ing)? index out of range$`)},
	"TypeError": {
		regexp.MustCompile(`^expected (?:string|str|bytes)[\w -]*(?:object)?, got '(\w+)'$`),
		regexp.MustCompile(`^'(\w+)' object is not (?:iterable|subscriptable|callable|reversible|an iterator)$`),
		regexp.MustCompile(`^object of type '(\w+)' has no len\(\)$`),
		regexp.MustCompile(`^a bytes-like object is required, not '(\w+)'$`),
		regexp.MustCompile(`^argument of type '(\w+)' is not iterable$`),
		regexp.MustCompile(`^can only concatenate \w+ \(not "(\w+)"\) to \w+$`),
		regexp.MustCompile(`^(?:[\w.() ]+ )?(?:argument|arg \d+) must be [\w ,-]+, not (\w+)$`),
		regexp.MustCompile(`^must be [\w ,-]+, not (\w+)$`),
		// '%X' % value and format(value, 'd') of a value of another type.
		regexp.MustCompile(`^%\w format: an? [\w ]+ is required, not (\w+)$`),
		regexp.MustCompile(`^unsupported format string passed to (\w+)\.__format__$`),
		regexp.MustCompile(`^descriptor '\w+' for '\w+' objects doesn't apply to a '(\w+)' object$`),
		// A text or a list read as a mapping (G[node] where G is
		// 'abc'): the container is the refused value.
		regexp.MustCompile(`^(str)ing indices must be integers`),
		regexp.MustCompile(`^(list|tuple) indices must be integers or slices, not \w+$`),
	},
}

// RefusedType is the Python side of lang.Refuser: the type exc says it
// refused, when a top-level argument of the row is of that type (None
// passed where the body calls name.lower() and re.sub alike).
func (*pythonLang) RefusedType(exc *gate.Exc, args []any, kwargs map[string]any) string {
	if exc == nil {
		return ""
	}
	var typ string
	for _, re := range refusedTypeRes[exc.Class] {
		if m := re.FindStringSubmatch(exc.Message); m != nil {
			typ = m[len(m)-1]
			break
		}
	}
	if typ == "" && exc.Class == "TypeError" && varsArgRe.MatchString(exc.Message) {
		return onlyPlainType(args, kwargs)
	}
	if typ == "" {
		return ""
	}
	for _, a := range args {
		if isType(a, typ) || holdsType(a, typ) {
			return typ
		}
	}
	for k, a := range kwargs {
		if !strings.HasPrefix(k, "$") && (isType(a, typ) || holdsType(a, typ)) {
			return typ
		}
	}
	return ""
}

// isType says a plain argument is of Python type typ. A whole float64 is
// an int to pyTypeName, yet a row may carry it as the float it was made
// as (1.0, a shrunk 1.5): the interpreter naming a float is about it.
func isType(a any, typ string) bool {
	if _, ok := a.(float64); ok && typ == "float" {
		return true
	}
	return pyTypeName(a) == typ
}

// holdsType says a list argument has an item, or a dict argument a value,
// of type typ: [1, 2, 3] passed where the code reads each item as a
// list of its own ('int' object is not iterable) is refused by its items.
func holdsType(a any, typ string) bool {
	switch x := a.(type) {
	case []any:
		for _, v := range x {
			if pyTypeName(v) == typ {
				return true
			}
		}
	case map[string]any:
		if isExpr(x) {
			return false
		}
		for _, v := range x {
			if pyTypeName(v) == typ {
				return true
			}
		}
	}
	return false
}

// varsArgRe is vars()'s refusal of a value without a __dict__: the
// interpreter's words about the argument's type, though they name none.
// No plain value premise passes (str, list, dict, int, None, a builtin
// container) has a __dict__.
var varsArgRe = regexp.MustCompile(`^vars\(\) argument must have __dict__ attribute$`)

// onlyPlainType is the type of the row's one plain argument, the one a
// refusal that names no type can be about ("" when the row has none, or
// plain arguments of two types: which one was refused is not known).
// Arguments premise built as expressions of the code's own (a receiver)
// have a __dict__ and are not counted.
func onlyPlainType(args []any, kwargs map[string]any) string {
	typ := ""
	see := func(a any) bool {
		n := pyTypeName(a)
		if n == "" {
			return true
		}
		if typ != "" && typ != n {
			return false
		}
		typ = n
		return true
	}
	for _, a := range args {
		if !see(a) {
			return ""
		}
	}
	for k, a := range kwargs {
		if !strings.HasPrefix(k, "$") && !see(a) {
			return ""
		}
	}
	return typ
}

// pyTypeName is the Python type of a plain JSON argument, or of a builtin
// container premise wrote as an expression; "" for any other value
// premise builds as an expression (its type is not known here).
func pyTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case []any:
		return "list"
	case map[string]any:
		if src, ok := x[lang.ExprKey].(string); ok && len(x) == 1 {
			// A builtin container premise wrote as an expression
			// (iter([1, 2]): a list_iterator); "" for any other.
			_, name := pysource.ExprType(src)
			return name
		}
		if isExpr(x) {
			return ""
		}
		return "dict"
	case int, int64:
		return "int"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "int"
		}
		return "float"
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			return "float"
		}
		return "int"
	}
	return ""
}
