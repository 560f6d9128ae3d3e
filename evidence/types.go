package evidence

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

// Infer returns what the templates infer about a parameter of a function
// in lang: its annotation or declared type, then its default, then its
// name (a language premise has no reading of is read by its name alone).
func Infer(lang string, p Param) Type {
	if l := staticLanguages()[lang]; l != nil {
		return l.infer(p)
	}
	return byName(p.Name)
}
