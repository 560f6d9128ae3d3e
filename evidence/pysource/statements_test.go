package pysource

import (
	"reflect"
	"testing"
)

// TestStatementsAsTheTracerSeesThem: the units changed-line coverage
// counts: simple statements whole, compound statements by their header
// (a multi-line condition included), no else:/try:/finally: and no
// docstring; a def's header marked.
func TestStatementsAsTheTracerSeesThem(t *testing.T) {
	src := `def f(xs,
      limit=3):
    """Doc."""
    if (len(xs) >
            limit):
        return xs[:limit]
    else:
        pass
    try:
        y = {
            "a": 1,
        }
    except KeyError:
        raise
    finally:
        done()
    for x in xs:
        continue
    return [
        x for x in xs]
`
	f, err := Parse("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Statement{
		{1, 2, true}, {4, 5, false}, {6, 6, false}, {8, 8, false},
		{10, 12, false}, {13, 13, false}, {14, 14, false}, {16, 16, false},
		{17, 17, false}, {18, 18, false}, {19, 20, false},
	}
	if got := f.Statements(); !reflect.DeepEqual(got, want) {
		t.Errorf("Statements:\n got %v\nwant %v", got, want)
	}
}
