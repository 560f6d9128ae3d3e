package validate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMerge(t *testing.T) {
	prov := Provenance{Base: "b", Head: "h", Model: "static", Prompt: "assumptions", PromptSHA256: "abc"}
	existing := &Register{
		Version: 1, PatchRef: "origin/main...HEAD",
		Items: []Item{
			{ID: "A001", Symbol: "intervals.merge_ranges", Precondition: "ranges arrive already sorted by start", Evidence: "for start, end in ordered:", Status: StatusAccepted, Note: "yes, callers sort"},
			{ID: "A002", Symbol: "intervals.merge_ranges", Precondition: "all ranges share one epoch", Evidence: "subtracts datetimes directly", Status: StatusRejected, Note: "no datetimes here"},
			{ID: "A007", Symbol: "intervals.merge_ranges", Precondition: "end >= start", Evidence: "if end < start:", Status: StatusProposed},
		},
	}
	kept := []Item{
		{Symbol: "intervals.merge_ranges", Precondition: "Ranges arrive already  sorted by start", Evidence: "for start, end in ranges:", Source: "static:r", File: "intervals.py", Line: 5},
		{Symbol: "intervals.merge_ranges", Precondition: "touching ranges merge", Evidence: "start >= out[-1][1]", Source: "model:m", File: "intervals.py", Line: 8, ID: "A001", Status: StatusAccepted, Note: "model says so"},
	}
	got, st := Merge(existing, kept, prov, NewIndex(intervalsDiff()))
	want := &Register{
		Version: 1, PatchRef: "origin/main...HEAD", Provenance: &prov,
		Items: []Item{
			{ID: "A001", Symbol: "intervals.merge_ranges", Precondition: "ranges arrive already sorted by start", Evidence: "for start, end in ranges:", Status: StatusAccepted, Note: "yes, callers sort", Source: "static:r", File: "intervals.py", Line: 5},
			{ID: "A002", Symbol: "intervals.merge_ranges", Precondition: "all ranges share one epoch", Evidence: "subtracts datetimes directly", Status: StatusRejected, Note: "no datetimes here", Stale: true},
			{ID: "A007", Symbol: "intervals.merge_ranges", Precondition: "end >= start", Evidence: "if end < start:", Status: StatusProposed, File: "intervals.py", Line: 6},
			{ID: "A008", Symbol: "intervals.merge_ranges", Precondition: "touching ranges merge", Evidence: "start >= out[-1][1]", Status: StatusProposed, Source: "model:m", File: "intervals.py", Line: 8},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(MergeStats{Kept: 2, Added: 1, Stale: 1}, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if existing.Items[0].Evidence != "for start, end in ordered:" {
		t.Errorf("Merge modified the existing register")
	}
}

func TestMergeReasons(t *testing.T) {
	row := Item{Symbol: "intervals.merge_ranges", Precondition: "sorted", Evidence: "for start, end in ranges:"}
	tests := []struct {
		name     string
		existing *Register
		kept     []Item
		ix       *Index
		want     []Item
		reason   string
	}{
		{
			name:   "no register yet",
			kept:   []Item{row, row},
			want:   []Item{{ID: "A001", Symbol: row.Symbol, Precondition: "sorted", Evidence: row.Evidence, Status: StatusProposed}},
			reason: "the same row twice is one row",
		},
		{
			name:     "stale row revived keeps its decision",
			existing: &Register{Items: []Item{{ID: "A003", Symbol: row.Symbol, Precondition: "sorted", Evidence: "old", Status: StatusRejected, Note: "n", Stale: true}}},
			kept:     []Item{row},
			want:     []Item{{ID: "A003", Symbol: row.Symbol, Precondition: "sorted", Evidence: row.Evidence, Status: StatusRejected, Note: "n"}},
		},
		{
			name:     "without an index only re-proposed rows are supported",
			existing: &Register{Items: []Item{{ID: "A001", Symbol: row.Symbol, Precondition: "end >= start", Evidence: "if end < start:", Status: StatusAccepted}}},
			want:     []Item{{ID: "A001", Symbol: row.Symbol, Precondition: "end >= start", Evidence: "if end < start:", Status: StatusAccepted, Stale: true}},
		},
		{
			name:     "ids skip hand-written odd ids and continue after the highest",
			existing: &Register{Items: []Item{{ID: "A012", Symbol: "x", Precondition: "p", Evidence: "e", Status: StatusAccepted}, {ID: "B999", Symbol: "y", Precondition: "q", Evidence: "e", Status: StatusProposed}}},
			kept:     []Item{row},
			want: []Item{
				{ID: "A012", Symbol: "x", Precondition: "p", Evidence: "e", Status: StatusAccepted, Stale: true},
				{ID: "B999", Symbol: "y", Precondition: "q", Evidence: "e", Status: StatusProposed, Stale: true},
				{ID: "A013", Symbol: row.Symbol, Precondition: "sorted", Evidence: row.Evidence, Status: StatusProposed},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Merge(tc.existing, tc.kept, Provenance{}, tc.ix)
			if diff := cmp.Diff(tc.want, got.Items); diff != "" {
				t.Errorf("items (-want +got) %s:\n%s", tc.reason, diff)
			}
		})
	}
}
