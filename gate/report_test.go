package gate

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// sampleReport has one row of every kind a report must show.
func sampleReport() *Report {
	reason := "P012"
	at := func(status, why string, r Reply) Attempt {
		return Attempt{Status: status, Why: why, Reply: r, Duration: 2 * time.Millisecond}
	}
	ret := func(v any) Reply { return Reply{Outcome: OutcomeReturned, Value: v} }
	rep := &Report{Target: "intervals.merge_ranges", Reruns: 3, Budget: 2, Seed: 42, Base: true, Source: "partitions.yaml",
		Rows: []RowResult{
			{ID: "P001", Hash: "1111111111111111", Kind: "boundary", Target: "intervals.merge_ranges", Status: StatusPass, Seen: []string{"pass", "pass", "pass"}, Line: 5,
				Attempts: []Attempt{at("pass", "returned []", ret([]any{})), at("pass", "returned []", ret([]any{})), at("pass", "returned []", ret([]any{}))}},
			{ID: "P004", Hash: "4444444444444444", Kind: "boundary", Target: "intervals.merge_ranges", Status: StatusFail, Seen: []string{"fail", "fail", "fail"}, Broken: true, Line: 20,
				Why: "returned [[4,6]]; contract result == [[0, 1], [4, 6]] does not hold", Changed: true, BaseWhy: "returned [[0,1],[4,6]]",
				Attempts: []Attempt{at("fail", "x", ret([]any{[]any{4, 6}})), at("fail", "x", ret([]any{[]any{4, 6}})), at("fail", "x", ret([]any{[]any{4, 6}}))}},
			{ID: "P008", Hash: "8888888888888888", Kind: "invalid", Target: "intervals.merge_ranges", Status: StatusFail, Seen: []string{"fail", "fail", "fail"}, Broken: true,
				Why: "returned [] for an invalid input; want a raise", Changed: true, SpecChange: true, BaseWhy: "raised TypeError",
				Attempts: []Attempt{at("fail", "x", ret([]any{})), at("fail", "x", ret([]any{})), at("fail", "x", ret([]any{}))}},
			{ID: "P010", Hash: "aaaaaaaaaaaaaaaa", Kind: "representative", Target: "intervals.merge_ranges", Status: StatusFlake, Seen: []string{"pass", "timeout", "pass"},
				Why:      "attempts disagree; one said: no reply within 10s",
				Attempts: []Attempt{at("pass", "", ret(true)), at("timeout", "no reply within 10s", Reply{Outcome: OutcomeTimeout, Detail: "no reply within 10s"}), at("pass", "", ret(true))}},
			{ID: "P011", Hash: "bbbbbbbbbbbbbbbb", Kind: "boundary", Target: "intervals.merge_ranges", Status: StatusPass, Seen: []string{"pass", "pass", "pass"}, Why: "returned [[0,9]]",
				Frozen: true, Freeze: &Freeze{RowID: "P011", Reason: "clock-dependent", ReplacementRow: &reason},
				Attempts: []Attempt{at("pass", "", ret(1)), at("pass", "", ret(1)), at("pass", "", ret(1))}},
		},
		Stale: []Stale{{Hash: "cccccccccccccccc", RowID: "P003", Reason: "old"}},
	}
	for i := range rep.Rows {
		for j := range rep.Rows[i].Attempts {
			rep.Rows[i].Attempts[j].Base = &Reply{Outcome: OutcomeReturned, Value: []any{}}
		}
	}
	rn := &Runner{Budget: 2}
	rn.finish(rep)
	return rep
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func TestReportGolden(t *testing.T) {
	rep := sampleReport()
	if rep.Exit != 1 || rep.Spent != 2 {
		t.Fatalf("exit %d spent %d, want 1 and 2 (one frozen, one flaking)", rep.Exit, rep.Spent)
	}
	for _, w := range []struct {
		name  string
		write func(*bytes.Buffer, *Report) error
	}{
		{"report.txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
		{"report.md", func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }},
		{"report.junit.xml", func(b *bytes.Buffer, r *Report) error { return WriteJUnit(b, r) }},
		{"report.sarif", func(b *bytes.Buffer, r *Report) error { return WriteSARIF(b, r) }},
		{"report.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
	} {
		var b bytes.Buffer
		if err := w.write(&b, rep); err != nil {
			t.Fatal(err)
		}
		golden(t, w.name, b.Bytes())
	}
}

// TestJUnitShape: one testcase per row named by its id; frozen rows are
// skipped with the hash; every attempt is kept.
func TestJUnitShape(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	s := doc.Suites[0]
	type tc struct{ Name, Result string }
	var got []tc
	for _, c := range s.Cases {
		res := "pass"
		switch {
		case c.Skipped != nil:
			res = "skipped: " + c.Skipped.Message
		case c.Failure != nil:
			res = "failure"
		case c.Error != nil:
			res = "error"
		}
		got = append(got, tc{c.Name, res})
		if n := bytes.Count([]byte(c.SystemOut.Text), []byte("attempt ")); n != 3 {
			t.Errorf("%s keeps %d attempts, want all 3", c.Name, n)
		}
	}
	want := []tc{{"P001", "pass"}, {"P004", "failure"}, {"P008", "failure"}, {"P010", "failure"},
		{"P011", "skipped: frozen bbbbbbbbbbbbbbbb: clock-dependent (did pass)"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if s.Tests != 5 || s.Failures != 3 || s.Skipped != 1 || doc.Tests != 5 {
		t.Errorf("counts: %+v", s)
	}
}

// TestSARIFShape checks the fields code-scanning services require.
func TestSARIFShape(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2.1.0" || len(doc.Runs) != 1 || doc.Runs[0].Tool.Driver.Name != "premise" {
		t.Fatalf("header: %+v", doc)
	}
	rules := map[string]bool{}
	for _, r := range doc.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	var got []string
	for _, r := range doc.Runs[0].Results {
		if !rules[r.RuleID] {
			t.Errorf("result cites undeclared rule %s", r.RuleID)
		}
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "partitions.yaml" {
			t.Errorf("%s: locations %+v", r.RuleID, r.Locations)
		}
		got = append(got, r.RuleID+":"+r.Level)
	}
	want := []string{"premise/fail:error", "premise/fail:error", "premise/flake:error", "premise/frozen:note"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestJUnitHostileOutput: whatever bytes a subject prints, the file parses.
func TestJUnitHostileOutput(t *testing.T) {
	rep := sampleReport()
	rep.Rows[3].Attempts[1].Reply.Detail = "worker output ends: \x00\x01]]>\xff<x>&"
	rep.Rows[3].Why = "\x07]]>"
	var b bytes.Buffer
	if err := WriteJUnit(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
}

// TestSARIFFingerprints: a result's fingerprints do not move with the row's
// line (a rebase), and do change with what the row found.
func TestSARIFFingerprints(t *testing.T) {
	rep := sampleReport()
	row := rep.Rows[1]
	moved := row
	moved.Line += 40
	if Fingerprint(row) != Fingerprint(moved) {
		t.Error("the fingerprint moved with the row's line")
	}
	other := row
	other.Why = "returned [[0,6]]; contract result == [[0, 1], [4, 6]] does not hold"
	if Fingerprint(row) == Fingerprint(other) {
		t.Error("a different head outcome kept the fingerprint")
	}
	other = row
	other.BaseWhy = "raised ValueError"
	if Fingerprint(row) == Fingerprint(other) {
		t.Error("a different base outcome kept the fingerprint")
	}
}

// TestSARIFLimits: past a limit, results are cut, notes before errors,
// and the file says what was cut.
func TestSARIFLimits(t *testing.T) {
	rep := sampleReport() // three errors (two fails, a flake) and a frozen note
	for _, c := range []struct {
		name   string
		lim    SARIFLimits
		want   int
		reason string
	}{
		{"results", SARIFLimits{Results: 3}, 3, "the frozen row's note goes first"},
		{"bytes", SARIFLimits{Results: 100, Bytes: 3000}, -1, "fewer results, the file under the limit"},
		{"github", GitHubSARIFLimits, 4, "nothing near GitHub's limits is cut"},
	} {
		data, cut, err := EncodeSARIF(rep, c.lim)
		if err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Invocations []struct {
					ToolExecutionNotifications []struct{ Message struct{ Text string } }
				}
				Results []struct{ Level string }
			}
		}
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatal(err)
		}
		got := log.Runs[0].Results
		switch {
		case c.want >= 0 && len(got) != c.want:
			t.Errorf("%s: %d results, want %d (%s)", c.name, len(got), c.want, c.reason)
		case c.want < 0 && (len(got) >= 4 || len(data) > c.lim.Bytes):
			t.Errorf("%s: %d results in %d bytes (%s)", c.name, len(got), len(data), c.reason)
		}
		for _, r := range got {
			if r.Level != "error" && len(got) < 4 {
				t.Errorf("%s: a %s kept while errors were cut", c.name, r.Level)
			}
		}
		if (cut != "") != (len(got) < 4) {
			t.Errorf("%s: cut %q with %d of 4 results", c.name, cut, len(got))
		}
		if cut != "" && (len(log.Runs[0].Invocations) == 0 || log.Runs[0].Invocations[0].ToolExecutionNotifications[0].Message.Text != cut) {
			t.Errorf("%s: the SARIF file does not say what was cut", c.name)
		}
	}
}
