package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/validate"
)

const reviewRegister = `# reviewed by hand
version: 1
patch_ref: main...HEAD
items:
  - id: A001
    symbol: intervals.merge_ranges
    precondition: ranges arrive already sorted by start
    evidence: "for start, end in ranges:"
    status: proposed
    file: intervals.py
    line: 3
  - id: A002
    symbol: intervals.merge_ranges
    precondition: touching ranges merge
    evidence: "if start <= out[-1][1]:"
    status: accepted
  - id: A003
    symbol: intervals.merge_ranges
    precondition: all ranges share one timezone-naive epoch
    evidence: subtracts datetimes directly
    status: proposed
  - id: A004
    symbol: intervals.merge_ranges
    precondition: ranges are non-empty
    evidence: out[-1]
    status: proposed
`

const reviewSource = `def merge_ranges(ranges):
    out = []
    for start, end in ranges:
        out.append([start, end])
    return out
`

func writeReviewFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "intervals.py"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "assumptions.yaml")
	if err := os.WriteFile(path, []byte(reviewRegister), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReviewScripted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		input  string
		want   map[string]string // id -> status after the review
		notes  map[string]string
		report reviewReport
		reason string
	}{
		{
			name:  "accept, reject with a note, skip",
			input: "a\nr\nno datetimes in this module\ns\n",
			want:  map[string]string{"A001": "accepted", "A002": "accepted", "A003": "rejected", "A004": "proposed"},
			notes: map[string]string{"A003": "no datetimes in this module"},
			report: reviewReport{
				Decisions: []validate.Decision{{ID: "A001", Status: "accepted"}, {ID: "A003", Status: "rejected", Note: "no datetimes in this module"}},
				Skipped:   []string{"A004"}, Remaining: []string{},
			},
		},
		{
			name:   "a reject without a note asks again",
			input:  "x\nr\n\n  \nbecause\nq\n",
			want:   map[string]string{"A001": "rejected", "A003": "proposed", "A004": "proposed"},
			notes:  map[string]string{"A001": "because"},
			reason: "a note is required to reject; an unknown answer is asked again",
			report: reviewReport{
				Decisions: []validate.Decision{{ID: "A001", Status: "rejected", Note: "because"}},
				Skipped:   []string{}, Remaining: []string{"A003", "A004"},
			},
		},
		{
			name:   "end of input keeps what was decided",
			input:  "a\n",
			want:   map[string]string{"A001": "accepted", "A003": "proposed", "A004": "proposed"},
			reason: "an interrupted review loses nothing already answered",
			report: reviewReport{
				Decisions: []validate.Decision{{ID: "A001", Status: "accepted"}},
				Skipped:   []string{}, Remaining: []string{"A003", "A004"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeReviewFixture(t)
			var out, prompts bytes.Buffer
			err := runReview(context.Background(), reviewOptions{Register: path, Context: 1, JSON: true, In: strings.NewReader(tc.input), Out: &out, Err: &prompts})
			if err != nil {
				t.Fatal(err)
			}
			reg, err := validate.LoadRegister(path)
			if err != nil {
				t.Fatal(err)
			}
			for id, st := range tc.want {
				if got := reg.Lookup(id).Status; got != st {
					t.Errorf("%s is %s, want %s (%s)", id, got, st, tc.reason)
				}
			}
			for id, note := range tc.notes {
				if got := reg.Lookup(id).Note; got != note {
					t.Errorf("%s note %q, want %q", id, got, note)
				}
			}
			var got reviewReport
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("with --json, standard output must be the report alone: %v\n%s", err, out.String())
			}
			tc.report.Register = path
			if d := cmp.Diff(tc.report, got); d != "" {
				t.Errorf("report (-want +got):\n%s", d)
			}
			data, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(data), "# reviewed by hand\n") {
				t.Errorf("the register's comment was lost:\n%s", data)
			}
		})
	}
}

// The reviewer sees the symbol, the precondition and the evidence with its
// file:line and the source around it.
func TestReviewShowsEvidence(t *testing.T) {
	t.Parallel()
	path := writeReviewFixture(t)
	var out bytes.Buffer
	if err := runReview(context.Background(), reviewOptions{Register: path, Context: 1, In: strings.NewReader("q\n"), Out: &out}); err != nil {
		t.Fatal(err)
	}
	want := `A001 (1 of 3)  intervals.merge_ranges
  precondition: ranges arrive already sorted by start
  evidence:     intervals.py:3  for start, end in ranges:

        2 |     out = []
  >     3 |     for start, end in ranges:
        4 |         out.append([start, end])
  accept: legitimate, the patch may rely on it (changes seen only where it is violated need no decision); reject: the patch must not rely on it (rows violating it pin the base's outcome)

[a]ccept [r]eject [s]kip [q]uit? 0 decided, 3 still proposed
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestAcceptRejectExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		code     int
		stderr   string
		statuses map[string]string
	}{
		{name: "accept two", args: []string{"accept", "A001", "A003"}, code: 0,
			statuses: map[string]string{"A001": "accepted", "A003": "accepted", "A004": "proposed"}},
		{name: "reject needs a note", args: []string{"reject", "A001"}, code: 3, stderr: "--note is required",
			statuses: map[string]string{"A001": "proposed"}},
		{name: "reject with a note", args: []string{"reject", "A004", "--note", "empty input is valid"}, code: 0,
			statuses: map[string]string{"A004": "rejected"}},
		{name: "unknown id names it and changes nothing", args: []string{"accept", "A001", "A077"}, code: 3, stderr: "no assumption A077; it holds A001, A002, A003, A004",
			statuses: map[string]string{"A001": "proposed"}},
		// A change item's id is not "no assumption", and the reviewer sees
		// which ids there are, not "see the ids in the file".
		{name: "an unknown change item is one", args: []string{"accept", "C001"}, code: 3, stderr: "no change item C001; it holds A001,"},
		{name: "a change's note says why it is a regression", args: []string{"reject", "C001", "A002"}, code: 3,
			stderr: "--note is required: say why C001 is a regression, and why the patch must not rely on A002"},
		{name: "no id", args: []string{"accept"}, code: 3, stderr: "requires at least 1 arg"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeReviewFixture(t)
			var out, errb bytes.Buffer
			code := run(context.Background(), append(tc.args, "--register", path), Streams{In: strings.NewReader(""), Out: &out, Err: &errb})
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errb.String())
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q does not say %q", errb.String(), tc.stderr)
			}
			reg, err := validate.LoadRegister(path)
			if err != nil {
				t.Fatal(err)
			}
			for id, st := range tc.statuses {
				if got := reg.Lookup(id).Status; got != st {
					t.Errorf("%s is %s, want %s", id, got, st)
				}
			}
		})
	}
}

// With provenance, the reviewer sees the patch's hunk around the evidence,
// read from a real repository, with the lines the patch removed.
func TestReviewShowsDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitc := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@premise.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@premise.invalid", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	copyIn := func(side string) {
		src, err := os.ReadFile("../../examples/intervals/" + side + "/intervals/__init__.py")
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "intervals"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "intervals", "__init__.py"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitc("init", "-q", "-b", "main")
	copyIn("base")
	gitc("add", "-A")
	gitc("commit", "-q", "-m", "base")
	base := gitc("rev-parse", "HEAD")
	copyIn("head")
	gitc("commit", "-q", "-am", "single pass")
	head := gitc("rev-parse", "HEAD")
	reg := fmt.Sprintf(`version: 1
patch_ref: main...HEAD
provenance: {base: %s, head: %s, model: static}
items:
  - id: A001
    symbol: intervals.merge_ranges
    precondition: ranges arrive already sorted by start
    evidence: "for start, end in ranges:"
    status: proposed
    source: static:py-removed-sort
    file: intervals/__init__.py
    line: 9
`, base, head)
	path := filepath.Join(dir, "assumptions.yaml")
	if err := os.WriteFile(path, []byte(reg), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runReview(context.Background(), reviewOptions{Register: path, Context: 3, In: strings.NewReader("q\n"), Out: &out}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  evidence:     intervals/__init__.py:9  for start, end in ranges:\n",
		"  proposed by:  static:py-removed-sort\n",
		"        - |     ordered = sorted(ranges, key=lambda r: r[0])\n",
		"  >    9 + |     for start, end in ranges:\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("review output lacks %q:\n%s", want, out.String())
		}
	}
}
