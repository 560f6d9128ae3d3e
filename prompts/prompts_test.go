package prompts

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./prompts -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

var mergeRanges = Symbol{
	Name: "intervals.merge_ranges", Kind: "function", Change: "modified",
	File: "intervals.py", Language: "python", Start: 1, End: 13,
	Source: "def merge_ranges(ranges):\n    if ranges is None:\n        raise TypeError(\"ranges is required\")\n    out = []\n    for start, end in ranges:\n        ...",
	Hunks:  "@@ -3,7 +3,6 @@\n-    ordered = sorted(ranges, key=lambda r: r[0])\n     out = []\n-    for start, end in ordered:\n+    for start, end in ranges:",
}

func TestRenderAssumptions(t *testing.T) {
	m, err := Render("assumptions", AssumptionsData{Symbols: []Symbol{mergeRanges, {
		Name: "intervals.old_helper", Kind: "function", Change: "deleted", File: "intervals.py", Language: "python",
		Hunks: "@@ -20,2 +19,0 @@\n-def old_helper():\n-    pass",
	}}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "assumptions.system.golden", m.System)
	golden(t, "assumptions.user.golden", m.User)
	for _, want := range []string{"- intervals.merge_ranges (function, modified, intervals.py)", "for start, end in ranges:", "Do not invent symbols", "Do not write tests"} {
		if !strings.Contains(m.System+m.User, want) {
			t.Errorf("rendered prompt lacks %q", want)
		}
	}
}

func TestTruncatedSymbolCarriesANote(t *testing.T) {
	s := mergeRanges
	s.Truncated = true
	m, err := Render("assumptions", AssumptionsData{Symbols: []Symbol{s}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.User, "truncated") {
		t.Errorf("a truncated symbol is sent without a note:\n%s", m.User)
	}
}

func TestRepair(t *testing.T) {
	p, err := Get("assumptions")
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Part("repair", RepairData{
		Dropped: []DroppedRow{{Symbol: "foo.bar", Precondition: "p", Evidence: "e", Detail: `"foo.bar" is not a changed symbol of this diff`}},
		Symbols: []string{"intervals.merge_ranges", "intervals.helper"},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "assumptions.repair.golden", got)
}

func TestSHA256IsOfTheTemplateText(t *testing.T) {
	text, err := os.ReadFile("text/assumptions.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Get("assumptions")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(text)
	if want := hex.EncodeToString(sum[:]); p.SHA256 != want {
		t.Errorf("SHA256 = %s, want %s: a register must name the exact text asked", p.SHA256, want)
	}
	if p.Name != "assumptions" {
		t.Errorf("Name = %q", p.Name)
	}
}

func TestGetUnknown(t *testing.T) {
	_, err := Get("nope")
	if err == nil || !strings.Contains(err.Error(), "assumptions") {
		t.Errorf("err = %v, want one naming the prompts there are", err)
	}
	p, _ := Get("assumptions")
	if _, err := p.Part("nope", nil); err == nil {
		t.Errorf("rendering a missing part succeeded")
	}
}

func TestRenderMissingFieldFails(t *testing.T) {
	if _, err := Render("assumptions", map[string]any{}); err == nil {
		t.Errorf("rendering without Symbols succeeded; a prompt missing its data must not be sent")
	}
}

// TestRenderInputs: the inputs prompt shows the function both ways, its
// parameters and the assumptions under review, and asks for JSON values
// only; its text is pinned by goldens, as every prompt's is.
func TestRenderInputs(t *testing.T) {
	m, err := Render("inputs", InputsData{
		Name: "intervals.merge_ranges", Language: "python", Params: []string{"ranges"},
		Assumptions: []string{"ranges arrive already sorted by start"},
		Source:      "def merge_ranges(ranges):\n    for start, end in ranges:\n        ...",
		BaseSource:  "def merge_ranges(ranges):\n    for start, end in sorted(ranges):\n        ...",
		Max:         12,
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "inputs.system.golden", m.System)
	golden(t, "inputs.user.golden", m.User)
	for _, want := range []string{"Parameters: ranges", "- ranges arrive already sorted by start", "sorted(ranges)", "at most 12 inputs", "JSON value"} {
		if !strings.Contains(m.System+m.User, want) {
			t.Errorf("rendered prompt lacks %q", want)
		}
	}
}

// TestRenderRows: the rows prompt names each accepted assumption by id,
// shows the source and the template rows already written, and says a row
// whose check does not hold before the patch is thrown away.
func TestRenderRows(t *testing.T) {
	m, err := Render("rows", RowsData{
		Name: "intervals.merge_ranges", Language: "python", Params: []string{"ranges"},
		Assumptions: []RowsAssumption{{ID: "A001", Precondition: "ranges arrive already sorted by start"}},
		Source:      "def merge_ranges(ranges):\n    for start, end in ranges:\n        ...",
		Templates:   []string{"P001 boundary unsorted: merge_ranges([[4, 6], [0, 1]]) same_as_base"},
		Max:         8,
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "rows.system.golden", m.System)
	golden(t, "rows.user.golden", m.User)
	for _, want := range []string{"- A001: ranges arrive already sorted by start", "P001 boundary unsorted", "for start, end in ranges", "at most 8 rows", "thrown\naway", "same_as_base"} {
		if !strings.Contains(m.System+m.User, want) {
			t.Errorf("rendered prompt lacks %q", want)
		}
	}
}
