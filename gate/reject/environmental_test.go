package reject

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/gate"
)

// fakeSubject answers every call with one reply per target.
type fakeSubject map[string]gate.Reply

func (f fakeSubject) Call(ctx context.Context, c gate.Call) (gate.Reply, error) {
	r := f[c.Target]
	r.ID = c.ID
	return r, nil
}

func (fakeSubject) Close() error { return nil }

// TestEnvironmentalExcuses: seed 000's side file excuses only an entry that
// got no answer, only until its expires_on, and never a success.
func TestEnvironmentalExcuses(t *testing.T) {
	b := newCorpus(t)
	vErr := exc("ValidationError", "email.invalid")
	b.entry("timeout-excused", "svc.slow", fixtureFor("a"), vErr, PolicyNeverSkip)
	b.entry("timeout-expired", "svc.slow", fixtureFor("b"), vErr, PolicyNeverSkip)
	b.entry("success-excused", "svc.accept", fixtureFor("c"), vErr, PolicyNeverSkip)
	b.entry("timeout-not-listed", "svc.slow", fixtureFor("d"), vErr, PolicyFreezeClassOnly)
	c := b.load()
	side := `{
  "version": 1,
  "entries": {
    "timeout-excused": {"reason": "staging database times out", "last_held_at": "2026-11-20", "expires_on": "2026-11-30"},
    "timeout-expired": {"reason": "staging database times out", "last_held_at": "2026-10-01", "expires_on": "2026-11-29"},
    "success-excused": {"reason": "sandbox has no network", "last_held_at": "2026-11-20", "expires_on": "2026-12-31"}
  }
}`
	env, err := ParseEnvironmental("must_reject.environmental.json", []byte(side), c.Lock)
	if err != nil {
		t.Fatal(err)
	}
	subject := fakeSubject{
		"svc.slow":   {Outcome: gate.OutcomeTimeout, Detail: "no reply within 10s"},
		"svc.accept": {Outcome: gate.OutcomeReturned, Value: map[string]any{"id": 1}},
	}
	now := func() time.Time { return time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC) }
	rep, err := (&Runner{Adapter: subject, Environmental: env, Now: now}).Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{"timeout-excused", true, ReasonExcused, 1},
		{"timeout-expired", false, ReasonNoReject, 1},
		{"success-excused", false, ReasonForbiddenSuccess, 1},
		{"timeout-not-listed", false, ReasonNoReject, 3},
	}
	if diff := cmp.Diff(want, rows(rep)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	for _, r := range rep.Results {
		if r.ID == "timeout-expired" && !strings.Contains(r.Detail, "its environmental excuse expired on 2026-11-29") {
			t.Errorf("expired excuse detail = %q, want it to say when it expired", r.Detail)
		}
	}
}

func TestParseEnvironmentalRefuses(t *testing.T) {
	lock := &Lock{Version: 1, Entries: []Entry{{ID: "a"}}}
	tests := []struct{ name, in, want string }{
		{"unknown id", `{"version": 1, "entries": {"b": {"reason": "x", "last_held_at": "2026-01-01", "expires_on": "2026-02-01"}}}`, `:1: b is not an entry of the lockfile`},
		{"unknown field", "{\"version\": 1,\n \"entries\": {\"a\": {\"reason\": \"x\", \"skip\": true}}}", `:2: unknown field "skip" in entries.a`},
		{"bad date", `{"version": 1, "entries": {"a": {"reason": "x", "last_held_at": "2026-01-01", "expires_on": "next week"}}}`, `expires_on "next week" is not a date`},
		{"no reason", `{"version": 1, "entries": {"a": {"last_held_at": "2026-01-01", "expires_on": "2026-02-01"}}}`, `needs a reason`},
		{"repeated id", `{"version": 1, "entries": {"a": {}, "a": {}}}`, `repeated key "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseEnvironmental("env.json", []byte(tt.in), lock)
			var le *LockError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want a *LockError containing %q", err, tt.want)
			}
		})
	}
}
