package pysource

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// factsOf returns what each use of the parameter x says in body, the
// body of `def f(x):`, rendered by factString.
func factsOf(t *testing.T, body string) []string {
	t.Helper()
	src := "def f(x):\n    " + strings.ReplaceAll(body, "\n", "\n    ") + "\n"
	f := mustParse(t, "m.py", src)
	ds := f.defs("f")
	if len(ds) == 0 {
		t.Fatalf("no f in %q", src)
	}
	b := ds[0].fn.ChildByFieldName("body")
	var got []string
	uses(f, b, "x", rebound(f, b, "x"), func(id *sitter.Node) {
		if fa, ok := useFact(f, id, "x"); ok {
			got = append(got, factString(fa))
		}
	})
	return got
}

// factString renders a fact as "kind <- text", the kind as a Guess
// prints it, "!" after it when the fact is an isinstance test and "?"
// when it says None; a call is "call fn at pos" or "call fn kw".
func factString(fa fact) string {
	if fa.call != nil {
		if fa.call.kw != "" {
			return fmt.Sprintf("call %s %s=", fa.call.fn, fa.call.kw)
		}
		return fmt.Sprintf("call %s at %d", fa.call.fn, fa.call.pos)
	}
	g := Guess{Kind: fa.kind, Elem: fa.elem, Parts: fa.parts, Class: fa.class, Nullable: fa.nullable}
	s := g.String()
	if fa.strong {
		s += "!"
	}
	return s + " <- " + fa.text
}

// TestUseFact pins what each construct of a body says of a parameter
// used in it: one row per branch of the reading, so a reorganisation of
// useFact that changes an answer fails here.
func TestUseFact(t *testing.T) {
	cases := []struct {
		name   string
		body   string
		want   []string
		reason string
	}{
		// Methods called on the parameter.
		{name: "str method", body: "x.split(',')", want: []string{"str <- x.split"}},
		{name: "parenthesized", body: "(x).upper()", want: []string{"str <- x.upper"}, reason: "parentheses around the use are looked through"},
		{name: "decode", body: "x.decode()", want: []string{"bytes <- x.decode"}},
		{name: "list method", body: "x.append(1)", want: []string{"list <- x.append"}},
		{name: "dict method", body: "x.items()", want: []string{"dict <- x.items"}},
		{name: "set method", body: "x.add(1)", want: []string{"set <- x.add"}},
		{name: "iterator method", body: "x.send(1)", want: []string{"iterator <- x.send"}},
		{name: "int method", body: "x.bit_length()", want: []string{"int <- x.bit_length"}},
		{name: "is_integer", body: "x.is_integer()", want: []string{"float <- x.is_integer"}},
		{name: "count and index", body: "x.count(1)\nx.index(2)", want: []string{"sequence <- x.count", "sequence <- x.index"}},
		{name: "unknown method", body: "x.frobnicate()", want: nil},
		{name: "called", body: "x(1)", want: []string{"callable <- x(...)"}},

		// The parameter passed to a builtin or a module function.
		{name: "join on a string", body: "', '.join(x)", want: []string{"iterable[str] <- join(x)"}},
		{name: "join on a name", body: "sep.join(x)", want: nil, reason: "the separator may be bytes"},
		{name: "isinstance", body: "isinstance(x, int)", want: []string{"int! <- isinstance(x, int)"}},
		{name: "isinstance tuple", body: "isinstance(x, (str, bytes))", want: []string{"str | bytes! <- isinstance(x, (str, bytes))"}},
		{name: "isinstance class", body: "isinstance(x, Widget)", want: []string{"Widget! <- isinstance(x, Widget)"}},
		{name: "isinstance variable", body: "isinstance(x, base_type)", want: []string{"? <- isinstance(x, base_type)"}, reason: "a lower-case name is a variable holding a type (or Python 2's basestring, aliased): the body branches on a type premise cannot read, an opaque fact, and isinstance is not a module function to follow"},
		{name: "isinstance second", body: "isinstance(y, x)", want: []string{"call isinstance at 1"}},
		{name: "len", body: "len(x)", want: []string{"sized <- len(x)"}},
		{name: "next", body: "next(x)", want: []string{"iterator <- next(x)"}},
		{name: "next default", body: "next(y, x)", want: []string{"call next at 1"}},
		{name: "reversed", body: "reversed(x)", want: []string{"sequence <- reversed(x)"}},
		{name: "ord", body: "ord(x)", want: []string{"str <- ord(x)"}},
		{name: "sum", body: "sum(x)", want: []string{"iterable[number] <- sum(x)"}},
		{name: "fsum qualified", body: "math.fsum(x)", want: []string{"iterable[number] <- fsum(x)"}},
		{name: "dict", body: "dict(x)", want: []string{"iterable <- dict(x)"}},
		{name: "number builtin", body: "abs(x)\nmath.sqrt(x)", want: []string{"number <- abs(x)", "number <- sqrt(x)"}},
		{name: "int positions", body: "range(x)\nrange(0, x)\nislice(y, x)", want: []string{"int <- range(x)", "int <- range(x)", "int <- islice(x)"}},
		{name: "callable positions", body: "map(x, y)\nfunctools.reduce(x, y)", want: []string{"callable <- map(x)", "callable <- reduce(x)"}},
		{name: "iterable positions", body: "map(f, x)\nsorted(x)\nzip(a, x)\nitertools.chain(a, x)", want: []string{"iterable <- map(x)", "iterable <- sorted(x)", "iterable <- zip(x)", "iterable <- chain(x)"}},
		{name: "islice first", body: "islice(x, 3)", want: []string{"iterable <- islice(x)"}, reason: "islice takes the iterable first and ints after it"},
		{name: "min of one", body: "min(x)", want: []string{"iterable <- min(x)"}},
		{name: "min of two", body: "min(x, y)", want: []string{"call min at 0"}},
		{name: "keyword after", body: "min(x, key=abs)", want: []string{"iterable <- min(x)"}, reason: "keywords are not positions"},
		{name: "module function", body: "helper(y, x)", want: []string{"call helper at 1"}},
		{name: "method of an object", body: "obj.method(x)", want: nil},
		{name: "keyword of a module function", body: "helper(k=x)", want: []string{"call helper k="}},
		{name: "keyword of a method", body: "obj.m(k=x)", want: nil},
		{name: "callable keyword", body: "sorted(y, key=x)\nobj.m(callback=x)", want: []string{"callable <- key=x", "callable <- callback=x"}},
		{name: "splat", body: "f(*x)", want: []string{"iterable <- *x"}},
		{name: "double splat", body: "f(**x)", want: []string{"dict <- **x"}},

		// Loops and generators.
		{name: "loop", body: "for y in x:\n    pass", want: []string{"iterable <- for ... in x"}},
		{name: "loop elements", body: "for c in x:\n    c.isdigit()", want: []string{"iterable[str] <- for c in x (c.isdigit)"}},
		{name: "loop unpacking", body: "for a, b in x:\n    pass", want: []string{"iterable[tuple[?, ?]] <- for a, b in x"}},
		{name: "comprehension", body: "[c.upper() for c in x]", want: []string{"iterable[str] <- for c in x (c.upper)"}},
		{name: "loop target", body: "for x in y:\n    pass", want: nil},
		{name: "yield from", body: "yield from x", want: []string{"iterable <- yield from x"}},
		{name: "yield", body: "yield x", want: nil},

		// Indexing.
		{name: "string key", body: "x['k']", want: []string{"dict <- x['k']"}},
		{name: "index", body: "x[0]", want: []string{"sequence <- x[0]"}},
		{name: "as an index", body: "y[x]", want: []string{"int <- y[x]"}},
		{name: "in a slice", body: "y[x:]", want: []string{"int <- [x:]"}},
		{name: "slice plus str", body: "x[1:] + '.'", want: []string{"str <- x[1:] + '.'"}, reason: "a list's slice cannot be added to a str"},
		{name: "slice plus item", body: "x[:j] + x[i]", want: []string{"str <- x[:j] + x[i]", "str <- x[:j] + x[i]"}, reason: "a list's item added to its slice would have to be a list itself; a str's item is a str"},
		{name: "slice or str", body: "t = x[j:] if j < n else ''", want: []string{"str <- x[j:] if j < n else ''"}, reason: "a slice chosen in a str's stead is a str"},
		{name: "item plus str", body: "x[0] + '.'", want: []string{"sequence <- x[0]"}, reason: "a list of str's item is a str too"},
		{name: "slices added", body: "x[:i] + x[i+1:]", want: []string{"sequence <- x[:i]", "sequence <- x[i+1:]"}, reason: "a list's slices add up as well as a str's"},

		// Operators.
		{name: "invert", body: "~x", want: []string{"int <- ~x"}},
		{name: "negate", body: "-x", want: []string{"number <- -x"}},
		{name: "plus sign", body: "+x", want: []string{"number <- +x"}},
		{name: "not", body: "not x", want: nil},
		{name: "plus int", body: "x + 1", want: []string{"number <- x + 1"}},
		{name: "plus float left", body: "1.5 + x", want: []string{"number <- 1.5 + x"}},
		{name: "plus str", body: "x + 'a'", want: []string{"str <- x + 'a'"}},
		{name: "plus list", body: "x + [1]", want: []string{"list <- x + [1]"}},
		{name: "plus tuple", body: "x + (1,)", want: []string{"tuple <- x + (1,)"}},
		{name: "plus bytes", body: "x + b'a'", want: []string{"bytes <- x + b'a'"}},
		{name: "plus unknown", body: "x + y", want: nil},
		{name: "arithmetic", body: "x - y\nx / 2\nx // 2\nx ** 2", want: []string{"number <- x - y", "number <- x / 2", "number <- x // 2", "number <- x ** 2"}},
		{name: "times float", body: "x * 2.0", want: []string{"number <- x * 2.0"}},
		{name: "times int", body: "x * 2", want: nil, reason: "a list or a str times an int is one too"},
		{name: "modulo", body: "x % 2", want: []string{"number <- x % 2"}},
		{name: "format tuple", body: "x % (1, 2)", want: []string{"str <- x % (1, 2)"}},
		{name: "format dict", body: "x % {'a': 1}", want: []string{"str <- x % {'a': 1}"}},
		{name: "formatted", body: "'%s' % x", want: nil},
		{name: "shift", body: "x << 1\nx & y", want: []string{"int <- x << 1"}},
		{name: "augmented", body: "x += 1", want: []string{"number <- x += 1"}},
		{name: "augmented or", body: "x |= 1", want: nil},

		// Comparisons.
		{name: "is None", body: "x is None", want: []string{"?? <- x is None"}, reason: "a fact of no kind that says None: ? then the nullable mark"},
		{name: "is not None", body: "if x is not None:\n    pass", want: []string{"?? <- x is not None"}},
		{name: "equal int", body: "x == 1", want: []string{"number <- x == 1"}},
		{name: "less float", body: "x < 1.5", want: []string{"number <- x < 1.5"}},
		{name: "equal str", body: "x == 'a'", want: []string{"str <- x == 'a'"}},
		{name: "contains", body: "'a' in x", want: []string{"iterable <- 'a' in x"}},
		{name: "in a str", body: "x in 'abc'", want: []string{"str <- x in 'abc'"}},
		{name: "in a name", body: "x in y", want: nil},
		{name: "equal name", body: "x == y", want: nil},
		{name: "chained", body: "0 < x < 10", want: []string{"number <- 0 < x < 10"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := factsOf(t, c.body)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("facts of x in %q (-want +got):\n%s\nreason: %s", c.body, diff, c.reason)
			}
		})
	}
}
