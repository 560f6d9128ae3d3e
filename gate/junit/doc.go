// Package junit reads the results of a user's own test suite: JUnit XML as
// pytest, gotestsum, Maven Surefire and most runners write it, and the event
// stream of go test -json. Every result becomes a Case keyed by a node id
// that the freeze registry (seed 001) and the flake ledger (seed 002) use as
// their key: tests/x.py::TestK::test_y[param] for pytest, the package and
// test for Go (example.com/m/pkg::TestA/sub), classname::name otherwise.
//
// A test a runner reran (gotestsum's repeated testcases, Surefire's
// flakyFailure and rerunFailure, go test -count=N) is one Case with several
// Attempts, so a flake is seen as a flake and never as a pass.
package junit
