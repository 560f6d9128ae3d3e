package validate

import (
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const checkRegister = `version: 1
patch_ref: main...HEAD
items:
  - id: A001
    symbol: intervals.merge_ranges
    precondition: ranges arrive already sorted by start
    evidence: for start, end in ranges
    status: accepted
  - id: A002
    symbol: intervals.merge_ranges
    precondition: ranges are half-open
    evidence: start < prev_end
    status: accepted
  - id: A003
    symbol: intervals.merge_ranges
    precondition: one timezone-naive epoch
    evidence: subtracts datetimes
    status: rejected
    note: no datetimes here
`

const checkTable = `version: 1
target: intervals.merge_ranges
rows:
  - {id: P003, cls: disjoint_sorted, kind: representative, inp: [[0, 1], [4, 6]], relation: disjoint ranges stay two, assumption_ids: [A001, A002]}
  - {id: P004, cls: disjoint_unsorted, kind: boundary, inp: [[4, 6], [0, 1]], relation: order must not change cover, assumption_ids: [A001], same_as_base: true}
  - {id: P009, cls: invalid_inverted, kind: invalid, inp: [[5, 1]], relation: inverted range raises, assumption_ids: [A002], raises: ValueError}
  - {id: P020, cls: naive_and_aware, kind: boundary, inp: [[0, 1]], relation: a hand-written row violating A003, assumption_ids: [A003], same_as_base: true, decision: rejected}
`

func TestCheck(t *testing.T) {
	sp := func(s string) *string { return &s }
	tests := []struct {
		name     string
		register func(string) string
		table    func(string) string
		frozen   []FrozenRow
		head     string
		want     []string // "check: message" of each finding
		reason   string
	}{
		{name: "holds"},
		{
			name:   "a rejected assumption no row violates",
			table:  func(s string) string { return s[:strings.Index(s, "  - {id: P020")] },
			want:   []string{"covered: a.yaml:14: A003 is rejected but no row violates it (one timezone-naive epoch), so nothing fails a patch relying on it; write its rows: premise partitions"},
			reason: "issue 25: a rejected assumption's rows violate it and hold the base's outcome; without one the decision is kept by nothing",
		},
		{
			name:     "a proposed row fails",
			register: func(s string) string { return strings.Replace(s, "status: rejected", "status: proposed", 1) },
			want:     []string{"reviewed: a.yaml:14: A003 is still proposed (intervals.merge_ranges: one timezone-naive epoch); accept or reject it: premise review"},
			reason:   "silence is not assent",
		},
		{
			name: "an accepted assumption with only a representative row",
			table: func(s string) string {
				return strings.Replace(s, "assumption_ids: [A001], same_as_base", "assumption_ids: [A002], same_as_base", 1)
			},
			want:   []string{"covered: a.yaml:4: A001 is accepted but only representative rows (P003) test it (ranges arrive already sorted by start); add a boundary or invalid row"},
			reason: "seed 004: if A001 is accepted and no unsorted boundary row exists, the register is decorative",
		},
		{
			name: "an accepted assumption no row cites",
			register: func(s string) string {
				return strings.Replace(s, "status: rejected\n    note: no datetimes here", "status: accepted", 1)
			},
			table: func(s string) string { return s[:strings.Index(s, "  - {id: P020")] },
			want:  []string{"covered: a.yaml:14: A003 is accepted but no boundary or invalid row tests it (one timezone-naive epoch); add one: premise partitions"},
		},
		{
			name:  "a row citing an unknown assumption",
			table: func(s string) string { return strings.Replace(s, "[A002], raises", "[A002, A042], raises", 1) },
			want:  []string{"known-ids: p.yaml:6: P009 cites A042, which a.yaml does not hold"},
		},
		{
			name: "a todo row",
			table: func(s string) string {
				return s + "  - {id: P010, cls: nested, kind: boundary, relation: nested range does not extend, assumption_ids: [A002], todo: no value for a nested pair}\n"
			},
			want: []string{"no-todo: p.yaml:8: P010 (nested) is a row premise could not write (no value for a nested pair); " +
				`A002 (accepted: "ranges are half-open") is not checked until it is filled in: replace its todo: line with an input on the edge of A002, where it still holds ` +
				`(inp: for one argument, args: for several; a value JSON cannot hold is a Python expression, {$expr: "datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)", $imports: ["import datetime"]}) ` +
				"and same_as_base: true (or, for an input that violates it, raises: the exception the code must raise)"},
		},
		{
			name: "a contract no wrong result could fail",
			table: func(s string) string {
				return s + "  - {id: P010, cls: any_list, kind: boundary, inp: [[0, 1]], relation: the result is some list, assumption_ids: [A002], contract: 'size(result) >= 0'}\n" +
					"  - {id: P011, cls: anything, kind: representative, inp: [[0, 1]], relation: the result is anything, assumption_ids: [A002], contract: 'true'}\n" +
					"  - {id: P012, cls: exact, kind: boundary, inp: [[0, 1]], relation: the result is one range, assumption_ids: [A002], contract: 'result == [[0, 1]]'}\n" +
					"  - {id: P013, cls: sorted, kind: boundary, inp: [[0, 1]], relation: the result is sorted, assumption_ids: [A002], contract: 'result.all(r, r[0] <= r[1])'}\n"
			},
			want: []string{
				`contract-can-fail: p.yaml:8: P010's contract "size(result) >= 0" holds for every result premise tried (null, numbers, text, lists, maps): no wrong result could fail it; state what the result must be (result == ..., or a property that can be false)`,
				`contract-can-fail: p.yaml:9: P011's contract "true" holds for every result premise tried (null, numbers, text, lists, maps): no wrong result could fail it; state what the result must be (result == ..., or a property that can be false)`,
			},
			reason: "issue 25: a row whose contract no wrong result could fail is reported by check, not only by --self-check; an exact contract and a property a wrong list breaks both pass",
		},
		{
			name:   "a freeze without replacement from an earlier cycle",
			frozen: []FrozenRow{{Hash: "a1b2c3d4e5f60789", RowID: "P004", FrozenCommit: "1111111111111111"}},
			head:   "2222222222222222",
			want:   []string{"freeze-replaced: f.json: freeze a1b2c3d4e5f60789 (P004) still has replacement_row null and it was frozen at 111111111111, an earlier cycle; add a deterministic row and name it"},
			reason: "seed 004, Step 6: block merge when a freeze still has replacement_row null after one accepted patch cycle",
		},
		{
			name:   "a freeze made in this cycle is not yet due",
			frozen: []FrozenRow{{Hash: "a1b2c3d4e5f60789", RowID: "P004", FrozenCommit: "2222222222222222"}},
			head:   "2222222222222222",
		},
		{
			name:   "a seed-shape freeze cannot show it is new",
			frozen: []FrozenRow{{Hash: "a1b2c3d4e5f60789", RowID: "P004"}},
			want:   []string{"freeze-replaced: f.json: freeze a1b2c3d4e5f60789 (P004) still has replacement_row null and it does not say at which commit it was frozen; add a deterministic row and name it"},
		},
		{
			name:   "a replaced freeze holds",
			frozen: []FrozenRow{{Hash: "a1b2c3d4e5f60789", RowID: "P004", Replacement: sp("P003")}},
		},
		{
			name:   "a replacement that is not in the table",
			frozen: []FrozenRow{{Hash: "a1b2c3d4e5f60789", RowID: "P004", Replacement: sp("P099")}},
			want:   []string{"freeze-replaced: f.json: freeze a1b2c3d4e5f60789 (P004) names replacement_row P099, which p.yaml does not hold"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, ts := checkRegister, checkTable
			if tc.register != nil {
				rs = tc.register(rs)
			}
			if tc.table != nil {
				ts = tc.table(ts)
			}
			reg, err := ParseRegister("a.yaml", []byte(rs))
			if err != nil {
				t.Fatal(err)
			}
			tb, err := ParseTable("p.yaml", []byte(ts))
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(&CheckInput{Register: reg, RegisterFile: "a.yaml", Table: tb, TableFile: "p.yaml",
				Frozen: tc.frozen, FrozenFile: "f.json", CurrentHead: tc.head})
			var got []string
			for _, f := range rep.Findings {
				got = append(got, f.Check+": "+f.String())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%s", d, tc.reason)
			}
			if rep.OK() != (len(tc.want) == 0) {
				t.Errorf("OK() = %v with %d findings", rep.OK(), len(got))
			}
		})
	}
}

func TestCheckSummary(t *testing.T) {
	reg, _ := ParseRegister("a.yaml", []byte(checkRegister))
	tb, _ := ParseTable("p.yaml", []byte(checkTable))
	rep := Check(&CheckInput{Register: reg, RegisterFile: "a.yaml", Table: tb, TableFile: "p.yaml"})
	want := &CheckReport{
		Findings: []Finding{},
		Targets:  []TargetClasses{{Target: "intervals.merge_ranges", Classes: []string{"disjoint_sorted", "disjoint_unsorted", "invalid_inverted", "naive_and_aware"}, Rows: 4}},
		Coverage: []Coverage{
			{ID: "A001", Symbol: "intervals.merge_ranges", Rows: []string{"P003", "P004"}, EdgeRows: []string{"P004"}},
			{ID: "A002", Symbol: "intervals.merge_ranges", Rows: []string{"P003", "P009"}, EdgeRows: []string{"P009"}},
		},
		Counts: map[string]int{"accepted": 2, "rejected": 1},
		Stale:  []StaleItem{},
	}
	if d := cmp.Diff(want, rep); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// bigFiles builds a register of nItems accepted assumptions and a table of
// nRows rows citing them. Every contractEvery-th row has its own contract
// (0 for none); the others state same_as_base, as template rows do.
func bigFiles(nItems, nRows, contractEvery int) ([]byte, []byte) {
	var r, p strings.Builder
	r.WriteString("version: 1\npatch_ref: main...HEAD\nitems:\n")
	for i := 1; i <= nItems; i++ {
		fmt.Fprintf(&r, "  - id: A%03d\n    symbol: pkg.mod.func_%d\n    precondition: input %d arrives sorted and non-empty\n    evidence: \"for x in items_%d:\"\n    status: accepted\n    file: pkg/mod.py\n    line: %d\n", i, i%50, i, i, i)
	}
	p.WriteString("version: 1\ntarget: pkg.mod.func\nrows:\n")
	kinds := []string{KindBoundary, KindInvalid, KindRepresentative}
	for i := 1; i <= nRows; i++ {
		check := "same_as_base: true"
		if contractEvery > 0 && i%contractEvery == 0 {
			check = fmt.Sprintf("contract: result == [[0, %d]]", i)
		}
		fmt.Fprintf(&p, "  - id: P%03d\n    cls: class_%d\n    kind: %s\n    inp: [[%d, %d], [0, 1], \"text %d\"]\n    relation: order of input must not change the result\n    assumption_ids: [A%03d]\n    %s\n", i, i%40, kinds[i%3], i, i+3, i, (i-1)%nItems+1, check)
	}
	return []byte(r.String()), []byte(p.String())
}

// BenchmarkLoadAndCheck measures issue 4's bar: a register of 5,000 rows
// and a partition table of 20,000 rows load and check well under a second.
// The two files load at the same time, as premise check loads them.
//
//	go test -run XXX -bench LoadAndCheck -benchtime 5x ./validate/
func BenchmarkLoadAndCheck(b *testing.B) {
	for _, bc := range []struct {
		name  string
		every int
	}{
		{"same_as_base", 0},
		{"contract_every_10th_row", 10},
		{"contract_every_row", 1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rs, ts := bigFiles(5000, 20000, bc.every)
			b.SetBytes(int64(len(rs) + len(ts)))
			// CPU time is reported beside wall time: on a shared machine
			// the wall clock measures the neighbours too.
			start := cpuTime()
			for b.Loop() {
				var (
					reg        *Register
					tb         *Table
					rErr, tErr error
					wg         sync.WaitGroup
				)
				wg.Add(2)
				go func() { defer wg.Done(); reg, rErr = ParseRegister("a.yaml", rs) }()
				go func() { defer wg.Done(); tb, tErr = ParseTable("p.yaml", ts) }()
				wg.Wait()
				if rErr != nil || tErr != nil {
					b.Fatal(rErr, tErr)
				}
				rep := Check(&CheckInput{Register: reg, RegisterFile: "a.yaml", Table: tb, TableFile: "p.yaml"})
				if !rep.OK() {
					b.Fatalf("check failed: %v", rep.Findings[0])
				}
			}
			b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// seed 004's register and partition table, written by hand in exactly the
// seed's shape, check once the register is reviewed.
func TestCheckSeedShape(t *testing.T) {
	tb, err := LoadTable("testdata/seed004_partitions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := LoadRegister("testdata/seed004_assumptions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := &CheckInput{Register: reg, RegisterFile: "assumptions.yaml", Table: tb, TableFile: "partitions.yaml"}
	if got := len(Check(in).Findings); got != 3 {
		t.Errorf("%d findings on the unreviewed seed register, want 3 (every row still proposed)", got)
	}
	for i := range reg.Items {
		reg.Items[i].Status = StatusAccepted
	}
	if rep := Check(in); !rep.OK() {
		t.Errorf("seed 004's files, accepted, fail the check: %v", rep.Findings)
	}
}
