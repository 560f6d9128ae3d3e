package lang

import (
	"encoding/json"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/validate"
)

const SourceGuided = "coverage_guided"

// Mutants are a row's calls with one argument changed a small step each
// way; arguments premise builds itself (a receiver's constructor, a Python
// expression: objects with "$" keys) are kept as they are.
func Mutants(r validate.Row) []validate.Row {
	return stepArgs(r, func(_ int, a any) []any { return mutateValue(a, 0) })
}

// WordMutants are r's steps that put one of words, the changed function's
// own literals, at either end of a string argument: the separator or
// suffix a branch of the function looks for ("5" -> "5#", "5l") is a step
// the generic ones never take.
func WordMutants(r validate.Row, words []string) []validate.Row {
	return stepArgs(r, func(_ int, a any) []any {
		x, ok := a.(string)
		if !ok {
			return nil
		}
		var out []any
		for _, w := range words {
			for _, v := range []string{x + w, w + x} {
				if v != x {
					out = append(out, v)
				}
			}
		}
		return out
	})
}

// ExprMutants are r's calls with one argument written as source
// ({"$expr": ...}) stepped by step (ExprStepper), its imports kept.
func ExprMutants(r validate.Row, step func(string) []string) []validate.Row {
	return stepArgs(r, func(_ int, a any) []any {
		m, ok := a.(map[string]any)
		if !ok {
			return nil
		}
		src, ok := m["$expr"].(string)
		if !ok {
			return nil
		}
		var out []any
		for _, e := range step(src) {
			v := maps.Clone(m)
			v["$expr"] = e
			out = append(out, v)
		}
		return out
	})
}

// BuiltMutants are r's calls with one argument that premise builds for
// the call ({"$new": ..., "$args": [...]}: new BN(12) passed to gcd),
// from argument from on (past a method's receiver), built a step away
// (SteppedBuilt: new BN(0)).
func BuiltMutants(r validate.Row, from int) []validate.Row {
	return stepArgs(r, func(i int, a any) []any {
		if i < from {
			return nil
		}
		return SteppedBuilt(a)
	})
}

// SteppedBuilt are an object built for the call ({"$new": ..., "$args":
// [...]}) built with one of its arguments changed a small step each way
// (Mutants: a number negated or moved by one, a string emptied or its
// case flipped); none for any other value.
func SteppedBuilt(v any) []any {
	x, ok := v.(map[string]any)
	built, isList := x["$args"].([]any)
	if !ok || x["$new"] == nil || !isList {
		return nil
	}
	var out []any
	with := func(b []any) {
		stepped := maps.Clone(x)
		stepped["$args"] = b
		out = append(out, stepped)
	}
	for _, b := range degenerate(built) {
		with(b)
	}
	for _, s := range Mutants(PositionalRow("", built)) {
		b, _ := s.CallArgs()
		with(b)
	}
	return out
}

// degenerate are the constructor arguments of an object of several
// numbers (a complex number, a quaternion, a vector) taken to where
// numeric code parts, which stepping one number at a time never reaches:
// every number after the first zero, the first kept and negated (a real
// quaternion, -1 on the real axis, where a logarithm or a root takes
// another path), and every number scaled close to zero (1e-10 times
// itself, where a formula loses its digits and a series is used instead).
func degenerate(args []any) [][]any {
	var at []int
	var nums []float64
	for i, a := range args {
		if v, ok := numberOf(a); ok {
			at, nums = append(at, i), append(nums, v)
		}
	}
	if len(at) == 0 {
		return nil
	}
	set := func(f func(k int, v float64) float64) []any {
		b := append([]any(nil), args...)
		for k, i := range at {
			b[i] = f(k, nums[k])
		}
		return b
	}
	rest := slices.ContainsFunc(nums[1:], func(v float64) bool { return v != 0 })
	var out [][]any
	if rest && nums[0] != 0 {
		for _, sign := range []float64{1, -1} {
			out = append(out, set(func(k int, v float64) float64 {
				if k == 0 {
					return sign * v
				}
				return 0
			}))
		}
	}
	if rest || nums[0] != 0 {
		out = append(out, set(func(_ int, v float64) float64 { return v * 1e-10 }))
	}
	return out
}

// numberOf is Number's reading of v, a number a row was decoded with
// (json.Number: a receiver harvested from the tests) included.
func numberOf(v any) (float64, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	return Number(v)
}

// stepArgs are r's calls with one argument (the i-th) replaced by each of
// its steps.
func stepArgs(r validate.Row, steps func(i int, a any) []any) []validate.Row {
	args, kwargs := r.CallArgs()
	var out []validate.Row
	for i, a := range args {
		for _, v := range steps(i, a) {
			m := r
			m.HasInp, m.Inp = false, nil
			m.Args = append(append(append([]any{}, args[:i]...), v), args[i+1:]...)
			m.Kwargs = kwargs
			out = append(out, m)
		}
	}
	return out
}

// mutateValue is a value's small steps: a number by one each way, negated,
// zero; a string emptied, shortened, doubled, case-flipped, a digit or a
// space added, and a number written as text negated; a list emptied, without its first or last element, its first
// repeated, reversed, its first element stepped; an object without a key.
func mutateValue(v any, depth int) []any {
	if depth > 2 {
		return nil
	}
	switch x := v.(type) {
	case bool:
		return []any{!x}
	case int:
		return intSteps(int64(x))
	case int64:
		return intSteps(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return intSteps(n)
		}
		if f, err := x.Float64(); err == nil {
			return floatSteps(f)
		}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return intSteps(int64(x))
		}
		return floatSteps(x)
	case string:
		out := []any{"", x + x, x + "0", x + " "}
		if rs := []rune(x); len(rs) > 0 {
			// A character off either end, never a byte: half of a
			// character is text no caller passes, and JSON carries it as
			// U+FFFD, not as what the row says.
			out = append(out, string(rs[:len(rs)-1]), string(rs[1:]))
		}
		if up := strings.ToUpper(x); up != x {
			out = append(out, up)
		}
		if low := strings.ToLower(x); low != x {
			out = append(out, low)
		}
		// A number written as text, negated (Fraction("0.333") as
		// "-0.333", "44.3(12)" as "-44.3(12)"): the sign is where number
		// code parts.
		if numberText.MatchString(x) {
			if neg, ok := strings.CutPrefix(x, "-"); ok {
				out = append(out, neg)
			} else {
				out = append(out, "-"+strings.TrimPrefix(x, "+"))
			}
		}
		return out
	case []any:
		if len(x) == 0 {
			return nil
		}
		rev := make([]any, len(x))
		for i, e := range x {
			rev[len(x)-1-i] = e
		}
		out := []any{[]any{}, x[1:], x[:len(x)-1], append([]any{x[0]}, x...), rev}
		for _, e := range mutateValue(x[0], depth+1) {
			out = append(out, append([]any{e}, x[1:]...))
		}
		return out
	case map[string]any:
		var keys []string
		for k := range x {
			if strings.HasPrefix(k, "$") {
				return nil
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out []any
		for _, drop := range keys {
			m := map[string]any{}
			for k, e := range x {
				if k != drop {
					m[k] = e
				}
			}
			out = append(out, m)
		}
		return out
	}
	return nil
}

// numberText is a text that starts as a number does: a digit, after a
// sign or a point.
var numberText = regexp.MustCompile(`^[+-]?\.?[0-9]`)

func intSteps(n int64) []any {
	var out []any
	seen := map[int64]bool{n: true}
	for _, m := range []int64{n + 1, n - 1, -n, 0, n * 2, n / 2} {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

func floatSteps(f float64) []any {
	return []any{f + 1, f - 1, -f, 0.0, f * 2, f / 2, math.Trunc(f)}
}
