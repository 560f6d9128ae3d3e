package propose

import (
	"context"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// TestIssue15Rules holds the static rules to issue 15: guards the patch
// added are the new preconditions they are, changed checks are said the
// right way round, comma-ok is not an error, a line the base had is not
// new, tests get nothing, and inline comments suppress a rule.
func TestIssue15Rules(t *testing.T) {
	const mod = "package m\n\n"
	runRuleCases(t, []ruleCase{
		// Added guards, Python.
		{rule: "py-added-assert", name: "assert", path: "m.py",
			base: "def chunks(xs, chunksize):\n    return [xs[i:i + chunksize] for i in range(0, len(xs), chunksize)]\n",
			head: "def chunks(xs, chunksize):\n    assert chunksize > 1\n    return [xs[i:i + chunksize] for i in range(0, len(xs), chunksize)]\n",
			want: "`chunksize > 1` (the patch now asserts it)", evidence: "assert chunksize > 1"},
		{rule: "py-added-raise", name: "raise under an if", path: "m.py",
			base: "def take(xs, n):\n    return xs[:n]\n",
			head: "def take(xs, n):\n    if n < 0:\n        raise ValueError(\"n must be >= 0\")\n    return xs[:n]\n",
			want: "`n >= 0` (other inputs now raise ValueError)", evidence: "if n < 0:"},
		{rule: "py-added-raise", name: "or of checks negated", path: "m.py",
			base: "def port(p):\n    return p\n",
			head: "def port(p):\n    if p < 1 or p > 65535:\n        raise ValueError(p)\n    return p\n",
			want: "`p >= 1 and p <= 65535`", evidence: "if p < 1 or p > 65535:"},
		{rule: "py-added-raise", name: "comprehension inside a check", path: "m.py",
			base: "def opts(xs):\n    return xs\n",
			head: "def opts(xs):\n    if any([not isinstance(x, int) for x in xs]):\n        raise TypeError(xs)\n    return xs\n",
			want: "`not any([not isinstance(x, int) for x in xs])` (other inputs now raise TypeError)", evidence: "if any([not isinstance(x, int) for x in xs]):"},
		{rule: "py-added-raise", name: "check on each element", path: "m.py",
			base: "def names(xs):\n    return list(xs)\n",
			head: "def names(xs):\n    for x in xs:\n        if not x.isidentifier():\n            raise InvalidName(x)\n    return list(xs)\n",
			want: "`x.isidentifier()` for every `x` in `xs` (other inputs now raise InvalidName)", evidence: "if not x.isidentifier():"},
		{rule: "py-added-raise", name: "condition already in the base", path: "m.py",
			base:   "def take(xs, n):\n    if n < 0:\n        raise ValueError(\"bad\")\n    return xs[:n]\n",
			head:   "def take(xs, n):\n    if n < 0:\n        raise ValueError(\"n must be >= 0\")\n    return xs[:n]\n",
			reason: "only the message changed: the check is not new (issue 15)"},
		{rule: "py-added-raise", name: "condition re-indented", path: "m.py",
			base:   "def take(xs, n):\n    if n < 0:\n        raise ValueError(\"bad\")\n    return xs[:n]\n",
			head:   "def take(xs, n):\n    if xs:\n        if n < 0:\n            raise ValueError(\"bad\")\n    return xs[:n]\n",
			reason: "the diff shows the if as added, but the base had it"},
		{rule: "py-added-raise", name: "check of a local", path: "m.py",
			base:   "def load(path):\n    return open(path).read()\n",
			head:   "def load(path):\n    data = open(path).read()\n    if not data:\n        raise ValueError(\"empty\")\n    return data\n",
			reason: "data is computed, not passed in"},
		{rule: "py-added-raise", name: "not implemented", path: "m.py",
			base:   "def area(shape):\n    return 0\n",
			head:   "def area(shape):\n    if shape.kind == \"blob\":\n        raise NotImplementedError\n    return 0\n",
			reason: "NotImplementedError marks unfinished code, not a precondition"},
		{rule: "py-added-raise", name: "suppression the patch adds", path: "m.py",
			base: "def take(xs, n):\n    return xs[:n]\n",
			head: "def take(xs, n):\n    if n < 0:  # premise: ignore[py-added-raise]\n        raise ValueError(\"n must be >= 0\")\n    return xs[:n]\n",
			want: "`n >= 0` (other inputs now raise ValueError)", evidence: "if n < 0:  # premise: ignore[py-added-raise]",
			reason: "issue 26: a suppression the patch adds is a finding, never obeyed"},
		{rule: "py-added-raise", name: "suppression the merge-base had", path: "m.py",
			base:   "def take(xs, n):\n    # premise: ignore[py-added-raise]\n    return xs[:n]\n",
			head:   "def take(xs, n):\n    # premise: ignore[py-added-raise]\n    if n < 0:\n        raise ValueError(\"n must be >= 0\")\n    return xs[:n]\n",
			reason: "the repository's own suppression, on the line above, is policy from the merge-base"},

		// Added guards, Go.
		{rule: "go-added-guard", name: "error return", path: "m.go",
			base: mod + "func Take(xs []int, n int) ([]int, error) {\n\treturn xs[:n], nil\n}\n",
			head: mod + "import \"fmt\"\n\nfunc Take(xs []int, n int) ([]int, error) {\n\tif n < 0 {\n\t\treturn nil, fmt.Errorf(\"negative n %d\", n)\n\t}\n\treturn xs[:n], nil\n}\n",
			want: "`n >= 0` (other inputs now get an error)", evidence: "if n < 0 {"},
		{rule: "go-added-guard", name: "panic", path: "m.go",
			base: mod + "func Ring(size int) []int {\n\treturn make([]int, size)\n}\n",
			head: mod + "func Ring(size int) []int {\n\tif size <= 0 || size > 1024 {\n\t\tpanic(\"bad size\")\n\t}\n\treturn make([]int, size)\n}\n",
			want: "`size > 0 && size <= 1024` (other inputs now panic)", evidence: "if size <= 0 || size > 1024 {"},
		{rule: "go-added-guard", name: "sentinel error", path: "m.go",
			base: mod + "import \"errors\"\n\nvar ErrEmpty = errors.New(\"empty\")\n\nfunc First(xs []int) (int, error) {\n\treturn xs[0], nil\n}\n",
			head: mod + "import \"errors\"\n\nvar ErrEmpty = errors.New(\"empty\")\n\nfunc First(xs []int) (int, error) {\n\tif len(xs) == 0 {\n\t\treturn 0, ErrEmpty\n\t}\n\treturn xs[0], nil\n}\n",
			want: "`len(xs) != 0` (other inputs now get an error)", evidence: "if len(xs) == 0 {"},
		{rule: "go-added-guard", name: "error propagated", path: "m.go",
			base:   mod + "import \"os\"\n\nfunc Read(p string) []byte {\n\tb, _ := os.ReadFile(p)\n\treturn b\n}\n",
			head:   mod + "import (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc Read(p string) ([]byte, error) {\n\tb, err := os.ReadFile(p)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"read %s: %w\", p, err)\n\t}\n\treturn b, nil\n}\n",
			reason: "err != nil passes a failure on; it is not a check of the input"},
		{rule: "go-added-guard", name: "rewrite of a removed check", path: "m.go",
			base:   mod + "import \"errors\"\n\nfunc Take(xs []int, n int) ([]int, error) {\n\tif n < 0 {\n\t\treturn nil, errors.New(\"bad\")\n\t}\n\treturn xs[:n], nil\n}\n",
			head:   mod + "import \"errors\"\n\nfunc Take(xs []int, n int) ([]int, error) {\n\tif n <= 0 {\n\t\treturn nil, errors.New(\"bad\")\n\t}\n\treturn xs[:n], nil\n}\n",
			reason: "go-narrowed-check says what changed"},
		{rule: "go-added-guard", name: "suppression the patch adds on the line above", path: "m.go",
			base: mod + "func Ring(size int) []int {\n\treturn make([]int, size)\n}\n",
			head: mod + "func Ring(size int) []int {\n\t//premise:ignore go-added-guard\n\tif size <= 0 {\n\t\tpanic(\"bad size\")\n\t}\n\treturn make([]int, size)\n}\n",
			want: "`size > 0` (other inputs now panic)", evidence: "if size <= 0 {",
			reason: "issue 26: a suppression the patch adds is a finding, never obeyed"},
		{rule: "go-added-guard", name: "suppression the merge-base had on the line above", path: "m.go",
			base:   mod + "func Ring(size int) []int {\n\t//premise:ignore go-added-guard\n\treturn make([]int, size)\n}\n",
			head:   mod + "func Ring(size int) []int {\n\t//premise:ignore go-added-guard\n\tif size <= 0 {\n\t\tpanic(\"bad size\")\n\t}\n\treturn make([]int, size)\n}\n",
			reason: "the repository's own suppression is policy from the merge-base"},
		{rule: "go-added-guard", name: "suppression of another rule", path: "m.go",
			base: mod + "func Ring(size int) []int {\n\treturn make([]int, size)\n}\n",
			head: mod + "func Ring(size int) []int {\n\tif size <= 0 { //premise:ignore go-index-non-empty\n\t\tpanic(\"bad size\")\n\t}\n\treturn make([]int, size)\n}\n",
			want: "`size > 0` (other inputs now panic)", evidence: "if size <= 0 { //premise:ignore go-index-non-empty",
			reason: "the comment names another rule"},

		// Changed checks said the right way round.
		{rule: "go-narrowed-check", name: "widened", path: "m.go",
			base: mod + "import \"errors\"\n\nfunc Take(xs []int, n int) ([]int, error) {\n\tif n < 0 {\n\t\treturn nil, errors.New(\"bad\")\n\t}\n\treturn xs[:n], nil\n}\n",
			head: mod + "import \"errors\"\n\nfunc Take(xs []int, n int) ([]int, error) {\n\tif n <= 0 {\n\t\treturn nil, errors.New(\"bad\")\n\t}\n\treturn xs[:n], nil\n}\n",
			want: "`n == 0` is now refused", evidence: "if n <= 0 {",
			reason: "issue 15: no input holds n < 0 but not n <= 0; zero changed side"},
		{rule: "go-narrowed-check", name: "conjunct added", path: "m.go",
			base: mod + "func Sort(f func(), ok bool) {\n\tif !isLess(f) || !ok {\n\t\tpanic(\"bad\")\n\t}\n}\n",
			head: mod + "func Sort(f func(), ok bool) {\n\tif (!isLess(f) && !isCompare(f)) || !ok {\n\t\tpanic(\"bad\")\n\t}\n}\n",
			want: "inputs where `!isLess(f)` and `isCompare(f)`, which the base refused, are now accepted", evidence: "if (!isLess(f) && !isCompare(f)) || !ok {"},
		{rule: "py-narrowed-check", name: "widened", path: "m.py",
			base: "def take(xs, n):\n    if n < 0:\n        raise ValueError(n)\n    return xs[:n]\n",
			head: "def take(xs, n):\n    if n <= 0:\n        raise ValueError(n)\n    return xs[:n]\n",
			want: "`n == 0` is now refused", evidence: "if n <= 0:"},
		{rule: "py-narrowed-check", name: "narrowed", path: "m.py",
			base: "def take(xs, n):\n    if n <= 0:\n        raise ValueError(n)\n    return xs[:n]\n",
			head: "def take(xs, n):\n    if n < 0:\n        raise ValueError(n)\n    return xs[:n]\n",
			want: "`n == 0`, which the base refused, is now accepted", evidence: "if n < 0:"},
		{rule: "py-narrowed-check", name: "disjunct added", path: "m.py",
			base: "def port(p):\n    if p < 1:\n        raise ValueError(p)\n    return p\n",
			head: "def port(p):\n    if p < 1 or p > 65535:\n        raise ValueError(p)\n    return p\n",
			want: "inputs where `p > 65535` are now refused", evidence: "if p < 1 or p > 65535:"},
		{rule: "py-narrowed-check", name: "attributes of self are different names", path: "m.py",
			base:   "class O:\n    def check(self):\n        if self.count:\n            raise TypeError(\"x\")\n",
			head:   "class O:\n    def check(self):\n        if self.nargs == -1:\n            raise TypeError(\"x\")\n",
			reason: "self.count and self.nargs share only self"},
		{rule: "py-boundary-moved", name: "no demo wording", path: "m.py",
			base: "def cut(xs, limit):\n    return [x for x in xs if x < limit]\n",
			head: "def cut(xs, limit):\n    return [x for x in xs if x <= limit]\n",
			want: "values where `x` == `limit` now take the other branch (`<` became `<=`)", evidence: "return [x for x in xs if x <= limit]"},
		{rule: "go-boundary-moved", name: "a refusing check is the changed-check rule's", path: "m.go",
			base:   mod + "import \"errors\"\n\nfunc Take(n int) error {\n\tif n < 0 {\n\t\treturn errors.New(\"bad\")\n\t}\n\treturn nil\n}\n",
			head:   mod + "import \"errors\"\n\nfunc Take(n int) error {\n\tif n <= 0 {\n\t\treturn errors.New(\"bad\")\n\t}\n\treturn nil\n}\n",
			reason: "one row per change: go-narrowed-check says n == 0 is now refused"},
		{rule: "py-removed-raise", name: "re-raise with a pragma", path: "m.py",
			base:   "def f(x):\n    try:\n        return g(x)\n    except KeyError:\n        raise  # pragma: no cover\n",
			head:   "def f(x):\n    return g(x)\n",
			reason: "a bare raise refuses nothing; the comment is not an exception"},
		{rule: "py-removed-raise", name: "same message, another class", path: "m.py",
			base:   "def color(c):\n    if c not in COLORS:\n        raise TypeError(\"unknown color\")\n    return c\n",
			head:   "def color(c):\n    if c not in COLORS:\n        raise ValueError(\"unknown color\")\n    return c\n",
			reason: "the refusal stayed; only its class changed"},

		{rule: "py-removed-raise", name: "refusal moved to a helper under another class", path: "m.py",
			base:   "def style(fg):\n    if fg not in COLORS:\n        raise TypeError(\"Unknown color {fg!r}\")\n    return fg\n",
			head:   "def _color(c):\n    if c in COLORS:\n        return c\n    raise ValueError(\"Unknown color {fg!r}\")\n\n\ndef style(fg):\n    return _color(fg)\n",
			reason: "the message is still raised, by the helper"},
		{rule: "go-removed-error-return", name: "error path reshaped", path: "m.go",
			base:   mod + "type L struct{ atEOF bool }\n\nfunc (lx *L) fail(err error) error {\n\tif lx.atEOF {\n\t\treturn lx.prev(err)\n\t}\n\treturn lx.wrap(err)\n}\n",
			head:   mod + "type L struct{ atEOF bool }\n\nfunc (lx *L) fail(err error) error {\n\treturn lx.wrap(err)\n}\n",
			reason: "both paths return the error; the input is still refused"},

		{rule: "py-removed-raise", name: "message reworded", path: "m.py",
			base:   "class F:\n    def get(self, v):\n        if v is None:\n            raise self._invalid(\"{field} is required\")\n        return v\n",
			head:   "class F:\n    def get(self, v):\n        if v is None:\n            raise self._invalid(f\"{self.name!r} is required\")\n        return v\n",
			reason: "the same exception is raised with a new message"},
		{rule: "go-index-non-empty", name: "array parameter", path: "m.go",
			head:   mod + "func Left(pp [2]int) int {\n\treturn pp[0]\n}\n",
			reason: "an array of two always has a first element"},
		{rule: "go-index-non-empty", name: "appended to first", path: "m.go",
			head:   mod + "func Trim(b []byte) []byte {\n\tb = append(b, ' ')\n\tif b[len(b)-1] == ' ' {\n\t\tb = b[:len(b)-1]\n\t}\n\treturn b\n}\n",
			reason: "b is not the caller's any more: the function appended to it"},

		{rule: "go-deref-non-nil", name: "unexported function", path: "m.go",
			head:   mod + "type node struct{ n int }\n\nfunc count(v *node) int {\n\treturn v.n\n}\n",
			reason: "the package passes its own pointers; only API callers can pass nil by mistake"},
		{rule: "go-deref-non-nil", name: "exported method of an unexported type", path: "m.go",
			head:   mod + "type node struct{ n int }\ntype opts struct{}\n\nfunc (o opts) Count(v *node) int {\n\treturn v.n\n}\n",
			reason: "not reachable from outside the package"},
		{rule: "py-attribute-not-none", name: "private function", path: "m.py",
			head:   "def _name(user):\n    return user.name\n",
			reason: "the module's own callers"},

		// go-error-discarded and comma-ok.
		{rule: "go-error-discarded", name: "comma-ok of LookupEnv", path: "m.go",
			head:   mod + "import \"os\"\n\nfunc Home() string {\n\th, _ := os.LookupEnv(\"HOME\")\n\treturn h\n}\n",
			reason: "the discarded result is a bool (issue 15)"},
		{rule: "go-error-discarded", name: "comma-ok of a method", path: "m.go",
			head:   mod + "import \"sync\"\n\nfunc Get(m *sync.Map, k string) any {\n\tv, _ := m.Load(k)\n\treturn v\n}\n",
			reason: "sync.Map.Load returns (any, bool)"},
		{rule: "go-error-discarded", name: "local func returning bool", path: "m.go",
			head:   mod + "func find(xs []int, x int) (int, bool) { return 0, false }\n\nfunc Index(xs []int, x int) int {\n\ti, _ := find(xs, x)\n\treturn i\n}\n",
			reason: "find is declared in the file with a bool last"},
		{rule: "go-error-discarded", name: "local func returning error", path: "m.go",
			head: mod + "func load(p string) ([]byte, error) { return nil, nil }\n\nfunc Must(p string) []byte {\n\tb, _ := load(p)\n\treturn b\n}\n",
			want: "`load` does not fail on these inputs", evidence: "b, _ := load(p)"},

		// A line the base already had is not new.
		{rule: "py-attribute-not-none", name: "line moved under an if", path: "m.py",
			base:   "def name(user, flag):\n    return user.name\n",
			head:   "def name(user, flag):\n    if flag:\n        return user.name\n    return \"\"\n",
			reason: "return user.name was in the base; re-indenting it assumes nothing new"},
		{rule: "py-index-non-empty", name: "suppression the patch adds inline", path: "m.py",
			head: "def first(xs):\n    return xs[0]  # premise: ignore[py-index-non-empty]\n",
			want: "`xs` is non-empty", evidence: "return xs[0]  # premise: ignore[py-index-non-empty]",
			reason: "issue 26: a suppression the patch adds is a finding, never obeyed"},
		{rule: "py-index-non-empty", name: "suppression of every rule the merge-base had", path: "m.py",
			base:   "def first(xs):\n    # premise: ignore\n    return None\n",
			head:   "def first(xs):\n    # premise: ignore\n    return xs[0]\n",
			reason: "no rule named: every rule, from the merge-base"},

		{rule: "go-deref-non-nil", name: "base already dereferenced it", path: "m.go",
			base:   mod + "type L struct{ esc bool }\n\nfunc Lex(lx *L) bool {\n\treturn lx.esc\n}\n",
			head:   mod + "type L struct{ esc bool }\n\nfunc Lex(lx *L) bool {\n\tif lx.esc {\n\t\treturn true\n\t}\n\treturn false\n}\n",
			reason: "the base assumed lx non-nil already; the patch adds nothing"},
		{rule: "py-attribute-not-none", name: "base already used it", path: "m.py",
			base:   "def name(user):\n    return user.name\n",
			head:   "def name(user):\n    return user.name.strip()\n",
			reason: "user.name was read in the base"},
		{rule: "go-map-unique-keys", name: "loop index", path: "m.go",
			head:   mod + "func Trim(lines []string) []string {\n\tout := lines\n\tfor i := 0; i < len(lines); i++ {\n\t\tout[i] = lines[i][1:]\n\t}\n\treturn out\n}\n",
			reason: "an index of the loop repeats nothing"},
		{rule: "go-map-unique-keys", name: "set", path: "m.go",
			head:   mod + "func Set(xs []string) map[string]bool {\n\tm := map[string]bool{}\n\tfor _, x := range xs {\n\t\tm[x] = true\n\t}\n\treturn m\n}\n",
			reason: "a repeated key in a set loses nothing"},
		{rule: "py-none-as-empty", name: "None is the default", path: "m.py",
			head:   "class C:\n    def __init__(self, params=None):\n        self.params = params or []\n",
			reason: "a None default means not given: empty is the point"},
		{rule: "py-added-raise", name: "and negated", path: "m.py",
			base: "def tags(limit=None):\n    return []\n",
			head: "def tags(limit=None):\n    if limit is not None and limit < 0:\n        raise ValueError(limit)\n    return []\n",
			want: "`limit is None or limit >= 0` (other inputs now raise ValueError)", evidence: "if limit is not None and limit < 0:"},
		{rule: "go-narrowed-check", name: "error propagation", path: "m.go",
			base:   mod + "func Enc(f func() error) error {\n\tif err := f(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
			head:   mod + "func Enc(f func() error) error {\n\terr := f()\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
			reason: "err != nil checks no input"},

		// Tests and benchmarks get nothing.
		{rule: "go-deref-non-nil", name: "benchmark file", path: "lo_test.go",
			head:   mod + "import \"testing\"\n\nfunc BenchmarkMap(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t}\n}\n",
			reason: "issue 15: 251 rows of \"`b` is not nil\" on a perf commit"},
		{rule: "py-attribute-not-none", name: "pytest file", path: "tests/test_x.py",
			head:   "def test_pager(monkeypatch):\n    monkeypatch.setattr(x, \"y\", 1)\n",
			reason: "fixtures are never None"},
		{rule: "py-attribute-not-none", name: "conftest", path: "conftest.py",
			head: "def runner(request):\n    return request.param\n", reason: "test support"},
	})
}

func TestIsTestFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"lo_test.go", true}, {"pkg/bench_test.go", true}, {"test_utils.py", true}, {"pkg/utils_test.py", true},
		{"tests/helpers.py", true}, {"src/pkg/tests/x.py", true}, {"conftest.py", true}, {"a/testdata/x.go", true},
		{"testing.go", false}, {"src/pkg/contest.py", false}, {"latest.py", false}, {"tests.py", false}, {"pkg/attest/x.go", false},
	} {
		if got := IsTestFile(tc.path); got != tc.want {
			t.Errorf("IsTestFile(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// TestPerfCommitShape is issue 15's 283-row commit in small: a performance
// change with benchmark files proposes nothing in the test files, with
// every rule on.
func TestPerfCommitShape(t *testing.T) {
	const mod = "package lo\n\n"
	base := map[string]string{
		"map.go":      mod + "func Map(xs []int, f func(int) int) []int {\n\tvar out []int\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\n",
		"map_test.go": mod + "import \"testing\"\n\nfunc BenchmarkMap(b *testing.B) {\n}\n",
	}
	head := map[string]string{
		"map.go":      mod + "func Map(xs []int, f func(int) int) []int {\n\tout := make([]int, len(xs))\n\tfor i, x := range xs {\n\t\tout[i] = f(x)\n\t}\n\treturn out\n}\n",
		"map_test.go": mod + "import \"testing\"\n\ntype S struct{ N int }\n\nfunc BenchmarkMap(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\t_ = b.Name()\n\t}\n}\n\nfunc helper(s *S, xs []int) int {\n\treturn s.N + xs[0]\n}\n",
	}
	res := loadRepo(t, repoWith(t, base, head))
	cands, err := NewStatic().Candidates(context.Background(), res)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		for _, f := range res.Files {
			if IsTestFile(f.Path) && fileHasSymbol(f, c.Symbol) {
				t.Errorf("drafted %q for %s in a test file", c.Precondition, c.Symbol)
			}
		}
	}
}

func fileHasSymbol(f diffparse.File, name string) bool {
	for _, s := range f.Symbols {
		if s.Name == name {
			return true
		}
	}
	return false
}

// TestEveryRuleDocumented: `premise rules` shows each rule's doc and
// example, and no rule's words borrow a demo's ("touching ranges").
func TestEveryRuleDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range AllRules() {
		if seen[r.Name] {
			t.Errorf("rule %s registered twice", r.Name)
		}
		seen[r.Name] = true
		if r.Doc == "" || r.Example == "" || r.Run == nil {
			t.Errorf("rule %s lacks a doc, an example or a run function", r.Name)
		}
		if strings.Contains(r.Doc+r.Example, "touching") {
			t.Errorf("rule %s speaks of touching ranges: %q", r.Name, r.Doc)
		}
	}
}
