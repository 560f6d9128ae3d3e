package lang

// Kinds of parameter the templates can build values for.
const (
	KindUnknown   = ""
	KindInt       = "int"
	KindFloat     = "float"
	KindStr       = "str"
	KindBool      = "bool"
	KindList      = "list"      // Elem says of what
	KindIntervals = "intervals" // a list of [start, end] pairs (seed 004's ranges)
	KindDict      = "dict"
	KindTime      = "time"   // no JSON form: rows need a human
	KindAny       = "any"    // Go's interface{}: any JSON value
	KindStruct    = "struct" // a Go struct: a JSON object of its exported fields
	KindFunc      = "func"   // a Go func: a callback the harness makes ({"$func": ...})
	KindWriter    = "writer" // a Go io.Writer: a buffer whose contents are compared ({"$writer": true})
	KindReader    = "reader" // a Go io.Reader: a reader of text ({"$reader": "..."})
)

// Type is what the templates inferred about a parameter.
type Type struct {
	Kind     string `json:"kind"`
	Elem     *Type  `json:"elem,omitempty"`
	Nullable bool   `json:"nullable,omitempty"` // None/nil is a value of the domain, not outside it
	// From says what the kind was read from: annotation, go type, default,
	// or name, so a reviewer can judge a guess.
	From string `json:"from"`
	Text string `json:"text,omitempty"` // the type as written, for messages
	// Fields are a Go struct's exported fields a row can fill.
	Fields []Field `json:"fields,omitempty"`
	// Consts are the constants a Go package declares of a named type.
	Consts []any `json:"consts,omitempty"`
}

// Field is one field of a Go struct, by its JSON key.
type Field struct {
	Name string `json:"name"`
	Type Type   `json:"type"`
}

// Known reports whether values can be built for the type.
func (t Type) Known() bool {
	switch t.Kind {
	case KindUnknown, KindTime:
		return false
	case KindList:
		return t.Elem != nil && t.Elem.Known()
	}
	return true
}

// Param is one parameter of a target function.
type Param struct {
	Name string `json:"name"`
	// Type is the Go type or the Python annotation as written; "" when
	// the Python parameter has none.
	Type string `json:"type,omitempty"`
	// Default is a Python default value as written; "" when there is none.
	Default     string `json:"default,omitempty"`
	KeywordOnly bool   `json:"keyword_only,omitempty"` // Python, after * or *args
}

// Signature is what the templates know of a target: its language and
// parameters, without receivers, self or cls.
type Signature struct {
	Language string  `json:"language"` // python or go
	Params   []Param `json:"params"`
	// Generic is set for a Go function with type parameters, which
	// TypeParams lists with their constraints as written (Type).
	Generic    bool    `json:"generic,omitempty"`
	TypeParams []Param `json:"type_params,omitempty"`
	// Varargs is a Python function's *args (its name without the star),
	// nil when it has none; Params never hold it.
	Varargs *Param `json:"varargs,omitempty"`
	// Kwargs is a Python function's **kwargs (its name without the
	// stars), nil when it has none.
	Kwargs *Param `json:"kwargs,omitempty"`
}

var (
	IntervalName = Lazy(`(?i)^(ranges|intervals|spans|windows|periods|segments|slots|bounds|extents)$|_(ranges|intervals|spans|windows)$`)
	IntName      = Lazy(`(?i)^(n|k|i|j|count|size|len_?|length|ndigits|digits|precision|places|times|repeat|window|limit|index|idx|offset|start|end|stop|step|width|depth|level|port|retries|attempts|max\w*|min\w*|num_\w+|n_\w+|\w+_(count|size|len|index|idx|limit|id|n))$`)
	FloatName    = Lazy(`(?i)^(x|y|ratio|rate|scale|factor|weight|price|amount|threshold|alpha|\w+_(ratio|rate|weight|price|amount|score))$`)
	StrName      = Lazy(`(?i)^(s|text|name|key|path|prefix|suffix|sep|word|line|label|title|url|uri|iri|host|hostname|domain|scheme|netloc|email|query|pattern|selector|html|markup|msg|message|filename|fname|encoding|charset|token|tag|value_str|\w+_(name|str|text|key|path|id_str|url|uri))$`)
	BoolName     = Lazy(`(?i)^(is_\w+|has_\w+|allow_\w+|strict|verbose|force|dry_run|enabled)$`)
	TimeName     = Lazy(`(?i)^(ts|dt|when|now|deadline|timestamp|\w+_(at|time|date|ts|dt))$`)
	IntListName  = Lazy(`(?i)^(ids|nums|numbers|counts|scores|sizes|values|vals|xs|ys|items|indices|offsets|ints|points|weights|amounts|prices|\w+_(ids|counts|sizes|scores))$`)
	StrListName  = Lazy(`(?i)^(names|words|lines|keys|emails|recipients|tags|labels|paths|urls|tokens|strings|parts|fields|\w+_(names|keys|emails|tags|lines))$`)
	DictName     = Lazy(`(?i)^(d|m|mapping|counts_by_\w+|\w+_by_\w+|\w+_map|\w+_dict|headers|params|options|config|env)$`)
)

// ByName guesses a type from a parameter's name alone.
func ByName(name string) Type {
	switch {
	case IntervalName.MatchString(name):
		return Type{Kind: KindIntervals}
	case IntListName.MatchString(name):
		return Type{Kind: KindList, Elem: &Type{Kind: KindInt}}
	case StrListName.MatchString(name):
		return Type{Kind: KindList, Elem: &Type{Kind: KindStr}}
	case TimeName.MatchString(name):
		return Type{Kind: KindTime}
	case BoolName.MatchString(name):
		return Type{Kind: KindBool}
	case IntName.MatchString(name):
		return Type{Kind: KindInt}
	case FloatName.MatchString(name):
		return Type{Kind: KindFloat}
	case StrName.MatchString(name):
		return Type{Kind: KindStr}
	case DictName.MatchString(name):
		return Type{Kind: KindDict}
	}
	return Type{}
}

// Infer returns what the templates infer about a parameter of a function
// in lang: its annotation or declared type, then its default, then its
// name (a language premise has no reading of is read by its name alone).
func Infer(lang string, p Param) Type {
	if l := StaticLanguages()[lang]; l != nil {
		return l.Infer(p)
	}
	return ByName(p.Name)
}
