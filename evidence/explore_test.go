package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// exploreBase is a small reader of sectioned text: its header step takes
// the reader's state, which no generated value is, so only a text given
// to loads can reach it, and only one with two headers of one name can
// show what the patch removed.
const exploreBase = `class _State:
    def __init__(self, text):
        self.lines = text.split("\n")
        self.out = {}
        self.section = self.out


def loads(text):
    st = _State(text)
    for raw in st.lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            _header(st, line[1:-1])
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError("expected =")
        st.section[key.strip()] = value.strip()
    return st.out


def _header(st, name):
    name = name.strip()
    if not name:
        raise ValueError("empty section name")
    if name in st.out:
        raise ValueError("duplicate section " + name)
    st.out[name] = st.section = {}
`

// TestExploreReachesALineBehindAConstruct: the patch drops the check for
// a repeated section. No generated row reaches it (the step takes the
// reader's state; loads' strings hold no two headers), so the worker's
// search, from loads' rows and the words of the file ("[", "]", "="),
// builds texts until one runs the removed line; what it finds runs as
// rows on both sides, and the change is shown with the source that found
// it.
func TestExploreReachesALineBehindAConstruct(t *testing.T) {
	t.Parallel()
	head := strings.Replace(exploreBase, `    if name in st.out:
        raise ValueError("duplicate section " + name)
`, "", 1)
	rep := runCommits(t, map[string]string{"ini.py": exploreBase}, map[string]string{"ini.py": head}, func(c *evidence.Config) {
		searching(c)
		c.MaxRowsPerFunction = 20 // a few seeds are enough
	})

	h := symbolRows(t, rep, "ini._header")
	if h.Coverage == nil || h.Coverage.Base == nil || h.Coverage.Base.Changed != 2 {
		t.Fatalf("_header: coverage %+v, want the base's two removed lines counted", h.Coverage)
	}
	if b := h.Coverage.Base; b.Reached != 2 {
		t.Errorf("_header base: %d of 2 removed lines reached (unreached %+v); the search should reach the raise", b.Reached, b.Unreached)
	}
	var found bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "ini.loads" && strings.Contains(c.Base, "ValueError") && strings.Contains(c.Head, "returned") {
			found = found || c.Heuristic == "coverage_guided"
		}
	}
	if !found {
		t.Fatalf("no change on loads, found by the search, where the base refuses a repeated section and the head returns: %+v", append(rep.Changes, rep.Unexplained...))
	}
}
