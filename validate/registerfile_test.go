package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/premise-dev/premise/schemas"
)

var ignoreSrcLine = cmpopts.IgnoreFields(Item{}, "SrcLine")

func TestLoadRegisterSeedShape(t *testing.T) {
	r, err := LoadRegister("testdata/seed004_assumptions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := &Register{Version: 1, PatchRef: "origin/main...HEAD", Items: []Item{
		{ID: "A001", Symbol: "intervals.merge_ranges", Precondition: "ranges arrive already sorted by start",
			Evidence: "loop uses prev_end without an initial sort", Status: StatusProposed, SrcLine: 5},
		{ID: "A002", Symbol: "intervals.merge_ranges", Precondition: "ranges are half-open [start, end) and end >= start",
			Evidence: "overlap test is start < prev_end only", Status: StatusProposed, SrcLine: 10},
		{ID: "A003", Symbol: "intervals.merge_ranges", Precondition: "all ranges share one timezone-naive epoch",
			Evidence: "subtracts datetimes directly", Status: StatusProposed, SrcLine: 15},
	}}
	if d := cmp.Diff(want, r); d != "" {
		t.Errorf("seed 004's register, as written in the seed (-want +got):\n%s", d)
	}
}

// A register survives Marshal and Parse unchanged: notes, provenance,
// stale marks, multi-line text.
func TestRegisterRoundTrip(t *testing.T) {
	for _, name := range []string{"seed004_assumptions.yaml", "premise_assumptions.yaml"} {
		t.Run(name, func(t *testing.T) {
			r, err := LoadRegister(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			out, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseRegister("out.yaml", out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if d := cmp.Diff(r, back, ignoreSrcLine); d != "" {
				t.Errorf("round trip lost something (-want +got):\n%s\n%s", d, out)
			}
			again, err := back.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(out) {
				t.Errorf("second Marshal differs: key order or quoting is not stable\n%s\n---\n%s", out, again)
			}
		})
	}
}

func TestRegisterMarshalReadable(t *testing.T) {
	r := &Register{Version: 1, PatchRef: "main...HEAD", Items: []Item{{
		ID: "A001", Symbol: "intervals.merge_ranges", Precondition: "ranges arrive sorted",
		Evidence: "for start, end in ranges:", Status: StatusAccepted, Note: "yes", Line: 7, File: "a.py",
	}}}
	out, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	// The first line names the schema, so an editor checks the file.
	want := "# yaml-language-server: $schema=" + schemas.URL("assumptions") + `
version: 1
patch_ref: main...HEAD
items:
  - id: A001
    symbol: intervals.merge_ranges
    precondition: ranges arrive sorted
    evidence: 'for start, end in ranges:'
    status: accepted
    note: yes
    file: a.py
    line: 7
`
	if d := cmp.Diff(want, string(out)); d != "" {
		t.Errorf("Marshal (-want +got):\n%s", d)
	}
}

// TestRegisterWithABrokenCharacterIsWritten: a change item's witness
// holding a byte that is no UTF-8 character (half of one, from a Go
// string) made the register unwritable, and premise run exit 3 with
// every decision unsaved. The byte is written as U+FFFD, as JSON carried
// it to the worker, and the register reads back.
func TestRegisterWithABrokenCharacterIsWritten(t *testing.T) {
	r := &Register{Version: 1, Items: []Item{{
		ID: "A001", Symbol: "logfmt.Decoder.ScanKeyval", Precondition: "a key of \xbd decodes",
		Evidence: "ScanKeyval(\"\xbd=1\")", Status: StatusProposed,
	}}}
	out, err := r.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := ParseRegister("assumptions.yaml", out)
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, out)
	}
	if got := back.Items[0].Evidence; got != "ScanKeyval(\"\ufffd=1\")" {
		t.Errorf("evidence read back as %q", got)
	}
}

func TestSaveRegisterAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "assumptions.yaml")
	r := &Register{Version: 1, Items: []Item{}}
	if err := SaveRegister(path, r); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRegister(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries, want only the register (no temp files left)", len(ents))
	}
}

func TestParseRegisterProblems(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // each problem, as printed
	}{
		{
			name: "every problem, with its line",
			in: `version: 1
patch_ref: x
items:
  - id: A1
    symbol: s
    precondition: p
    evidence: e
    status: maybe
    colour: red
  - id: A002
    symbol: ""
    precondition: p
    evidence: e
`,
			want: []string{
				`f.yaml:4: A1: id "A1" must be A (an assumption) or C (a change) and three or more digits, like A001 or C001`,
				`f.yaml:8: A1: status "maybe" must be proposed, accepted or rejected`,
				`f.yaml:9: A1: unknown field "colour" (known fields: id, symbol, precondition, evidence, status, note, source, file, line, stale, way, callers, assumptions, witnesses)`,
				`f.yaml:10: A002: missing status (proposed, accepted or rejected)`,
				`f.yaml:11: A002: missing symbol`,
			},
		},
		{
			name: "duplicate ids",
			in:   "version: 1\nitems:\n- {id: A001, symbol: s, precondition: p, evidence: e, status: accepted}\n- {id: A001, symbol: s, precondition: p, evidence: e, status: accepted}\n",
			want: []string{`f.yaml:4: A001: id given twice (first at line 3)`},
		},
		{
			name: "unknown top-level field and no version",
			in:   "patch: x\nitems: []\n",
			want: []string{
				`f.yaml:1: register: unknown field "patch" (known fields: version, patch_ref, provenance, items)`,
				`f.yaml:1: register: missing field "version" (write version: 1)`,
			},
		},
		{
			name: "unknown provenance field",
			in:   "version: 1\nprovenance: {model: m, temperature: 0}\nitems: []\n",
			want: []string{`f.yaml:2: register.provenance: unknown field "temperature" (known fields: base, head, merge_base, model, prompt, prompt_sha256)`},
		},
		{
			name: "not yaml",
			in:   "version: 1\nitems: [\n",
			want: []string{`f.yaml:2: not valid YAML: did not find expected node content`},
		},
		{name: "empty", in: "", want: []string{"f.yaml: the file is empty"}},
		{
			name: "wrong types",
			in:   "version: one\nitems: {a: 1}\n",
			want: []string{
				`f.yaml:1: register.version: want a whole number, got "one"`,
				`f.yaml:1: register: version 0 is not supported (want 1)`,
				`f.yaml:2: register: items: want a list, got a mapping`,
			},
		},
		{
			name: "alias",
			in:   "version: 1\nitems:\n- &x {id: A001, symbol: s, precondition: p, evidence: e, status: accepted}\n- *x\n",
			want: []string{`f.yaml:4: YAML aliases (*x) are not supported; write the value out`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRegister("f.yaml", []byte(tc.in))
			if d := cmp.Diff(tc.want, problemStrings(t, err)); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
		})
	}
}

func problemStrings(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	le, ok := err.(*LoadError)
	if !ok {
		t.Fatalf("error %v is %T, want *LoadError", err, err)
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	if len(out) > 1 && !strings.Contains(le.Error(), "problems") {
		t.Errorf("Error() = %q does not count the problems", le.Error())
	}
	return out
}

func FuzzParseRegister(f *testing.F) {
	for _, name := range []string{"seed004_assumptions.yaml", "premise_assumptions.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("version: 1\nitems: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRegister("f.yaml", data)
		if err != nil {
			if le, ok := err.(*LoadError); !ok || len(le.Problems) == 0 {
				t.Fatalf("error %v is not a *LoadError with problems", err)
			}
			return
		}
		// Whatever loads must write and load back the same.
		out, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseRegister("out.yaml", out)
		if err != nil {
			t.Fatalf("Marshal wrote what Parse refuses: %v\n%s", err, out)
		}
		if d := cmp.Diff(r, back, ignoreSrcLine); d != "" {
			t.Fatalf("round trip (-want +got):\n%s", d)
		}
	})
}
