package python

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/gate"
)

func TestConstantValues(t *testing.T) {
	nums, strs, lens := constantValues([]pysource.Constant{
		{Value: "3", Kind: "int", Op: ">", Operand: "len(items)"},
		{Value: "999.5", Kind: "float"},
		{Value: "','", Kind: "str"},
		{Value: "b'x'", Kind: "bytes"},
	})
	if diff := cmp.Diff([]any{3, 2, 4, 999.5, 999.4, 999.6, 999.0, 1000.0}, nums, cmpFloat); diff != "" {
		t.Errorf("numbers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{",", "a,1", ",,", ","}, strs); diff != "" {
		t.Errorf("strings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]int{"items": {2, 3, 4}}, lens); diff != "" {
		t.Errorf("lengths (-want +got):\n%s\nlen(items) > 3: lists of 2, 3 and 4 items", diff)
	}
}

var cmpFloat = cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })

func TestHarvestedArgs(t *testing.T) {
	sig := &lang.Signature{Language: "python", Params: []lang.Param{{Name: "pred"}, {Name: "iterable"}, {Name: "limit", KeywordOnly: true}}}
	info := &pyInfo{harvested: []pysource.Input{
		{Args: []string{"lambda x: x == 2", "[1, 2]"}, Kind: "doctest", Pos: "m.py:3"},
		{Args: []string{"bool", "iter('ab')"}, Kwargs: map[string]string{"limit": "2"}, Kind: "test", Pos: "tests/test_m.py:9"},
		{Args: []string{"1"}, Receiver: "Bits(4)", Kind: "doctest", Pos: "m.py:20"},
	}}
	rows, per := harvestedArgs(sig, info)
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2: a method's input waits for receivers", len(rows))
	}
	if rows[0].Source != "doctest m.py:3" || rows[1].Source != "test tests/test_m.py:9" {
		t.Errorf("sources %q, %q", rows[0].Source, rows[1].Source)
	}
	want := []any{map[string]any{lang.ExprKey: "lambda x: x == 2"}, []any{1, 2}}
	if diff := cmp.Diff(want, rows[0].Row.Args); diff != "" {
		t.Errorf("first row's args (-want +got):\n%s", diff)
	}
	if got := pyCallText(rows[1].Row.CallArgs()); got != "(bool, iter('ab'), limit=2)" {
		t.Errorf("second row reads %s", got)
	}
	if diff := cmp.Diff([]any{2}, per[2]); diff != "" {
		t.Errorf("limit's harvested values (-want +got):\n%s", diff)
	}
}

// TestReceiversOf: the objects a method runs on are the constructor calls
// its tests make, then those calls with one literal argument mutated, so a
// receiver nobody wrote (Version.parse('1.0.0-')) still comes from one the
// tests trust.
func TestReceiversOf(t *testing.T) {
	info := &pyInfo{harvested: []pysource.Input{
		{Args: []string{}, Receiver: "Version.parse('1.0.0-rc')",
			ReceiverCall: &pysource.Call{Callee: "Version.parse", Args: []string{"'1.0.0-rc'"}}, Kind: "test", Pos: "t.py:3"},
	}}
	s := diffparse.Symbol{Name: "semver.Version.bump", Local: "Version.bump"}
	got := receiversOf(s, info, []string{"-"}, 8)
	var srcs []string
	for _, r := range got {
		srcs = append(srcs, r.(map[string]any)[lang.ExprKey].(string))
	}
	want := []string{"Version.parse('1.0.0-rc')", "Version.parse('1.0.0-r')", "Version.parse('')", "Version.parse('1')",
		"Version.parse('cr-0.0.1')", "Version.parse('1.0.0-RC')", "Version.parse('1.0.0-rcé')", "Version.parse('1.0.0-rc\\n')"}
	if diff := cmp.Diff(want, srcs); diff != "" {
		t.Errorf("receivers (-want +got):\n%s", diff)
	}
}

// TestMethodRowsTryEveryReceiver: each receiver is called at least once,
// with the typical arguments, before the budget goes to argument rows on
// the first receivers: the object's state is as often what a patch
// narrowed as the arguments are.
func TestMethodRowsTryEveryReceiver(t *testing.T) {
	var recvs []any
	for i := 0; i < 12; i++ {
		recvs = append(recvs, map[string]any{lang.ExprKey: fmt.Sprintf("Version(%d)", i)})
	}
	tg := lang.Target{
		Sym:       diffparse.Symbol{Name: "v.Version.step", Local: "Version.step", Kind: "method"},
		Lang:      "python",
		Sig:       &lang.Signature{Language: "python", Params: []lang.Param{{Name: "n", Type: "int"}}},
		Data:      &pyInfo{guesses: map[string]pysource.Guess{}},
		Receivers: recvs,
	}
	rows := methodRows(tg, rand.New(rand.NewSource(1)), 60)
	if len(rows) != 60 {
		t.Fatalf("got %d rows, want the budget of 60 filled", len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Row.Args[0].(map[string]any)[lang.ExprKey].(string)] = true
	}
	if len(seen) != len(recvs) {
		t.Errorf("rows called %d of %d receivers", len(seen), len(recvs))
	}
}

// TestKwargsKeys: the keys a body reads of its **kwargs, each once, in
// the ways Python code reads them; a key of another mapping is not one.
func TestKwargsKeys(t *testing.T) {
	text := `def merge(obj, **kwargs):
    it = kwargs.get("iteratee")
    setter = kwargs.pop('_setter', None)
    if "deep" in kwargs and kwargs["deep"]:
        pass
    if 'x' not in kwargs: pass
    other.get("nope")
    it2 = kwargs.get("iteratee")`
	got := kwargsKeys("kwargs", text)
	want := []string{"iteratee", "_setter", "deep", "x"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("kwargsKeys = %q, want %q", got, want)
	}
}

// TestAttributeNamesForGetattr: a function that looks names up with
// getattr gets names its values have (a list's count), where its own
// literals name none; one that does not is not given them.
func TestAttributeNamesForGetattr(t *testing.T) {
	lits := pyLiterals(lang.Target{Data: &pyInfo{text: "def get(obj, key):\n    return getattr(obj, key, None)\n", consts: []pysource.Constant{}}})
	if !slices.Contains(lits, "count") || !slices.Contains(lits, "__class__") {
		t.Errorf("lits %q lack attribute names", lits)
	}
	if lits := pyLiterals(lang.Target{Data: &pyInfo{text: "def get(obj, key):\n    return obj[key]\n", consts: []pysource.Constant{}}}); slices.Contains(lits, "count") {
		t.Errorf("lits %q hold attribute names for a function that reads none", lits)
	}
}

// TestSameStrings: two text parameters are called with the same text,
// with its case flipped and a character longer, and again with the flag
// flipped, so findall('a', 'A', True) and a similarity of 'ab' and 'aba'
// are among the rows; a parameter that is not text is left at its
// typical value.
func TestSameStrings(t *testing.T) {
	pools := [][]any{{"", "a", "ab"}, {"x"}, {false, true}, {3}}
	seen := map[string]bool{}
	for _, vals := range sameStrings(pools) {
		seen[fmt.Sprint(vals)] = true
	}
	for _, want := range []string{"[a a false 3]", "[a A false 3]", "[a A true 3]", "[ab AB true 3]", "[ab aba false 3]"} {
		if !seen[want] {
			t.Errorf("no call %s among %v", want, seen)
		}
	}
	if got := sameStrings([][]any{{"a"}, {1}}); got != nil {
		t.Errorf("one text parameter gave %v", got)
	}
}

// TestSegmentMutations: a string whose last segment a separator leads is
// mutated in its structure: the segment repeated and lengthened.
func TestSegmentMutations(t *testing.T) {
	got := fmt.Sprint(lang.SegmentMutations("this/thing.ext"))
	for _, want := range []string{"this/thing.ext.ext.ext", "this/thing.extension"} {
		if !strings.Contains(got, want) {
			t.Errorf("segmentMutations = %s, want %s among them", got, want)
		}
	}
	if lang.SegmentMutations("plain") != nil {
		t.Error("a string without a separator was mutated")
	}
}

// TestComparedTypes: a parameter the body compares with built-in classes
// takes those classes; another parameter's comparisons are not its.
func TestComparedTypes(t *testing.T) {
	text := `def _format(val, valtype, fmt):
    if valtype is int:
        return format(val, fmt)
    elif valtype in (float, bytes):
        pass
    elif issubclass(valtype, (str, Decimal)):
        pass
    if val is None or fmt == str:
        pass`
	got := fmt.Sprint(comparedTypes("valtype", text))
	if got != "[map[$expr:int] map[$expr:float] map[$expr:bytes] map[$expr:str]]" {
		t.Errorf("comparedTypes(valtype) = %s", got)
	}
	if got := comparedTypes("val", text); len(got) != 0 {
		t.Errorf("comparedTypes(val) = %v; None is a value, not a class", got)
	}
}

// TestTestedDictTakesASubclass: a parameter tested with isinstance(o,
// dict) takes a dict subclass, the value an exact type test (type(o) is
// dict, the other side of such a patch) refuses; a plain dict the pools
// hold already.
func TestTestedDictTakesASubclass(t *testing.T) {
	text := `def freeze(o, strict=True):
    if isinstance(o, dict) or (strict and isinstance(o, PMap)):
        return pmap({k: freeze(v, strict) for k, v in o.items()})
    typ = type(o)
    if typ is dict:
        pass`
	got := fmt.Sprint(testedInstances("o", text))
	if got != "[map[$expr:collections.OrderedDict([('a', [1]), ('b', 2)]) $imports:[import collections]]]" {
		t.Errorf("testedInstances(o) = %s", got)
	}
}

// TestAnnotationGivesItsKindsPool: an annotated parameter takes its
// kind's pool from the seam, with nothing but the seam linked in (the
// pools once came from an init the engine ran).
func TestAnnotationGivesItsKindsPool(t *testing.T) {
	sig := &lang.Signature{Language: "python", Params: []lang.Param{{Name: "names", Type: "list[str]"}}}
	pools, froms := pyParamPools(sig, &pyInfo{}, make([][]any, 1), nil)
	if froms[0] != "annotation" || len(pools[0]) == 0 {
		t.Fatalf("names: list[str]: pool %v from %q; want its kind's pool from the annotation", pools[0], froms[0])
	}
	for _, v := range pools[0] {
		l, ok := v.([]any)
		if !ok {
			continue
		}
		for _, e := range l {
			if _, isStr := e.(string); !isStr {
				t.Errorf("names: list[str] takes %v", v)
			}
		}
	}
}

// TestExactTypeTestTakesSubclasses: a parameter whose class the text
// compares exactly, even with classes it does not name (type(value) not in
// self.valid_types), takes values of subclasses of the built-in types, on
// which that test and isinstance part; a parameter the text only passes
// to type() elsewhere takes none.
func TestExactTypeTestTakesSubclasses(t *testing.T) {
	text := `def _norm(self, value):
    if type(value) not in self.valid_types:
        raise ValueError("invalid type %s" % type(value))
    self._byte_value = value * self._unit_value`
	got := exactTypeInstances("value", text)
	if len(got) == 0 || got[0] != true {
		t.Fatalf("exactTypeInstances(value) = %v; want a bool first", got)
	}
	if fmt.Sprint(got[1:]) != "[map[$expr:http.HTTPStatus.OK $imports:[import http]] map[$expr:http.HTTPMethod.GET $imports:[import http]] map[$expr:collections.OrderedDict([('a', 1)]) $imports:[import collections]]]" {
		t.Errorf("exactTypeInstances(value) = %v", got)
	}
	if got := exactTypeInstances("self", text); got != nil {
		t.Errorf("exactTypeInstances(self) = %v; the text never compares its class", got)
	}
	if got := exactTypeInstances("value", "def f(value):\n    return str(type(value))"); got != nil {
		t.Errorf("type(value) only printed: %v; want none", got)
	}
}

// TestMagicBytes: a parameter whose bytes the function compares with
// constants (a format's magic number) takes buffers holding them, as
// bytes the worker builds; a parameter it never indexes takes none.
func TestMagicBytes(t *testing.T) {
	text := `def is_png(data, strict=False):
    return len(data) >= 8 and data[0] == 0x89 and data[1] == ord('P') and data[2] == 78 and data[3] == 71`
	got := fmt.Sprint(magicBytes("data", text))
	if !strings.Contains(got, "bytes([137, 0, 78, 71])") || !strings.Contains(got, "bytes([137, 0, 78, 71, 0, 0, 0, 0])") {
		t.Errorf("magicBytes(data) = %s; want the magic bytes, alone and at the compared length", got)
	}
	if got := magicBytes("strict", text); got != nil {
		t.Errorf("magicBytes(strict) = %v; want none", got)
	}
}

// TestTestedBuiltinClassesAreInputs: a class of the language's own that
// the function (or the lines the patch removed from it) tests its
// parameter against is an input of that class: a date, a path, text. (A
// memoryview is not among them: argument expressions may not name it,
// gate.CheckPythonExpr.)
func TestTestedBuiltinClassesAreInputs(t *testing.T) {
	text := `def db_value(self, value):
    if isinstance(value, str):
        value = value.encode('utf8')
        elif isinstance(value, memoryview):
            value = value.tobytes()
    if isinstance(value, (datetime.date, pathlib.Path)):
        return str(value)`
	got := fmt.Sprint(testedInstances("value", text))
	for _, want := range []string{"datetime.date(2020, 1, 31) $imports:[import datetime]", "pathlib.Path('a/b.txt') $imports:[import pathlib]", "'ab'"} {
		if !strings.Contains(got, want) {
			t.Errorf("testedInstances(value) = %s; want %s among them", got, want)
		}
	}
}

// TestInstanceValuesPassTheExpressionCheck: every value premise writes
// for a tested class is an expression the gate lets a worker see; one it
// refuses would run on no side.
func TestInstanceValuesPassTheExpressionCheck(t *testing.T) {
	for class, e := range instanceOf {
		if err := gate.CheckPythonExpr(e.expr); err != nil {
			t.Errorf("%s: %s is refused: %v", class, e.expr, err)
		}
	}
}
