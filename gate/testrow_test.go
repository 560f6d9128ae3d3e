package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// A test row runs the base's test on the code and compares its outcome
// with the row's expect; a test that cannot run is an error, never a
// pass (issue 24, the reviewed verdict's rows).
func TestTestRowRunsTheBasesTest(t *testing.T) {
	t.Parallel()
	write := func(dir string, files map[string]string) {
		for rel, text := range files {
			p := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	base, head := t.TempDir(), t.TempDir()
	test := "import m\n\n\ndef test_shout():\n    assert m.shout('ab') == 'AB'\n"
	write(base, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test})
	// The head's own copy of the test would pass: the base's is what runs.
	write(head, map[string]string{"m.py": "def shout(s):\n    return s\n", "tests/test_m.py": "import m\n\n\ndef test_shout():\n    assert m.shout('ab') == 'ab'\n"})
	row := func(id, test, outcome string) validate.Row {
		return validate.Row{ID: id, Cls: "witness", Kind: validate.KindBoundary, Relation: "the base's test decides",
			AssumptionIDs: []string{"C001"}, Test: test, Expect: &validate.Outcome{Outcome: outcome}}
	}
	tb := &validate.Table{Version: 1, Language: validate.LangPython, Target: "m.shout", Rows: []validate.Row{
		row("P001", "tests/test_m.py: test_shout", validate.OutcomePassed),
		row("P002", "tests/test_m.py: test_shout", validate.OutcomeFailed),
		row("P003", "tests/test_m.py: test_whisper", validate.OutcomePassed),
	}}
	rep, err := Run(context.Background(), Config{Repo: head, BaseDir: base, Private: true, Reruns: 2}, tb)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"P001": StatusFail, "P002": StatusPass, "P003": StatusError}
	for _, r := range rep.Rows {
		if r.Status != want[r.ID] {
			t.Errorf("%s: %s (%s), want %s", r.ID, r.Status, r.Why, want[r.ID])
		}
	}
	if len(rep.Rows) != 3 {
		t.Errorf("%d rows reported, want 3", len(rep.Rows))
	}
}
