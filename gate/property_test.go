package gate

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// csvTable is seed 001's layer 1 as property rows: round trip over fields
// inside the format's contract (no commas, no line breaks, no control
// characters), and never raising on arbitrary text.
const csvTable = `version: 1
target: csvline.parse_csv_line
rows:
  - id: P001
    cls: round_trip
    kind: property
    relation: parsing a serialized line gives its fields back
    assumption_ids: [A001]
    property:
      check: round_trip
      inverse: csvline.serialize_csv_line
      seed: 20260828
      count: 200
      strategy:
        type: list
        min_size: 1
        max_size: 8
        of: {type: text, max_size: 16, exclude: ",\r\n"}
  - id: P002
    cls: crash_guard
    kind: property
    relation: a parser must not raise on text it never saw
    assumption_ids: [A001]
    property:
      check: never_raises
      seed: 20260828
      count: 100
      strategy: {type: text, max_size: 512}
`

// agentCSV is the agent's parser from seed 001: it drops empty fields.
const agentCSV = `def parse_csv_line(line):
    return [f for f in line.rstrip("\r\n").split(",") if f]

def serialize_csv_line(fields):
    return ",".join(fields)
`

const rightCSV = `def parse_csv_line(line):
    return line.rstrip("\r\n").split(",")

def serialize_csv_line(fields):
    return ",".join(fields)
`

func runTable(t *testing.T, module, table string) *Report {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "csvline.py"), []byte(module), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "partitions.yaml")
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := RunFile(context.Background(), Config{Repo: dir, Reruns: 3, Budget: DefaultBudget, Timeout: DefaultTimeout}, path)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestPropertyFindsEmptyFieldBug: the round-trip row finds seed 001's
// empty-field bug with its fixed seed, shrinks the failure to one field
// (a one-line input), and finds the same on every run; the crash guard
// holds; the right parser passes both.
func TestPropertyFindsEmptyFieldBug(t *testing.T) {
	t.Parallel()
	if _, err := ResolvePython("python3"); err != nil {
		t.Skip("no python3")
	}
	rep := runTable(t, agentCSV, csvTable)
	p1 := rep.row("P001")
	if p1.Status != StatusFail {
		t.Fatalf("P001 %s: %s; want the empty-field bug found", p1.Status, p1.Why)
	}
	if !strings.HasPrefix(p1.Why, `round_trip fails on [""] (seed 20260828, input `) {
		t.Errorf("P001 why = %q; want the failure shrunk to [\"\"], one empty field, with the seed", p1.Why)
	}
	if !strings.Contains(p1.Why, `csvline.serialize_csv_line gave "", csvline.parse_csv_line of that gave []`) {
		t.Errorf("P001 why = %q; want what the round trip did", p1.Why)
	}
	if p2 := rep.row("P002"); p2.Status != StatusPass || !strings.Contains(p2.Why, "holds on 100 inputs from seed 20260828") {
		t.Errorf("P002 %s: %s", p2.Status, p2.Why)
	}
	if rep.Exit != 1 {
		t.Errorf("exit %d, want 1", rep.Exit)
	}
	if again := runTable(t, agentCSV, csvTable).row("P001"); again.Why != p1.Why {
		t.Errorf("a second run: %q\nthe first: %q\nwant the same seed to find the same failure", again.Why, p1.Why)
	}
	right := runTable(t, rightCSV, csvTable)
	for _, id := range []string{"P001", "P002"} {
		if r := right.row(id); r.Status != StatusPass {
			t.Errorf("the right parser: %s %s: %s", id, r.Status, r.Why)
		}
	}
}

func TestPropertyChecks(t *testing.T) {
	if _, err := ResolvePython("python3"); err != nil {
		t.Skip("no python3")
	}
	module := `def parse_csv_line(x):
    return x

def total(xs):
    s = 0
    for i, x in enumerate(xs):
        s += x if i < 3 else 0
    return s

def norm(s):
    return s.strip() + "!"

def length(s):
    return len(s)
`
	table := `version: 1
target: csvline.total
rows:
  - {id: P001, cls: perm, kind: property, relation: the order of the items does not matter, assumption_ids: [A001],
     property: {check: permutation, seed: 7, strategy: {type: list, max_size: 6, of: {type: int, min: 1, max: 9}}}}
  - {id: P002, cls: idem, kind: property, target: csvline.norm, relation: normalising twice is normalising once, assumption_ids: [A001],
     property: {check: idempotent, seed: 7, strategy: {type: text, max_size: 5, alphabet: "ab "}}}
  - {id: P003, cls: cel, kind: property, target: csvline.length, relation: the length is never negative nor more than the text, assumption_ids: [A001],
     contract: "result >= 0 && result <= size(inp)",
     property: {check: contract, seed: 7, strategy: {type: text, max_size: 9}}}
`
	rep := runTable(t, module, table)
	if why := rep.row("P001").Why; !regexp.MustCompile(`^permutation fails on \[\d,\d,\d,\d\] \(seed 7, `).MatchString(why) {
		t.Errorf("P001 why = %q; want a shrunk list of four items: fewer cannot fail a sum that skips items after the third", why)
	}
	tests := []struct{ id, status, why, reason string }{
		{"P001", StatusFail, "permutation fails on [", "the sum skips items after the third"},
		{"P002", StatusFail, `idempotent fails on "" (seed 7`, "each call adds a mark: shrunk to the empty text"},
		{"P003", StatusPass, "contract holds on 100 inputs from seed 7", "a CEL relation between input and result"},
	}
	for _, tt := range tests {
		r := rep.row(tt.id)
		if r.Status != tt.status || !strings.HasPrefix(r.Why, tt.why) {
			t.Errorf("%s: %s %q, want %s starting %q (%s)", tt.id, r.Status, r.Why, tt.status, tt.why, tt.reason)
		}
	}
}

// TestShrinksStayInside: every simplification of a value is one the
// strategy could generate; a generator outside the format's contract
// fails the property for the wrong reason (seed 001).
func TestShrinksStayInside(t *testing.T) {
	five := 5
	s := &validate.Strategy{Type: "list", MinSize: 1, MaxSize: &five, Of: &validate.Strategy{Type: "text", MaxSize: &five, Exclude: ",a"}}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		v := generate(s, rng)
		for _, c := range append(shrinks(s, v), v) {
			list := c.([]any)
			if len(list) < 1 || len(list) > 5 {
				t.Fatalf("%v: %d items", c, len(list))
			}
			for _, e := range list {
				if str := e.(string); strings.ContainsAny(str, ",a") || len([]rune(str)) > 5 {
					t.Fatalf("%v: item %q is outside the strategy", c, str)
				}
			}
		}
	}
}
