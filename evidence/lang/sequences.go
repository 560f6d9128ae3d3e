package lang

import (
	"strings"
	"unicode"
)

// A method's receiver is often state its constructor alone never builds
// (a queue enqueued twice and dequeued once, a key set before it is set
// again). Each language builds such receivers by calling the type's own
// methods on a built value; Sequences says which calls, the same for
// every language.

// Step is one call of a receiver's building sequence: the Method-th of
// the methods that put something in (or, Take, of those that take
// something out), with the K-th of its argument lists.
type Step struct {
	Take      bool
	Method, K int
}

// Sequences are the building sequences tried on a receiver, given how
// many methods put something in (adders) and take something out
// (takers): for each adder, one put, two different ones, two followed by
// each taker, the same one twice, and three; with no adder, each taker
// once.
func Sequences(adders, takers int) [][]Step {
	var out [][]Step
	if adders == 0 {
		for t := 0; t < takers; t++ {
			out = append(out, []Step{{Take: true, Method: t}})
		}
	}
	for a := 0; a < adders; a++ {
		put := func(k int) Step { return Step{Method: a, K: k} }
		out = append(out, []Step{put(0)}, []Step{put(0), put(1)})
		for t := 0; t < takers; t++ {
			out = append(out, []Step{put(0), put(1), {Take: true, Method: t}})
		}
		out = append(out, []Step{put(0), put(0)}, []Step{put(0), put(1), put(2)})
	}
	return out
}

// The verbs that name a method that puts something into its object and
// one that takes something out, in every language premise reads.
var (
	putVerbs = []string{"add", "push", "put", "set", "insert", "enqueue", "append", "appendleft", "prepend", "unshift",
		"write", "store", "offer", "update", "inc", "grow", "extend", "merge", "register", "feed", "on"}
	takeVerbs = []string{"pop", "popleft", "dequeue", "remove", "delete", "del", "discard", "shift", "poll", "take",
		"clear", "reset", "drop", "evict", "truncate", "dec", "pull", "shrink", "unregister", "off"}
)

// Puts says a method's name begins with a verb that puts something into
// its object, as a word (Push, push_back, pushAll, _add; not include,
// online, settings).
func Puts(name string) bool { return beginsWithVerb(name, putVerbs) }

// Takes says a method's name begins with a verb that takes something out
// of its object, as a word (Pop, remove_at, deleteKey; not decode,
// offset, populate).
func Takes(name string) bool { return beginsWithVerb(name, takeVerbs) }

// beginsWithVerb says name, its leading underscores aside, begins with
// one of verbs in any case, followed by nothing, an underscore, a digit
// or an upper-case letter.
func beginsWithVerb(name string, verbs []string) bool {
	n := strings.TrimLeft(name, "_")
	for _, v := range verbs {
		if len(n) < len(v) || !strings.EqualFold(n[:len(v)], v) {
			continue
		}
		if rest := n[len(v):]; rest == "" || rest[0] == '_' || unicode.IsDigit(rune(rest[0])) || unicode.IsUpper(rune(rest[0])) {
			return true
		}
	}
	return false
}
