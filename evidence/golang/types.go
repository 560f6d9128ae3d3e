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
		// Nanoseconds, as JSON carries them (goDurations adds the
		// units' own values).
		return lang.Type{Kind: lang.KindInt, Text: s}
	case s == "time.Time" || s == "*time.Time":
		return lang.Type{Kind: lang.KindTime, Text: s}
	case s == "big.Int":
		// math/big's Int reads a JSON number of any size.
		return lang.Type{Kind: lang.KindInt, Text: s}
	case s == "net.IP" || s == "netip.Addr" || s == "netip.Prefix" || s == "netip.AddrPort" || s == "big.Rat" || s == "big.Float":
		// Types that read themselves from text (encoding.TextUnmarshaler,
		// which the harness's JSON decoding calls): addresses and
		// prefixes in their usual notation (goTextValues), numbers as
		// math/big spells them.
		return lang.Type{Kind: lang.KindStr, Text: s, Nullable: s == "net.IP"}
	case s == "net.HardwareAddr":
		// Bytes, as JSON carries a byte slice: base64 (goTextValues).
		return lang.Type{Kind: lang.KindStr, Text: s, Nullable: true}
	case s == "regexp.Regexp":
		// A *regexp.Regexp reads its pattern from text.
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "http.Request" || s == "http.ResponseWriter" || s == "http.Handler":
		// A handler's request, built by httptest.NewRequest, and a
		// recorder for its writer whose status, headers and body are
		// the outcome (goRequests); a middleware's next handler, one
		// that counts its runs, the returned handler then served
		// requests.
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "reflect.StructField":
		// Fields of Go's types, exported and not, tagged with the
		// function's own words ({"$go": "reflect.StructField"} values,
		// goStructFields).
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "reflect.Type":
		// Go's basic and container types, as {"$go": "reflect.Type"}
		// values naming them (goReflectTypes).
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "reflect.Value":
		// A settable value holding a JSON value or a typed one, as
		// {"$go": "reflect.Value"} values (goReflectValues).
		return lang.Type{Kind: lang.KindStr, Text: s}
	case s == "context.Context":
		// Background, canceled or past its deadline, as
		// {"$go": "context.Context"} values (goContexts).
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

// goDurations are a time.Duration's pool with the values at its units'
// bounds taking turns with it, where code that prints or rounds a
// duration has its bounds ("1 second", 52 weeks against a year) and the
// pool's extremes still come early (a row budget cuts the end).
func goDurations(pool []any) []any {
	return lang.DedupeValues(lang.Interleave([][]any{durationUnits(), pool}))
}

// durationUnits are, in nanoseconds: a second exactly and a nanosecond
// short of it, a minute, an hour, a day, 364 and 365 days (few: they take
// turns with the pool within one budget of receivers).
func durationUnits() []any {
	const (
		second = int64(1e9)
		day    = 24 * 3600 * second
	)
	return []any{second, second - 1, 60 * second, 3600 * second, day, 364 * day, 365 * day}
}

// goTextValues are the values of a type that reads itself from text, in
// that text: IPv4 and IPv6 addresses at the ends of their spaces and in
// the middle (a v4 address mapped into v6, a link-local one, the
// unspecified and loopback ones), prefixes of every length class, and
// hardware addresses of six and eight bytes (EUI-48 and EUI-64, base64 as
// JSON carries bytes). Nil where the type has one.
func goTextValues(typ string) []any {
	addrs := []any{"192.0.2.1", "0.0.0.0", "255.255.255.255", "10.0.0.255", "::", "::1", "2001:db8::1",
		"::ffff:192.0.2.1", "fe80::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db8::ff00:42:8329"}
	switch typ {
	case "net.IP":
		return append(addrs, nil)
	case "netip.Addr":
		return addrs
	case "netip.Prefix":
		return []any{"192.0.2.0/24", "10.0.0.0/8", "0.0.0.0/0", "192.0.2.1/32", "192.0.2.0/31", "::/0", "2001:db8::/32", "2001:db8::1/128", "fe80::/64", "::ffff:192.0.2.0/120"}
	case "netip.AddrPort":
		return []any{"192.0.2.1:80", "0.0.0.0:0", "255.255.255.255:65535", "[::1]:443", "[2001:db8::1]:8080", "[fe80::1]:0"}
	case "net.HardwareAddr":
		// 00:00:5e:00:53:01, ff:ff:ff:ff:ff:ff, 02:00:5e:10:00:00:00:01.
		return []any{"AABeAFMB", "////////", "AgBeEAAAAAE=", nil}
	case "big.Rat":
		return []any{"1/3", "0", "-5/2", "7", "22/7", "1/1000000007"}
	case "big.Float":
		return []any{"1.5", "0", "-2.25", "1e100", "0.1"}
	}
	return nil
}
