// Package lang is the evidence engine's seam: what a language is, and what
// the engine and every language share.
//
// The engine (package evidence) reaches a language only through Language
// and its optional capabilities (Reseeder, ModuleDropper, Tracer,
// Observer, Rebinder, Coverer, Typer). Each language lives in a package of
// its own (evidence/python, evidence/golang, evidence/javascript) that
// imports this one and its own source reader, never the engine or another
// language, and registers its Constructor with Register from its init;
// evidence/languages links them all in.
//
// Beside the interface it holds the shared types (Type and its kinds,
// Param, Signature, Target with the language's data as one opaque field,
// Origin), the row protocol's "$" keys, and the shared ways of making
// inputs, each a named Source: a type's pool (Pool), mutations, numbers
// around a function's constants, regular-expression samples, pairwise and
// one-at-a-time combinations. It sits on the gate (a Reply is what a
// language describes) and imports no other stage (TestImportRule).
package lang
