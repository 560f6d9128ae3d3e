package pysource

import (
	"strings"
	"testing"
)

// TestTypeExpr pins how a type written as a Python expression reads:
// one row per family of names and per special form, so that a
// reorganisation of typeExpr that changes an answer fails here.
func TestTypeExpr(t *testing.T) {
	aliases := map[string]string{"Num": "int | float", "Pair": "tuple[int, int]", "A": "B", "B": "A", "Opt": "Optional[str]"}
	cases := []struct {
		in, want string // want: Guess.String(), then "class C" for an object
		reason   string
	}{
		{in: "", want: "?"},
		{in: "'int'", want: "int", reason: "a forward reference"},
		{in: `"List[str]"`, want: "list[str]"},
		{in: "((int))", want: "int"},
		{in: "(int, str)", want: "?", reason: "a tuple of types is no type"},
		{in: "int | None", want: "int?"},
		{in: "int | Foo[", want: "?", reason: "one unknown member: the union is not known"},
		{in: "Optional[int]", want: "int?"},
		{in: "typing.Optional[List[int]]", want: "list[int]?"},
		{in: "Optional[None]", want: "none", reason: "None stays None, not a nullable None"},
		{in: "Union[int, str, None]", want: "int | str?"},
		{in: "Union[int, 1x]", want: "?"},
		{in: "Annotated[int, 'meta']", want: "int"},
		{in: "ClassVar[str]", want: "str"},
		{in: "Final", want: "?", reason: "a qualifier with nothing in it names no type"},
		{in: "SupportsIndex", want: "int"},
		{in: "numbers.Integral", want: "int"},
		{in: "Real", want: "float"},
		{in: "decimal.Decimal", want: "number"},
		{in: "complex", want: "number"},
		{in: "Text", want: "str"},
		{in: "AnyStr", want: "str"},
		{in: "bytearray", want: "bytes"},
		{in: "bool", want: "bool"},
		{in: "NoneType", want: "none"},
		{in: "List[int]", want: "list[int]"},
		{in: "list", want: "list"},
		{in: "list[1x]", want: "list", reason: "an unknown element is left out"},
		{in: "MutableSequence[str]", want: "list[str]"},
		{in: "Sequence[str]", want: "sequence[str]"},
		{in: "Reversible[int]", want: "sequence[int]"},
		{in: "Iterable[int]", want: "iterable[int]"},
		{in: "Container[str]", want: "iterable[str]"},
		{in: "Generator[int, None, None]", want: "iterator[int]"},
		{in: "AsyncIterator[str]", want: "iterator[str]"},
		{in: "frozenset[int]", want: "set[int]"},
		{in: "KeysView[str]", want: "set[str]"},
		{in: "dict[str, int]", want: "dict[str, int]"},
		{in: "Dict", want: "dict"},
		{in: "dict[int]", want: "dict", reason: "one parameter is not a key and a value"},
		{in: "Mapping[1x, int]", want: "dict[int]", reason: "an unknown key keeps the value"},
		{in: "DefaultDict[str, 1x]", want: "dict", reason: "an unknown value drops the key too"},
		{in: "OrderedDict[str, list[int]]", want: "dict[str, list[int]]"},
		{in: "Counter[str]", want: "dict[str, int]", reason: "a Counter counts: its values are ints"},
		{in: "collections.Counter", want: "dict[int]"},
		{in: "Counter[1x]", want: "dict[int]"},
		{in: "tuple[int, ...]", want: "tuple[int]"},
		{in: "Tuple[int, str]", want: "tuple[int, str]"},
		{in: "tuple[int, 1x]", want: "tuple[int, ?]"},
		{in: "tuple[()]", want: "tuple", reason: "the empty tuple"},
		{in: "tuple", want: "tuple"},
		{in: "Callable[[int], int]", want: "callable"},
		{in: "callable", want: "callable"},
		{in: "Sized", want: "sized"},
		{in: "Any", want: "any"},
		{in: "object", want: "any"},
		{in: "Hashable", want: "any"},
		{in: "Literal['a', 'b']", want: "str"},
		{in: "Literal[1, 'a', None]", want: "int | str?"},
		{in: "Literal[b'x', True, 1.5]", want: "bytes | bool | float"},
		{in: "Literal[x]", want: "?"},
		{in: "Type[int]", want: "type class type"},
		{in: "type", want: "type class type"},
		{in: "Num", want: "int | float", reason: "an alias reads its right-hand side"},
		{in: "Pair", want: "tuple[int, int]"},
		{in: "Opt", want: "str?"},
		{in: "A", want: "A class A", reason: "an alias cycle stops: each alias is used once on a path"},
		{in: "list[Num]", want: "list[int | float]"},
		{in: "typing.Protocol", want: "?", reason: "a typing name not known here names no type"},
		{in: "collections.abc.Buffer", want: "?"},
		{in: "datetime.date", want: "datetime.date class datetime.date"},
		{in: "Widget[int]", want: "Widget class Widget", reason: "a generic class is its class"},
		{in: "1abc", want: "?"},
		{in: "List[int", want: "?"},
		{in: "a..b", want: "?"},
	}
	for _, c := range cases {
		g := typeExpr(c.in, aliases, 0)
		got := g.String()
		if g.Class != "" {
			got += " class " + g.Class
		}
		if got != c.want {
			t.Errorf("typeExpr(%q) = %s, want %s (%s)", c.in, got, c.want, c.reason)
		}
	}
	deep := strings.Repeat("list[", 30) + "int" + strings.Repeat("]", 30)
	if got := typeExpr(deep, nil, 0).String(); strings.Count(got, "list") != maxTypeDepth+1 {
		t.Errorf("typeExpr(30 nested lists) = %s, want the nesting cut at depth %d", got, maxTypeDepth)
	}
}
