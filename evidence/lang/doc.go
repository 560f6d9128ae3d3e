// Package lang holds the types the evidence engine and its languages
// share: a parameter's inferred Type and its kinds, Param and Signature.
//
// It is the seam's package: the engine (package evidence) reaches a
// language only through its language interface (evidence/language.go),
// whose Python and Go implementations still live beside the engine; they
// move into packages of their own next, importing this one and never the
// engine. Nothing here imports a stage but diffparse and validate
// (TestImportRule).
package lang
