package lang

import "unicode/utf16"

// UTF16Length is a string's length in UTF-16 code units, as JavaScript
// counts it.
func UTF16Length(s string) int { return len(utf16.Encode([]rune(s))) }

// A number parameter compared with another parameter's length (fast-diff's
// text1.length < cursor_pos, Python's if pos >= len(items)) parts at that
// length: the index one past the last element is where an off-by-one
// lives, and no pool of small numbers meets it for every text. LengthRows
// sets the number to the length of the other parameter's value and a step
// either side.

// LengthPair is a parameter whose length the function compares with a
// number parameter: Of and Num index the signature's parameters.
type LengthPair struct{ Of, Num int }

// LengthPairs are the pairs text compares, its lengths written len(x), as
// RelationCalls reads them (a language writing x.length rewrites it
// first).
func LengthPairs(text string, params []Param) []LengthPair {
	index := map[string]int{}
	for i, p := range params {
		index[p.Name] = i
	}
	var out []LengthPair
	seen := map[LengthPair]bool{}
	for _, m := range compareRe.FindAllStringSubmatch(text, -1) {
		of, num := m[1], m[5] // len(of) < num
		if of == "" {
			of, num = m[4], m[2] // num < len(of)
		}
		i, ok1 := index[of]
		j, ok2 := index[num]
		if p := (LengthPair{Of: i, Num: j}); of != "" && num != "" && ok1 && ok2 && i != j && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// maxLengthValues bounds the values of the measured parameter tried.
const maxLengthValues = 3

// LengthRows are calls at each pair's edge: the typical call, and that
// call with each other parameter at its second value, with the measured
// parameter at each of its first few non-empty values and the number at
// its length, one less and one more. measure is a string's length as the
// language counts it (UTF-16 code units, code points, bytes).
func LengthRows(pairs []LengthPair, pools [][]any, measure func(string) int, mk func(vals []any)) {
	for _, pool := range pools {
		if len(pool) == 0 {
			return
		}
	}
	for _, p := range pairs {
		if p.Of >= len(pools) || p.Num >= len(pools) {
			continue
		}
		bases := [][]any{TypicalValues(pools)}
		for k := range pools {
			if k != p.Of && k != p.Num && len(pools[k]) > 1 {
				v := TypicalValues(pools)
				v[k] = pools[k][1]
				bases = append(bases, v)
			}
		}
		n := 0
		for _, of := range pools[p.Of] {
			size, ok := valueLength(of, measure)
			if !ok || size == 0 || n >= maxLengthValues {
				continue
			}
			n++
			for _, b := range bases {
				for _, num := range []int{size - 1, size, size + 1} {
					vals := append([]any(nil), b...)
					vals[p.Of], vals[p.Num] = of, num
					mk(vals)
				}
			}
		}
	}
}

// valueLength is a string's or a list's length.
func valueLength(v any, measure func(string) int) (int, bool) {
	switch x := v.(type) {
	case string:
		return measure(x), true
	case []any:
		return len(x), true
	}
	return 0, false
}
