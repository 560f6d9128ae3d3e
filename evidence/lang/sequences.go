package lang

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
