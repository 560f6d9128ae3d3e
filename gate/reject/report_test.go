package reject

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/gate"
)

func sampleReport() *Report {
	rep := &Report{}
	rep.add(Result{ID: "user-email-reject-001", Held: true, Reason: ReasonHeld, Policy: PolicyNeverSkip,
		Path:   "corpus/must_reject/user-email-reject-001.json",
		Detail: `held: raised ValidationError code "email.invalid" (3 of 3 consecutive)`,
		Attempts: []Attempt{
			{Reason: ReasonHeld, Detail: "held", Reply: &gate.Reply{Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "ValidationError", Code: "email.invalid"}}},
			{Reason: ReasonHeld, Detail: "held", Reply: &gate.Reply{Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "ValidationError", Code: "email.invalid"}}},
			{Reason: ReasonHeld, Detail: "held", Reply: &gate.Reply{Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "ValidationError", Code: "email.invalid"}}},
		}})
	rep.add(Result{ID: "invoice-status-reject-014", Reason: ReasonForbiddenSuccess, Policy: PolicyFreezeClassOnly,
		Path:     "corpus/must_reject/invoice-status-reject-014.json",
		Detail:   "forbidden success: status 200 (attempt 2 of 3, freeze-class-only)",
		Attempts: []Attempt{{Reason: ReasonNoReject, Detail: "no reject: unreachable: connection refused"}, {Reason: ReasonForbiddenSuccess, Detail: "forbidden success: status 200", Status: 200}}})
	rep.add(Result{ID: "corpus/must_reject/stray.json", Reason: ReasonNoEntry, Path: "corpus/must_reject/stray.json", Detail: "no lockfile entry: <&> fixture"})
	return rep
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b.Bytes()) {
		t.Fatalf("not JSON:\n%s", b.Bytes())
	}
	golden(t, "report.json", b.String())
}

// TestWriteJUnit reads the XML back: one testcase per entry, a failure for
// each BROKEN one typed by its reason, every attempt kept.
func TestWriteJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, b.Bytes())
	}
	type tc struct{ Name, Failure, Out string }
	var got []tc
	for _, c := range doc.Suites[0].Cases {
		f := ""
		if c.Failure != nil {
			f = c.Failure.Type + ": " + c.Failure.Message
		}
		got = append(got, tc{c.Name, f, c.SystemOut})
	}
	want := []tc{
		{"user-email-reject-001", "", "attempt 1: held\nattempt 2: held\nattempt 3: held\n"},
		{"invoice-status-reject-014", "forbidden success: forbidden success: status 200 (attempt 2 of 3, freeze-class-only)",
			"attempt 1: no reject: unreachable: connection refused\nattempt 2: forbidden success: status 200\n"},
		{"corpus/must_reject/stray.json", "no lockfile entry: no lockfile entry: <&> fixture", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JUnit cases (-want +got):\n%s", diff)
	}
	if doc.Tests != 3 || doc.Failures != 2 || doc.Suites[0].Name != "must-reject" {
		t.Errorf("tests=%d failures=%d suite=%q, want 3, 2, must-reject", doc.Tests, doc.Failures, doc.Suites[0].Name)
	}
}
