// Package diffparse turns a git diff into the files, hunks and changed
// symbols a patch touched (seed 004, Step 1: "diff the patch, do not prompt
// from memory"). It is the only importer of sourcegraph/go-diff; Go syntax
// comes from go/parser and Python syntax from tree-sitter.
package diffparse
