package lang

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/premise-dev/premise/validate"
)

// maxSignatureRows bounds the rows of one function.
const maxSignatureRows = 80

var strLitRe = regexp.MustCompile(`"((?:[^"\\\n]|\\.){1,12})"|'((?:[^'\\\n]|\\.){1,12})'`)

// Pool is the values of a type the templates inferred, the typical one
// first (the package's own constants of a named type before them, and
// None/nil after them where the type admits it); nil when none can be
// built.
func Pool(t Type, lits []string) []any {
	mk := kindPools[t.Kind]
	if mk == nil {
		return nil
	}
	out := mk(t, lits)
	if out == nil {
		return nil
	}
	if len(t.Consts) > 0 {
		out = append(append([]any(nil), t.Consts...), out...)
	}
	if t.Nullable || t.Kind == KindList || t.Kind == KindIntervals || t.Kind == KindDict || t.Kind == KindStr {
		out = append(out, nil)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// kindPools make each kind's values: a kind's pool is where a new
// boundary value of that kind goes.
var kindPools map[string]func(t Type, lits []string) []any

// intPool: around the thresholds formatting and sizing code keeps:
// thousands, kibi, 32 bits.
func intPool(Type, []string) []any {
	return []any{3, 0, 1, -1, 2, 10, 100, 65535, 65536, 999, 1000, 1001, 1023, 1024, 1000000, -1000, 2147483647, 2147483648,
		// The ends of the 32-bit unsigned and the 64-bit signed ranges,
		// where arithmetic wraps.
		4294967295, 4294967296, int64(math.MaxInt64), int64(math.MinInt64),
		// Negative indices one and two past a short sequence's start.
		-2, -3}
}

// floatPool: fractions at rounding edges (0.5, 2.5 round to even), beside
// the thousands a unit changes at.
func floatPool(Type, []string) []any {
	return []any{1.5, 0.0, -1.0, 1.0, 0.25, 100.0, 0.5, 2.5, -0.5, 999.9, 999.95, 1000.0, 1e6, 1e-7, 123456.789}
}

// rfc3339Pool: a Go time.Time decodes from RFC 3339 text: two zones for one
// instant, the zero time, a leap day, a year's last second. Other times
// have no JSON form here.
func rfc3339Pool(t Type, _ []string) []any {
	if !strings.Contains(t.Text, "time.Time") {
		return []any{}
	}
	return []any{"2024-03-01T00:00:00Z", "2024-03-01T01:00:00+01:00", "2024-03-01T00:00:01Z",
		"0001-01-01T00:00:00Z", "2024-02-29T12:00:00Z", "2023-12-31T23:59:59Z", "2024-03-01T00:00:00.5-05:00"}
}

// strPool: blanks, text composed of the function's own literals, numbers
// and format-shaped text, and each literal around numbers and doubled.
func strPool(_ Type, lits []string) []any {
	out := []any{"abc", "", " ", "   "}
	// Text composed of the function's own literals first: where it has
	// any, it parses text shaped by them.
	for _, c := range composed(lits) {
		out = append(out, c)
	}
	out = append(out, "a", "A", "0", "-1", "42", "1.5", "65536", "é", "a b", " x ",
		// Letters that case-fold into ASCII (İ to i, the Kelvin sign to
		// k): a pattern matched ignoring case without ASCII accepts them.
		"fİo", "\u212a",
		"2024-03-01T00:00:00", "2024-03-01T01:30:00+00:00",
		// Format-shaped text: versions, grouped numbers, dotted and cased
		// names, URLs, hex, exponents, JSON.
		"1.2.3", "1.0", "0.9", "1.10", "v1.2.3-rc.1+b.5", "1,000", "a.Bc", "aB_c-d e", "https://example.com/a?b=1#c", "0x1F", "1e3", "-0", "true", "[1,2]", `{"a":1}`)
	var seps []string
	for _, l := range lits {
		// A literal after a number: "1k", "2,5" reach a parser's suffix
		// and separator tables.
		out = append(out, l, "a"+l+"1", l+l, "1"+l)
		if len([]rune(l)) == 1 && len(seps) < 4 {
			// A separator of the function's own: at either end, doubled,
			// and between numbers with leading zeros, where parsers of
			// paths, versions and names keep their bugs.
			seps = append(seps, l)
			out = append(out, "a"+l, l+"a", "a"+l+l+"b", "01"+l+"002"+l+"3")
		}
	}
	// Numbers joined by one separator, another's pieces inside the last
	// (a time's 1:2:3.5, which PyMySQL's convert_time splits at ':' and
	// then at '.').
	for _, s := range seps {
		for _, t := range seps {
			if t != s {
				out = append(out, "1"+s+"2"+s+"3"+t+"5")
			}
		}
	}
	// Numbers past the signed 64-bit range and at the unsigned one's end,
	// after the function's own: a parse of the wrong width or sign
	// refuses them.
	return append(out, "9223372036854775808", "18446744073709551615")
}

// pathWords are the words of code that handles file paths: its text
// parameters take paths too.
var pathWords = regexp.MustCompile(`\b(ntpath|posixpath|os\.path|os\.sep|filepath|pathlib|PurePath|PureWindowsPath|isabs|IsAbs|splitdrive|VolumeName)\b`)

// PathShapes are paths as POSIX and Windows write them (absolute, a
// drive, a share, relative with a parent) when text, a function's source,
// handles paths: a check one platform's rules make on another's path (an
// absolute Windows path judged on Linux) is reached by nothing else.
func PathShapes(text string) []any {
	if !pathWords.MatchString(text) {
		return nil
	}
	return []any{"/a/b", `C:\a`, `\\h\s`, "../a", `a\b`}
}

// intervalsPool: seed 004's ranges, sorted and not, touching,
// overlapping, nested, inverted, empty and repeated.
func intervalsPool(Type, []string) []any {
	return []any{
		[]any{[]any{0, 1}, []any{4, 6}},
		[]any{},
		[]any{[]any{0, 3}},
		[]any{[]any{4, 6}, []any{0, 1}},
		[]any{[]any{0, 2}, []any{2, 5}},
		[]any{[]any{2, 5}, []any{0, 2}},
		[]any{[]any{0, 4}, []any{3, 7}},
		[]any{[]any{3, 7}, []any{0, 4}},
		[]any{[]any{0, 9}, []any{2, 3}},
		[]any{[]any{5, 1}},
		[]any{[]any{1, 1}},
		[]any{[]any{0, 1}, []any{0, 1}},
		[]any{[]any{8, 9}, []any{4, 6}, []any{0, 1}},
	}
}

// listsPool: lists of the element's pool: one, none, two in both orders,
// a duplicate; four numbers ascending and descending; text that differs
// by case, and the function's literals in lists.
func listsPool(t Type, lits []string) []any {
	if t.Elem == nil {
		// Elements no value is built for (an interface of methods):
		// the list can still be empty (and, Pool adds, nil).
		return []any{[]any{}}
	}
	if e := t.Elem; e.Kind == KindList && e.Elem != nil && e.Elem.Kind == KindInt {
		// list[list[int]]: as likely pairs as anything; the intervals
		// classes are the ones patches narrow. (pool adds their None.)
		out := Pool(Type{Kind: KindIntervals, Nullable: t.Nullable}, lits)
		return out[:len(out)-1]
	}
	e := Pool(*t.Elem, lits)
	if len(e) == 0 {
		return nil
	}
	out := []any{[]any{e[0]}, []any{}}
	if len(e) > 2 {
		out = append(out, []any{e[0], e[2]}, []any{e[2], e[0]})
	}
	out = append(out, []any{e[0], e[0]})
	if t.Elem.Nullable && len(e) > 2 {
		// Elements that may be missing (List[Optional[float]]): one
		// between two values, at an end, and all of them (gpxpy's
		// uphill sums left points without an elevation out).
		out = append(out, []any{e[0], nil, e[2]}, []any{nil, e[0]}, []any{nil, nil})
	}
	if len(e) > 3 && (t.Elem.Kind == KindInt || t.Elem.Kind == KindFloat) {
		out = append(out, []any{e[0], e[1], e[2], e[3]}, []any{e[3], e[2], e[1], e[0]}, []any{e[1]}, []any{e[3]})
	}
	if t.Elem.Kind == KindStr {
		out = append(out, []any{"a", "A"}, []any{""}, []any{" "})
		for _, l := range lits {
			out = append(out, []any{"a" + l + "1", "a" + l + "2"}, []any{"a" + l + "1", "A" + l + "2"}, []any{l})
		}
	}
	return out
}

// dictPool: one key, none, two, and one key of another value.
func dictPool(t Type, lits []string) []any {
	e := []any{1, 0, -1, 2}
	if t.Elem != nil {
		e = Pool(*t.Elem, lits)
	}
	if len(e) < 2 {
		return nil
	}
	out := []any{map[string]any{"a": e[0]}, map[string]any{}, map[string]any{"a": e[0], "b": e[1]}}
	if len(e) > 3 {
		out = append(out, map[string]any{"a": e[3]})
	}
	return out
}

// funcPool: the callbacks the Go harness makes ({"$func": name}).
func funcPool(Type, []string) []any {
	var out []any
	for _, k := range []string{"identity", "truthy", "even", "true", "false", "zero"} {
		out = append(out, map[string]any{"$func": k})
	}
	return out
}

// readerPool: readers of the text pool's values, once and as two lines.
func readerPool(_ Type, lits []string) []any {
	var out []any
	for _, v := range Pool(Type{Kind: KindStr}, lits) {
		if s, ok := v.(string); ok && len(out) < 16 {
			out = append(out, map[string]any{"$reader": s}, map[string]any{"$reader": s + "\n" + s + "\n"})
		}
	}
	// Bytes no text holds, for a binary decoder: each starts at a
	// boundary of a signed or unsigned byte (0xff is -1 as an int8, 0x80
	// its least), where formats such as MessagePack and CBOR keep their
	// small negative numbers and their type tags.
	for _, b := range binaryReads {
		out = append(out, map[string]any{"$reader": "", "$bytes": b})
	}
	return out
}

// binaryReads are the byte contents of binary readers, as encoding/json
// writes a []byte (base64).
var binaryReads = []string{
	base64.StdEncoding.EncodeToString([]byte{0xff, 0xe0, 0x05, 0x80, 0x7f, 0x00}),
	base64.StdEncoding.EncodeToString([]byte{0x80, 0x00, 0x7f, 0xff}),
}

// Literals are the short string literals of a function's two versions.
func Literals(srcs ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, src := range srcs {
		for _, m := range strLitRe.FindAllStringSubmatch(src, -1) {
			l := m[1] + m[2]
			if l == "" || strings.ContainsAny(l, "\\{}%") || seen[l] || len(out) >= 8 {
				continue
			}
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// SignatureRow is the evidence row calling sig's function with vals, one
// per parameter: keyword-only parameters go by name; a single positional
// argument is the row's inp.
func SignatureRow(sig *Signature, cls string, vals []any) validate.Row {
	r := validate.Row{Cls: cls, Kind: validate.KindBoundary, Relation: "the head must behave as the base does", AssumptionIDs: []string{"S000"}}
	var args []any
	var kwargs map[string]any
	for i, p := range sig.Params {
		if p.KeywordOnly {
			if kwargs == nil {
				kwargs = map[string]any{}
			}
			kwargs[p.Name] = vals[i]
			continue
		}
		args = append(args, vals[i])
	}
	if len(args) == 1 && kwargs == nil {
		r.Inp, r.HasInp = args[0], true
		return r
	}
	if args == nil {
		args = []any{}
	}
	r.Args, r.Kwargs = args, kwargs
	return r
}

// TypicalValues is each parameter's typical value: the head of its pool.
func TypicalValues(pools [][]any) []any {
	v := make([]any, len(pools))
	for i := range v {
		v[i] = pools[i][0]
	}
	return v
}

// OneAtATime calls mk with each parameter in turn varied over its pool,
// the others at their typical value.
// A flag (a parameter of true and false alone) often switches a whole
// branch on: each value of the other parameters is tried again at once
// with every flag flipped.
func OneAtATime(sig *Signature, pools [][]any, mk func(cls string, vals []any)) {
	// The other side of each switch: a flag flipped, for every value of
	// the other parameters; a parameter whose typical value is None (an
	// optional callback, a width) set to its first other value, for the
	// first few values of each other parameter. The branch each guards is
	// reached by values other than the typical ones.
	flags := make([]any, len(pools))
	optional := make([]any, len(pools))
	nFlags, nOptional := 0, 0
	for i, p := range pools {
		switch {
		case IsFlagPool(p):
			flags[i] = !TypicalValues(pools)[i].(bool)
			nFlags++
		case len(p) > 0 && p[0] == nil:
			for _, v := range p[1:] {
				if v != nil {
					optional[i] = v
					nOptional++
					break
				}
			}
		}
	}
	switched := func(i int, v any, sw []any) []any {
		vals := TypicalValues(pools)
		for k, o := range sw {
			if o != nil && k != i {
				vals[k] = o
			}
		}
		vals[i] = v
		return vals
	}
	for i := range sig.Params {
		for j, v := range pools[i] {
			vals := TypicalValues(pools)
			vals[i] = v
			mk(fmt.Sprintf("%s_%d", sig.Params[i].Name, j), vals)
			if nFlags > 1 || nFlags == 1 && flags[i] == nil {
				mk(fmt.Sprintf("%s_%d_flipped", sig.Params[i].Name, j), switched(i, v, flags))
			}
			if j < optionalValues && (nOptional > 1 || nOptional == 1 && optional[i] == nil) {
				mk(fmt.Sprintf("%s_%d_optional_set", sig.Params[i].Name, j), switched(i, v, optional))
			}
		}
	}
}

// optionalValues is how many values of each parameter run with the
// optional parameters set: a function of twenty keyword parameters must
// not spend its budget on them.
const optionalValues = 3

// IsFlagPool says a pool holds booleans alone.
func IsFlagPool(p []any) bool {
	if len(p) == 0 {
		return false
	}
	for _, v := range p {
		if _, ok := v.(bool); !ok {
			return false
		}
	}
	return true
}

// ValueRows varies each parameter over its pool while the others keep
// their typical value, and crosses two string parameters over the
// timestamp pair (naive against aware is a boundary a JSON row can carry).
func ValueRows(sig *Signature, lits []string) []validate.Row {
	n := len(sig.Params)
	types := make([]Type, n)
	pools := make([][]any, n)
	for i, p := range sig.Params {
		types[i] = Infer(sig.Language, p)
		pools[i] = Pool(types[i], lits)
		if len(pools[i]) == 0 {
			return nil // a parameter no value can be built for
		}
	}
	var rows []validate.Row
	mk := func(cls string, vals []any) { rows = append(rows, SignatureRow(sig, cls, vals)) }
	typical := func() []any { return TypicalValues(pools) }
	OneAtATime(sig, pools, mk)
	var strs []int
	for i, t := range types {
		if t.Kind == "str" {
			strs = append(strs, i)
		}
	}
	if len(strs) >= 2 {
		a, b := strs[0], strs[1]
		for _, pair := range [][2]string{
			{"2024-03-01T00:00:00", "2024-03-01T01:30:00+00:00"},
			{"2024-03-01T00:00:00+00:00", "2024-03-01T01:30:00"},
			{"2024-03-01T00:00:00+02:00", "2024-03-01T01:30:00+00:00"},
			{"2024-03-01T01:30:00", "2024-03-01T00:00:00"},
		} {
			vals := typical()
			vals[a], vals[b] = pair[0], pair[1]
			mk(sig.Params[a].Name+"_"+sig.Params[b].Name+"_timestamps", vals)
		}
	}
	if len(rows) > maxSignatureRows {
		rows = rows[:maxSignatureRows]
	}
	return rows
}

// maxStructValues bounds the objects built for one struct type.
const maxStructValues = 24

// structPool is objects of a Go struct: the zero value, every field at its
// typical value, then each field varied over the head of its pool.
func structPool(t Type, lits []string) []any {
	out := []any{map[string]any{}}
	pools := make([][]any, len(t.Fields))
	typ := map[string]any{}
	for i, f := range t.Fields {
		pools[i] = Pool(f.Type, lits)
		if len(pools[i]) > 0 {
			typ[f.Name] = pools[i][0]
		}
	}
	if len(typ) > 0 {
		out = append(out, typ)
	}
	for i, f := range t.Fields {
		for _, v := range pools[i][min(1, len(pools[i])):min(5, len(pools[i]))] {
			o := map[string]any{}
			for k, x := range typ {
				o[k] = x
			}
			o[f.Name] = v
			out = append(out, o)
			if len(out) == maxStructValues {
				return out
			}
		}
	}
	return out
}

// closers pair an opening literal with the one that closes it.
var closers = map[string]string{"(": ")", "[": "]", "{": "}", "<": ">", "<!--": "-->", "/*": "*/", "{{": "}}", "${": "}", `"`: `"`, "'": "'", "`": "`"}

// maxComposed bounds the strings composed from one function's literals.
const maxComposed = 24

// composed are strings built from a function's own literals (issue 13,
// part 3), where parsers of markup, queries and file names keep their
// bugs: each pair of its literals that open and close something (< and >,
// #( and )#) around text, spaced, empty, split by a newline, nested in
// another pair or left unclosed; and each multi-character literal that
// looks like a suffix (.tar.gz) after a name and a number joined by one of
// its single-character literals, with the name empty.
func composed(lits []string) []string {
	have := map[string]bool{}
	for _, l := range lits {
		have[l] = true
	}
	type pair struct{ open, close string }
	var pairs []pair
	for _, o := range lits {
		for _, c := range lits {
			if ClosesPair(o, c) {
				pairs = append(pairs, pair{o, c})
			}
		}
	}
	var out []string
	add := func(s ...string) {
		for _, x := range s {
			if len(out) < maxComposed && !have[x] {
				have[x] = true
				out = append(out, x)
			}
		}
	}
	for i, p := range pairs {
		o, c := p.open, p.close
		add("a "+o+"b"+c+" c", o+"a"+c+o+"b"+c, "a"+o+c+"b", o+"a\nb"+c+"c", o+"a"+o+"b"+c+"c"+c, o+"a", "a"+c+"b")
		for j, q := range pairs {
			if j != i {
				// One pair inside the other: which closes first is where
				// two patterns and one disagree.
				add(o + "a " + q.open + " b " + q.close + " c" + c + "d")
			}
		}
	}
	var seps []string
	for _, l := range lits {
		if len([]rune(l)) == 1 && !unicode.IsLetter([]rune(l)[0]) && !unicode.IsDigit([]rune(l)[0]) {
			seps = append(seps, l)
		}
	}
	for _, l := range lits {
		if len(l) < 2 || l[0] != '.' || len(seps) == 0 {
			continue
		}
		s := seps[0]
		add("a"+s+"1.0"+l, s+"1.0"+l, "a\n"+s+"1.0"+l, "a"+s+l)
	}
	return out
}

// ClosesPair says c closes what o opens: a known pair, or literals that
// end and start with one (#( and )#).
func ClosesPair(o, c string) bool {
	if want, ok := closers[o]; ok {
		return c == want
	}
	if o == "" || c == "" || o == c {
		return false
	}
	want, ok := closers[o[len(o)-1:]]
	return ok && len(o) <= 4 && len(c) <= 4 && strings.HasPrefix(c, want) && !strings.ContainsAny(o[:len(o)-1], "()[]{}<>")
}

// WithSeparators adds to lits what a pattern among them is built of: the
// literal pieces between its operators (<!-- and --> of <!--.*?-->), read
// with regexp/syntax, strings it matches (patternSamples), and its
// punctuation, so that text can be composed of them.
func WithSeparators(lits []string) []string {
	seen := map[string]bool{}
	for _, l := range lits {
		seen[l] = true
	}
	out := lits
	pieces, seps, samples := 0, 0, 0
	// Two patterns among the literals, such as a changed pattern's two
	// versions, give first the words only one of them matches.
	for _, p := range DistinguishingPairs(Patterns(lits, 6)) {
		if !seen[p] && samples < 8 {
			seen[p] = true
			samples++
			out = append(out, p)
		}
	}
	for _, l := range lits {
		if !isPattern(l) {
			continue
		}
		for _, p := range PatternPieces(l) {
			if !seen[p] && pieces < 8 {
				seen[p] = true
				pieces++
				out = append(out, p)
			}
		}
		for i, p := range PatternSamples(l) {
			// A few of each pattern, so that the last pattern read gets
			// some too.
			if !seen[p] && samples < 16 && i < 3 {
				seen[p] = true
				samples++
				out = append(out, p)
			}
		}
		for _, r := range "-_.+~/:@,;|" {
			c := string(r)
			if strings.Contains(l, c) && !seen[c] && seps < 4 {
				seen[c] = true
				seps++
				out = append(out, c)
			}
		}
	}
	return out
}

// isPattern says a literal reads as a regular expression.
func isPattern(l string) bool { return strings.ContainsAny(l, "[]()^$*?|\\") }

// Patterns are the literals of lits that read as regular expressions (a
// changed pattern's two versions among them), at most n.
func Patterns(lits []string, n int) []string {
	var out []string
	for _, l := range lits {
		if isPattern(l) && len(out) < n {
			out = append(out, l)
		}
	}
	return out
}

// DistinguishingPairs are, for each pair of patterns, the texts the two
// treat apart (Distinguishing), pair after pair.
func DistinguishingPairs(patterns []string) []string {
	var out []string
	for i, a := range patterns {
		for _, b := range patterns[i+1:] {
			out = append(out, Distinguishing(a, b)...)
		}
	}
	return out
}

// PatternPieces are the literal strings a regular expression matches
// verbatim, longest runs as written; nil when it does not parse.
func PatternPieces(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(r *syntax.Regexp, depth int)
	walk = func(r *syntax.Regexp, depth int) {
		if depth > 20 || len(out) >= 12 {
			return
		}
		if r.Op == syntax.OpLiteral && r.Flags&syntax.FoldCase == 0 {
			out = append(out, string(r.Rune))
			return
		}
		for _, s := range r.Sub {
			walk(s, depth+1)
		}
	}
	walk(re, 0)
	return out
}

// compareRe finds a comparison between two names, or between the length
// of one and another: x > hi, len(xs) <= n.
// A JavaScript name may hold $, and its equality is === and !== too.
var compareRe = regexp.MustCompile(`(?:\blen\(\s*([A-Za-z_$][\w$]*)\s*\)|\b([A-Za-z_$][\w$]*))\s*(<=|>=|<|>|===?|!==?)\s*(?:\blen\(\s*([A-Za-z_$][\w$]*)\s*\)|\b([A-Za-z_$][\w$]*))`)

// RelationCalls are calls that put two parameters the function compares
// with each other at the edge of their comparison: equal, and a step or
// half a step either side (x > hi is where hi + 0.5 and hi + 1 part from
// x >= hi + 1), or a list's length at and beside a number it is compared
// with. typical holds each parameter's typical value; the calls vary the
// first of the pair.
func RelationCalls(sig *Signature, text string, pools [][]any, halves bool) [][]any {
	index := map[string]int{}
	for i, p := range sig.Params {
		index[strings.TrimLeft(p.Name, "*")] = i
	}
	typical := TypicalValues(pools)
	matches := compareRe.FindAllStringSubmatch(text, 40)
	// Every parameter compared as a number holds a number in these calls,
	// so that the other comparisons do not raise first.
	for _, m := range matches {
		for _, name := range []string{m[2], m[5]} {
			if i, ok := index[name]; ok && name != "" {
				if n, ok := firstNumber(pools[i]); ok {
					typical[i] = n
				}
			}
		}
	}
	var out [][]any
	seen := map[string]bool{}
	for _, m := range matches {
		lenA, a, lenB, b := m[1], m[2], m[4], m[5]
		ia, okA := index[lenA+a]
		ib, okB := index[lenB+b]
		if !okA || !okB || ia == ib || seen[m[0]] {
			continue
		}
		seen[m[0]] = true
		switch {
		case lenA == "" && lenB == "":
			// Both numbers: a takes b's value and its neighbours.
			for _, pair := range [][2]int{{ia, ib}, {ib, ia}} {
				like, ok := firstNumber(pools[pair[1]])
				if !ok {
					continue
				}
				base, _ := Number(like)
				for _, d := range []float64{-1, -0.5, 0, 0.5, 1} {
					if _, isInt := like.(int); isInt && !halves && d != float64(int(d)) {
						continue // a Go int takes no half
					}
					vals := append([]any{}, typical...)
					vals[pair[1]] = like
					vals[pair[0]] = sameKind(like, base+d)
					out = append(out, vals)
				}
			}
		case lenA != "" && lenB == "":
			out = append(out, lengthCalls(pools, typical, ia, ib)...)
		case lenA == "" && lenB != "":
			out = append(out, lengthCalls(pools, typical, ib, ia)...)
		}
	}
	return out
}

// firstNumber is the first number of a pool.
func firstNumber(pool []any) (any, bool) {
	for _, v := range pool {
		if _, ok := Number(v); ok {
			return v, true
		}
	}
	return nil, false
}

// lengthCalls set the number parameter n to the length of list parameter
// l, and one either side of it.
func lengthCalls(pools [][]any, typical []any, l, n int) [][]any {
	xs, ok := typical[l].([]any)
	if !ok {
		return nil
	}
	if _, isNum := firstNumber(pools[n]); !isNum {
		return nil
	}
	var out [][]any
	for _, d := range []int{-1, 0, 1} {
		vals := append([]any{}, typical...)
		vals[n] = len(xs) + d
		out = append(out, vals)
	}
	return out
}

// Number is a row value's number: an int, int64 or float64.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// sameKind is f as the kind of like: an int when like is one and f is
// whole, else a float.
func sameKind(like any, f float64) any {
	if _, isInt := like.(int); isInt && f == float64(int(f)) {
		return int(f)
	}
	return f
}

// digitsRe finds arithmetic on decimal digits: a remainder or quotient by
// a power of ten (n % 100, n // 10, Decimal(n) % Decimal(100)).
var digitsRe = regexp.MustCompile(`(%|//|/)\s*(Decimal\()?\s*10+\b`)

// DigitShapes are numbers with each decimal place zero or not: a
// function that takes a number apart digit by digit (to words, to a
// checksum) has a branch per place, and an edge where one is zero (120:
// tens but no ones; 1001: thousands and ones, nothing between). None when
// text does no such arithmetic.
func DigitShapes(text string) []any {
	if !digitsRe.MatchString(text) {
		return nil
	}
	return []any{10, 11, 20, 21, 100, 101, 110, 120, 111, 1000, 1001, 1010, 1100, 2000, 21000, 100000}
}

// Evidence rows need breadth more than precision: they only ask whether
// base and head agree, so any well-typed input is a fair question. The
// values below are the boundaries agent patches move (empty, one, several,
// unsorted, duplicated, touching, inverted, negative, blank, numeric
// strings, naive and aware timestamps), built for each parameter from its
// annotation or Go type, and from the string literals of the function's two
// versions, as a fuzzer's dictionary would.

func init() {
	kindPools = map[string]func(t Type, lits []string) []any{
		KindInt:       intPool,
		KindFloat:     floatPool,
		KindBool:      func(Type, []string) []any { return []any{true, false} },
		KindTime:      rfc3339Pool,
		KindStr:       strPool,
		KindIntervals: intervalsPool,
		KindList:      listsPool,
		KindDict:      dictPool,
		KindAny: func(Type, []string) []any {
			return []any{"abc", 8, "", "8", 8.5, -1, 0, true, false, []any{"a", 1}, map[string]any{"a": 1}, "1,000", 1e20, " 8 ",
				// Numbers at the bounds of the integer types, as numbers
				// and as text: where a conversion picks the signed or the
				// unsigned parse, or a narrower type.
				"-1", "1.0", "0x10", int64(math.MaxInt64), "9223372036854775808", "18446744073709551615", 4294967296}
		},
		KindStruct: structPool,
		KindFunc:   funcPool,
		KindWriter: func(Type, []string) []any { return []any{map[string]any{"$writer": true}} },
		KindReader: readerPool,
	}
}
