package python

import (
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// TimeClasses are a datetime parameter's classes for the timezone
// template, as expressions the worker evaluates: naive and aware values
// alone, and lists that mix them or two zones (comparing a naive with an
// aware datetime raises; two zones hold one instant under two clocks).
func (*pythonLang) TimeClasses(t lang.Type) []lang.TimeClass {
	dt := func(src string) any {
		return map[string]any{lang.ExprKey: src, lang.ImportsKey: []any{"import datetime"}}
	}
	const (
		naive  = "datetime.datetime(2024, 3, 1, 12, 0)"
		later  = "datetime.datetime(2024, 3, 1, 13, 30)"
		utc    = "datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)"
		utc2   = "datetime.datetime(2024, 3, 1, 13, 30, tzinfo=datetime.timezone.utc)"
		offset = "datetime.datetime(2024, 3, 1, 17, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=5, minutes=30)))"
	)
	switch {
	case isDatetime(t):
		return []lang.TimeClass{
			{Name: "naive", Kind: validate.KindRepresentative, Value: dt(naive), Relation: "a naive datetime"},
			{Name: "aware_utc", Kind: validate.KindRepresentative, Value: dt(utc), Relation: "an aware datetime in UTC"},
			{Name: "aware_offset", Kind: validate.KindBoundary, Value: dt(offset), Relation: "an aware datetime at +05:30, the same instant as the UTC one"},
		}
	case t.Kind == lang.KindList && t.Elem != nil && isDatetime(*t.Elem):
		return []lang.TimeClass{
			{Name: "naive_list", Kind: validate.KindRepresentative, Value: []any{dt(naive), dt(later)}, Relation: "naive datetimes only"},
			{Name: "aware_list", Kind: validate.KindRepresentative, Value: []any{dt(utc), dt(utc2)}, Relation: "aware datetimes in one zone (UTC)"},
			{Name: "mixed_naive_aware", Kind: validate.KindBoundary, Value: []any{dt(naive), dt(utc2)}, Relation: "a naive and an aware datetime together"},
			{Name: "two_zones", Kind: validate.KindBoundary, Value: []any{dt(utc2), dt(offset)}, Relation: "aware datetimes in two zones"},
		}
	}
	return nil
}

// isDatetime: a datetime, not a date, time or duration alone (timePool
// reads the type's text the same way).
func isDatetime(t lang.Type) bool {
	if t.Kind != lang.KindTime {
		return false
	}
	text := t.Text
	return text == "" || strings.Contains(text, "datetime") && !strings.Contains(text, "timedelta") ||
		!strings.Contains(text, "date") && !strings.Contains(text, "time")
}

var _ lang.TimeClasser = (*pythonLang)(nil)
