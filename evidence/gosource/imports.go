package gosource

import (
	"go/parser"
	"go/token"
	"strconv"
)

// Import is one import of a Go file: its path, and the name the file
// gives it ("" when it gives none).
type Import struct {
	Path, Name string
}

// FileImports reads only the package clause and the imports of the Go
// file at path: its package's name and what it imports.
func FileImports(path string) (pkg string, imports []Import, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return "", nil, err
	}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		var name string
		if im.Name != nil {
			name = im.Name.Name
		}
		imports = append(imports, Import{Path: p, Name: name})
	}
	return f.Name.Name, imports, nil
}
