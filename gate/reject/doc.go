// Package reject keeps the must-reject corpus of seed 000: human-owned
// fixtures of inputs that production already rejects, each locked by the
// sha256 of its bytes in must_reject.lock.json together with the failure
// that must still occur (an exception class and code, or an HTTP status and
// body code). A Runner re-hashes every fixture on every run, calls the subject
// through a gate.Adapter in a separate process (or sends the fixture to an
// HTTP endpoint), and reports each entry as held or broken; a forbidden input
// that starts returning a value fails the gate. Guard checks that commits
// touching the corpus or the lockfile carry a reviewer's Signed-off-by trailer.
package reject
