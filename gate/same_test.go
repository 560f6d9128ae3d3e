package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/validate"
)

// TestSameIgnoresOneSidedPrivateAttributes: a refactor that keeps a
// derived value in a new private attribute (httpagentparser's
// self._look_for) returns the same object to every caller: no change, and
// a same_as_base row holds. A private attribute both sides have with
// other values, and a public one the head adds, are changes. (Objects are
// compared by their attributes on evidence rows, $observe.)
func TestSameIgnoresOneSidedPrivateAttributes(t *testing.T) {
	t.Parallel()
	base := pyModule(t, `class D:
    def __init__(self, look):
        self.look = look
        self._n = 1

def cached(look):
    return D(look)

def counted(look):
    return D(look)

def shown(look):
    return D(look)
`)
	head := pyModule(t, `class D:
    def __init__(self, look):
        self.look = look
        self._n = 1

def cached(look):
    d = D(look)
    d._looks = (look,)
    return d

def counted(look):
    d = D(look)
    d._n = 2
    return d

def shown(look):
    d = D(look)
    d.looks = (look,)
    return d
`)
	row := func(id, target string, same bool) validate.Row {
		return validate.Row{ID: id, Cls: "c", Kind: validate.KindRepresentative, Target: target, Args: []any{"x"}, Kwargs: map[string]any{"$observe": 20},
			Relation: "r", AssumptionIDs: []string{"A001"}, SameAsBase: same}
	}
	rep, err := (&Runner{Adapter: head, Base: base, Reruns: 1, Budget: 2, Seed: 1}).Run(context.Background(), &validate.Table{Version: 1, Rows: []validate.Row{
		row("P001", "m.cached", false), row("P002", "m.counted", false), row("P003", "m.shown", false),
		row("P004", "m.cached", true), row("P005", "m.counted", true),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"P002", "P003", "P005"}, append(rep.Changed[:0:0], rep.Changed...)); diff != "" {
		t.Errorf("changed rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"P005:fail"}, failing(rep)); diff != "" {
		t.Errorf("failing rows (-want +got):\n%s", diff)
	}
}

// pyModule is an adapter over a directory holding body as m.py.
func pyModule(t *testing.T, body string) Adapter {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return pyAdapter(t, dir)
}
