package evidence_test

import (
	"testing"
)

// TestChangedDataIsCompared: a patch that changes only a data file the
// code reads (a table of units) changes what the functions reading it
// return, and premise compares them as changed functions: the function
// that names the file, a reader of module data that names it, a Go
// variable //go:embed fills, a JavaScript module's require. The changed
// data's words are their inputs ("k", an entry that changed).
func TestChangedDataIsCompared(t *testing.T) {
	t.Parallel()
	units := map[string]string{"units.json": `{"k": 1000, "M": 1000000}` + "\n"}
	changed := map[string]string{"units.json": `{"k": 1024, "M": 1000000}` + "\n"}
	with := func(files map[string]string, more map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range files {
			out[k] = v
		}
		for k, v := range more {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name, symbol string
		files        map[string]string
	}{
		{"python function", "conv.scale", map[string]string{
			"conv.py": "import json\nimport os\n\n_HERE = os.path.dirname(os.path.abspath(__file__))\n\n\n" +
				"def scale(unit):\n    with open(os.path.join(_HERE, \"units.json\")) as f:\n        return json.load(f)[unit]\n",
		}},
		{"python module data", "conv.scale", map[string]string{
			"conv.py": "import json\nimport os\n\n_UNITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'units.json')\n\n\n" +
				"def scale(unit: str) -> int:\n    with open(_UNITS) as f:\n        return json.load(f)[unit]\n",
		}},
		{"go embed", "example.com/conv.Scale", map[string]string{
			"go.mod": "module example.com/conv\n\ngo 1.21\n",
			"conv.go": "package conv\n\nimport (\n\t_ \"embed\"\n\t\"encoding/json\"\n)\n\n//go:embed units.json\nvar units []byte\n\n" +
				"// Scale is the multiplier of a unit suffix.\nfunc Scale(unit string) int {\n\tm := map[string]int{}\n\t_ = json.Unmarshal(units, &m)\n\treturn m[unit]\n}\n",
		}},
		{"javascript require", "index.scale", map[string]string{
			"package.json": `{"name": "conv"}`,
			"index.js":     "const units = require(\"./units.json\");\n\nfunction scale(unit) {\n  return units[unit];\n}\n\nmodule.exports = { scale };\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := runCommits(t, with(c.files, units), changed, nil)
			if !hasChange(rep, c.symbol, nil) {
				t.Errorf("%s reads units.json, which the patch changed (k: 1000 -> 1024): no change; changes %+v, symbols %+v",
					c.symbol, append(rep.Changes, rep.Unexplained...), rep.Symbols)
			}
		})
	}
}

// TestDataOnlyTestsReadIsNoTarget: a fixture only a test reads, and a
// data file no code names, make no function a target; the data file no
// source names is not checked (issue 26: code that builds its name reads
// it unseen), the tests' fixture is no part of the code.
func TestDataOnlyTestsReadIsNoTarget(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"conv.py":               "def twice(n: int) -> int:\n    return 2 * n\n",
		"tests/data/cases.json": "[1, 2]\n",
		"tests/test_conv.py":    "import json\nfrom conv import twice\n\n\ndef test_twice():\n    for n in json.load(open('tests/data/cases.json')):\n        assert twice(n) == 2 * n\n",
		"words.txt":             "alpha\n",
	}
	head := map[string]string{"tests/data/cases.json": "[1, 2, 3]\n", "words.txt": "alpha\nbeta\n"}
	rep := runCommits(t, base, head, nil)
	if len(rep.Symbols) != 1 || rep.Symbols[0].Symbol != "words.txt" || !rep.Symbols[0].Unchecked || rep.Rows != 0 {
		t.Errorf("a fixture of the tests and an unread word list changed: symbols %+v, %d rows; want words.txt alone, not checked, and no row", rep.Symbols, rep.Rows)
	}
}
