package lang

import (
	"hash/fnv"
	"math/rand"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// maxPatternSamples bounds the strings drawn from one pattern.
const maxPatternSamples = 4

// PatternSamples are strings a regular expression matches (issue 13, part
// 3): a word its rules accept (d'a for ^[dol]'[a-z]+$), where the
// pattern's own text and everyday words match nothing. Sample k takes the
// k-th choice at every point the pattern offers one: k 0 is the shortest
// match (no repeats, the first branch, a class's first member), k 1 one
// more repeat, the next branch and the next member, and so on. A pattern
// that does not parse (a lookahead, a backreference) has none.
func PatternSamples(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	m, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	var out []string
	seen := map[string]bool{}
	for k := 0; k < maxPatternSamples+2 && len(out) < maxPatternSamples; k++ {
		var b strings.Builder
		// A sample that ignores an anchor ($0) matches nothing: only
		// what the pattern matches is kept.
		if !sampleOf(&b, re, k, 0) || b.Len() == 0 || b.Len() > 80 || seen[b.String()] || !m.MatchString(b.String()) {
			continue
		}
		seen[b.String()] = true
		out = append(out, b.String())
	}
	return out
}

// sampleOf writes to b the k-th choice of a string r matches; false when r
// matches nothing it can write.
func sampleOf(b *strings.Builder, r *syntax.Regexp, k, depth int) bool {
	if depth > 30 {
		return false
	}
	switch r.Op {
	case syntax.OpLiteral:
		b.WriteString(string(r.Rune))
	case syntax.OpCharClass:
		members := classMembers(r.Rune)
		if len(members) == 0 {
			return false
		}
		b.WriteRune(members[k%len(members)])
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteString("xy"[k%2 : k%2+1])
	case syntax.OpCapture:
		return sampleOf(b, r.Sub[0], k, depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		n := k % 3 // star: none, one, two
		switch r.Op {
		case syntax.OpPlus:
			n = 1 + k%2
		case syntax.OpQuest:
			n = k % 2
		}
		for i := 0; i < n; i++ {
			if !sampleOf(b, r.Sub[0], k+i, depth+1) {
				return false
			}
		}
	case syntax.OpRepeat:
		n := r.Min
		if k%2 == 1 && (r.Max < 0 || r.Max > r.Min) {
			n++
		}
		for i := 0; i < n && i < 8; i++ {
			if !sampleOf(b, r.Sub[0], k+i, depth+1) {
				return false
			}
		}
	case syntax.OpConcat:
		for _, s := range r.Sub {
			if !sampleOf(b, s, k, depth+1) {
				return false
			}
		}
	case syntax.OpAlternate:
		return sampleOf(b, r.Sub[k%len(r.Sub)], k, depth+1)
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	default:
		return false
	}
	return true
}

// classMembers are up to three members of a character class, given as
// ranges lo-hi: a lower-case letter first when the class has one, as words
// are mostly written, then the first member of each other range. A
// negated class ([^>]) is stored as the ranges it allows, so it too gives
// members; a control character is never chosen where a printable one is.
func classMembers(ranges []rune) []rune {
	var out []rune
	add := func(r rune) {
		for _, o := range out {
			if o == r {
				return
			}
		}
		if len(out) < 3 {
			out = append(out, r)
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= 'a' && 'a' <= hi {
			add('a')
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < lo+128; r++ {
			if unicode.IsPrint(r) || r == '\t' || r == '\n' {
				add(r)
				break
			}
		}
	}
	return out
}

// Distinguishing are strings two patterns treat apart (issue 13, part 3;
// matchesApart): one matches and the other does not, or both match and
// capture other text. Where a patch changed a pattern, those are the
// words its callers treat differently. They
// are drawn at random, with a seed fixed by the patterns, from each
// pattern's choices; none when either does not parse here.
func Distinguishing(a, b string) []string {
	ra, err1 := syntax.Parse(a, syntax.Perl)
	rb, err2 := syntax.Parse(b, syntax.Perl)
	ma, err3 := regexp.Compile(a)
	mb, err4 := regexp.Compile(b)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(a + "\x00" + b))
	rng := rand.New(rand.NewSource(int64(h.Sum64() >> 1)))
	var out []string
	seen := map[string]bool{}
	for i := 0; i < 80 && len(out) < maxPatternSamples; i++ {
		re := ra.Simplify()
		if i%2 == 1 {
			re = rb.Simplify()
		}
		var s strings.Builder
		if !sampleRand(&s, re, rng, 0) || s.Len() > 80 {
			continue
		}
		// The sample, and the sample with a character more before or
		// after it (its own first or last, or a letter): where one
		// version is anchored and the other is not (0s$ against
		// ^-?0s$), only text around the match tells them apart.
		w := s.String()
		around := []string{w, "a" + w, w + "a"}
		if w != "" {
			around = append(around, w[:1]+w, w+w[len(w)-1:])
		}
		for _, c := range around {
			if seen[c] || len(out) >= maxPatternSamples {
				continue
			}
			seen[c] = true
			if matchesApart(ma, mb, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// matchesApart says whether a and b treat s apart: one matches it and the
// other does not, or both do and capture other text (quest( \d| pro)?
// against quest( 2| pro)? in "quest 3": a caller reading the match reads
// "quest 3" from one and "quest" from the other). Where the two have
// other numbers of groups only the whole match is compared.
func matchesApart(a, b *regexp.Regexp, s string) bool {
	x, y := a.FindStringSubmatchIndex(s), b.FindStringSubmatchIndex(s)
	if (x == nil) != (y == nil) {
		return true
	}
	if x == nil {
		return false
	}
	if len(x) != len(y) {
		x, y = x[:2], y[:2]
	}
	return !slices.Equal(x, y)
}

// sampleRand writes to b a string r matches, each choice drawn from rng.
func sampleRand(b *strings.Builder, r *syntax.Regexp, rng *rand.Rand, depth int) bool {
	if depth > 30 {
		return false
	}
	switch r.Op {
	case syntax.OpCharClass:
		members := classMembers(r.Rune)
		if len(members) == 0 {
			return false
		}
		b.WriteRune(members[rng.Intn(len(members))])
	case syntax.OpCapture:
		return sampleRand(b, r.Sub[0], rng, depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		n := rng.Intn(3)
		switch r.Op {
		case syntax.OpPlus:
			n = 1 + rng.Intn(2)
		case syntax.OpQuest:
			n = rng.Intn(2)
		}
		for i := 0; i < n; i++ {
			if !sampleRand(b, r.Sub[0], rng, depth+1) {
				return false
			}
		}
	case syntax.OpRepeat:
		n := r.Min
		if (r.Max < 0 || r.Max > r.Min) && rng.Intn(2) == 1 {
			n++
		}
		for i := 0; i < n && i < 8; i++ {
			if !sampleRand(b, r.Sub[0], rng, depth+1) {
				return false
			}
		}
	case syntax.OpConcat:
		for _, s := range r.Sub {
			if !sampleRand(b, s, rng, depth+1) {
				return false
			}
		}
	case syntax.OpAlternate:
		return sampleRand(b, r.Sub[rng.Intn(len(r.Sub))], rng, depth+1)
	default:
		return sampleOf(b, r, rng.Intn(2), depth)
	}
	return true
}
