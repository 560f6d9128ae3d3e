package reject

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const goodLock = `{
  "version": 1,
  "entries": [
    {
      "id": "user-email-reject-001",
      "target": "billing.api.create_user",
      "input_sha256": "c0ffee01",
      "input_path": "corpus/must_reject/user-email-reject-001.json",
      "must": {"kind": "exception", "class": "ValidationError", "code": "email.invalid"},
      "flake_policy": "never-skip"
    },
    {
      "id": "invoice-status-reject-014",
      "target": "POST /invoices/transition",
      "input_sha256": "",
      "input_path": "corpus/must_reject/invoice-status-reject-014.json",
      "must": {"kind": "http", "status": 409, "code": 7},
      "flake_policy": "freeze-class-only"
    }
  ]
}
`

// TestParseLockSeedShape reads the seed's own lockfile shape. The placeholder
// and empty hashes load: the runner, not the loader, reports them as BROKEN.
func TestParseLockSeedShape(t *testing.T) {
	lock, err := ParseLock("must_reject.lock.json", []byte(goodLock))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID, Kind, Policy string
		Line             int
	}
	var got []row
	for _, e := range lock.Entries {
		got = append(got, row{e.ID, e.Must.Kind, e.Policy(), e.Line})
	}
	want := []row{
		{"user-email-reject-001", "exception", "never-skip", 5},
		{"invoice-status-reject-014", "http", "freeze-class-only", 13},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

// TestParseLockRefuses: every lockfile premise will not run is one error
// naming the file and the line (issue 6, item 5).
func TestParseLockRefuses(t *testing.T) {
	tests := []struct {
		name   string
		old    string // replaced in goodLock
		new    string
		want   string
		reason string
	}{
		{"unknown top-level field", `"version": 1,`, `"version": 1, "comment": "x",`, `must_reject.lock.json:2: unknown field "comment" in the lockfile`, ""},
		{"unknown entry field", `"flake_policy": "never-skip"`, `"flake_policy": "never-skip", "skip": true`, `must_reject.lock.json:10: unknown field "skip" in entries[0]`,
			"a skip field is exactly what seed 000 forbids; it must not be ignored"},
		{"unknown must field", `"code": "email.invalid"}`, `"code": "email.invalid", "xfail": true}`, `:9: unknown field "xfail" in entries[0].must`, ""},
		{"duplicate id", `"id": "invoice-status-reject-014"`, `"id": "user-email-reject-001"`, `must_reject.lock.json:13: duplicate id "user-email-reject-001" (first at line 5)`, ""},
		{"repeated key", `"target": "billing.api.create_user",`, `"target": "billing.api.create_user", "target": "x.y",`, `:6: repeated key "target"`,
			"encoding/json keeps the last of two keys; a reader that keeps the first would run another target"},
		{"malformed hash", `"input_sha256": "c0ffee01"`, `"input_sha256": "sha256:c0ffee01"`, `:7: entry user-email-reject-001: input_sha256 "sha256:c0ffee01" is not a hex sha256`, ""},
		{"hash not a string", `"input_sha256": "c0ffee01"`, `"input_sha256": 12`, `:7: entries.input_sha256 must be a JSON string`, ""},
		{"unknown policy", `"flake_policy": "never-skip"`, `"flake_policy": "xfail"`, `:10: entry user-email-reject-001: flake_policy "xfail"`, ""},
		{"unknown kind", `"kind": "exception"`, `"kind": "panic"`, `:9: entry user-email-reject-001: must.kind "panic"`, ""},
		{"exception without class", `"class": "ValidationError", `, ``, `:9: entry user-email-reject-001: an exception entry needs must.class`, ""},
		{"http success status", `"status": 409`, `"status": 200`, `:17: entry invoice-status-reject-014: must.status 200 is not a rejection`, ""},
		{"http dotted target", `"target": "POST /invoices/transition"`, `"target": "billing.api.transition_invoice"`, `:14: entry invoice-status-reject-014: http target`, ""},
		{"bad id", `"id": "user-email-reject-001"`, `"id": "user email"`, `:5: id "user email" must be one word`, "HOLD and BROKEN lines are split on spaces"},
		{"version", `"version": 1`, `"version": 2`, `:2: version must be 1`, ""},
		{"syntax", `"entries": [`, `"entries": [,`, `must_reject.lock.json:3: invalid character ','`, ""},
		{"trailing data", "}\n  ]\n}\n", "}\n  ]\n}\n{}", `:22: data after the JSON value`, ""},
		{"code object", `"code": 7`, `"code": {"a": 1}`, `:17: entry invoice-status-reject-014: must.code must be a string or a number`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(goodLock, tt.old, tt.new, 1)
			if src == goodLock {
				t.Fatalf("test case does not change the lockfile: %q not found", tt.old)
			}
			_, err := ParseLock("must_reject.lock.json", []byte(src))
			var le *LockError
			if !errors.As(err, &le) {
				t.Fatalf("ParseLock error = %v, want a *LockError (%s)", err, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseLock error = %q, want it to contain %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
}

// TestEncodeRoundTrip: what Encode writes, ParseLock reads back unchanged,
// numeric codes included.
func TestEncodeRoundTrip(t *testing.T) {
	lock, err := ParseLock("a", []byte(goodLock))
	if err != nil {
		t.Fatal(err)
	}
	data, err := lock.Encode()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseLock("b", data)
	if err != nil {
		t.Fatalf("re-reading the encoded lockfile: %v\n%s", err, data)
	}
	if diff := cmp.Diff(lock.Entries, again.Entries, cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".Line"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func FuzzParseLock(f *testing.F) {
	f.Add([]byte(goodLock))
	f.Add([]byte(`{"version":1,"entries":[]}`))
	f.Add([]byte(`{"version":1,"entries":[{"id":"a","id":"b"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lock, err := ParseLock("f", data)
		if err != nil {
			var le *LockError
			if !errors.As(err, &le) {
				t.Fatalf("error is not a *LockError: %v", err)
			}
			return
		}
		// Whatever loads must survive a write and a strict re-read.
		out, err := lock.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseLock("f2", out); err != nil {
			t.Fatalf("encoded lockfile does not re-read: %v\n%s", err, out)
		}
	})
}

// TestParseLockAllProblems: a lockfile with several problems reports every
// one at once, each naming the file and its line, so a human fixes them in
// one pass.
func TestParseLockAllProblems(t *testing.T) {
	data := strings.Replace(goodLock, `"input_sha256": "c0ffee01"`, `"input_sha256": "sha256:c0ffee01"`, 1)
	data = strings.Replace(data, `"flake_policy": "never-skip"`, `"flake_policy": "never-skip", "skip": true`, 1)
	data = strings.Replace(data, `"id": "invoice-status-reject-014"`, `"id": "user-email-reject-001"`, 1)
	_, err := ParseLock("must_reject.lock.json", []byte(data))
	if err == nil {
		t.Fatal("accepted a lockfile with three problems")
	}
	lines := strings.Split(err.Error(), "\n")
	for _, want := range []string{`unknown field "skip" in entries[0]`, `input_sha256 "sha256:c0ffee01" is not a hex sha256`, `duplicate id "user-email-reject-001"`} {
		found := false
		for _, l := range lines {
			if strings.Contains(l, want) && strings.HasPrefix(l, "must_reject.lock.json:") {
				found = true
			}
		}
		if !found {
			t.Errorf("problems:\n%s\nwant a line naming the file and %q", err, want)
		}
	}
}
