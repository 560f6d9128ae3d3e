package validate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestDecideKeepsTheRestOfTheFile(t *testing.T) {
	seed, err := os.ReadFile("testdata/seed004_assumptions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		in     string
		ds     []Decision
		want   string // the input with these replacements, old => new, applied in order
		reason string
	}{
		{
			name: "accept keeps the comment on the status line",
			in:   string(seed),
			ds:   []Decision{{ID: "A001", Status: StatusAccepted}},
			want: strings.Replace(string(seed), "status: proposed   # proposed", "status: accepted   # proposed", 1),
		},
		{
			name: "reject adds the note under the status",
			in:   string(seed),
			ds:   []Decision{{ID: "A003", Status: StatusRejected, Note: "no datetimes here: ranges are ints"}},
			want: strings.TrimSuffix(string(seed), "    status: proposed\n") +
				"    status: rejected\n    note: 'no datetimes here: ranges are ints'\n",
		},
		{
			name: "several at once, a quoted status and an existing note",
			in:   "version: 1\nitems:\n  - id: A001\n    symbol: s\n    precondition: p\n    evidence: e\n    status: \"proposed\"\n    note: old # why\n    source: static:no-sort\n  - id: A002\n    symbol: s\n    precondition: p\n    evidence: e\n    status: 'proposed'\n",
			ds:   []Decision{{ID: "A001", Status: StatusRejected, Note: "new note"}, {ID: "A002", Status: StatusAccepted}},
			want: "version: 1\nitems:\n  - id: A001\n    symbol: s\n    precondition: p\n    evidence: e\n    status: rejected\n    note: new note # why\n    source: static:no-sort\n  - id: A002\n    symbol: s\n    precondition: p\n    evidence: e\n    status: accepted\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decide("a.yaml", []byte(tc.in), tc.ds)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, string(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestDecideFlowStyleFallsBack(t *testing.T) {
	in := "# keep me\nversion: 1\nitems:\n  - {id: A001, symbol: s, precondition: p, evidence: e, status: proposed}\n"
	got, err := Decide("a.yaml", []byte(in), []Decision{{ID: "A001", Status: StatusRejected, Note: "line one\nline two"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRegister("a.yaml", got)
	if err != nil {
		t.Fatal(err)
	}
	if it := r.Items[0]; it.Status != StatusRejected || it.Note != "line one\nline two" {
		t.Errorf("item = %+v, want rejected with the two-line note", it)
	}
	if !strings.Contains(string(got), "# keep me") {
		t.Errorf("the comment was lost:\n%s", got)
	}
}

func TestDecideUnknownID(t *testing.T) {
	seed, _ := os.ReadFile("testdata/seed004_assumptions.yaml")
	_, err := Decide("a.yaml", seed, []Decision{{ID: "A001", Status: StatusAccepted}, {ID: "A009", Status: StatusAccepted}})
	var ue *UnknownIDError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *UnknownIDError", err)
	}
	if d := cmp.Diff([]string{"A009"}, ue.IDs); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestDecideFileAtomic(t *testing.T) {
	seed, _ := os.ReadFile("testdata/seed004_assumptions.yaml")
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	if err := os.WriteFile(path, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := DecideFile(path, []Decision{{ID: "A002", Status: StatusAccepted, Note: "ok"}}); err != nil {
		t.Fatal(err)
	}
	r, err := LoadRegister(path)
	if err != nil {
		t.Fatal(err)
	}
	if it := r.Lookup("A002"); it.Status != StatusAccepted || it.Note != "ok" {
		t.Errorf("A002 = %+v", it)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600 kept", fi.Mode().Perm())
	}
	// A decision on an unknown id leaves the file as it was.
	before, _ := os.ReadFile(path)
	if err := DecideFile(path, []Decision{{ID: "A404", Status: StatusRejected, Note: "x"}}); err == nil {
		t.Fatal("want an error for A404")
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("a failed decision changed the file")
	}
}

// FuzzDecide: on any register that loads, a decision changes that item's
// status and note and nothing else.
func FuzzDecide(f *testing.F) {
	for _, name := range []string{"seed004_assumptions.yaml", "premise_assumptions.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "a note: with 'quotes'")
	}
	f.Add([]byte("version: 1\nitems:\n- {id: A001, symbol: s, precondition: p, evidence: e, status: proposed}\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, note string) {
		before, err := ParseRegister("a.yaml", data)
		if err != nil || len(before.Items) == 0 {
			return
		}
		id := before.Items[len(before.Items)-1].ID
		d := Decision{ID: id, Status: StatusRejected, Note: note}
		out, err := Decide("a.yaml", data, []Decision{d})
		if err != nil {
			// Only a note YAML cannot hold (invalid UTF-8, control
			// characters) may be refused, with the file untouched.
			if utf8.ValidString(note) && !strings.ContainsFunc(note, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f || r == 0xfeff || r >= 0xfff0 }) {
				t.Fatalf("Decide refused a plain note %q: %v", note, err)
			}
			return
		}
		after, err := ParseRegister("a.yaml", out)
		if err != nil {
			t.Fatalf("the decided register does not load: %v\n%s", err, out)
		}
		want := *before
		want.Items = append([]Item(nil), before.Items...)
		last := &want.Items[len(want.Items)-1]
		last.Status = StatusRejected
		if note != "" {
			last.Note = note
		}
		if d := cmp.Diff(&want, after, ignoreSrcLine); d != "" {
			t.Fatalf("(-want +got):\n%s\n%s", d, out)
		}
	})
}
