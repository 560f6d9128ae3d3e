// Package freeze keeps the registry of frozen tests of the user's own suite
// (seed 001, layer 3: "a registry that removes unreliable tests from the
// signal until they are fixed or expire"), in gate/frozen.json.
//
// Every entry has a reason and an expiry; the registry has a cap; a check
// warns inside a window before each expiry and fails from the day after
// it, naming the test and its owner. Gate reads the suite's results
// (package junit): a failure of a frozen, unexpired test is printed and
// counted but does not fail; every other failure does. A frozen test
// still runs and is reported; a freeze never deletes a test or a result.
//
// This registry is apart from the partition table's frozen rows
// (.gate/frozen_rows.json, seed 004), which gate owns.
package freeze
