package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestMovedFunctionIsCompared: a function moved to a new module and
// re-exported under its old name is not new (issue 26): it is compared
// with the base's, and what the move changed is a change.
func TestMovedFunctionIsCompared(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"lib/__init__.py": "",
		"lib/old.py":      "def norm(s: str) -> str:\n    return s.strip().lower()\n",
	}
	head := map[string]string{
		"lib/old.py": "from lib.new import norm  # moved\n",
		"lib/new.py": "def norm(s: str) -> str:\n    return s.strip()\n",
	}
	rep := runCommits(t, base, head, nil)
	if hasChange(rep, "lib.new.norm", nil) {
		return
	}
	t.Errorf("lib.new.norm, moved from lib.old and changed, shows no change: changes %+v, new-function findings %+v, symbols %+v",
		append(rep.Changes, rep.Unexplained...), rep.NewFunctions, rep.Symbols)
}

// TestGoMovedFunctionIsCompared: the same in Go, the base's harness
// linking the base's name.
func TestGoMovedFunctionIsCompared(t *testing.T) {
	t.Parallel()
	mod := "module example.com/mv\n\ngo 1.21\n"
	base := map[string]string{
		"go.mod":   mod,
		"a/a.go":   "package a\n\nimport \"strings\"\n\n// Norm trims and lower-cases s.\nfunc Norm(s string) string {\n\treturn strings.ToLower(strings.TrimSpace(s))\n}\n",
		"b/doc.go": "package b\n",
	}
	head := map[string]string{
		"a/a.go": "package a\n\nimport \"example.com/mv/b\"\n\n// Norm moved to b.\nvar Norm = b.Norm\n",
		"b/b.go": "package b\n\nimport \"strings\"\n\n// Norm trims s.\nfunc Norm(s string) string {\n\treturn strings.TrimSpace(s)\n}\n",
	}
	rep := runCommits(t, base, head, nil)
	if hasChange(rep, "example.com/mv/b.Norm", nil) {
		return
	}
	t.Errorf("b.Norm, moved from a and changed, shows no change: changes %+v, symbols %+v",
		append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestDeletedButStillBoundIsCompared: a patch that deletes a function and
// binds its name to another one that already existed (an import of a
// looser helper) changes what every caller of the name gets: the base's
// function is compared with what the name is on the head. A plain
// deletion is not a target.
func TestDeletedButStillBoundIsCompared(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"lib/__init__.py": "",
		"lib/loose.py":    "def clamp01(x: float) -> float:\n    return x\n",
		"lib/m.py": "def clamp01(x: float) -> float:\n    return min(1.0, max(0.0, x))\n\n\n" +
			"def gone(x: int) -> int:\n    return x + 1\n",
	}
	head := map[string]string{
		"lib/m.py": "from lib.loose import clamp01\n",
	}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "lib.m.clamp01", nil) {
		t.Errorf("lib.m.clamp01, deleted and re-bound to a looser function, shows no change: changes %+v, symbols %+v",
			append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
	if g := symbolRows(t, rep, "lib.m.gone"); g.Rows != 0 || g.Unchecked {
		t.Errorf("lib.m.gone, deleted outright: rows %d, unchecked %v (%s); want no rows, not a target", g.Rows, g.Unchecked, g.Why)
	}
}

// TestGoDeletedButStillBoundIsCompared: the same in Go, the name kept by
// a package-level variable bound to a function that already existed.
func TestGoDeletedButStillBoundIsCompared(t *testing.T) {
	t.Parallel()
	mod := "module example.com/rb\n\ngo 1.21\n"
	base := map[string]string{
		"go.mod":     mod,
		"a/a.go":     "package a\n\n// Clamp01 bounds x to [0, 1].\nfunc Clamp01(x float64) float64 {\n\treturn min(1, max(0, x))\n}\n",
		"a/loose.go": "package a\n\nfunc loose(x float64) float64 { return x }\n",
	}
	head := map[string]string{
		"a/a.go": "package a\n\n// Clamp01 is loose now.\nvar Clamp01 = loose\n",
	}
	rep := runCommits(t, base, head, nil)
	if hasChange(rep, "example.com/rb/a.Clamp01", nil) {
		return
	}
	t.Errorf("a.Clamp01, deleted and re-bound to a looser function, shows no change: changes %+v, symbols %+v",
		append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestJSDeletedButStillExportedIsCompared: the same in JavaScript, the
// name re-exported from a module that already had a looser function.
func TestJSDeletedButStillExportedIsCompared(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"package.json": `{"type": "module"}`,
		"lib/loose.js": "export function loose(x) { return x; }\n",
		"lib/m.js":     "export function clamp01(x) {\n  return Math.min(1, Math.max(0, x));\n}\n",
	}
	head := map[string]string{
		"lib/m.js": "export { loose as clamp01 } from './loose.js';\n",
	}
	rep := runCommits(t, base, head, nil)
	if hasChange(rep, "lib/m.clamp01", nil) {
		return
	}
	t.Errorf("lib/m.clamp01, deleted and re-exported from a looser function, shows no change: changes %+v, symbols %+v",
		append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestGoInterfaceParameterGetsGoTypes: a function switching on its
// interface{} argument's dynamic type is called with Go's basic types,
// not only with what JSON decodes into (float64, string): a change in
// its int case shows.
func TestGoInterfaceParameterGetsGoTypes(t *testing.T) {
	t.Parallel()
	mod := "module example.com/kind\n\ngo 1.21\n"
	src := func(intCase string) string {
		return "package kind\n\n// Kind names v's kind.\nfunc Kind(v interface{}) string {\n\tswitch x := v.(type) {\n\tcase int:\n\t\t" + intCase +
			"\n\tcase string:\n\t\treturn \"text \" + x\n\t}\n\treturn \"other\"\n}\n"
	}
	base := map[string]string{"go.mod": mod, "kind.go": src(`if x < 0 {
			return "negative"
		}
		return "int"`)}
	head := map[string]string{"kind.go": src(`return "int"`)}
	rep := runCommits(t, base, head, nil)
	if hasChange(rep, "example.com/kind.Kind", func(c evidence.Change) bool { return strings.Contains(c.Input, "int(") }) {
		return
	}
	t.Errorf("Kind's int case changed and no int reached it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestGoReturnedSliceSharingStateIsSeen: a method that hands out its
// receiver's slice instead of a copy lets a caller change the receiver;
// the evidence sets the returned slice's first element and calls again,
// and the head that dropped the copy answers otherwise.
func TestGoReturnedSliceSharingStateIsSeen(t *testing.T) {
	t.Parallel()
	mod := "module example.com/seg\n\ngo 1.21\n"
	src := func(body string) string {
		return "package seg\n\n// V is a version.\ntype V struct{ parts []int64 }\n\n// New makes a version major.minor.\nfunc New(major, minor int64) *V { return &V{parts: []int64{major, minor}} }\n\n" +
			"// Parts are v's parts.\nfunc (v *V) Parts() []int64 {\n" + body + "\n}\n"
	}
	base := map[string]string{"go.mod": mod, "seg.go": src("\tout := make([]int64, len(v.parts))\n\tcopy(out, v.parts)\n\treturn out")}
	head := map[string]string{"seg.go": src("\treturn v.parts")}
	rep := runCommits(t, base, head, nil)
	if hasChange(rep, "example.com/seg.V.Parts", func(c evidence.Change) bool { return strings.Contains(c.Head, "shares its arguments' state") }) {
		return
	}
	t.Errorf("Parts hands out its receiver's slice on the head and no row saw it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestReturnedListSharingStateIsSeen: the same in Python, a method
// handing out its object's own list.
func TestReturnedListSharingStateIsSeen(t *testing.T) {
	t.Parallel()
	src := func(body string) string {
		// a bag of at most eight: the rows' numbers run to 2**63, and a
		// list of a billion took the test's time in building, not in items
		return "class Bag:\n    def __init__(self, n: int):\n        self._items = list(range(min(n, 8)))\n\n    def items(self):\n        " + body + "\n"
	}
	rep := runCommits(t, map[string]string{"bag.py": src("return list(self._items)")}, map[string]string{"bag.py": src("return self._items")}, nil)
	if hasChange(rep, "bag.Bag.items", func(c evidence.Change) bool { return strings.Contains(c.Head, "shares its arguments' state") }) {
		return
	}
	t.Errorf("items hands out the object's own list on the head and no row saw it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestRenamedAndChangedIsCompared: a patch that renames a function and
// changes it (clamp -> clamp_value, 100 -> 99) is compared with the
// function it replaced, not run on the head alone as new code; a file
// that drops one helper and adds an unrelated one pairs nothing.
func TestRenamedAndChangedIsCompared(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"m.py": "def clamp(n: int) -> int:\n    return max(0, min(100, n))\n\n\ndef double(n: int) -> int:\n    return 2 * n\n",
		"u.py": "def shout(s: str) -> str:\n    return s.upper() + '!'\n",
	}
	head := map[string]string{
		"m.py": "def clamp_value(n: int) -> int:\n    return max(0, min(99, n))\n\n\ndef double(n: int) -> int:\n    return 2 * n\n",
		"u.py": "def count_vowels(text: str) -> int:\n    total = 0\n    for c in text.lower():\n        if c in 'aeiou':\n            total += 1\n    return total\n",
	}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "m.clamp_value", nil) {
		t.Errorf("clamp renamed clamp_value and changed (100 -> 99): no change; changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
	if hasChange(rep, "u.count_vowels", nil) {
		t.Errorf("u.count_vowels, new beside a deleted unrelated helper, was compared with it: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// TestRenamedInCaseIsCompared: a patch that renames a function in case
// alone (bluemonday's sanitizedURL back to sanitizedUrl) while inlining
// the helpers it called, so the file loses three functions and gains one
// whose words changed, is that function renamed: it is compared with the
// base's, and what the patch changed in it is a change.
func TestRenamedInCaseIsCompared(t *testing.T) {
	t.Parallel()
	mod := "module example.com/rn\n\ngo 1.21\n"
	base := map[string]string{
		"go.mod": mod,
		"q/q.go": `package q

import "strings"

func split(s string) []string { return strings.Split(s, "&") }

func join(parts []string) string { return strings.Join(parts, "&") }

// CleanURL keeps the query's pairs in their order.
func CleanURL(s string) string {
	return join(split(s))
}
`,
	}
	head := map[string]string{
		"q/q.go": `package q

import (
	"sort"
	"strings"
)

// CleanUrl sorts the query's pairs.
func CleanUrl(s string) string {
	parts := strings.Split(s, "&")
	sort.Strings(parts)
	return strings.Join(parts, "&")
}
`,
	}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "example.com/rn/q.CleanUrl", nil) {
		t.Errorf("CleanURL renamed CleanUrl, its helpers inlined and the order sorted: no change; changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestDeletedOverrideIsCompared: a patch that deletes (or renames) a
// method overriding its base class's leaves its callers calling the base
// class's method (httpagentparser's getVersion, renamed get_version in
// three bot classes): the base's override is compared with what the name
// resolves to on the head. A deleted method no base class of the file has
// is not a target.
func TestDeletedOverrideIsCompared(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"lib/__init__.py": "",
		"lib/m.py": "class Detector:\n    def version(self, agent: str) -> str:\n        return agent.split('/')[-1]\n\n\n" +
			"class Bot(Detector):\n    def version(self, agent: str) -> str:\n        return ''\n\n    def extra(self, agent: str) -> str:\n        return agent\n",
	}
	head := map[string]string{
		"lib/m.py": "class Detector:\n    def version(self, agent: str) -> str:\n        return agent.split('/')[-1]\n\n\n" +
			"class Bot(Detector):\n    def get_version(self, agent: str) -> str:\n        return ''\n",
	}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "lib.m.Bot.version", nil) {
		t.Errorf("lib.m.Bot.version, an override renamed away, shows no change: changes %+v, symbols %+v",
			append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
	if g := symbolRows(t, rep, "lib.m.Bot.extra"); g.Rows != 0 || g.Unchecked {
		t.Errorf("lib.m.Bot.extra, deleted outright: rows %d, unchecked %v (%s); want no rows, not a target", g.Rows, g.Unchecked, g.Why)
	}
}
