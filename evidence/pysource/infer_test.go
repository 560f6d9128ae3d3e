package pysource

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// strutil is a string-utilities module in the style of untyped libraries,
// with a few annotated functions and every docstring convention.
const strutil = `from typing import Callable, Dict, Iterable, List, Optional, Union, TypeVar
import typing as t

Num = int | float
Pair = tuple[int, int]
T = TypeVar("T")
B = TypeVar("B", bound=str)
DEFAULT_WIDTH = 70
_marker = object()

def typed(a: Optional[int], b: "List[str]", c: Dict[str, int], d: Union[int, str] = 0,
          e: Iterable[T] = (), f: Callable[[int], int] = abs, g: Num = 1, h: t.Sequence[Pair] = (),
          i: B = "", j: int | None = None, k: Widget = None):
    pass

def rest(text, width, strip=True):
    """Wrap text.

    :param str text: the text
    :param width: how wide
    :type width: int or None
    """

def google(items, sep, fill=None):
    """Join items.

    Args:
        items (list of str): what to join.
        sep (str, optional): between items.

    Returns:
        str: joined.
    """

def numpy(values, scale, weights):
    """Scale values.

    Parameters
    ----------
    values : array of float
        The values.
    scale, weights : float
        Factors.

    Returns
    -------
    list
    """

def used(pairs, s, seq, d, fn, it, n, words, total, flag, mixed, opt=None):
    for a, b in pairs:
        pass
    s.lower().split()
    if len(seq) > 2:
        seq[0]
    for k, v in d.items():
        pass
    fn(1)
    first = next(it)
    n = n + 1
    print(', '.join(words))
    sum(total)
    if isinstance(mixed, (str, bytes)):
        pass
    elif isinstance(mixed, int):
        pass
    if opt is None:
        opt = []

def convert(label, s, both):
    if not isinstance(label, (bytes, bytearray)):
        label = label.encode('ascii')
    if not isinstance(s, basestring):
        raise TypeError("Expecting something like a string")
    if not isinstance(s, unicode):
        s = s.decode('utf8')
    if isinstance(both, str):
        both.upper()
    return label.decode('ascii')

def elements(words, rows, nums):
    for w in words:
        if w.startswith('#'):
            continue
    lengths = [len(r) for r in rows]
    for x in nums:
        x = str(x)
        x.split()
    return lengths

def rebinding(iterable, width=DEFAULT_WIDTH, sentinel=_marker):
    iterable = iter(iterable)
    next(iterable)
    return width

def shadowed(x, y):
    f = lambda x: x.split()
    def inner(y):
        return y + 1
    return x, y

def names(n, text, iterable, predicate, unknown):
    pass

def split_iter(src, sep=None, maxsplit=None):
    for piece in src:
        if piece == sep:
            pass
    return range(maxsplit)

def split(src, sep=None, maxsplit=None, key=bool):
    return list(split_iter(src, maxsplit=maxsplit, sep=sep))

def check_text(s):
    if not isinstance(s, str):
        raise TypeError("expected str")

def pairs(choices):
    try:
        return list(choices.items())
    except AttributeError:
        return list(enumerate(choices))

def similar(a, b, c):
    check_text(a)
    check_text(c)
    n = len(a)
    return a[0] and n and split_iter(c) and pairs(b) and [x for x in b]

@overload
def item(value: bool) -> bool: ...
@overload
def item(value: str) -> str: ...
def item(value):
    return value

def set_item(key, value):
    return item(value), item(key)

def set_any(key: Any, value: Any):
    return split_iter(value, key)

def loop_a(x):
    return loop_b(x)

def loop_b(x):
    return loop_a(x)

class Table:
    def __init__(self, rows, *, strict=False):
        self.rows = rows

    def add(self, row, *cells, **opts):
        self.rows.append(row)

    @staticmethod
    def make(width):
        return width * 2.0
`

const strutilStub = `from typing import overload, Iterable

@overload
def names(n: int, text: str) -> str: ...
@overload
def names(n: None, text: bytes) -> bytes: ...

class Table:
    def add(self, row: list[str], *cells: str, **opts: int) -> None: ...
`

func TestInferTypes(t *testing.T) {
	mod := mustParse(t, "strutil.py", strutil)
	stub := mustParse(t, "strutil.pyi", strutilStub)
	cases := []struct {
		name   string
		fn     string
		stub   *File
		want   map[string]string // param -> Guess.String() + " from " + Guess.From
		reason string
	}{{
		name: "annotations",
		fn:   "typed",
		want: map[string]string{
			"a": "int? from annotation", "b": "list[str] from annotation", "c": "dict[str, int] from annotation",
			"d": "int | str from annotation", "e": "iterable[any] from annotation", "f": "callable from annotation",
			"g": "int | float from annotation", "h": "sequence[tuple[int, int]] from annotation",
			"i": "str from annotation", "j": "int? from annotation", "k": "Widget? from annotation",
		},
		reason: "aliases (Num, Pair) and TypeVars (T unbound, B bound to str) resolve; an unknown class stays an object",
	}, {
		name:   "reST",
		fn:     "rest",
		want:   map[string]string{"text": "str from docstring", "width": "int? from docstring", "strip": "bool from default"},
		reason: "`:param str text:` and `:type width: int or None` both count",
	}, {
		name:   "Google",
		fn:     "google",
		want:   map[string]string{"items": "list[str] from docstring", "sep": "str from docstring", "fill": "? from "},
		reason: "fill has only a None default: None alone says nothing of the type",
	}, {
		name:   "NumPy",
		fn:     "numpy",
		want:   map[string]string{"values": "sequence[float] from docstring", "scale": "float from docstring", "weights": "float from docstring"},
		reason: "`scale, weights : float` types both names",
	}, {
		name: "body",
		fn:   "used",
		want: map[string]string{
			"pairs": "iterable[tuple[?, ?]] from body", "s": "str from body", "seq": "sequence from body",
			"d": "dict from body", "fn": "callable from body", "it": "iterator from body", "n": "int from body+name",
			"words": "iterable[str] from body", "total": "iterable[number] from body", "flag": "bool from name",
			"mixed": "str | bytes | int from body", "opt": "? from ",
		},
		reason: "len(seq) and seq[0] make a sequence; n + 1 is a number and the name n makes it an int; isinstance branches make a union; opt = [] after the None test is another value",
	}, {
		name:   "isinstance beside other uses",
		fn:     "convert",
		want:   map[string]string{"label": "bytes | str from body", "s": "str from name", "both": "str from body"},
		reason: "the test is for bytes, and label.encode() converts a str: it takes both; s is tested against Python 2's names, which premise cannot read, so the body says nothing (its name alone says str, which sets no input apart); str's own methods add nothing to isinstance(both, str)",
	}, {
		name:   "elements from loop bodies",
		fn:     "elements",
		want:   map[string]string{"words": "iterable[str] from body", "rows": "iterable[sized] from body", "nums": "iterable[int] from body+name"},
		reason: "w.startswith says the words are str; len(r) in the comprehension says the rows are sized; x is rebound before x.split(), so it says nothing of nums: the loop makes nums an iterable, whose elements its name suggests",
	}, {
		name:   "rebinding and defaults",
		fn:     "rebinding",
		want:   map[string]string{"iterable": "iterable from body", "width": "int from default", "sentinel": "any from default"},
		reason: "next() applies to the rebound iterator, not the parameter; a default naming a module constant reads its literal; an object() sentinel says anything goes",
	}, {
		name:   "shadowed in nested scopes",
		fn:     "shadowed",
		want:   map[string]string{"x": "float from name", "y": "float from name"},
		reason: "the lambda's x and inner's y are other names",
	}, {
		name:   "names",
		fn:     "names",
		want:   map[string]string{"n": "int from name", "text": "str from name", "iterable": "iterable from name", "predicate": "callable from name", "unknown": "? from "},
		reason: "an unknown parameter stays unknown and the others keep their guesses",
	}, {
		name:   "stub overloads",
		fn:     "names",
		stub:   stub,
		want:   map[string]string{"n": "int? from stub", "text": "str | bytes from stub", "iterable": "iterable from name", "predicate": "callable from name", "unknown": "? from "},
		reason: "each overload adds its type to the union",
	}, {
		name: "passed on to another function",
		fn:   "split",
		want: map[string]string{"src": "iterable from call", "sep": "str? from name", "maxsplit": "int? from call", "key": "callable from default"},
		reason: "split hands src and maxsplit to split_iter, whose body says what they are; sep is only compared with, so its name speaks; " +
			"a builtin as default (key=bool) is a function",
	}, {
		name: "narrowed by the function it is passed to",
		fn:   "similar",
		want: map[string]string{"a": "str from call", "b": "iterable from body", "c": "str from call"},
		reason: "the body only sizes and indexes a; check_text, which it is handed to, raises unless it is a str; " +
			"b is handed to pairs, which only tries it as a dict: that narrows nothing; " +
			"c goes to check_text and to split_iter, and the first call that knows wins",
	}, {
		name:   "passed on to an overloaded function",
		fn:     "set_item",
		want:   map[string]string{"key": "callable from name", "value": "? from "},
		reason: "item's overloads take a bool or a str: the first overload is no type of what set_item takes",
	}, {
		name:   "annotated Any",
		fn:     "set_any",
		want:   map[string]string{"key": "any from annotation", "value": "any from annotation"},
		reason: "`value: Any` says anything goes, whatever split_iter does with it",
	}, {
		name:   "mutual recursion",
		fn:     "loop_a",
		want:   map[string]string{"x": "float from name"},
		reason: "following calls stops at a function already being read",
	}, {
		name:   "method without self, keyword-only",
		fn:     "Table.__init__",
		want:   map[string]string{"rows": "? from ", "strict": "bool from default"},
		reason: "self is the receiver, not a parameter",
	}, {
		name:   "stub for a method with *args and **kwargs",
		fn:     "Table.add",
		stub:   stub,
		want:   map[string]string{"row": "list[str] from stub", "*cells": "tuple[str] from stub", "**opts": "dict[int] from stub"},
		reason: "*cells: str is a tuple of str, **opts: int a dict of int",
	}, {
		name:   "static method keeps its first parameter",
		fn:     "Table.make",
		want:   map[string]string{"width": "int from body+name"},
		reason: "width * 2.0 says a number; the name width says which",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gs, err := InferTypes(mod, c.fn, c.stub)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for k, g := range gs {
				got[k] = g.String() + " from " + g.From
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("InferTypes(%s) (-want +got):\n%s\nreason: %s", c.fn, diff, c.reason)
			}
		})
	}
	if _, err := InferTypes(mod, "missing", nil); !errors.Is(err, ErrNoFunction) {
		t.Errorf("InferTypes(missing) = %v, want ErrNoFunction", err)
	}
}

func TestGuessText(t *testing.T) {
	mod := mustParse(t, "strutil.py", strutil)
	gs, err := InferTypes(mod, "used", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gs["seq"].Text, "len(seq), seq[0]"; got != want {
		t.Errorf("Text = %q, want %q: a reviewer sees what the guess was read from", got, want)
	}
}

func TestDocType(t *testing.T) {
	cases := []struct{ in, want string }{
		{"int", "int"},
		{"int, optional", "int"},
		{"str or None", "str?"},
		{"list of int", "list[int]"},
		{"iterable of tuples", "iterable[tuple]"},
		{"List[int]", "list[int]"},
		{"callable", "callable"},
		{"int or float", "number"},
		{"dict, default None", "dict"},
		{"MyClass", "MyClass"},
		{"a thing", "?"},
		{"", "?"},
	}
	for _, c := range cases {
		if got := docType(c.in).String(); got != c.want {
			t.Errorf("docType(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestDeclares: a body of `...` (after a docstring or not, on the def's
// line or the next) only declares; `pass`, a value, or an @overload with
// its implementation do not.
func TestDeclares(t *testing.T) {
	src := `from typing import Protocol, overload


class QueryLike(Protocol):
    def __call__(self, value) -> bool: ...

    def is_cacheable(self) -> bool:
        """Whether the query may be cached."""
        ...  # a comment after it


class Plain:
    def passes(self):
        pass

    def gives(self):
        return ...


@overload
def item(value: int) -> int: ...
@overload
def item(value: str) -> str: ...
def item(value):
    return value
`
	f := mustParse(t, "q.py", src)
	for name, want := range map[string]bool{
		"QueryLike.__call__": true, "QueryLike.is_cacheable": true,
		"Plain.passes": false, "Plain.gives": false, "item": false, "missing": false,
	} {
		if got := f.Declares(name); got != want {
			t.Errorf("Declares(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestInferSelfSubscriptKey: self[key] in a method says nothing of key's
// type (a mapping class takes any key its __getitem__ does), where
// seq[i] makes i an index.
func TestInferSelfSubscriptKey(t *testing.T) {
	src := `class Config(dict):
    def setdefault(self, key, value=None):
        if key not in self:
            self[key] = value
        return self[key]


def nth(seq, i):
    return seq[i]
`
	mod := mustParse(t, "config.py", src)
	gs, err := InferTypes(mod, "Config.setdefault", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := gs["key"]; g.Kind == KindInt {
		t.Errorf("self[key] made key %s from %s, want no type", g.String(), g.From)
	}
	gs, err = InferTypes(mod, "nth", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := gs["i"]; g.Kind != KindInt {
		t.Errorf("seq[i] made i %s from %s, want an int", g.String(), g.From)
	}
}

// A parameter handed to a function the module imports from another of the
// project's modules is typed as that function types it: dnslib's
// RR.set_do(val) hands val to bit.set_bits, which shifts it, and an
// untyped val drew a list first, which raised alike on both sides of every
// receiver's call.
func TestInferThroughAnotherModulesFunction(t *testing.T) {
	bits := mustParse(t, "pkg/bit.py", `def set_bits(data, value, offset, bits=1):
    mask = ((1 << bits) - 1) << offset
    return (data & ~mask) | ((value << offset) & mask)

def label(name):
    return name.lower()
`)
	bits.SetImportPath("pkg.bit")
	util := mustParse(t, "pkg/util/__init__.py", "def clean(text):\n    return text.strip()\n")
	util.SetImportPath("pkg.util")
	read := map[string]*File{"pkg.bit": bits, "pkg.util": util}
	for _, tc := range []struct {
		name, imports string
	}{
		{"absolute", "from pkg.bit import set_bits, label as lbl\nfrom pkg.util import clean\n"},
		{"relative", "from .bit import set_bits, label as lbl\nfrom .util import clean\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod := mustParse(t, "pkg/dns.py", tc.imports+`
class RR:
    def set_do(self, val, name, text):
        self.name = lbl(name)
        self.text = clean(text)
        self.ttl = set_bits(self.ttl, val, 15)
`)
			mod.SetImportPath("pkg.dns")
			var asked []string
			mod.SetModules(func(m string) *File { asked = append(asked, m); return read[m] })
			gs, err := InferTypes(mod, "RR.set_do", nil)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, p := range []string{"val", "name", "text"} {
				got[p] = gs[p].Kind + " from " + gs[p].From
			}
			want := map[string]string{"val": "int from call", "name": "str from call", "text": "str from call"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("types (-want +got):\n%s\nmodules read: %v", diff, asked)
			}
		})
	}
	// Without a way to read the other modules nothing is borrowed.
	mod := mustParse(t, "pkg/dns.py", "from .bit import set_bits\n\ndef f(val):\n    return set_bits(0, val, 1)\n")
	mod.SetImportPath("pkg.dns")
	if gs, _ := InferTypes(mod, "f", nil); gs["val"].Kind == KindInt {
		t.Errorf("val typed %s from %s with no module reader", gs["val"].String(), gs["val"].From)
	}
}

// A shifted value is an int whatever it is shifted by; & and ^ are a
// set's operators too and make an int only beside one.
func TestInferShiftIsAnInt(t *testing.T) {
	mod := mustParse(t, "m.py", `def f(a, b, c, d):
    return (a << b) | (c & d)
`)
	gs, err := InferTypes(mod, "f", nil)
	if err != nil {
		t.Fatal(err)
	}
	if gs["a"].Kind != KindInt {
		t.Errorf("a << b made a %s from %s, want an int", gs["a"].String(), gs["a"].From)
	}
	if gs["c"].Kind == KindInt || gs["d"].Kind == KindInt {
		t.Errorf("c & d made c %s and d %s, want neither an int", gs["c"].String(), gs["d"].String())
	}
}
