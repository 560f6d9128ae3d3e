package evidence

import "testing"

// TestNameTemplatesFindDispatch: a function that dispatches by name
// (getattr(self, 'xpath_%s_function' % name), 'visit_' + kind) calls the
// functions its template names, so a changed one is reached from it
// (cssselect's xpath_nth_child_function, reached only so, was "not
// exercised" on every intended change to it), and JavaScript's
// this["$" + type] calls $Date (ohash's serializer).
func TestNameTemplatesFindDispatch(t *testing.T) {
	body := `        method = getattr(self, 'xpath_%s_function' % function.name.replace('-', '_'), None)
        other = getattr(self, "visit_" + type(node).__name__)
        third = "render_{}".format(kind)
        plain = "not a template"
      const handler = this["$" + objType];
`
	templates := nameTemplates(body)
	matches := func(name string) bool {
		for _, tmpl := range templates {
			if tmpl.MatchString(name) {
				return true
			}
		}
		return false
	}
	for _, name := range []string{"xpath_nth_child_function", "visit_Call", "render_table", "$Date"} {
		if !matches(name) {
			t.Errorf("%s is dispatched to, and no template of the body matches it", name)
		}
	}
	for _, name := range []string{"xpath_nth_child", "nth_child_function", "visit", "plain", "not_a_template", "Date", "$"} {
		if matches(name) {
			t.Errorf("%s is not dispatched to, and a template matches it", name)
		}
	}
}
