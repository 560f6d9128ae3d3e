package gate

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestNodeEntriesArgBounded: a tree of thousands of modules on one cycle
// still gives the worker an argument the kernel takes (an argument past
// 128 KiB fails the exec, and then no row runs), its entry first for the
// modules that fit.
func TestNodeEntriesArgBounded(t *testing.T) {
	files := map[string]string{"package.json": `{"type": "module"}`}
	const n = 1500
	long := strings.Repeat("x", 60)
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("src/%s%04d.js", long, i)] = fmt.Sprintf("import './%s%04d.js';\nexport const v = %d;\n", long, (i+1)%n, i)
	}
	files["src/index.js"] = fmt.Sprintf("import './%s0000.js';\nexport default 1;\n", long)
	arg := nodeEntriesArg(writeTree(t, files))
	if len(arg) > maxEntriesArg {
		t.Fatalf("ENTRIES is %d bytes, past %d", len(arg), maxEntriesArg)
	}
	var byEntry map[string][]string
	if err := json.Unmarshal([]byte(arg), &byEntry); err != nil {
		t.Fatal(err)
	}
	if len(byEntry["src/index"]) < 100 {
		t.Errorf("the entry src/index is first for %d modules, want the many that fit", len(byEntry["src/index"]))
	}
}
