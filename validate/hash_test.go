package validate

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The row hash must agree with what a Python tool computes (seed 004's
// row_hash, canonicalised): for integers and text, json.dumps with sorted
// keys, compact separators and ensure_ascii=False gives the JCS bytes.
func TestRowHashAgreesWithPython(t *testing.T) {
	rows := []Row{
		{ID: "P004", Inp: []any{[]any{4, 6}, []any{0, 1}}, HasInp: true},
		{ID: "P008", Inp: nil, HasInp: true},
		{ID: "P001", Inp: []any{}, HasInp: true},
		{ID: "P010", Inp: map[string]any{"b": "<&>", "a": "naïve ☃", "c": []any{-1, 0, true, false, nil}}, HasInp: true},
		{ID: "P011", Inp: "tab\tnewline\nquote\"back\\slash\x01", HasInp: true},
		{ID: "P012", Args: []any{[]any{1, 2}, "x"}, Kwargs: map[string]any{"tz": nil, "k": 3}},
		{ID: "P013", Args: []any{}},
	}
	py := `import hashlib, json, sys
for line in sys.stdin:
    row = json.loads(line)
    blob = json.dumps({"id": row["id"], "inp": row["inp"]}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    print(hashlib.sha256(blob.encode()).hexdigest()[:16])
`
	var in strings.Builder
	var want []string
	for _, r := range rows {
		b, err := json.Marshal(map[string]any{"id": r.ID, "inp": r.hashInput()})
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
		in.WriteString("\n")
		want = append(want, r.Hash())
	}
	cmd := exec.Command("python3", "-c", py)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	got := strings.Fields(string(out))
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("premise's hashes vs Python's (-premise +python):\n%s", d)
	}
}

// Where Python's json.dumps and RFC 8785 part ways, the hash follows RFC
// 8785: numbers are IEEE doubles printed as ECMAScript does, and text is not
// HTML-escaped as Go's encoding/json would.
func TestRowHashFollowsJCS(t *testing.T) {
	tests := []struct {
		name   string
		inp    any
		canon  string
		reason string
	}{
		{name: "float one", inp: 1.0, canon: `{"id":"P001","inp":1}`, reason: "JCS prints 1.0 as 1 (Python prints 1.0)"},
		{name: "2^53+1", inp: json.Number("9007199254740993"), canon: `{"id":"P001","inp":9007199254740992}`,
			reason: "JCS numbers are doubles: 2^53+1 rounds to 2^53 (Python keeps 9007199254740993)"},
		{name: "html characters", inp: "<&>", canon: `{"id":"P001","inp":"<&>"}`, reason: "Go's encoder would write \\u003c; JCS writes the characters"},
		{name: "fraction", inp: 0.5, canon: `{"id":"P001","inp":0.5}`},
		{name: "exponent", inp: 1e21, canon: `{"id":"P001","inp":1e+21}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CanonicalJSON(map[string]any{"id": "P001", "inp": tc.inp})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.canon {
				t.Errorf("canonical JSON = %s, want %s (%s)", got, tc.canon, tc.reason)
			}
		})
	}
	one := Row{ID: "P001", Inp: 1, HasInp: true}.Hash()
	oneFloat := Row{ID: "P001", Inp: 1.0, HasInp: true}.Hash()
	if one != oneFloat {
		t.Errorf("hash of 1 = %s, of 1.0 = %s; JCS makes them equal", one, oneFloat)
	}
	big := Row{ID: "P001", Inp: json.Number("9007199254740993"), HasInp: true}.Hash()
	big0 := Row{ID: "P001", Inp: 9007199254740992, HasInp: true}.Hash()
	if big != big0 {
		t.Errorf("hash of 2^53+1 = %s, of 2^53 = %s; JCS makes them equal", big, big0)
	}
}

func TestRowHashStates(t *testing.T) {
	none := Row{ID: "P008", HasInp: true}.Hash()
	empty := Row{ID: "P008", Inp: []any{}, HasInp: true}.Hash()
	other := Row{ID: "P009", HasInp: true}.Hash()
	if none == empty || none == other {
		t.Errorf("None, [] and another id must hash apart: %s %s %s", none, empty, other)
	}
	if h := none; len(h) != 16 {
		t.Errorf("hash %q is not 16 hex digits", h)
	}
	// seed 004's example freeze key shape: 16 lowercase hex digits.
	if h := (Row{ID: "P001", Inp: 0.0 / zero()}).Hash(); len(h) != 16 {
		t.Errorf("a NaN row hashes to %q, want a 16-digit fallback, not a panic", h)
	}
}

func zero() float64 { return 0 }
