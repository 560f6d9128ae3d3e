package propose

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseRows: rows are read from the object, a fenced block or a bare
// list, whole numbers stay ints, an entry that is not a row object is
// dropped and counted, and at most max are kept; a reply without a rows
// list is an error, so the repair round is asked.
func TestParseRows(t *testing.T) {
	reply := "```json\n" + `{"rows": [
	  {"assumption_ids": ["A001"], "cls": "unsorted", "kind": "boundary", "args": [[3, 1.5]], "relation": "an unsorted list", "same_as_base": true},
	  "not a row",
	  {"assumption_ids": ["A001"], "cls": "empty", "kind": "invalid", "args": [[]], "relation": "no items at all", "raises": "ValueError"},
	  {"assumption_ids": ["A001"], "cls": "third", "kind": "boundary", "args": [], "relation": "over the limit", "contract": "true"}
	]}` + "\n```"
	rows, dropped, err := parseRows(reply, 2)
	if err != nil {
		t.Fatal(err)
	}
	if dropped != 2 || len(rows) != 2 {
		t.Fatalf("%d rows, %d dropped; want 2 and 2 (the string, the third row over max)", len(rows), dropped)
	}
	if diff := cmp.Diff([]any{[]any{3, 1.5}}, rows[0].Args); diff != "" || !rows[0].SameAsBase || rows[1].Raises != "ValueError" || rows[1].Kind != "invalid" {
		t.Errorf("rows %+v (args -want +got %s)", rows, diff)
	}
	for _, bad := range []string{"", "no json", `{"inputs": []}`, `{"rows": 3}`} {
		if _, _, err := parseRows(bad, 5); err == nil {
			t.Errorf("parseRows(%q) succeeded", bad)
		}
	}
}
