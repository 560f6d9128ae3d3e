package lang

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Byte signatures (issue 24: inputs never tried). A function that tells a
// format by its first bytes (buf[0] == 0x49 && buf[1] == 0x49 && ...)
// answers otherwise only on a buffer holding its magic bytes, and a patch
// to such a matcher changes how long the buffer must be, which magic it
// takes or in which case: no text of a pool holds 0x1A 0x45 0xDF 0xA3.
// So the function's own comparisons of a parameter's bytes with constants
// are read back into buffers: each run of comparisons (a new run starts
// where an index comes again, the next alternative) laid over the first
// value seen at each index, at the length its highest index needs and at
// the lengths around each length the text compares the parameter with.

// maxSignatures bounds the buffers built for one parameter.
const maxSignatures = 24

// maxSignatureLen bounds a buffer's length.
const maxSignatureLen = 64

// ByteSignatures are the buffers, as lists of byte values, that the
// comparisons of name's bytes in text spell.
func ByteSignatures(name, text string) [][]int {
	q := regexp.QuoteMeta(name)
	cmp := regexp.MustCompile(`(?:^|[^\w.])` + q + `\[\s*(\d+)\s*\]\s*==\s*(0[xX][0-9A-Fa-f]+|\d+|'(?:\\.|[^'\\])'|b?'\\x[0-9A-Fa-f]{2}')`)
	var groups []map[int]int
	cur := map[int]int{}
	first := map[int]int{}
	for _, m := range cmp.FindAllStringSubmatch(text, -1) {
		i, err := strconv.Atoi(m[1])
		v, ok := byteConst(m[2])
		if err != nil || !ok || i >= maxSignatureLen {
			continue
		}
		if _, again := cur[i]; again {
			groups = append(groups, cur)
			cur = map[int]int{}
		}
		cur[i] = v
		if _, seen := first[i]; !seen {
			first[i] = v
		}
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	if len(groups) == 0 {
		return nil
	}
	lens := comparedLens(name, text)
	var out [][]int
	seen := map[string]bool{}
	add := func(b []int) {
		k := intsKey(b)
		if !seen[k] && len(out) < maxSignatures {
			seen[k] = true
			out = append(out, b)
		}
	}
	for _, g := range groups {
		laid := map[int]int{}
		for i, v := range first {
			laid[i] = v
		}
		for i, v := range g {
			laid[i] = v
		}
		top := 0
		for i := range laid {
			top = max(top, i+1)
		}
		add(buffer(laid, top))
		for _, l := range lens {
			add(buffer(laid, l))
		}
	}
	return out
}

// buffer is laid's bytes at their indices, zero elsewhere, cut or padded
// to n.
func buffer(laid map[int]int, n int) []int {
	b := make([]int, n)
	for i, v := range laid {
		if i < n {
			b[i] = v
		}
	}
	return b
}

func intsKey(b []int) string {
	var sb strings.Builder
	for _, v := range b {
		sb.WriteString(strconv.Itoa(v))
		sb.WriteByte(',')
	}
	return sb.String()
}

// comparedLens are the lengths on each side of every length the text
// compares name's with (len(buf) > 9: 9, 10, 11; len(data) < 4: 3, 4, 5),
// in order, within maxSignatureLen.
func comparedLens(name, text string) []int {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`len\(\s*` + q + `\s*\)\s*(?:[<>]=?|[!=]=)\s*(\d+)`)
	set := map[int]bool{}
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		for _, l := range []int{n - 1, n, n + 1} {
			if l > 0 && l <= maxSignatureLen {
				set[l] = true
			}
		}
	}
	out := make([]int, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}

// byteConst reads a byte constant: 0x49, 73, 'M', '\x00', b'\x89'.
func byteConst(s string) (int, bool) {
	s = strings.TrimPrefix(s, "b")
	if strings.HasPrefix(s, "'") {
		body := strings.Trim(s, "'")
		if strings.HasPrefix(body, `\x`) {
			n, err := strconv.ParseUint(body[2:], 16, 8)
			return int(n), err == nil
		}
		r, _, tail, err := strconv.UnquoteChar(body, '\'')
		if err != nil || tail != "" || r > 0xff {
			return 0, false
		}
		return int(r), true
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil || n > 0xff {
		return 0, false
	}
	return int(n), true
}
