// Package pysource reads evidence for one Python function out of the
// repository's own source, with no interpreter: the inputs its doctests and
// tests already call it with (Harvest), a type guess for each parameter read
// from annotations, stubs, docstrings, defaults, the body and the name
// (InferTypes), and the literals its code compares against (Constants).
//
// Everything is Python source text: an Input's arguments are expressions as
// written (after substituting literal-valued local names), so iterators,
// lambdas and small objects, which JSON cannot carry, survive to the worker
// that evaluates them. Untyped code is the common case (issue 13): a
// parameter whose type cannot be read stays unknown and never hides what is
// known of the others.
//
// Each file is parsed once with tree-sitter (Parse) and the File is reused
// by every call; tree-sitter tolerates syntax errors, so a file that does
// not parse still yields what its well-formed parts hold.
package pysource
