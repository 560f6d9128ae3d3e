// Package textutil prepares text for the search index.
package textutil

import (
	"strings"
	"unicode"
)

// WordFreq counts the words of text, lower-cased, with leading and trailing
// punctuation removed. Words shorter than minLen runes after trimming are
// not counted. A negative minLen is an error in the caller, so it panics.
func WordFreq(text string, minLen int) map[string]int {
	if minLen < 0 {
		panic("textutil: negative minimum word length")
	}
	freq := map[string]int{}
	for _, field := range strings.Fields(text) {
		word := strings.ToLower(strings.TrimFunc(field, func(r rune) bool {
			return unicode.IsPunct(r) || unicode.IsSymbol(r)
		}))
		if word == "" || len([]rune(word)) < minLen {
			continue
		}
		freq[word]++
	}
	return freq
}
