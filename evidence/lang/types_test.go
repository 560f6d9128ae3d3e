package lang

import "testing"

// TestByNameReadsTextNames: a parameter no annotation types is typed by
// its name where the name says what it holds; a URI, a host or a
// selector is text (w3lib's safe_url_string(uri): the template had no
// value for it and its decision was left unchecked).
func TestByNameReadsTextNames(t *testing.T) {
	for _, name := range []string{"uri", "url", "host", "hostname", "scheme", "selector", "html", "message", "filename", "base_uri", "encoding"} {
		if got := ByName(name); got.Kind != KindStr {
			t.Errorf("ByName(%q) = %v, want text", name, got.Kind)
		}
	}
	for _, name := range []string{"ranges", "count", "created_at", "items"} {
		if got := ByName(name); got.Kind == KindStr {
			t.Errorf("ByName(%q) is text", name)
		}
	}
}
