package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignoreRowLine leaves out what a table read from a file carries beside
// its rows: their lines and its compiled contracts.
var ignoreRowLine = cmp.Options{cmpopts.IgnoreFields(Row{}, "SrcLine"), cmpopts.IgnoreUnexported(Table{})}

func TestLoadTableSeedShape(t *testing.T) {
	tb, err := LoadTable("testdata/seed004_partitions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tb.Rows); got != 9 {
		t.Fatalf("%d rows, want seed 004's nine", got)
	}
	p4 := tb.Lookup("P004")
	want := Row{ID: "P004", Cls: "disjoint_unsorted", Kind: KindBoundary,
		Inp: []any{[]any{4, 6}, []any{0, 1}}, HasInp: true,
		Relation: "order of input must not change cover", AssumptionIDs: []string{"A001"}}
	if d := cmp.Diff(want, *p4, ignoreRowLine); d != "" {
		t.Errorf("P004 (-want +got):\n%s", d)
	}
	p8 := tb.Lookup("P008")
	if !p8.HasInp || p8.Inp != nil {
		t.Errorf("P008 HasInp=%v Inp=%v; want inp stated as null: seed 004 passes None, not nothing", p8.HasInp, p8.Inp)
	}
	args, _ := p8.CallArgs()
	if d := cmp.Diff([]any{nil}, args); d != "" {
		t.Errorf("P008 call args (-want +got):\n%s", d)
	}
	p1 := tb.Lookup("P001")
	if d := cmp.Diff([]any{}, p1.Inp); d != "" {
		t.Errorf("P001 inp: [] must load as an empty list, not null (-want +got):\n%s", d)
	}
}

func TestTableRoundTrip(t *testing.T) {
	src := `version: 1
target: intervals.merge_ranges
language: python
rows:
  - id: P001
    cls: empty
    kind: boundary
    inp: []
    relation: empty input yields empty output
    assumption_ids: [A001]
    contract: result == []
  - id: P008
    cls: invalid_none
    kind: invalid
    inp: null
    relation: None is rejected, not coerced to []
    assumption_ids: [A003]
    raises: TypeError
  - id: P010
    cls: mixed
    kind: boundary
    relation: keyword and float arguments survive
    assumption_ids: [A001, A002]
    args: [[1.0, 2.5], "<&", 9007199254740993, 123456789012345678901234567890]
    kwargs: {tz: null, "yes": "no", nested: {a: [1, {b: 2}]}}
    metamorphic: [permutation, idempotent]
    same_as_base: true
  - id: P011
    cls: todo
    kind: boundary
    relation: a template could not build this one
    assumption_ids: [A002]
    todo: no boundary value for type Foo
`
	tb, err := ParseTable("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := tb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseTable("out.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d := cmp.Diff(tb, back, ignoreRowLine); d != "" {
		t.Errorf("round trip (-want +got):\n%s\n%s", d, out)
	}
	if got := back.Lookup("P010").Args[2]; got != 9007199254740993 {
		t.Errorf("2^53+1 read as %#v, want the exact integer kept", got)
	}
	if got := back.Lookup("P010").Args[3]; got != json.Number("123456789012345678901234567890") {
		t.Errorf("an integer beyond 64 bits read as %#v, want its exact digits kept", got)
	}
	again, _ := back.Marshal()
	if string(again) != string(out) {
		t.Errorf("second Marshal differs\n%s\n---\n%s", out, again)
	}
}

func TestParseTableProblems(t *testing.T) {
	head := "version: 1\ntarget: m.f\nrows:\n"
	tests := []struct {
		name   string
		rows   string
		want   []string
		reason string
	}{
		{name: "bad id", rows: "- {id: P1, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:4: P1: id "P1" must be P and three or more digits, like P001`}},
		{name: "duplicate id", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001]}\n- {id: P001, cls: c, kind: boundary, inp: 2, relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:5: P001: id given twice (first at line 4)`}},
		{name: "kind enum", rows: "- {id: P001, cls: c, kind: edge, inp: 1, relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:4: P001: kind "edge" must be representative, boundary, invalid or property`}},
		{name: "short relation", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: short, assumption_ids: [A001]}\n",
			want:   []string{`t.yaml:4: P001: relation "short" is shorter than 8 characters; say what must hold`},
			reason: "seed 004, Step 4: relation minLength 8"},
		{name: "no assumption", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: []}\n",
			want:   []string{`t.yaml:4: P001: assumption_ids must name at least one assumption: an untethered row is how the happy path sneaks back`},
			reason: "seed 004, Step 4: refuse a row that names no assumption"},
		{name: "bad assumption id", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [B001]}\n",
			want: []string{`t.yaml:4: P001: assumption id "B001" must be A (an assumption) or C (a change) and three or more digits, like A001 or C001`}},
		{name: "contract typo", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001], contract: 'reslt == 1'}\n",
			want:   []string{`t.yaml:4: P001: contract "reslt == 1": ERROR: <input>:1:1: undeclared reference to 'reslt' (did you mean 'result'?) | reslt == 1 | ^`},
			reason: "a contract compiles when the table loads, before anything runs"},
		{name: "same_as_base and contract", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001], contract: result == 1, same_as_base: true}\n",
			want: []string{`t.yaml:4: P001: same_as_base and contract are exclusive: the base revision is the contract`}},
		{name: "raises on a boundary row", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001], raises: ValueError}\n",
			want: []string{`t.yaml:4: P001: raises is for invalid rows; this row is boundary`}},
		{name: "metamorphic enum", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001], metamorphic: [commutative]}\n",
			want: []string{`t.yaml:4: P001: metamorphic relation "commutative" must be permutation or idempotent`}},
		{name: "unknown field", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [A001], expected: 1}\n",
			want:   []string{`t.yaml:4: P001: unknown field "expected" (known fields: id, cls, kind, inp, relation, assumption_ids, target, args, kwargs, contract, raises, metamorphic, same_as_base, todo, property, expect, decision, test)`},
			reason: "seed 004: additionalProperties false"},
		{name: "test row without expect", rows: "- {id: P001, cls: c, kind: boundary, relation: relation!, assumption_ids: [C001], test: 'm_test.go: TestM'}\n",
			want: []string{`t.yaml:4: P001: a test row needs expect (outcome: passed or failed)`}},
		{name: "test row returning", rows: "- {id: P001, cls: c, kind: boundary, relation: relation!, assumption_ids: [C001], test: 'm_test.go: TestM', expect: {outcome: returned}}\n",
			want: []string{`t.yaml:4: P001: expect: a test row's outcome "returned" must be passed or failed`}},
		{name: "test row with args", rows: "- {id: P001, cls: c, kind: boundary, relation: relation!, assumption_ids: [C001], test: 'm_test.go: TestM', expect: {outcome: passed}, args: [1]}\n",
			want:   []string{`t.yaml:4: P001: a test row runs the test: it takes no inp, args, kwargs, contract, same_as_base, raises or metamorphic`},
			reason: "a test row calls nothing: arguments would mean nothing"},
		{name: "a call row passing", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [C001], expect: {outcome: passed}}\n",
			want: []string{`t.yaml:4: P001: expect: outcome "passed" must be returned, raised, unencodable, crashed or timeout`}},
		{name: "a varying raise", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, relation: relation!, assumption_ids: [C001], expect: {outcome: raised, class: ValueError, varies: true}}\n",
			want:   []string{`t.yaml:4: P001: expect: varies says a returned value is not pinned; it takes outcome returned and no value`},
			reason: "varies leaves a returned value open; a raise has no value to leave"},
		{name: "no input", rows: "- {id: P001, cls: c, kind: boundary, relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:4: P001: missing inp (or args/kwargs for several parameters); write inp: null to pass None`}},
		{name: "inp and args", rows: "- {id: P001, cls: c, kind: boundary, inp: 1, args: [1], relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:4: P001: give either inp (the one argument) or args/kwargs, not both`}},
		{name: "nan input", rows: "- {id: P001, cls: c, kind: boundary, inp: .nan, relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:4: P001.inp: .nan is not a number JSON can carry`}},
		{name: "non-text key", rows: "- {id: P001, cls: c, kind: boundary, inp: {1: a}, relation: relation!, assumption_ids: [A001]}\n",
			want: []string{`t.yaml:4: P001.inp: keys must be text (JSON objects have text keys), got 1`}},
		{
			name: "every problem of every row",
			rows: `- id: P001
  cls: ""
  kind: boundary
  inp: 1
  relation: tiny
  assumption_ids: [A001]
- id: P002
  cls: c
  kind: representative
  inp: 1
  relation: relation!
  assumption_ids: [A001, A001]
  same_as_base: yes
`,
			want: []string{
				`t.yaml:5: P001: missing cls, the equivalence class (empty, touching, invalid_none, ...)`,
				`t.yaml:8: P001: relation "tiny" is shorter than 8 characters; say what must hold`,
				`t.yaml:15: P002: assumption id A001 listed twice`,
				`t.yaml:16: P002.same_as_base: want true or false, got "yes"`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTable("t.yaml", []byte(head+tc.rows))
			if d := cmp.Diff(tc.want, problemStrings(t, err)); d != "" {
				t.Errorf("problems (-want +got):\n%s\n%s", d, tc.reason)
			}
		})
	}
}

func TestParseTableTopLevel(t *testing.T) {
	_, err := ParseTable("t.yaml", []byte("version: 2\nlanguage: cobol\nrows: []\nowner: me\n"))
	want := []string{
		`t.yaml:1: table: version 2 is not supported (want 1)`,
		`t.yaml:2: table: language "cobol" must be python, go, javascript, typescript or exec`,
		`t.yaml:4: table: unknown field "owner" (known fields: version, target, language, rows)`,
	}
	if d := cmp.Diff(want, problemStrings(t, err)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func FuzzParseTable(f *testing.F) {
	for _, name := range []string{"seed004_partitions.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("version: 1\ntarget: m.f\nrows:\n- {id: P001, cls: c, kind: invalid, args: [1.5, 'x'], kwargs: {a: null}, relation: relation!, assumption_ids: [A001], raises: E}\n"))
	f.Add([]byte("version: 1\ntarget: m.f\nrows:\n- {id: P001, cls: c, kind: boundary, inp: null, relation: relation!, assumption_ids: [A001], contract: 'result.all(r, r[0] <= r[1])'}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := ParseTable("f.yaml", data)
		if err != nil {
			if le, ok := err.(*LoadError); !ok || len(le.Problems) == 0 {
				t.Fatalf("error %v is not a *LoadError with problems", err)
			}
			return
		}
		out, err := tb.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseTable("out.yaml", out)
		if err != nil {
			t.Fatalf("Marshal wrote what Parse refuses: %v\n%s", err, out)
		}
		if d := cmp.Diff(tb, back, ignoreRowLine); d != "" {
			t.Fatalf("round trip (-want +got):\n%s\n%s", d, out)
		}
		for _, r := range tb.Rows {
			if r.Hash() != back.Lookup(r.ID).Hash() {
				t.Fatalf("%s: hash changed across a round trip", r.ID)
			}
		}
	})
}
