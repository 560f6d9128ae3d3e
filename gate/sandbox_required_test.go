package gate

import (
	"os"
	"testing"
)

// needBox stops a test of the sealed box on a kernel that refuses the
// namespace it needs (ok false): a skip naming the kernel's refusal on a
// developer's machine, where premise itself says the same in every
// report, but a failure where PREMISE_REQUIRE_SANDBOX=1 (.ci/run sets it),
// so CI never passes with the box untested.
func needBox(t *testing.T, ok bool, what string) {
	t.Helper()
	if ok {
		return
	}
	why := "this kernel refuses a " + what + ": " + Isolation()
	if os.Getenv("PREMISE_REQUIRE_SANDBOX") == "1" {
		t.Fatal(why + " (PREMISE_REQUIRE_SANDBOX=1: the box must be tested here)")
	}
	t.Skip(why)
}
