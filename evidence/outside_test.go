package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// TestOutsideTypeIsListedApart: a difference seen only where an argument
// is of a kind the code cannot take (a list where the body calls the
// parameter) is listed apart with its reason, not filed as a change; a
// difference on well-typed inputs of the same patch still is.
func TestOutsideTypeIsListedApart(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"m.py": `def apply(fn, xs):
    return [fn(x) for x in xs]


def total(xs: list) -> int:
    return sum(xs)
`,
		// The test makes the call without asserting its refusal: a base's
		// test that asserts it and fails on the head is a change
		// (basetests.go), whatever the argument's type.
		"tests/test_m.py": `import m


def test_apply_a_list():
    try:
        m.apply([1], [2])
    except TypeError:
        pass
`,
	}
	head := map[string]string{"m.py": `def apply(fn, xs):
    if not callable(fn):
        return list(xs)
    return [fn(x) for x in xs]


def total(xs: list) -> int:
    return sum(xs) + (1 if len(xs) > 2 else 0)
`}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.apply" {
			t.Errorf("m.apply: a change filed on an input outside fn's type: %+v", c)
		}
	}
	apart := 0
	for _, c := range rep.OutsideType {
		if c.Symbol == "m.apply" {
			apart++
			if !strings.Contains(c.OutsideType, "`fn` is called") {
				t.Errorf("m.apply listed apart with reason %q, want it to say fn is called", c.OutsideType)
			}
		}
	}
	if apart == 0 {
		t.Errorf("m.apply: the difference on apply([1], [2]) is not listed apart: outside %+v", rep.OutsideType)
	}
	total := 0
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.total" {
			total++
		}
	}
	if total == 0 {
		t.Errorf("m.total changed on well-typed lists, yet no change was filed (outside: %+v)", rep.OutsideType)
	}
}

// TestOutsideTypeIsTheBasesReading: a patch that annotates a parameter
// anew cannot set the inputs that reveal its change apart: what is outside
// a type is read at the merge-base.
func TestOutsideTypeIsTheBasesReading(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"m.py":            "def tag(v):\n    return str(v)\n",
		"tests/test_m.py": "import m\n\n\ndef test_tag():\n    assert m.tag([1, 2]) == '[1, 2]'\n",
	}
	head := map[string]string{"m.py": "def tag(v: int) -> str:\n    return str(v) if isinstance(v, int) else ''\n"}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.tag" && strings.Contains(c.Input, "[1, 2]") {
			return
		}
	}
	t.Errorf("m.tag([1, 2]) changed, yet it was not filed as a change: outside %+v", rep.OutsideType)
}

// TestAKeyIsNoInputOutsideTheType: a parameter the body only subscripts
// with (table[unit]) is an index of a sequence as often as a key of a
// mapping: a string there is no input outside its type, and a head that
// answers another value for the key "k" changed behaviour.
func TestAKeyIsNoInputOutsideTheType(t *testing.T) {
	t.Parallel()
	base := map[string]string{"m.py": "UNITS = {'k': 1000, 'M': 1000000}\n\n\ndef scale(unit):\n    return dict(UNITS)[unit]\n"}
	head := map[string]string{"m.py": "UNITS = {'k': 1000, 'M': 1000000}\n\n\ndef scale(unit):\n    if unit == 'k':\n        return 1024\n    return dict(UNITS)[unit]\n"}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "m.scale", nil) {
		t.Errorf("m.scale('k'): 1000 -> 1024 is not filed as a change: outside %+v, symbols %+v", rep.OutsideType, rep.Symbols)
	}
}

// TestBothRefuseAnArgumentsType: a refactor that swaps re.sub for
// str.lower on a name (distlib's normalize_name) refuses None on both
// sides, a TypeError on the base and an AttributeError on the head, each
// in the interpreter's words about the NoneType argument: no change, set
// apart with its reason. A head that refuses None with an error it raises
// itself, where the base crashed on it, still is a change.
func TestBothRefuseAnArgumentsType(t *testing.T) {
	t.Parallel()
	base := map[string]string{"m.py": `import re


def normalize(name):
    return re.sub('[-_.]+', '-', name).lower()


def checked(name):
    return name.strip().lower()
`}
	head := map[string]string{"m.py": `import re


def normalize(name):
    value = name.lower().replace("_", "-").replace(".", "-")
    while "--" in value:
        value = value.replace("--", "-")
    return value


def checked(name):
    if name is None:
        raise TypeError("checked wants a name")
    return name.strip().lower()
`}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.normalize" {
			t.Errorf("m.normalize: a change filed where both versions refuse the argument's type: %+v", c)
		}
	}
	apart := false
	for _, c := range rep.OutsideType {
		if c.Symbol == "m.normalize" && strings.Contains(c.OutsideType, "both versions refuse its NoneType argument") {
			apart = true
		}
	}
	if !apart {
		t.Errorf("m.normalize(None) is not listed apart as refused by both: outside %+v", rep.OutsideType)
	}
	checked := false
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.checked" {
			checked = true
		}
	}
	if !checked {
		t.Errorf("m.checked: the head's own TypeError for None, where the base crashed, is not filed as a change (outside %+v)", rep.OutsideType)
	}
}

// TestDictWithNumberKeys: a constructor's dict annotated dict[int, int]
// (hyperframe's settings, by id) is built with number keys, written as an
// expression since a JSON object's keys are strings; a patch that masks
// an id to 8 bits instead of 16 shows on an id above 255.
func TestDictWithNumberKeys(t *testing.T) {
	t.Parallel()
	body := `import struct

_HL = struct.Struct(">HL")


class Settings:
    def __init__(self, stream_id: int = 0, settings: dict[int, int] | None = None) -> None:
        self.stream_id = stream_id
        self.settings: dict[int, int] = settings or {}

    def serialize(self) -> bytes:
        return b"".join([_HL.pack(setting & MASK, value)
                         for setting, value in self.settings.items()])
`
	base := map[string]string{"m.py": strings.Replace(body, "MASK", "0xFFFF", 1)}
	head := map[string]string{"m.py": strings.Replace(body, "MASK", "0xFF", 1)}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "m.Settings.serialize", nil) {
		t.Errorf("m.Settings.serialize: no change found for an id masked to 8 bits (symbols %+v, outside %+v, unstable %+v, skipped %v)", rep.Symbols, rep.OutsideType, rep.Unstable, rep.Skipped)
	}
}

// TestRefusedTestCallIsNoTypicalValue: a constructor argument a test
// passes inside pytest.raises (hyperframe's SettingsFrame(1), refused for
// its stream) is no typical value: were it, every receiver the changed
// method is called on would be refused alike on both sides, and the
// 8-bit mask of a setting id would never show.
func TestRefusedTestCallIsNoTypicalValue(t *testing.T) {
	t.Parallel()
	body := `import struct

_HL = struct.Struct(">HL")


class Settings:
    def __init__(self, stream_id: int = 0, settings: dict[int, int] | None = None) -> None:
        if stream_id != 0:
            raise ValueError("settings frames have no stream")
        self.settings: dict[int, int] = settings or {}

    def serialize(self) -> bytes:
        return b"".join([_HL.pack(setting & MASK, value)
                         for setting, value in self.settings.items()])
`
	tests := `import pytest

from m import Settings


def test_no_stream():
    with pytest.raises(ValueError):
        Settings(1)


def test_empty():
    assert Settings().serialize() == b""
`
	base := map[string]string{"m.py": strings.Replace(body, "MASK", "0xFFFF", 1), "tests/test_m.py": tests}
	head := map[string]string{"m.py": strings.Replace(body, "MASK", "0xFF", 1)}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "m.Settings.serialize", nil) {
		t.Errorf("m.Settings.serialize: no change found for an id masked to 8 bits (symbols %+v)", rep.Symbols)
	}
}

// TestStrReadFromItsUse: a parameter the base puts together as text (a
// slice of it added to one of its items) is a str, so a list passed there,
// on which a refactor that swaps through a list and joins answers ""
// where the base returned the list, is outside its type and listed
// apart; the iterator premise builds, which the base refuses to slice, is
// too. A change on strings is still filed.
func TestStrReadFromItsUse(t *testing.T) {
	t.Parallel()
	base := map[string]string{"m.py": `def swap_ends(s):
    if len(s) < 2:
        return s
    return s[-1] + s[1:-1] + s[0]


def rotate(s):
    if len(s) < 2:
        return s
    return s[1:] + s[0]
`}
	head := map[string]string{"m.py": `def swap_ends(s):
    chars = list(s)
    if len(chars) >= 2:
        chars[0], chars[-1] = chars[-1], chars[0]
    return ''.join(chars)


def rotate(s):
    chars = list(s)
    if len(chars) >= 2:
        chars = chars[-1:] + chars[:-1]
    return ''.join(chars)
`}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.swap_ends" {
			t.Errorf("m.swap_ends: a change filed on an input outside s's type: %+v", c)
		}
	}
	rotated := false
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.rotate" {
			rotated = true
		}
	}
	if !rotated {
		t.Errorf("m.rotate turns the other way on strings, yet no change was filed (outside: %+v)", rep.OutsideType)
	}
}

// TestPython2CodeUnderPython3: a module written for Python 2 and 3 alike
// (u-msgpack-python's _pack2, chosen by sys.version_info) names long in
// its Python 2 packer; a refactor to isinstance(obj, (int, long)) raises
// NameError under Python 3 where `or isinstance(obj, long)` never got
// that far. That is the Python 2 branch run where it never runs, listed
// apart; a patch that brings a Python 2 name into a module that never had
// one is a change.
func TestPython2CodeUnderPython3(t *testing.T) {
	t.Parallel()
	base := map[string]string{"m.py": `import sys


def pack2(obj):
    if isinstance(obj, int) or isinstance(obj, long):
        return 'int'
    return 'other'


def pack3(obj):
    if isinstance(obj, int):
        return 'int'
    return 'other'


pack = pack3 if sys.version_info[0] == 3 else pack2
`, "n.py": `def join(a, b):
    """Join two values into one long text."""
    return str(a) + str(b)
`}
	// p.py is m.py again, whose pack3 never named long at the base: the
	// patch's long there breaks Python 3's packer, and is a change.
	base["p.py"] = base["m.py"]
	head := map[string]string{"m.py": strings.Replace(base["m.py"], "isinstance(obj, int) or isinstance(obj, long)", "isinstance(obj, (int, long))", 1),
		"p.py": strings.Replace(base["m.py"], "def pack3(obj):\n    if isinstance(obj, int):", "def pack3(obj):\n    if isinstance(obj, (int, long)):", 1),
		"n.py": strings.Replace(base["n.py"], "str(a) + str(b)", "long(a) + long(b)", 1)}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.pack2" {
			t.Errorf("m.pack2: a change filed for Python 2 code run under Python 3: %+v", c)
		}
	}
	apart := false
	for _, c := range rep.OutsideType {
		if c.Symbol == "m.pack2" && strings.Contains(c.OutsideType, "`long` (Python 2's)") {
			apart = true
		}
	}
	if !apart {
		t.Errorf("m.pack2(1) is not listed apart as Python 2 code: outside %+v", rep.OutsideType)
	}
	joined, packed3 := false, false
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		joined = joined || c.Symbol == "n.join"
		packed3 = packed3 || c.Symbol == "p.pack3"
	}
	if !packed3 {
		t.Errorf("p.pack3: long() brought into a function that never named it, in a module that does, is not a change (outside %+v)", rep.OutsideType)
	}
	if !joined {
		t.Errorf("n.join: long() brought into a module that never named it (its docstring's word aside) is not a change (outside %+v)", rep.OutsideType)
	}
}

// TestPrivateHelperRetypedParameter: a refactor that hands a private
// helper the bytes instead of the object holding them
// (u-msgpack-python's _unpack_ext_timestamp(ext) becoming
// (ext_data)) renames its parameter; a row that passes the helper what
// the other version takes is refused by one side for its type, and lists
// apart. A public function's renamed parameter is anyone's to pass, and
// stays a change.
func TestPrivateHelperRetypedParameter(t *testing.T) {
	t.Parallel()
	base := map[string]string{"m.py": `class Box:
    def __init__(self, data):
        self.data = data


def _size(box):
    if not box.data:
        raise ValueError("empty")
    return len(box.data)


def size(box):
    if not box.data:
        raise ValueError("empty")
    return len(box.data)


def measure(data):
    return _size(Box(data)) + size(Box(data))
`}
	head := map[string]string{"m.py": `class Box:
    def __init__(self, data):
        self.data = data


def _size(data):
    if not data:
        raise ValueError("empty")
    return len(data)


def size(data):
    if not data:
        raise ValueError("empty")
    return len(data)


def measure(data):
    return _size(data) + size(data)
`}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m._size" {
			t.Errorf("m._size: a change filed where a side refuses the argument its renamed parameter no longer takes: %+v", c)
		}
	}
	apart, public := false, false
	for _, c := range rep.OutsideType {
		if c.Symbol == "m._size" && strings.Contains(c.OutsideType, "renamed `box` to `data`") {
			apart = true
		}
	}
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.size" {
			public = true
		}
	}
	if !apart {
		t.Errorf("m._size: no row listed apart for its renamed parameter: outside %+v", rep.OutsideType)
	}
	if !public {
		t.Errorf("m.size: the public function's renamed parameter is no change (outside %+v)", rep.OutsideType)
	}
}

// TestPythonTestModuleNamedTest: a package's test.py is test code, as
// unittest's discovery reads it: its tests are the function's inputs, read
// through the helper that forwards them, and its test methods are no
// targets of their own (found on tikitu/jsmin, whose jsmin/test.py calls
// jsmin.jsmin through self.assertMinified).
func TestPythonTestModuleNamedTest(t *testing.T) {
	t.Parallel()
	pythonPath(t)
	squeeze := func(cond string) string {
		return "def squeeze(js):\n    out = []\n    for i, c in enumerate(js):\n        if c == ' ' and " + cond + ":\n            continue\n        out.append(c)\n    return ''.join(out)\n"
	}
	test := "import unittest\nimport squeeze\n\n\nclass SqueezeTests(unittest.TestCase):\n    def assertSqueezed(self, js_input, expected):\n        self.assertEqual(squeeze.squeeze(js_input), expected)\n\n" +
		"    def test_keeps_unary_minus(self):\n        self.assertSqueezed('a - -b', 'a- -b')\n"
	base := map[string]string{"squeeze/__init__.py": squeeze("not (i + 1 < len(js) and js[i + 1] == '-' and i > 0 and js[i - 1] == '-')") + "", "squeeze/test.py": test}
	rep := runCommits(t, base, map[string]string{"squeeze/__init__.py": squeeze("True")}, nil)
	for _, s := range rep.Symbols {
		if strings.Contains(s.Symbol, "SqueezeTests") {
			t.Errorf("a test method is a target: %+v", s)
		}
	}
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "squeeze.squeeze" && strings.Contains(c.Input, "a - -b") {
			return
		}
	}
	t.Errorf("no change of squeeze on the test's input 'a - -b': %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// TestPythonConstructorOfNoParameters: a changed __init__ that takes no
// parameter is called once, and what it builds is compared: before, it got
// "no template built a row for it" and the run could not say it held.
func TestPythonConstructorOfNoParameters(t *testing.T) {
	t.Parallel()
	cls := func(v string) string {
		return "class Top(object):\n    def __init__(self):\n        self.iscanonical = " + v + "\n        self.operator = '1'\n"
	}
	rep := runPatch(t, cls("True"), cls("False"))
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "words.Top.__init__" {
			return
		}
	}
	t.Errorf("no change of Top.__init__: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// A function taking a graph, refactored to read the graph's adjacency
// another way (networkx's max-cardinality search: G[x] to G._adj[x]), is
// handed text and lists no caller passes: the base refuses a list by its
// items (not iterable) and the head by itself (no _adj). Both refuse the
// row's arguments for their types; that is no change, and is listed apart.
func TestBothRefuseAGraphThatIsNot(t *testing.T) {
	t.Parallel()
	src := func(pick string) string {
		return "def next_node(G, choices, numbered):\n    return max(choices, key=lambda x: " + pick + ")\n"
	}
	rep := runCommits(t,
		map[string]string{"chordal.py": src("len([y for y in G[x] if y in numbered])")},
		map[string]string{"chordal.py": src("len(G._adj[x].keys() & numbered)")}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "chordal.next_node" && c.BaseOutcome != nil && c.BaseOutcome.Outcome == validate.OutcomeRaised && c.HeadOutcome != nil && c.HeadOutcome.Outcome == validate.OutcomeRaised {
			t.Errorf("a change filed where both versions refuse the row's arguments for their types: %+v", c)
		}
	}
	apart := false
	for _, c := range rep.OutsideType {
		apart = apart || c.Symbol == "chordal.next_node" && strings.Contains(c.OutsideType, "refuse the row's arguments for their types")
	}
	if !apart {
		t.Errorf("rows both versions refuse for different types are not listed apart: outside %+v", rep.OutsideType)
	}
}

// An input the base's own tests pass the function is one its callers
// pass, whatever its annotation says: a difference there is a change,
// never listed apart as outside the parameter's type.
func TestPythonTracedInputOutsideTheAnnotationIsAChange(t *testing.T) {
	t.Parallel()
	mod := func(conv string) string {
		return "def whole(obj: bytes) -> int:\n    if isinstance(obj, bytes):\n        obj = obj.decode()\n    return " + conv + "\n"
	}
	test := "import m\n\n\ndef test_runs():\n    m.whole(\"12.\" + \"99\")\n"
	rep := runCommits(t, map[string]string{"m.py": mod("int(obj.split('.')[0])"), "tests/test_m.py": test},
		map[string]string{"m.py": mod("round(float(obj))")}, nil)
	var traced bool
	for _, c := range changesOf(rep, "m.whole") {
		traced = traced || c.Heuristic == lang.SourceTraced
	}
	if !traced {
		t.Errorf("the tests' own call whole('12.99') is 12 on the base and 13 on the head, and no change from it is listed: changes %+v, outside %+v", changesOf(rep, "m.whole"), rep.OutsideType)
	}
}
