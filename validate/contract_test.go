package validate

import (
	"encoding/json"
	"testing"
)

func TestContractEval(t *testing.T) {
	tests := []struct {
		name   string
		expr   string
		result string // JSON, as the runner protocol carries it
		inp    string
		want   bool
		reason string
	}{
		{name: "exact list", expr: "result == [[0, 7]]", result: "[[0,7]]", inp: "[[0,4],[3,7]]", want: true},
		{name: "exact list differs", expr: "result == [[0, 7]]", result: "[[0,4],[3,7]]", inp: "[]", want: false},
		{name: "decoded floats", expr: "result == [[0, 7]]", result: "[[0.0,7.0]]", inp: "[]", want: true,
			reason: "a Python worker may send 7.0 for an int-valued float; integral numbers compare as integers"},
		{name: "all", expr: "result.all(r, r[0] <= r[1])", result: "[[0,2],[2,5]]", inp: "[]", want: true},
		{name: "uses inp", expr: "size(result) <= size(inp)", result: "[[0,9]]", inp: "[[0,9],[2,3]]", want: true},
		{name: "null result", expr: "result == null", result: "null", inp: "null", want: true},
		{name: "empty", expr: "result == []", result: "[]", inp: "[]", want: true},
		{name: "real fraction", expr: "result > 0.5", result: "0.75", inp: "null", want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := CompileContract(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			var res, inp any
			if err := json.Unmarshal([]byte(tc.result), &res); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.inp), &inp); err != nil {
				t.Fatal(err)
			}
			got, err := c.Eval(res, inp, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Eval(%s) = %v, want %v (%s)", tc.result, got, tc.want, tc.reason)
			}
		})
	}
}

func TestCompileContractRejects(t *testing.T) {
	for _, expr := range []string{"result ==", "size(result) + 1", "unknown_var == 1", ""} {
		if _, err := CompileContract(expr); err == nil {
			t.Errorf("CompileContract(%q) = nil error, want one: a typo must fail at load", expr)
		}
	}
}
