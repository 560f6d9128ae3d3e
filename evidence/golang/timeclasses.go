package golang

import (
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// TimeClasses are a time.Time parameter's classes for the timezone
// template, as the RFC 3339 text the harness decodes: Go has no naive
// time, so a time in UTC, the same instant at another offset, and lists
// in one zone or two.
func (*goLang) TimeClasses(t lang.Type) []lang.TimeClass {
	const (
		utc    = "2024-03-01T12:00:00Z"
		utc2   = "2024-03-01T13:30:00Z"
		offset = "2024-03-01T17:30:00+05:30"
	)
	switch {
	case isTime(t):
		return []lang.TimeClass{
			{Name: "aware_utc", Kind: validate.KindRepresentative, Value: utc, Relation: "a time in UTC"},
			{Name: "aware_offset", Kind: validate.KindBoundary, Value: offset, Relation: "a time at +05:30, the same instant as the UTC one"},
		}
	case t.Kind == lang.KindList && t.Elem != nil && isTime(*t.Elem):
		return []lang.TimeClass{
			{Name: "aware_list", Kind: validate.KindRepresentative, Value: []any{utc, utc2}, Relation: "times in one zone (UTC)"},
			{Name: "two_zones", Kind: validate.KindBoundary, Value: []any{utc2, offset}, Relation: "times in two zones"},
		}
	}
	return nil
}

func isTime(t lang.Type) bool {
	return t.Kind == lang.KindTime && strings.Contains(t.Text, "time.Time")
}

var _ lang.TimeClasser = (*goLang)(nil)
