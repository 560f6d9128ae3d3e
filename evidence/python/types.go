package python

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// inferPython reads a Python parameter's type from its annotation, its
// default, then its name, in that order of trust.
func inferPython(p lang.Param) lang.Type {
	if p.Type != "" {
		t := pyAnnotation(p.Type)
		if t.Kind == lang.KindList && t.Elem == nil && lang.IntervalName.MatchString(p.Name) {
			t = lang.Type{Kind: lang.KindIntervals}
		}
		if t.Kind != lang.KindUnknown {
			t.From, t.Text = "annotation", p.Type
			if p.Default == "None" {
				t.Nullable = true
			}
			if t.Kind == lang.KindList && t.Elem == nil {
				if e := lang.ByName(p.Name); e.Kind == lang.KindList {
					t.Elem = e.Elem
				}
			}
			return t
		}
	}
	if p.Default != "" && p.Default != "None" {
		if t := pyDefault(p.Default); t.Kind != lang.KindUnknown {
			t.From = "default"
			if t.Kind == lang.KindList {
				if e := lang.ByName(p.Name); e.Kind == lang.KindList || e.Kind == lang.KindIntervals {
					e.From = "default and name"
					return e
				}
				t.Elem = nil
			}
			return t
		}
	}
	t := lang.ByName(p.Name)
	t.From = "name"
	if p.Default == "None" {
		t.Nullable = true
	}
	return t
}

// pyAnnotation reads a Python annotation: int, str, list[int],
// Optional[list[tuple[int, int]]], Sequence[str] | None, ...
func pyAnnotation(a string) lang.Type {
	a = strings.TrimSpace(strings.Trim(a, `"'`))
	nullable := false
	if parts := splitTopAt(a, '|'); len(parts) > 1 {
		var rest []string
		for _, p := range parts {
			if strings.TrimSpace(p) == "None" {
				nullable = true
			} else {
				rest = append(rest, strings.TrimSpace(p))
			}
		}
		if len(rest) != 1 {
			return lang.Type{}
		}
		a = rest[0]
	}
	head, args := a, ""
	if i := strings.IndexByte(a, '['); i > 0 && strings.HasSuffix(a, "]") {
		head, args = a[:i], a[i+1:len(a)-1]
	}
	head = head[strings.LastIndex(head, ".")+1:]
	var t lang.Type
	switch head {
	case "Optional":
		t = pyAnnotation(args)
		nullable = true
	case "int":
		t = lang.Type{Kind: lang.KindInt}
	case "float", "Decimal":
		t = lang.Type{Kind: lang.KindFloat}
	case "str":
		t = lang.Type{Kind: lang.KindStr}
	case "bool":
		t = lang.Type{Kind: lang.KindBool}
	case "datetime", "date", "time", "timedelta":
		t = lang.Type{Kind: lang.KindTime}
	case "dict", "Dict", "Mapping", "MutableMapping":
		t = lang.Type{Kind: lang.KindDict}
	case "list", "List", "Sequence", "Iterable", "Collection", "MutableSequence", "set", "Set", "frozenset", "FrozenSet", "tuple", "Tuple":
		t = lang.Type{Kind: lang.KindList}
		if args != "" {
			elems := splitTopAt(args, ',')
			if (head == "tuple" || head == "Tuple") && !(len(elems) == 2 && strings.TrimSpace(elems[1]) == "...") {
				return lang.Type{} // a fixed tuple is one value, not a list
			}
			if isPair(elems[0]) {
				t = lang.Type{Kind: lang.KindIntervals}
			} else if e := pyAnnotation(elems[0]); e.Kind != lang.KindUnknown {
				t.Elem = &e
			}
		}
	}
	if nullable {
		t.Nullable = true
	}
	return t
}

// isPair reports whether an annotation is a pair of numbers: tuple[int, int].
func isPair(a string) bool {
	a = strings.ReplaceAll(a, " ", "")
	return a == "tuple[int,int]" || a == "Tuple[int,int]" || a == "tuple[float,float]" || a == "Tuple[float,float]"
}

func splitTopAt(s string, sep byte) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// pyDefault reads a type from a default value's literal.
func pyDefault(d string) lang.Type {
	switch {
	case d == "True" || d == "False":
		return lang.Type{Kind: lang.KindBool}
	case strings.HasPrefix(d, "\"") || strings.HasPrefix(d, "'"):
		return lang.Type{Kind: lang.KindStr}
	case strings.HasPrefix(d, "[") || strings.HasPrefix(d, "(") || d == "list()" || d == "tuple()":
		return lang.Type{Kind: lang.KindList}
	case strings.HasPrefix(d, "{") || d == "dict()":
		return lang.Type{Kind: lang.KindDict}
	}
	if _, err := strconv.ParseInt(d, 0, 64); err == nil {
		return lang.Type{Kind: lang.KindInt}
	}
	if _, err := strconv.ParseFloat(d, 64); err == nil {
		return lang.Type{Kind: lang.KindFloat}
	}
	return lang.Type{}
}

// pyDefaultValue returns a default's value when it is a plain literal.
func pyDefaultValue(d string) (any, bool) {
	switch d {
	case "None":
		return nil, true
	case "True":
		return true, true
	case "False":
		return false, true
	case "[]", "()", "list()", "tuple()":
		return []any{}, true
	case "{}", "dict()":
		return map[string]any{}, true
	}
	if i, err := strconv.ParseInt(d, 10, 64); err == nil {
		return int(i), true
	}
	if f, err := strconv.ParseFloat(d, 64); err == nil {
		return f, true
	}
	if len(d) >= 2 && (d[0] == '"' || d[0] == '\'') && d[len(d)-1] == d[0] && !strings.ContainsAny(d[1:len(d)-1], `\"'`) {
		return d[1 : len(d)-1], true
	}
	return nil, false
}

// pyNameRe is a default that names one of the module's values.
var pyNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// namedDefaults are the defaults of sig that name a value of module (a
// constant table, a sentinel), each as an expression the worker evaluates
// after importing the module; pyDefaultValue's literals and dunder names
// are not among them.
func namedDefaults(module string, sig *lang.Signature) map[string]any {
	out := map[string]any{}
	for _, p := range sig.Params {
		if _, literal := pyDefaultValue(p.Default); literal || !pyNameRe.MatchString(p.Default) || strings.HasPrefix(p.Default, "__") || module == "" {
			continue
		}
		out[p.Name] = map[string]any{lang.ExprKey: module + "." + p.Default, lang.ImportsKey: []any{"import " + module}}
	}
	return out
}
