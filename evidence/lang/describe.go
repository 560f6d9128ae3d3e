package lang

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/gate"
)

// Describe says in a few words what one side of a call did: "raised
// ValueError", "returned [[0, 5]]", "timed out".
func Describe(r *gate.Reply) string { return DescribeWith(nil, r) }

// DescribeWith is describe with a returned value written by returned
// ("returned None" in Python's syntax); JSON when returned is nil.
func DescribeWith(returned func(v any) string, r *gate.Reply) string {
	if r == nil {
		return "did not run"
	}
	switch r.Outcome {
	case gate.OutcomeReturned:
		if returned != nil {
			return returned(r.Value)
		}
		return "returned " + Compact(r.Value, 80)
	case gate.OutcomeRaised:
		if r.Exc == nil {
			return "raised"
		}
		return "raised " + gate.RaisedClass(r.Exc)
	case gate.OutcomeTimeout:
		return "timed out"
	case gate.OutcomeCrashed:
		return "crashed"
	default:
		return r.Outcome
	}
}

// whereApart adds to the two sides' words, b and h, where their returned
// values first differ, when the words alone do not show it: both cut
// short, or alike ("returned {"browser":{"major":…" on both sides of a
// parser's result whose device model changed).
func whereApart(base, head *gate.Reply, b, h string) (string, string) {
	if base == nil || head == nil || base.Outcome != gate.OutcomeReturned || head.Outcome != gate.OutcomeReturned {
		return b, h
	}
	if b != h && !(strings.HasSuffix(b, "…") && strings.HasSuffix(h, "…")) {
		return b, h
	}
	at, x, y, ok := FirstDifference(base.Value, head.Value, "")
	if !ok || at == "" {
		return b, h
	}
	return shorter(b) + " where " + at + " is " + Compact(x, 60), shorter(h) + " where " + at + " is " + Compact(y, 60)
}

// shorter cuts a side's words to their first 48 runes: the value whole is
// in the row, and where it differs says the rest.
func shorter(s string) string {
	if r := []rune(s); len(r) > 48 {
		return strings.TrimSuffix(string(r[:47]), "…") + "…"
	}
	return s
}

// FirstDifference is where two values as the workers send them first
// differ, as a path of keys and indices (.device.model, [2]), and the
// values there; an encoded object's fields and getters ($fields,
// $getters) are read as its own members. ok is false when they are
// equal.
func FirstDifference(a, b any, at string) (string, any, any, bool) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok && tagOf(am) != tagOf(bm) {
		// A value of a kind JSON has no word for against another kind
		// ({"$nullproto": {}} against {}): the two wholes, not the tag's
		// key, are where they differ.
		return at, a, b, true
	}
	if aok && bok {
		union := maps.Clone(am)
		maps.Copy(union, bm)
		for _, k := range slices.Sorted(maps.Keys(union)) {
			x, inA := am[k]
			y, inB := bm[k]
			path := at + "." + k
			if k == "$fields" || k == "$getters" {
				path = at
			}
			if inA != inB {
				return path, x, y, true
			}
			if p, x, y, ok := FirstDifference(x, y, path); ok {
				return p, x, y, true
			}
		}
		return "", nil, nil, false
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			if p, x, y, ok := FirstDifference(al[i], bl[i], fmt.Sprintf("%s[%d]", at, i)); ok {
				return p, x, y, true
			}
		}
		return "", nil, nil, false
	}
	if Compact(a, 1<<20) == Compact(b, 1<<20) {
		return "", nil, nil, false
	}
	return at, a, b, true
}

// tagOf is the key of a value the workers write as a one-key "$" object
// ($nullproto, $utf16, $map, ...); "" for any other object.
func tagOf(m map[string]any) string {
	if len(m) != 1 {
		return ""
	}
	for k := range m {
		if strings.HasPrefix(k, "$") && k != "$fields" && k != "$getters" {
			return k
		}
	}
	return ""
}

// Compact renders v as one line of JSON, cut to max runes; <, > and &
// stay as they are ("<br />"), as a reviewer reads them.
func Compact(v any, max int) string {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// CallKey is a call's arguments whole, as rows are told apart by: two
// calls whose arguments differ only past the width CallText shows (a
// long text, a receiver built by a sequence of calls) are two rows.
func CallKey(args []any, kwargs map[string]any) string {
	b, err := json.Marshal(struct {
		Args   []any          `json:"a"`
		Kwargs map[string]any `json:"k,omitempty"`
	}{args, kwargs})
	if err != nil {
		return fmt.Sprint(args, kwargs)
	}
	return string(b)
}

// CallText renders a call's arguments as the reviewer would write the call.
func CallText(args []any, kwargs map[string]any) string {
	var parts []string
	for _, a := range args {
		parts = append(parts, Compact(a, 60))
	}
	// In key order, so one call reads the same every time.
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+Compact(kwargs[k], 60))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
