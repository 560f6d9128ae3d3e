package lang

import "math/rand"

// pairHead is how many of a pool's first values each parameter brings to
// the pairs; ownHeads how many of the function's own values more.
const (
	pairHead = 5
	ownHeads = 3
)

// Pair is one pairwise call: the class its row is named by and the values
// of every parameter.
type Pair struct {
	Cls  string
	Vals []any
}

// Pairwise crosses every two parameters over the heads of their pools,
// the others drawn from theirs with rng: one-at-a-time rows alone never
// cross parameters. A parameter's heads are its pool's first values and
// then the first of own (values of its pool the function's own text
// names: a layout it parses, a bound it compares with), which the pool
// may hold far down; the pairs holding one of those come first, so a
// budget that keeps only some keeps them.
func Pairwise(sig *Signature, pools, own [][]any, rng *rand.Rand) []Pair {
	n := len(pools)
	heads := make([][]any, n)
	owned := make([]map[string]bool, n)
	for i, p := range pools {
		heads[i] = append([]any(nil), p[:min(pairHead, len(p))]...)
		seen := map[string]bool{}
		for _, v := range heads[i] {
			seen[valueKey(v)] = true
		}
		owned[i] = map[string]bool{}
		if i < len(own) {
			for _, v := range own[i] {
				if k := valueKey(v); !seen[k] && len(owned[i]) < ownHeads {
					seen[k], owned[i][k] = true, true
					heads[i] = append(heads[i], v)
				}
			}
		}
	}
	var pairs []Pair
	var mine []bool
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for _, a := range heads[i] {
				for _, b := range heads[j] {
					vals := make([]any, n)
					for k := range vals {
						vals[k] = pools[k][rng.Intn(len(pools[k]))]
					}
					vals[i], vals[j] = a, b
					pairs = append(pairs, Pair{sig.Params[i].Name + "_" + sig.Params[j].Name + "_pair", vals})
					mine = append(mine, owned[i][valueKey(a)] || owned[j][valueKey(b)])
				}
			}
		}
	}
	// One shuffle, then the pairs of own values moved ahead in their
	// shuffled order: without own values the order (and what rng draws
	// next) is what it always was.
	rng.Shuffle(len(pairs), func(a, b int) {
		pairs[a], pairs[b] = pairs[b], pairs[a]
		mine[a], mine[b] = mine[b], mine[a]
	})
	var first, rest []Pair
	for k, p := range pairs {
		if mine[k] {
			first = append(first, p)
		} else {
			rest = append(rest, p)
		}
	}
	return append(first, rest...)
}

// OwnValues are the values of pool the function's own text names: its
// string literals and its numbers, in the pool's order.
func OwnValues(pool []any, strs []string, nums []float64) []any {
	str := map[string]bool{}
	for _, s := range strs {
		str[s] = true
	}
	num := map[float64]bool{}
	for _, f := range nums {
		num[f] = true
	}
	var out []any
	for _, v := range pool {
		switch x := v.(type) {
		case string:
			if str[x] {
				out = append(out, v)
			}
		case bool, nil:
		default:
			if f, ok := Number(v); ok && num[f] {
				out = append(out, v)
			}
		}
	}
	return out
}

// valueKey tells values apart as DedupeValues does.
func valueKey(v any) string { return Compact(v, 1<<20) + "\x00" + typeTag(v) }
