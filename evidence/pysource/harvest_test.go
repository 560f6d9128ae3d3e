package pysource

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/premise-dev/premise/gate"
)

func mustParse(t testing.TB, path, src string) *File {
	t.Helper()
	f, err := Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// recipes is a module in the style of itertools recipes: untyped, with
// doctests.
const recipes = `"""Recipes.

>>> take(2, 'abc')
['a', 'b']
"""
from itertools import islice

def take(n, iterable):
    """Return first *n* items of the iterable as a list.

        >>> take(3, range(10))
        [0, 1, 2]
        >>> xs = [5, 6, 7]
        >>> take(2, xs)
        [5, 6]
        >>> take(1, iter(xs))
        [5]
        >>> take(n=2, iterable='xyz')
        ['x', 'y']
        >>> take(2, some_global)
        Traceback (most recent call last):
        ...
    """
    return list(islice(iterable, n))

def grouper(iterable, n, fillvalue=None):
    """
    >>> list(grouper('ABCDEFG', 3, 'x'))
    [('A', 'B', 'C'), ('D', 'E', 'F'), ('G', 'x', 'x')]
    >>> list(grouper([1, 2,
    ...               3], 2))
    [(1, 2), (3, None)]
    """
    args = [iter(iterable)] * n
    return zip_longest(*args, fillvalue=fillvalue)

class Bits:
    """A bit field.

    >>> b = Bits(4, 2)
    >>> b.get(1)
    True
    """

    def __init__(self, width, value=0):
        self.width = width
        self.value = value

    def get(self, i):
        return bool(self.value >> i & 1)

    @classmethod
    def parse(cls, s):
        """
        >>> Bits.parse('0101').value
        5
        """
        return cls(len(s), int(s, 2))
`

const recipesTests = `import operator
import unittest
from functools import partial

import pytest

import recipes as r
from recipes import take, grouper, Bits

CASES = [('abc', 2), ('', 1)]

class TakeTests(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(take(2, [1, 2, 3]), [1, 2])
        self.assertEqual(r.take(-1, 'ab'), [])

    def test_local(self):
        data = list(range(5))
        self.assertEqual(take(2, data), [0, 1])

    def test_mutated(self):
        data = []
        data.append(1)
        self.assertEqual(take(1, data), [1])

    def test_object(self):
        self.assertEqual(take(1, SomeIterable()), [])

    def test_loop(self):
        for s, n in CASES:
            with self.subTest(s=s):
                self.assertEqual(len(take(n, s)), min(n, len(s)))

    def test_lambda(self):
        assert take(2, map(lambda x: x * 2, [1, 2])) == [2, 4]
        assert take(1, map(operator.neg, [1])) == [-1]
        assert take(1, (c for c in 'ab')) == ['a']

    def test_shared(self):
        it = iter('abc')
        take(2, [it, it])
        xs = [1, 2]
        take(1, [xs, xs])

    def test_splat(self):
        args = (1, 'a')
        take(*args)

@pytest.mark.parametrize("n, iterable", [(0, 'ab'), (1, [None]), pytest.param(5, 'x', id='short')])
def test_param(n, iterable):
    assert len(take(n, iterable)) <= n

@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("fill", ['-', None])
def test_grouper(n, fill):
    assert list(grouper('abc', n, fill))

def test_bits():
    b = Bits(8, value=3)
    assert b.get(0)
    assert Bits(2).get(1) is False
    assert Bits.parse('11').value == 3
    assert Bits.parse('10').get(0)
    c = Bits(1, 0)
    c = Bits(2, 0)
    assert c.get(0) is False
    d = Bits(3, 1)
    d.value = 2
    assert d.get(1)
`

func TestHarvest(t *testing.T) {
	mod := mustParse(t, "recipes.py", recipes)
	tests := mustParse(t, "test_recipes.py", recipesTests)
	cases := []struct {
		name   string
		fn     string
		tests  []*File
		limit  int
		want   []Input
		reason string
	}{{
		name:  "doctests then tests",
		fn:    "take",
		tests: []*File{tests},
		want: []Input{
			{Args: []string{"3", "range(10)"}, Kind: KindDoctest, Pos: "recipes.py:11"},
			{Args: []string{"2", "[5, 6, 7]"}, Kind: KindDoctest, Pos: "recipes.py:14"},
			{Args: []string{"1", "iter([5, 6, 7])"}, Kind: KindDoctest, Pos: "recipes.py:16"},
			{Args: []string{}, Kwargs: map[string]string{"n": "2", "iterable": "'xyz'"}, Kind: KindDoctest, Pos: "recipes.py:18"},
			{Args: []string{"2", "'abc'"}, Kind: KindDoctest, Pos: "recipes.py:3"},
			{Args: []string{"2", "[1, 2, 3]"}, Kind: KindTest, Pos: "test_recipes.py:14"},
			{Args: []string{"-1", "'ab'"}, Kind: KindTest, Pos: "test_recipes.py:15"},
			{Args: []string{"2", "list(range(5))"}, Kind: KindTest, Pos: "test_recipes.py:19"},
			{Args: []string{"1", "''"}, Kind: KindParametrize, Pos: "test_recipes.py:32"},
			{Args: []string{"2", "map(lambda x: x * 2, [1, 2])"}, Kind: KindTest, Pos: "test_recipes.py:35"},
			{Args: []string{"1", "map(operator.neg, [1])"}, Imports: []string{"import operator"}, Kind: KindTest, Pos: "test_recipes.py:36"},
			{Args: []string{"1", "(c for c in 'ab')"}, Kind: KindTest, Pos: "test_recipes.py:37"},
			{Args: []string{"1", "[[1, 2], [1, 2]]"}, Kind: KindTest, Pos: "test_recipes.py:43"},
			{Args: []string{"0", "'ab'"}, Kind: KindParametrize, Pos: "test_recipes.py:51"},
			{Args: []string{"1", "[None]"}, Kind: KindParametrize, Pos: "test_recipes.py:51"},
			{Args: []string{"5", "'x'"}, Kind: KindParametrize, Pos: "test_recipes.py:51"},
		},
		reason: "a name bound once to a literal is substituted (xs, data); a mutated list, an unknown object, a global, a splat and one iterator passed twice are not literal-ish; (2, 'abc') from the CASES loop duplicates the module doctest and is dropped",
	}, {
		name:   "limit",
		fn:     "take",
		tests:  []*File{tests},
		limit:  2,
		want:   []Input{{Args: []string{"3", "range(10)"}, Kind: KindDoctest, Pos: "recipes.py:11"}, {Args: []string{"2", "[5, 6, 7]"}, Kind: KindDoctest, Pos: "recipes.py:14"}},
		reason: "the most trusted inputs come first, so a limit keeps them",
	}, {
		name:  "continuation lines and stacked parametrize",
		fn:    "grouper",
		tests: []*File{tests},
		want: []Input{
			{Args: []string{"'ABCDEFG'", "3", "'x'"}, Kind: KindDoctest, Pos: "recipes.py:28"},
			{Args: []string{"[1, 2, 3]", "2"}, Kind: KindDoctest, Pos: "recipes.py:30"},
			{Args: []string{"'abc'", "1", "'-'"}, Kind: KindParametrize, Pos: "test_recipes.py:56"},
			{Args: []string{"'abc'", "1", "None"}, Kind: KindParametrize, Pos: "test_recipes.py:56"},
			{Args: []string{"'abc'", "2", "'-'"}, Kind: KindParametrize, Pos: "test_recipes.py:56"},
			{Args: []string{"'abc'", "2", "None"}, Kind: KindParametrize, Pos: "test_recipes.py:56"},
		},
		reason: "a `...` continuation joins its example; two parametrize decorators multiply",
	}, {
		name:  "method receivers",
		fn:    "Bits.get",
		tests: []*File{tests},
		want: []Input{
			{Args: []string{"1"}, Receiver: "Bits(4, 2)", ReceiverCall: &Call{Callee: "Bits", Args: []string{"4", "2"}}, Kind: KindDoctest, Pos: "recipes.py:41"},
			{Args: []string{"0"}, Receiver: "Bits(8, value=3)", ReceiverCall: &Call{Callee: "Bits", Args: []string{"8"}, Kwargs: map[string]string{"value": "3"}}, Kind: KindTest, Pos: "test_recipes.py:60"},
			{Args: []string{"1"}, Receiver: "Bits(2)", ReceiverCall: &Call{Callee: "Bits", Args: []string{"2"}}, Kind: KindTest, Pos: "test_recipes.py:61"},
			{Args: []string{"0"}, Receiver: "Bits.parse('10')", ReceiverCall: &Call{Callee: "Bits.parse", Args: []string{"'10'"}}, Kind: KindTest, Pos: "test_recipes.py:63"},
			{Args: []string{"1"}, Receiver: "Bits(3, 1)", ReceiverCall: &Call{Callee: "Bits", Args: []string{"3", "1"}}, Kind: KindTest, Pos: "test_recipes.py:69"},
		},
		reason: "c is bound twice, so which Bits it is depends on order: it is left out; d is changed after it is built, " +
			"but a fresh Bits(3, 1) is still a fair receiver (evidence compares base and head, it does not replay the test); " +
			"a class method's result (Bits.parse('10')) is a receiver too, its arguments kept in parts so they can be varied",
	}, {
		name:  "class method on the class",
		fn:    "Bits.parse",
		tests: []*File{tests},
		want: []Input{
			{Args: []string{"'0101'"}, Receiver: "Bits", Kind: KindDoctest, Pos: "recipes.py:55"},
			{Args: []string{"'11'"}, Receiver: "Bits", Kind: KindTest, Pos: "test_recipes.py:62"},
			{Args: []string{"'10'"}, Receiver: "Bits", Kind: KindTest, Pos: "test_recipes.py:63"},
		},
	}, {
		name:  "constructor",
		fn:    "Bits.__init__",
		tests: []*File{tests},
		want: []Input{
			{Args: []string{"4", "2"}, Kind: KindDoctest, Pos: "recipes.py:40"},
			{Args: []string{"8"}, Kwargs: map[string]string{"value": "3"}, Kind: KindTest, Pos: "test_recipes.py:59"},
			{Args: []string{"2"}, Kind: KindTest, Pos: "test_recipes.py:61"},
			{Args: []string{"1", "0"}, Kind: KindTest, Pos: "test_recipes.py:64"},
			{Args: []string{"2", "0"}, Kind: KindTest, Pos: "test_recipes.py:65"},
			{Args: []string{"3", "1"}, Kind: KindTest, Pos: "test_recipes.py:67"},
		},
		reason: "__init__ is exercised by calling the class",
	}, {
		name: "unknown function",
		fn:   "nothing",
		want: []Input{},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Harvest(mod, c.fn, c.tests, c.limit)
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Harvest(%s) (-want +got):\n%s\nreason: %s", c.fn, diff, c.reason)
			}
			// The files cache their scopes: a second call must agree.
			if diff := cmp.Diff(got, Harvest(mod, c.fn, c.tests, c.limit), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Harvest(%s) again (-first +second):\n%s", c.fn, diff)
			}
		})
	}
}

func TestHarvestModuleAttribute(t *testing.T) {
	mod := mustParse(t, "pkg/strutil.py", "def slugify(s, sep='-'):\n    return sep.join(s.lower().split())\n")
	tests := mustParse(t, "tests/test_strutil.py", `import pkg.strutil
from pkg import strutil as su

def test_it():
    assert pkg.strutil.slugify('A B') == 'a-b'
    assert su.slugify('A  B', sep='_') == 'a_b'
    assert other.slugify('x') == 'x'
    assert obj.slugify('y') == 'y'
`)
	want := []Input{
		{Args: []string{"'A B'"}, Kind: KindTest, Pos: "tests/test_strutil.py:5"},
		{Args: []string{"'A  B'"}, Kwargs: map[string]string{"sep": "'_'"}, Kind: KindTest, Pos: "tests/test_strutil.py:6"},
	}
	got := Harvest(mod, "slugify", []*File{tests}, 0)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("(-want +got):\n%s\nreason: other and obj are not imported, so they are not the module", diff)
	}
}

func TestHarvestShadowed(t *testing.T) {
	mod := mustParse(t, "more.py", "def first(iterable, default=None):\n    return next(iter(iterable), default)\n")
	tests := mustParse(t, "test_more.py", `from more import first

def test_first():
    assert first([1]) == 1

def test_local():
    first = lambda xs: xs[0]
    assert first([2]) == 2

def test_param(first):
    first([3])
`)
	other := mustParse(t, "test_other.py", "def first(x):\n    return x\n\ndef test_x():\n    assert first([4])\n")
	want := []Input{{Args: []string{"[1]"}, Kind: KindTest, Pos: "test_more.py:4"}}
	got := Harvest(mod, "first", []*File{tests, other}, 0)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("(-want +got):\n%s\nreason: a local lambda, a fixture parameter and a file's own def of the name are other functions", diff)
	}
}

func TestHarvestSetUp(t *testing.T) {
	mod := mustParse(t, "recipes.py", recipes)
	tests := mustParse(t, "test_bits.py", `import unittest
from recipes import Bits

class BitsTest(unittest.TestCase):
    def setUp(self):
        self.b = Bits(4, 5)
        self.c = Bits(1)
        self.c = Bits(2)

    def test_get(self):
        self.assertTrue(self.b.get(2))
        self.assertFalse(self.c.get(0))
`)
	want := []Input{{Args: []string{"2"}, Receiver: "Bits(4, 5)", ReceiverCall: &Call{Callee: "Bits", Args: []string{"4", "5"}}, Kind: KindTest, Pos: "test_bits.py:11"}}
	got := Harvest(mod, "Bits.get", []*File{tests}, 0)
	if diff := cmp.Diff(want[0], got[len(got)-1]); diff != "" || len(got) != 2 {
		t.Errorf("last input (-want +got):\n%s\ngot %d inputs, want the doctest's and this one\nreason: self.c is bound twice in setUp", diff, len(got))
	}
}

func TestHarvestSyntaxError(t *testing.T) {
	tests := mustParse(t, "test_x.py", "def test_a():\n    assert f(1) == 2\n\ndef test_b(:\n    pass\n")
	if tests.SyntaxError() == nil {
		t.Fatal("want a syntax error")
	}
	got := Harvest(nil, "f", []*File{tests}, 0)
	want := []Input{{Args: []string{"1"}, Kind: KindTest, Pos: "test_x.py:2"}}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("(-want +got):\n%s\nreason: a broken test elsewhere in the file does not hide a good one", diff)
	}
}

func TestClosed(t *testing.T) {
	mod := mustParse(t, "recipes.py", recipes)
	tests := mustParse(t, "test_recipes.py", recipesTests)
	if len(Harvest(mod, "take", []*File{tests}, 0)) == 0 {
		t.Fatal("no inputs before Close")
	}
	mod.Close()
	tests.Close()
	if got := Harvest(mod, "take", []*File{tests}, 0); len(got) != 0 {
		t.Errorf("Harvest after Close = %v, want none", got)
	}
	if _, err := InferTypes(mod, "take", tests); !errors.Is(err, ErrNoFunction) {
		t.Errorf("InferTypes after Close: %v, want ErrNoFunction", err)
	}
}

// TestThinKeepsTheTail: a table longer than the limit keeps its last rows
// too, where a fix adds its test, and the rest spread over the whole, in
// order.
func TestThinKeepsTheTail(t *testing.T) {
	var ins []Input
	for i := 0; i < 100; i++ {
		ins = append(ins, Input{Args: []string{strconv.Itoa(i)}})
	}
	got := thin(ins, 64)
	if len(got) != 64 || got[0].Args[0] != "0" || got[63].Args[0] != "99" {
		t.Fatalf("thin kept %d, first %v, last %v; want 64 from 0 to 99", len(got), got[0].Args, got[len(got)-1].Args)
	}
	prev := -1
	for _, in := range got {
		n, _ := strconv.Atoi(in.Args[0])
		if n <= prev {
			t.Fatalf("thin out of order or repeated: %v after %d", in.Args, prev)
		}
		prev = n
	}
	if len(thin(ins[:10], 64)) != 10 {
		t.Error("thin cut a list within the limit")
	}
}

// TestHarvestMarksCallsExpectedToRaise: a constructor call a test makes
// inside pytest.raises or self.assertRaises is marked Raises (its
// arguments are refused, no typical value); one outside is not.
func TestHarvestMarksCallsExpectedToRaise(t *testing.T) {
	mod := mustParse(t, "frame.py", `class Frame:
    def __init__(self, stream_id=0, settings=None):
        if stream_id:
            raise ValueError(stream_id)
        self.settings = settings or {}
`)
	tests := mustParse(t, "test_frame.py", `import pytest
import unittest
from frame import Frame


def test_plain():
    Frame(0, {1: 2})


def test_refused():
    with pytest.raises(ValueError):
        Frame(1)


class T(unittest.TestCase):
    def test_refused_too(self):
        with self.assertRaises(ValueError):
            Frame(3)
`)
	got := map[string]bool{}
	for _, in := range Harvest(mod, "Frame.__init__", []*File{tests}, 0) {
		got[strings.Join(in.Args, ", ")] = in.Raises
	}
	want := map[string]bool{"0, {1: 2}": false, "1": true, "3": true}
	for args, raises := range want {
		r, ok := got[args]
		if !ok {
			t.Errorf("Frame(%s) not harvested: %v", args, got)
			continue
		}
		if r != raises {
			t.Errorf("Frame(%s): Raises %v, want %v", args, r, raises)
		}
	}
}

// A test's argument built by the project's own code (nx.path_graph(4), a
// nx.Graph() the test fills by its own method calls, in the test or in
// its class's setup_class) is an input, the import and the calls going
// with it, where before only literals and the standard modules were: the
// functions of a graph library take graphs. A call the test makes after
// the one read, or inside a loop, is not part of what it was given; a
// file whose project is not named keeps to literals.
func TestHarvestArgumentsBuiltByTheProject(t *testing.T) {
	module := mustParse(t, "graphs/bfs.py", "def layers(G, sources):\n    return []\n")
	test := `import graphs as nx
from graphs import Graph

class TestLayers:
    @classmethod
    def setup_class(cls):
        G = nx.Graph()
        G.add_edges_from([(0, 1), (1, 2)])
        cls.G = G

    def test_class_graph(self):
        assert list(nx.layers(self.G, [0])) == [[0], [1], [2]]

    def test_path(self):
        P = nx.path_graph(4)
        assert list(nx.layers(P, 0))

    def test_local(self):
        H = Graph()
        H.add_edge(5, 6)
        H.add_node(7)
        got = list(nx.layers(H, 5))
        H.add_node(8)

    def test_loop(self):
        L = Graph()
        for i in range(3):
            L.add_node(i)
        nx.layers(L, 0)
`
	f := mustParse(t, "tests/test_bfs.py", test)
	f.SetProject(map[string]bool{"graphs": true})
	got := map[string][]string{}
	for _, in := range Harvest(module, "layers", []*File{f}, 0) {
		got[in.Args[0]] = in.Imports
	}
	want := map[string][]string{
		"(lambda _premise_o: (_premise_o.add_edges_from([(0, 1), (1, 2)]), _premise_o)[-1])(nx.Graph())": {"import graphs as nx"},
		"nx.path_graph(4)": {"import graphs as nx"},
		"(lambda _premise_o: (_premise_o.add_edge(5, 6), _premise_o.add_node(7), _premise_o)[-1])(Graph())": {"from graphs import Graph"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("inputs by their graph (-want +got):\n%s", d)
	}

	plain := mustParse(t, "tests/test_bfs.py", test)
	if ins := Harvest(module, "layers", []*File{plain}, 0); len(ins) != 0 {
		t.Errorf("without the project named, inputs %+v: want none, each needs the project's code", ins)
	}
}

// A method's receiver the test fills by its own calls before the one read
// (q = Queue(); q.put(1); q.put(2); q.get()) is the object so filled,
// not a fresh Queue(); the calls after it are not part of it.
func TestHarvestReceiverFilledByTheTest(t *testing.T) {
	module := mustParse(t, "queues.py", "class Queue:\n    def put(self, x):\n        pass\n\n    def get(self):\n        pass\n")
	test := `from queues import Queue

def test_get():
    q = Queue()
    q.put(1)
    q.put(2)
    assert q.get() == 1
    q.put(3)
`
	f := mustParse(t, "tests/test_queues.py", test)
	var got []string
	for _, in := range Harvest(module, "Queue.get", []*File{f}, 0) {
		got = append(got, in.Receiver)
	}
	want := []string{"(lambda _premise_o: (_premise_o.put(1), _premise_o.put(2), _premise_o)[-1])(Queue())"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("receivers (-want +got):\n%s", d)
	}
}

// A test that names the function locally first, by its own name
// (format_meter = tqdm.format_meter, as tqdm's do), calls it through that
// name: each such call is an input, where none was read before.
func TestHarvestCallThroughALocalName(t *testing.T) {
	module := mustParse(t, "meters.py", "class Meter:\n    @staticmethod\n    def format_meter(n, total, elapsed):\n        pass\n\ndef pad(s, n):\n    pass\n")
	test := `from meters import Meter
import meters

def test_format_meter():
    format_meter = Meter.format_meter
    assert format_meter(5, float("inf"), 1) == format_meter(5, None, 1)

def test_pad():
    pad = meters.pad
    assert pad("a", 3) == "a  "
`
	f := mustParse(t, "tests/tests_meters.py", test)
	var got []string
	for _, in := range Harvest(module, "Meter.format_meter", []*File{f}, 0) {
		got = append(got, strings.Join(in.Args, ", "))
	}
	for _, in := range Harvest(module, "pad", []*File{f}, 0) {
		got = append(got, strings.Join(in.Args, ", "))
	}
	want := []string{`5, float("inf"), 1`, "5, None, 1", `"a", 3`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
}

// The values tests build from the standard library as often as from
// literals are inputs with their import: typing's Optional[str], an
// in-memory stream, a compiled pattern.
func TestHarvestStandardValuesTestsBuild(t *testing.T) {
	module := mustParse(t, "types_.py", "def is_generic(tp):\n    pass\n")
	test := `import io
import re
from typing import Optional, List

def test_generic():
    assert is_generic(Optional[str])
    assert is_generic(List[int])
    assert not is_generic(io.StringIO("a\nb"))
    assert not is_generic(re.compile("x+"))
`
	f := mustParse(t, "tests/test_types.py", test)
	var got []string
	for _, in := range Harvest(module, "is_generic", []*File{f}, 0) {
		got = append(got, in.Args[0]+" | "+strings.Join(in.Imports, "; "))
	}
	want := []string{
		"Optional[str] | from typing import Optional",
		"List[int] | from typing import List",
		`io.StringIO("a\nb") | import io`,
		`re.compile("x+") | import re`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
}

// An object the test changes with a mutator (q.append) is built again by
// the calls made on it before the one read, when those statements are all
// that changed it; one also changed inside an expression (first =
// q.pop()) is not the value its statements build, and is no input.
func TestHarvestObjectChangedOnlyByItsStatements(t *testing.T) {
	module := mustParse(t, "deques.py", "class Deque:\n    pass\n\ndef peek(d):\n    pass\n")
	test := `from deques import Deque, peek

def test_after():
    q = Deque()
    q.append(1)
    assert peek(q) == 1
    q.append(2)

def test_popped():
    d = Deque()
    d.append(7)
    first = d.pop()
    assert peek(d) is None
`
	f := mustParse(t, "tests/test_deques.py", test)
	f.SetProject(map[string]bool{"deques": true})
	var got []string
	for _, in := range Harvest(module, "peek", []*File{f}, 0) {
		got = append(got, in.Args[0])
	}
	want := []string{"(lambda _premise_o: (_premise_o.append(1), _premise_o)[-1])(Deque())"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
}

// The objects of a class the tests build and fill by their own
// statements (a segment whose points the test appends, a track holding
// such a segment, a track whose segments' points it fills through their
// items) are objects of that class in
// the state the code meets them in, whatever the test then calls: each is
// one expression, built as the test built it. One filled in a loop is
// not, and one the test only constructs is the construction. The class
// is named as its module names it: the worker builds receivers there.
func TestInstancesTheTestsBuild(t *testing.T) {
	module := mustParse(t, "geo/gpx.py", "class Segment:\n    def __init__(self, points=None):\n        self.points = points or []\n\n    def speed(self, i):\n        pass\n\nclass Track:\n    def __init__(self):\n        self.segments = []\n\nclass Point:\n    def __init__(self, lat, lon, time=None):\n        pass\n")
	test := `import datetime as mod_datetime
import geo.gpx as mod_gpx

class TestBounds:
    def test_time_bounds(self):
        track = mod_gpx.Track()
        segment_1 = mod_gpx.Segment()
        segment_1.points.append(mod_gpx.Point(-12, 13))
        segment_1.points.append(mod_gpx.Point(-100, -5, time=mod_datetime.datetime(2001, 1, 12)))
        track.segments.append(segment_1)
        assert track.bounds()

    def test_nested(self):
        t = mod_gpx.Track()
        t.segments.append(mod_gpx.Segment())
        t.segments[-1].points.append(mod_gpx.Point(1, 2))
        assert t.length()

    def test_loop(self):
        s = mod_gpx.Segment()
        for i in range(3):
            s.points.append(mod_gpx.Point(i, i))
        assert s.length()

    def test_plain(self):
        assert mod_gpx.Segment([mod_gpx.Point(1, 2)]).length()
        empty = mod_gpx.Segment()
        assert empty.length() == 0
`
	f := mustParse(t, "tests/test_gpx.py", test)
	f.SetProject(map[string]bool{"geo": true})
	got := map[string][]string{}
	for _, in := range Instances(module, "Segment", []*File{f}, 0) {
		got[in.Receiver] = in.Imports
	}
	want := map[string][]string{
		`(lambda _premise_o: (_premise_o.points.append(mod_gpx.Point(-12, 13)), _premise_o.points.append(mod_gpx.Point(-100, -5, time=mod_datetime.datetime(2001, 1, 12))), _premise_o)[-1])(Segment())`: {"import datetime as mod_datetime", "import geo.gpx as mod_gpx"},
		"Segment()": nil,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the segments the tests build (-want +got):\n%s", d)
	}
	var tracks []string
	for _, in := range Instances(module, "Track", []*File{f}, 0) {
		tracks = append(tracks, in.Receiver)
	}
	for _, r := range append(tracks, slices.Collect(maps.Keys(got))...) {
		if err := gate.CheckPythonExpr(r); err != nil {
			t.Errorf("the receiver %s is refused before any worker sees it: %v", r, err)
		}
	}
	wantTracks := []string{
		`(lambda _premise_o: (_premise_o.segments.append(mod_gpx.Segment()), _premise_o.segments[-1].points.append(mod_gpx.Point(1, 2)), _premise_o)[-1])(Track())`,
	}
	if len(tracks) != 2 || !strings.Contains(tracks[0], "_premise_o.segments.append((lambda _premise_o: (_premise_o.points.append(mod_gpx.Point(-12, 13))") || tracks[1] != wantTracks[0] {
		t.Errorf("tracks %q: want the track holding the segment as the test filled it, then %q, filled through its items", tracks, wantTracks)
	}
}

// A doctest runs among its module's names: an argument built by a class
// the module imports from the project, by a standard module or by the
// module's own definitions is harvested with the import it takes; a name
// an example binds again is read as the call after it last bound it.
func TestHarvestDoctestReadsTheModulesNames(t *testing.T) {
	src := "import binascii\nfrom pkg.buf import Buf\nLIMIT = 4\n\n\nclass Rec:\n    '''\n" +
		"    >>> raw = binascii.unhexlify(b\"0001\")\n    >>> Rec.parse(Buf(raw), len(raw))\n" +
		"    >>> raw = binascii.unhexlify(b\"02\")\n    >>> Rec.parse(Buf(raw), LIMIT)\n    '''\n\n" +
		"    @classmethod\n    def parse(cls, buf, n):\n        return buf\n"
	f, err := Parse("pkg/rec.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f.SetProject(map[string]bool{"pkg": true})
	f.SetImportPath("pkg.rec")
	var got [][]string
	for _, in := range Harvest(f, "Rec.parse", nil, 10) {
		got = append(got, append(in.Args, in.Imports...))
	}
	want := [][]string{
		{`Buf(binascii.unhexlify(b"0001"))`, `len(binascii.unhexlify(b"0001"))`, "from pkg.buf import Buf", "import binascii"},
		{`Buf(binascii.unhexlify(b"02"))`, "LIMIT", "from pkg.buf import Buf", "from pkg.rec import LIMIT", "import binascii"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("doctest inputs (-want +got):\n%s", diff)
	}
}
