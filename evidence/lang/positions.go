package lang

import (
	"regexp"
	"strings"
	"unicode"
)

// A function handed a text and a position in it (parsimmon's
// makeLineColumnIndex(input, i), a cursor, an offset) parts where the
// position passes one of the characters it looks for: the second of two
// line breaks, a lone "\r". Pools vary one parameter at a time around a
// typical value, so the texts holding those characters meet only the
// typical position; PositionRows walks the position across each of them.

// indexNameRe is a parameter's name that says it is a position.
var indexNameRe = regexp.MustCompile(`(?i)^(i|j|k|n|idx|index|pos|position|offset|at|start|end|cursor|from|to|loc|location|column|col|line)$|(Index|Pos|Position|Offset|Idx)$|^(index|pos|offset|cursor)_`)

// IsIndexName says a parameter's name is a position's.
func IsIndexName(name string) bool { return indexNameRe.MatchString(name) }

// maxPositionTexts bounds the texts a position walks; maxPositionLength
// the length of each.
const (
	maxPositionTexts  = 8
	maxPositionLength = 8
	textsPerChar      = 2
)

// PositionRows are calls with the text parameter at each short value of
// its pool that holds a character of special (the function's literals'
// characters other than letters and digits), and the position parameter
// at every position of that text, its length included; the other
// parameters at their typical values. measure is a string's length as
// the language counts it.
func PositionRows(text, pos int, pools [][]any, special []string, measure func(string) int, mk func(vals []any)) {
	if text >= len(pools) || pos >= len(pools) || text == pos {
		return
	}
	for _, pool := range pools {
		if len(pool) == 0 {
			return
		}
	}
	chars := ""
	for _, l := range special {
		for _, r := range l {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(chars, r) {
				chars += string(r)
			}
		}
	}
	if chars == "" {
		return
	}
	// Each character's own texts: one character's many texts do not
	// crowd out another's.
	taken := map[string]bool{}
	for _, c := range chars {
		n := 0
		for _, v := range pools[text] {
			s, ok := v.(string)
			if !ok || taken[s] || measure(s) > maxPositionLength || !strings.ContainsRune(s, c) || n >= textsPerChar || len(taken) >= maxPositionTexts {
				continue
			}
			taken[s], n = true, n+1
			for at := 0; at <= measure(s); at++ {
				vals := TypicalValues(pools)
				vals[text], vals[pos] = s, at
				mk(vals)
			}
		}
	}
}
