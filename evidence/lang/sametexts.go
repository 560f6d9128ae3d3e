package lang

import (
	"unicode/utf8"
)

// SameTexts are calls of a function of two or more text parameters with
// the second given the first's text (its first two text parameters only):
// as written, with its case flipped, a character longer, and, for a text
// holding a wide character, with its last wide character the next code
// point. A common prefix, a similarity, a diff or find(pattern, text) does
// most where the two agree, and a near miss takes the paths equal texts
// never do. The other parameters keep their typical values.
//
// The texts are the first n of the first text parameter's pool, those
// holding a wide character first (at most two, extra's before the
// pool's). What is wide is the language's: a character of several bytes
// where Go indexes bytes, one of two UTF-16 units (an emoji) where
// JavaScript indexes those, none where Python indexes code points (wide
// nil). A near miss on a wide character (🐶 and 🐷 share their first
// unit) is where an index into the text lands inside one.
//
// texts are the text parameters' indices; nil, those whose pool leads with
// a string.
func SameTexts(pools [][]any, texts []int, n int, wide func(string) bool, extra ...string) [][]any {
	strs := texts
	if strs == nil {
		for i, p := range pools {
			if len(p) > 0 {
				if _, ok := p[0].(string); ok {
					strs = append(strs, i)
				}
			}
		}
	}
	if len(strs) < 2 {
		return nil
	}
	i, j := strs[0], strs[1]
	var chosen []string
	add := func(t string) {
		for _, s := range chosen {
			if s == t {
				return
			}
		}
		chosen = append(chosen, t)
	}
	if wide != nil {
		cands := append([]string{}, extra...)
		for _, v := range pools[i] {
			if t, ok := v.(string); ok {
				cands = append(cands, t)
			}
		}
		for _, t := range cands {
			if len(chosen) < 2 && utf8.RuneCountInString(t) > 1 && wide(t) {
				add(t)
			}
		}
	}
	for _, v := range pools[i] {
		if t, ok := v.(string); ok && t != "" && len(chosen) < n {
			add(t)
		}
	}
	var out [][]any
	for _, t := range chosen {
		r, _ := utf8.DecodeRuneInString(t)
		near := []string{t, FlipCase(t), t + string(r)}
		if wide != nil && wide(t) {
			near = append(near, nextWide(t, wide))
		}
		for _, w := range near {
			vals := TypicalValues(pools)
			vals[i], vals[j] = t, w
			out = append(out, vals)
		}
	}
	return out
}

// nextWide is t with its last wide character replaced by the next code
// point.
func nextWide(t string, wide func(string) bool) string {
	rs := []rune(t)
	for k := len(rs) - 1; k >= 0; k-- {
		if wide(string(rs[k])) && rs[k] < utf8.MaxRune {
			rs[k]++
			return string(rs)
		}
	}
	return t
}
