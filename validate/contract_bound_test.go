package validate

import (
	"strings"
	"testing"
	"time"
)

// TestContractCostIsBounded: a quadratic contract over a large result
// stops at CEL's cost limit with an error, instead of running for as long
// as it likes (one ran 27 s under --timeout 2s).
func TestContractCostIsBounded(t *testing.T) {
	c, err := CompileContract("result.all(x, result.all(y, x + y >= 0))")
	if err != nil {
		t.Fatal(err)
	}
	big := make([]any, 5000)
	for i := range big {
		big[i] = i
	}
	start := time.Now()
	ok, err := c.Eval(big, nil, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "cost") {
		t.Fatalf("Eval = %v, %v; want a cost-limit error", ok, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Eval took %s; the cost limit should stop it at once", d)
	}
	// A small result is judged as before.
	if ok, err := c.Eval([]any{1, 2, 3}, nil, nil, nil); err != nil || !ok {
		t.Errorf("Eval on a small result = %v, %v; want true", ok, err)
	}
}
