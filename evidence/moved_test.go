package evidence_test

import "testing"

// TestMovedFunctionIsCompared: a function moved to a new module and
// re-exported under its old name is not new (issue 26): it is compared
// with the base's, and what the move changed is a change.
func TestMovedFunctionIsCompared(t *testing.T) {
	base := map[string]string{
		"lib/__init__.py": "",
		"lib/old.py":      "def norm(s: str) -> str:\n    return s.strip().lower()\n",
	}
	head := map[string]string{
		"lib/old.py": "from lib.new import norm  # moved\n",
		"lib/new.py": "def norm(s: str) -> str:\n    return s.strip()\n",
	}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "lib.new.norm" {
			return
		}
	}
	t.Errorf("lib.new.norm, moved from lib.old and changed, shows no change: changes %+v, new-function findings %+v, symbols %+v",
		append(rep.Changes, rep.Unexplained...), rep.NewFunctions, rep.Symbols)
}

// TestGoMovedFunctionIsCompared: the same in Go, the base's harness
// linking the base's name.
func TestGoMovedFunctionIsCompared(t *testing.T) {
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
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/mv/b.Norm" {
			return
		}
	}
	t.Errorf("b.Norm, moved from a and changed, shows no change: changes %+v, symbols %+v",
		append(rep.Changes, rep.Unexplained...), rep.Symbols)
}
