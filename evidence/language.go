package evidence

import "github.com/premise-dev/premise/evidence/lang"

// languageOfFile is the language a file's path is in, nil when no
// language owns it.
func languageOfFile(path string) lang.Language {
	for _, n := range lang.StaticLanguages().Names() {
		if l := lang.StaticLanguages()[n]; l.Owns(path) {
			return l
		}
	}
	return nil
}

// typedLanguage says whether lang checks calls against types; a language
// the run does not know is taken as not.
func typedLanguage(langName string) bool {
	l := lang.StaticLanguages()[langName]
	return l != nil && l.Typed()
}

// defaultValue is p's default in lang when it is a plain literal.
func defaultValue(langName string, p Param) (any, bool) {
	l := lang.StaticLanguages()[langName]
	if l == nil || p.Default == "" {
		return nil, false
	}
	return l.DefaultValue(p)
}
