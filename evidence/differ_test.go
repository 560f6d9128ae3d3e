package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestDifferShowsWhatRowsRanPast: the patch trims quotes with strip,
// which also eats a quote inside the name's end ('"a""' was 'a"', is
// 'a'). Every row runs the changed line, and none differs: the rows'
// texts are quoted names or no name at all. Both sides' workers then make
// the same calls, drawn from the rows' texts and the words of both
// versions, and compare what came back; the calls that differed run as
// rows, and the change is shown with the source that found it.
func TestDifferShowsWhatRowsRanPast(t *testing.T) {
	t.Parallel()
	base := `def unquote(text):
    """A name without the quotes around it."""
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1]
    return text
`
	head := strings.Replace(base, `        return text[1:-1]`, `        return text.strip('"')`, 1)
	rep := runCommits(t, map[string]string{"names.py": base}, map[string]string{"names.py": head}, searching)
	var found bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "names.unquote" && c.Heuristic == "differential" && c.Base != c.Head {
			found = true
		}
	}
	if !found {
		t.Fatalf("no change on unquote found by the differential search: %+v", append(rep.Changes, rep.Unexplained...))
	}
	s := symbolRows(t, rep, "names.unquote")
	if s.Sources["differential"] == 0 {
		t.Errorf("unquote's rows by source %v: want the differential search's rows counted", s.Sources)
	}

	// search_seconds: 0 (SearchSeconds negative) turns the searches off:
	// no row of either search, and the change is not found.
	rep = runCommits(t, map[string]string{"names.py": base}, map[string]string{"names.py": head}, func(c *evidence.Config) { c.SearchSeconds = -1 })
	s = symbolRows(t, rep, "names.unquote")
	if s.Sources["differential"] != 0 || s.Sources["coverage_guided"] != 0 {
		t.Errorf("searches off: unquote's rows by source %v, want none of the searches'", s.Sources)
	}
}

// TestGoDifferShowsWhatRowsRanPast: the same patch in Go, where the
// worker's own blind search draws the calls.
func TestGoDifferShowsWhatRowsRanPast(t *testing.T) {
	t.Parallel()
	mod := "module example.com/names\n\ngo 1.21\n"
	base := `package names

import "strings"

// Unquote is a name without the quotes around it.
func Unquote(text string) string {
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		return text[1 : len(text)-1]
	}
	return strings.TrimSpace(text)
}
`
	head := strings.Replace(base, "\t\treturn text[1 : len(text)-1]\n", "\t\treturn strings.Trim(text, `\"`)\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "names.go": base}, map[string]string{"names.go": head}, searching)
	var found bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/names.Unquote" && c.Heuristic == "differential" && c.Base != c.Head {
			found = true
		}
	}
	if !found {
		t.Fatalf("no change on Unquote found by the differential search: %+v", append(rep.Changes, rep.Unexplained...))
	}
}
