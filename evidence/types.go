package evidence

import (
	"strconv"
	"strings"
)

var (
	intervalName = lazy(`(?i)^(ranges|intervals|spans|windows|periods|segments|slots|bounds|extents)$|_(ranges|intervals|spans|windows)$`)
	intName      = lazy(`(?i)^(n|k|i|j|count|size|len_?|length|ndigits|digits|precision|places|times|repeat|window|limit|index|idx|offset|start|end|stop|step|width|depth|level|port|retries|attempts|max\w*|min\w*|num_\w+|n_\w+|\w+_(count|size|len|index|idx|limit|id|n))$`)
	floatName    = lazy(`(?i)^(x|y|ratio|rate|scale|factor|weight|price|amount|threshold|alpha|\w+_(ratio|rate|weight|price|amount|score))$`)
	strName      = lazy(`(?i)^(s|text|name|key|path|prefix|suffix|sep|word|line|label|title|url|email|query|pattern|value_str|\w+_(name|str|text|key|path|id_str))$`)
	boolName     = lazy(`(?i)^(is_\w+|has_\w+|allow_\w+|strict|verbose|force|dry_run|enabled)$`)
	timeName     = lazy(`(?i)^(ts|dt|when|now|deadline|timestamp|\w+_(at|time|date|ts|dt))$`)
	intListName  = lazy(`(?i)^(ids|nums|numbers|counts|scores|sizes|values|vals|xs|ys|items|indices|offsets|ints|points|weights|amounts|prices|\w+_(ids|counts|sizes|scores))$`)
	strListName  = lazy(`(?i)^(names|words|lines|keys|emails|recipients|tags|labels|paths|urls|tokens|strings|parts|fields|\w+_(names|keys|emails|tags|lines))$`)
	dictName     = lazy(`(?i)^(d|m|mapping|counts_by_\w+|\w+_by_\w+|\w+_map|\w+_dict|headers|params|options|config|env)$`)
)

// inferPython reads a Python parameter's type from its annotation, its
// default, then its name, in that order of trust.
func inferPython(p Param) Type {
	if p.Type != "" {
		t := pyAnnotation(p.Type)
		if t.Kind == kindList && t.Elem == nil && intervalName.MatchString(p.Name) {
			t = Type{Kind: kindIntervals}
		}
		if t.Kind != kindUnknown {
			t.From, t.Text = "annotation", p.Type
			if p.Default == "None" {
				t.Nullable = true
			}
			if t.Kind == kindList && t.Elem == nil {
				if e := byName(p.Name); e.Kind == kindList {
					t.Elem = e.Elem
				}
			}
			return t
		}
	}
	if p.Default != "" && p.Default != "None" {
		if t := pyDefault(p.Default); t.Kind != kindUnknown {
			t.From = "default"
			if t.Kind == kindList {
				if e := byName(p.Name); e.Kind == kindList || e.Kind == kindIntervals {
					e.From = "default and name"
					return e
				}
				t.Elem = nil
			}
			return t
		}
	}
	t := byName(p.Name)
	t.From = "name"
	if p.Default == "None" {
		t.Nullable = true
	}
	return t
}

// byName guesses a type from a parameter's name alone.
func byName(name string) Type {
	switch {
	case intervalName.MatchString(name):
		return Type{Kind: kindIntervals}
	case intListName.MatchString(name):
		return Type{Kind: kindList, Elem: &Type{Kind: kindInt}}
	case strListName.MatchString(name):
		return Type{Kind: kindList, Elem: &Type{Kind: kindStr}}
	case timeName.MatchString(name):
		return Type{Kind: kindTime}
	case boolName.MatchString(name):
		return Type{Kind: kindBool}
	case intName.MatchString(name):
		return Type{Kind: kindInt}
	case floatName.MatchString(name):
		return Type{Kind: kindFloat}
	case strName.MatchString(name):
		return Type{Kind: kindStr}
	case dictName.MatchString(name):
		return Type{Kind: kindDict}
	}
	return Type{}
}

// pyAnnotation reads a Python annotation: int, str, list[int],
// Optional[list[tuple[int, int]]], Sequence[str] | None, ...
func pyAnnotation(a string) Type {
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
			return Type{}
		}
		a = rest[0]
	}
	head, args := a, ""
	if i := strings.IndexByte(a, '['); i > 0 && strings.HasSuffix(a, "]") {
		head, args = a[:i], a[i+1:len(a)-1]
	}
	head = head[strings.LastIndex(head, ".")+1:]
	var t Type
	switch head {
	case "Optional":
		t = pyAnnotation(args)
		nullable = true
	case "int":
		t = Type{Kind: kindInt}
	case "float", "Decimal":
		t = Type{Kind: kindFloat}
	case "str":
		t = Type{Kind: kindStr}
	case "bool":
		t = Type{Kind: kindBool}
	case "datetime", "date", "time", "timedelta":
		t = Type{Kind: kindTime}
	case "dict", "Dict", "Mapping", "MutableMapping":
		t = Type{Kind: kindDict}
	case "list", "List", "Sequence", "Iterable", "Collection", "MutableSequence", "set", "Set", "frozenset", "FrozenSet", "tuple", "Tuple":
		t = Type{Kind: kindList}
		if args != "" {
			elems := splitTopAt(args, ',')
			if (head == "tuple" || head == "Tuple") && !(len(elems) == 2 && strings.TrimSpace(elems[1]) == "...") {
				return Type{} // a fixed tuple is one value, not a list
			}
			if isPair(elems[0]) {
				t = Type{Kind: kindIntervals}
			} else if e := pyAnnotation(elems[0]); e.Kind != kindUnknown {
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
func pyDefault(d string) Type {
	switch {
	case d == "True" || d == "False":
		return Type{Kind: kindBool}
	case strings.HasPrefix(d, "\"") || strings.HasPrefix(d, "'"):
		return Type{Kind: kindStr}
	case strings.HasPrefix(d, "[") || strings.HasPrefix(d, "(") || d == "list()" || d == "tuple()":
		return Type{Kind: kindList}
	case strings.HasPrefix(d, "{") || d == "dict()":
		return Type{Kind: kindDict}
	}
	if _, err := strconv.ParseInt(d, 0, 64); err == nil {
		return Type{Kind: kindInt}
	}
	if _, err := strconv.ParseFloat(d, 64); err == nil {
		return Type{Kind: kindFloat}
	}
	return Type{}
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

// inferGo reads a Go parameter's type.
func inferGo(p Param) Type {
	t := goType(strings.TrimSpace(p.Type), p.Name)
	t.From, t.Text = "go type", p.Type
	return t
}

func goType(s, name string) Type {
	switch {
	case s == "int" || s == "int64" || s == "int32" || s == "int16" || s == "int8" || s == "uint" || s == "uint64" || s == "uint32" || s == "uint16" || s == "uint8" || s == "byte" || s == "rune":
		return Type{Kind: kindInt}
	case s == "float64" || s == "float32":
		return Type{Kind: kindFloat}
	case s == "string":
		return Type{Kind: kindStr}
	case s == "bool":
		return Type{Kind: kindBool}
	case s == "time.Duration":
		// Nanoseconds, as JSON carries them.
		return Type{Kind: kindInt, Text: s}
	case s == "time.Time" || s == "*time.Time":
		return Type{Kind: kindTime, Text: s}
	case s == "[][2]int" || s == "[][2]int64" || s == "[][2]float64" || ((s == "[][]int" || s == "[][]int64") && intervalName.MatchString(name)):
		return Type{Kind: kindIntervals}
	case strings.HasPrefix(s, "[]"):
		e := goType(s[2:], "")
		t := Type{Kind: kindList, Nullable: true}
		if e.Kind != kindUnknown {
			t.Elem = &e
		}
		return t
	case strings.HasPrefix(s, "..."):
		return Type{} // variadic: not built by templates
	case strings.HasPrefix(s, "map[string]"):
		return Type{Kind: kindDict, Nullable: true}
	case strings.HasPrefix(s, "*"):
		t := goType(s[1:], name)
		if t.Kind != kindUnknown {
			t.Nullable = true
		}
		return t
	}
	return Type{}
}

// Infer returns what the templates infer about a parameter of a function
// in lang: its annotation or declared type, then its default, then its
// name (a language premise has no reading of is read by the last two).
func Infer(lang string, p Param) Type {
	if l := staticLanguages[lang]; l != nil {
		return l.infer(p)
	}
	return inferPython(p)
}
