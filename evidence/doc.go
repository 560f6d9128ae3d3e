// Package evidence builds inputs for the functions a patch changes and
// runs them: Run compares base and head on them before review (the evidence
// a reviewer reads in draft.md), Extend adds rows for accepted assumptions to
// the partition table.
//
// Rows are generated (seed 004, Step 3) for
// the accepted assumptions of a register, offline: each assumption's
// precondition is read for its category (sorted, unique, non-empty,
// non-nil, non-zero, timezone, numeric string, ...), the target's signature
// for its parameters' types, and each class of that category is built from
// boundary values of those types, combined across parameters. A row states
// same_as_base (the head must do what the base does) unless the assumption
// itself says what must happen; a row no template can fill is written with
// a todo that premise check refuses, never with a made-up value.
//
// A Python target also reads its own source with pysource (issue 13):
// the calls its doctests and the repository's tests make lead its rows,
// each with its source recorded (Change.Source); each parameter's pool
// comes from the harvested values, the constants of both versions
// (k-1, k, k+1; len(x) against k), the type pysource infers, or, when
// nothing speaks for it, a mixed pool: an unknown parameter never cancels
// the others. Rows vary one parameter at a time, mutate harvested values
// and cross parameters pairwise, drawn from one seed per run (Report.Seed),
// within a budget per function and per run. The worker evaluates
// harvested expressions (iter('ab'), lambdas), compares a returned
// iterator by its first items and an argument's state after the call.
// Functions that read changed module-level data are targets too. Each
// symbol's smallest differing rows are shrunk into witnesses, shown in
// Python syntax.
package evidence
