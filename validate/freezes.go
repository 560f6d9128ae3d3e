package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/premise-dev/premise/internal/atomicfile"
)

// DefaultFreezesPath is where seed 004 keeps frozen rows.
const DefaultFreezesPath = ".gate/frozen_rows.json"

// Freeze is one entry of .gate/frozen_rows.json, keyed by the row's hash
// (seed 004, Step 6: freeze the row, not the file). A freeze is a debt
// record, not a skip: the row still runs and is reported, and counts against
// the flake budget.
type Freeze struct {
	RowID  string `json:"row_id"`
	Reason string `json:"reason"`
	// ReplacementRow is the id of the deterministic row that replaces the
	// frozen one, or nil. Seed 004 blocks a merge when it is still nil after
	// one accepted patch cycle; FrozenAt and FrozenCommit let a check decide
	// that ("is there an accepted commit after FrozenCommit?").
	ReplacementRow *string `json:"replacement_row"`
	// FrozenAt is when the freeze was recorded (RFC 3339, UTC).
	FrozenAt string `json:"frozen_at,omitempty"`
	// FrozenCommit is HEAD of the repository when the freeze was recorded,
	// empty outside a git repository.
	FrozenCommit string `json:"frozen_commit,omitempty"`
	// Meaning is the frozen row's Row.Meaning under its table's target: the
	// freeze applies only to a row that still means the same.
	Meaning string `json:"meaning,omitempty"`
}

// Freezes is the whole freezes file: row hash -> freeze.
type Freezes map[string]Freeze

// LoadFreezes reads a freezes file. A missing file is no freezes, not an
// error: a repository starts with none.
func LoadFreezes(path string) (Freezes, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Freezes{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read freezes %s: %w", path, err)
	}
	return ParseFreezes(path, data)
}

// ParseFreezes parses the bytes of a freezes file; name is used in errors.
func ParseFreezes(name string, data []byte) (Freezes, error) {
	f := Freezes{}
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("freezes %s: %w", name, err)
	}
	if f == nil { // the file says null
		f = Freezes{}
	}
	if dec.More() {
		return nil, fmt.Errorf("freezes %s: more than one JSON value", name)
	}
	// Every bad entry is reported at once, in key order.
	keys := make([]string, 0, len(f))
	for h := range f {
		keys = append(keys, h)
	}
	sort.Strings(keys)
	var probs []Problem
	for _, h := range keys {
		z := f[h]
		if !isRowHash(h) {
			probs = append(probs, Problem{File: name, Msg: fmt.Sprintf("key %q is not a row hash (16 lower-case hex digits)", h)})
		}
		if z.RowID == "" {
			probs = append(probs, Problem{File: name, Msg: fmt.Sprintf("%s has no row_id", h)})
		}
		if z.Reason == "" {
			probs = append(probs, Problem{File: name, Msg: fmt.Sprintf("%s (%s) has no reason", h, z.RowID)})
		}
	}
	if len(probs) > 0 {
		return nil, &LoadError{File: name, Problems: probs}
	}
	return f, nil
}

func isRowHash(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Save writes the freezes file atomically, keys sorted, two-space indented.
func (f Freezes) Save(path string) error {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range keys {
		v, err := json.MarshalIndent(f[k], "  ", "  ")
		if err != nil {
			return fmt.Errorf("write freezes %s: %w", path, err)
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  %q: %s", k, v)
	}
	if len(keys) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write freezes %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write freezes %s: %w", path, err)
	}
	return nil
}

// NewFreeze returns a freeze of rowID made now.
func NewFreeze(rowID, reason string, replacement string, now time.Time, commit string) Freeze {
	z := Freeze{RowID: rowID, Reason: reason, FrozenAt: now.UTC().Format(time.RFC3339), FrozenCommit: commit}
	if replacement != "" {
		z.ReplacementRow = &replacement
	}
	return z
}
