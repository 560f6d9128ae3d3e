package diffparse

import "fmt"

// frontEnd finds the declarations of one language. Adding a language
// (TypeScript, Java, Rust) is one file that implements it and one line in
// frontEnds (issue 2).
type frontEnd interface {
	// language is the name in File.Language: "go", "python",
	// "javascript", "typescript".
	language() string
	// handles reports whether a path is in this language.
	handles(path string) bool
	// decls returns the file's functions, methods and types (or classes),
	// innermost ones included, with their spans. A file that does not parse
	// returns an error and no declarations.
	decls(src []byte) ([]Decl, error)
	// generated reports whether the source says it was generated.
	generated(src []byte) bool
	// qualifier returns the prefix of qualified names in the file at path:
	// an import path, a module path. read returns a file of the same
	// commit, for go.mod and the like.
	qualifier(path string, read func(path string) ([]byte, bool)) string
}

// frontEnds are the languages premise maps symbols for.
var frontEnds = []frontEnd{goFrontEnd{}, pythonFrontEnd{}, jsFrontEnd{LangJavaScript}, jsFrontEnd{LangTypeScript}}

// fileExcluder is a front end that excludes files of its language by more
// than their path: JavaScript's minified bundles and TypeScript's
// declaration files. excluded says why f gets no symbols, or "".
type fileExcluder interface {
	excluded(f *File) string
}

func frontEndFor(language string) frontEnd {
	for _, fe := range frontEnds {
		if fe.language() == language {
			return fe
		}
	}
	return nil
}

// Decls returns the declarations a language's front end finds in src:
// functions, methods, types and classes with their spans, nested ones
// included. It returns an error for an unknown language or a file that does
// not parse.
func Decls(language string, src []byte) ([]Decl, error) {
	fe := frontEndFor(language)
	if fe == nil {
		return nil, fmt.Errorf("no front end for language %q", language)
	}
	return fe.decls(src)
}

// Qualifier returns the prefix of qualified names in the file at path of
// language (an import path, a module path), read returning the files of
// the same commit that name it (go.mod); "" for an unknown language.
func Qualifier(language, path string, read func(path string) ([]byte, bool)) string {
	fe := frontEndFor(language)
	if fe == nil {
		return ""
	}
	return fe.qualifier(path, read)
}

// LanguageOf names the language premise reads a file of path as ("go",
// "python", "javascript", "typescript"), "" for any other file.
func LanguageOf(path string) string { return languageOf(path) }
