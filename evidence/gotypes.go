package evidence

import (
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// inferGo reads a Go parameter's type.
func inferGo(p Param) Type {
	t := goType(strings.TrimSpace(p.Type), p.Name)
	t.From, t.Text = "go type", p.Type
	return t
}

func goType(s, name string) Type {
	switch {
	case s == "int" || s == "int64" || s == "int32" || s == "int16" || s == "int8" || s == "uint" || s == "uint64" || s == "uint32" || s == "uint16" || s == "uint8" || s == "byte" || s == "rune":
		return Type{Kind: kindInt}
	case s == "float64" || s == "float32":
		return Type{Kind: kindFloat}
	case s == "string":
		return Type{Kind: kindStr}
	case s == "bool":
		return Type{Kind: kindBool}
	case s == "time.Duration":
		// Nanoseconds, as JSON carries them.
		return Type{Kind: kindInt, Text: s}
	case s == "time.Time" || s == "*time.Time":
		return Type{Kind: kindTime, Text: s}
	case s == "[][2]int" || s == "[][2]int64" || s == "[][2]float64" || ((s == "[][]int" || s == "[][]int64") && lang.IntervalName.MatchString(name)):
		return Type{Kind: kindIntervals}
	case strings.HasPrefix(s, "[]"):
		e := goType(s[2:], "")
		t := Type{Kind: kindList, Nullable: true}
		if e.Kind != kindUnknown {
			t.Elem = &e
		}
		return t
	case strings.HasPrefix(s, "..."):
		return Type{} // variadic: not built by templates
	case strings.HasPrefix(s, "map[string]"):
		return Type{Kind: kindDict, Nullable: true}
	case strings.HasPrefix(s, "*"):
		t := goType(s[1:], name)
		if t.Kind != kindUnknown {
			t.Nullable = true
		}
		return t
	}
	return Type{}
}
