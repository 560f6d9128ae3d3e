package gate

import (
	"strings"
	"testing"
)

// TestBuildErrorsQuoteNoSource: a harness build failure names the file and
// line, never the text the compiler quotes from it (a symlink to a secret
// would print its first line into CI logs).
func TestBuildErrorsQuoteNoSource(t *testing.T) {
	out := "# example.com/m\n./secret.go:1:1: expected 'package', found root:x:0:0:hunter2\n./a.go:3:2: undefined: \"s3cr3t\"\n"
	got := buildErrors(out)
	for _, leak := range []string{"hunter2", "s3cr3t", "root:x"} {
		if strings.Contains(got, leak) {
			t.Errorf("buildErrors(...) = %q: still quotes %q", got, leak)
		}
	}
	if !strings.Contains(got, "./secret.go:1:1: expected") || !strings.Contains(got, "./a.go:3:2: undefined") {
		t.Errorf("buildErrors(...) = %q: lost the file, line or message", got)
	}
}
