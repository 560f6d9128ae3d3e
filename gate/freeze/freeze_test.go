package freeze

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/internal/settings"
	"github.com/premise-dev/premise/internal/suitetest"
)

func date(s string) time.Time {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		panic(err)
	}
	return t.Add(15 * time.Hour) // mid-afternoon: the date is what counts
}

func writeRegistry(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gate", "frozen.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// seedRegistry is seed 001's example registry.
const seedRegistry = `{
  "frozen": [
    {
      "test": "test_fixture_crlf",
      "reason": "CI runner converted CRLF to LF in the fixture file; needs a binary fixture or a normalization step",
      "flakes": 4,
      "runs": 60,
      "expires": "2026-09-14"
    }
  ]
}
`

func TestParseRefuses(t *testing.T) {
	tests := []struct{ name, text, want, reason string }{
		{"no reason", `{"frozen":[{"test":"t","expires":"2026-01-01"}]}`, "frozen[0] (t): no reason", "seed 001: no entry without a reason"},
		{"no expiry", `{"frozen":[{"test":"t","reason":"r"}]}`, "no expires: a permanent freeze", "seed 001: the expiry date is not optional"},
		{"bad date", `{"frozen":[{"test":"t","reason":"r","expires":"14/09/2026"}]}`, `expires "14/09/2026": want a date`, ""},
		{"unknown field", `{"frozen":[{"test":"t","reason":"r","expires":"2026-01-01","expiry":"x"}]}`, `unknown field "expiry"`, "a misspelt field is refused, not ignored"},
		{"twice", `{"frozen":[{"test":"t","reason":"r","expires":"2026-01-01"},{"test":"t","reason":"s","expires":"2026-02-01"}]}`, "t is frozen twice", ""},
		{"flakes over runs", `{"frozen":[{"test":"t","reason":"r","expires":"2026-01-01","flakes":5,"runs":2}]}`, "flakes 5 of runs 2", ""},
		{"not a registry", `[]`, "not a freeze registry", ""},
		{"no list", `{}`, `want {"frozen": [...]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("gate/frozen.json", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "gate/frozen.json: ") {
				t.Errorf("Parse error = %v, want one naming the file and containing %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
	if r, err := Parse("seed", []byte(seedRegistry)); err != nil || len(r.Frozen) != 1 || r.Frozen[0].Flakes != 4 {
		t.Errorf("seed 001's registry: %+v, %v", r, err)
	}
}

// TestCheckDates: seed 001's freeze holds through its expiry date, warns
// inside the window before it, and fails from the day after.
func TestCheckDates(t *testing.T) {
	path := writeRegistry(t, seedRegistry)
	cfg := ConfigFrom(settings.Freeze{WarnDays: 7})
	tests := []struct {
		today    string
		status   Status
		exit     int
		daysLeft int
		reason   string
	}{
		{"2026-09-01", Holding, 0, 13, "well before the date"},
		{"2026-09-07", Holding, 0, 7, "7 days left is outside a 7-day window"},
		{"2026-09-08", Expiring, 0, 6, "inside the window: warn, do not fail"},
		{"2026-09-14", Expiring, 0, 0, "the expiry date itself still holds (seed: expires < today)"},
		{"2026-09-15", Expired, 1, -1, "the day after its date, the check fails"},
		{"2027-01-01", Expired, 1, -109, ""},
	}
	for _, tt := range tests {
		rep, err := Check(CheckOptions{Path: path, Config: cfg, Now: date(tt.today)})
		if err != nil {
			t.Fatal(err)
		}
		got := rep.Entries[0]
		if got.Status != tt.status || rep.Exit != tt.exit || got.DaysLeft != tt.daysLeft {
			t.Errorf("on %s: status %s exit %d days_left %d, want %s %d %d (%s)", tt.today, got.Status, rep.Exit, got.DaysLeft, tt.status, tt.exit, tt.daysLeft, tt.reason)
		}
	}
	warn := cfg
	warn.ExpiredAction = "warn"
	rep, err := Check(CheckOptions{Path: path, Config: warn, Now: date("2026-09-15")})
	if err != nil || rep.Exit != 0 || rep.Expired != 1 {
		t.Errorf("--expired-action warn: exit %d expired %d (%v), want 0 and 1: warn reports the expiry without failing", rep.Exit, rep.Expired, err)
	}
}

func TestCheckCap(t *testing.T) {
	path := writeRegistry(t, `{"frozen":[{"test":"a","reason":"r","expires":"2026-10-01"},{"test":"b","reason":"r","expires":"2026-10-01"}]}`)
	rep, err := Check(CheckOptions{Path: path, Config: ConfigFrom(settings.Freeze{MaxEntries: 1}), Now: date("2026-09-01")})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OverCap || rep.Exit != 2 {
		t.Errorf("over cap %v exit %d, want true and 2: a registry past its cap blocks, as the flake budget does", rep.OverCap, rep.Exit)
	}
}

func TestAdd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gate", "frozen.json")
	cfg := ConfigFrom(settings.Freeze{MaxEntries: 2, MaxDays: 30})
	now := date("2026-09-01")
	add := func(test, expires string) error {
		_, err := Add(context.Background(), AddOptions{Path: path, Config: cfg, Now: now,
			Entry: Entry{Test: test, Reason: "clock", Owner: "rita", Flakes: 2, Runs: 30, Expires: expires}})
		return err
	}
	if err := add("tests/x.py::test_a", "2026-09-10"); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ test, expires, want, reason string }{
		{"tests/x.py::test_a", "2026-09-20", "already frozen until 2026-09-10", "a reviewer's entry is never overwritten"},
		{"t", "2026-08-31", "already past", ""},
		{"t", "2026-10-02", "more than 30 days ahead", "a freeze far in the future is a permanent one in disguise"},
		{"t", "soon", "want a date YYYY-MM-DD", ""},
	}
	for _, tt := range tests {
		if err := add(tt.test, tt.expires); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("add %s %s: %v, want %q (%s)", tt.test, tt.expires, err, tt.want, tt.reason)
		}
	}
	if err := add("b", "2026-10-01"); err != nil {
		t.Fatal(err)
	}
	var ce *CapError
	if err := add("c", "2026-09-05"); !errors.As(err, &ce) {
		t.Errorf("third add: %v, want a *CapError", err)
	}
	r, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Test: "tests/x.py::test_a", Reason: "clock", Owner: "rita", Flakes: 2, Runs: 30, Expires: "2026-09-10", Added: "2026-09-01"},
		{Test: "b", Reason: "clock", Owner: "rita", Flakes: 2, Runs: 30, Expires: "2026-10-01", Added: "2026-09-01"},
	}
	if diff := cmp.Diff(want, r.Frozen); diff != "" {
		t.Errorf("registry (-want +got):\n%s", diff)
	}
}

// TestAddConcurrent: adds from parallel CI jobs are all kept.
func TestAddConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "frozen.json")
	cfg := ConfigFrom(settings.Freeze{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := Add(context.Background(), AddOptions{Path: path, Config: cfg, Now: date("2026-09-01"),
				Entry: Entry{Test: string(rune('a' + i)), Reason: "r", Expires: "2026-09-02"}})
			if err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if r, err := Load(path); err != nil || len(r.Frozen) != 8 {
		t.Errorf("after 8 parallel adds: %d entries (%v), want 8", len(r.Frozen), err)
	}
}

// TestGateRealGoTest: a frozen test still runs and is recorded; its
// failure is counted apart and does not fail; once its freeze expires, it
// fails the gate again. The results are go test -json's own.
func TestGateRealGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	suitetest.WriteGoModule(t, dir)
	out := suitetest.GoTestJSON(t, dir, filepath.Join(dir, "counter"), 1)
	jr, err := junit.Parse("go.json", strings.NewReader(string(out)), junit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := writeRegistry(t, `{"frozen":[
 {"test":"example.com/suite/calc::TestFlaky","reason":"clock","owner":"rita","expires":"2026-09-14"},
 {"test":"TestTable/neg_one","reason":"sign bug, ticket 12","expires":"2026-09-14"},
 {"test":"example.com/suite/calc::TestGone","reason":"deleted?","expires":"2026-09-14"}]}`)
	cfg := ConfigFrom(settings.Freeze{})
	rep, err := Gate(GateOptions{Registry: path, Config: cfg, Reports: []*junit.Report{jr}, Now: date("2026-09-01")})
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, r := range rep.Results {
		verdicts[r.ID] = string(r.Outcome) + " " + string(r.Verdict)
	}
	want := map[string]string{
		"example.com/suite/calc::TestAdd":           "passed pass",
		"example.com/suite/calc::TestWrong":         "failed fail",
		"example.com/suite/calc::TestTable":         "failed fail",
		"example.com/suite/calc::TestTable/zero":    "passed pass",
		"example.com/suite/calc::TestTable/neg_one": "failed frozen",
		"example.com/suite/calc::TestSkipped":       "skipped pass",
		"example.com/suite/calc::TestFlaky":         "failed frozen",
	}
	if diff := cmp.Diff(want, verdicts); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s\nreason: frozen tests ran and are reported with what they did", diff)
	}
	if rep.Failed != 2 || rep.FrozenFailed != 2 || rep.FrozenRan != 2 || rep.Exit != 1 {
		t.Errorf("failed %d frozen_failed %d frozen_ran %d exit %d, want 2 2 2 1", rep.Failed, rep.FrozenFailed, rep.FrozenRan, rep.Exit)
	}
	if len(rep.NotRun) != 1 || rep.NotRun[0].Test != "example.com/suite/calc::TestGone" {
		t.Errorf("not run = %+v, want the freeze of a test the suite no longer runs", rep.NotRun)
	}

	// With the real failures fixed, only frozen failures are left: the
	// gate holds and still counts them.
	out = suitetest.GoTestJSON(t, dir, filepath.Join(dir, "counter2"), 1, "SUITE_FIXED=1")
	jr, err = junit.Parse("go.json", strings.NewReader(string(out)), junit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err = Gate(GateOptions{Registry: path, Config: cfg, Reports: []*junit.Report{jr}, Now: date("2026-09-14")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Exit != 0 || rep.FrozenFailed != 1 || rep.FrozenRan != 2 {
		t.Errorf("on the last frozen day: exit %d frozen_failed %d frozen_ran %d, want 0 1 2", rep.Exit, rep.FrozenFailed, rep.FrozenRan)
	}
	rep, err = Gate(GateOptions{Registry: path, Config: cfg, Reports: []*junit.Report{jr}, Now: date("2026-09-15")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Exit != 1 || rep.Failed != 1 || rep.FrozenRan != 0 {
		t.Errorf("the day after the expiry: exit %d failed %d frozen_ran %d, want 1 1 0: an expired freeze hides nothing", rep.Exit, rep.Failed, rep.FrozenRan)
	}
}

func TestMatch(t *testing.T) {
	entries := []Entry{{Test: "tests/x.py::test_y"}, {Test: "test_crlf"}}
	tests := []struct {
		c    junit.Case
		want int
	}{
		{junit.Case{ID: "tests/x.py::test_y[1]", Name: "test_y[1]"}, 0},
		{junit.Case{ID: "tests/x.py::test_y_other", Name: "test_y_other"}, -1},
		{junit.Case{ID: "tests/z.py::test_crlf[a[b]]", Name: "test_crlf[a[b]]"}, 1},
		{junit.Case{ID: "tests/x.py::TestK::test_y", Name: "test_y"}, -1},
	}
	for _, tt := range tests {
		if got := match(entries, tt.c); got != tt.want {
			t.Errorf("match(%s) = %d, want %d", tt.c.ID, got, tt.want)
		}
	}
}
