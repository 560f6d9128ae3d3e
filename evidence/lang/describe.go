package lang

import (
	"encoding/json"
	"fmt"
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
		return "raised " + r.Exc.Class
	case gate.OutcomeTimeout:
		return "timed out"
	case gate.OutcomeCrashed:
		return "crashed"
	default:
		return r.Outcome
	}
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
