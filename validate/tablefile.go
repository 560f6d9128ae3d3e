package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/schemas"
	"gopkg.in/yaml.v3"
)

// Languages a partition table may name.
const (
	LangPython     = "python"
	LangGo         = "go"
	LangExec       = "exec"
	LangJavaScript = "javascript" // and TypeScript: both run in premise's Node worker
	LangTypeScript = "typescript"
)

// minRelation is seed 004's minLength for a row's relation (Step 4).
const minRelation = 8

// LoadTable reads and validates the partition table at path. A file that
// does not parse or breaks the schema yields a *LoadError listing every
// problem.
func LoadTable(path string) (*Table, error) {
	src, err := readString(path)
	if err != nil {
		return nil, fmt.Errorf("read partition table: %w", err)
	}
	// Read as a string: the rows' strings are cut from it, where
	// ParseTable's bytes would be copied into one first.
	if t, ok := scanTableString(path, src); ok {
		return t, nil
	}
	return parseTableNodes(path, []byte(src))
}

// readString is the file at path, read into a string without a copy of
// the bytes.
func readString(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		b.Grow(int(fi.Size()) + 1)
	}
	if _, err := io.Copy(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ParseTable decodes and validates a partition table; name is the file
// name used in problems. The schema is seed 004's FIXTURE_SCHEMA (Step 4)
// with premise's optional additions (issue 4); every contract is compiled
// as CEL, so a typo fails here, before anything runs.
func ParseTable(name string, data []byte) (*Table, error) {
	if t, ok := scanTable(name, data); ok {
		return t, nil
	}
	return parseTableNodes(name, data)
}

// parseTableNodes is ParseTable through yaml.v3's node tree: any table,
// and every problem of one with its line.
func parseTableNodes(name string, data []byte) (*Table, error) {
	d := &decoder{file: name}
	t := &Table{}
	if root := d.parseDoc(data); root != nil {
		d.decodeTable(root, t)
	}
	d.compileContracts(t)
	if len(d.probs) > 0 {
		return nil, d.loadError()
	}
	return t, nil
}

// compileContracts compiles each distinct contract of t's rows once, on
// every CPU, and keeps them on t for the gate (Table.Contract), so that a
// contract is compiled once from the file to its verdicts. A contract that
// does not compile is a problem at every row holding it; ok is false then.
func (d *decoder) compileContracts(t *Table) bool {
	if len(d.contracts) == 0 {
		return true
	}
	exprs := make([]string, len(d.contracts))
	for i, c := range d.contracts {
		exprs[i] = c.expr
	}
	compiled, bad := compileContracts(exprs)
	for _, c := range d.contracts {
		if err := bad[c.expr]; err != nil {
			d.errf(c.line, "%s: %s", c.what, oneLine(err.Error()))
		}
	}
	t.contracts = compiled
	return len(bad) == 0
}

func (d *decoder) decodeTable(root *yaml.Node, t *Table) {
	if d.alias(root) {
		return
	}
	if root.Kind != yaml.MappingNode {
		d.errf(root.Line, "want a mapping with version, target and rows, got %s", describe(root))
		return
	}
	var rowsNode *yaml.Node
	top := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Kind == yaml.ScalarNode && root.Content[i].Value == "rows" {
			if rowsNode != nil {
				d.errf(root.Content[i].Line, "field \"rows\" given twice (first at line %d)", rowsNode.Line)
				continue
			}
			rowsNode = root.Content[i+1]
			continue
		}
		top.Content = append(top.Content, root.Content[i], root.Content[i+1])
	}
	keys := d.decodeStruct(top, reflect.ValueOf(t).Elem(), "table")
	if _, ok := keys["version"]; !ok {
		d.errf(root.Line, "table: missing field \"version\" (write version: %d)", FormatVersion)
	} else if t.Version != FormatVersion {
		d.errf(keys["version"], "table: version %d is not supported (want %d)", t.Version, FormatVersion)
	}
	switch t.Language {
	case "", LangPython, LangGo, LangExec, LangJavaScript, LangTypeScript:
	default:
		d.errf(keys["language"], "table: language %q must be python, go, javascript, typescript or exec", t.Language)
	}
	if rowsNode == nil {
		d.errf(root.Line, "table: missing field \"rows\" (write rows: [] for none)")
		return
	}
	if isNull(rowsNode) {
		t.Rows = []Row{}
		return
	}
	if rowsNode.Kind != yaml.SequenceNode {
		d.errf(rowsNode.Line, "table: rows: want a list, got %s", describe(rowsNode))
		return
	}
	t.Rows = make([]Row, len(rowsNode.Content))
	idLines := make([]int, len(rowsNode.Content))
	// Rows are independent: a large table is decoded on every CPU, each
	// worker with its own problems, merged in row order afterwards.
	workers := 1
	if len(t.Rows) >= 4096 {
		workers = runtime.GOMAXPROCS(0)
	}
	subs := make([]*decoder, workers)
	var wg sync.WaitGroup
	for w := range subs {
		sub := &decoder{file: d.file}
		subs[w] = sub
		from, to := w*len(t.Rows)/workers, (w+1)*len(t.Rows)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := from; i < to; i++ {
				n := rowsNode.Content[i]
				r := &t.Rows[i]
				r.SrcLine = n.Line
				idLines[i] = n.Line
				what := idOf(n)
				if what == "" {
					what = fmt.Sprintf("rows[%d]", i)
				}
				k := sub.decodeStruct(n, reflect.ValueOf(r).Elem(), what)
				if k == nil {
					continue
				}
				if l, ok := k["id"]; ok {
					idLines[i] = l
				}
				_, r.HasInp = k["inp"]
				sub.checkRow(t, r, k, what, n.Line)
			}
		}()
	}
	wg.Wait()
	for _, sub := range subs {
		d.probs = append(d.probs, sub.probs...)
		d.contracts = append(d.contracts, sub.contracts...)
	}
	ids := map[string]int{}
	for i, r := range t.Rows {
		if r.ID == "" || !rowIDRe.MatchString(r.ID) {
			continue
		}
		if l, dup := ids[r.ID]; dup {
			d.errf(idLines[i], "%s: id given twice (first at line %d)", r.ID, l)
		} else {
			ids[r.ID] = r.SrcLine
		}
	}
}

// checkRow applies the row schema: seed 004's FIXTURE_SCHEMA and premise's
// rules for its additions.
func (d *decoder) checkRow(t *Table, r *Row, k keyLines, what string, line int) {
	at := func(field string) int {
		if l, ok := k[field]; ok {
			return l
		}
		return line
	}
	switch {
	case r.ID == "":
		d.errf(at("id"), "%s: missing id (P001, P002, ...)", what)
	case !rowIDRe.MatchString(r.ID):
		d.errf(at("id"), "%s: id %q must be P and three or more digits, like P001", what, r.ID)
	}
	if strings.TrimSpace(r.Cls) == "" {
		d.errf(at("cls"), "%s: missing cls, the equivalence class (empty, touching, invalid_none, ...)", what)
	}
	switch r.Kind {
	case KindRepresentative, KindBoundary, KindInvalid, KindProperty:
	case "":
		d.errf(at("kind"), "%s: missing kind (representative, boundary, invalid or property)", what)
	default:
		d.errf(at("kind"), "%s: kind %q must be representative, boundary, invalid or property", what, r.Kind)
	}
	d.checkProperty(r, at, what)
	if n := utf8.RuneCountInString(strings.TrimSpace(r.Relation)); n < minRelation {
		if _, ok := k["relation"]; !ok {
			d.errf(line, "%s: missing relation, what must hold in words (%d characters at least)", what, minRelation)
		} else {
			d.errf(at("relation"), "%s: relation %q is shorter than %d characters; say what must hold", what, r.Relation, minRelation)
		}
	}
	if len(r.AssumptionIDs) == 0 {
		d.errf(at("assumption_ids"), "%s: assumption_ids must name at least one assumption: an untethered row is how the happy path sneaks back", what)
	}
	seen := map[string]bool{}
	for _, id := range r.AssumptionIDs {
		if !assumptionIDRe.MatchString(id) {
			d.errf(at("assumption_ids"), "%s: assumption id %q must be A (an assumption) or C (a change) and three or more digits, like A001 or C001", what, id)
		} else if seen[id] {
			d.errf(at("assumption_ids"), "%s: assumption id %s listed twice", what, id)
		}
		seen[id] = true
	}
	_, hasArgs := k["args"]
	_, hasKwargs := k["kwargs"]
	switch {
	case r.HasInp && (hasArgs || hasKwargs):
		d.errf(at("inp"), "%s: give either inp (the one argument) or args/kwargs, not both", what)
	case !r.HasInp && !hasArgs && !hasKwargs && r.Todo == "" && r.Kind != KindProperty && r.Test == "":
		d.errf(line, "%s: missing inp (or args/kwargs for several parameters); write inp: null to pass None", what)
	}
	if hasArgs && r.Args == nil {
		r.Args = []any{} // args: [] or args: null both mean "no positional arguments"
	}
	if r.Contract != "" {
		// Compiled after the walk, each distinct one once (compileContracts).
		d.contracts = append(d.contracts, pendingContract{expr: r.Contract, line: at("contract"), what: what})
		if r.SameAsBase {
			d.errf(at("same_as_base"), "%s: same_as_base and contract are exclusive: the base revision is the contract", what)
		}
	} else if _, ok := k["contract"]; ok {
		d.errf(at("contract"), "%s: contract is empty; remove it or write a CEL expression over result", what)
	}
	if r.Raises != "" {
		if r.Kind != KindInvalid {
			d.errf(at("raises"), "%s: raises is for invalid rows; this row is %s", what, r.Kind)
		}
		if r.Contract != "" {
			d.errf(at("raises"), "%s: a row that must raise has no result for its contract to judge", what)
		}
		if r.SameAsBase {
			d.errf(at("raises"), "%s: raises and same_as_base are exclusive: say what must be raised, or defer to the base", what)
		}
	}
	if r.Expect != nil {
		switch {
		case r.Contract != "" || r.SameAsBase || r.Raises != "":
			d.errf(at("expect"), "%s: expect pins the outcome itself; it takes no contract, same_as_base or raises", what)
		case r.Kind == KindInvalid || r.Kind == KindProperty:
			d.errf(at("expect"), "%s: expect is for boundary and representative rows; this row is %s", what, r.Kind)
		case r.Expect.Outcome == OutcomeRaised && r.Expect.Class == "":
			d.errf(at("expect"), "%s: expect: outcome raised needs its class", what)
		case r.Test != "" && r.Expect.Outcome != OutcomePassed && r.Expect.Outcome != OutcomeFailed:
			d.errf(at("expect"), "%s: expect: a test row's outcome %q must be passed or failed", what, r.Expect.Outcome)
		case r.Test == "" && !knownOutcome(r.Expect.Outcome):
			d.errf(at("expect"), "%s: expect: outcome %q must be returned, raised, unencodable, crashed or timeout", what, r.Expect.Outcome)
		case r.Expect.Varies && (r.Expect.Outcome != OutcomeReturned || r.Expect.Value != nil):
			d.errf(at("expect"), "%s: expect: varies says a returned value is not pinned; it takes outcome returned and no value", what)
		}
	}
	if r.Test != "" {
		_, hasInp := k["inp"]
		switch {
		case r.Expect == nil:
			d.errf(at("test"), "%s: a test row needs expect (outcome: passed or failed)", what)
		case hasInp || hasArgs || hasKwargs || r.Contract != "" || r.SameAsBase || r.Raises != "" || len(r.Metamorphic) > 0:
			d.errf(at("test"), "%s: a test row runs the test: it takes no inp, args, kwargs, contract, same_as_base, raises or metamorphic", what)
		}
	}
	switch r.Decision {
	case "", StatusAccepted, StatusRejected:
	default:
		d.errf(at("decision"), "%s: decision %q must be accepted or rejected", what, r.Decision)
	}
	rels := map[string]bool{}
	for _, m := range r.Metamorphic {
		switch m {
		case RelPermutation, RelIdempotent:
		default:
			d.errf(at("metamorphic"), "%s: metamorphic relation %q must be permutation or idempotent", what, m)
		}
		if rels[m] {
			d.errf(at("metamorphic"), "%s: metamorphic relation %s listed twice", what, m)
		}
		rels[m] = true
	}
	if t.Target == "" && r.Target == "" {
		d.errf(line, "%s: no target: give the table a target (intervals.merge_ranges) or the row one", what)
	}
	if _, ok := k["todo"]; ok && strings.TrimSpace(r.Todo) == "" {
		d.errf(at("todo"), "%s: todo is empty; say what the row still needs, or remove it", what)
	}
}

// Marshal writes the table as YAML, fields in a fixed order, each input in
// flow style on one line. `inp: null` is written when the row states it.
// The first line names the table's schema, for editors.
func (t *Table) Marshal() ([]byte, error) {
	n := encodeStruct(reflect.ValueOf(t).Elem())
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "rows" {
			continue
		}
		seq := n.Content[i+1]
		if t.Rows == nil {
			n.Content[i+1] = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
			break
		}
		seq.Style = 0 // rows are a block list, one mapping each
		for j, rn := range seq.Content {
			fixInp(rn, t.Rows[j])
		}
	}
	out, err := encodeDoc(n)
	if err != nil {
		return nil, fmt.Errorf("encode partition table: %w", err)
	}
	return append([]byte(schemas.Comment("partitions")), out...), nil
}

// fixInp makes the encoded row state inp exactly when the row does: a
// stated null is written as `inp: null`, and an absent inp is left out.
func fixInp(rn *yaml.Node, r Row) {
	idx := -1
	for i := 0; i+1 < len(rn.Content); i += 2 {
		if rn.Content[i].Value == "inp" {
			idx = i
		}
	}
	switch {
	case r.HasInp && idx < 0:
		// Insert after kind, where seed 004 puts it.
		pos := 0
		for i := 0; i+1 < len(rn.Content); i += 2 {
			if rn.Content[i].Value == "kind" || rn.Content[i].Value == "cls" || rn.Content[i].Value == "id" {
				pos = i + 2
			}
		}
		null := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		rest := append([]*yaml.Node{strNode("inp"), null}, rn.Content[pos:]...)
		rn.Content = append(rn.Content[:pos:pos], rest...)
	case !r.HasInp && idx >= 0 && r.Inp == nil:
		rn.Content = append(rn.Content[:idx:idx], rn.Content[idx+2:]...)
	}
}

// SaveTable writes t to path atomically, holding the table's lock for the
// write; use UpdateTable to change what is there.
func SaveTable(path string, t *Table) error {
	data, err := t.Marshal()
	if err != nil {
		return err
	}
	l, err := lockFile(context.Background(), path)
	if err != nil {
		return err
	}
	defer l.Unlock()
	return writeTable(path, data)
}

func writeTable(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("save partition table: %w", err)
	}
	return nil
}

// UpdateTable is the partition table's read-modify-write, as UpdateRegister
// is the register's: holding the table's lock it reads the file at path (nil
// when there is none), calls fn with what is there now, and writes what fn
// returns. Nothing is written when the file does not load, when fn fails or
// when it returns nil.
func UpdateTable(ctx context.Context, path string, fn func(now *Table) (*Table, error)) error {
	l, err := lockFile(ctx, path)
	if err != nil {
		return err
	}
	defer l.Unlock()
	now, err := LoadTable(path)
	if errors.Is(err, fs.ErrNotExist) {
		now, err = nil, nil
	}
	if err != nil {
		return err
	}
	t, err := fn(now)
	if err != nil || t == nil {
		return err
	}
	data, err := t.Marshal()
	if err != nil {
		return err
	}
	return writeTable(path, data)
}

// Lookup returns the row with id, or nil.
func (t *Table) Lookup(id string) *Row {
	for i := range t.Rows {
		if t.Rows[i].ID == id {
			return &t.Rows[i]
		}
	}
	return nil
}
