package gate

import (
	"maps"
	"strings"
)

// Same says whether head's reply is the base's outcome: the same value,
// or a raise of the same class (replyKey), where an object's private
// attributes that only one side has are no part of its value. A refactor
// that keeps a derived value in a new private attribute (self._look_for,
// computed once in __init__ where a method computed it each call) shows
// the same object to every caller; a private attribute both sides have,
// and any public one, still decide.
func Same(head, base Reply) bool { return sameKeyed(head, base, replyKey(head), replyKey(base)) }

// sameKeyed is Same for replies whose keys (replyKey) the caller has
// already made: a row's comparison makes each once.
func sameKeyed(head, base Reply, hk, bk string) bool {
	if hk == bk {
		return true
	}
	if head.Outcome != OutcomeReturned || base.Outcome != OutcomeReturned {
		return false
	}
	h, b, dropped := withoutOneSidedPrivate(head.Value, base.Value)
	if !dropped {
		return false
	}
	return replyKey(Reply{Outcome: OutcomeReturned, Value: h}) == replyKey(Reply{Outcome: OutcomeReturned, Value: b})
}

// withoutOneSidedPrivate walks a and b together and leaves out of each
// encoded object's fields ($fields) those named as private (a leading _)
// that the other side's object of the same place lacks; dropped says
// whether it left any out. a and b are not changed.
func withoutOneSidedPrivate(a, b any) (any, any, bool) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return a, b, false
		}
		xf, xok := x["$fields"].(map[string]any)
		yf, yok := y["$fields"].(map[string]any)
		if xok && yok {
			xf2, yf2, dropped := alignMaps(xf, yf, true)
			x2, y2 := maps.Clone(x), maps.Clone(y)
			x2["$fields"], y2["$fields"] = xf2, yf2
			return x2, y2, dropped
		}
		return alignMaps(x, y, false)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return a, b, false
		}
		x2, y2, dropped := make([]any, len(x)), make([]any, len(y)), false
		for i := range x {
			var d bool
			x2[i], y2[i], d = withoutOneSidedPrivate(x[i], y[i])
			dropped = dropped || d
		}
		return x2, y2, dropped
	}
	return a, b, false
}

// alignMaps is x and y, their shared keys' values aligned in turn; with
// fields, two objects' fields, less the private ones only one has.
func alignMaps(x, y map[string]any, fields bool) (map[string]any, map[string]any, bool) {
	x2, y2, dropped := map[string]any{}, map[string]any{}, false
	keep := func(from, other, to map[string]any) {
		for k, v := range from {
			if _, both := other[k]; fields && !both && strings.HasPrefix(k, "_") {
				dropped = true
				continue
			}
			to[k] = v
		}
	}
	keep(x, y, x2)
	keep(y, x, y2)
	for k := range x2 {
		if _, both := y2[k]; both {
			var d bool
			x2[k], y2[k], d = withoutOneSidedPrivate(x2[k], y2[k])
			dropped = dropped || d
		}
	}
	return x2, y2, dropped
}
