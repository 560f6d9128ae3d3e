// Package jssource reads evidence for one JavaScript or TypeScript
// function out of the repository's own source, with no Node: the calls its
// tests already make with literal arguments (Harvest: Jest and Vitest
// test.each, it.each and describe.each tables in both their array and
// tagged-template forms, expect(fn(...)) and assert.strictEqual(fn(...))
// in Jest, Vitest, Mocha and node:test files, and forEach loops over a
// literal table feeding tests), a type for each parameter read from its
// TypeScript annotation, its JSDoc @param tag or its default (InferTypes),
// and the literals its code compares against (Constants), so that inputs
// can be made at the edges. Issue 27, part 2, the source side; the caller
// builds rows from them.
//
// Everything is JavaScript source text: an Input's arguments are literals
// as written (numbers, BigInt, strings, template strings without
// substitutions, arrays, objects, null, undefined, booleans, NaN,
// Infinity, negated numbers), with a name bound once by const to such a
// literal replaced by it, and re-spaced (comments dropped). A call with any
// other argument (a variable of the test, a helper's result, a spread) is
// dropped, never the others.
//
// The functions here are pure: they read the bytes the caller hands in
// and nothing else. Each file is parsed once with tree-sitter (Parse),
// with the grammar its extension names (.ts, .mts, .cts: TypeScript; .tsx:
// TSX; others: JavaScript, which reads JSX); a file its grammar refuses is
// read again with TSX (Flow annotations), and a file neither reads still
// yields what its well-formed parts hold. A File is not safe for
// concurrent use.
package jssource
