package gosource

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var funcName = regexp.MustCompile(`func\s+(?:\(\s*\w*\s*\*?(\w+)[^)]*\)\s*)?(\w+)`)

// FuzzLoad writes arbitrary source as a package and its test file and
// asks every query: none may panic or loop, whatever a repository's tests
// hold, and every harvested value must marshal to JSON.
func FuzzLoad(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzLoad.
	f.Fuzz(func(t *testing.T, src, test string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(test), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Load(dir)
		if err != nil {
			return
		}
		names := []string{"F", "T.M"}
		for _, m := range funcName.FindAllStringSubmatch(src, 20) {
			if m[1] != "" {
				names = append(names, m[1]+"."+m[2], "(*"+m[1]+")."+m[2], m[1])
			} else {
				names = append(names, m[2])
			}
		}
		for _, n := range names {
			calls := p.Calls(n)
			if len(calls) > maxCalls {
				t.Fatalf("Calls(%s) gave %d calls", n, len(calls))
			}
			for _, c := range calls {
				if _, err := json.Marshal(c); err != nil {
					t.Fatalf("Calls(%s): %v", n, err)
				}
			}
			_ = p.CtorCalls(n)
			_ = p.Constructors(n)
			_ = p.Underlying(n)
			_ = p.Consts(n)
			_ = p.Fields(n)
		}
		if _, err := json.Marshal(p.Literals()); err != nil {
			t.Fatal(err)
		}
	})
}
