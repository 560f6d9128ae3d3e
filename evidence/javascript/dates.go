package javascript

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A date a test writes is moved to where date code breaks: the years
// before 100, which Date.UTC reads as 1900 and more, and 1850, before time
// zones were standard (New York kept its local mean time, -4:56:02, until
// 1883); and the edges of its own month, its first day at midnight and its
// last at 23:59:59 (cron-schedule's getPrevDate looked for an allowed day
// from day 0 of the month when the first had none left).
//
// A test writes a date as an ISO string, alone or as a built object's
// argument, or as new Date(...), which a row holds as {"$date": ISO} or
// {"$date": [year, monthIndex, day, ...]}.

// dateMove moves one date, written either way; ok is false when the
// move does not apply or changes nothing.
type dateMove struct {
	iso   func(s string) (string, bool)
	parts func(p []float64) ([]float64, bool)
}

// jsDateMoves are the moves each date of a test's call is given.
var jsDateMoves = []dateMove{
	{iso: isoYear("0099")}, // new Date(99, ...) is 1999: no list form
	{iso: isoYear("1850"), parts: partsYear(1850)},
	{iso: isoMonthStart, parts: partsMonthStart},
	{iso: isoMonthEnd, parts: partsMonthEnd},
}

// jsISODateRe is a string that starts with an ISO date's year and month,
// and maybe its day and a time after it.
var jsISODateRe = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})(?:-([0-9]{2})(.*))?$`)

func isoYear(year string) func(string) (string, bool) {
	return func(s string) (string, bool) {
		if s[:4] == year {
			return s, false
		}
		return year + s[4:], true
	}
}

// isoMonthStart is s on the first of its month, its time (if any) at
// midnight, its zone kept.
func isoMonthStart(s string) (string, bool) {
	m := jsISODateRe.FindStringSubmatch(s)
	if m == nil || m[3] == "" {
		return s, false
	}
	out := m[1] + "-" + m[2] + "-01" + isoClock(m[4], func(int, string) string { return "" })
	return out, out != s
}

// isoMonthEnd is s on the last day of its month, its time (if any) at
// 23:59:59 and the largest fraction its digits hold.
func isoMonthEnd(s string) (string, bool) {
	m := jsISODateRe.FindStringSubmatch(s)
	if m == nil || m[3] == "" {
		return s, false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	if mo < 1 || mo > 12 {
		return s, false
	}
	last := time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	out := m[1] + "-" + m[2] + "-" + strconv.Itoa(last) + isoClock(m[4], func(group int, digits string) string {
		switch group {
		case 0:
			return "23"
		case 1, 2:
			return "59"
		}
		return strings.Repeat("9", len(digits))
	})
	return out, out != s
}

// isoClock is the time after an ISO date's day with each group of digits
// before its zone rewritten by set (group 0 the hour, 1 the minute, 2 the
// second, 3 the fraction; "" sets each digit 0); the zone as it was.
func isoClock(rest string, set func(group int, digits string) string) string {
	var b strings.Builder
	group, i := 0, 0
	for i < len(rest) {
		c := rest[i]
		if i > 0 && (c == 'Z' || c == 'z' || c == '+' || c == '-') {
			b.WriteString(rest[i:])
			break
		}
		if c < '0' || c > '9' {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		digits := rest[i:j]
		to := set(group, digits)
		if len(to) != len(digits) {
			to = strings.Repeat("0", len(digits))
		}
		b.WriteString(to)
		group++
		i = j
	}
	return b.String()
}

func partsYear(year float64) func([]float64) ([]float64, bool) {
	return func(p []float64) ([]float64, bool) {
		if p[0] == year {
			return p, false
		}
		out := append([]float64(nil), p...)
		out[0] = year
		return out, true
	}
}

// partsMonthStart is new Date(y, m, ...) on the first of month m at
// midnight, as many parts as the test wrote (at least the day).
func partsMonthStart(p []float64) ([]float64, bool) {
	return partsAt(p, []float64{p[0], p[1], 1, 0, 0, 0, 0})
}

// partsMonthEnd is new Date(y, m, ...) on the last day of month m (day 0
// of the next) at 23:59:59.999.
func partsMonthEnd(p []float64) ([]float64, bool) {
	return partsAt(p, []float64{p[0], p[1] + 1, 0, 23, 59, 59, 999})
}

// partsAt is to cut to as many parts as p has (the day at least); false
// when that is p itself.
func partsAt(p, to []float64) ([]float64, bool) {
	n := max(len(p), 3)
	out := to[:n]
	if slices.Equal(out, p) {
		return p, false
	}
	return out, true
}

// jsMoveDates is v with each date in it (a list's element, a built
// object's $args, a {"$date": ...}) moved by mv; ok says one was moved.
func jsMoveDates(v any, mv dateMove, depth int) (any, bool) {
	if depth > 3 {
		return v, false
	}
	switch x := v.(type) {
	case string:
		if mv.iso != nil && jsISODateRe.MatchString(x) {
			return mv.iso(x)
		}
	case []any:
		out, moved := make([]any, len(x)), false
		for i, e := range x {
			var ok bool
			out[i], ok = jsMoveDates(e, mv, depth+1)
			moved = moved || ok
		}
		return out, moved
	case map[string]any:
		if d, ok := x["$date"]; ok && len(x) == 1 {
			if to, ok := moveDate(d, mv); ok {
				return map[string]any{"$date": to}, true
			}
			return v, false
		}
		if _, ok := x["$new"]; ok {
			if moved, ok := jsMoveDates(x["$args"], mv, depth+1); ok {
				out := maps.Clone(x)
				out["$args"] = moved
				return out, true
			}
		}
	}
	return v, false
}

// moveDate moves a {"$date": ...}'s value: an ISO string or the numbers
// new Date was given (a single number, milliseconds, stays).
func moveDate(d any, mv dateMove) (any, bool) {
	switch x := d.(type) {
	case string:
		if mv.iso != nil && jsISODateRe.MatchString(x) {
			return mv.iso(x)
		}
	case []any:
		if mv.parts == nil || len(x) < 2 {
			return d, false
		}
		p := make([]float64, len(x))
		for i, e := range x {
			f, ok := dateNumber(e)
			if !ok {
				return d, false
			}
			p[i] = f
		}
		to, ok := mv.parts(p)
		if !ok {
			return d, false
		}
		out := make([]any, len(to))
		for i, f := range to {
			out[i] = int(f)
		}
		return out, true
	}
	return d, false
}

// dateNumber is a whole number of new Date's parts, as a row holds it.
func dateNumber(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case float64:
		f = x
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	return f, f == float64(int(f))
}

// jsDateTypeRe is a parameter TypeScript types as a Date (maybe null or
// undefined as well).
var jsDateTypeRe = regexp.MustCompile(`^\s*Date\s*(\|\s*(null|undefined)\s*)*$`)

// jsDates are the dates a parameter typed Date is handed: the edges of a
// month, a year and a leap day, before the epoch, and no date at all
// (new Date("x"), whose time is NaN).
func jsDates() []any {
	var out []any
	for _, s := range []string{"2024-03-15T12:30:00.000Z", "2024-03-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z",
		"2023-12-31T23:59:59.000Z", "2024-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "Invalid Date"} {
		out = append(out, map[string]any{"$date": s})
	}
	return out
}
