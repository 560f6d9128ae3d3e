// Package pysource reads evidence for one Python function out of the
// repository's own source, with no interpreter: the inputs its doctests and
// tests already call it with (Harvest), a type guess for each parameter read
// from annotations, stubs, docstrings, defaults, the body and the name
// (InferTypes), and the literals its code compares against (Constants).
// Issue 13, parts 1, 2 and 4, Python side; the caller builds rows from them
// (DESIGN.md, "Evidence: base versus head before review").
//
// Everything is Python source text: an Input's arguments are expressions as
// written, with local names bound once to a literal replaced by it, so
// iterators, lambdas and small objects, which JSON cannot carry, survive to
// the worker that evaluates them. An argument is taken only when it needs
// nothing but builtins, a few pure standard modules (its Input lists the
// imports) and names it binds itself; anything else (a test's helper
// object, a fixture, a global of the test file that is not a literal) drops
// that call, never the others.
//
// Untyped code is the common case: a parameter whose type cannot be read
// stays unknown (Guess.Kind "") and never hides what is known of the
// others. Guesses are guesses: the body says what a parameter is used as,
// not what the function accepts, and names are the least trusted source.
//
// A test's helper that forwards its parameters to the function (def
// assertMinified(self, js_input, expected): jsmin.jsmin(js_input)) is read
// through: each call of it is an input. What is not read: calls whose
// arguments are splatted (f(*rows)), other helper functions and objects a
// test defines, receivers built by a test helper or
// a pytest fixture (setUp and setup_method attributes are read), operators
// as method calls (a | b for union), parametrize on a class, and the types
// of elements beyond what a loop's unpacking, sum() or str.join show.
// Harvested inputs may be unbounded (itertools.count()): the worker's
// limits apply.
//
// Each file is parsed once with tree-sitter (Parse) and the File is reused
// by every call, which caches what it reads of the file's scopes; a File is
// therefore not safe for concurrent use. tree-sitter tolerates syntax
// errors, so a file that does not parse still yields what its well-formed
// parts hold.
package pysource
