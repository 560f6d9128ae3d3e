//go:build tools

// This file pins the libraries premise's packages are built on until each is
// imported by real code; remove a line once a package imports it.
package premise

import (
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/gowebpki/jcs"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/sashabaranov/go-openai"
	_ "github.com/sourcegraph/go-diff/diff"
	_ "github.com/tree-sitter/go-tree-sitter"
	_ "github.com/tree-sitter/tree-sitter-python/bindings/go"
	_ "golang.org/x/term"
	_ "gopkg.in/yaml.v3"
)
