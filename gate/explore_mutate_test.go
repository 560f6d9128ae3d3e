package gate

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The Python search's text changes include a digit changed in place: an
// identifier keeps its length
// and format (a validator parses it past its first checks), and its check
// digit's sum moves, so a number whose check remainder is the one a patch
// mishandles is among the calls (python-stdnum's uy.rut).
func TestPythonSearchChangesADigitInPlace(t *testing.T) {
	python, err := ResolvePython("")
	if err != nil {
		t.Fatalf("python3: %v (premise needs it, and CI installs it)", err)
	}
	const probe = `
import sys
ns = {"__name__": "premise_worker"}
exec(compile(sys.argv[1], "worker", "exec"), ns)
x = ns["_Explorer"](None, {"seed": 7, "tokens": ["abc"]})
seed = "12345673"
found = 0
for _ in range(4000):
    s = x.text(seed, seed)
    if len(s) == len(seed) and s.isdigit() and sum(a != b for a, b in zip(s, seed)) == 1:
        found += 1
print(found)
`
	out, err := exec.Command(python, "-c", probe, pythonWorker).CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v: %s", err, out)
	}
	// One change in a hundred or more: without the in-place change
	// only a span replaced by a one-digit token does it, a few in 4000.
	if n, err := strconv.Atoi(strings.TrimSpace(string(out))); err != nil || n < 40 {
		t.Errorf("4000 text changes of %q: %s changed one digit in place, want 40 or more", "12345673", out)
	}
}
