package main

import (
	"context"
	"errors"
	"fmt"
)

// Exit codes shared by every command (DESIGN.md, "Exit codes").
const (
	exitHolds       = 0   // the gate holds
	exitFailed      = 1   // a row failed, errored or flaked; a forbidden input succeeded
	exitBlocked     = 2   // blocked by policy: flake budget, unsigned protected path
	exitCouldNotRun = 3   // bad flags, invalid input, unreachable endpoint
	exitNothing     = 4   // nothing was checked: no row ran, an empty table or corpus
	exitInterrupted = 130 // interrupted by a signal
)

// exitError carries a verdict's exit code out of a command. A nil err means
// the command already reported why; only the code remains to be returned.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// verdict returns an error that makes Main exit with code without printing
// anything more: the command has already written its report.
func verdict(code int) error {
	if code == exitHolds {
		return nil
	}
	return &exitError{code: code}
}

// exitCode maps an error returned by a command to the process exit status.
// Anything not explicitly a verdict is "premise could not do its job".
func exitCode(err error) int {
	if err == nil {
		return exitHolds
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.Is(err, context.Canceled) {
		return exitInterrupted
	}
	return exitCouldNotRun
}

// allExits are premise's exit codes as premise --help lists them.
var allExits = []string{
	"0 the gate holds",
	"1 the gate failed: a row failed, errored or flaked; a forbidden input succeeded; a fixture's hash drifted; a freeze expired; assumptions await review",
	"2 blocked by policy: the flake budget is exceeded; a protected path changed without a trusted sign-off",
	"3 premise could not do its job: bad flags, unreadable or invalid input, model endpoint unreachable after retries",
	"4 nothing was checked: no row ran, an empty table, an empty corpus (--allow-empty makes it 0)",
	"130 interrupted by a signal",
}
