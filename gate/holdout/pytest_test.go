package holdout

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/internal/settings"
	"github.com/premise-dev/premise/internal/suitetest"
)

// seed002 is seed 002's worked example: the reservation helper, its
// holdout rows and its two properties. The patch "forgets" the
// idempotent retry.
var seed002 = map[string]string{
	"pytest.ini": "[pytest]\nmarkers =\n    holdout\n    property\n",
	"reserve.py": `from dataclasses import dataclass

@dataclass(frozen=True)
class Stock:
    sku: str
    on_hand: int
    reserved: int

class ReserveError(ValueError):
    pass

def available(stock):
    return stock.on_hand - stock.reserved

def apply_reserve(stock, qty, seen_ids, request_id):
    if qty <= 0:
        raise ReserveError("qty must be positive")
    if qty > available(stock):
        raise ReserveError("insufficient stock")
    seen_ids.add(request_id)
    return Stock(stock.sku, stock.on_hand, stock.reserved + qty)
`,
	"tests/__init__.py":            "",
	"tests/holdout/__init__.py":    "",
	"tests/properties/__init__.py": "",
	"tests/holdout/rows.jsonl": `{"sku":"sku-9","on_hand":4,"reserved":2,"qty":2,"request_id":"h-1","expect":"ok"}
{"sku":"sku-9","on_hand":4,"reserved":2,"qty":3,"request_id":"h-2","expect":"insufficient"}
{"sku":"sku-9","on_hand":9,"reserved":2,"qty":2,"request_id":"h-3","expect":"idempotent"}
`,
	"tests/holdout/test_blind_rows.py": `import json
from pathlib import Path
import pytest
from reserve import Stock, ReserveError, apply_reserve

HOLDOUT = Path(__file__).parent / "rows.jsonl"

def rows():
    with HOLDOUT.open() as f:
        for line in f:
            yield json.loads(line)

@pytest.mark.holdout
@pytest.mark.parametrize("row", list(rows()), ids=lambda r: r["request_id"])
def test_holdout_row(row):
    stock = Stock(row["sku"], row["on_hand"], row["reserved"])
    seen = set()
    if row["expect"] == "ok":
        out = apply_reserve(stock, row["qty"], seen, row["request_id"])
        assert out.reserved == stock.reserved + row["qty"]
        return
    if row["expect"] == "insufficient":
        with pytest.raises(ReserveError):
            apply_reserve(stock, row["qty"], seen, row["request_id"])
        return
    out1 = apply_reserve(stock, row["qty"], seen, row["request_id"])
    out2 = apply_reserve(out1, row["qty"], seen, row["request_id"])
    assert out1 == out2
`,
	"tests/properties/test_reserve_props.py": `import random
import pytest
from reserve import Stock, ReserveError, apply_reserve, available

@pytest.mark.property
def test_same_request_id_is_idempotent(seed=20260907):
    rng = random.Random(seed)
    for i in range(200):
        on_hand = rng.randint(1, 20)
        qty = rng.randint(1, on_hand)
        stock = Stock("sku", on_hand, 0)
        seen = set()
        a = apply_reserve(stock, qty, seen, "same")
        b = apply_reserve(a, qty, seen, "same") if qty <= available(a) else a
        assert a == b
`,
}

// TestClassifyRealPytest: seed 002's example, run by pytest. The patch
// double-counts a retried request: the holdout row and the idempotence
// property fail together, a real regression, reported by its relation
// and never by its row.
func TestClassifyRealPytest(t *testing.T) {
	py := suitetest.Pytest(t)
	dir := t.TempDir()
	write(t, dir, seed002)
	junitFile := filepath.Join(dir, "blind.xml")
	cmd := exec.Command(py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "holdout or property", "--strict-markers", "--junitxml="+junitFile, "tests")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("pytest passed on the broken patch:\n%s", out)
	}
	jr, err := junit.ParseFile(junitFile, junit.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	rep := Classify(ClassifyOptions{Config: ConfigFrom(settings.Holdout{}), Holdout: jr})
	if len(rep.Failures) != 1 {
		t.Fatalf("failures = %+v, want the one relation", rep.Failures)
	}
	f := rep.Failures[0]
	if f.Relation != "tests/holdout/test_blind_rows.py::test_holdout_row" || f.Bucket != RealRegression || f.Rows != 1 {
		t.Errorf("failure %+v, want test_holdout_row as a real regression of one row", f)
	}
	if strings.Contains(f.Relation+f.Signal, "h-3") || strings.Contains(f.Signal, "sku-9") {
		t.Errorf("failure %+v leaks the row", f)
	}
	if got := rep.PropertiesFailing; len(got) != 1 || got[0] != "tests/properties/test_reserve_props.py::test_same_request_id_is_idempotent" {
		t.Errorf("properties failing = %v", got)
	}
}
