// Package lang is the evidence engine's language seam: what a language is
// to the engine, and the types every language and the engine share.
//
// A Language finds the targets of a diff (the changed functions rows can
// call on both sides), reads their signatures and infers their parameters'
// types, makes rows for a target within a budget, each row naming the
// source that made it, and prints a call and an outcome the way a reviewer
// of that language writes them. What only some languages can do (rerun
// under other hash seeds, leave out a module that does not import, trace
// the base's tests for calls) is an optional interface a Language may also
// implement; the engine asks for it with a type assertion.
//
// The engine (package evidence: running, comparing, budgets, shrinking,
// reporting) names no language: it is handed a list of Languages by its
// caller. A Language keeps what only it knows about a target in
// Target.Data, which the engine never reads.
package lang
