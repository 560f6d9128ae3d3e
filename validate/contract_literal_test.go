package validate

import (
	"bytes"
	"encoding/json"
	"testing"
)

// agreeWithCEL fails when the literal fast path and CEL judge result
// differently, or when the fast path takes an expression CEL rejects.
func agreeWithCEL(t *testing.T, expr string, result any) {
	t.Helper()
	lc, ok := parseLiteralContract(expr)
	if !ok {
		return
	}
	c, err := CompileContract(expr)
	if err != nil {
		t.Fatalf("%s: the fast path takes what CEL rejects: %v", expr, err)
	}
	want, werr := c.Eval(result, nil, nil, nil)
	got, _ := lc.Eval(result, nil, nil, nil)
	if werr == nil && got != want {
		t.Errorf("%s on %#v: fast path %v, CEL %v", expr, result, got, want)
	}
}

func TestLiteralContract(t *testing.T) {
	tests := []struct {
		expr   string
		fast   bool
		reason string
	}{
		{"result == [[0, 7]]", true, ""},
		{"  result==[]  ", true, ""},
		{`result == "a b"`, true, ""},
		{"result == null", true, ""},
		{"result == 1.5", true, ""},
		{"result == [] || true", false, "more follows the literal"},
		{"result === []", false, ""},
		{"results == []", false, ""},
		{"size(result) == 2", false, ""},
		{`result == {"a": 1}`, false, "objects are left to CEL"},
		{`result == "a\/b"`, false, "escapes are left to CEL"},
		{"result == 99999999999999999999", false, "CEL has no such int"},
		{"result == inp", false, ""},
	}
	for _, tc := range tests {
		if _, ok := parseLiteralContract(tc.expr); ok != tc.fast {
			t.Errorf("%q: fast path %v, want %v (%s)", tc.expr, ok, tc.fast, tc.reason)
		}
	}
	results := []any{nil, true, "a b", json.Number("1.5"), json.Number("7"), 7.0, []any{}, []any{[]any{json.Number("0"), json.Number("7")}},
		[]any{[]any{0.0, 7.0}}, []any{[]any{0, 7, 1}}, map[string]any{"a": 1}, []any{"x"}}
	for _, tc := range tests {
		for _, r := range results {
			agreeWithCEL(t, tc.expr, r)
		}
	}
}

// FuzzLiteralContract: on any literal and any JSON result, the fast path
// judges as CEL does.
func FuzzLiteralContract(f *testing.F) {
	f.Add("[[0, 7]]", "[[0.0, 7]]")
	f.Add("[1, 2.5]", "[1, 2.5]")
	f.Add(`"x"`, `"x"`)
	f.Add("null", "[]")
	f.Add("9007199254740993", "9007199254740993")
	f.Add("1e3", "1000")
	f.Fuzz(func(t *testing.T, lit, result string) {
		dec := json.NewDecoder(bytes.NewReader([]byte(result)))
		dec.UseNumber()
		var r any
		if dec.Decode(&r) != nil {
			return
		}
		agreeWithCEL(t, "result == "+lit, r)
	})
}
