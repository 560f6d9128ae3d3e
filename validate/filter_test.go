package validate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
)

// hunk builds a hunk from diff lines ("+added", "-deleted", " context")
// starting at the given old and new line numbers.
func hunk(oldStart, newStart int, lines ...string) diffparse.Hunk {
	h := diffparse.Hunk{OldStart: oldStart, NewStart: newStart}
	o, n := oldStart, newStart
	for _, l := range lines {
		dl := diffparse.Line{Kind: l[0], Text: l[1:]}
		switch l[0] {
		case '+':
			dl.New = n
			n++
			h.NewLines++
		case '-':
			dl.Old = o
			o++
			h.OldLines++
		default:
			dl.Old, dl.New = o, n
			o++
			n++
			h.OldLines++
			h.NewLines++
		}
		h.Lines = append(h.Lines, dl)
	}
	return h
}

// intervalsDiff is seed 004's merge_ranges after an agent dropped the sort,
// plus a second file with a helper of the same local name.
func intervalsDiff() *diffparse.Result {
	return &diffparse.Result{Files: []diffparse.File{
		{
			Path: "intervals.py", Language: "python",
			Symbols: []diffparse.Symbol{
				{Name: "intervals.merge_ranges", Local: "merge_ranges", Kind: "function", Start: 1, End: 12},
				{Name: "intervals.helper", Local: "helper", Kind: "function", Start: 14, End: 15},
			},
			Hunks: []diffparse.Hunk{
				hunk(3, 3,
					`     raise TypeError("ranges is required")`,
					`-    ordered = sorted(ranges, key=lambda r: r[0])`,
					`     out = []`,
					`-    for start, end in ordered:`,
					`+    for start, end in ranges:`,
					`         if end < start:`,
					`             raise ValueError("end < start")`,
					`-        if not out or start > out[-1][1]:`,
					`+        if not out or start >= out[-1][1]:`,
				),
				hunk(20, 14,
					`+def helper(x):`,
					`+    return x[0]`,
				),
			},
		},
		{
			Path: "other/util.py", Language: "python",
			Symbols: []diffparse.Symbol{
				{Name: "other.util.helper", Local: "helper", Kind: "function", Start: 1, End: 2},
			},
			Hunks: []diffparse.Hunk{hunk(0, 1, `+def helper(y):`, `+    return y.name`)},
		},
	}}
}

func TestFilter(t *testing.T) {
	res := intervalsDiff()
	tests := []struct {
		name   string
		cand   Candidate
		want   *Item  // kept row, or nil
		reason string // dropped reason, when want is nil
		why    string
	}{
		{
			name: "qualified name and a whole head line",
			cand: Candidate{Symbol: "intervals.merge_ranges", Precondition: "ranges arrive already sorted by start", Evidence: "for start, end in ranges:", Source: "static:loop-compares-previous"},
			want: &Item{Symbol: "intervals.merge_ranges", Precondition: "ranges arrive already sorted by start", Evidence: "for start, end in ranges:", Source: "static:loop-compares-previous", File: "intervals.py", Line: 5},
		},
		{
			name: "local name is normalised to the qualified one",
			cand: Candidate{Symbol: "merge_ranges", Precondition: "touching ranges merge", Evidence: "start >= out[-1][1]"},
			want: &Item{Symbol: "intervals.merge_ranges", Precondition: "touching ranges merge", Evidence: "start >= out[-1][1]", File: "intervals.py", Line: 8},
			why:  "a fragment of a line is a quotation too",
		},
		{
			name:   "white space is folded in evidence and precondition",
			cand:   Candidate{Symbol: "intervals.merge_ranges", Precondition: "  ranges   are\tsorted ", Evidence: "for   start,end in ranges:"},
			reason: ReasonEvidenceNotInDiff,
			why:    "folding collapses runs of space; it does not invent a missing one",
		},
		{
			name: "evidence re-indented still matches",
			cand: Candidate{Symbol: "intervals.merge_ranges", Precondition: "  ranges   are\tsorted ", Evidence: "\tfor start,  end in ranges:\n"},
			want: &Item{Symbol: "intervals.merge_ranges", Precondition: "ranges are sorted", Evidence: "for start,  end in ranges:", File: "intervals.py", Line: 5},
		},
		{
			name:   "evidence quoting a deleted line is in the diff",
			cand:   Candidate{Symbol: "intervals.merge_ranges", Precondition: "input need not be sorted any more", Evidence: "ordered = sorted(ranges, key=lambda r: r[0])"},
			want:   &Item{Symbol: "intervals.merge_ranges", Precondition: "input need not be sorted any more", Evidence: "ordered = sorted(ranges, key=lambda r: r[0])", File: "intervals.py", Line: 4},
			reason: "",
			why:    "a deleted line is reported at the head-side line it sat before",
		},
		{
			name:   "evidence spanning two lines of the same side",
			cand:   Candidate{Symbol: "intervals.merge_ranges", Precondition: "end >= start", Evidence: "if end < start:\n raise ValueError(\"end < start\")"},
			want:   &Item{Symbol: "intervals.merge_ranges", Precondition: "end >= start", Evidence: "if end < start:\n raise ValueError(\"end < start\")", File: "intervals.py", Line: 6},
			reason: "",
		},
		{
			name:   "evidence stitching a deleted line to its replacement is refused",
			cand:   Candidate{Symbol: "intervals.merge_ranges", Precondition: "p", Evidence: "for start, end in ordered: for start, end in ranges:"},
			reason: ReasonEvidenceNotInDiff,
		},
		{
			name:   "ambiguous local name",
			cand:   Candidate{Symbol: "helper", Precondition: "x is non-empty", Evidence: "return x[0]"},
			reason: ReasonUnknownSymbol,
			why:    "two changed symbols are called helper",
		},
		{
			name: "dotted suffix disambiguates",
			cand: Candidate{Symbol: "util.helper", Precondition: "y is not None", Evidence: "return y.name"},
			want: &Item{Symbol: "other.util.helper", Precondition: "y is not None", Evidence: "return y.name", File: "other/util.py", Line: 2},
		},
		{
			name:   "invented symbol",
			cand:   Candidate{Symbol: "intervals.split_ranges", Precondition: "p", Evidence: "for start, end in ranges:"},
			reason: ReasonUnknownSymbol,
		},
		{
			name:   "evidence from another file",
			cand:   Candidate{Symbol: "other.util.helper", Precondition: "y non-empty", Evidence: "return x[0]"},
			reason: ReasonEvidenceNotInDiff,
			why:    "evidence must be in the hunks of the symbol's own file",
		},
		{
			name:   "paraphrased evidence",
			cand:   Candidate{Symbol: "merge_ranges", Precondition: "sorted", Evidence: "loop uses prev_end without an initial sort"},
			reason: ReasonEvidenceNotInDiff,
			why:    "seed 004's own example evidence is prose, not a quotation",
		},
		{
			name:   "empty precondition",
			cand:   Candidate{Symbol: "merge_ranges", Precondition: " \n", Evidence: "for start, end in ranges:"},
			reason: ReasonEmptyPrecondition,
		},
		{
			name:   "overlong precondition",
			cand:   Candidate{Symbol: "merge_ranges", Precondition: strings.Repeat("sorted ", 60), Evidence: "for start, end in ranges:"},
			reason: ReasonMalformed,
		},
		{
			name:   "no symbol",
			cand:   Candidate{Precondition: "sorted", Evidence: "for start, end in ranges:"},
			reason: ReasonMalformed,
		},
		{
			name:   "evidence too short to locate",
			cand:   Candidate{Symbol: "merge_ranges", Precondition: "sorted", Evidence: "("},
			reason: ReasonMalformed,
		},
		{
			name:   "no evidence",
			cand:   Candidate{Symbol: "merge_ranges", Precondition: "sorted"},
			reason: ReasonMalformed,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Filter([]Candidate{tc.cand}, res)
			if tc.want != nil {
				if len(got.Dropped) != 0 {
					t.Fatalf("dropped %+v, want kept (%s)", got.Dropped[0], tc.why)
				}
				if diff := cmp.Diff([]Item{*tc.want}, got.Kept); diff != "" {
					t.Errorf("kept (-want +got) %s:\n%s", tc.why, diff)
				}
				return
			}
			if len(got.Dropped) != 1 {
				t.Fatalf("kept %+v, want dropped with %s (%s)", got.Kept, tc.reason, tc.why)
			}
			if got.Dropped[0].Reason != tc.reason {
				t.Errorf("reason = %s (%s), want %s (%s)", got.Dropped[0].Reason, got.Dropped[0].Detail, tc.reason, tc.why)
			}
			if got.Dropped[0].Detail == "" {
				t.Errorf("dropped row has no detail")
			}
			if diff := cmp.Diff(tc.cand, got.Dropped[0].Candidate); diff != "" {
				t.Errorf("dropped row is not reported as proposed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFilterDuplicates(t *testing.T) {
	cands := []Candidate{
		{Symbol: "merge_ranges", Precondition: "Ranges are sorted", Evidence: "for start, end in ranges:", Source: "static:a"},
		{Symbol: "intervals.merge_ranges", Precondition: "ranges  are sorted", Evidence: "out = []", Source: "model:m"},
		{Symbol: "intervals.merge_ranges", Precondition: "ranges are half-open", Evidence: "out = []", Source: "model:m"},
	}
	got := Filter(cands, intervalsDiff())
	if len(got.Kept) != 2 || len(got.Dropped) != 1 {
		t.Fatalf("kept %d dropped %d, want 2 and 1", len(got.Kept), len(got.Dropped))
	}
	if d := got.Dropped[0]; d.Reason != ReasonDuplicate || d.Source != "model:m" {
		t.Errorf("dropped %+v, want the second row as duplicate (same symbol after normalising, same precondition up to case and space)", d)
	}
}

func TestUnknownSymbolDetailListsSymbols(t *testing.T) {
	got := Filter([]Candidate{{Symbol: "foo.bar", Precondition: "p", Evidence: "out = []"}}, intervalsDiff())
	d := got.Dropped[0].Detail
	for _, want := range []string{`"foo.bar" is not a changed symbol`, "intervals.merge_ranges", "other.util.helper"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q does not contain %q; the repair round sends it to the model", d, want)
		}
	}
}

func TestFilterNilResult(t *testing.T) {
	got := Filter([]Candidate{{Symbol: "a.b", Precondition: "p", Evidence: "abcd"}}, nil)
	if len(got.Dropped) != 1 || got.Dropped[0].Reason != ReasonUnknownSymbol {
		t.Errorf("got %+v, want the row dropped as unknown_symbol", got)
	}
}

// bigDiff is a diff of nFiles files with perFile changed symbols each.
func bigDiff(nFiles, perFile int) *diffparse.Result {
	res := &diffparse.Result{}
	for f := 0; f < nFiles; f++ {
		file := diffparse.File{Path: fmt.Sprintf("pkg%d/mod.py", f), Language: "python"}
		var lines []string
		for s := 0; s < perFile; s++ {
			file.Symbols = append(file.Symbols, diffparse.Symbol{
				Name: fmt.Sprintf("pkg%d.mod.fn%d", f, s), Local: fmt.Sprintf("fn%d", s), Kind: "function",
				Start: s*4 + 1, End: s*4 + 4,
			})
			lines = append(lines,
				fmt.Sprintf("+def fn%d(items):", s),
				fmt.Sprintf("+    first = items[0] + %d", s),
				"+    for a, b in zip(items, items[1:]):",
				fmt.Sprintf("+        assert a <= b, %d", s),
			)
		}
		file.Hunks = []diffparse.Hunk{hunk(0, 1, lines...)}
		res.Files = append(res.Files, file)
	}
	return res
}

// BenchmarkFilter filters 10,000 candidate rows against a diff of 2,000
// changed symbols (issue 3): the index is built once, each symbol looked up
// in a map.
func BenchmarkFilter(b *testing.B) {
	res := bigDiff(100, 20)
	var cands []Candidate
	for i := 0; i < 10000; i++ {
		f, s := i%100, (i/100)%20
		c := Candidate{Symbol: fmt.Sprintf("pkg%d.mod.fn%d", f, s), Precondition: fmt.Sprintf("items non-empty %d", i), Evidence: fmt.Sprintf("first = items[0] + %d", s)}
		switch i % 10 {
		case 7:
			c.Symbol = "nowhere.fn"
		case 8:
			c.Evidence = "items[0] +"
		case 9:
			c.Evidence = "not in the diff at all"
		}
		cands = append(cands, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got := Filter(cands, res)
		if len(got.Kept) != 8000 {
			b.Fatalf("kept %d, want 8000", len(got.Kept))
		}
	}
}

func FuzzFold(f *testing.F) {
	for _, s := range []string{"", "  a  b ", "\tfor x in y:\n", "a\u00a0b", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Fold(s)
		if Fold(got) != got {
			t.Errorf("Fold not idempotent on %q", s)
		}
		if strings.Join(strings.Fields(got), " ") != got {
			t.Errorf("Fold(%q) = %q has unfolded space", s, got)
		}
	})
}

// BenchmarkFilterScaling filters the same 10,000 candidates against diffs of
// 200, 2,000 and 20,000 symbols with the index built once outside the
// timer: with map lookups the time per candidate stays flat as the diff
// grows (bench/filter_scaling.sh prints the ratio).
func BenchmarkFilterScaling(b *testing.B) {
	for _, files := range []int{10, 100, 1000} {
		res := bigDiff(files, 20)
		var cands []Candidate
		for i := 0; i < 10000; i++ {
			f, s := i%files, (i/files)%20
			cands = append(cands, Candidate{Symbol: fmt.Sprintf("pkg%d.mod.fn%d", f, s), Precondition: fmt.Sprintf("p%d", i), Evidence: fmt.Sprintf("first = items[0] + %d", s)})
		}
		b.Run(fmt.Sprintf("symbols=%d", files*20), func(b *testing.B) {
			ix := NewIndex(res)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if got := ix.Filter(cands); len(got.Kept) != 10000 {
					b.Fatalf("kept %d", len(got.Kept))
				}
			}
		})
	}
}

// TestFilterOnRealDiff runs the filter on the diff diffparse reads from a
// real repository holding examples/intervals (base, then the agent's patch).
func TestFilterOnRealDiff(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@premise.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@premise.invalid", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(to), 0o755)
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	copyFile("../examples/intervals/base/intervals/__init__.py", filepath.Join(dir, "intervals/__init__.py"))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	copyFile("../examples/intervals/head/intervals/__init__.py", filepath.Join(dir, "intervals/__init__.py"))
	git("commit", "-q", "-am", "agent patch")
	res, err := diffparse.Load(context.Background(), diffparse.Config{Repo: dir, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	got := Filter([]Candidate{
		{Symbol: "merge_ranges", Precondition: "ranges arrive already sorted by start", Evidence: "for start, end in ranges:"},
		{Symbol: "intervals.merge_ranges", Precondition: "the sort is gone", Evidence: "ordered = sorted(ranges, key=lambda r: r[0])"},
		{Symbol: "intervals.covers", Precondition: "point is an int", Evidence: "return any(start <= point < end for start, end in ranges)"},
		{Symbol: "intervals.merge_ranges", Precondition: "ranges hold pairs", Evidence: "return any(start <= point < end for start, end in ranges)"},
	}, res)
	var kept []string
	for _, k := range got.Kept {
		kept = append(kept, fmt.Sprintf("%s %s:%d", k.Symbol, k.File, k.Line))
	}
	want := []string{"intervals.merge_ranges intervals/__init__.py:9", "intervals.merge_ranges intervals/__init__.py:8"}
	if diff := cmp.Diff(want, kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	var reasons []string
	for _, d := range got.Dropped {
		reasons = append(reasons, d.Reason)
	}
	if diff := cmp.Diff([]string{ReasonUnknownSymbol, ReasonEvidenceNotInDiff}, reasons); diff != "" {
		t.Errorf("dropped (-want +got), covers is unchanged and its return line is outside every hunk:\n%s", diff)
	}
}
