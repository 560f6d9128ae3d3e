package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/gowebpki/jcs"
)

// Hash returns the row's hash: the first 16 hex digits of sha256 over the
// RFC 8785 (JCS) canonical JSON of {"id": ..., "inp": ...} (seed 004,
// Step 5's row_hash; DESIGN.md). A row called with args/kwargs hashes
// {"id": ..., "inp": {"args": [...], "kwargs": {...}}}, with [] and {} for
// absent parts, so that a Python tool can compute the same value.
//
// JCS, not Python's json.dumps, is the reference: they agree on integers
// below 2^53, text (with ensure_ascii=False) and sorted keys, and differ
// where json.dumps differs from JCS: 1.0 canonicalises to 1, and 2^53+1 to
// 9007199254740992, as an IEEE double. Every row that loads from a file has
// a hash; for a row built in memory with a value JSON cannot carry (NaN),
// Hash falls back to hashing the value's Go formatting, so it never panics.
func (r Row) Hash() string {
	h, err := r.hash()
	if err != nil {
		sum := sha256.Sum256([]byte(fmt.Sprintf("unhashable %q %#v %#v %#v", r.ID, r.Inp, r.Args, r.Kwargs)))
		return hex.EncodeToString(sum[:])[:16]
	}
	return h
}

// hashInput is what Hash canonicalises under "inp".
func (r Row) hashInput() any {
	if r.HasInp || (r.Args == nil && r.Kwargs == nil) {
		return r.Inp
	}
	args := r.Args
	if args == nil {
		args = []any{}
	}
	kwargs := r.Kwargs
	if kwargs == nil {
		kwargs = map[string]any{}
	}
	return map[string]any{"args": args, "kwargs": kwargs}
}

func (r Row) hash() (string, error) {
	var buf [256]byte
	canon, ok := r.appendHashed(buf[:0])
	if !ok {
		var err error
		if canon, err = CanonicalJSON(map[string]any{"id": r.ID, "inp": r.hashInput()}); err != nil {
			return "", err
		}
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:8]), nil // the first 16 hex digits
}

// Meaning is a digest of what the row means under target: the target and
// the row's id, inputs, kind, contract, relation and expected failure. A
// freeze records it, so a freeze made for one table's row never applies to
// another table's row that shares its id and inputs, nor to the row after
// it was edited (issue 14, part 7). Hash stays seed 004's {id, inp}.
func (r Row) Meaning(target string) string {
	canon, err := CanonicalJSON(map[string]any{
		"target": target, "id": r.ID, "inp": r.hashInput(), "kind": r.Kind,
		"contract": r.Contract, "relation": r.Relation, "raises": r.Raises,
		"same_as_base": r.SameAsBase, "metamorphic": anyStrings(r.Metamorphic), "test": r.Test,
	})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])[:16]
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// CanonicalJSON encodes v as RFC 8785 canonical JSON: sorted keys, no
// spaces, numbers as ECMAScript prints them, text unescaped except where
// JSON requires it.
//
// The JSON shapes rows are made of (nil, bool, string, numbers, []any,
// map[string]any) are written directly (hash_canonical.go): a gate hashes
// every row before its first verdict, and encoding then re-parsing each
// (json.Marshal, jcs.Transform) was most of that. Anything else, or a value the direct
// path has doubts about, goes through json.Marshal and jcs.Transform;
// FuzzCanonicalJSON holds the two equal.
func CanonicalJSON(v any) ([]byte, error) {
	if out, ok := appendCanonical(nil, v); ok {
		return out, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	return out, nil
}
