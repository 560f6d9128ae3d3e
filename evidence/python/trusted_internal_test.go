package python

import (
	"reflect"
	"testing"

	"github.com/premise-dev/premise/evidence/pysource"
)

// TestPatchWrittenExpressionsStayOffTheBase: an input the patch wrote (in
// a test it added or rewrote, or a doctest it added) reaches the base's
// worker only as plain data; an expression it wrote (a call that could
// rewrite the base's module in its copy, a name) is left out, whatever
// the grammar admits. What the merge-base's tests and doctests hold is
// kept as written.
func TestPatchWrittenExpressionsStayOffTheBase(t *testing.T) {
	rewrite := `pathlib.Path("geo.py").write_text("def area(w, h):\n    return 0\n")`
	ins := []pysource.Input{
		{Args: []string{"37", "37"}, Pos: "tests/test_new.py:4"},
		{Args: []string{rewrite, "1"}, Imports: []string{"import pathlib"}, Pos: "tests/test_new.py:8"},
		{Args: []string{"2"}, Kwargs: map[string]string{"h": "decimal.Decimal('1.5')"}, Pos: "tests/test_new.py:9"},
		{Args: []string{"decimal.Decimal('1.5')", "2"}, Pos: "tests/test_geo.py:3"},
		{Args: []string{"3", "4"}, Kind: "doctest", Pos: "geo.py:5"},
		{Args: []string{"iter([5])", "4"}, Kind: "doctest", Pos: "geo.py:6"},
		{Args: []string{"iter([6])", "4"}, Kind: "doctest", Pos: "geo.py:7"},
		{Args: []string{"1"}, Receiver: "Box(2)", ReceiverCall: &pysource.Call{Callee: "Box", Args: []string{"2"}}, Pos: "tests/test_new.py:12"},
		{Args: []string{"1"}, Receiver: "os.system('x')", ReceiverCall: &pysource.Call{Callee: "os.system", Args: []string{"'x'"}}, Pos: "tests/test_new.py:13"},
	}
	patchTests := map[string]bool{}
	for _, i := range []int{0, 1, 2, 7, 8} {
		patchTests[inputKey(ins[i])] = true
	}
	baseDocs := map[string]bool{inputKey(ins[6]): true}
	var kept []string
	for _, in := range trusted(ins, patchTests, "geo.py", "Box", baseDocs) {
		kept = append(kept, in.Pos)
	}
	want := []string{
		"tests/test_new.py:4",  // the patch's test, plain data
		"tests/test_geo.py:3",  // the merge-base's test, an expression as written
		"geo.py:5",             // a doctest the patch added, plain data
		"geo.py:7",             // the merge-base's doctest
		"tests/test_new.py:12", // a receiver of the method's own class, literal arguments
	}
	if !reflect.DeepEqual(kept, want) {
		t.Errorf("kept %v,\nwant %v", kept, want)
	}
}
