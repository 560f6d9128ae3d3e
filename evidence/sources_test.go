package evidence

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with what the code yields now")

// sourceFixture is a small repository whose head changes one file: the
// rows every source makes for its targets are what sources_test holds.
type sourceFixture struct {
	name       string
	file       string            // the changed file
	base, head string            // its two versions
	others     map[string]string // the rest of the tree, alike on both sides
	traced     map[string][]lang.ModelCall
}

var pythonFixture = sourceFixture{
	name: "python",
	file: "kit/text.py",
	base: `def pad(text, width, fill=" ", *extra, **opts):
    """Pad text to width.

    >>> pad("ab", 4)
    'ab  '
    """
    sep = opts.get("sep", "")
    if len(text) >= width:
        return text
    return text + fill * (width - len(text)) + sep.join(extra)


def span(lo, hi):
    if lo > hi:
        raise ValueError("empty")
    return hi - lo


class Box:
    def __init__(self, items):
        self.items = list(items)

    def first(self, n):
        return self.items[:n]


def units():
    return ["k", "M"]
`,
	head: `def pad(text, width, fill=" ", *extra, **opts):
    """Pad text to width.

    >>> pad("ab", 4)
    'ab  '
    """
    sep = opts.get("sep", "")
    if len(text) > width:
        return text
    return text + fill * (width - len(text)) + sep.join(extra)


def span(lo, hi):
    if lo >= hi:
        raise ValueError("empty")
    return hi - lo


class Box:
    def __init__(self, items):
        self.items = list(items)

    def first(self, n):
        return self.items[:max(n, 1)]


def units():
    return ["k", "M", "G"]
`,
	others: map[string]string{
		"kit/__init__.py": "",
		"tests/test_text.py": `import pytest
from kit.text import pad, span, Box


def test_pad():
    assert pad("x", 3) == "x  "


@pytest.mark.parametrize("text,width", [("a", 2), ("abc", 1)])
def test_pad_table(text, width):
    assert len(pad(text, width)) >= width


def test_first():
    assert Box([1, 2, 3]).first(2) == [1, 2]
`,
	},
	traced: map[string][]lang.ModelCall{"kit.text.span": {{Args: []any{2, 9}}}},
}

var goFixture = sourceFixture{
	name: "go",
	file: "kit/kit.go",
	base: `package kit

// Limit caps Clamp.
var Limit = 10

// Clamp keeps v within lo and Limit.
func Clamp(v, lo int) int {
	if v < lo {
		return lo
	}
	if v > Limit {
		return Limit
	}
	return v
}

// Ring holds items.
type Ring struct{ items []int }

// NewRing makes a ring of n items.
func NewRing(n int) *Ring {
	r := &Ring{}
	for i := 0; i < n; i++ {
		r.items = append(r.items, i)
	}
	return r
}

// Take is the first n items.
func (r *Ring) Take(n int) []int {
	if n > len(r.items) {
		n = len(r.items)
	}
	return r.items[:n]
}

// Units are the unit names.
func Units() []string { return []string{"k"} }
`,
	head: `package kit

// Limit caps Clamp.
var Limit = 10

// Clamp keeps v within lo and Limit.
func Clamp(v, lo int) int {
	if v <= lo {
		return lo
	}
	if v >= Limit {
		return Limit
	}
	return v
}

// Ring holds items.
type Ring struct{ items []int }

// NewRing makes a ring of n items.
func NewRing(n int) *Ring {
	r := &Ring{}
	for i := 0; i < n; i++ {
		r.items = append(r.items, i)
	}
	return r
}

// Take is the first n items.
func (r *Ring) Take(n int) []int {
	if n >= len(r.items) {
		n = len(r.items) - 1
	}
	return r.items[:n]
}

// Units are the unit names.
func Units() []string { return []string{"k", "M"} }
`,
	others: map[string]string{
		"go.mod": "module example.com/fixture\n\ngo 1.22\n",
		"kit/kit_test.go": `package kit

import (
	"fmt"
	"testing"
)

func TestClamp(t *testing.T) {
	if Clamp(4, 1) != 4 {
		t.Fatal("clamp")
	}
	for _, c := range []struct{ v, lo int }{{1, 2}, {5, 0}} {
		_ = Clamp(c.v, c.lo)
	}
}

func TestTake(t *testing.T) {
	if len(NewRing(3).Take(2)) != 2 {
		t.Fatal("take")
	}
}

func FuzzClamp(f *testing.F) {
	f.Add(3, 1)
	f.Fuzz(func(t *testing.T, v, lo int) { _ = Clamp(v, lo) })
}

func ExampleClamp() {
	fmt.Println(Clamp(2, 0))
	// Output: 2
}
`,
		"kit/testdata/fuzz/FuzzClamp/seed1": "go test fuzz v1\nint(7)\nint(2)\n",
	},
}

// fixtureRows builds the fixture's repository, finds its targets and makes
// their rows, with the model answering one call per target; it returns the
// rows each source made, as "symbol(call)" lines in the order they run.
func fixtureRows(t *testing.T, fx sourceFixture) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for rel, text := range fx.others {
		write(rel, text)
	}
	write(fx.file, fx.base)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	write(fx.file, fx.head)
	git("commit", "-q", "-am", "head")
	ctx := context.Background()
	res, err := diffparse.Load(ctx, diffparse.Config{Repo: dir, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	langs := lang.LanguagesFor(dir, dir, DefaultMaxRowsPerFunction, false)
	defer langs.Close()
	targets, skipped := targetsOf(res, langs)
	if len(targets) == 0 {
		t.Fatalf("%s: no targets; skipped %+v", fx.name, skipped)
	}
	b := &budget{perFunction: DefaultMaxRowsPerFunction, total: DefaultMaxRows, rng: rand.New(rand.NewSource(1)), langs: langs, traced: fx.traced}
	b.inputs = func(_ context.Context, q InputsQuestion) ([]lang.ModelCall, error) {
		args := make([]any, len(q.Params))
		for i := range args {
			args[i] = 7
		}
		return []lang.ModelCall{{Args: args}}, nil
	}
	tb, err := buildTables(ctx, targets, nil, b)
	if err != nil {
		t.Fatal(err)
	}
	tables, origins := tb.byLang, tb.origins
	out := map[string][]string{}
	for _, langName := range langs.Names() {
		tb := tables[langName]
		if tb == nil {
			continue
		}
		l := langs[langName]
		for _, r := range tb.Rows {
			o := origins[r.ID]
			args, kwargs := r.CallArgs()
			name := o.Symbol[strings.LastIndexAny(o.Symbol, "./")+1:]
			out[heuristic(o.Source)] = append(out[heuristic(o.Source)], name+l.CallText(args, kwargs))
		}
	}
	return out
}

// maxGoldenRows bounds the rows a golden file keeps per fixture: the first
// ones, which a budget never cuts.
const maxGoldenRows = 12

// TestEverySourceIsNamed holds the sources to their list: every source is
// named once and documented in a line, every row the fixtures make names a
// listed source, and every listed source makes rows on a fixture. What
// each yields is in testdata/sources/<name>.golden (go test -run
// TestEverySourceIsNamed -update rewrites them).
func TestEverySourceIsNamed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	listed := map[string]bool{}
	for _, s := range Sources() {
		switch {
		case s.Name == "" || strings.ContainsAny(s.Name, " -"):
			t.Errorf("source %q: a name is one word_with_underscores", s.Name)
		case listed[s.Name]:
			t.Errorf("source %s is listed twice", s.Name)
		case s.Doc == "" || strings.Contains(s.Doc, "\n"):
			t.Errorf("source %s: its doc is one line", s.Name)
		}
		listed[s.Name] = true
	}
	yields := map[string][]string{}
	for _, fx := range []sourceFixture{pythonFixture, goFixture} {
		for src, rows := range fixtureRows(t, fx) {
			if !listed[src] {
				t.Errorf("%s fixture: rows from %q, which Sources does not list: %s", fx.name, src, rows[0])
			}
			yields[src] = append(yields[src], fmt.Sprintf("# %s fixture: %d rows", fx.name, len(rows)))
			yields[src] = append(yields[src], rows[:min(len(rows), maxGoldenRows)]...)
		}
	}
	// The guide mutates rows that ran: its fixture is one such row.
	ran := validate.Row{ID: "E001", Target: "m.clamp", Args: []any{int64(5), "ab", []any{int64(1), int64(2)}}}
	yields[lang.SourceGuided] = append(yields[lang.SourceGuided], "# a row that ran: m.clamp(5, \"ab\", [1, 2])")
	for _, m := range lang.Mutants(ran) {
		yields[lang.SourceGuided] = append(yields[lang.SourceGuided], lang.CallText(m.CallArgs()))
	}
	// The differential search keeps the calls the two sides answered
	// differently, a call either side ran past its time ("") aside.
	base, head := []string{"0a", "1b", "", "3d", "4e"}, []string{"0a", "ff", "2c", "3d", "ee"}
	yields[lang.SourceDifferential] = append(yields[lang.SourceDifferential],
		fmt.Sprintf("# the same five calls on both sides, digests base %q, head %q", base, head),
		fmt.Sprintf("calls run as rows: %v", differingCalls(head, base, differFound)))
	// A base's test yields no row: a change naming the test, when the
	// base passed it and the head failed it.
	tc := testChange(lang.TestFailure{Test: "TestDecode/leap-day", File: "decode_test.go", Symbols: []string{"example.com/cal.Decode"},
		Head: "decode_test.go:88: got 28, want 29"}, "go", "example.com/cal.Decode")
	yields[lang.SourceBaseTest] = append(yields[lang.SourceBaseTest], "# decode_test.go: TestDecode/leap-day passed on the base, failed on the head",
		fmt.Sprintf("%s: base %s, head %s (call %+v)", tc.Input, tc.Base, tc.Head, *tc.Call))
	// A variant of a base's test yields no row either: a change naming the
	// test and the literal it replaced, when the two sides ended apart.
	vc := testChange(lang.TestFailure{Test: "TestLast::test_last[variant 0]", File: "test_seq.py", Symbols: []string{"seq.last"},
		Variant: "'abc' as ''", Base: "AssertionError at test_seq.py:6", Head: "IndexError: string index out of range"}, "python", "seq.last")
	yields[lang.SourceTestVariant] = append(yields[lang.SourceTestVariant], "# test_seq.py: TestLast::test_last with 'abc' as '': an AssertionError on the base, an IndexError on the head",
		fmt.Sprintf("%s: base %s, head %s (call %+v)", vc.Input, vc.Base, vc.Head, *vc.Call))
	// A row made again without the arguments the base's signature lets a
	// caller leave out and the head's requires.
	arity := lang.Target{Sym: diffparse.Symbol{Kind: "function"},
		Sig:     &lang.Signature{Language: "python", Params: []lang.Param{{Name: "key"}, {Name: "value"}}},
		BaseSig: &lang.Signature{Language: "python", Params: []lang.Param{{Name: "key"}, {Name: "value", Default: "None"}}}}
	yields[lang.SourceBaseArity] = append(yields[lang.SourceBaseArity], "# base: setdefault(key, value=None); head: setdefault(key, value); rows (\"a\", 1), (\"b\", 2)")
	for _, r := range baseArityRows(arity, []validate.Row{{Args: []any{"a", int64(1)}}, {Args: []any{"b", int64(2)}}}, 10) {
		yields[lang.SourceBaseArity] = append(yields[lang.SourceBaseArity], lang.CallText(r.CallArgs()))
	}
	names := make([]string, 0, len(listed))
	for n := range listed {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		got := yields[n]
		if len(got) == 0 {
			t.Errorf("source %s made no row on any fixture: give it one", n)
			continue
		}
		golden := filepath.Join("testdata", "sources", n+".golden")
		text := strings.Join(got, "\n") + "\n"
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (go test -run TestEverySourceIsNamed -update writes it)", golden, err)
			continue
		}
		if string(want) != text {
			t.Errorf("source %s yields other rows than %s:\n--- want\n%s--- got\n%s", n, golden, want, text)
		}
	}
}
