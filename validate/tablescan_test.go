package validate

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sameTable compares two reads of one file, lines included.
var sameTable = cmp.Options{cmpopts.IgnoreUnexported(Table{})}

// goodRow is a row in the shape premise writes; the cases below break it
// one line at a time.
const goodHead = "# yaml-language-server: $schema=x\nversion: 1\ntarget: intervals.merge_ranges\nrows:\n"

var goodRow = []string{
	"  - id: P001",
	"    cls: disjoint_sorted",
	"    kind: representative",
	"    inp: [[0, 1], [4, 6]]",
	"    relation: disjoint ranges stay two intervals",
	"    assumption_ids: [A001]",
	"    contract: result == [[0, 1], [4, 6]]",
}

// goodRowWith returns goodRow with line i (0-based) replaced by with, or removed
// when with is "", or with appended when i is -1.
func goodRowWith(i int, with string) string {
	lines := append([]string(nil), goodRow...)
	switch {
	case i < 0:
		lines = append(lines, with)
	case with == "":
		lines = append(lines[:i], lines[i+1:]...)
	default:
		lines[i] = with
	}
	return goodHead + strings.Join(lines, "\n") + "\n"
}

// TestScanTableRefusesWhatNodesRefuse holds the fast reader to the node
// decoder on bad tables in the shape premise writes: the fast reader gives
// up on each, so each gets the node decoder's problems, with file and
// line, exactly.
func TestScanTableRefusesWhatNodesRefuse(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string // the problems, when stated; otherwise the node decoder's, whatever they are
	}{
		{name: "bad id", data: goodRowWith(0, "  - id: P1"),
			want: []string{`t.yaml:5: P1: id "P1" must be P and three or more digits, like P001`}},
		{name: "duplicate id", data: goodRowWith(-1, strings.Join(goodRow, "\n")),
			want: []string{`t.yaml:12: P001: id given twice (first at line 5)`}},
		{name: "kind enum", data: goodRowWith(2, "    kind: edge"),
			want: []string{`t.yaml:7: P001: kind "edge" must be representative, boundary, invalid or property`}},
		{name: "short relation", data: goodRowWith(4, "    relation: short"),
			want: []string{`t.yaml:9: P001: relation "short" is shorter than 8 characters; say what must hold`}},
		{name: "no assumption", data: goodRowWith(5, "    assumption_ids: []"),
			want: []string{`t.yaml:10: P001: assumption_ids must name at least one assumption: an untethered row is how the happy path sneaks back`}},
		{name: "bad assumption id", data: goodRowWith(5, "    assumption_ids: [B001]"),
			want: []string{`t.yaml:10: P001: assumption id "B001" must be A (an assumption) or C (a change) and three or more digits, like A001 or C001`}},
		{name: "contract typo", data: goodRowWith(6, "    contract: reslt == 1"),
			want: []string{`t.yaml:11: P001: contract "reslt == 1": ERROR: <input>:1:1: undeclared reference to 'reslt' (did you mean 'result'?) | reslt == 1 | ^`}},
		{name: "contract not bool", data: goodRowWith(6, "    contract: result.size()"),
			want: []string{`t.yaml:11: P001: contract "result.size()": yields int, not bool`}},
		{name: "empty contract", data: goodRowWith(6, "    contract: ''"),
			want: []string{`t.yaml:11: P001: contract is empty; remove it or write a CEL expression over result`}},
		{name: "same_as_base and contract", data: goodRowWith(-1, "    same_as_base: true"),
			want: []string{`t.yaml:12: P001: same_as_base and contract are exclusive: the base revision is the contract`}},
		{name: "same_as_base not a bool", data: goodRowWith(6, "    same_as_base: yes"),
			want: []string{`t.yaml:11: P001.same_as_base: want true or false, got "yes"`}},
		{name: "unknown field", data: goodRowWith(-1, "    expected: 1"),
			want: []string{`t.yaml:12: P001: unknown field "expected" (known fields: id, cls, kind, inp, relation, assumption_ids, target, args, kwargs, contract, raises, metamorphic, same_as_base, todo, property, expect, decision, test)`}},
		{name: "field twice", data: goodRowWith(-1, "    cls: again"),
			want: []string{`t.yaml:12: P001: field "cls" given twice (first at line 6)`}},
		{name: "no input", data: goodRowWith(3, ""),
			want: []string{`t.yaml:5: P001: missing inp (or args/kwargs for several parameters); write inp: null to pass None`}},
		{name: "inp and args", data: goodRowWith(-1, "    args: [1]"),
			want: []string{`t.yaml:8: P001: give either inp (the one argument) or args/kwargs, not both`}},
		{name: "nan input", data: goodRowWith(3, "    inp: .nan"),
			want: []string{`t.yaml:8: P001.inp: .nan is not a number JSON can carry`}},
		{name: "non-text key", data: goodRowWith(3, "    inp: {1: a}"),
			want: []string{`t.yaml:8: P001.inp: keys must be text (JSON objects have text keys), got 1`}},
		{name: "integer cls", data: goodRowWith(1, "    cls: 5"),
			want: []string{`t.yaml:6: P001.cls: want text, got 5; quote it: "5"`, `t.yaml:6: P001: missing cls, the equivalence class (empty, touching, invalid_none, ...)`}},
		{name: "metamorphic enum", data: goodRowWith(-1, "    metamorphic: [commutative]"),
			want: []string{`t.yaml:12: P001: metamorphic relation "commutative" must be permutation or idempotent`}},
		{name: "raises on a representative row", data: goodRowWith(6, "    raises: ValueError"),
			want: []string{`t.yaml:11: P001: raises is for invalid rows; this row is representative`}},
		{name: "version", data: strings.Replace(goodRowWith(-1, ""), "version: 1", "version: 2", 1),
			want: []string{`t.yaml:2: table: version 2 is not supported (want 1)`}},
		{name: "language", data: strings.Replace(goodRowWith(-1, ""), "target:", "language: cobol\ntarget:", 1),
			want: []string{`t.yaml:3: table: language "cobol" must be python, go, javascript, typescript or exec`}},
		{name: "unknown top field", data: goodRowWith(-1, "owner: me"),
			want: []string{`t.yaml:12: table: unknown field "owner" (known fields: version, target, language, rows)`}},
		{name: "no version", data: strings.Replace(goodRowWith(-1, ""), "version: 1\n", "", 1),
			want: []string{`t.yaml:2: table: missing field "version" (write version: 1)`}},
		{name: "no target", data: strings.Replace(goodRowWith(-1, ""), "target: intervals.merge_ranges\n", "", 1),
			want: []string{`t.yaml:4: P001: no target: give the table a target (intervals.merge_ranges) or the row one`}},
		{name: "alias", data: strings.Replace(goodRowWith(-1, "    target: *t"), "target: intervals", "target: &t intervals", 1)},
		{name: "tab", data: goodRowWith(1, "\tcls: c")},
		{name: "unclosed list", data: goodRowWith(3, "    inp: [[0, 1], [4, 6]")},
		{name: "a second document", data: goodRowWith(-1, "---\nversion: 1")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := scanTable("t.yaml", []byte(tc.data)); ok {
				t.Fatalf("the fast reader took a bad table:\n%s", tc.data)
			}
			_, err := ParseTable("t.yaml", []byte(tc.data))
			got := problemStrings(t, err)
			if len(got) == 0 {
				t.Fatalf("no problem reported for:\n%s", tc.data)
			}
			_, nerr := parseTableNodes("t.yaml", []byte(tc.data))
			if d := cmp.Diff(problemStrings(t, nerr), got); d != "" {
				t.Errorf("problems differ from the node decoder's (-nodes +got):\n%s", d)
			}
			if tc.want != nil {
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Errorf("problems (-want +got):\n%s", d)
				}
			}
			for _, p := range got {
				if !strings.HasPrefix(p, "t.yaml:") || strings.Contains(p, "\n") {
					t.Errorf("problem %q: want one line naming the file and line", p)
				}
			}
		})
	}
}

// TestScanTableReadsWhatPremiseWrites: the tables premise writes, and
// seed 004's, take the fast reader, and it reads them as the node decoder
// does.
func TestScanTableReadsWhatPremiseWrites(t *testing.T) {
	seed, err := os.ReadFile(filepath.Join("testdata", "seed004_partitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := parseTableNodes("seed.yaml", seed)
	if err != nil {
		t.Fatal(err)
	}
	tb.Rows = append(tb.Rows, Row{ID: "P100", Cls: "several", Kind: KindBoundary, Relation: "several arguments, keyword ones too",
		AssumptionIDs: []string{"A001", "C002"}, Target: "mathx.clamp", Args: []any{10, -1.5, "it's", nil, true, []any{}, map[string]any{"k": "v w"}},
		Kwargs: map[string]any{"lo": 0, "name": "x: y", "deep": []any{[]any{"#", "[a]"}}}, Contract: "result == 10", Metamorphic: []string{RelIdempotent}},
		Row{ID: "P101", Cls: "base", Kind: KindBoundary, Inp: "héllo, wörld", HasInp: true, Relation: "the head does what the base does",
			AssumptionIDs: []string{"A002"}, SameAsBase: true, Decision: StatusAccepted},
		Row{ID: "P102", Cls: "todo", Kind: KindRepresentative, Relation: "a row still to fill in", AssumptionIDs: []string{"A002"}, Todo: "write the input"},
		Row{ID: "P103", Cls: "raise", Kind: KindInvalid, Inp: map[string]any{}, HasInp: true, Relation: "an empty mapping is refused",
			AssumptionIDs: []string{"A002"}, Raises: "TypeError", Contract: ""},
		Row{ID: "P104", Cls: "cel", Kind: KindRepresentative, Inp: []any{[]any{5, 1}}, HasInp: true, Relation: "every range comes back in order",
			AssumptionIDs: []string{"A002"}, Contract: "result.all(r, r[0] <= r[1]) && size(result) <= 1", Metamorphic: []string{RelPermutation}})
	for _, tab := range []*Table{tb, randomTable(rand.New(rand.NewSource(1)), 300)} {
		data, err := tab.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		fast, ok := scanTable("t.yaml", data)
		if !ok {
			t.Fatalf("the fast reader gave up on a table premise wrote:\n%s", data)
		}
		nodes, err := parseTableNodes("t.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(nodes, fast, sameTable); d != "" {
			t.Errorf("fast read (-nodes +fast):\n%s", d)
		}
		for _, r := range fast.Rows {
			if r.Contract == "" {
				continue
			}
			if _, ok := fast.contracts[r.Contract]; !ok {
				t.Errorf("%s: contract %q was not compiled with the table", r.ID, r.Contract)
			}
		}
	}
}

// randomTable is a table like bench/gate_vs_pytest.sh's.
func randomTable(rng *rand.Rand, n int) *Table {
	tb := &Table{Version: FormatVersion, Target: "intervals.merge_ranges"}
	for i := 1; i <= n; i++ {
		inp := []any{}
		for range rng.Intn(9) {
			s := rng.Intn(51)
			inp = append(inp, []any{s, s + rng.Intn(11)})
		}
		tb.Rows = append(tb.Rows, Row{ID: fmt.Sprintf("P%04d", i), Cls: "random", Kind: KindRepresentative, Inp: inp, HasInp: true,
			Relation: "merges into a sorted disjoint cover", Contract: fmt.Sprintf("result.size() <= %d", len(inp)), AssumptionIDs: []string{"A001"}})
	}
	return tb
}

// FuzzScanTable holds the fast reader to the node decoder: whatever it
// takes, the node decoder takes too and reads the same (lines included).
func FuzzScanTable(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "seed004_partitions.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, l := range []string{"inp: [1.5, -0, 'a''b', \"c d\", null, ~, True, {k: [x]}]", "args: [a b, (c), _d]", "kwargs: {a : 1, 'b': FALSE}",
		"inp: 0012", "inp: 1e3", "inp: 2001-12-14", "inp: 0x1F", "inp: [a: 1]", "inp: {a:1}", "relation: a # b", "relation: yes, and no",
		"relation: 'x' y", "inp: -", "inp: [1,]", "inp: \"a\\nb\"", "relation: ab\u0085cd"} {
		f.Add([]byte(goodRowWith(3, "    "+l)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := scanTable("f.yaml", data)
		if !ok {
			return
		}
		nodes, err := parseTableNodes("f.yaml", data)
		if err != nil {
			t.Fatalf("the fast reader took what the node decoder refuses: %v\n%s", err, data)
		}
		if d := cmp.Diff(nodes, fast, sameTable); d != "" {
			t.Fatalf("fast read (-nodes +fast):\n%s\n%s", d, data)
		}
	})
}

// BenchmarkParseTable reads bench/gate_vs_pytest.sh's table of 10,000 rows
// with the fast reader (ParseTable) and with the node decoder alone.
//
//	go test ./validate -run '^$' -bench ParseTable -benchmem
func BenchmarkParseTable(b *testing.B) {
	data, err := randomTable(rand.New(rand.NewSource(4)), 10000).Marshal()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		parse func(string, []byte) (*Table, error)
	}{{"fast", ParseTable}, {"nodes", parseTableNodes}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := c.parse("bench.yaml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
