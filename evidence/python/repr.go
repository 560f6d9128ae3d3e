package python

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// pyRepr renders a row value in Python syntax, as a reviewer of a Python
// patch reads it (issue 13, part 9: `take([1, 2, 3], None)`, not `null`),
// cut to about max runes.
func pyRepr(v any, max int) string {
	var b strings.Builder
	writePy(&b, v, 0)
	s := b.String()
	if r := []rune(s); max > 0 && len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// tupleKey marks a value the Python worker returned as a tuple, on
// evidence rows ($observe): {"$tuple": [items]}.
const tupleKey = "$tuple"

func writePy(b *strings.Builder, v any, depth int) {
	if depth > maxLiteralDepth {
		b.WriteString("...")
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(pyQuote(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		switch {
		case math.IsInf(x, 1):
			b.WriteString("float('inf')")
		case math.IsInf(x, -1):
			b.WriteString("float('-inf')")
		case math.IsNaN(x):
			b.WriteString("float('nan')")
		case x == math.Trunc(x) && math.Abs(x) < 1e16:
			b.WriteString(strconv.FormatFloat(x, 'f', 1, 64))
		default:
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	case json.Number:
		b.WriteString(x.String())
	case pyExpr:
		b.WriteString(string(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePy(b, e, depth+1)
		}
		b.WriteByte(']')
	case map[string]any:
		if e, ok := x[lang.ExprKey].(string); ok {
			b.WriteString(e) // a harvested expression, as written
			return
		}
		if t, ok := x[tupleKey].([]any); ok && len(x) == 1 {
			// A tuple the worker told from a list.
			b.WriteByte('(')
			for i, e := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				writePy(b, e, depth+1)
			}
			if len(t) == 1 {
				b.WriteByte(',')
			}
			b.WriteByte(')')
			return
		}
		if e, ok := x[lang.ReprKey].(string); ok && len(x) == 1 {
			b.WriteString(e) // an object the worker could only show
			return
		}
		if e, ok := x[lang.ReprKey].(string); ok && len(x) == 2 {
			if fields, ok := x[lang.FieldsKey].(map[string]any); ok {
				// An object shown by its attributes.
				b.WriteString(e)
				writePy(b, fields, depth+1)
				return
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyQuote(k))
			b.WriteString(": ")
			writePy(b, x[k], depth+1)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%v", x)
	}
}

// pyQuote quotes s as Python's repr does: single quotes unless s holds one
// and no double quote.
func pyQuote(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// pyExpr is a value already written as Python source (a harvested
// argument), shown as written.
type pyExpr string

// pyCallText renders a call's arguments in Python syntax: (x, y, k=v), the
// keyword arguments in name order.
func pyCallText(args []any, kwargs map[string]any) string {
	var parts []string
	for _, a := range args {
		parts = append(parts, pyRepr(a, 60))
	}
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "$") {
			continue // the worker's protocol, not the subject's
		}
		parts = append(parts, k+"="+pyRepr(kwargs[k], 60))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// pyOutcome renders what a Python evidence call returned: the value, an
// iterator's items, and the arguments a call changed in place.
func pyOutcome(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "returned " + pyRepr(v, 80)
	}
	if first, ok := m[lang.FirstItemsKey]; ok && len(m) == 1 {
		return "yielded " + pyRepr(first, 80) + " and more"
	}
	if calls, ok := m[lang.CallsKey].([]any); ok && len(m) == 1 {
		return "returned a function: " + probeText(calls)
	}
	if again, ok := m[lang.AliasedKey]; ok && len(m) == 2 {
		return pyOutcome(m[lang.ReturnedKey]) + ", which shares its arguments' state: called again after the caller added to it, it returned " + pyRepr(again, 60)
	}
	after, hasAfter := m[lang.ArgsAfterKey].(map[string]any)
	ret, hasRet := m[lang.ReturnedKey]
	if !hasAfter || !hasRet || len(m) != 2 {
		return "returned " + pyRepr(v, 80)
	}
	return pyOutcome(ret) + "; " + lang.ArgsAfterText(after, afterText)
}

// afterText writes an argument as the call left it: an object of the
// code's own by the attributes the call changed, when the worker names
// them ({"$state": ..., "$changed": [...]}: "{header='&C…'}"), else as
// it is.
func afterText(v any) string {
	m, _ := v.(map[string]any)
	state, _ := m["$state"].(map[string]any)
	changed, _ := m["$changed"].([]any)
	if state == nil || len(changed) == 0 {
		return pyRepr(v, 60)
	}
	var parts []string
	for _, c := range changed {
		name, _ := c.(string)
		if sv, ok := state[name]; ok && len(parts) < 4 {
			parts = append(parts, name+"="+pyRepr(sv, 40))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// probes are the calls the worker makes of a returned function, in the
// order of its replies (gate/harness/python_worker.py, _PROBES).
var probes = []string{"()", "(0)", "(1)", "(-2)", "(3)", "('ab')", "([3, 1, 2])", "(-2, 3)", "(2, 3)", "('a', 'b')", "(f)"}

// attrProbes are the calls the worker makes of each function a returned
// function carries, in order.
var attrProbes = []string{"()", "(0)", "(1)", "(1)"}

// pyDescribe is what a Python row did on each side. Two returned functions
// whose first probes agree are told apart by the first call on which they
// differ: "returned a function; f(f)(1) = 1" against "...; f(f)(1) raised
// KeyError".
func pyDescribe(base, head *gate.Reply, extra []any) (string, string) {
	b, h := lang.DescribeWith(pyOutcome, base), lang.DescribeWith(pyOutcome, head)
	if b != h || base == nil || head == nil || base.Outcome != gate.OutcomeReturned || head.Outcome != gate.OutcomeReturned {
		return b, h
	}
	if label, bv, hv, ok := pyProbes.FirstDiff("f", base.Value, head.Value, extra); ok {
		return "returned a function; " + label + bv, "returned a function; " + label + hv
	}
	return b, h
}

// pyProbes is how the Python worker's probes of a returned function are
// written.
var pyProbes = lang.CallProbes{Probes: probes, AttrProbes: attrProbes, Raised: "raised",
	Args: func(args []any) string { return pyCallText(args, nil) },
	Show: func(v any) string { return pyRepr(v, 40) }}

// probeText shows what a returned function did on the probes that did not
// raise, then how many raised: f(0) = 0, f(-2, 3) = 8; 4 raised.
func probeText(calls []any) string {
	var parts []string
	raised := 0
	for i, c := range calls {
		if m, ok := c.(map[string]any); ok {
			if _, ok := m["$raised"]; ok {
				raised++
				continue
			}
			if _, ok := m["$attr"]; ok {
				continue
			}
		}
		if i < len(probes) && len(parts) < 4 {
			parts = append(parts, "f"+probes[i]+" = "+pyRepr(c, 30))
		}
	}
	if raised > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d calls raised", raised, len(calls)))
	}
	return strings.Join(parts, ", ")
}
