package golang

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDependentsRootFirst: the packages whose tests reach a changed one,
// the module's root first (expr's root tests reach vm/runtime through vm,
// two imports away, and hold the fix's test), then by how near; a
// package without tests, or one that reaches nothing changed, is none.
func TestDependentsRootFirst(t *testing.T) {
	top := t.TempDir()
	for rel, text := range map[string]string{
		"go.mod":                "module example.com/ex\n\ngo 1.21\n",
		"expr.go":               "package expr\n\nimport \"example.com/ex/vm\"\n\nvar _ = vm.Run\n",
		"expr_test.go":          "package expr_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"vm/vm.go":              "package vm\n\nimport rt \"example.com/ex/vm/runtime\"\n\nfunc Run() { rt.Slice() }\n",
		"vm/vm_test.go":         "package vm\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { Run() }\n",
		"vm/runtime/runtime.go": "package runtime\n\nfunc Slice() {}\n",
		"checker/checker.go":    "package checker\n\nimport \"example.com/ex/vm/runtime\"\n\nvar _ = runtime.Slice\n",
		"other/other.go":        "package other\n\nfunc F() {}\n",
		"other/other_test.go":   "package other\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
		"_tools/tools_test.go":  "package tools\n\nimport (\n\t\"testing\"\n\n\t\"example.com/ex/vm/runtime\"\n)\n\nfunc TestT(t *testing.T) { runtime.Slice() }\n",
		"testdata/x/x_test.go":  "package x\n\nimport \"example.com/ex/vm/runtime\"\n",
	} {
		p := filepath.Join(top, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := dependents(top, map[string]string{"example.com/ex/vm/runtime": "vm/runtime"})
	want := []dependent{{dir: ".", names: []string{"vm"}, level: 2}, {dir: "vm", names: []string{"rt"}, level: 1}}
	if len(got) != len(want) {
		t.Fatalf("dependents = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].dir != want[i].dir || got[i].level != want[i].level || len(got[i].names) != len(want[i].names) || got[i].names[0] != want[i].names[0] {
			t.Errorf("dependents[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}
