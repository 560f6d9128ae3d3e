package evidence_test

import (
	"strings"
	"testing"
)

// A head that deletes the test holding the revealing input must not take
// the input away (issue 26): the base's tests are read too. The trigger is
// a hash, so no literal of the head's code names it.

const shout = `import hashlib


def shout(s: str) -> str:
    if hashlib.sha256(s.encode()).hexdigest()[:12] == "6eaf141afb05":
        return s
    return s.upper()
`

func TestBaseTestInputSurvivesItsDeletion(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"m.py":            "def shout(s: str) -> str:\n    return s.upper()\n",
		"tests/test_m.py": "import m\n\n\ndef test_fruit():\n    assert m.shout(\"kumquat\") == \"KUMQUAT\"\n",
	}
	head := map[string]string{"m.py": shout, "tests/test_m.py": "def test_nothing():\n    pass\n"}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.shout" && strings.Contains(c.Input, "kumquat") {
			return
		}
	}
	t.Errorf("m.shout: no change on \"kumquat\", the input of the base's test the head rewrote: %+v", append(rep.Changes, rep.Unexplained...))
}

func TestGoBaseTestInputSurvivesItsDeletion(t *testing.T) {
	t.Parallel()
	mod := "module example.com/shout\n\ngo 1.21\n"
	baseSrc := "package shout\n\nimport \"strings\"\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s)\n}\n"
	headSrc := "package shout\n\nimport (\n\t\"crypto/sha256\"\n\t\"fmt\"\n\t\"strings\"\n)\n\n// Shout upper-cases s.\nfunc Shout(s string) string {\n\tif fmt.Sprintf(\"%x\", sha256.Sum256([]byte(s)))[:12] == \"6eaf141afb05\" {\n\t\treturn s\n\t}\n\treturn strings.ToUpper(s)\n}\n"
	test := "package shout\n\nimport \"testing\"\n\nfunc TestFruit(t *testing.T) {\n\tif got := Shout(\"kumquat\"); got != \"KUMQUAT\" {\n\t\tt.Fatal(got)\n\t}\n}\n"
	rep := runCommits(t,
		map[string]string{"go.mod": mod, "shout.go": baseSrc, "shout_test.go": test},
		map[string]string{"shout.go": headSrc, "shout_test.go": "package shout\n"}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/shout.Shout" && strings.Contains(c.Input, "kumquat") {
			return
		}
	}
	t.Errorf("Shout: no change on \"kumquat\", the input of the base's test the head deleted: %+v", append(rep.Changes, rep.Unexplained...))
}
