package evidence_test

import (
	"strings"
	"testing"
)

// TestHeadOnlyNoiseIsAChange: a head whose output varies between reruns
// where the base's never does cannot hide a change as "unstable": the row
// is rerun on both sides, and the base answering alike every time makes it
// a change. Output that varies on both sides stays unstable.
func TestHeadOnlyNoiseIsAChange(t *testing.T) {
	t.Parallel()
	base := `import random


def tag(x: int) -> str:
    return str(x)


def token(x: int) -> str:
    return str(x) + str(random.random())
`
	head := `import random


def tag(x: int) -> str:
    return str(x) + str(random.random())


def token(x: int) -> str:
    return str(x) + "-" + str(random.random())
`
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, nil)
	var tagChanges int
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		switch c.Symbol {
		case "m.tag":
			tagChanges++
			if !strings.Contains(c.Head, "other values on reruns") {
				t.Errorf("m.tag change %q does not say the head varies", c.Head)
			}
		case "m.token":
			t.Errorf("m.token varies on both sides, yet a change was filed: %+v", c)
		}
	}
	if tagChanges == 0 {
		t.Errorf("m.tag: its head varies where its base does not, yet no change was filed (unstable: %d)", len(rep.Unstable))
	}
}

// TestGoDroppedSortIsAChange: a head that stops sorting what it read from
// a map answers in the map's order, which for two keys is the sorted one
// seven times in eight. Its rows must still be filed as changes, however
// many more times the base is asked before its always-alike answers count.
func TestGoDroppedSortIsAChange(t *testing.T) {
	t.Parallel()
	mod := "module example.com/keys\n\ngo 1.21\n"
	base := `package keys

import "sort"

// Keys is the words of xs, once each, in order.
func Keys(xs []string) []string {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	out := []string{}
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
`
	head := strings.Replace(base, "\tsort.Strings(out)\n", "", 1)
	head = strings.Replace(head, "import \"sort\"\n\n", "", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "keys.go": base}, map[string]string{"keys.go": head}, nil)
	changeOn(t, rep, "example.com/keys.Keys", "Keys no longer sorts its words")
}

// TestGoMapOrderInTextIsNoChange: a value that prints a map in its
// iteration order (a String method, a key=value list) varies on both
// sides, skewed: two keys come out one way seven times in eight, so a
// base that answered alike eight times is no proof it is deterministic,
// and a refactor that kept the text's making is no change.
func TestGoMapOrderInTextIsNoChange(t *testing.T) {
	t.Parallel()
	mod := "module example.com/show\n\ngo 1.21\n"
	base := `package show

import (
	"fmt"
	"strings"
)

// Show writes m as key=value pairs, in no particular order.
func Show(m map[string]int) string {
	var b strings.Builder
	for k, v := range m {
		fmt.Fprintf(&b, "%s=%d;", k, v)
	}
	return b.String()
}
`
	head := strings.Replace(base, "\tfor k, v := range m {\n\t\tfmt.Fprintf(&b, \"%s=%d;\", k, v)\n", "\tfor k, v := range m {\n\t\tb.WriteString(k + \"=\" + fmt.Sprint(v) + \";\")\n", 1)
	if head == base {
		t.Fatal("the refactor did not apply")
	}
	for i := 0; i < 3; i++ {
		rep := runCommits(t, map[string]string{"go.mod": mod, "show.go": base}, map[string]string{"show.go": head}, nil)
		if cs := append(rep.Changes, rep.Unexplained...); len(cs) > 0 {
			t.Fatalf("run %d: a refactor that keeps what Show prints shows changes: %+v", i+1, cs)
		}
	}
}

// TestBaseOrderNoiseHidesNoChange: a base whose answer prints a hash-keyed
// container (a set's items in the order of the worker's hash seed) varies
// between reruns in order alone; a head that answers other items, whatever
// their order, is a change, not an unstable row.
func TestBaseOrderNoiseHidesNoChange(t *testing.T) {
	t.Parallel()
	base := `class Frozen:
    def __init__(self, d):
        self._items = set(d.items())

    def __repr__(self):
        return "Frozen(" + ", ".join("%s=%s" % kv for kv in self._items) + ")"


def freeze(o):
    """
    >>> freeze({'ka': 1, 'kb': 2, 'kc': 3, 'kd': 4, 'ke': 5, 'kf': 6, 'kg': 7, 'kh': 8})
    """
    if isinstance(o, dict):
        return Frozen(o)
    return o
`
	head := strings.Replace(base, "    if isinstance(o, dict):\n        return Frozen(o)\n", "", 1)
	if head == base {
		t.Fatal("the patch did not apply")
	}
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.freeze" && strings.Contains(c.Input, "'ka': 1") {
			return
		}
	}
	for _, c := range rep.Unstable {
		t.Logf("unstable: %s: %s | %s", c.Input, c.Base, c.Head)
	}
	t.Errorf("freeze of the eight-key dict no longer freezes it, yet that row is no change: %+v", append(rep.Changes, rep.Unexplained...))
}

// TestReadOrderOnBothSidesIsNoChange: a receiver whose Keys() ranges over a
// map shows, read before and after a call, the same keys in the same
// order or not as the map's order falls, on both sides alike: whether a
// row's answer says the call "left" its keys is order noise. A refactor
// that keeps what Sum returns is no change, however the first few
// answers of each side happened to fall.
func TestReadOrderOnBothSidesIsNoChange(t *testing.T) {
	t.Parallel()
	mod := "module example.com/bag\n\ngo 1.21\n"
	base := `package bag

// Bag counts words.
type Bag struct{ m map[string]int }

// NewBag is a bag of words.
func NewBag(words ...string) *Bag {
	b := &Bag{m: map[string]int{}}
	for _, w := range words {
		b.m[w]++
	}
	return b
}

// Keys are the bag's words, in no particular order.
func (b *Bag) Keys() []string {
	out := []string{}
	for k := range b.m {
		out = append(out, k)
	}
	return out
}

// Sum is how many words the bag holds.
func (b *Bag) Sum() int {
	s := 0
	for _, v := range b.m {
		s += v
	}
	return s
}
`
	head := strings.Replace(base, "\ts := 0\n\tfor _, v := range b.m {\n\t\ts += v\n\t}\n\treturn s\n", "\tvar s int\n\tfor k := range b.m {\n\t\ts += b.m[k]\n\t}\n\treturn s\n", 1)
	if head == base {
		t.Fatal("the refactor did not apply")
	}
	for i := 0; i < 3; i++ {
		rep := runCommits(t, map[string]string{"go.mod": mod, "bag.go": base}, map[string]string{"bag.go": head}, nil)
		if cs := append(rep.Changes, rep.Unexplained...); len(cs) > 0 {
			t.Fatalf("run %d: a refactor that keeps what Sum returns shows changes: %+v", i+1, cs)
		}
	}
}
