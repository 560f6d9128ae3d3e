package gosource

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestRealPackages measures the harvest on checkouts of real packages:
// GOSOURCE_REAL is a list of package directories separated by the path
// list separator. For each it reports how many of the package's functions
// and methods (exported and not) have at least one harvested call, and
// with -v lists the counts. Skipped when GOSOURCE_REAL is unset.
func TestRealPackages(t *testing.T) {
	list := os.Getenv("GOSOURCE_REAL")
	if list == "" {
		t.Skip("GOSOURCE_REAL is not set")
	}
	for _, dir := range filepath.SplitList(list) {
		p, err := Load(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		var names []string
		for name := range p.in.funcs {
			names = append(names, name)
		}
		sort.Strings(names)
		hit, calls, exported, exportedHit, ctorOnly := 0, 0, 0, 0, 0
		var missed []string
		kinds := map[string]int{}
		for _, name := range names {
			cs := p.Calls(name)
			calls += len(cs)
			for _, c := range cs {
				kinds[c.Kind]++
			}
			if isExported(name) {
				exported++
				if len(cs) > 0 {
					exportedHit++
				}
			}
			if len(cs) > 0 {
				hit++
			} else {
				missed = append(missed, name)
				// A method no test calls, whose receiver the tests build.
				if typ, _, ok := strings.Cut(name, "."); ok && len(p.CtorCalls(typ)) > 0 {
					ctorOnly++
				}
			}
			if testing.Verbose() {
				t.Logf("%s %s: %d", p.Name, name, len(cs))
			}
		}
		share := 0.0
		if len(names) > 0 {
			share = 100 * float64(hit) / float64(len(names))
		}
		t.Logf("%s (%s): %d/%d functions with >= 1 call (%.0f%%), exported %d/%d, %d more methods with a receiver from CtorCalls, %d calls %v", p.Name, dir, hit, len(names), share, exportedHit, exported, ctorOnly, calls, fmt.Sprint(kinds))
		if testing.Verbose() {
			t.Logf("%s missed: %s", p.Name, strings.Join(missed, " "))
		}
	}
}

// isExported reports a function or a method of an exported type that is
// exported itself.
func isExported(name string) bool {
	for _, part := range strings.Split(name, ".") {
		if part == "" || part[0] < 'A' || part[0] > 'Z' {
			return false
		}
	}
	return true
}

// TestDumpCalls prints every call harvested from the package directory
// GOSOURCE_DUMP, one JSON line each, to read what the harvest makes of a
// real package. Skipped when GOSOURCE_DUMP is unset.
func TestDumpCalls(t *testing.T) {
	dir := os.Getenv("GOSOURCE_DUMP")
	if dir == "" {
		t.Skip("GOSOURCE_DUMP is not set")
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.harvest()
	p.mu.Unlock()
	var keys []string
	for k := range p.calls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, c := range p.calls[k] {
			b, err := json.Marshal(c)
			if err != nil {
				t.Errorf("%s: %v", k, err)
			}
			t.Logf("%s %s", k, b)
		}
	}
}
