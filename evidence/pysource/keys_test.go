package pysource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestReadKeys(t *testing.T) {
	mod := mustParse(t, "attrs.py", `ATTR_FIT = 'fit'
NONE = "none"


def take(values, opts, xs):
    if ATTR_FIT in values and values[ATTR_FIT] == NONE:
        return None
    if (values.get("width")) != 0:
        pass
    if 'debug' not in opts:
        opts.setdefault('level', 3)
    n = xs[0] + xs[-1]
    return values.pop('fit', None), opts[key], n
`)
	got, err := ReadKeys(mod, "take")
	if err != nil {
		t.Fatal(err)
	}
	want := []Key{
		{Name: "values", Key: "'fit'", Compared: []string{`"none"`}},
		{Name: "values", Key: `"width"`, Compared: []string{"0"}},
		{Name: "opts", Key: "'debug'"},
		{Name: "opts", Key: "'level'"},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("ReadKeys(take) (-want +got):\n%s\nreason: module names read as their text, what a value read is compared with kept, "+
			"a number's subscript (a sequence's index) and a name's (opts[key]) left out", diff)
	}
}
