package pysource

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// bindingsOf renders what collectBindings records of a scope: "c:a=1" for
// a const, "o:a=[]" for a name bound once and then mutated, "b:a" for a
// name bound any other way; sorted.
func bindingsOf(f *File, ns *names) []string {
	var out []string
	for k, v := range ns.consts {
		out = append(out, "c:"+k+"="+f.text(v))
	}
	for k, v := range ns.objects {
		out = append(out, "o:"+k+"="+f.text(v))
	}
	for k := range ns.bound {
		out = append(out, "b:"+k)
	}
	sort.Strings(out)
	return out
}

// TestCollectBindings pins how each way of binding a name counts: one row
// per binding construct, at module level and in a function.
func TestCollectBindings(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		fn     bool // collect the first def's scope instead of the module's
		want   []string
		reason string
	}{
		{name: "once", src: "a = 1", want: []string{"c:a=1"}},
		{name: "twice", src: "a = 1\na = 2", want: []string{"b:a"}},
		{name: "annotated twice", src: "a = 1\na: int = 2", want: []string{"b:a"}},
		{name: "annotation only", src: "a: int", want: nil, reason: "declared, not bound"},
		{name: "chained", src: "a = b = 1", want: []string{"c:b=1"}, reason: "a is bound to an assignment, not an expression; b to 1"},
		{name: "unpacked once", src: "a, b = 1, 2", want: nil, reason: "bound once by unpacking: neither a const nor rebound"},
		{name: "unpacked twice", src: "a, b = 1, 2\n[a, *b] = [3]", want: []string{"b:a", "b:b"}},
		{name: "item assigned", src: "x = []\nx[0] = 1", want: []string{"b:x", "o:x=[]"}},
		{name: "attribute assigned", src: "x = C()\nx.attr = 1", want: []string{"b:x", "o:x=C()"}},
		{name: "deep attribute", src: "x = C()\nx.y.z = 1", want: []string{"c:x=C()"}, reason: "only x.attr and x[k] count as writing x"},
		{name: "augmented", src: "x = 0\nx += 1", want: []string{"b:x"}, reason: "bound twice: no object either"},
		{name: "augmented item", src: "x = [0]\nx[0] += 1", want: []string{"b:x", "o:x=[0]"}},
		{name: "loop once", src: "for i in range(3):\n    pass", want: nil},
		{name: "loop twice", src: "for i in range(3):\n    pass\nfor i in range(2):\n    pass", want: []string{"b:i"}},
		{name: "loop and const", src: "i = 1\nfor i in range(2):\n    pass", want: []string{"b:i"}},
		{name: "comprehension", src: "i = 1\n[i for i in range(2)]", want: []string{"b:i"}},
		{name: "walrus", src: "n = 1\nif (n := 5):\n    pass", want: []string{"b:n"}},
		{name: "nested def and class", src: "def g():\n    q = 1\nclass K:\n    pass", want: []string{"b:K", "b:g"}, reason: "what a nested scope binds is its own"},
		{name: "lambda", src: "f = lambda: (z := 1)", want: []string{"c:f=lambda: (z := 1)"}},
		{name: "with", src: "with a as w:\n    pass\nw = 1", want: []string{"b:w"}},
		{name: "del", src: "d = 1\ndel d", want: []string{"b:d"}},
		{name: "global", src: "global G\nG = 1", want: []string{"b:G"}},
		{name: "mutator", src: "x = []\nx.append(1)", want: []string{"b:x", "o:x=[]"}},
		{name: "not a mutator", src: "x = [1]\nx.copy()", want: []string{"c:x=[1]"}},
		{name: "next consumes", src: "it = iter(y)\nnext(it)", want: []string{"b:it", "o:it=iter(y)"}},
		{name: "mutated unbound", src: "next(z)\nw.append(1)", want: []string{"b:w", "b:z"}},
		{name: "parameters", src: "def f(a, b=1, *c, **d):\n    e = a", fn: true, want: []string{"b:a", "b:b", "b:c", "b:d", "c:e=a"}},
		{name: "lambda parameters", src: "def f():\n    g = lambda y: y", fn: true, want: []string{"c:g=lambda y: y"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := mustParse(t, "m.py", c.src+"\n")
			scope := f.root
			if c.fn {
				scope = f.defs("f")[0].fn
			}
			ns := &names{f: f, consts: map[string]*sitter.Node{}, bound: map[string]bool{}}
			collectBindings(f, scope, ns)
			if diff := cmp.Diff(c.want, bindingsOf(f, ns)); diff != "" {
				t.Errorf("bindings of %q (-want +got):\n%s\nreason: %s", c.src, diff, c.reason)
			}
		})
	}
}

// TestResolve pins which expressions are literal-ish and how they render
// with local names substituted: the module's last statement is the
// expression, the lines before it the module's names.
func TestResolve(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		want   string // the rendering and its imports; "-" when not literal
		reason string
	}{
		{name: "numbers", src: "[1, 1.5, -2, True, None, ...]", want: "[1, 1.5, -2, True, None, ...]"},
		{name: "strings", src: "('a', b'b', 'c' 'd')", want: "('a', b'b', 'c' 'd')"},
		{name: "f-string", src: "f'{1}'", want: "-", reason: "an interpolation runs code"},
		{name: "plain f-string", src: "f'a'", want: "f'a'"},
		{name: "builtin", src: "len([1])", want: "len([1])"},
		{name: "not a pure builtin", src: "print(1)", want: "-"},
		{name: "unknown name", src: "g(1)", want: "-"},
		{name: "std module", src: "math.pi", want: "math.pi import math"},
		{name: "not a std module", src: "os.sep", want: "-"},
		{name: "aliased import", src: "import math as m\nm.pi", want: "m.pi import math as m"},
		{name: "from import", src: "from itertools import chain\nlist(chain([1], [2]))", want: "list(chain([1], [2])) from itertools import chain"},
		{name: "const", src: "a = [1, 2]\nlen(a)", want: "len([1, 2])"},
		{name: "const parenthesized", src: "a = 1 + 2\n[a]", want: "[(1 + 2)]", reason: "a substituted operation keeps its precedence"},
		{name: "const chain", src: "a = 1\nb = [a, a]\nb", want: "[1, 1]"},
		{name: "const twice", src: "a = [1]\n(a, a)", want: "([1], [1])"},
		{name: "iterator twice", src: "it = iter([1])\nzip(it, it)", want: "-", reason: "one iterator passed twice is not two copies of it"},
		{name: "cycle", src: "a = [a]\na", want: "-"},
		{name: "mutated", src: "a = []\na.append(1)\nlen(a)", want: "-"},
		{name: "shadowed module", src: "math = 3\nmath", want: "3"},
		{name: "row", src: "row + 1", want: "ROW + 1"},
		{name: "row in a const", src: "a = row\n[a]", want: "-", reason: "a row binds names of the scope it is in, not of the module's consts"},
		{name: "lambda", src: "lambda y: y + 1", want: "lambda y: y + 1"},
		{name: "lambda default", src: "lambda y=1: y", want: "lambda y=1: y"},
		{name: "lambda unknown default", src: "lambda y=z: y", want: "-"},
		{name: "lambda default not its own", src: "lambda y, z=y: z", want: "-", reason: "a default is read outside the lambda"},
		{name: "comprehension", src: "[i * 2 for i in range(3) if i]", want: "[i * 2 for i in range(3) if i]"},
		{name: "comprehension unknown", src: "[j for i in range(3)]", want: "-"},
		{name: "comprehension order", src: "[i for i in range(j) for j in range(2)]", want: "-", reason: "a clause sees only the targets before it"},
		{name: "nested clauses", src: "[j for i in [[1]] for j in i]", want: "[j for i in [[1]] for j in i]"},
		{name: "dict comprehension", src: "{k: v for k, v in {}.items()}", want: "{k: v for k, v in {}.items()}"},
		{name: "generator", src: "sum((i for i in range(3)))", want: "sum((i for i in range(3)))"},
		{name: "bare generator argument", src: "sum(i for i in range(3))", want: "-",
			reason: "a generator that is the only argument is the call's arguments node, checked clause by clause without its targets: kept as found"},
		{name: "containers", src: "({'a': 1}, {1, 2}, [1][0], [1][0:1], [*[1]], not True, 1 if True else 2, 1 < 2)", want: "({'a': 1}, {1, 2}, [1][0], [1][0:1], [*[1]], not True, 1 if True else 2, 1 < 2)"},
		{name: "keywords and splats", src: "dict(a=1, **{})", want: "dict(a=1, **{})"},
		{name: "keyword unknown", src: "dict(a=z)", want: "-"},
		{name: "method of a literal", src: "'a,b'.split(',')", want: "'a,b'.split(',')"},
		{name: "attribute of unknown", src: "x.y", want: "-"},
		{name: "await", src: "await g", want: "-"},
		{name: "multi-line", src: "[1,  # one\n 2]", want: "[1, 2]"},
		{name: "deep", src: strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), want: strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)},
		{name: "too deep", src: strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2), want: "-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := mustParse(t, "m.py", c.src+"\n")
			last := f.root.NamedChild(f.root.NamedChildCount() - 1)
			if last.Kind() != "expression_statement" {
				t.Fatalf("last statement of %q is a %s", c.src, last.Kind())
			}
			r := newResolver(f.moduleNames(), map[string]string{"row": "ROW"})
			got := "-"
			if s, ok := r.expr(last.NamedChild(0)); ok {
				got = strings.Join(append([]string{s}, r.imports()...), " ")
			}
			if got != c.want {
				t.Errorf("resolve %q = %q, want %q (%s)", c.src, got, c.want, c.reason)
			}
		})
	}
}
