package propose

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

type ruleCase struct {
	rule       string
	name       string
	path       string
	base, head string
	want       string // a substring of the drafted precondition; "" means the rule must stay silent
	evidence   string // the exact head (or deleted) line quoted
	reason     string
}

func ruleByName(t *testing.T, name string) Rule {
	t.Helper()
	for _, r := range NewStatic().Rules {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no rule %q", name)
	return Rule{}
}

// runRuleCases puts every case in its own directory of one repository (git
// is slow to start; one repository keeps the test fast) and runs each case's
// rule on its own file's diff.
func runRuleCases(t *testing.T, cases []ruleCase) {
	base, head := map[string]string{}, map[string]string{}
	for i, tc := range cases {
		// A header line makes every case file a modified file: git would
		// call an added file that resembles another case's a copy.
		p := fmt.Sprintf("c%02d/%s", i, tc.path)
		h := fmt.Sprintf("# case %d\n", i)
		if strings.HasSuffix(p, ".go") || ruleLanguage(languageOfPath(p)) == "javascript" {
			h = fmt.Sprintf("// case %d\n", i)
		}
		base[p] = h + tc.base
		head[p] = h + tc.head
	}
	all := loadRepo(t, repoWith(t, base, head))
	files := map[string]diffparse.File{}
	for _, f := range all.Files {
		files[f.Path] = f
	}
	for i, tc := range cases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			f, ok := files[fmt.Sprintf("c%02d/%s", i, tc.path)]
			if !ok {
				t.Fatalf("case file not in the diff")
			}
			res := &diffparse.Result{Files: []diffparse.File{f}}
			s := &Static{Rules: []Rule{ruleByName(t, tc.rule)}}
			all, err := s.Candidates(context.Background(), res)
			if err != nil {
				t.Fatal(err)
			}
			// Policy markers the patch adds are drafted by their own
			// finding (TestMarkerFindings); each case judges its rule.
			var cands []validate.Candidate
			for _, c := range all {
				if c.Source != "static:"+MarkerRule {
					cands = append(cands, c)
				}
			}
			if tc.want == "" {
				if len(cands) != 0 {
					t.Errorf("rule drafted %+v, want nothing (%s)", cands, tc.reason)
				}
				return
			}
			if len(cands) == 0 {
				t.Fatalf("rule drafted nothing, want %q (%s)", tc.want, tc.reason)
			}
			c := cands[0]
			if !strings.Contains(c.Precondition, tc.want) || c.Evidence != tc.evidence {
				t.Errorf("drafted %q quoting %q, want %q quoting %q (%s)", c.Precondition, c.Evidence, tc.want, tc.evidence, tc.reason)
			}
			if c.Source != "static:"+tc.rule {
				t.Errorf("source = %q", c.Source)
			}
			got := validate.Filter(cands, res)
			if len(got.Dropped) != 0 {
				t.Errorf("the filter dropped the rule's row: %+v", got.Dropped)
			}
		})
	}
}

func TestPythonRules(t *testing.T) {
	const port = `def parse_port(text):
    port = int(text)
    if port < 1 or port > 65535:
        raise ValueError("bad port")
    return port
`
	runRuleCases(t, []ruleCase{
		{rule: "py-index-non-empty", name: "first element", path: "m.py",
			head: "def first(xs):\n    return xs[0]\n", want: "`xs` is non-empty", evidence: "return xs[0]"},
		{rule: "py-index-non-empty", name: "last element", path: "m.py",
			base: "def last(xs):\n    return None\n", head: "def last(xs):\n    return xs[-1]\n", want: "`xs` is non-empty", evidence: "return xs[-1]"},
		{rule: "py-index-non-empty", name: "guarded", path: "m.py",
			head: "def first(xs):\n    if not xs:\n        return None\n    return xs[0]\n", reason: "an emptiness check guards the index"},
		{rule: "py-index-non-empty", name: "unchanged line", path: "m.py",
			base: "def first(xs):\n    return xs[0]\n\n\ndef g():\n    return 1\n", head: "def first(xs):\n    return xs[0]\n\n\ndef g():\n    return 2\n",
			reason: "the patch did not touch first"},

		{rule: "py-compare-previous-sorted", name: "dedupe against last output", path: "m.py",
			head: "def dedupe(xs):\n    out = []\n    for x in xs:\n        if out and x == out[-1]:\n            continue\n        out.append(x)\n    return out\n",
			want: "`xs` arrives sorted", evidence: "for x in xs:"},
		{rule: "py-compare-previous-sorted", name: "sorted first", path: "m.py",
			head:   "def dedupe(xs):\n    out = []\n    for x in sorted(xs):\n        if out and x == out[-1]:\n            continue\n        out.append(x)\n    return out\n",
			reason: "the function sorts"},

		{rule: "py-removed-sort", name: "seed 004 merge_ranges", path: "intervals.py",
			base: "def merge_ranges(ranges):\n    ordered = sorted(ranges, key=lambda r: r[0])\n    out = []\n    for start, end in ordered:\n        out.append([start, end])\n    return out\n",
			head: "def merge_ranges(ranges):\n    out = []\n    for start, end in ranges:\n        out.append([start, end])\n    return out\n",
			want: "ranges arrive already sorted by start", evidence: "for start, end in ranges:"},
		{rule: "py-removed-sort", name: "sort kept in another form", path: "intervals.py",
			base:   "def merge_ranges(ranges):\n    ordered = sorted(ranges)\n    out = []\n    for start, end in ordered:\n        out.append([start, end])\n    return out\n",
			head:   "def merge_ranges(ranges):\n    ranges = sorted(ranges)\n    out = []\n    for start, end in ranges:\n        out.append([start, end])\n    return out\n",
			reason: "the head still sorts"},

		{rule: "py-dict-unique-keys", name: "comprehension", path: "m.py",
			head: "def index(pairs):\n    return {k: v for k, v in pairs}\n", want: "the keys `k` are unique", evidence: "return {k: v for k, v in pairs}"},
		{rule: "py-dict-unique-keys", name: "assignment in a loop", path: "m.py",
			head: "def index(pairs):\n    d = {}\n    for k, v in pairs:\n        d[k] = v\n    return d\n", want: "the keys `k` written to `d` are unique", evidence: "d[k] = v"},
		{rule: "py-dict-unique-keys", name: "duplicate checked", path: "m.py",
			head: "def index(pairs):\n    d = {}\n    for k, v in pairs:\n        if k in d:\n            raise ValueError(k)\n        d[k] = v\n    return d\n", reason: "the loop refuses a repeated key"},
		{rule: "py-dict-unique-keys", name: "list slot", path: "m.py",
			head: "def fill(xs):\n    out = [0] * 3\n    for i in xs:\n        out[i] = 1\n    return out\n", reason: "out is a list, not a dict"},

		{rule: "py-attribute-not-none", name: "method of a parameter", path: "m.py",
			head: "def name(user):\n    return user.name.strip()\n", want: "`user` is not None", evidence: "return user.name.strip()"},
		{rule: "py-attribute-not-none", name: "None checked", path: "m.py",
			head: "def name(user):\n    if user is None:\n        return \"\"\n    return user.name\n", reason: "a None check guards it"},
		{rule: "py-attribute-not-none", name: "self", path: "m.py",
			head: "class C:\n    def name(self):\n        return self.name\n", reason: "self is never None"},

		{rule: "py-division-non-zero", name: "divide by a parameter", path: "m.py",
			head: "def share(total, count):\n    return total / count\n", want: "`count` is non-zero", evidence: "return total / count"},
		{rule: "py-division-non-zero", name: "divide by len", path: "m.py",
			head: "def mean(xs):\n    return sum(xs) / len(xs)\n", want: "`xs` is non-empty", evidence: "return sum(xs) / len(xs)"},
		{rule: "py-division-non-zero", name: "zero checked", path: "m.py",
			head: "def share(total, count):\n    if count == 0:\n        return 0\n    return total / count\n", reason: "a zero check guards it"},

		{rule: "py-datetime-one-timezone", name: "fromisoformat and subtraction", path: "m.py",
			head: "from datetime import datetime\n\n\ndef secs(a, b):\n    return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()\n",
			want: "one timezone convention", evidence: "return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()"},
		{rule: "py-datetime-one-timezone", name: "normalised to UTC", path: "m.py",
			head:   "from datetime import datetime, timezone\n\n\ndef secs(a, b):\n    x = datetime.fromisoformat(a).astimezone(timezone.utc)\n    y = datetime.fromisoformat(b).astimezone(timezone.utc)\n    return (y - x).total_seconds()\n",
			reason: "the function normalises zones"},
		{rule: "py-datetime-one-timezone", name: "no datetimes", path: "m.py",
			head: "def diff(a, b):\n    return b - a\n", reason: "plain subtraction is not datetime arithmetic"},

		{rule: "py-parse-number-no-error", name: "int of a parameter", path: "m.py",
			head: "def parse(s):\n    return int(s)\n", want: "`s` is a numeric string", evidence: "return int(s)"},
		{rule: "py-parse-number-no-error", name: "inside try", path: "m.py",
			head: "def parse(s):\n    try:\n        return int(s)\n    except ValueError:\n        return None\n", reason: "the error has a path"},
		{rule: "py-parse-number-no-error", name: "int of a number", path: "m.py",
			head: "def half(n):\n    return int(n / 2)\n", reason: "int() of arithmetic is a conversion, not parsing"},

		{rule: "py-removed-raise", name: "check deleted", path: "m.py",
			base: port, head: "def parse_port(text):\n    port = int(text)\n    return port\n",
			want: "inputs where `port < 1 or port > 65535`, which the base refused with ValueError, are now accepted", evidence: "if port < 1 or port > 65535:"},
		{rule: "py-removed-raise", name: "check moved to a helper", path: "m.py",
			base: port, head: "def _check(port):\n    if port < 1 or port > 65535:\n        raise ValueError(\"bad port\")\n\n\ndef parse_port(text):\n    port = int(text)\n    _check(port)\n    return port\n",
			reason: "the raise moved, it did not go"},

		{rule: "py-narrowed-check", name: "lower bound dropped", path: "m.py",
			base: port, head: "def parse_port(text):\n    port = int(text)\n    if port > 65535:\n        raise ValueError(\"bad port\")\n    return port\n",
			want: "inputs where `port < 1`, which the base refused, are now accepted", evidence: "if port > 65535:",
			reason: "the new check keeps one disjunct: the dropped one is accepted now, said that way round (issue 15)"},
		{rule: "py-narrowed-check", name: "check reworded only", path: "m.py",
			base: port, head: "def parse_port(text):\n    port = int(text)\n    if not 1 <= port <= 65535:\n        raise ValueError(\"bad port\")\n    return port\n",
			want: "the check that refuses changed from `port < 1 or port > 65535` to `not 1 <= port <= 65535`: inputs where only one of them holds changed side", evidence: "if not 1 <= port <= 65535:",
			reason: "the rule cannot prove two conditions equal; it asks the reviewer without claiming a direction"},
		{rule: "py-narrowed-check", name: "new check without a raise", path: "m.py",
			base: port, head: "def parse_port(text):\n    port = int(text)\n    if port > 65535:\n        port = 65535\n    return port\n",
			reason: "the new condition guards no raise"},

		{rule: "py-none-as-empty", name: "or []", path: "m.py",
			head: "def count(tags):\n    n = 0\n    for t in tags or []:\n        n += 1\n    return n\n", want: "`tags` of None means the same as empty", evidence: "for t in tags or []:"},
		{rule: "py-none-as-empty", name: "or a default value", path: "m.py",
			head: "def pick(name, default):\n    return name or default\n", reason: "the fallback is not an empty value"},

		{rule: "py-zip-same-length", name: "two sequences", path: "m.py",
			head: "def dot(xs, ys):\n    return sum(a * b for a, b in zip(xs, ys))\n", want: "the sequences zipped in `zip(xs, ys)` have the same length", evidence: "return sum(a * b for a, b in zip(xs, ys))"},
		{rule: "py-zip-same-length", name: "strict", path: "m.py",
			head: "def dot(xs, ys):\n    return sum(a * b for a, b in zip(xs, ys, strict=True))\n", reason: "strict=True refuses unequal lengths"},
		{rule: "py-zip-same-length", name: "neighbours", path: "m.py",
			head: "def steps(xs):\n    return [b - a for a, b in zip(xs, xs[1:])]\n", reason: "pairing neighbours is meant to stop early"},

		{rule: "py-range-len-minus", name: "window end", path: "m.py",
			base: "def windows(values, size):\n    return [values[i : i + size] for i in range(len(values) - size + 1)]\n",
			head: "def windows(values, size):\n    return [values[i : i + size] for i in range(len(values) - size)]\n",
			want: "`values` is longer than `size`", evidence: "return [values[i : i + size] for i in range(len(values) - size)]"},
		{rule: "py-range-len-minus", name: "whole length", path: "m.py",
			head: "def idx(values):\n    return list(range(len(values)))\n", reason: "no subtraction"},

		{rule: "py-boundary-moved", name: "touching ranges", path: "m.py",
			base: "def overlaps(a, b):\n    if b[0] < a[1]:\n        return True\n    return False\n",
			head: "def overlaps(a, b):\n    if b[0] <= a[1]:\n        return True\n    return False\n",
			want: "values where `b[0]` == `a[1]` now take the other branch (`<` became `<=`)", evidence: "if b[0] <= a[1]:"},
		{rule: "py-boundary-moved", name: "seed 004 rewritten condition", path: "m.py",
			base: "def merge(ranges):\n    out = []\n    for start, end in ranges:\n        if not out or start >= out[-1][1]:\n            out.append([start, end])\n        elif end > out[-1][1]:\n            out[-1][1] = end\n    return out\n",
			head: "def merge(ranges):\n    out = []\n    for start, end in ranges:\n        if out and start <= out[-1][1]:\n            out[-1][1] = max(out[-1][1], end)\n        else:\n            out.append([start, end])\n    return out\n",
			want: "values where `start` == `out[-1][1]` now take the other branch", evidence: "if out and start <= out[-1][1]:",
			reason: "branches swapped and equality moved from append to merge: touching ranges now merge"},
		{rule: "py-boundary-moved", name: "branches swapped, same boundary", path: "m.py",
			base:   "def merge(ranges):\n    out = []\n    for start, end in ranges:\n        if not out or start >= out[-1][1]:\n            out.append([start, end])\n        else:\n            out[-1][1] = end\n    return out\n",
			head:   "def merge(ranges):\n    out = []\n    for start, end in ranges:\n        if out and start < out[-1][1]:\n            out[-1][1] = end\n        else:\n            out.append([start, end])\n    return out\n",
			reason: "start < x is exactly not (start >= x): the boundary did not move"},
		{rule: "py-boundary-moved", name: "other operand", path: "m.py",
			base:   "def overlaps(a, b):\n    if b[0] < a[1]:\n        return True\n    return False\n",
			head:   "def overlaps(a, b):\n    if b[1] < a[1]:\n        return True\n    return False\n",
			reason: "the comparison changed, not its boundary"},
	})
}

func TestGoRules(t *testing.T) {
	const mod = "package m\n\n"
	const quotaBase = mod + "import \"errors\"\n\nvar ErrNotLoaded = errors.New(\"not loaded\")\n\nfunc Left(used []int, limit int) (int, error) {\n\tif used == nil {\n\t\treturn 0, ErrNotLoaded\n\t}\n\tn := 0\n\tfor _, u := range used {\n\t\tn += u\n\t}\n\treturn limit - n, nil\n}\n"
	const quotaHead = mod + "import \"errors\"\n\nvar ErrNotLoaded = errors.New(\"not loaded\")\n\nfunc Left(used []int, limit int) (int, error) {\n\tn := 0\n\tfor _, u := range used {\n\t\tn += u\n\t}\n\treturn limit - n, nil\n}\n"
	const reserveBase = mod + "import \"errors\"\n\nfunc Reserve(qty, stock int) (int, error) {\n\tif qty <= 0 {\n\t\treturn 0, errors.New(\"bad qty\")\n\t}\n\treturn stock - qty, nil\n}\n"
	runRuleCases(t, []ruleCase{
		{rule: "go-index-non-empty", name: "first element", path: "m.go",
			head: mod + "func First(xs []int) int {\n\treturn xs[0]\n}\n", want: "`xs` is non-empty", evidence: "return xs[0]"},
		{rule: "go-index-non-empty", name: "last element", path: "m.go",
			head: mod + "func Last(xs []int) int {\n\treturn xs[len(xs)-1]\n}\n", want: "`xs` is non-empty", evidence: "return xs[len(xs)-1]"},
		{rule: "go-index-non-empty", name: "guarded", path: "m.go",
			head: mod + "func First(xs []int) int {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn xs[0]\n}\n", reason: "a length check guards it"},

		{rule: "go-compare-previous-sorted", name: "dedupe neighbours", path: "m.go",
			head: mod + "func Dedupe(xs []int) []int {\n\tvar out []int\n\tfor i := range xs {\n\t\tif i > 0 && xs[i] == xs[i-1] {\n\t\t\tcontinue\n\t\t}\n\t\tout = append(out, xs[i])\n\t}\n\treturn out\n}\n",
			want: "`xs` is sorted", evidence: "for i := range xs {"},
		{rule: "go-compare-previous-sorted", name: "sorted first", path: "m.go",
			head:   mod + "import \"slices\"\n\nfunc Dedupe(xs []int) []int {\n\tslices.Sort(xs)\n\tvar out []int\n\tfor i := range xs {\n\t\tif i > 0 && xs[i] == xs[i-1] {\n\t\t\tcontinue\n\t\t}\n\t\tout = append(out, xs[i])\n\t}\n\treturn out\n}\n",
			reason: "the function sorts"},

		{rule: "go-removed-sort", name: "median", path: "m.go",
			base: mod + "import \"slices\"\n\nfunc Median(xs []int) int {\n\ts := slices.Clone(xs)\n\tslices.Sort(s)\n\treturn s[len(s)/2]\n}\n",
			head: mod + "func Median(xs []int) int {\n\treturn xs[len(xs)/2]\n}\n",
			want: "`xs` arrives already sorted", evidence: "return xs[len(xs)/2]"},
		{rule: "go-removed-sort", name: "sort kept", path: "m.go",
			base:   mod + "import \"slices\"\n\nfunc Median(xs []int) int {\n\ts := slices.Clone(xs)\n\tslices.Sort(s)\n\treturn s[len(s)/2]\n}\n",
			head:   mod + "import \"slices\"\n\nfunc Median(xs []int) int {\n\tslices.Sort(xs)\n\treturn xs[len(xs)/2]\n}\n",
			reason: "the head still sorts"},

		{rule: "go-map-unique-keys", name: "map filled in a loop", path: "m.go",
			head: mod + "type KV struct{ K string; V int }\n\nfunc Index(kvs []KV) map[string]int {\n\tm := map[string]int{}\n\tfor _, kv := range kvs {\n\t\tm[kv.K] = kv.V\n\t}\n\treturn m\n}\n",
			want: "keys written to `m` are unique", evidence: "m[kv.K] = kv.V"},
		{rule: "go-map-unique-keys", name: "duplicate checked", path: "m.go",
			head:   mod + "type KV struct{ K string; V int }\n\nfunc Index(kvs []KV) map[string]int {\n\tm := map[string]int{}\n\tfor _, kv := range kvs {\n\t\tif _, dup := m[kv.K]; dup {\n\t\t\treturn nil\n\t\t}\n\t\tm[kv.K] = kv.V\n\t}\n\treturn m\n}\n",
			reason: "the loop checks for a repeated key"},
		{rule: "go-map-unique-keys", name: "set with a membership check", path: "m.go",
			head:   mod + "func Unique(ids []int) []int {\n\tseen := map[int]bool{}\n\tvar out []int\n\tfor _, id := range ids {\n\t\tif seen[id] {\n\t\t\tcontinue\n\t\t}\n\t\tseen[id] = true\n\t\tout = append(out, id)\n\t}\n\treturn out\n}\n",
			reason: "deduplication reads the map before writing it"},
		{rule: "go-map-unique-keys", name: "slice", path: "m.go",
			head:   mod + "func Fill(xs []int) []int {\n\tout := make([]int, 3)\n\tfor _, x := range xs {\n\t\tout[x] = 1\n\t}\n\treturn out\n}\n",
			reason: "out is a slice"},

		{rule: "go-deref-non-nil", name: "field of a pointer", path: "m.go",
			head: mod + "type User struct{ Name string }\n\nfunc Name(u *User) string {\n\treturn u.Name\n}\n", want: "`u` is not nil", evidence: "return u.Name"},
		{rule: "go-deref-non-nil", name: "nil checked", path: "m.go",
			head: mod + "type User struct{ Name string }\n\nfunc Name(u *User) string {\n\tif u == nil {\n\t\treturn \"\"\n\t}\n\treturn u.Name\n}\n", reason: "a nil check guards it"},
		{rule: "go-deref-non-nil", name: "value parameter", path: "m.go",
			head: mod + "type User struct{ Name string }\n\nfunc Name(u User) string {\n\treturn u.Name\n}\n", reason: "a struct value cannot be nil"},

		{rule: "go-division-non-zero", name: "divide by a parameter", path: "m.go",
			head: mod + "func Share(total, n int) int {\n\treturn total / n\n}\n", want: "`n` is non-zero", evidence: "return total / n"},
		{rule: "go-division-non-zero", name: "divide by len", path: "m.go",
			head: mod + "func Mean(xs []int, sum int) float64 {\n\treturn float64(sum) / float64(len(xs))\n}\n", want: "`xs` is non-empty", evidence: "return float64(sum) / float64(len(xs))"},
		{rule: "go-division-non-zero", name: "zero checked", path: "m.go",
			head: mod + "func Share(total, n int) int {\n\tif n == 0 {\n\t\treturn 0\n\t}\n\treturn total / n\n}\n", reason: "a zero check guards it"},

		{rule: "go-time-one-location", name: "Sub", path: "m.go",
			head:   mod + "import \"time\"\n\nfunc Secs(a, b time.Time) float64 {\n\treturn b.Sub(a).Seconds()\n}\n",
			reason: "Sub compares instants whatever the locations (issue 15: the wording must be true of the code)"},
		{rule: "go-time-one-location", name: "Parse", path: "m.go",
			head: mod + "import \"time\"\n\nfunc At(s string) (time.Time, error) {\n\treturn time.Parse(time.DateTime, s)\n}\n",
			want: "`s` carries its zone offset or is meant as UTC", evidence: "return time.Parse(time.DateTime, s)"},
		{rule: "go-time-one-location", name: "normalised", path: "m.go",
			head: mod + "import \"time\"\n\nfunc Secs(a, b time.Time) float64 {\n\treturn b.UTC().Sub(a.UTC()).Seconds()\n}\n", reason: "both sides are normalised to UTC"},

		{rule: "go-parse-number-no-error", name: "error discarded", path: "m.go",
			head: mod + "import \"strconv\"\n\nfunc Parse(s string) int {\n\tn, _ := strconv.Atoi(s)\n\treturn n\n}\n", want: "`s` is a numeric string", evidence: "n, _ := strconv.Atoi(s)"},
		{rule: "go-parse-number-no-error", name: "error path returns nil", path: "m.go",
			base: mod + "import (\n\t\"fmt\"\n\t\"strconv\"\n)\n\nfunc Parse(s string) (int, error) {\n\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn 0, fmt.Errorf(\"parse %q: %w\", s, err)\n\t}\n\treturn n, nil\n}\n",
			head: mod + "import (\n\t\"fmt\"\n\t\"strconv\"\n)\n\nfunc Parse(s string) (int, error) {\n\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn 0, nil\n\t}\n\treturn n, fmt.Errorf(\"x\")\n}\n",
			want: "`s` is a numeric string; a malformed one is no longer an error", evidence: "return 0, nil"},
		{rule: "go-parse-number-no-error", name: "error returned", path: "m.go",
			head: mod + "import \"strconv\"\n\nfunc Parse(s string) (int, error) {\n\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\treturn n, nil\n}\n", reason: "the error reaches the caller"},

		{rule: "go-removed-error-return", name: "nil check deleted", path: "m.go", base: quotaBase, head: quotaHead,
			want: "inputs where `used == nil`, which the base refused with an error, are now accepted", evidence: "if used == nil {"},
		{rule: "go-removed-error-return", name: "return moved to a helper", path: "m.go", base: quotaBase,
			head:   mod + "import \"errors\"\n\nvar ErrNotLoaded = errors.New(\"not loaded\")\n\nfunc check(used []int) (int, error) {\n\tif used == nil {\n\t\treturn 0, ErrNotLoaded\n\t}\n\treturn 0, nil\n}\n\nfunc Left(used []int, limit int) (int, error) {\n\tif _, err := check(used); err != nil {\n\t\treturn 0, err\n\t}\n\tn := 0\n\tfor _, u := range used {\n\t\tn += u\n\t}\n\treturn limit - n, nil\n}\n",
			reason: "the check moved, it did not go"},

		{rule: "go-removed-error-return", name: "error variable turned into early returns", path: "m.go",
			base:   mod + "import \"fmt\"\n\nfunc Delay(n int) (int, error) {\n\tvar d int\n\tvar err error\n\tif n < 1 {\n\t\terr = fmt.Errorf(\"bad %d\", n)\n\t} else {\n\t\td = n * 2\n\t}\n\treturn d, err\n}\n",
			head:   mod + "import \"fmt\"\n\nfunc Delay(n int) (int, error) {\n\tif n < 1 {\n\t\treturn 0, fmt.Errorf(\"bad %d\", n)\n\t}\n\treturn n * 2, nil\n}\n",
			reason: "the error is still returned, early (corpus case 23)"},
		{rule: "go-removed-error-return", name: "locals renamed", path: "m.go",
			base:   mod + "import \"fmt\"\n\nfunc Check(xs []int) error {\n\tfor i, x := range xs {\n\t\tif x < 1 {\n\t\t\treturn fmt.Errorf(\"id %d at %d\", x, i)\n\t\t}\n\t}\n\treturn nil\n}\n",
			head:   mod + "import \"fmt\"\n\nfunc Check(xs []int) error {\n\tfor index, id := range xs {\n\t\tif id < 1 {\n\t\t\treturn fmt.Errorf(\"id %d at %d\", id, index)\n\t\t}\n\t}\n\treturn nil\n}\n",
			reason: "the same return survives a rename of locals (corpus case 28)"},
		{rule: "go-narrowed-check", name: "switch narrows", path: "m.go", base: reserveBase,
			head: mod + "import \"errors\"\n\nfunc Reserve(qty, stock int) (int, error) {\n\tswitch {\n\tcase qty == 0:\n\t\treturn 0, errors.New(\"bad qty\")\n\t}\n\treturn stock - qty, nil\n}\n",
			want: "`qty < 0`, which the base refused, is now accepted", evidence: "case qty == 0:",
			reason: "<= 0 became == 0: the negatives are accepted now"},
		{rule: "go-narrowed-check", name: "unrelated new check", path: "m.go", base: reserveBase,
			head:   mod + "import \"errors\"\n\nfunc Reserve(qty, stock int) (int, error) {\n\tif stock < 0 {\n\t\treturn 0, errors.New(\"bad stock\")\n\t}\n\treturn stock - qty, nil\n}\n",
			reason: "the new check tests another name"},

		{rule: "go-error-discarded", name: "blank error", path: "m.go",
			head: mod + "import \"os\"\n\nfunc Read(p string) []byte {\n\tb, _ := os.ReadFile(p)\n\treturn b\n}\n", want: "`os.ReadFile` does not fail", evidence: "b, _ := os.ReadFile(p)"},
		{rule: "go-error-discarded", name: "error handled", path: "m.go",
			head: mod + "import \"os\"\n\nfunc Read(p string) ([]byte, error) {\n\tb, err := os.ReadFile(p)\n\treturn b, err\n}\n", reason: "the error is returned"},

		{rule: "go-slice-in-bounds", name: "bounds from parameters", path: "m.go",
			head: mod + "func Window(xs []int, lo, hi int) []int {\n\treturn xs[lo:hi]\n}\n", want: "the bounds of `xs[lo:hi]` lie within `xs`", evidence: "return xs[lo:hi]"},
		{rule: "go-slice-in-bounds", name: "checked", path: "m.go",
			head: mod + "func Window(xs []int, lo, hi int) []int {\n\tif hi > len(xs) {\n\t\thi = len(xs)\n\t}\n\treturn xs[lo:hi]\n}\n", reason: "the bound is checked"},

		{rule: "go-boundary-moved", name: "touching slots", path: "m.go",
			base: mod + "func Overlap(a, b [2]int) bool {\n\treturn b[0] < a[1]\n}\n",
			head: mod + "func Overlap(a, b [2]int) bool {\n\treturn b[0] <= a[1]\n}\n",
			want: "values where `b[0]` == `a[1]` now take the other branch (`<` became `<=`)", evidence: "return b[0] <= a[1]"},
		{rule: "go-boundary-moved", name: "operator reversed", path: "m.go",
			base:   mod + "func Less(a, b int) bool {\n\treturn a < b\n}\n",
			head:   mod + "func Less(a, b int) bool {\n\treturn a > b\n}\n",
			reason: "a reversed comparison is not a moved boundary"},
	})
}

// TestIntervalsExample is issue 3's acceptance test: on examples/intervals
// the static proposer proposes the missing-sort assumption for merge_ranges,
// citing the loop line of the head version.
func TestIntervalsExample(t *testing.T) {
	base := readTree(t, "../examples/intervals/base")
	head := readTree(t, "../examples/intervals/head")
	res := loadRepo(t, repoWith(t, base, head))
	r, err := Draft(context.Background(), NewStatic(), res)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range r.Kept {
		if k.Symbol == "intervals.merge_ranges" && k.Precondition == "ranges arrive already sorted by start" {
			if k.Evidence != "for start, end in ranges:" || k.File != "intervals/__init__.py" || k.Line != 9 {
				t.Errorf("cites %q at %s:%d, want the head loop line intervals/__init__.py:9", k.Evidence, k.File, k.Line)
			}
			return
		}
	}
	t.Errorf("no missing-sort assumption for merge_ranges; kept %+v, dropped %+v", r.Kept, r.Dropped)
}
