package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/premise-dev/premise/validate"
)

// A property row (validate.KindProperty) runs its check over Count inputs
// generated from its strategy with its fixed seed; the first input that
// breaks the property is shrunk to a smallest one that still breaks it,
// and reported with the seed that finds it again (seed 001, layer 1: fix
// the seed; a gate that fails differently on every run is a flaky gate).

// maxShrinkCalls bounds the calls spent shrinking one failure.
const maxShrinkCalls = 2000

// defaultAlphabet is what a text strategy draws from unless told: printable
// ASCII and a few letters beyond it, no control characters.
const defaultAlphabet = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~éßΩж日本🙂"

// propertyRun is one property row being run.
type propertyRun struct {
	rn    *Runner
	p     plannedRow
	prop  *validate.Property
	calls int
	rng   *rand.Rand // the permutation check's shuffles
}

// runProperty runs a property row once: its inputs are fixed by its seed,
// so reruns would repeat the same calls.
func (rn *Runner) runProperty(ctx context.Context, p plannedRow) (RowResult, string, error) {
	r := p.row
	res := RowResult{ID: r.ID, Hash: p.hash, Kind: r.Kind, Cls: r.Cls, Target: p.target, Line: r.SrcLine, meaning: p.meaning}
	pr := &propertyRun{rn: rn, p: p, prop: r.Property, rng: rand.New(rand.NewSource(r.Property.Seed))}
	count := pr.prop.Count
	if count <= 0 {
		count = validate.DefaultPropertyCount
	}
	start := time.Now()
	gen := rand.New(rand.NewSource(pr.prop.Seed))
	a := Attempt{Status: StatusPass}
	for i := 0; i < count; i++ {
		x := generate(pr.prop.Strategy, gen)
		why, err := pr.breaks(ctx, x)
		if err != nil {
			var ie *InfraError
			if errors.As(err, &ie) {
				a.Status, a.Why = StatusError, ie.Error()
				res.finishProperty(a, time.Since(start))
				return res, ie.Error(), nil
			}
			return res, "", err
		}
		if why == "" {
			continue
		}
		small, smallWhy, steps, err := pr.shrink(ctx, x, why)
		if err != nil {
			return res, "", err
		}
		a.Status = StatusFail
		a.Why = fmt.Sprintf("%s fails on %s (seed %d, input %d of %d; shrunk from %s in %d steps): %s",
			pr.prop.Check, jsonText(small), pr.prop.Seed, i+1, count, jsonText(x), steps, smallWhy)
		a.Reply = Reply{Outcome: OutcomeReturned, Value: small}
		res.finishProperty(a, time.Since(start))
		return res, "", nil
	}
	a.Why = fmt.Sprintf("%s holds on %d inputs from seed %d", pr.prop.Check, count, pr.prop.Seed)
	res.finishProperty(a, time.Since(start))
	return res, "", nil
}

func (res *RowResult) finishProperty(a Attempt, d time.Duration) {
	a.Duration = d
	res.Attempts = []Attempt{a}
	res.Seen = []string{a.Status}
	res.Status, res.Why = a.Status, a.Why
	res.Broken = a.Status != StatusPass
}

// call calls fn with the single argument x.
func (pr *propertyRun) call(ctx context.Context, fn string, x any) (Reply, error) {
	pr.calls++
	id := fmt.Sprintf("%s~%d", pr.p.row.ID, pr.calls)
	return pr.rn.call(ctx, pr.rn.Adapter, id, fn, []any{x}, map[string]any{})
}

// value returns what fn(x) returned, or why it did not return.
func (pr *propertyRun) value(ctx context.Context, fn string, x any) (any, string, error) {
	rep, err := pr.call(ctx, fn, x)
	if err != nil {
		return nil, "", err
	}
	switch rep.Outcome {
	case OutcomeReturned:
		return rep.Value, "", nil
	case OutcomeRaised:
		exc := rep.Exc
		if exc == nil {
			exc = &Exc{Class: "?"}
		}
		return nil, fn + " raised " + excString(exc), nil
	}
	return nil, fmt.Sprintf("%s: %s %s", fn, rep.Outcome, rep.Detail), nil
}

// breaks returns how x breaks the property, or "" when it holds.
func (pr *propertyRun) breaks(ctx context.Context, x any) (string, error) {
	target := pr.p.target
	switch pr.prop.Check {
	case validate.PropNeverRaises:
		_, why, err := pr.value(ctx, target, x)
		return why, err
	case validate.PropRoundTrip:
		s, why, err := pr.value(ctx, pr.prop.Inverse, x)
		if err != nil || why != "" {
			return why, err
		}
		y, why, err := pr.value(ctx, target, s)
		if err != nil || why != "" {
			return why, err
		}
		if !sameJSON(x, y) {
			return fmt.Sprintf("%s gave %s, %s of that gave %s", pr.prop.Inverse, jsonText(s), target, jsonText(y)), nil
		}
	case validate.PropIdempotent:
		y, why, err := pr.value(ctx, target, x)
		if err != nil || why != "" {
			return why, err
		}
		z, why, err := pr.value(ctx, target, y)
		if err != nil || why != "" {
			return why, err
		}
		if !sameJSON(y, z) {
			return fmt.Sprintf("once gave %s, twice %s", jsonText(y), jsonText(z)), nil
		}
	case validate.PropPermutation:
		y, why, err := pr.value(ctx, target, x)
		if err != nil || why != "" {
			return why, err
		}
		// The reversed order first, so a shrunk input still fails the
		// same way; then a seeded shuffle.
		list, _ := x.([]any)
		reversed := make([]any, 0, len(list))
		for i := len(list) - 1; i >= 0; i-- {
			reversed = append(reversed, list[i])
		}
		shuffled := append(make([]any, 0, len(list)), list...)
		pr.rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, order := range [][]any{reversed, shuffled} {
			z, why, err := pr.value(ctx, target, order)
			if err != nil || why != "" {
				return why, err
			}
			if !sameJSON(y, z) {
				return fmt.Sprintf("gave %s, and %s for the order %s", jsonText(y), jsonText(z), jsonText(order)), nil
			}
		}
	case validate.PropContract:
		y, why, err := pr.value(ctx, target, x)
		if err != nil || why != "" {
			return why, err
		}
		ok, err := pr.p.contract.Eval(y, x, []any{x}, map[string]any{})
		if err != nil {
			return fmt.Sprintf("returned %s; %v", jsonText(y), err), nil
		}
		if !ok {
			return fmt.Sprintf("returned %s; contract %s does not hold", jsonText(y), pr.p.row.Contract), nil
		}
	default:
		return "", fmt.Errorf("row %s: unknown property check %q", pr.p.row.ID, pr.prop.Check)
	}
	return "", nil
}

// shrink looks for a smaller input that still breaks the property, one
// simplification at a time, until none does or the calls run out.
func (pr *propertyRun) shrink(ctx context.Context, x any, why string) (any, string, int, error) {
	steps := 0
	budget := pr.calls + maxShrinkCalls
	for pr.calls < budget {
		smaller := false
		for _, c := range shrinks(pr.prop.Strategy, x) {
			if pr.calls >= budget {
				break
			}
			w, err := pr.breaks(ctx, c)
			if err != nil {
				return nil, "", 0, err
			}
			if w != "" {
				x, why, smaller = c, w, true
				steps++
				break
			}
		}
		if !smaller {
			break
		}
	}
	return x, why, steps, nil
}

// generate draws one value of s from rng.
func generate(s *validate.Strategy, rng *rand.Rand) any {
	switch s.Type {
	case "text":
		alpha := alphabet(s)
		n := size(s, 16, rng)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteRune(alpha[rng.Intn(len(alpha))])
		}
		return b.String()
	case "list":
		n := size(s, 8, rng)
		out := make([]any, n)
		for i := range out {
			out[i] = generate(s.Of, rng)
		}
		return out
	case "int":
		lo, hi := bounds(s, -1000, 1000)
		// The edges and zero come up often: they are where the bugs are.
		switch rng.Intn(8) {
		case 0:
			return clampInt(0, lo, hi)
		case 1:
			return int64(lo)
		case 2:
			return int64(hi)
		}
		return int64(lo) + rng.Int63n(int64(hi)-int64(lo)+1)
	case "float":
		lo, hi := bounds(s, -1e6, 1e6)
		if rng.Intn(8) == 0 {
			return math.Max(lo, math.Min(hi, 0))
		}
		return lo + rng.Float64()*(hi-lo)
	case "bool":
		return rng.Intn(2) == 1
	case "one_of":
		return s.Values[rng.Intn(len(s.Values))]
	}
	return nil
}

// size draws a text's or list's size: the smallest size often, as empty
// and short values find the most bugs.
func size(s *validate.Strategy, def int, rng *rand.Rand) int {
	hi := s.Limit(max(def, s.MinSize))
	if rng.Intn(5) == 0 {
		return s.MinSize
	}
	return s.MinSize + rng.Intn(hi-s.MinSize+1)
}

func bounds(s *validate.Strategy, lo, hi float64) (float64, float64) {
	if s.Min != nil {
		lo = *s.Min
	}
	if s.Max != nil {
		hi = *s.Max
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	return lo, hi
}

func clampInt(v int64, lo, hi float64) int64 {
	return int64(math.Max(lo, math.Min(hi, float64(v))))
}

func alphabet(s *validate.Strategy) []rune {
	a := s.Alphabet
	if a == "" {
		a = defaultAlphabet
	}
	var out []rune
	for _, r := range a {
		if !strings.ContainsRune(s.Exclude, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		out = []rune{'a'}
	}
	return out
}

// shrinks lists simpler values than v that s can still generate, the
// simplest first.
func shrinks(s *validate.Strategy, v any) []any {
	var out []any
	switch s.Type {
	case "text":
		str, _ := v.(string)
		rs := []rune(str)
		if len(rs) > s.MinSize {
			out = append(out, string(rs[:s.MinSize]))
			for i := range rs {
				out = append(out, string(rs[:i])+string(rs[i+1:]))
			}
		}
		simplest := alphabet(s)[0]
		if a := alphabet(s); strings.ContainsRune(string(a), 'a') {
			simplest = 'a'
		}
		for i, r := range rs {
			if r != simplest {
				c := append([]rune(nil), rs...)
				c[i] = simplest
				out = append(out, string(c))
			}
		}
	case "list":
		list, _ := v.([]any)
		// Lists are built from make, never nil: nil would go to the worker
		// as null, an input the strategy never generates.
		if len(list) > s.MinSize {
			out = append(out, append(make([]any, 0, s.MinSize), list[:s.MinSize]...))
			for i := range list {
				out = append(out, append(append(make([]any, 0, len(list)-1), list[:i]...), list[i+1:]...))
			}
		}
		for i, e := range list {
			for _, c := range shrinks(s.Of, e) {
				l := append(make([]any, 0, len(list)), list...)
				l[i] = c
				out = append(out, l)
			}
		}
	case "int":
		n := toInt(v)
		lo, hi := bounds(s, -1000, 1000)
		for _, c := range []int64{clampInt(0, lo, hi), n / 2, n - sign(n)} {
			if c != n && float64(c) >= lo && float64(c) <= hi {
				out = append(out, c)
			}
		}
	case "float":
		f, _ := v.(float64)
		lo, hi := bounds(s, -1e6, 1e6)
		for _, c := range []float64{math.Max(lo, math.Min(hi, 0)), math.Trunc(f), f / 2} {
			if c != f && c >= lo && c <= hi {
				out = append(out, c)
			}
		}
	case "bool":
		if b, _ := v.(bool); b {
			out = append(out, false)
		}
	case "one_of":
		for _, c := range s.Values {
			if reflect.DeepEqual(c, v) {
				break
			}
			out = append(out, c)
		}
	}
	return out
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}

func sign(n int64) int64 {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// sameJSON compares two values as JSON values, as the worker's replies
// are.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var x, y any
	if json.Unmarshal(ja, &x) != nil || json.Unmarshal(jb, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// jsonText is v as one line of JSON, cut to a readable length.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	return s
}
