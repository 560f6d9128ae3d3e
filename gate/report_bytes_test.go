package gate

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// TestReportBytesOnEveryOutcome runs a table whose rows return, raise,
// crash and fail in every way a report shows (values JSON writes in more
// than one way: big integers, floats, escapes, objects, nesting past the
// fast reader's depth) and holds the JSON report byte for byte to
// testdata/golden/outcomes.json, written before replies and literals were
// read without encoding/json and replies fetched into the report's
// attempts. What a run cannot repeat is blanked: durations, a traceback's
// paths and lines, which of two words the worker's crash came in, and
// Python's wording for a value JSON cannot carry.
func TestReportBytesOnEveryOutcome(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "outcomes"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := validate.LoadTable(filepath.Join(dir, "partitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Repo: dir, Reruns: 2, Seed: 1, Budget: DefaultBudget}, tab)
	if err != nil {
		t.Fatal(err)
	}
	rep.Elapsed = 0
	for i := range rep.Rows {
		for j := range rep.Rows[i].Attempts {
			a := &rep.Rows[i].Attempts[j]
			a.Duration = 0
			if strings.HasPrefix(a.Reply.Detail, "Traceback") {
				a.Reply.Detail = "(traceback)"
			}
		}
	}
	got, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	crash := regexp.MustCompile(`the protocol broke: EOF|the worker exited: exit status 3`)
	got = crash.ReplaceAll(got, []byte("(crashed)"))
	// Python's own words for a NaN, which its versions change.
	nan := regexp.MustCompile(`cannot be carried as JSON: [^"]*`)
	golden(t, "outcomes.json", nan.ReplaceAll(got, []byte("cannot be carried as JSON: (Python's reason)")))
}
