package reject

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// canonicalInputs are fixtures whose canonical bytes must be exactly what
// Python's json.dumps(sort_keys=True) writes, the encoding of seed 000's
// Step 1 snippet.
var canonicalInputs = []string{
	`{"tenant":"t-1","email":"not-an-email"}`,
	`{"b":[1,2,{"z":null,"a":true}],"a":{}}`,
	`{"float":1.0,"big":1e22,"small":1e-7,"mid":123456.789,"neg":-0.0,"exp":1E5,"tiny":5e-324}`,
	`{"edge":1e16,"edge2":1e15,"edge3":0.0001,"edge4":0.00001,"pi":3.141592653589793}`,
	`{"int":9007199254740993,"huge":123456789012345678901234567890,"negzero":-0}`,
	`{"s":"caf\u00e9 \u2603 \ud83d\ude00 <&> \u007f \u0000 \t\n\r\b\f \\ \" /"}`,
	`{"é":1,"z":2,"A":3,"😀":4,"ÿ":5}`,
	`[]`,
	`"just a string"`,
	`  {"spaces" : [ ] , "x" : { } }  `,
}

// TestCanonicalMatchesPython runs a real python3 over the same inputs, in
// one process (a pyenv shim costs seconds a start).
func TestCanonicalMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is required: ", err)
	}
	in, err := json.Marshal(canonicalInputs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", `import json, sys
print(json.dumps([json.dumps(json.loads(s), sort_keys=True) + "\n" for s in json.load(sys.stdin)]))`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(canonicalInputs) {
		t.Fatalf("python3 output %q: %v", out, err)
	}
	for i, in := range canonicalInputs {
		got, err := Canonical([]byte(in))
		if err != nil {
			t.Errorf("Canonical(%s): %v", in, err)
			continue
		}
		if string(got) != want[i] {
			t.Errorf("Canonical(%s)\n got %q\nwant %q (python3 json.dumps sort_keys=True)", in, got, want[i])
		}
	}
}

func TestCanonicalRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"repeated key", "{\"a\": 1,\n \"a\": 2}", `line 2: repeated key "a"`},
		{"nested repeated key", `{"a": {"b": 1, "b": 1}}`, `repeated key "b"`},
		{"not json", `{email: x}`, `invalid character 'e'`},
		{"two values", `{} {}`, `data after the JSON value`},
		{"empty", ``, `unexpected end of JSON`},
		{"invalid utf-8", "{\"a\": \"\xff\"}", `invalid UTF-8`},
		{"infinite float", `{"a": 1e400}`, `out of range`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Canonical([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Canonical(%q) error = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

// FuzzCanonical: canonical output is valid JSON, stable under a second
// pass, and means the same value as the input.
func FuzzCanonical(f *testing.F) {
	for _, in := range canonicalInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Canonical(data)
		if err != nil {
			return
		}
		again, err := Canonical(out)
		if err != nil {
			t.Fatalf("canonical output does not re-read: %v\n%q", err, out)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("not idempotent:\n%q\n%q", out, again)
		}
		var a, b any
		if json.Unmarshal(data, &a) != nil || json.Unmarshal(out, &b) != nil {
			t.Fatalf("canonical output is not JSON: %q", out)
		}
	})
}

// TestLoneSurrogateRefused: a fixture holding half a surrogate pair is
// refused, not silently replaced by U+FFFD (the subject would be called with
// another string than the fixture's bytes say); a valid pair and an escaped
// backslash before a u are fine.
func TestLoneSurrogateRefused(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool // refused
	}{
		{`{"s": "\ud800"}`, true},
		{`{"s": "a\udc00b"}`, true},
		{`{"s": "\ud800\u0041"}`, true},
		{`{"s": "\ud83d\ude00"}`, false},
		{`{"s": "\\ud800"}`, false},
		{`{"s": "é\u00e9"}`, false},
	} {
		_, err := Canonical([]byte(tc.in))
		if (err != nil) != tc.want {
			t.Errorf("Canonical(%s) error = %v, want refused=%v", tc.in, err, tc.want)
		}
	}
}
