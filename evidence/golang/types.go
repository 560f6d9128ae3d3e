package golang

import (
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// inferGo reads a Go parameter's type.
func inferGo(p lang.Param) lang.Type {
	t := goType(strings.TrimSpace(p.Type), p.Name)
	t.From, t.Text = "go type", p.Type
	return t
}

func goType(s, name string) lang.Type {
	switch {
	case s == "int" || s == "int64" || s == "int32" || s == "int16" || s == "int8" || s == "uint" || s == "uint64" || s == "uint32" || s == "uint16" || s == "uint8" || s == "byte" || s == "rune":
		return lang.Type{Kind: lang.KindInt}
	case s == "float64" || s == "float32":
		return lang.Type{Kind: lang.KindFloat}
	case s == "string":
		return lang.Type{Kind: lang.KindStr}
	case s == "bool":
		return lang.Type{Kind: lang.KindBool}
	case s == "time.Duration":
		// Nanoseconds, as JSON carries them; the units' own values
		// first, where code that prints or rounds a duration has its
		// bounds ("1 second", 52 weeks against a year).
		return lang.Type{Kind: lang.KindInt, Text: s, Consts: goDurations()}
	case s == "time.Time" || s == "*time.Time":
		return lang.Type{Kind: lang.KindTime, Text: s}
	case s == "big.Int":
		// math/big's Int reads a JSON number of any size.
		return lang.Type{Kind: lang.KindInt, Text: s}
	case s == "regexp.Regexp":
		// A *regexp.Regexp reads its pattern from text.
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "time.Location":
		// Zones as {"$go": "*time.Location"} values (goLocations).
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "[]byte":
		// Text, as the harness builds a byte slice from {"$go": "[]byte"}
		// (goBytes): a parser's input is text far more often than a list
		// of small numbers.
		return lang.Type{Kind: lang.KindStr, Text: s, Nullable: true}
	case s == "[][2]int" || s == "[][2]int64" || s == "[][2]float64" || ((s == "[][]int" || s == "[][]int64") && lang.IntervalName.MatchString(name)):
		return lang.Type{Kind: lang.KindIntervals}
	case strings.HasPrefix(s, "[]"):
		e := goType(s[2:], "")
		t := lang.Type{Kind: lang.KindList, Nullable: true}
		if e.Kind != lang.KindUnknown {
			t.Elem = &e
		}
		return t
	case strings.HasPrefix(s, "..."):
		return lang.Type{} // variadic: not built by templates
	case strings.HasPrefix(s, "map[string]"):
		return lang.Type{Kind: lang.KindDict, Nullable: true}
	case strings.HasPrefix(s, "*"):
		t := goType(s[1:], name)
		if t.Kind != lang.KindUnknown {
			t.Nullable = true
		}
		return t
	}
	return lang.Type{}
}

// goDurations are a time.Duration's values at its units' bounds, in
// nanoseconds: a second exactly, a nanosecond short of it and two, a
// second and a half, a millisecond and a microsecond, a minute, an hour,
// a day, a week, 364 and 365 days, and a second back.
func goDurations() []any {
	const (
		second = int64(1e9)
		day    = 24 * 3600 * second
	)
	return []any{second, second - 1, 2 * second, 3 * second / 2, second / 1000, second / 1e6,
		60 * second, 3600 * second, day, 7 * day, 364 * day, 365 * day, -second}
}
