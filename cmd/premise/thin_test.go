package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerbsStayThin holds the CLI to flags -> options -> a stage's entry
// point -> writer: no function longer than 80 lines but the new...Cmd
// constructors, whose length is their help text. A longer function is a
// stage growing inside the CLI, where premise run cannot call it.
func TestVerbsStayThin(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || strings.HasPrefix(fd.Name.Name, "new") && strings.HasSuffix(fd.Name.Name, "Cmd") {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 80 {
				t.Errorf("%s: %s is %d lines; move the work into its stage's entry point", f, fd.Name.Name, n)
			}
		}
	}
}
