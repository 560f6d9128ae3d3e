package evidence_test

import (
	"strings"
	"testing"
)

// TestChangedTestsAreNotJudged: a patch that changes a function and its
// tests. The tests' functions are read for inputs, not judged: they get
// no rows, say why, and leave the run free to say the gate holds for
// the function; a Go test's *testing.T is no value premise is missing.
func TestChangedTestsAreNotJudged(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name           string
		base, head     map[string]string
		function, test string
	}{
		{
			name: "go",
			base: map[string]string{
				"go.mod":        "module example.com/twice\n\ngo 1.21\n",
				"twice.go":      "package twice\n\n// Twice is n doubled.\nfunc Twice(n int) int { return n * 2 }\n",
				"twice_test.go": "package twice\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal(\"2\")\n\t}\n}\n",
			},
			head: map[string]string{
				"twice.go":      "package twice\n\n// Twice is n doubled.\nfunc Twice(n int) int { return n + n }\n",
				"twice_test.go": "package twice\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(3) != 6 {\n\t\tt.Fatal(\"3\")\n\t}\n}\n",
			},
			function: "example.com/twice.Twice", test: "example.com/twice.TestTwice",
		},
		{
			name: "python",
			base: map[string]string{
				"twice.py":            "def twice(n):\n    return n * 2\n",
				"tests/test_twice.py": "from twice import twice\n\n\ndef check(n, want):\n    assert twice(n) == want\n\n\ndef test_twice():\n    check(2, 4)\n",
			},
			head: map[string]string{
				"twice.py":            "def twice(n):\n    return n + n\n",
				"tests/test_twice.py": "from twice import twice\n\n\ndef check(n, want):\n    assert twice(n) == want, n\n\n\ndef test_twice():\n    check(3, 6)\n",
			},
			function: "twice.twice", test: "tests.test_twice.check",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := runCommits(t, c.base, c.head, nil)
			f := symbolRows(t, rep, c.function)
			if f.Rows == 0 || f.Unchecked {
				t.Errorf("%s: %d rows, unchecked %v (%s): the function is judged", c.function, f.Rows, f.Unchecked, f.Why)
			}
			tst := symbolRows(t, rep, c.test)
			if tst.Rows != 0 || tst.Unchecked || !strings.Contains(tst.Why, "test file") {
				t.Errorf("%s: %d rows, unchecked %v, why %q: want no rows, not unchecked, a test file's reason", c.test, tst.Rows, tst.Unchecked, tst.Why)
			}
			if len(rep.Changes)+len(rep.Unexplained) != 0 {
				t.Errorf("a refactor showed changes: %+v", append(rep.Changes, rep.Unexplained...))
			}
		})
	}
}
