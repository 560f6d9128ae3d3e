package validate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/filelock"
	"github.com/premise-dev/premise/schemas"
	"gopkg.in/yaml.v3"
)

// FormatVersion is the only version of assumptions.yaml and partitions.yaml
// premise reads and writes (seed 004 writes `version: 1`).
const FormatVersion = 1

// Ids are seed 004's ^A[0-9]{3}$ and ^P[0-9]{3}$, widened to three or
// more digits: a register past A999 or a table past P999 (issue 4 asks for
// 5,000 and 20,000) must still load, and every seed id still matches.
var (
	assumptionIDRe = regexp.MustCompile(`^[AC][0-9]{3,}$`)
	rowIDRe        = regexp.MustCompile(`^P[0-9]{3,}$`)
)

// LoadRegister reads and validates the register at path. A file that does
// not parse or breaks the schema yields a *LoadError listing every problem.
func LoadRegister(path string) (*Register, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read register: %w", err)
	}
	return ParseRegister(path, data)
}

// ParseRegister decodes and validates a register; name is the file name
// used in problems. Unknown fields are refused, as seed 004's schema says
// (additionalProperties: false).
func ParseRegister(name string, data []byte) (*Register, error) {
	d := &decoder{file: name}
	r := &Register{}
	if root := d.parseDoc(data); root != nil {
		d.decodeRegister(root, r)
	}
	if len(d.probs) > 0 {
		return nil, d.loadError()
	}
	return r, nil
}

func (d *decoder) decodeRegister(root *yaml.Node, r *Register) {
	if d.alias(root) {
		return
	}
	if root.Kind != yaml.MappingNode {
		d.errf(root.Line, "want a mapping with version, patch_ref and items, got %s", describe(root))
		return
	}
	rv := reflect.ValueOf(r).Elem()
	// Items are decoded one by one so that each keeps its line.
	var itemsNode *yaml.Node
	top := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "items" && root.Content[i].Kind == yaml.ScalarNode {
			if itemsNode != nil {
				d.errf(root.Content[i].Line, "field \"items\" given twice (first at line %d)", itemsNode.Line)
				continue
			}
			itemsNode = root.Content[i+1]
			continue
		}
		top.Content = append(top.Content, root.Content[i], root.Content[i+1])
	}
	keys := d.decodeStruct(top, rv, "register")
	if _, ok := keys["version"]; !ok {
		d.errf(root.Line, "register: missing field \"version\" (write version: %d)", FormatVersion)
	} else if r.Version != FormatVersion {
		d.errf(keys["version"], "register: version %d is not supported (want %d)", r.Version, FormatVersion)
	}
	if itemsNode == nil {
		d.errf(root.Line, "register: missing field \"items\" (write items: [] for none)")
		return
	}
	if isNull(itemsNode) {
		r.Items = []Item{}
		return
	}
	if itemsNode.Kind != yaml.SequenceNode {
		d.errf(itemsNode.Line, "register: items: want a list, got %s", describe(itemsNode))
		return
	}
	r.Items = make([]Item, len(itemsNode.Content))
	ids := map[string]int{}
	for i, n := range itemsNode.Content {
		it := &r.Items[i]
		it.SrcLine = n.Line
		what := idOf(n)
		if what == "" {
			what = fmt.Sprintf("items[%d]", i)
		}
		k := d.decodeStruct(n, reflect.ValueOf(it).Elem(), what)
		if k == nil {
			continue
		}
		at := func(field string) int {
			if l, ok := k[field]; ok {
				return l
			}
			return n.Line
		}
		switch {
		case it.ID == "":
			d.errf(at("id"), "%s: missing id (A001, A002, ...)", what)
		case !assumptionIDRe.MatchString(it.ID):
			d.errf(at("id"), "%s: id %q must be A (an assumption) or C (a change) and three or more digits, like A001 or C001", what, it.ID)
		default:
			if l, dup := ids[it.ID]; dup {
				d.errf(at("id"), "%s: id given twice (first at line %d)", it.ID, l)
			} else {
				ids[it.ID] = n.Line
			}
		}
		for _, f := range []struct{ name, val string }{
			{"symbol", it.Symbol}, {"precondition", it.Precondition}, {"evidence", it.Evidence},
		} {
			if strings.TrimSpace(f.val) == "" {
				d.errf(at(f.name), "%s: missing %s", what, f.name)
			}
		}
		switch it.Status {
		case StatusProposed, StatusAccepted, StatusRejected:
		case "":
			d.errf(at("status"), "%s: missing status (proposed, accepted or rejected)", what)
		default:
			d.errf(at("status"), "%s: status %q must be proposed, accepted or rejected", what, it.Status)
		}
		if it.Line < 0 {
			d.errf(at("line"), "%s: line %d must be positive", what, it.Line)
		}
		checkChangeItem(d, it, what, at)
	}
}

// Marshal writes the register as YAML, fields in a fixed order (seed 004's
// first, premise's after), so that a rewrite changes only what changed. The
// first line names the register's schema, for editors.
// Comments are not kept; EditRegister keeps them.
func (r *Register) Marshal() ([]byte, error) {
	n := encodeStruct(reflect.ValueOf(r).Elem())
	if r.Items == nil {
		// items is required on input; write [] rather than null.
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "items" {
				n.Content[i+1] = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
			}
		}
	}
	out, err := encodeDoc(n)
	if err != nil {
		return nil, fmt.Errorf("encode register: %w", err)
	}
	return append([]byte(schemas.Comment("assumptions")), out...), nil
}

// SaveRegister writes r to path atomically: a reader sees the old file or
// the new one, never half of either. It holds the register's lock for the
// write, so it never lands in the middle of another process's
// read-modify-write; use UpdateRegister to change what is there.
func SaveRegister(path string, r *Register) error {
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	l, err := lockFile(context.Background(), path)
	if err != nil {
		return err
	}
	defer l.Unlock()
	return writeRegister(path, data)
}

func writeRegister(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("save register: %w", err)
	}
	return nil
}

// UpdateRegister is the register's read-modify-write (issue 14, part 6:
// decisions never lost). Holding the register's lock, it reads the file at
// path (nil when there is none), calls fn with what is there now, and writes
// what fn returns; the lock is released when the file is written. Nothing is
// written when the file does not load, when fn fails, or when fn returns
// nil. fn must not wait on anything slow (a model): every accept and reject
// waits for it.
func UpdateRegister(ctx context.Context, path string, fn func(now *Register) (*Register, error)) error {
	l, err := lockFile(ctx, path)
	if err != nil {
		return err
	}
	defer l.Unlock()
	now, err := LoadRegister(path)
	if errors.Is(err, fs.ErrNotExist) {
		now, err = nil, nil
	}
	if err != nil {
		return err
	}
	r, err := fn(now)
	if err != nil || r == nil {
		return err
	}
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	return writeRegister(path, data)
}

// lockFile takes the lock guarding path's read-modify-write cycles, waiting
// up to filelock.DefaultTimeout or ctx's deadline.
func lockFile(ctx context.Context, path string) (*filelock.Lock, error) {
	return filelock.Acquire(ctx, path, 0)
}

// Lookup returns the item with id, or nil.
func (r *Register) Lookup(id string) *Item {
	for i := range r.Items {
		if r.Items[i].ID == id {
			return &r.Items[i]
		}
	}
	return nil
}
