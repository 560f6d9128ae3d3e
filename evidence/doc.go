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
package evidence
