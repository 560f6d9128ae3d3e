package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/premise-dev/premise/pipeline"
)

// TestRunSummaryListsEveryStep: when a run stops on several problems (each
// finding of the register check, each broken fixture), the summary has one
// next: line per problem, so a user fixes them in one pass.
func TestRunSummaryListsEveryStep(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	writeRunSummary(&b, &pipeline.Summary{Verdict: pipeline.VerdictCheck, Exit: 1, Seed: 1,
		Next:  "fix what premise check reports: assumptions.yaml:4: A001 is still proposed",
		Steps: []string{"premise check: assumptions.yaml:4: A001 is still proposed", "premise check: partitions.yaml:9: P002 (empty) is not filled in: give inp"}})
	got := b.String()
	for _, want := range []string{
		"next: premise check: assumptions.yaml:4: A001 is still proposed\n",
		"next: premise check: partitions.yaml:9: P002 (empty) is not filled in: give inp\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	b.Reset()
	writeRunSummary(&b, &pipeline.Summary{Verdict: pipeline.VerdictAwaiting, Exit: 1, Next: "2 assumptions await review: premise review"})
	if !strings.Contains(b.String(), "next: 2 assumptions await review: premise review\n") {
		t.Errorf("one problem, one next: line:\n%s", b.String())
	}
}
