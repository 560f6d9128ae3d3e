package pysource

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const textwrap = `import warnings
import logging

MAX_WIDTH = 120
log = logging.getLogger(__name__)

def wrap(text, width=70, placeholder=' [...]'):
    """Wrap text to width.

    >>> wrap('a b', 1)
    """
    if width <= 0:
        raise ValueError(f"invalid width {width!r} (must be > 0)")
    if len(text) > 3 and 0 < width < MAX_WIDTH:
        pass
    if width > 1_000:
        warnings.warn("very wide")
        log.debug("width %d", width)
    msg = 'placeholder too large for max width'
    if len(placeholder) >= width:
        raise ValueError(msg)
    assert width != -1, "width must not be -1"
    sep = "\n"
    return sep.join(chunks(text, width - 1, f"{placeholder}"))

def bits(n):
    log.log(20, "bits of %d", n)
    return math.log(n, 2)
`

func TestConstants(t *testing.T) {
	mod := mustParse(t, "textwrap.py", textwrap)
	got, err := Constants(mod, "wrap")
	if err != nil {
		t.Fatal(err)
	}
	want := []Constant{
		{Value: "0", Kind: KindInt, Line: 12, Op: "<=", Operand: "width"},
		{Value: "3", Kind: KindInt, Line: 14, Op: ">", Operand: "len(text)"},
		{Value: "0", Kind: KindInt, Line: 14, Op: ">", Operand: "width"},
		{Value: "120", Kind: KindInt, Line: 14, Op: "<", Operand: "width"},
		{Value: "1_000", Kind: KindInt, Line: 16, Op: ">", Operand: "width"},
		{Value: "-1", Kind: KindInt, Line: 22, Op: "!=", Operand: "width"},
		{Value: `"\n"`, Kind: KindStr, Line: 23},
		{Value: "1", Kind: KindInt, Line: 24},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Constants(wrap) (-want +got):\n%s\nreason: %s", diff,
			"the docstring, the raise and assert messages, warnings and logging arguments, msg (raised) and the f-string are skipped; "+
				"0 < width < MAX_WIDTH is read as two comparisons of width, and MAX_WIDTH as its value")
	}
	got, err = Constants(mod, "bits")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Constant{{Value: "2", Kind: KindInt, Line: 28}}, got); diff != "" {
		t.Errorf("Constants(bits) (-want +got):\n%s\nreason: log.log's arguments are a message, math.log's are values", diff)
	}
	if _, err := Constants(mod, "nope"); !errors.Is(err, ErrNoFunction) {
		t.Errorf("Constants(nope) = %v, want ErrNoFunction", err)
	}
}

// TestConstantsOfModuleData: a function that reads a compiled pattern or a
// table defined at module level takes their literals too, after its own:
// a validator's boundary is in its pattern, not in its body.
func TestConstantsOfModuleData(t *testing.T) {
	mod := mustParse(t, "names.py", `import re

_normalized = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")
SUFFIXES = (".tar.gz", ".zip")

def is_normalized(name):
    return _normalized.match(name) is not None and not name.endswith(SUFFIXES) and name != "x"
`)
	got, err := Constants(mod, "is_normalized")
	if err != nil {
		t.Fatal(err)
	}
	want := []Constant{
		{Value: `"x"`, Kind: KindStr, Line: 7, Op: "!=", Operand: "name"},
		{Value: `r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$"`, Kind: KindStr, Line: 3},
		{Value: `".tar.gz"`, Kind: KindStr, Line: 4},
		{Value: `".zip"`, Kind: KindStr, Line: 4},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Constants(is_normalized) (-want +got):\n%s", diff)
	}
}

// TestConstantsFoldArithmetic: a boundary written as arithmetic of
// literals is the value it computes, beside its parts: a sentinel as
// -(7 * 1111), a day as 24 * 60 * 60, a module's mask as (1 << 20) - 1,
// Python's floor division and power. What is not all literals stays its
// parts.
func TestConstantsFoldArithmetic(t *testing.T) {
	mod := mustParse(t, "m.py", "MASK = (1 << 20) - 1\n\n\n"+
		"def f(n, t, width):\n"+
		"    if n == -(7 * 1111):\n"+
		"        return n\n"+
		"    if t > 24 * 60 * 60:\n"+
		"        return 0\n"+
		"    if n & MASK == -7 // 2 + 2 ** 10 % -5:\n"+
		"        return 1\n"+
		"    return width * 3 + 2 ** 999999\n")
	got, err := Constants(mod, "f")
	if err != nil {
		t.Fatal(err)
	}
	var compared, alone []string
	for _, k := range got {
		if k.Op != "" {
			compared = append(compared, k.Operand+" "+k.Op+" "+k.Value)
		} else {
			alone = append(alone, k.Value)
		}
	}
	want := []string{"n == -7777", "t > 86400", "n & MASK == -5"}
	if diff := cmp.Diff(want, compared); diff != "" {
		t.Errorf("comparisons (-want +got):\n%s\nreason: -(7 * 1111) is -7777, 24 * 60 * 60 is 86400, -7 // 2 is -4 and 2 ** 10 %% -5 is -1 as Python computes them", diff)
	}
	for _, w := range []string{"3", "2", "999999"} {
		if !slices.Contains(alone, w) {
			t.Errorf("literals %v: want %s, a part of an expression that is not all literals", alone, w)
		}
	}
	for _, a := range alone {
		if len(a) > 80 {
			t.Errorf("literal %.40s...: a power past %d bits is no boundary", a, maxFoldBits)
		}
	}
}
