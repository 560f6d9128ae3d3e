package lang

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// TestSameTexts: the second text parameter gets the first's text and its
// near misses; a wide character leads where the language has one, and its
// near miss is the next code point, which shares the character's first
// unit (🐶 U+1F436 and 🐷 U+1F437 share their high surrogate, é and ê
// their first byte).
func TestSameTexts(t *testing.T) {
	pools := [][]any{{"abc", "", "é", "x y", "née"}, {"q"}, {1, 2}}
	pairs := func(calls [][]any) [][2]any {
		var out [][2]any
		for _, c := range calls {
			if len(c) != 3 || c[2] != 1 {
				t.Fatalf("call %v: the other parameters keep their typical values", c)
			}
			out = append(out, [2]any{c[0], c[1]})
		}
		return out
	}
	utf16Wide := func(s string) bool { return UTF16Length(s) > utf8.RuneCountInString(s) }
	byteWide := func(s string) bool { return utf8.RuneCountInString(s) < len(s) }

	js := pairs(SameTexts(pools, nil, 5, utf16Wide, "a\U0001F436b"))
	if js[0] != [2]any{"a\U0001F436b", "a\U0001F436b"} {
		t.Errorf("JavaScript: first call %v, want the emoji text leading", js[0])
	}
	if !slices.Contains(js, [2]any{"a\U0001F436b", "a\U0001F437b"}) {
		t.Errorf("JavaScript: %v lacks the emoji's near miss (a🐷b)", js)
	}
	if slices.Contains(js, [2]any{"é", "ê"}) {
		t.Error("JavaScript: é is one UTF-16 unit, not wide")
	}

	goCalls := pairs(SameTexts(pools, nil, 5, byteWide))
	if len(goCalls) == 0 || goCalls[0][0] != "née" {
		t.Errorf("Go: %v, want née (a character of two bytes) leading", goCalls)
	}
	if !slices.Contains(goCalls, [2]any{"née", "nêe"}) || !slices.Contains(goCalls, [2]any{"é", "ê"}) || !slices.Contains(goCalls, [2]any{"abc", "abca"}) || !slices.Contains(goCalls, [2]any{"abc", "ABC"}) {
		t.Errorf("Go: %v lacks a near miss", goCalls)
	}

	py := pairs(SameTexts(pools, nil, 3, nil))
	want := [][2]any{{"abc", "abc"}, {"abc", "ABC"}, {"abc", "abca"}, {"é", "é"}, {"é", "É"}, {"é", "éé"}, {"x y", "x y"}, {"x y", "X Y"}, {"x y", "x yx"}}
	if !slices.Equal(py, want) {
		t.Errorf("Python: %v, want %v (the first three texts, none wide)", py, want)
	}

	if got := SameTexts([][]any{{"abc"}, {1}}, nil, 5, byteWide); got != nil {
		t.Errorf("one text parameter: %v, want none", got)
	}
}
